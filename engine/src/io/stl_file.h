// Reading the vertices of STL files (binary or ASCII), the meshes robots' links are drawn
// and collide with (MJCF's and URDF's mesh geoms).
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <string_view>
#include <vector>

#include "nudge/result.h"

namespace nudge {

inline constexpr std::uintmax_t kMaxStlFileBytes = std::uintmax_t{256} << 20;

// The corners of an STL file's triangles, three per triangle in file order (shared
// corners repeat). Binary when the size is 84 + 50 n bytes for the n triangles its header
// counts; ASCII otherwise ("solid", then "vertex x y z" lines; the facets' other lines
// are not read). Errors name the file and, for ASCII, the line: "arm.stl:12: found
// 'vertex 1 abc 2'; expected 'vertex x y z' with three finite numbers"; "arm.stl: found
// 1000 bytes; expected 84 + 50 x 30 = 1584 for the 30 triangles its header counts".
Result<std::vector<std::array<double, 3>>> read_stl_vertices(const std::filesystem::path& file);

// The same for bytes already in memory; `file_label` names them in errors.
Result<std::vector<std::array<double, 3>>> parse_stl_vertices(std::string_view bytes, std::string_view file_label);

}  // namespace nudge
