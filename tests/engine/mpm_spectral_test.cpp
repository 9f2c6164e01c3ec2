// The 3D materials written through the eigenvalues of C = F^T F
// (kernels/spectral_function.h): fixed corotated's rotation, sand's Hencky stress and
// return mapping. Each is checked against the same quantity built from an explicit SVD
// F = Q diag(s) W^T, and its adjoint against central differences in double, at distinct,
// repeated and all-equal singular values and with F inverted.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <random>
#include <string>

#include "families/material_points/mpm_material.h"
#include "central_difference.h"

using namespace nudge;

namespace {

using M = Mat33<double>;
using V = Vec3<double>;

std::mt19937_64& rng() {
  static std::mt19937_64 r(20261202);
  return r;
}
double uniform(double lo = -1, double hi = 1) { return std::uniform_real_distribution<double>(lo, hi)(rng()); }

// A random rotation (Rodrigues' formula about a random axis).
M random_rotation() {
  V axis{uniform(), uniform(), uniform()};
  axis = (1.0 / std::sqrt(dot(axis, axis))) * axis;
  const double angle = uniform(-3.0, 3.0);
  const M k = skew(axis);
  return identity33<double>() + std::sin(angle) * k + (1.0 - std::cos(angle)) * (k * k);
}

M from_svd(const M& q, V s, const M& w) { return q * diagonal33(s) * transpose(w); }

double max_difference(const M& a, const M& b) {
  double d = 0;
  for (int k = 0; k < 9; ++k) d = std::max(d, std::fabs(a.m[k] - b.m[k]));
  return d;
}

double inner9(const M& a, const M& b) {
  double s = 0;
  for (int k = 0; k < 9; ++k) s += a.m[k] * b.m[k];
  return s;
}

void check_gradient(const std::function<double()>& loss, double& entry, double adjoint, const std::string& what) {
  const double fd = test::central_difference(entry, loss, 1e-6);
  CAPTURE(what);
  CHECK(adjoint == doctest::Approx(fd).epsilon(1e-5).scale(1.0));
}

struct Stretch {
  V s;            // singular values (the last negative: F inverted)
  SandCase sand;  // where sand's return mapping sends it (mu 3, lambda 5, alpha 0.4)
};

// Distinct, two equal, all equal; onto the cone, kept, pulled apart, inverted.
constexpr double kMu = 3.0, kLambda = 5.0, kAlpha = 0.4;
const Stretch kStretches[] = {
    {{0.9, 1.0, 1.05}, SandCase::Cone},      {{0.92, 0.92, 1.12}, SandCase::Cone},
    {{0.95, 0.95, 0.95}, SandCase::Kept},    {{0.9, 0.92, 0.91}, SandCase::Kept},
    {{1.05, 1.1, 0.98}, SandCase::Rotation}, {{1.1, 1.1, 1.1}, SandCase::Rotation},
    {{1.1, 0.9, -0.8}, SandCase::Rotation},
};

}  // namespace

TEST_CASE("spectral: Jacobi's eigen-decomposition reconstructs a symmetric matrix") {
  for (int trial = 0; trial < 50; ++trial) {
    const M q = random_rotation();
    const V lam{uniform(0.1, 2), trial % 3 ? uniform(0.1, 2) : 0.7, trial % 5 ? uniform(0.1, 2) : 0.7};
    const M c = q * diagonal33(lam) * transpose(q);
    const SymmetricEigen<double> e = symmetric_eigen(c);
    CHECK(max_difference(e.v * diagonal33(V{e.lam[0], e.lam[1], e.lam[2]}) * transpose(e.v), c) < 1e-13);
    CHECK(max_difference(transpose(e.v) * e.v, identity33<double>()) < 1e-13);
  }
}

TEST_CASE("spectral: 3D fixed corotated and sand against an explicit SVD") {
  for (const Stretch& st : kStretches) {
    CAPTURE(st.s.x);
    CAPTURE(st.s.y);
    CAPTURE(st.s.z);
    const M q = random_rotation(), w = random_rotation();
    const M f = from_svd(q, st.s, w);
    const double j = st.s.x * st.s.y * st.s.z;
    // The signed SVD's rotation: Q W^T even when F is inverted (s_z < 0).
    const M r = q * transpose(w);
    MpmMaterialLaw<double> law;
    law.mu = kMu, law.lambda = kLambda, law.alpha = kAlpha;

    law.kind = MpmModelKind::FixedCorotated;
    const M corotated = (2 * kMu) * ((f + (-1.0) * r) * transpose(f)) + (kLambda * (j - 1) * j) * identity33<double>();
    CHECK(max_difference(kirchhoff_stress<3>(law, f, zero33<double>(), 0.0), corotated) < 1e-12);

    const SymmetricEigen<double> e = stretch_eigen(f);
    CHECK(sand_case(e.lam, determinant(f), kMu, kLambda, kAlpha) == st.sand);
    if (j <= 0) {
      CHECK(max_difference(sand_stress<3>(f, kMu, kLambda), zero33<double>()) == 0.0);
      CHECK(max_difference(sand_gradient<3>(f, kMu, kLambda, kAlpha), r) < 1e-12);
      continue;
    }
    const V eps{std::log(st.s.x), std::log(st.s.y), std::log(st.s.z)};
    const double tr = eps.x + eps.y + eps.z;
    const V hencky = 2 * kMu * eps + V{1, 1, 1} * (kLambda * tr);
    CHECK(max_difference(sand_stress<3>(f, kMu, kLambda), q * diagonal33(hencky) * transpose(q)) < 1e-12);
    V projected = st.s;
    if (st.sand == SandCase::Rotation) projected = V{1, 1, 1};
    if (st.sand == SandCase::Cone) {
      const V hat = eps + V{1, 1, 1} * (-tr / 3);
      const double norm = std::sqrt(dot(hat, hat));
      const double dgamma = norm + (3 * kLambda + 2 * kMu) / (2 * kMu) * tr * kAlpha;
      const V e2 = eps + (-dgamma / norm) * hat;
      projected = V{std::exp(e2.x), std::exp(e2.y), std::exp(e2.z)};
      // On the cone the trace is kept and the deviator shrinks by dgamma.
      CHECK(e2.x + e2.y + e2.z == doctest::Approx(tr));
    }
    CHECK(max_difference(sand_gradient<3>(f, kMu, kLambda, kAlpha), from_svd(q, projected, w)) < 1e-12);
  }
}

TEST_CASE("spectral: the 3D materials' adjoints against central differences") {
  for (const Stretch& st : kStretches) {
    CAPTURE(st.s.x);
    CAPTURE(st.s.y);
    CAPTURE(st.s.z);
    M f = from_svd(random_rotation(), st.s, random_rotation());
    M weight;
    for (double& x : weight.m) x = uniform();
    double mu = kMu, lambda = kLambda, alpha = kAlpha;

    SUBCASE("fixed corotated") {
      MpmMaterialLaw<double> law;
      law.kind = MpmModelKind::FixedCorotated;
      M c = zero33<double>();
      double act = 0;
      const auto loss = [&] {
        law.mu = mu, law.lambda = lambda;
        return inner9(weight, kirchhoff_stress<3>(law, f, c, act));
      };
      law.mu = mu, law.lambda = lambda;
      M adj_f = zero33<double>(), adj_c = zero33<double>();
      MpmMaterialAdjoint<double> adj_law;
      double adj_act = 0;
      adj_kirchhoff_stress<3>(law, f, c, act, weight, adj_f, adj_c, adj_law, adj_act);
      for (int k = 0; k < 9; ++k) check_gradient(loss, f.m[k], adj_f.m[k], "F " + std::to_string(k));
      check_gradient(loss, mu, adj_law.mu, "mu");
      check_gradient(loss, lambda, adj_law.lambda, "lambda");
    }
    SUBCASE("sand's stress") {
      const auto loss = [&] { return inner9(weight, sand_stress<3>(f, mu, lambda)); };
      M adj_f = zero33<double>();
      double adj_mu = 0, adj_lambda = 0;
      adj_sand_stress<3>(f, mu, lambda, weight, adj_f, adj_mu, adj_lambda);
      for (int k = 0; k < 9; ++k) check_gradient(loss, f.m[k], adj_f.m[k], "F " + std::to_string(k));
      check_gradient(loss, mu, adj_mu, "mu");
      check_gradient(loss, lambda, adj_lambda, "lambda");
    }
    SUBCASE("sand's return mapping") {
      const auto loss = [&] { return inner9(weight, sand_gradient<3>(f, mu, lambda, alpha)); };
      M adj_f = zero33<double>();
      double adj_mu = 0, adj_lambda = 0, adj_alpha = 0;
      adj_sand_gradient<3>(f, mu, lambda, alpha, weight, adj_f, adj_mu, adj_lambda, adj_alpha);
      for (int k = 0; k < 9; ++k) check_gradient(loss, f.m[k], adj_f.m[k], "F " + std::to_string(k));
      check_gradient(loss, mu, adj_mu, "mu");
      check_gradient(loss, lambda, adj_lambda, "lambda");
      check_gradient(loss, alpha, adj_alpha, "alpha");
    }
  }
}
