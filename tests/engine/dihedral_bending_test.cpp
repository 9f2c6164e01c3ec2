// The dihedral bending element (families/bending/dihedral_bending.h): its adjoint against central
// differences in double, its physics (equilibrium, rigid motions, balance), the mesh's
// edge finder, and its forces against NVIDIA Warp's eval_bending.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "families/bending/dihedral_bending.h"
#include "central_difference.h"
#include "nudge/gradcheck.h"

using namespace nudge;
using test::central_difference;

namespace {

using V = Vec3<double>;

constexpr double kTolerance = 1e-6;
constexpr double kPi = 3.14159265358979323846;

struct Element {
  V x[4], v[4];
  double rest = 0, ke = 0, kd = 0;

  BendingForces<double> forces() const { return dihedral_bending_force(x, v, rest, ke, kd); }
};

double component(const V& a, int k) { return k == 0 ? a.x : (k == 1 ? a.y : a.z); }
double& component_ref(V& a, int k) { return k == 0 ? a.x : (k == 1 ? a.y : a.z); }

V random_vector(std::mt19937& rng, double lo, double hi) {
  std::uniform_real_distribution<double> u(lo, hi);
  return {u(rng), u(rng), u(rng)};
}

// Rotation of a about the unit axis k by angle (Rodrigues).
V rotate(V a, V k, double angle) {
  return std::cos(angle) * a + std::sin(angle) * cross(k, a) + ((1 - std::cos(angle)) * dot(k, a)) * k;
}

// A random element whose two half-planes meet at `angle` (0 flat, ±pi folded shut): the
// edge x2-x3 along a random direction t, x0 off it along p, x1 along -p turned about t.
// Velocities, rest angle, stiffness and damping random.
Element random_element(std::mt19937& rng, double angle) {
  std::uniform_real_distribution<double> u(0, 1);
  Element el;
  const V t = normalize(random_vector(rng, -1, 1));
  const V p = normalize(cross(t, random_vector(rng, -1, 1)));
  const V c = random_vector(rng, -1, 1);
  const double l = 0.5 + u(rng);
  el.x[2] = c - (0.5 * l) * t;
  el.x[3] = c + (0.5 * l) * t;
  el.x[0] = c + ((u(rng) - 0.5) * l) * t + (0.4 + 0.8 * u(rng)) * p;
  el.x[1] = c + ((u(rng) - 0.5) * l) * t - (0.4 + 0.8 * u(rng)) * rotate(p, t, angle);
  for (V& vi : el.v) vi = random_vector(rng, -1, 1);
  el.rest = -1.5 + 3 * u(rng);
  el.ke = 1 + 4 * u(rng);
  el.kd = 0.1 + 0.4 * u(rng);
  return el;
}

// Flat, folded both ways, nearly folded shut both ways.
const double kAngles[] = {0.0, 0.8, -0.8, 2.0, -2.0, kPi - 0.05, -(kPi - 0.05)};

void check_entry(const char* what, int index, double adjoint, double fd) {
  const double err = gradient_relative_error(adjoint, fd, 1e-9);
  INFO(what << "[" << index << "]: adjoint " << adjoint << ", finite difference " << fd);
  CHECK(err <= kTolerance);
}

// As check_entry, allowing the central difference its rounding: phi's terms, each about
// magnitude, are rounded to 1e-16 relative and divided by the step 2e-6, so an entry far
// below the largest (7.5e-5 beside 30 near a fold) cannot be resolved to 1e-6 of itself.
void check_entry(const char* what, int index, double adjoint, double fd, double magnitude) {
  const double rounding = 1e-9 * magnitude;
  INFO(what << "[" << index << "]: adjoint " << adjoint << ", finite difference " << fd << ", rounding " << rounding);
  CHECK(std::fabs(adjoint - fd) <= kTolerance * std::max(std::fabs(adjoint), std::fabs(fd)) + rounding);
}

double max_force(const BendingForces<double>& f) {
  double m = 0;
  for (const V& fi : f.f) m = std::max(m, length(fi));
  return m;
}

}  // namespace

TEST_CASE("dihedral_bending: d_i is the angle's gradient, and the rest angle helper agrees with the kernel's angle") {
  for (unsigned seed : {1u, 2u, 3u}) {
    std::mt19937 rng(seed);
    for (double angle : kAngles) {
      CAPTURE(seed);
      CAPTURE(angle);
      Element el = random_element(rng, angle);
      const BendingGeometry<double> g = bending_geometry(el.x);
      REQUIRE(g.valid);
      // The construction's opening is the element's |angle|; its sign is Warp's convention.
      CHECK(std::fabs(std::fabs(g.angle) - std::fabs(angle)) < 1e-12);
      CHECK(std::fabs(dihedral_rest_angle(el.x) - g.angle) < 1e-12);
      for (int i = 0; i < 4; ++i)
        for (int k = 0; k < 3; ++k) {
          const double fd = central_difference(component_ref(el.x[i], k), [&] { return bending_geometry(el.x).angle; });
          check_entry("dtheta/dx", 3 * i + k, component(g.d[i], k), fd);
        }
    }
  }
}

TEST_CASE("dihedral_bending: every adjoint entry matches central differences") {
  for (unsigned seed : {11u, 12u, 13u, 14u}) {
    std::mt19937 rng(seed);
    for (double angle : kAngles) {
      CAPTURE(seed);
      CAPTURE(angle);
      Element el = random_element(rng, angle);
      V w[4];  // weights on the forces
      for (V& wi : w) wi = random_vector(rng, -1, 1);
      auto phi = [&] {
        const BendingForces<double> f = el.forces();
        double total = 0;
        for (int i = 0; i < 4; ++i) total += dot(w[i], f.f[i]);
        return total;
      };
      const BendingAdjoint<double> r = dihedral_bending_force_adjoint(el.x, el.v, el.rest, el.ke, el.kd, w);
      // The size of phi's terms, for the central difference's rounding.
      const BendingForces<double> f = el.forces();
      double magnitude = 0;
      for (int i = 0; i < 4; ++i) magnitude += length(w[i]) * length(f.f[i]);
      for (int i = 0; i < 4; ++i)
        for (int k = 0; k < 3; ++k) {
          const double fd_x = central_difference(component_ref(el.x[i], k), phi);
          const double fd_v = central_difference(component_ref(el.v[i], k), phi);
          check_entry("x", 3 * i + k, component(r.x[i], k), fd_x, magnitude);
          check_entry("v", 3 * i + k, component(r.v[i], k), fd_v, magnitude);
        }
      check_entry("rest_angle", 0, r.rest_angle, central_difference(el.rest, phi), magnitude);
      check_entry("ke", 0, r.ke, central_difference(el.ke, phi), magnitude);
      check_entry("kd", 0, r.kd, central_difference(el.kd, phi), magnitude);
    }
  }
}

TEST_CASE("dihedral_bending: no force at the rest angle at rest; forces balance; rigid motions rotate them") {
  std::mt19937 rng(21);
  for (double angle : kAngles) {
    CAPTURE(angle);
    Element el = random_element(rng, angle);

    // At its rest angle and at rest an element pushes nothing; bent 0.1 rad away it does.
    Element still = el;
    for (V& vi : still.v) vi = V{0, 0, 0};
    still.rest = dihedral_rest_angle(still.x);
    const double scale = max_force(dihedral_bending_force(still.x, still.v, still.rest + 0.1, still.ke, still.kd));
    CHECK(scale > 0.01);
    CHECK(max_force(still.forces()) <= 1e-12 * scale);

    // The forces sum to zero and so do their moments: the element neither pushes nor
    // spins the cloth as a whole.
    const BendingForces<double> f = el.forces();
    const double fmax = max_force(f);
    V sum{0, 0, 0}, moment{0, 0, 0};
    for (int i = 0; i < 4; ++i) sum += f.f[i], moment += cross(el.x[i], f.f[i]);
    CHECK(length(sum) <= 1e-12 * fmax);
    CHECK(length(moment) <= 1e-11 * fmax);

    // A rigid motion (rotation R, translation, the velocities rotated) rotates the forces.
    const V axis = normalize(random_vector(rng, -1, 1));
    const double turn = 2.3;
    const V shift = random_vector(rng, -3, 3);
    Element moved = el;
    for (int i = 0; i < 4; ++i) {
      moved.x[i] = rotate(el.x[i], axis, turn) + shift;
      moved.v[i] = rotate(el.v[i], axis, turn);
    }
    const BendingForces<double> g = moved.forces();
    for (int i = 0; i < 4; ++i) {
      CHECK(std::fabs(length(g.f[i]) - length(f.f[i])) <= 1e-11 * fmax);
      CHECK(length(g.f[i] - rotate(f.f[i], axis, turn)) <= 1e-11 * fmax);
    }
  }
}

TEST_CASE("dihedral_bending: a degenerate element exerts no force and has a zero adjoint, as in Warp") {
  std::mt19937 rng(31);
  Element el = random_element(rng, 0.7);
  const V w[4] = {{1, 2, 3}, {-1, 0.5, 2}, {0.3, -2, 1}, {2, 1, -1}};
  Element sliver = el;  // x0 on the edge's line, to rounding: |n1| is below Warp's 1e-6
  sliver.x[0] = el.x[2] + 0.3 * (el.x[3] - el.x[2]);
  Element repeated = el;  // x0 on x2: n1 is exactly zero
  repeated.x[0] = el.x[2];
  Element point = el;  // a zero-length edge: neither triangle has a normal
  point.x[3] = point.x[2];
  for (const Element& d : {sliver, repeated, point}) {
    CHECK(max_force(d.forces()) == 0.0);
    const BendingAdjoint<double> r = dihedral_bending_force_adjoint(d.x, d.v, d.rest, d.ke, d.kd, w);
    for (int i = 0; i < 4; ++i) CHECK(length(r.x[i]) + length(r.v[i]) == 0.0);
    CHECK(r.rest_angle == 0.0);
    CHECK(r.ke == 0.0);
    CHECK(r.kd == 0.0);
  }
  // add_edge's rest angle of an element with an exactly zero normal: NumPy's sign(0) = 0.
  CHECK(dihedral_rest_angle(repeated.x) == 0.0);
  CHECK(dihedral_rest_angle(point.x) == 0.0);
}

TEST_CASE("dihedral_bending: the edge finder on a 3 x 3 grid of quads finds Warp's elements") {
  // Vertex (i, j) is 4 j + i; each quad (a, b, c, d) counter-clockwise is split into
  // (a, b, c) and (a, c, d), as tests/engine/warp_reference/bending_forces.py builds it.
  std::vector<int> tris;
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) {
      const int a = 4 * j + i, b = a + 1, c = a + 5, d = a + 4;
      tris.insert(tris.end(), {a, b, c, a, c, d});
    }
  const int tri_count = static_cast<int>(tris.size()) / 3;
  std::vector<BendingEdge> edges(3 * tri_count / 2);
  const int n = find_bending_edges(tris.data(), tri_count, edges.data());
  // 33 edges (12 across, 12 down, 9 diagonals), 12 of them on the boundary.
  REQUIRE(n == 21);

  // Warp's own list (MeshAdjacency, interior edges), in its order.
  const int warp[21][4] = {{0, 6, 1, 5},    {1, 4, 5, 0},   {0, 9, 5, 4},   {1, 7, 2, 6},    {2, 5, 6, 1},
                           {1, 10, 6, 5},   {3, 6, 7, 2},   {2, 11, 7, 6},  {4, 10, 5, 9},   {5, 8, 9, 4},
                           {4, 13, 9, 8},   {5, 11, 6, 10}, {6, 9, 10, 5},  {5, 14, 10, 9},  {7, 10, 11, 6},
                           {6, 15, 11, 10}, {8, 14, 9, 13}, {9, 12, 13, 8}, {9, 15, 10, 14}, {10, 13, 14, 9},
                           {11, 14, 15, 10}};
  for (int e = 0; e < n; ++e) {
    CAPTURE(e);
    CHECK(edges[e].o0 == warp[e][0]);
    CHECK(edges[e].o1 == warp[e][1]);
    CHECK(edges[e].v0 == warp[e][2]);
    CHECK(edges[e].v1 == warp[e][3]);
  }

  // Independently of Warp: each interior edge once, none on the boundary, and the
  // element's triangles (o0, v0, v1) and (o1, v1, v0) are the mesh's, with its winding.
  auto is_triangle = [&](int a, int b, int c) {
    for (int t = 0; t < tri_count; ++t)
      for (int r = 0; r < 3; ++r)
        if (tris[3 * t + r] == a && tris[3 * t + (r + 1) % 3] == b && tris[3 * t + (r + 2) % 3] == c) return true;
    return false;
  };
  auto on_boundary = [](int a, int b) {
    const int ai = a % 4, aj = a / 4, bi = b % 4, bj = b / 4;
    return (ai == bi && (ai == 0 || ai == 3)) || (aj == bj && (aj == 0 || aj == 3));
  };
  std::set<std::pair<int, int>> seen;
  for (int e = 0; e < n; ++e) {
    const BendingEdge& be = edges[e];
    CAPTURE(e);
    CHECK(seen.insert({std::min(be.v0, be.v1), std::max(be.v0, be.v1)}).second);
    CHECK_FALSE(on_boundary(be.v0, be.v1));
    CHECK(is_triangle(be.o0, be.v0, be.v1));
    CHECK(is_triangle(be.o1, be.v1, be.v0));
  }

  // A third triangle on an edge is ignored, as Warp does: the element keeps the first two.
  const int fan[9] = {0, 1, 2, 1, 0, 3, 0, 1, 4};
  BendingEdge out[4];
  REQUIRE(find_bending_edges(fan, 3, out) == 1);
  CHECK(out[0].o0 == 2);
  CHECK(out[0].o1 == 3);
  CHECK(out[0].v0 == 0);
  CHECK(out[0].v1 == 1);
}

TEST_CASE("dihedral_bending: forces equal NVIDIA Warp's eval_bending") {
  // From tests/engine/warp_reference/bending_forces.py: warp-lang 1.9.1, float32, CPU.
  // Every input is exact in float32; Warp's rest angle is its add_edge's from the rest
  // positions. rest positions, deformed positions, velocities, ke, kd, Warp's rest angle
  // and forces on x0..x3.
  struct Case {
    const char* name;
    double rest_x[4][3], x[4][3], v[4][3], ke, kd, warp_rest, warp_f[12];
  };
  const Case cases[] = {
      {"folded_negative_from_flat",
       {{0.75, 0.375, 0.0}, {-0.875, 0.5, 0.0}, {0.0625, -0.125, 0.0}, {0.125, 1.0, 0.0}},
       {{0.625, 0.375, 0.5}, {-0.875, 0.5, 0.25}, {0.0625, -0.125, 0.0}, {0.125, 1.0, 0.0}},
       {{0.5, -0.25, 1.0}, {0.75, 0.125, -1.25}, {-0.25, 0.5, 0.5}, {0.125, 0.25, -0.75}},
       3.0,
       0.25,
       0,
       {3.07546473, -0.170859143, -3.28903866, -0.818823814, 0.0454902127, -3.18431473, -1.22451746, 0.068028748,
        3.30832314, -1.03212368, 0.0573402047, 3.16503072}},
      {"folded_positive_from_bent",
       {{0.75, 0.375, 0.25}, {-0.875, 0.5, 0.125}, {0.0625, -0.125, 0.0}, {0.125, 1.0, 0.0}},
       {{0.5, 0.25, -0.625}, {-0.75, 0.625, -0.375}, {0.0, -0.125, 0.125}, {0.25, 1.125, 0.0}},
       {{-0.5, 0.25, 0.75}, {0.25, -0.625, 1.5}, {0.375, 0.125, -0.25}, {-0.5, 0.75, 0.25}},
       5.0,
       0.5,
       -0.490802735,
       {12.627655, -1.77230239, 7.53228617, -5.15021133, 2.12067509, 10.9063301, -4.73643637, -0.0408126302,
        -9.88099861, -2.74100804, -0.307559848, -8.55761528}},
      {"nearly_folded",
       {{0.75, 0.375, 0.0}, {-0.875, 0.5, 0.0}, {0.0625, -0.125, 0.0}, {0.125, 1.0, 0.0}},
       {{-0.6875, 0.375, 0.125}, {-0.875, 0.5, -0.0625}, {0.0625, -0.125, 0.0}, {0.125, 1.0, 0.0}},
       {{0.25, 0.5, -0.25}, {-0.125, 0.375, 0.625}, {0.75, -0.5, 0.125}, {0.0, 0.25, 1.0}},
       2.0,
       0.125,
       0,
       {1.35632288, -0.0753512755, 8.43934155, 0.443430185, -0.0246350076, -6.89780283, -1.02375138, 0.0568750761,
        -1.61582923, -0.77600199, 0.0431112163, 0.074289985}},
      {"flat_moving_bent_rest",
       {{0.625, 0.375, -0.375}, {-0.875, 0.5, 0.25}, {0.0625, -0.125, 0.0}, {0.125, 1.0, 0.0}},
       {{1.75, 0.375, 0.125}, {0.125, 0.5, 0.125}, {1.0625, -0.125, 0.125}, {1.125, 1.0, 0.125}},
       {{0.25, -0.5, 1.25}, {1.0, 0.25, -0.5}, {-0.75, 0.125, 0.375}, {0.5, -1.0, 0.25}},
       4.0,
       0.375,
       0.36026001,
       {0, 0, -2.83880568, 0, 0, -1.92633224, 0, 0, 2.43326211, 0, 0, 2.33187628}},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    V rest_x[4], x[4], v[4];
    for (int i = 0; i < 4; ++i) {
      rest_x[i] = {c.rest_x[i][0], c.rest_x[i][1], c.rest_x[i][2]};
      x[i] = {c.x[i][0], c.x[i][1], c.x[i][2]};
      v[i] = {c.v[i][0], c.v[i][1], c.v[i][2]};
    }
    // Warp's float32 rest angle, to float32's precision.
    CHECK(std::fabs(dihedral_rest_angle(rest_x) - c.warp_rest) <= 1e-6);
    const BendingForces<double> f = dihedral_bending_force(x, v, c.warp_rest, c.ke, c.kd);
    double scale = 0;
    for (double fw : c.warp_f) scale = std::max(scale, std::fabs(fw));
    for (int i = 0; i < 4; ++i)
      for (int k = 0; k < 3; ++k) {
        INFO("f" << i << "[" << k << "]: " << component(f.f[i], k) << ", Warp " << c.warp_f[3 * i + k]);
        CHECK(std::fabs(component(f.f[i], k) - c.warp_f[3 * i + k]) <= 1e-5 * scale);
      }
  }
}
