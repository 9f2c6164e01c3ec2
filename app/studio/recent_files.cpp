#include "studio/recent_files.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <system_error>

#include "nudge/atomic_file.h"

namespace nudge::studio {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMaxFileBytes = 1 << 20;  // a list of ten paths is far smaller

// One spelling per file: absolute, with symbolic links and ".." resolved as far as the
// file exists.
fs::path normalized(const fs::path& path) {
  std::error_code ec;
  fs::path absolute = fs::absolute(path, ec);
  if (ec) return path.lexically_normal();
  fs::path canonical = fs::weakly_canonical(absolute, ec);
  return ec ? absolute.lexically_normal() : canonical;
}

}  // namespace

void RecentFiles::add(const fs::path& path) {
  if (path.empty()) return;
  const fs::path entry = normalized(path);
  std::erase(paths_, entry);
  paths_.insert(paths_.begin(), entry);
  if (paths_.size() > kMaxEntries) paths_.resize(kMaxEntries);
}

void RecentFiles::remove(const fs::path& path) { std::erase(paths_, normalized(path)); }

RecentFiles RecentFiles::load(const fs::path& file) {
  RecentFiles recent;
  std::error_code ec;
  const auto size = fs::file_size(file, ec);
  if (ec || size > kMaxFileBytes) return recent;
  std::ifstream in(file, std::ios::binary);
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  // No exceptions: a malformed file is discarded, not reported.
  const nlohmann::json root = nlohmann::json::parse(text, nullptr, false);
  if (!root.is_object() || !root.contains("files") || !root["files"].is_array()) return recent;
  // Oldest first, so that add() leaves the newest in front and drops repeats and extras.
  const nlohmann::json& files = root["files"];
  for (auto it = files.rbegin(); it != files.rend(); ++it)
    if (it->is_string() && !it->get_ref<const std::string&>().empty()) recent.add(it->get<std::string>());
  return recent;
}

Status RecentFiles::save(const fs::path& file) const {
  nlohmann::json files = nlohmann::json::array();
  for (const fs::path& path : paths_) files.push_back(path.string());
  const nlohmann::json root = {{"files", files}};
  if (file.has_parent_path()) {
    std::error_code ec;
    fs::create_directories(file.parent_path(), ec);
    if (ec) return Error{file.string() + ": cannot create its folder: " + ec.message()};
  }
  // A path that is not UTF-8 cannot be stored in JSON as it is; replacing its bad bytes keeps
  // the save from throwing (that entry will then fail to open and can be removed).
  return write_file_atomically(file, root.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
}

fs::path default_recent_files_path() {
  // The XDG spec says to ignore a relative XDG_CONFIG_HOME.
  if (const char* config = std::getenv("XDG_CONFIG_HOME"); config && fs::path(config).is_absolute())
    return fs::path(config) / "nudge" / "recent.json";
  if (const char* home = std::getenv("HOME"); home && *home)
    return fs::path(home) / ".config" / "nudge" / "recent.json";
  return {};
}

}  // namespace nudge::studio
