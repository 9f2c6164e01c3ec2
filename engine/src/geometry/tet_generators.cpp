// Tet mesh generators: a box of cells split into 5 tets each, and a ball mapped from it
// (nudge/tet_mesh.h).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <utility>

#include "nudge/tet_mesh.h"

namespace nudge {

namespace {

bool finite3(const std::array<double, 3>& p) {
  return std::isfinite(p[0]) && std::isfinite(p[1]) && std::isfinite(p[2]);
}

std::string short_number(double x) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g", x);
  return buffer;
}

std::string triple(const std::array<double, 3>& p) {
  return "(" + short_number(p[0]) + ", " + short_number(p[1]) + ", " + short_number(p[2]) + ")";
}

// How a lattice cell is split into tets.
enum class CellSplit {
  // 5 tets: a central one whose edges are the cell's face diagonals and four corner ones.
  // The four corners cut off are those whose global parity (i + j + k of the vertex) is
  // even, so every face has its diagonal between its two odd corners, and since parity is
  // global a neighbouring cell uses the same diagonal: the mesh is conforming.
  five_alternating,
  // 6 tets around the cell's diagonal that points away from the lattice's centre (Kuhn's
  // split, mirrored into each octant). Each face's diagonal then depends only on the
  // octant signs of the two axes in its plane, which the cells sharing it have in common:
  // conforming. Every tet holds the cell's corner nearest the centre, so no tet of a cell
  // on the lattice's edges or corners has all four vertices on the boundary.
  six_from_centre,
};

// The lattice of (nx + 1)(ny + 1)(nz + 1) vertices, x fastest, split into tets. Counts
// and extents are checked by the callers.
TetMesh lattice_tets(std::array<double, 3> lo, std::array<double, 3> hi, int nx, int ny, int nz, CellSplit split) {
  const int n[3] = {nx, ny, nz};
  const auto index = [&](int i, int j, int k) { return i + (nx + 1) * (j + (ny + 1) * k); };
  // Each vertex from its own integer coordinate (not by adding a step), so the last
  // vertex is exactly hi and cells have exactly equal sizes up to one rounding.
  const auto coordinate = [&](int axis, int i) {
    return i == n[axis] ? hi[axis] : lo[axis] + (hi[axis] - lo[axis]) * (static_cast<double>(i) / n[axis]);
  };
  TetMesh mesh;
  mesh.vertices.reserve(static_cast<std::size_t>(nx + 1) * (ny + 1) * (nz + 1));
  for (int k = 0; k <= nz; ++k)
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i) mesh.vertices.push_back({coordinate(0, i), coordinate(1, j), coordinate(2, k)});

  // A cell's corners are numbered c = a + 2b + 4c' (a, b, c' in {0, 1} along x, y, z);
  // flipping bit `axis` of c gives its neighbour along that axis.
  mesh.tets.reserve((split == CellSplit::five_alternating ? 20 : 24) * static_cast<std::size_t>(nx) * ny * nz);
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        const int cell[3] = {i, j, k};
        int corner[8];
        for (int c = 0; c < 8; ++c) corner[c] = index(i + (c & 1), j + (c >> 1 & 1), k + (c >> 2 & 1));
        const auto add = [&](int a, int b, int c, int d) {
          mesh.tets.insert(mesh.tets.end(), {corner[a], corner[b], corner[c], corner[d]});
          // Mirror-image tets have opposite orientations: orient each by its volume (never
          // near zero here, so the sign is exact).
          const std::size_t t = mesh.tets.size() - 4;
          if (tet_signed_volume(mesh, mesh.tet_count() - 1) < 0) std::swap(mesh.tets[t + 2], mesh.tets[t + 3]);
        };
        if (split == CellSplit::five_alternating) {
          int centre[4], m = 0;
          for (int c = 0; c < 8; ++c) {
            const bool odd = ((i + j + k + (c & 1) + (c >> 1 & 1) + (c >> 2 & 1)) & 1) == 1;
            if (odd)
              centre[m++] = c;
            else
              add(c, c ^ 1, c ^ 2, c ^ 4);
          }
          add(centre[0], centre[1], centre[2], centre[3]);
        } else {
          // The corner nearest the centre: on each axis the cell's low side when the cell
          // is in the upper half (a middle cell of an odd count counts as upper).
          int start = 0;
          for (int a = 0; a < 3; ++a)
            if (2 * cell[a] + 1 < n[a]) start |= 1 << a;
          // One tet per order of the three axes: a monotone path from start to its opposite.
          constexpr int kOrders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
          for (const auto& order : kOrders) {
            const int c1 = start ^ (1 << order[0]), c2 = c1 ^ (1 << order[1]), c3 = c2 ^ (1 << order[2]);
            add(start, c1, c2, c3);
          }
        }
      }
  return mesh;
}

// The error for a count below 1 or a mesh over the limit, else an empty string.
std::string count_error(const char* what, const long long counts[3], long long tets_per_cell) {
  long long cells = 1;
  for (int a = 0; a < 3; ++a) {
    if (counts[a] < 1) return std::string(what) + " is " + std::to_string(counts[a]) + "; expected at least 1";
    cells *= counts[a];
    if (tets_per_cell * cells > kMaxGeneratedTets)
      return std::string(what) + " gives more than " + std::to_string(kMaxGeneratedTets) + " tets";
  }
  return {};
}

}  // namespace

Result<TetMesh> tet_box(std::array<double, 3> lo, std::array<double, 3> hi, int nx, int ny, int nz) {
  const long long counts[3] = {nx, ny, nz};
  if (std::string e = count_error("tet_box: the cell count", counts, 5); !e.empty())
    return Error{e + " (nx, ny, nz = " + std::to_string(nx) + ", " + std::to_string(ny) + ", " + std::to_string(nz) +
                 ")"};
  if (!finite3(lo) || !finite3(hi))
    return Error{"tet_box: the corners " + triple(lo) + " and " + triple(hi) + " must be finite"};
  for (int a = 0; a < 3; ++a)
    if (!(hi[a] > lo[a]))
      return Error{"tet_box: the upper corner " + triple(hi) + " must exceed the lower " + triple(lo) +
                   " on every axis"};
  return lattice_tets(lo, hi, nx, ny, nz, CellSplit::five_alternating);
}

Result<TetMesh> tet_sphere(std::array<double, 3> center, double radius, int resolution) {
  const long long counts[3] = {resolution, resolution, resolution};
  if (std::string e = count_error("tet_sphere: the resolution", counts, 6); !e.empty()) return Error{e};
  if (!finite3(center)) return Error{"tet_sphere: the centre " + triple(center) + " must be finite"};
  if (!(radius > 0) || !std::isfinite(radius))
    return Error{"tet_sphere: the radius is " + short_number(radius) + "; expected a positive finite number"};

  TetMesh mesh = lattice_tets({-1, -1, -1}, {1, 1, 1}, resolution, resolution, resolution, CellSplit::six_from_centre);
  // Cube to ball. The cube shell |p|_inf = r goes to the sphere of radius r: p's direction
  // d = p / r (on the unit cube's surface) is warped by tan(pi/4 d_i) per component,
  // which keeps it on the same face and makes equal steps along a face equal angles
  // seen from the centre, then normalised. Without the warp the cells at the cube's
  // corners would be about 5 times smaller in area on the sphere than at the face centres.
  for (std::array<double, 3>& p : mesh.vertices) {
    const double r = std::max({std::abs(p[0]), std::abs(p[1]), std::abs(p[2])});
    if (r == 0) {
      p = center;
      continue;
    }
    double d[3], norm_squared = 0;
    for (int a = 0; a < 3; ++a) {
      d[a] = std::tan(std::numbers::pi / 4 * (p[a] / r));
      norm_squared += d[a] * d[a];
    }
    const double scale = radius * r / std::sqrt(norm_squared);
    for (int a = 0; a < 3; ++a) p[a] = center[a] + scale * d[a];
  }
  return mesh;
}

}  // namespace nudge
