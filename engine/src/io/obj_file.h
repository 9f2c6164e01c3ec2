// Reading the vertices of Wavefront OBJ files, the meshes convex bodies are made from.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <string_view>
#include <vector>

#include "nudge/result.h"

namespace nudge {

inline constexpr std::uintmax_t kMaxObjFileBytes = std::uintmax_t{256} << 20;

// The vertex positions of an OBJ file, in file order: its `v x y z` lines (an optional
// w, or the r g b some exporters append, may follow and is ignored). Everything else
// (faces, normals, texture coordinates, groups, materials, comments) is skipped: a body
// is the convex hull of the vertices. Errors name the file and line:
// "rock.obj:12: found 'v 1.0 abc 2'; expected 'v x y z' with three finite numbers".
// A file with no vertices is an error; files larger than kMaxObjFileBytes are refused
// before reading.
Result<std::vector<std::array<double, 3>>> read_obj_vertices(const std::filesystem::path& file);

// The same for text already in memory; `file_label` names it in errors.
Result<std::vector<std::array<double, 3>>> parse_obj_vertices(std::string_view text, std::string_view file_label);

}  // namespace nudge
