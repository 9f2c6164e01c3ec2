#include "studio/recovery.h"

#include <chrono>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iterator>

#include "nudge/atomic_file.h"

namespace nudge::studio {

namespace fs = std::filesystem;

fs::path default_recovery_dir() {
  // The XDG spec says to ignore a relative XDG_STATE_HOME.
  if (const char* state = std::getenv("XDG_STATE_HOME"); state && fs::path(state).is_absolute())
    return fs::path(state) / "nudge";
  if (const char* home = std::getenv("HOME"); home && *home) return fs::path(home) / ".local" / "state" / "nudge";
  return {};
}

Status Recovery::write(const Document& document) {
  if (dir_.empty() || written_revision_ == document.revision()) return Ok{};
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) return Error{dir_.string() + ": cannot create the recovery folder: " + ec.message()};
  // The source first: a scene without its source is still recovered (as a new scene). An
  // example's copy names the example, and says it is a copy on a second line.
  const std::string source = document.has_path()          ? document.path().string() + "\n"
                             : document.copy_of().empty() ? "\n"
                                                          : document.copy_of().string() + "\ncopy\n";
  if (Status s = write_file_atomically(source_file(), source); !s) return s;
  if (Status s = save_scene(document.scene(), scene_file()); !s) return s;
  written_revision_ = document.revision();
  return Ok{};
}

void Recovery::clear() {
  if (dir_.empty()) return;
  std::error_code ec;
  fs::remove(scene_file(), ec);
  fs::remove(source_file(), ec);
  written_revision_.reset();
}

std::optional<Result<RecoveredScene>> Recovery::find() const {
  std::error_code ec;
  if (dir_.empty() || !fs::exists(scene_file(), ec)) return std::nullopt;
  Result<Scene> scene = load_scene(scene_file());
  if (!scene) return Result<RecoveredScene>(Error{"the recovery file could not be read: " + scene.error().message});
  RecoveredScene found;
  std::ifstream source(source_file());
  std::string line;
  if (source && std::getline(source, line) && !line.empty()) found.original = line;
  if (source && std::getline(source, line)) found.copy = line == "copy";
  // Its files (marker tracks, meshes) named from the original's folder again.
  found.scene = found.original.empty() ? std::move(*scene) : moved_scene(*scene, found.original);
  const auto written = fs::last_write_time(scene_file(), ec);
  if (!ec) {
    // The file clock's offset from the system clock, now (clock_cast is not in GCC 12).
    const auto age = fs::file_time_type::clock::now() - written;
    const std::time_t t = std::chrono::system_clock::to_time_t(
        std::chrono::system_clock::now() - std::chrono::duration_cast<std::chrono::system_clock::duration>(age));
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S", std::localtime(&t));
    found.written_at = text;
  }
  return Result<RecoveredScene>(std::move(found));
}

}  // namespace nudge::studio
