// The triangle membrane kernel (families/triangles/triangle_membrane.h): its adjoint against central
// differences in double, its physics (no force at rest or after a rigid motion, momentum,
// the wind as a change of frame, the degenerate branches) and its forces against NVIDIA
// Warp's eval_triangles.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>

#include "central_difference.h"
#include "families/triangles/triangle_membrane.h"
#include "nudge/gradcheck.h"

using namespace nudge;
using test::central_difference;

namespace {

using V = Vec3<double>;
constexpr double kTolerance = 1e-6;

void check_entry(const char* what, int index, double adjoint, double fd) {
  const double err = gradient_relative_error(adjoint, fd, 1e-9);
  INFO(std::string(what) << "[" << index << "]: adjoint " << adjoint << ", finite difference " << fd);
  CHECK(err <= kTolerance);
}

double& component(V& v, int k) { return k == 0 ? v.x : (k == 1 ? v.y : v.z); }
double component(const V& v, int k) { return k == 0 ? v.x : (k == 1 ? v.y : v.z); }

// Every input of triangle_forces.
struct Triangle {
  V x[3], v[3];
  TriangleRest<double> rest;
  TriangleMaterial<double> mat;
  V wind{0, 0, 0};
  double activation = 0;

  TriangleForces<double> forces() const {
    return triangle_forces(x[0], x[1], x[2], v[0], v[1], v[2], rest, mat, wind, activation);
  }
  TriangleAdjoint<double> adjoint(const TriangleForces<double>& adj_f) const {
    return triangle_forces_adjoint(x[0], x[1], x[2], v[0], v[1], v[2], rest, mat, wind, activation, adj_f);
  }
};

double weighted(const TriangleForces<double>& f, const TriangleForces<double>& w) {
  return dot(f.f[0], w.f[0]) + dot(f.f[1], w.f[1]) + dot(f.f[2], w.f[2]);
}

V sum(const TriangleForces<double>& f) { return f.f[0] + f.f[1] + f.f[2]; }

double largest(const TriangleForces<double>& f) {
  double m = 0;
  for (const V& fi : f.f) m = std::max({m, std::fabs(fi.x), std::fabs(fi.y), std::fabs(fi.z)});
  return m;
}

struct Rng {
  std::mt19937 gen;
  explicit Rng(unsigned seed) : gen(seed) {}
  double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(gen); }
  V vec(double s) { return {uniform(-s, s), uniform(-s, s), uniform(-s, s)}; }
  V unit() {
    for (;;) {
      const V d = vec(1.0);
      const double l = length(d);
      if (l > 0.2 && l < 1.0) return d * (1.0 / l);
    }
  }
};

// Rodrigues: v rotated by angle about the unit axis k.
V rotate(V k, double angle, V v) {
  const double c = std::cos(angle), s = std::sin(angle);
  return v * c + cross(k, v) * s + k * (dot(k, v) * (1 - c));
}

// Three points whose triangle is well shaped: twice its area over its longest edge squared
// at least 0.3 (0.87 for an equilateral one).
void well_shaped(Rng& rng, V p[3]) {
  for (;;) {
    for (int i = 0; i < 3; ++i) p[i] = rng.vec(1.0);
    const double m = length(cross(p[1] - p[0], p[2] - p[0]));
    const double e = std::max({length_squared(p[1] - p[0]), length_squared(p[2] - p[0]), length_squared(p[2] - p[1])});
    if (m > 0.3 * e) return;
  }
}

enum class Deformation { Stretched, Compressed, Sheared, Rotated };

// A random triangle: a well-shaped rest shape, deformed as asked, rotated and moved, with
// random velocities, wind, material and activation.
Triangle random_triangle(Rng& rng, Deformation kind) {
  V rest[3];
  well_shaped(rng, rest);
  Triangle t;
  t.rest = triangle_rest(rest[0], rest[1], rest[2]);
  const V d = rng.unit();
  V b = rng.unit();
  b = normalize(b - d * dot(d, b));  // b perpendicular to d
  const V axis = rng.unit(), shift = rng.vec(2.0);
  const double angle = rng.uniform(-3.0, 3.0);
  for (int i = 0; i < 3; ++i) {
    V p = rest[i];
    switch (kind) {
      case Deformation::Stretched: p += d * (0.35 * dot(d, p)); break;
      case Deformation::Compressed: p -= d * (0.25 * dot(d, p)); break;
      case Deformation::Sheared: p += d * (0.4 * dot(b, p)); break;
      case Deformation::Rotated: break;
    }
    t.x[i] = rotate(axis, angle, p + rng.vec(0.05)) + shift;
    t.v[i] = rng.vec(1.5);
  }
  t.wind = rng.vec(0.5);
  t.mat = {rng.uniform(5, 40), rng.uniform(5, 40), rng.uniform(0.2, 2), rng.uniform(0.2, 1.5), rng.uniform(0.2, 2)};
  t.activation = rng.uniform(-0.1, 0.1);
  return t;
}

TriangleForces<double> random_weights(Rng& rng) { return {{rng.vec(1.0), rng.vec(1.0), rng.vec(1.0)}}; }

// Every entry of the adjoint of w . forces against its central difference. still_air: the
// mean velocity relative to the wind is 0, where the wind's derivative is exactly 0 and its
// central difference O(h) (the air's forces are O(|u|^2)): checked to 1e-6 absolutely.
void check_adjoint(Triangle& t, const TriangleForces<double>& w, bool still_air = false) {
  const TriangleAdjoint<double> g = t.adjoint(w);
  auto phi = [&] { return weighted(t.forces(), w); };
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) {
      check_entry("x", 3 * i + k, component(g.x[i], k), central_difference(component(t.x[i], k), phi));
      check_entry("v", 3 * i + k, component(g.v[i], k), central_difference(component(t.v[i], k), phi));
    }
  for (int k = 0; k < 4; ++k) check_entry("pose", k, g.rest.pose[k], central_difference(t.rest.pose[k], phi));
  check_entry("rest area", 0, g.rest.area, central_difference(t.rest.area, phi));
  check_entry("ke", 0, g.material.ke, central_difference(t.mat.ke, phi));
  check_entry("ka", 0, g.material.ka, central_difference(t.mat.ka, phi));
  check_entry("kd", 0, g.material.kd, central_difference(t.mat.kd, phi));
  check_entry("drag", 0, g.material.drag, central_difference(t.mat.drag, phi));
  check_entry("lift", 0, g.material.lift, central_difference(t.mat.lift, phi));
  check_entry("activation", 0, g.activation, central_difference(t.activation, phi));
  for (int k = 0; k < 3; ++k) {
    const double fd = central_difference(component(t.wind, k), phi);
    if (!still_air) {
      check_entry("wind", k, component(g.wind, k), fd);
    } else {
      CHECK(component(g.wind, k) == 0.0);
      CHECK(std::fabs(fd) < 1e-6);
    }
  }
}

}  // namespace

TEST_CASE("triangle_membrane: adjoint matches central differences") {
  const Deformation kinds[] = {Deformation::Stretched, Deformation::Compressed, Deformation::Sheared,
                               Deformation::Rotated};
  const char* names[] = {"stretched", "compressed", "sheared", "rotated"};
  for (unsigned seed = 1; seed <= 6; ++seed)
    for (int kind = 0; kind < 4; ++kind) {
      CAPTURE(seed);
      CAPTURE(names[kind]);
      Rng rng(seed * 17 + kind);
      Triangle t = random_triangle(rng, kinds[kind]);
      check_adjoint(t, random_weights(rng));
    }
}

TEST_CASE("triangle_membrane: adjoint matches central differences with the mean velocity at zero") {
  // u = 0 exactly (theta = atan2(0, 0)): drag and lift are O(|u|^2) and their derivatives 0.
  Rng rng(99);
  Triangle t = random_triangle(rng, Deformation::Sheared);
  t.wind = {0, 0, 0};
  t.v[2] = -(t.v[0] + t.v[1]);
  REQUIRE(length((t.v[0] + t.v[1]) + t.v[2]) == 0.0);
  check_adjoint(t, random_weights(rng), true);
}

TEST_CASE("triangle_membrane: triangle_rest is Warp's rest pose and its adjoint matches central differences") {
  for (unsigned seed = 1; seed <= 5; ++seed) {
    CAPTURE(seed);
    Rng rng(seed);
    V p[3];
    well_shaped(rng, p);
    const TriangleRest<double> r = triangle_rest(p[0], p[1], p[2]);
    // Warp's kernel takes the rest area as 1 / (2 det pose).
    const double det = r.pose[0] * r.pose[3] - r.pose[1] * r.pose[2];
    CHECK(r.area == doctest::Approx(0.5 / det).epsilon(1e-14));
    CHECK(r.area == doctest::Approx(0.5 * length(cross(p[1] - p[0], p[2] - p[0]))).epsilon(1e-14));
    // The pose maps the rest edges onto an orthonormal pair: F = [x10 x20] pose has F^T F = I.
    const V x10 = p[1] - p[0], x20 = p[2] - p[0];
    const V F1 = x10 * r.pose[0] + x20 * r.pose[2], F2 = x10 * r.pose[1] + x20 * r.pose[3];
    CHECK(dot(F1, F1) == doctest::Approx(1.0).epsilon(1e-13));
    CHECK(dot(F2, F2) == doctest::Approx(1.0).epsilon(1e-13));
    CHECK(std::fabs(dot(F1, F2)) < 1e-13);

    const TriangleRest<double> w{{rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)},
                                 rng.uniform(-1, 1)};
    auto phi = [&] {
      const TriangleRest<double> s = triangle_rest(p[0], p[1], p[2]);
      double total = w.area * s.area;
      for (int k = 0; k < 4; ++k) total += w.pose[k] * s.pose[k];
      return total;
    };
    const TriangleRestAdjoint<double> g = triangle_rest_adjoint(p[0], p[1], p[2], w);
    for (int i = 0; i < 3; ++i)
      for (int k = 0; k < 3; ++k)
        check_entry("rest position", 3 * i + k, component(g.x[i], k), central_difference(component(p[i], k), phi));
  }
}

TEST_CASE("triangle_membrane: rest positions through triangle_rest and the forces, chained") {
  // The rest shape as an optimisable parameter: dL/d(rest positions) through both adjoints.
  Rng rng(7);
  Triangle t = random_triangle(rng, Deformation::Stretched);
  V p[3];
  well_shaped(rng, p);
  const TriangleForces<double> w = random_weights(rng);
  auto phi = [&] {
    Triangle s = t;
    s.rest = triangle_rest(p[0], p[1], p[2]);
    return weighted(s.forces(), w);
  };
  t.rest = triangle_rest(p[0], p[1], p[2]);
  const TriangleAdjoint<double> g = t.adjoint(w);
  const TriangleRestAdjoint<double> gr = triangle_rest_adjoint(p[0], p[1], p[2], g.rest);
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k)
      check_entry("rest position", 3 * i + k, component(gr.x[i], k), central_difference(component(p[i], k), phi));
}

TEST_CASE("triangle_membrane: no force at rest, after a rigid motion, or moving with the air") {
  for (unsigned seed = 1; seed <= 5; ++seed) {
    CAPTURE(seed);
    Rng rng(seed + 100);
    V p[3];
    well_shaped(rng, p);
    Triangle t;
    t.rest = triangle_rest(p[0], p[1], p[2]);
    t.mat = {30.0, 20.0, 1.5, 0.8, 1.2};
    const double scale = t.mat.ke + t.mat.ka;  // force scale of a unit strain
    for (int i = 0; i < 3; ++i) t.x[i] = p[i], t.v[i] = {0, 0, 0};
    TriangleForces<double> f = t.forces();
    for (const V& fi : f.f) CHECK(length(fi) < 1e-13 * scale);

    // Rotated and translated rigidly, still no force.
    const V axis = rng.unit(), shift = rng.vec(3.0);
    const double angle = rng.uniform(-3.0, 3.0);
    for (int i = 0; i < 3; ++i) t.x[i] = rotate(axis, angle, p[i]) + shift;
    f = t.forces();
    for (const V& fi : f.f) CHECK(length(fi) < 1e-13 * scale);

    // Translating with the wind's velocity: no damping (equal velocities) and no air.
    const V wind = rng.vec(2.0);
    t.wind = wind;
    for (V& v : t.v) v = wind;
    f = t.forces();
    for (const V& fi : f.f) CHECK(length(fi) < 1e-13 * scale);
  }
}

TEST_CASE("triangle_membrane: membrane and damping forces conserve momentum; the air's is 3 times the same force") {
  for (unsigned seed = 1; seed <= 4; ++seed) {
    CAPTURE(seed);
    Rng rng(seed + 200);
    Triangle t = random_triangle(rng, Deformation::Sheared);
    const TriangleForces<double> with_air = t.forces();
    t.mat.drag = 0, t.mat.lift = 0;
    const TriangleForces<double> f = t.forces();
    CHECK(length(sum(f)) < 1e-13 * largest(f));
    // Drag and lift act equally on the three particles.
    const V air = with_air.f[1] - f.f[1];
    CHECK(length(air) > 1e-3);
    for (int i = 0; i < 3; ++i) CHECK(length(with_air.f[i] - f.f[i] - air) < 1e-13 * largest(with_air));
  }
}

TEST_CASE("triangle_membrane: a wind w is the still air seen from a frame moving with w") {
  for (unsigned seed = 1; seed <= 4; ++seed) {
    CAPTURE(seed);
    Rng rng(seed + 300);
    Triangle t = random_triangle(rng, Deformation::Compressed);
    const TriangleForces<double> f = t.forces();
    Triangle still = t;
    still.wind = {0, 0, 0};
    for (V& v : still.v) v -= t.wind;
    const TriangleForces<double> g = still.forces();
    for (int i = 0; i < 3; ++i) CHECK(length(f.f[i] - g.f[i]) < 1e-12 * largest(f));
  }
}

TEST_CASE("triangle_membrane: collinear particles take Warp's zero-normal branch in both passes") {
  // |x10 x x20| = 0: n = 0, so the area term, drag and lift vanish and only the ke and kd
  // parts act. Inputs that keep the particles collinear stay on that branch, so their
  // central differences must match; across it the forces jump and x has no derivative.
  Rng rng(400);
  Triangle t;
  V p[3];
  well_shaped(rng, p);
  t.rest = triangle_rest(p[0], p[1], p[2]);
  t.mat = {25.0, 35.0, 1.2, 0.9, 1.4};
  t.activation = 0.05;
  t.wind = {0.2, -0.1, 0.3};
  // On a line along x: the cross product is exactly zero.
  t.x[0] = {0.3, 0.2, -0.4}, t.x[1] = {1.1, 0.2, -0.4}, t.x[2] = {2.05, 0.2, -0.4};
  for (V& v : t.v) v = rng.vec(1.0);
  REQUIRE(length(cross(t.x[1] - t.x[0], t.x[2] - t.x[0])) == 0.0);

  const TriangleForces<double> w = random_weights(rng);
  const TriangleAdjoint<double> g = t.adjoint(w);
  const TriangleForces<double> f = t.forces();
  for (const V& fi : f.f) CHECK(std::isfinite(fi.x + fi.y + fi.z));
  for (int i = 0; i < 3; ++i) CHECK(std::isfinite(dot(g.x[i], g.x[i]) + dot(g.v[i], g.v[i])));

  auto phi = [&] { return weighted(t.forces(), w); };
  for (int i = 0; i < 3; ++i) {
    check_entry("x along the line", i, g.x[i].x, central_difference(t.x[i].x, phi));
    for (int k = 0; k < 3; ++k)
      check_entry("v", 3 * i + k, component(g.v[i], k), central_difference(component(t.v[i], k), phi));
  }
  for (int k = 0; k < 4; ++k) check_entry("pose", k, g.rest.pose[k], central_difference(t.rest.pose[k], phi));
  check_entry("rest area", 0, g.rest.area, central_difference(t.rest.area, phi));
  check_entry("ke", 0, g.material.ke, central_difference(t.mat.ke, phi));
  check_entry("kd", 0, g.material.kd, central_difference(t.mat.kd, phi));
  // The branch drops these terms: zero in both passes.
  CHECK(g.material.ka == 0.0);
  CHECK(g.material.drag == 0.0);
  CHECK(g.material.lift == 0.0);
  CHECK(g.activation == 0.0);
  CHECK(length(g.wind) == 0.0);
  CHECK(length(sum(f)) < 1e-13 * largest(f));
}

// NVIDIA Warp's forces for the same inputs: printed by
// tests/engine/warp_reference/triangle_forces.py with warp-lang 1.9.1 (the last release
// with warp.sim), float32, on the CPU. Every input is exact in float32.
namespace {

struct WarpCase {
  const char* name;
  double x[9], v[9];
  double ke, ka, kd, drag, lift, activation;
  double pose[4];  // Warp's tri_poses (float32, from ModelBuilder.add_triangle)
  double area;     // Warp's tri_areas
  double forces[9];
};

constexpr double kWarpRest[9] = {0.125, 0.25, 0.375, 1.125, 0.375, 0.25, 0.5, 1.0625, 0.5625};

// clang-format off
const WarpCase kWarpCases[] = {
    {"stretched",
     {0.0, 0.25, 0.375, 1.375, 0.5, 0.25, 0.5, 1.25, 0.625},
     {0.5, -0.25, 1.0, 0.75, 0.125, 1.25, -0.25, 0.5, 1.5},
     120.0, 80.0, 2.5, 0.75, 1.5, 0.0,
     {0.984731913, -0.550604641, 9.19377641e-09, 1.25310028},
     0.405196965,
     {32.8324852, 22.9389381, -0.0390876532, -36.7169914, 4.55011749, 4.07789612, 2.47574139, -25.9368649,
      -11.7090969}},
    {"compressed_sheared_rotated",
     {1.0, -0.5, 0.25, 1.5, 0.25, 0.5, 0.375, 0.0625, 1.0},
     {-1.5, 0.25, 0.5, -0.75, 1.0, -0.5, 0.25, -0.125, 2.0},
     64.0, 200.0, 4.0, 1.25, 0.5, 0.0,
     {0.984731913, -0.550604641, 9.19377641e-09, 1.25310028},
     0.405196965,
     {-4.18897009, 18.5213127, 18.3441048, -22.7382488, -12.3216972, 9.41936207, 26.9454308, -6.20554018,
      -27.7988968}},
    {"activated",
     {0.0, 0.25, 0.375, 1.375, 0.5, 0.25, 0.5, 1.25, 0.625},
     {0.5, -0.25, 1.0, 0.75, 0.125, 1.25, -0.25, 0.5, 1.5},
     40.0, 160.0, 1.0, 0.5, 2.0, 0.125,
     {0.984731913, -0.550604641, 9.19377641e-09, 1.25310028},
     0.405196965,
     {53.8266525, 54.473629, 6.48871899, -66.2770844, 25.0316563, 14.8000126, 10.9655609, -77.288147,
      -30.040247}},
    {"rest_moving",
     {0.125, 0.25, 0.375, 1.125, 0.375, 0.25, 0.5, 1.0625, 0.5625},
     {2.0, -1.0, 0.5, 1.5, -0.5, 1.0, 2.5, -1.25, -0.25},
     120.0, 80.0, 2.5, 0.75, 1.5, 0.0,
     {0.984731913, -0.550604641, 9.19377641e-09, 1.25310028},
     0.405196965,
     {-2.02095962, -0.4506419, -1.92049813, 1.7225306, -0.760597467, -3.01119447, -2.09464431, 3.20021605,
      0.707091093}},
};
// clang-format on

V at(const double* a, int i) { return {a[3 * i], a[3 * i + 1], a[3 * i + 2]}; }

Triangle warp_triangle(const WarpCase& c, const TriangleRest<double>& rest) {
  Triangle t;
  for (int i = 0; i < 3; ++i) t.x[i] = at(c.x, i), t.v[i] = at(c.v, i);
  t.rest = rest;
  t.mat = {c.ke, c.ka, c.kd, c.drag, c.lift};
  t.activation = c.activation;
  return t;
}

// Each component within 1e-5 of the largest force component (Warp runs in float32).
void check_against_warp(const WarpCase& c, const TriangleForces<double>& f) {
  double scale = 0;
  for (double w : c.forces) scale = std::max(scale, std::fabs(w));
  for (int i = 0; i < 3; ++i)
    for (int k = 0; k < 3; ++k) {
      INFO(c.name << " force " << i << "." << k << ": ours " << component(f.f[i], k) << ", Warp's "
                  << c.forces[3 * i + k]);
      CHECK(std::fabs(component(f.f[i], k) - c.forces[3 * i + k]) <= 1e-5 * scale);
    }
}

}  // namespace

TEST_CASE("triangle_membrane: forces equal Warp's eval_triangles") {
  for (const WarpCase& c : kWarpCases) {
    CAPTURE(c.name);
    // Warp's own rest pose, and the rest area its kernel derives from it, 1 / (2 det pose).
    TriangleRest<double> warp_rest{{c.pose[0], c.pose[1], c.pose[2], c.pose[3]}, 0};
    warp_rest.area = 0.5 / (c.pose[0] * c.pose[3] - c.pose[1] * c.pose[2]);
    check_against_warp(c, warp_triangle(c, warp_rest).forces());

    // Our rest pose from the same rest positions: Warp's to float32 rounding.
    const TriangleRest<double> ours = triangle_rest(at(kWarpRest, 0), at(kWarpRest, 1), at(kWarpRest, 2));
    for (int k = 0; k < 4; ++k) CHECK(std::fabs(ours.pose[k] - c.pose[k]) < 1e-6);
    CHECK(ours.area == doctest::Approx(c.area).epsilon(1e-6));
    check_against_warp(c, warp_triangle(c, ours).forces());
  }
}
