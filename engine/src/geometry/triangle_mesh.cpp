// Closed triangle meshes (nudge/triangle_mesh.h): whether one bounds a solid, and the
// lattice points inside it by ray parity. Reading them is io/obj_file.cpp's.
#include "nudge/triangle_mesh.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace nudge {

std::optional<std::string> open_mesh_problem(const TriangleMesh& mesh) {
  std::map<std::pair<int, int>, int> uses;
  for (size_t t = 0; t < mesh.triangles.size(); ++t) {
    const std::array<int, 3>& tri = mesh.triangles[t];
    if (tri[0] == tri[1] || tri[1] == tri[2] || tri[0] == tri[2])
      return "face " + std::to_string(t + 1) + " repeats a vertex (" + std::to_string(tri[0] + 1) + " " +
             std::to_string(tri[1] + 1) + " " + std::to_string(tri[2] + 1) + ")";
    for (int k = 0; k < 3; ++k) {
      const int a = tri[size_t(k)], b = tri[size_t((k + 1) % 3)];
      ++uses[{std::min(a, b), std::max(a, b)}];
    }
  }
  for (const auto& [edge, count] : uses)
    if (count != 2)
      return "the edge between vertices " + std::to_string(edge.first + 1) + " and " + std::to_string(edge.second + 1) +
             " belongs to " + std::to_string(count) + (count == 1 ? " face" : " faces") + ", not 2";
  return std::nullopt;
}

std::vector<std::array<double, 3>> lattice_points_inside(const TriangleMesh& mesh, const std::array<double, 3>& first,
                                                         double spacing, const std::array<long long, 3>& counts) {
  // Each row's ray is nudged off the lattice by a small irrational fraction of the
  // spacing, so that it passes through no vertex or edge that lattice-aligned meshes put
  // on it (a crossing there would count twice, or not at all).
  const double nudge_y = spacing * 1.4142135623730951e-6, nudge_z = spacing * 1.7320508075688772e-6;
  struct Flat {  // a triangle's corners in the y-z plane, its x, and its y-z bounds
    double y[3], z[3], x[3];
    double y_low, y_high, z_low, z_high;
  };
  std::vector<Flat> flats;
  flats.reserve(mesh.triangles.size());
  for (const std::array<int, 3>& tri : mesh.triangles) {
    Flat f{};
    for (int k = 0; k < 3; ++k) {
      const std::array<double, 3>& v = mesh.vertices[size_t(tri[size_t(k)])];
      f.x[k] = v[0], f.y[k] = v[1], f.z[k] = v[2];
    }
    f.y_low = std::min({f.y[0], f.y[1], f.y[2]}), f.y_high = std::max({f.y[0], f.y[1], f.y[2]});
    f.z_low = std::min({f.z[0], f.z[1], f.z[2]}), f.z_high = std::max({f.z[0], f.z[1], f.z[2]});
    flats.push_back(f);
  }
  std::vector<std::array<double, 3>> inside;
  std::vector<double> crossings;
  std::vector<char> filled(size_t(counts[0] * counts[1] * counts[2]), 0);
  for (long long j = 0; j < counts[1]; ++j)
    for (long long l = 0; l < counts[2]; ++l) {
      const double y = first[1] + double(j) * spacing + nudge_y, z = first[2] + double(l) * spacing + nudge_z;
      crossings.clear();
      for (const Flat& f : flats) {
        if (y < f.y_low || y > f.y_high || z < f.z_low || z > f.z_high) continue;
        // Barycentric coordinates of (y, z) in the projected triangle.
        const double d = (f.y[1] - f.y[0]) * (f.z[2] - f.z[0]) - (f.y[2] - f.y[0]) * (f.z[1] - f.z[0]);
        if (d == 0) continue;  // edge-on to the ray: its neighbours count the crossing
        const double b1 = ((y - f.y[0]) * (f.z[2] - f.z[0]) - (f.y[2] - f.y[0]) * (z - f.z[0])) / d;
        const double b2 = ((f.y[1] - f.y[0]) * (z - f.z[0]) - (y - f.y[0]) * (f.z[1] - f.z[0])) / d;
        if (b1 < 0 || b2 < 0 || b1 + b2 > 1) continue;
        crossings.push_back(f.x[0] + b1 * (f.x[1] - f.x[0]) + b2 * (f.x[2] - f.x[0]));
      }
      std::sort(crossings.begin(), crossings.end());
      size_t passed = 0;  // crossings left of the point: odd inside
      for (long long i = 0; i < counts[0]; ++i) {
        const double x = first[0] + double(i) * spacing;
        while (passed < crossings.size() && crossings[passed] < x) ++passed;
        if (passed % 2 == 1) filled[size_t((i * counts[1] + j) * counts[2] + l)] = 1;
      }
    }
  for (long long i = 0; i < counts[0]; ++i)
    for (long long j = 0; j < counts[1]; ++j)
      for (long long l = 0; l < counts[2]; ++l)
        if (filled[size_t((i * counts[1] + j) * counts[2] + l)])
          inside.push_back(
              {first[0] + double(i) * spacing, first[1] + double(j) * spacing, first[2] + double(l) * spacing});
  return inside;
}

}  // namespace nudge
