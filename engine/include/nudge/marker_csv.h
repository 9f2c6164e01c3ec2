// Reading reference marker tracks, the samples of a markers objective: CSV files with the
// header `frame,marker,x,y,z` and one row per observed marker per frame. The scene loader
// reads a markers objective's file with it, and so does the studio's editor when it binds
// a marker whose samples the scene does not keep (a scene keeps only bound markers').
#pragma once

#include <cstdint>
#include <filesystem>
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

}  // namespace nudge
