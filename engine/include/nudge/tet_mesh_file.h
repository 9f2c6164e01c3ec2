// Reading tet meshes from TetGen's .node/.ele pairs and Gmsh's .msh (version 2.2, ASCII).
#pragma once

#include <cstdint>
#include <filesystem>
#include <string_view>

#include "nudge/result.h"
#include "nudge/tet_mesh.h"

namespace nudge {

inline constexpr std::uintmax_t kMaxTetMeshFileBytes = std::uintmax_t{512} << 20;
inline constexpr long long kMaxTetMeshVertices = 20'000'000;
inline constexpr long long kMaxTetMeshTets = 100'000'000;

// What both readers do with the mesh they read: tets with negative volume are made
// positive by swapping two corners (writers differ in their orientation convention);
// a tet that names one point twice, or is flat by the test check_tet_mesh applies, and
// a face shared by three or more tets are errors. Vertices no tet uses are kept, in file
// order (remove_unused_vertices drops them). Errors name the file and line:
// "ball.ele:14: found point 9; ball.node has points 1 to 8".

// TetGen: `path` names the .node file, the .ele file, or their common stem ("ball" for
// ball.node and ball.ele). The .node's first line is `<points> [3 [<attributes>
// [<boundary marker 0|1>]]]`, then one `<number> x y z [attributes] [marker]` per
// point; its first point number (0 or 1) is the base both files count from, and the
// numbers must run on from it. The .ele's first line is `<tets> [4 [<region attribute
// 0|1>]]`, then one `<number> a b c d [attribute]` per tet. Attributes and markers are
// read and ignored; '#' starts a comment. 10-node (quadratic) tets are refused.
Result<TetMesh> read_tetgen_mesh(const std::filesystem::path& path);
// The same for text in memory; the labels name the files in errors.
Result<TetMesh> parse_tetgen_mesh(std::string_view node_text, std::string_view node_label, std::string_view ele_text,
                                  std::string_view ele_label);

// Gmsh .msh version 2 (2.2 as `gmsh -format msh22` writes it), ASCII: $MeshFormat, then
// $Nodes (`<id> x y z`, ids any distinct positive integers) and $Elements (`<id> <type>
// <tag count> <tags...> <nodes...>`). Type 4 (4-node tet) elements are the tets; points,
// lines, triangles and other 3-D types are skipped, except 10-node tets (type 11), which
// are refused. Other sections ($PhysicalNames, $NodeData, ...) are skipped. Binary files
// and version 4 are refused with what to do instead.
Result<TetMesh> read_gmsh_mesh(const std::filesystem::path& path);
Result<TetMesh> parse_gmsh_mesh(std::string_view text, std::string_view label);

// By extension: .msh is Gmsh, .node, .ele or none is TetGen.
Result<TetMesh> read_tet_mesh(const std::filesystem::path& path);

}  // namespace nudge
