// The checks every tet mesh reader makes, and choosing a reader by extension.
#include "io/tet_mesh_file.h"

#include <string>

#include "nudge/tet_mesh_file.h"

namespace nudge {

Status finish_read_tet_mesh(TetMesh& mesh, const std::string& tets_label, const std::vector<int>& tet_lines,
                            const std::vector<long long>& vertex_ids) {
  using Kind = TetMeshProblem::Kind;
  const auto at_tet = [&](int tet, const std::string& what) {
    return Error{tets_label + ":" + std::to_string(tet_lines[static_cast<std::size_t>(tet)]) + ": " + what};
  };
  const auto id = [&](int vertex) { return std::to_string(vertex_ids[static_cast<std::size_t>(vertex)]); };
  if (mesh.tet_count() == 0) return Error{tets_label + ": has no tets"};
  for (const TetMeshProblem& problem : check_tet_mesh(mesh)) {
    const auto corner = [&](int k) {
      return mesh.tets[4 * static_cast<std::size_t>(problem.index) + static_cast<std::size_t>(k)];
    };
    switch (problem.kind) {
      case Kind::repeated_vertex:
        for (int a = 0; a < 4; ++a)
          for (int b = a + 1; b < 4; ++b)
            if (corner(a) == corner(b)) return at_tet(problem.index, "the tet names point " + id(corner(a)) + " twice");
        break;
      case Kind::degenerate:
        return at_tet(problem.index, "the tet is flat: points " + id(corner(0)) + ", " + id(corner(1)) + ", " +
                                         id(corner(2)) + " and " + id(corner(3)) +
                                         " lie in one plane (or nearly), so it has no volume");
      case Kind::overshared_face:
        return at_tet(problem.index,
                      "a face of this tet is in 3 or more tets; expected a conforming mesh, where a "
                      "face is shared by at most 2");
      case Kind::index_out_of_range:
      case Kind::non_finite_vertex: return Error{tets_label + ": " + problem.message};  // the parsers rule these out
      case Kind::inverted:
      case Kind::unused_vertex: break;  // fixed below; kept
    }
  }
  orient_tets(mesh);
  return Ok{};
}

Result<TetMesh> read_tet_mesh(const std::filesystem::path& path) {
  if (path.extension() == ".msh") return read_gmsh_mesh(path);
  return read_tetgen_mesh(path);
}

}  // namespace nudge
