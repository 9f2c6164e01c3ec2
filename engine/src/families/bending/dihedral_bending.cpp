// The host helpers of the dihedral bending element: rest angles and a mesh's elements.
#include "families/bending/dihedral_bending.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace nudge {

namespace {

// Warp's wp.normalize: the zero vector stays zero.
Vec3<double> normalize_or_zero(Vec3<double> a) {
  const double l = length(a);
  return l > 0.0 ? a * (1.0 / l) : Vec3<double>{0, 0, 0};
}

}  // namespace

double dihedral_rest_angle(const Vec3<double> x[4]) {
  const Vec3<double> n1 = normalize_or_zero(cross(x[2] - x[0], x[3] - x[0]));
  const Vec3<double> n2 = normalize_or_zero(cross(x[3] - x[1], x[2] - x[1]));
  const Vec3<double> e = normalize_or_zero(x[3] - x[2]);
  const double s = dot(cross(n2, n1), e);
  // NumPy's sign is 0 at 0, so Warp gives a degenerate element (and one folded exactly
  // flat onto itself) a rest angle of 0. Otherwise atan2 is Warp's sign(s) acos(c),
  // without acos's loss of digits near a flat element.
  return s == 0.0 ? 0.0 : std::atan2(s, dot(n2, n1));
}

int find_bending_edges(const int* triangles, int triangle_count, BendingEdge* out) {
  // Every edge met, boundary ones too, in the order of first appearance (Warp keeps
  // them in a dict, which iterates in insertion order).
  std::vector<BendingEdge> edges;
  std::unordered_map<std::uint64_t, int> index;  // (min, max) vertex pair -> edges slot
  edges.reserve(3 * static_cast<size_t>(triangle_count));
  for (int t = 0; t < triangle_count; ++t) {
    const int* tri = triangles + 3 * t;
    for (int k = 0; k < 3; ++k) {
      const int a = tri[k], b = tri[(k + 1) % 3], o = tri[(k + 2) % 3];
      const std::uint64_t key = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(std::min(a, b))) << 32) |
                                static_cast<std::uint32_t>(std::max(a, b));
      const auto [it, inserted] = index.try_emplace(key, static_cast<int>(edges.size()));
      if (inserted)
        edges.push_back({o, -1, a, b});
      else if (edges[it->second].o1 == -1)
        edges[it->second].o1 = o;
      // else a non-manifold edge: Warp keeps its first two triangles
    }
  }
  int n = 0;
  for (const BendingEdge& e : edges)
    if (e.o1 != -1) out[n++] = e;
  return n;
}

}  // namespace nudge
