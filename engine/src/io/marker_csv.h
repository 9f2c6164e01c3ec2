// Reading reference marker tracks: CSV files with the header `frame,marker,x,y,z`
// and one row per observed marker per frame.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "nudge/result.h"
#include "nudge/scene.h"

namespace nudge {

inline constexpr std::uintmax_t kMaxMarkerFileBytes = std::uintmax_t{256} << 20;

// The rows of a marker file, with the line each came from so that later checks
// (frames out of range, ...) can point at it.
struct MarkerTrack {
  std::vector<MarkerSample> samples;
  std::vector<int> lines;  // 1-based line number of each sample
};

// Errors name the file and line: "track.csv:7: expected 5 comma-separated values, found 4".
// Files larger than kMaxMarkerFileBytes are refused before reading.
Result<MarkerTrack> read_marker_csv(const std::filesystem::path& path);

// The same for text already in memory; `file_label` names it in errors.
Result<MarkerTrack> parse_marker_csv(std::string_view text, std::string_view file_label);

// Helpers shared with the scene loader.

// Reads a whole regular file, refusing directories, devices and files larger than
// max_bytes before reading. Errors start with the path; `kind` names what was
// expected ("a scene file").
Result<std::string> read_text_file(const std::filesystem::path& path, std::uintmax_t max_bytes,
                                   std::string_view kind);

// Text from a file made safe to show in a message: control bytes and invalid UTF-8
// become \xNN, and anything past max_chars characters becomes "...".
std::string printable_excerpt(std::string_view text, std::size_t max_chars = 60);

}  // namespace nudge
