// The stable Neo-Hookean tetrahedron (families/tets/tet_neohookean.h): its adjoint against
// central differences in double, the rest and rigid-motion invariants, the material
// conversions, and its forces against NVIDIA Warp's own eval_tetrahedra.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "families/tets/tet_neohookean.h"
#include "central_difference.h"
#include "nudge/gradcheck.h"

using namespace nudge;
using test::central_difference;

namespace {

constexpr double kTolerance = 1e-6;

void check_entry(const std::string& what, int index, double adjoint, double fd) {
  const double err = gradient_relative_error(adjoint, fd, 1e-9);
  INFO(what << "[" << index << "]: adjoint " << adjoint << ", finite difference " << fd);
  CHECK(err <= kTolerance);
}

using V3 = Vec3<double>;
using M3 = Mat33<double>;

V3 random_vec(std::mt19937& rng, double scale) {
  std::uniform_real_distribution<double> u(-scale, scale);
  return {u(rng), u(rng), u(rng)};
}

// Rotation about a unit axis by an angle (Rodrigues).
M3 rotation(V3 axis, double angle) {
  const V3 k = normalize(axis);
  const M3 K = skew(k);
  return identity33<double>() + std::sin(angle) * K + (1 - std::cos(angle)) * (K * K);
}

// A rest tet around the origin with a random, well-shaped frame.
std::vector<V3> random_rest(std::mt19937& rng) {
  for (;;) {
    std::vector<V3> X{random_vec(rng, 0.1), V3{1, 0, 0} + random_vec(rng, 0.3), V3{0, 1, 0} + random_vec(rng, 0.3),
                      V3{0, 0, 1} + random_vec(rng, 0.3)};
    if (tet_rest(X[0], X[1], X[2], X[3], 0.2).status == TetRestStatus::ok) return X;
  }
}

struct Deformation {
  const char* name;
  M3 A;  // x = A X + jitter
};

std::vector<Deformation> deformations() {
  return {
      {"stretched", diagonal33(V3{1.4, 0.9, 1.2})},
      {"compressed", diagonal33(V3{0.55, 0.7, 0.6})},
      {"sheared", M3{{1, 0.6, -0.3, 0, 1, 0.4, 0, 0, 1}}},
      {"nearly flat", diagonal33(V3{1, 1, 1e-3})},
      {"inverted", diagonal33(V3{1, 0.8, -0.5})},
      {"rotated", rotation(V3{0.3, -1, 0.5}, 2.1) * diagonal33(V3{1.1, 0.95, 1.05})},
  };
}

}  // namespace

TEST_CASE("tet_neohookean: adjoint matches central differences on stretched, flat, inverted and rotated tets") {
  for (unsigned seed : {1u, 2u, 3u, 4u}) {
    std::mt19937 rng(seed);
    for (const Deformation& d : deformations()) {
      CAPTURE(seed);
      CAPTURE(d.name);
      const std::vector<V3> X = random_rest(rng);
      const TetRest<double> rest = tet_rest(X[0], X[1], X[2], X[3]);
      REQUIRE(rest.status == TetRestStatus::ok);
      const double jitter = std::string(d.name) == "nearly flat" ? 1e-4 : 0.05;
      V3 x[4], v[4], w[4];
      for (int i = 0; i < 4; ++i) {
        x[i] = d.A * X[i] + V3{0.2, -0.1, 0.3} + random_vec(rng, jitter);
        if (std::string(d.name) == "nearly flat") x[i].z = 1e-3 * X[i].z;  // J about 1e-3
        v[i] = random_vec(rng, 1.0);
        w[i] = random_vec(rng, 1.0);
      }
      std::uniform_real_distribution<double> u(0.0, 1.0);
      TetParams<double> p{rest.rest_inverse, rest.volume,  2 + 8 * u(rng),
                          5 + 20 * u(rng),   0.1 + u(rng), 0.5 * u(rng) - 0.25};
      // Perturb the rest inverse and volume off their consistent values: the kernel takes
      // them as independent inputs.
      for (double& b : p.rest_inverse.m) b += 0.05 * (u(rng) - 0.5);
      p.rest_volume *= 1.1;

      auto phi = [&] {
        const TetForces<double> f = tet_neohookean_forces(x, v, p);
        double s = 0;
        for (int i = 0; i < 4; ++i) s += dot(w[i], f.f[i]);
        return s;
      };
      const TetAdjoint<double> a = tet_neohookean_adjoint(x, v, p, w);
      for (int i = 0; i < 4; ++i) {
        double* xs[3] = {&x[i].x, &x[i].y, &x[i].z};
        double* vs[3] = {&v[i].x, &v[i].y, &v[i].z};
        const double ax[3] = {a.x[i].x, a.x[i].y, a.x[i].z}, av[3] = {a.v[i].x, a.v[i].y, a.v[i].z};
        for (int k = 0; k < 3; ++k) {
          check_entry("x", 3 * i + k, ax[k], central_difference(*xs[k], phi));
          check_entry("v", 3 * i + k, av[k], central_difference(*vs[k], phi));
        }
      }
      for (int k = 0; k < 9; ++k)
        check_entry("rest_inverse", k, a.params.rest_inverse.m[k], central_difference(p.rest_inverse.m[k], phi));
      check_entry("rest_volume", 0, a.params.rest_volume, central_difference(p.rest_volume, phi));
      check_entry("k_mu", 0, a.params.k_mu, central_difference(p.k_mu, phi));
      check_entry("k_lambda", 0, a.params.k_lambda, central_difference(p.k_lambda, phi));
      check_entry("k_damp", 0, a.params.k_damp, central_difference(p.k_damp, phi));
      check_entry("activation", 0, a.params.activation, central_difference(p.activation, phi));

      // Inversion safe: finite forces that still sum to zero.
      const TetForces<double> f = tet_neohookean_forces(x, v, p);
      const V3 sum = f.f[0] + f.f[1] + f.f[2] + f.f[3];
      double scale = 0;
      for (const V3& fi : f.f) {
        CHECK(std::isfinite(fi.x + fi.y + fi.z));
        scale = std::max(scale, length(fi));
      }
      CHECK(length(sum) <= 1e-12 * scale);
    }
  }
}

TEST_CASE("tet_neohookean: the rest pose and rigid motions of it are force free") {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 5; ++trial) {
    const std::vector<V3> X = random_rest(rng);
    const TetRest<double> rest = tet_rest(X[0], X[1], X[2], X[3]);
    REQUIRE(rest.status == TetRestStatus::ok);
    const double k_mu = 1000, k_lambda = 2500;
    // The stress scale: k_mu V per unit of strain.
    const double scale = k_mu * rest.volume;
    const TetParams<double> p{rest.rest_inverse, rest.volume, k_mu, k_lambda, 3.0, 0.0};
    V3 x[4], v[4];
    for (int i = 0; i < 4; ++i) x[i] = X[i], v[i] = V3{0, 0, 0};
    // At rest alpha = 1 + 3 k_mu / (4 k_lambda) cancels the deviatoric (3/4) k_mu I.
    TetForces<double> f = tet_neohookean_forces(x, v, p);
    for (const V3& fi : f.f) CHECK(length(fi) <= 1e-12 * scale);
    // Turned and moved (elastic forces only: Warp's volumetric damping dots the normals
    // with absolute velocities, so a moving rigid tet is damped).
    const M3 R = rotation(random_vec(rng, 1.0), 0.3 + 2.5 * trial / 4.0);
    const V3 t = random_vec(rng, 5.0);
    for (int i = 0; i < 4; ++i) x[i] = R * X[i] + t;
    f = tet_neohookean_forces(x, v, p);
    for (const V3& fi : f.f) CHECK(length(fi) <= 1e-11 * scale);
    // A nonzero activation or an elastic stretch gives forces that still sum to zero.
    TetParams<double> active = p;
    active.activation = 0.1;
    f = tet_neohookean_forces(x, v, active);
    CHECK(length(f.f[0]) > 1e-3 * scale);
    CHECK(length(f.f[0] + f.f[1] + f.f[2] + f.f[3]) <= 1e-12 * scale);
  }
}

TEST_CASE("tet_neohookean: small strains follow the linear material of the Smith et al. conversion") {
  // Rest frame = the unit axes, so B = I, V = 1/6 and f_j = -V P e_j for j = 1..3: the
  // first Piola stress is read off the forces. With k_mu = 4/3 mu, k_lambda = lambda + 5/6 mu
  // it must be 2 mu eps + lambda tr(eps) I to first order.
  const Lame<double> lin = lame_from_young_poisson(2.0e5, 0.3);
  const Lame<double> k = stable_neohookean_from_lame(lin);
  const TetRest<double> rest = tet_rest(V3{0, 0, 0}, V3{1, 0, 0}, V3{0, 1, 0}, V3{0, 0, 1});
  REQUIRE(rest.status == TetRestStatus::ok);
  const TetParams<double> p{rest.rest_inverse, rest.volume, k.mu, k.lambda, 0.0, 0.0};
  const double h = 1e-7;
  const M3 eps{{0.3, 0.2, -0.1, 0.2, -0.5, 0.4, -0.1, 0.4, 0.7}};  // symmetric
  V3 x[4] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, v[4] = {};
  for (int j = 1; j < 4; ++j) x[j] = x[j] + h * column(eps, j - 1);
  const TetForces<double> f = tet_neohookean_forces(x, v, p);
  const double tr = eps(0, 0) + eps(1, 1) + eps(2, 2);
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 3; ++i) {
      const V3 fj = f.f[j + 1];
      const double P_ij = -(i == 0 ? fj.x : i == 1 ? fj.y : fj.z) / rest.volume / h;
      const double expected = 2 * lin.mu * eps(i, j) + (i == j ? lin.lambda * tr : 0.0);
      CHECK(P_ij == doctest::Approx(expected).epsilon(1e-5).scale(lin.mu));
    }
}

TEST_CASE("tet_neohookean: Young's modulus and Poisson's ratio to Lame parameters") {
  // Steel: E = 200 GPa, nu = 0.3 gives mu = 76.923 GPa, lambda = 115.385 GPa.
  const Lame<double> steel = lame_from_young_poisson(200e9, 0.3);
  CHECK(steel.mu == doctest::Approx(76.923076923e9).epsilon(1e-10));
  CHECK(steel.lambda == doctest::Approx(115.384615385e9).epsilon(1e-10));
  // nu = 0.25: lambda = mu = E / 2.5.
  const Lame<double> quarter = lame_from_young_poisson(1.0e6, 0.25);
  CHECK(quarter.mu == doctest::Approx(4.0e5));
  CHECK(quarter.lambda == doctest::Approx(4.0e5));
  // nu = 0: no lateral coupling, mu = E / 2.
  const Lame<double> zero = lame_from_young_poisson(3.0e4, 0.0);
  CHECK(zero.mu == doctest::Approx(1.5e4));
  CHECK(zero.lambda == 0.0);
  // Rubber-like nu = 0.45: lambda / mu = 2 nu / (1 - 2 nu) = 9.
  const Lame<double> rubber = lame_from_young_poisson(1.0e6, 0.45);
  CHECK(rubber.lambda / rubber.mu == doctest::Approx(9.0));
  CHECK(rubber.mu == doctest::Approx(1.0e6 / 2.9));
  // And back: E = mu (3 lambda + 2 mu) / (lambda + mu), nu = lambda / (2 (lambda + mu)).
  CHECK(steel.mu * (3 * steel.lambda + 2 * steel.mu) / (steel.lambda + steel.mu) == doctest::Approx(200e9));
  CHECK(steel.lambda / (2 * (steel.lambda + steel.mu)) == doctest::Approx(0.3));
}

TEST_CASE("tet_neohookean: rest helper and mass from density") {
  const TetRest<double> unit = tet_rest(V3{0, 0, 0}, V3{1, 0, 0}, V3{0, 1, 0}, V3{0, 0, 1});
  CHECK(unit.status == TetRestStatus::ok);
  CHECK(unit.volume == doctest::Approx(1.0 / 6.0));
  for (int k = 0; k < 9; ++k) CHECK(unit.rest_inverse.m[k] == doctest::Approx(identity33<double>().m[k]));
  // A general tet: B Dm = I and V = 1 / (6 det B), Warp's relation.
  const V3 X0{0.1, 0.2, -0.3}, X1{1.2, 0.1, 0.0}, X2{0.3, 0.9, 0.2}, X3{-0.1, 0.4, 1.1};
  const TetRest<double> r = tet_rest(X0, X1, X2, X3);
  REQUIRE(r.status == TetRestStatus::ok);
  const M3 BDm = r.rest_inverse * from_columns(X1 - X0, X2 - X0, X3 - X0);
  for (int k = 0; k < 9; ++k) CHECK(BDm.m[k] == doctest::Approx(identity33<double>().m[k]).scale(1.0));
  CHECK(r.volume == doctest::Approx(1.0 / (6 * determinant(r.rest_inverse))));
  // Swapping two vertices inverts it; a flat one, or a repeated vertex, is degenerate.
  const TetRest<double> inv = tet_rest(X0, X2, X1, X3);
  CHECK(inv.status == TetRestStatus::inverted);
  CHECK(inv.volume == doctest::Approx(-r.volume));
  CHECK(tet_rest(V3{0, 0, 0}, V3{1, 0, 0}, V3{0, 1, 0}, V3{0.3, 0.3, 0}).status == TetRestStatus::degenerate);
  CHECK(tet_rest(V3{0, 0, 0}, V3{1, 0, 0}, V3{0, 1, 0}, V3{0.3, 0.3, 1e-8}).status == TetRestStatus::degenerate);
  CHECK(tet_rest(V3{0, 0, 0}, V3{1, 0, 0}, V3{1, 0, 0}, V3{0, 0, 1}).status == TetRestStatus::degenerate);
  CHECK(tet_rest(V3{0, 0, 0}, V3{1, 0, 0}, V3{0, 1, 0}, V3{0.3, 0.3, 1e-3}).status == TetRestStatus::ok);
  // Lumped mass: a quarter of rho V per vertex.
  CHECK(tet_vertex_mass(1000.0, unit.volume) == doctest::Approx(1000.0 / 24.0));
  CHECK(4 * tet_vertex_mass(7.5, r.volume) == doctest::Approx(7.5 * r.volume));
}

namespace {

// Outputs of tests/engine/warp_reference/tet_forces.py: warp-lang 1.9.1's eval_tetrahedra on
// the CPU in float32, forces f0..f3 (x, y, z each). Every input is a multiple of 1/16, so
// both sides see the same numbers; Warp's rest inverse is its float32 copy of ours.
struct WarpCase {
  const char* name;
  V3 x[4], v[4];
  double k_mu, k_lambda, k_damp, activation;
  double f[12];
};

const V3 kWarpRest[4] = {{0.0, 0.0, 0.0}, {1.0, 0.125, 0.0}, {0.25, 0.75, 0.0625}, {0.1875, 0.3125, 0.875}};

const WarpCase kWarpCases[] = {
    {"stretched_sheared",
     {{0.0, 0.0, 0.0}, {1.25, 0.25, -0.0625}, {0.5, 0.875, 0.125}, {0.3125, 0.25, 1.0625}},
     {{0.25, -0.5, 0.125}, {-0.375, 0.0625, 0.5}, {0.1875, 0.25, -0.25}, {0.0, -0.125, 0.375}},
     1000.0,
     5000.0,
     2.0,
     0.0,
     {404.072876, 374.214813, 307.037659, -473.7052, 227.635223, 81.0966034, 104.956955, -704.095032, 133.33577,
      -35.3246574, 102.244987, -521.470032}},
    {"compressed_active",
     {{0.0625, 0.0, 0.0}, {0.8125, 0.125, 0.0625}, {0.25, 0.5625, 0.0}, {0.125, 0.25, 0.625}},
     {{0.0, 0.25, 0.0}, {0.125, 0.0, -0.25}, {-0.25, 0.125, 0.0625}, {0.5, -0.375, 0.0}},
     800.0,
     2000.0,
     5.0,
     0.25,
     {-23.2271614, -37.9984169, -28.0241165, 34.9392242, -13.8887444, 1.12709749, -8.81402016, 46.0874519, -14.1394157,
      -2.89804173, 5.79971027, 41.0364342}},
    {"inverted",
     {{0.0, 0.0, 0.0}, {1.0, 0.125, 0.0}, {0.25, 0.75, 0.0625}, {0.25, 0.375, -0.5}},
     {{0.125, 0.125, 0.125}, {0.0, 0.0, 0.0}, {-0.125, 0.0, 0.25}, {0.0625, -0.0625, 0.0}},
     1500.0,
     3000.0,
     1.0,
     -0.125,
     {446.976013, 558.932556, -325.299194, -534.948608, 186.34816, -99.2180481, 90.4677887, -680.566772, -418.625305,
      -2.49516582, -64.7139435, 843.142578}},
    {"translated_sheared",
     {{1.0, 2.0, 3.0}, {1.0, 3.0, 3.125}, {0.25, 2.25, 3.0625}, {1.1875, 2.3125, 3.875}},
     {{0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}},
     1000.0,
     4000.0,
     0.0,
     0.0,
     {12.0176773, 20.1434174, -13.3790741, -15.9859085, -14.6717834, -32.3203201, 63.6843719, 18.8801918, 62.7607651,
      -59.7161407, -24.3518257, -17.0613708}},
    // The rest pose turned 90 degrees about z and moved: Warp's numbers are round-off.
    {"rigid_rotation",
     {{1.0, 2.0, 3.0}, {0.875, 3.0, 3.0}, {0.25, 2.25, 3.0625}, {0.6875, 2.1875, 3.875}},
     {{0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}, {0.0, 0.0, 0.0}},
     1000.0,
     4000.0,
     3.0,
     0.0,
     {-4.76837158e-06, 1.35302544e-05, -7.62939453e-06, -1.90734863e-06, -1.52587891e-05, 0, 7.62939453e-06,
      1.90734863e-06, 0, -9.53674316e-07, -1.78813934e-07, 7.62939453e-06}},
};

}  // namespace

TEST_CASE("tet_neohookean: forces equal Warp's eval_tetrahedra") {
  const TetRest<double> rest = tet_rest(kWarpRest[0], kWarpRest[1], kWarpRest[2], kWarpRest[3]);
  REQUIRE(rest.status == TetRestStatus::ok);
  for (const WarpCase& c : kWarpCases) {
    CAPTURE(c.name);
    const TetParams<double> p{rest.rest_inverse, rest.volume, c.k_mu, c.k_lambda, c.k_damp, c.activation};
    const TetForces<double> f = tet_neohookean_forces(c.x, c.v, p);
    // Float32 against double: each entry within 2e-6 of the case's force scale (the
    // largest Warp force, or k_mu V where the forces are round-off).
    double scale = c.k_mu * rest.volume;
    for (double w : c.f) scale = std::max(scale, std::fabs(w));
    for (int i = 0; i < 4; ++i) {
      const double ours[3] = {f.f[i].x, f.f[i].y, f.f[i].z};
      for (int k = 0; k < 3; ++k) {
        INFO("f" << i << "[" << k << "]: ours " << ours[k] << ", Warp " << c.f[3 * i + k]);
        CHECK(std::fabs(ours[k] - c.f[3 * i + k]) <= 2e-6 * scale);
      }
    }
  }
}
