// Tet mesh measures, boundary, masses and validation (nudge/tet_mesh.h).
#include "nudge/tet_mesh.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <string>
#include <utility>

#include "families/tets/tet_neohookean.h"

namespace nudge {

namespace {

Vec3<double> point(const TetMesh& mesh, int tet, int corner) {
  const std::array<double, 3>& p = mesh.vertices[static_cast<std::size_t>(mesh.tets[4 * tet + corner])];
  return {p[0], p[1], p[2]};
}

// A number for a message: 6 significant digits, and tiny volumes not shown as 0.000000.
std::string number(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", x);
  return buffer;
}

// The kernel's rest test, so that a mesh this file accepts is one a rollout accepts.
TetRestStatus rest_status(const TetMesh& mesh, int tet, double flat_tolerance) {
  return tet_rest(point(mesh, tet, 0), point(mesh, tet, 1), point(mesh, tet, 2), point(mesh, tet, 3), flat_tolerance)
      .status;
}

// The faces of a positive tet (a, b, c, d) with outward normals: each is the opposite
// corner's face, ordered so that (x1 - x0) x (x2 - x0) points away from that corner.
constexpr int kFaceCorners[4][3] = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};

// Every face of every tet, as its sorted vertex triple and the (tet, face) it came from,
// sorted so that the copies of one face are adjacent.
struct FaceRef {
  std::array<int, 3> key;
  int tet, face;
};
std::vector<FaceRef> sorted_faces(const TetMesh& mesh) {
  std::vector<FaceRef> faces;
  faces.reserve(4 * static_cast<std::size_t>(mesh.tet_count()));
  for (int t = 0; t < mesh.tet_count(); ++t)
    for (int f = 0; f < 4; ++f) {
      std::array<int, 3> key;
      for (int k = 0; k < 3; ++k) key[k] = mesh.tets[4 * t + kFaceCorners[f][k]];
      std::sort(key.begin(), key.end());
      faces.push_back({key, t, f});
    }
  std::sort(faces.begin(), faces.end(), [](const FaceRef& a, const FaceRef& b) {
    return a.key != b.key ? a.key < b.key : std::pair(a.tet, a.face) < std::pair(b.tet, b.face);
  });
  return faces;
}

// Calls visit(first, count) for each run of copies of one face in sorted_faces' output.
template <class Visit>
void for_each_face(const std::vector<FaceRef>& faces, Visit visit) {
  for (std::size_t i = 0; i < faces.size();) {
    std::size_t j = i + 1;
    while (j < faces.size() && faces[j].key == faces[i].key) ++j;
    visit(i, j - i);
    i = j;
  }
}

}  // namespace

double tet_signed_volume(const TetMesh& mesh, int tet) {
  const Vec3<double> x0 = point(mesh, tet, 0);
  return dot(point(mesh, tet, 1) - x0, cross(point(mesh, tet, 2) - x0, point(mesh, tet, 3) - x0)) / 6.0;
}

double tet_mesh_volume(const TetMesh& mesh) {
  double volume = 0;
  for (int t = 0; t < mesh.tet_count(); ++t) volume += tet_signed_volume(mesh, t);
  return volume;
}

double tet_quality(const TetMesh& mesh, int tet) {
  double sum_squares = 0;
  for (int a = 0; a < 4; ++a)
    for (int b = a + 1; b < 4; ++b) sum_squares += length_squared(point(mesh, tet, b) - point(mesh, tet, a));
  const double l_rms = std::sqrt(sum_squares / 6.0);
  if (!(l_rms > 0)) return 0;  // all four corners at one point
  return 6.0 * std::sqrt(2.0) * tet_signed_volume(mesh, tet) / (l_rms * l_rms * l_rms);
}

std::vector<std::array<int, 3>> surface_triangles(const TetMesh& mesh) {
  const std::vector<FaceRef> faces = sorted_faces(mesh);
  std::vector<std::pair<int, int>> boundary;  // (tet, face), to be put in tet order
  for_each_face(faces, [&](std::size_t first, std::size_t count) {
    if (count == 1) boundary.emplace_back(faces[first].tet, faces[first].face);
  });
  std::sort(boundary.begin(), boundary.end());
  std::vector<std::array<int, 3>> triangles;
  triangles.reserve(boundary.size());
  for (const auto& [t, f] : boundary)
    triangles.push_back({mesh.tets[4 * t + kFaceCorners[f][0]], mesh.tets[4 * t + kFaceCorners[f][1]],
                         mesh.tets[4 * t + kFaceCorners[f][2]]});
  return triangles;
}

std::vector<double> lumped_masses(const TetMesh& mesh, const std::vector<double>& tet_density) {
  assert(tet_density.size() == static_cast<std::size_t>(mesh.tet_count()));
  std::vector<double> masses(mesh.vertices.size(), 0.0);
  for (int t = 0; t < mesh.tet_count(); ++t) {
    // |V|: an inverted tet still has mass; the kernel's quarter share of rho V.
    const double share =
        tet_vertex_mass(tet_density[static_cast<std::size_t>(t)], std::abs(tet_signed_volume(mesh, t)));
    for (int k = 0; k < 4; ++k) masses[static_cast<std::size_t>(mesh.tets[4 * t + k])] += share;
  }
  return masses;
}

std::vector<double> lumped_masses(const TetMesh& mesh, double density) {
  return lumped_masses(mesh, std::vector<double>(static_cast<std::size_t>(mesh.tet_count()), density));
}

std::vector<TetMeshProblem> check_tet_mesh(const TetMesh& mesh, double flat_tolerance) {
  using Kind = TetMeshProblem::Kind;
  std::vector<TetMeshProblem> problems;
  const auto report = [&](Kind kind, int index, std::string what) {
    const bool is_vertex = kind == Kind::non_finite_vertex || kind == Kind::unused_vertex;
    problems.push_back(
        {kind, index, (is_vertex ? "vertex " : "tet ") + std::to_string(index) + ": " + std::move(what)});
  };
  const int vertex_count = mesh.vertex_count();
  std::vector<unsigned char> finite(mesh.vertices.size(), 1), used(mesh.vertices.size(), 0);
  for (int v = 0; v < vertex_count; ++v) {
    const std::array<double, 3>& p = mesh.vertices[static_cast<std::size_t>(v)];
    if (!std::isfinite(p[0]) || !std::isfinite(p[1]) || !std::isfinite(p[2])) {
      finite[static_cast<std::size_t>(v)] = 0;
      report(Kind::non_finite_vertex, v, "a coordinate is not a finite number");
    }
  }

  const int whole_tets = mesh.tet_count();
  bool indices_valid = true;  // the face check below needs every index in range
  for (int t = 0; t < whole_tets; ++t) {
    const int* c = &mesh.tets[4 * static_cast<std::size_t>(t)];
    bool in_range = true, all_finite = true;
    for (int k = 0; k < 4; ++k) {
      if (c[k] < 0 || c[k] >= vertex_count) {
        in_range = false;
        report(Kind::index_out_of_range, t,
               "corner " + std::to_string(k) + " is vertex " + std::to_string(c[k]) + "; the mesh has " +
                   std::to_string(vertex_count) + " vertices");
      } else {
        used[static_cast<std::size_t>(c[k])] = 1;
        all_finite = all_finite && finite[static_cast<std::size_t>(c[k])];
      }
    }
    if (!in_range) {
      indices_valid = false;
      continue;
    }
    bool repeated = false;
    for (int a = 0; a < 4 && !repeated; ++a)
      for (int b = a + 1; b < 4 && !repeated; ++b)
        if (c[a] == c[b]) {
          repeated = true;
          report(Kind::repeated_vertex, t,
                 "corners " + std::to_string(a) + " and " + std::to_string(b) + " are the same vertex (" +
                     std::to_string(c[a]) + ")");
        }
    if (repeated || !all_finite) continue;  // a non-finite corner is reported with its vertex
    const TetRestStatus status = rest_status(mesh, t, flat_tolerance);
    if (status == TetRestStatus::degenerate)
      report(Kind::degenerate, t, "is flat (volume " + number(tet_signed_volume(mesh, t)) + ")");
    else if (status == TetRestStatus::inverted)
      report(Kind::inverted, t,
             "is inverted (volume " + number(tet_signed_volume(mesh, t)) + "); swap two corners, or call orient_tets");
  }
  if (mesh.tets.size() % 4 != 0) {
    indices_valid = false;
    report(Kind::index_out_of_range, whole_tets,
           "has only " + std::to_string(mesh.tets.size() % 4) + " of its 4 corners (the tet list's length, " +
               std::to_string(mesh.tets.size()) + ", is not a multiple of 4)");
  }

  if (indices_valid) {
    const std::vector<FaceRef> faces = sorted_faces(mesh);
    for_each_face(faces, [&](std::size_t first, std::size_t count) {
      if (count <= 2) return;
      const std::array<int, 3>& key = faces[first].key;
      // Named by its third tet in order, the one that breaks conformity.
      report(Kind::overshared_face, faces[first + 2].tet,
             "its face (" + std::to_string(key[0]) + ", " + std::to_string(key[1]) + ", " + std::to_string(key[2]) +
                 ") is in " + std::to_string(count) + " tets; a conforming mesh has at most 2");
    });
  }
  for (int v = 0; v < vertex_count; ++v)
    if (!used[static_cast<std::size_t>(v)]) report(Kind::unused_vertex, v, "is in no tet");
  return problems;
}

Status validate_tet_mesh(const TetMesh& mesh, const std::string& label, double flat_tolerance) {
  if (mesh.tet_count() == 0) return Error{label + ": has no tets"};
  const std::vector<TetMeshProblem> problems = check_tet_mesh(mesh, flat_tolerance);
  if (problems.empty()) return Ok{};
  std::string message = label + ": " + problems.front().message;
  if (problems.size() > 1) message += " (and " + std::to_string(problems.size() - 1) + " more problems)";
  return Error{message};
}

int orient_tets(TetMesh& mesh, double flat_tolerance) {
  int swapped = 0;
  const int vertex_count = mesh.vertex_count();
  for (int t = 0; t < mesh.tet_count(); ++t) {
    int* c = &mesh.tets[4 * static_cast<std::size_t>(t)];
    if (std::any_of(c, c + 4, [&](int v) { return v < 0 || v >= vertex_count; })) continue;
    if (rest_status(mesh, t, flat_tolerance) != TetRestStatus::inverted) continue;
    std::swap(c[2], c[3]);
    ++swapped;
  }
  return swapped;
}

std::vector<int> remove_unused_vertices(TetMesh& mesh) {
  std::vector<int> new_index(mesh.vertices.size(), -1);
  for (int v : mesh.tets) new_index[static_cast<std::size_t>(v)] = 0;  // mark as used
  std::vector<std::array<double, 3>> kept;
  for (std::size_t v = 0; v < mesh.vertices.size(); ++v)
    if (new_index[v] == 0) {
      new_index[v] = static_cast<int>(kept.size());
      kept.push_back(mesh.vertices[v]);
    }
  for (int& v : mesh.tets) v = new_index[static_cast<std::size_t>(v)];
  mesh.vertices = std::move(kept);
  return new_index;
}

NeoHookeanModuli neohookean_from_young_poisson(double young, double poisson) {
  const Lame<double> k = stable_neohookean_from_lame(lame_from_young_poisson(young, poisson));
  return {k.mu, k.lambda};
}

}  // namespace nudge
