// Closed triangle meshes from OBJ files, and the points of a lattice inside the solid one
// bounds: what Edit > Add > Liquid, Sand and Soft Solid fill when given a mesh instead of
// a box.
#pragma once

#include <array>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nudge/result.h"

namespace nudge {

struct TriangleMesh {
  std::vector<std::array<double, 3>> vertices;
  std::vector<std::array<int, 3>> triangles;  // indices into vertices
};

// An OBJ file's vertices (`v x y z`, as read_obj_vertices reads them) and faces
// (`f a b c ...`, each index as `i`, `i/t`, `i//n` or `i/t/n`, negative ones counted back
// from the last vertex so far; a polygon becomes a fan of triangles). Errors name the
// file and line; a file with no faces is an error.
Result<TriangleMesh> read_obj_mesh(const std::filesystem::path& file);
Result<TriangleMesh> parse_obj_mesh(std::string_view text, std::string_view file_label);

// Why the mesh bounds no solid, or nothing: every edge must be shared by exactly two
// triangles (a hole or a fin makes inside and outside meaningless).
std::optional<std::string> open_mesh_problem(const TriangleMesh& mesh);

// The points first + spacing (i, j, k), 0 <= i, j, k < counts, inside the solid the closed
// mesh bounds, in i, j, k order (k fastest): each lattice row along x is a ray whose
// crossings of the surface alternate in and out.
std::vector<std::array<double, 3>> lattice_points_inside(const TriangleMesh& mesh, const std::array<double, 3>& first,
                                                         double spacing, const std::array<long long, 3>& counts);

}  // namespace nudge
