// The File > Open Recent list: most recent first, each file once, at most kMaxEntries,
// kept between sessions in a small JSON file. A missing or malformed file reads as an
// empty list: the list is a convenience and must never stop the studio from starting.
#pragma once

#include <cstddef>
#include <filesystem>
#include <vector>

#include "nudge/result.h"

namespace nudge::studio {

class RecentFiles {
public:
  static constexpr std::size_t kMaxEntries = 10;

  // Most recent first, absolute and normalised.
  const std::vector<std::filesystem::path>& paths() const { return paths_; }

  // Puts `path` first (made absolute, so "a.json" and "./a.json" are one entry), dropping
  // an older entry for the same file and the oldest entry beyond kMaxEntries.
  void add(const std::filesystem::path& path);
  // Forgets a file, e.g. one that no longer opens.
  void remove(const std::filesystem::path& path);
  void clear() { paths_.clear(); }

  // {"files": ["/abs/a.json", ...]}; anything else, or no file, gives an empty list.
  static RecentFiles load(const std::filesystem::path& file);
  // Creates the folder when needed and writes atomically.
  Status save(const std::filesystem::path& file) const;

private:
  std::vector<std::filesystem::path> paths_;
};

// $XDG_CONFIG_HOME/nudge/recent.json, else $HOME/.config/nudge/recent.json; empty when
// neither variable is set.
std::filesystem::path default_recent_files_path();

}  // namespace nudge::studio
