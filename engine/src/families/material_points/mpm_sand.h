// Drucker-Prager sand (Klar et al. 2016, "Drucker-Prager elastoplasticity for sand
// animation"): Hencky (log-strain St. Venant-Kirchhoff) elasticity and a return mapping
// of the deformation gradient onto the friction cone after each step.
//
// With F = U Sigma V^T and eps = log Sigma in d dimensions (tr = sum eps_i, eps^ = eps - tr / d):
//   stress     tau = U (2 mu eps + lambda tr I) U^T
//   projection tr >= 0 (pulled apart) or F inverted: eps = 0 (F = U V^T, no stress);
//              else dgamma = |eps^| + (d lambda + 2 mu) / (2 mu) tr alpha, and where dgamma > 0
//              eps -= dgamma eps^ / |eps^| (onto the cone; the trace is kept)
//   alpha = sqrt(2/3) 2 sin(phi) / (3 - sin(phi)), phi the friction angle.
//
// Written without the SVD's eigenvectors. In 2D: F = R(theta) S with S symmetric (the
// polar decomposition), and every function of S's eigenvalues as b0 I + b1 S (the
// eigenvalues m +- r, b1 the divided difference), so that nothing divides by r when the
// stretch is isotropic (r = 0, as at rest). In 3D: as maps of C = F^T F's eigenvalues
// (kernels/spectral_function.h). Each map is written once for any scalar type, and its
// adjoint is the transpose of its Jacobian, taken in forward mode (kernels/forward_dual.h).
#pragma once

#include <cmath>

#include "kernels/forward_dual.h"
#include "kernels/spectral_function.h"
#include "nudge/mat33.h"

namespace nudge {

// The cone's slope alpha of a friction angle phi (radians), and d alpha / d phi.
template <class T>
NUDGE_HD T sand_alpha(T phi) {
  const T s = std::sin(phi);
  return T(0.8164965809277260) * T(2) * s / (T(3) - s);
}
template <class T>
NUDGE_HD T sand_alpha_slope(T phi) {
  const T s = std::sin(phi), c = std::cos(phi);
  return T(0.8164965809277260) * T(2) * T(3) * c / ((T(3) - s) * (T(3) - s));
}

// A 2D deformation gradient (the x-y block) as F = R(theta) S, S = [[a, b], [b, d]].
template <class S>
struct PolarStretch {
  S c, s;     // cos and sin of theta
  S a, b, d;  // S
  S m, r2;    // S's eigenvalues are m +- sqrt(r2)
};

template <class S>
NUDGE_HD PolarStretch<S> polar_stretch(const S f[4]) {  // f: f00, f01, f10, f11
  using std::atan2, std::cos, std::sin;
  const S theta = atan2(f[2] - f[1], f[0] + f[3]);
  PolarStretch<S> p{cos(theta), sin(theta), S(0), S(0), S(0), S(0), S(0)};
  p.a = p.c * f[0] + p.s * f[2];
  p.d = p.c * f[3] - p.s * f[1];
  p.b = (p.c * f[1] + p.s * f[3] + p.c * f[2] - p.s * f[0]) * constant<S>(0.5);
  p.m = (p.a + p.d) * constant<S>(0.5);
  const S h = (p.a - p.d) * constant<S>(0.5);
  p.r2 = h * h + p.b * p.b;
  return p;
}

// The divided difference (log(m + r) - log(m - r)) / (2 r), by its series where r << m.
template <class S>
NUDGE_HD S log_divided_difference(const S& m, const S& r2) {
  using std::log, std::sqrt;
  const auto q = value_of(r2) / (value_of(m) * value_of(m));
  if (q < 1e-6) {
    const S x = r2 / (m * m);
    return (S(1) + x * (constant<S>(1.0 / 3.0) + x * constant<S>(0.2))) / m;  // 1/m (1 + x/3 + x^2/5)
  }
  const S r = sqrt(r2);
  return (log(m + r) - log(m - r)) / (r * constant<S>(2));
}

// tau = R (2 mu log S + lambda log det S I) R^T, as t00, t01, t10, t11; 0 if det S <= 0.
template <class S>
NUDGE_HD void hencky_stress(const S f[4], const S& mu, const S& lambda, S tau[4]) {
  using std::log;
  const PolarStretch<S> p = polar_stretch(f);
  const S det = p.m * p.m - p.r2;
  if (value_of(det) <= 0) {
    for (int k = 0; k < 4; ++k) tau[k] = S(0);
    return;
  }
  const S tr = log(det);
  const S b1 = log_divided_difference(p.m, p.r2);
  const S b0 = tr * constant<S>(0.5) - b1 * p.m;  // log S = b0 I + b1 S
  // In S's frame: 2 mu (b0 I + b1 S) + lambda tr I
  const S diag = mu * b0 * constant<S>(2) + lambda * tr, k = mu * b1 * constant<S>(2);
  const S t00 = diag + k * p.a, t01 = k * p.b, t11 = diag + k * p.d;
  // R t R^T with R = [[c, -s], [s, c]]
  const S cc = p.c * p.c, ss = p.s * p.s, cs = p.c * p.s;
  tau[0] = cc * t00 - cs * t01 * constant<S>(2) + ss * t11;
  tau[3] = ss * t00 + cs * t01 * constant<S>(2) + cc * t11;
  tau[1] = tau[2] = cs * (t00 - t11) + (cc - ss) * t01;
}

// The return mapping of the trial F (after the step's (I + dt C)) onto the cone.
template <class S>
NUDGE_HD void sand_project(const S f[4], const S& mu, const S& lambda, const S& alpha, S out[4]) {
  using std::exp, std::log, std::sqrt;
  const PolarStretch<S> p = polar_stretch(f);
  const S det = p.m * p.m - p.r2;
  const auto rotation = [&] { out[0] = p.c, out[1] = -p.s, out[2] = p.s, out[3] = p.c; };
  if (value_of(det) <= 0) return rotation();  // inverted: the elastic strain is let go
  const S tr = log(det);
  if (value_of(tr) >= 0) return rotation();  // pulled apart: sand carries no tension
  const S b1 = log_divided_difference(p.m, p.r2);
  const bool spread = value_of(p.r2) > 0;
  const S r = spread ? sqrt(p.r2) : S(0);
  const S dgamma =
      b1 * r * constant<S>(1.4142135623730951) + (lambda + mu) / mu * tr * alpha;  // |eps^| = delta / sqrt2
  if (value_of(dgamma) <= 0) {
    for (int k = 0; k < 4; ++k) out[k] = f[k];
    return;
  }
  // eps_1 -= dgamma / sqrt2, eps_2 += dgamma / sqrt2 (dgamma > 0 needs r > 0)
  const S shrink = exp(dgamma * constant<S>(-0.7071067811865476));
  const S s1 = (p.m + r) * shrink, s2 = (p.m - r) / shrink;
  const S c1 = (s1 - s2) / (r * constant<S>(2)), c0 = s1 - c1 * (p.m + r);  // S' = c0 I + c1 S
  const S n00 = c0 + c1 * p.a, n01 = c1 * p.b, n11 = c0 + c1 * p.d;
  out[0] = p.c * n00 - p.s * n01;
  out[1] = p.c * n01 - p.s * n11;
  out[2] = p.s * n00 + p.c * n01;
  out[3] = p.s * n01 + p.c * n11;
}

// The 2D block of a Mat33 and back (the z row and column: F_zz = 1, tau's z parts 0).
template <class T>
NUDGE_HD void block_2d(const Mat33<T>& a, T out[4]) {
  out[0] = a(0, 0), out[1] = a(0, 1), out[2] = a(1, 0), out[3] = a(1, 1);
}
template <class T>
NUDGE_HD Mat33<T> from_block_2d(const T b[4], T zz) {
  return {{b[0], b[1], 0, b[2], b[3], 0, 0, 0, zz}};
}

// --- 3D: maps of C = F^T F's eigenvalues lam = sigma^2 (eps_i = log(lam_i) / 2) ----------
// theta = (mu, lambda, alpha).

// tau = F K F^T with k_i = (2 mu eps_i + lambda tr) / lam_i.
struct HenckyStressMap {
  template <class S>
  NUDGE_HD void operator()(const S lam[3], const S theta[3], S k[3]) const {
    using std::log;
    const S l0 = log(lam[0]), l1 = log(lam[1]), l2 = log(lam[2]);
    const S volume = theta[1] * (l0 + l1 + l2) * constant<S>(0.5);
    k[0] = (theta[0] * l0 + volume) / lam[0];
    k[1] = (theta[0] * l1 + volume) / lam[1];
    k[2] = (theta[0] * l2 + volume) / lam[2];
  }
};

// Which way the return mapping goes: to F's rotation (pulled apart or inverted), F kept
// (inside the cone), or onto the cone. Decided on values; each case is smooth.
enum class SandCase { Rotation, Kept, Cone };

template <class T>
NUDGE_HD SandCase sand_case(const T lam[3], T det_f, T mu, T lambda, T alpha) {
  using std::log, std::sqrt;
  if (!(det_f > T(0))) return SandCase::Rotation;
  const T eps[3] = {T(0.5) * log(lam[0]), T(0.5) * log(lam[1]), T(0.5) * log(lam[2])};
  const T tr = eps[0] + eps[1] + eps[2];
  if (tr >= T(0)) return SandCase::Rotation;
  T norm2 = 0;
  for (const T e : eps) norm2 += (e - tr / T(3)) * (e - tr / T(3));
  const T dgamma = sqrt(norm2) + (T(3) * lambda + T(2) * mu) / (T(2) * mu) * tr * alpha;
  return dgamma > T(0) ? SandCase::Cone : SandCase::Kept;
}

// F' = F H: h_i = sigma'_i / sigma_i.
struct SandProjectMap {
  SandCase which = SandCase::Kept;
  bool inverted = false;
  template <class S>
  NUDGE_HD void operator()(const S lam[3], const S theta[3], S h[3]) const {
    using std::exp, std::log, std::sqrt;
    if (which == SandCase::Rotation) return inverse_stretch(lam, inverted, h);
    if (which == SandCase::Kept) {
      for (int i = 0; i < 3; ++i) h[i] = constant<S>(1.0);
      return;
    }
    S eps[3];
    for (int i = 0; i < 3; ++i) eps[i] = log(lam[i]) * constant<S>(0.5);
    const S tr = eps[0] + eps[1] + eps[2];
    S hat[3];
    S norm2 = constant<S>(0.0);
    for (int i = 0; i < 3; ++i) {
      hat[i] = eps[i] - tr * constant<S>(1.0 / 3.0);
      norm2 = norm2 + hat[i] * hat[i];
    }
    const S norm = sqrt(norm2);  // > 0 on the cone: dgamma > 0 needs it
    const S dgamma = norm + (theta[1] * constant<S>(3.0) + theta[0] * constant<S>(2.0)) /
                                (theta[0] * constant<S>(2.0)) * tr * theta[2];
    for (int i = 0; i < 3; ++i) h[i] = exp(-(dgamma * hat[i] / norm));
  }
};

// Sand's stress and projection on matrices in D dimensions, and their adjoints.
template <int D, class T>
NUDGE_HD Mat33<T> sand_stress(const Mat33<T>& f, T mu, T lambda) {
  if constexpr (D == 3) {
    if (!(determinant(f) > T(0))) return zero33<T>();
    const T theta[3] = {mu, lambda, T(0)};
    return spectral_congruence(f, stretch_eigen(f), HenckyStressMap{}, theta);
  } else {
    T f2[4], tau[4];
    block_2d(f, f2);
    hencky_stress(f2, mu, lambda, tau);
    return from_block_2d(tau, T(0));
  }
}

// The 3D return mapping's case for F, given its stretch_eigen.
template <class T>
NUDGE_HD SandProjectMap sand_project_map(const Mat33<T>& f, const SymmetricEigen<T>& e, T mu, T lambda, T alpha) {
  const T det = determinant(f);
  return {sand_case(e.lam, det, mu, lambda, alpha), det < T(0)};
}

template <int D, class T>
NUDGE_HD Mat33<T> sand_gradient(const Mat33<T>& f, T mu, T lambda, T alpha) {
  if constexpr (D == 3) {
    const SymmetricEigen<T> e = stretch_eigen(f);
    const SandProjectMap map = sand_project_map(f, e, mu, lambda, alpha);
    if (map.which == SandCase::Kept) return f;
    const T theta[3] = {mu, lambda, alpha};
    return spectral_product(f, e, map, theta);
  } else {
    T f2[4], out[4];
    block_2d(f, f2);
    sand_project(f2, mu, lambda, alpha, out);
    return from_block_2d(out, T(1));
  }
}

// Adds dL/dF, dL/dmu, dL/dlambda given dL/dtau of sand_stress.
template <int D, class T>
NUDGE_HD void adj_sand_stress(const Mat33<T>& f, T mu, T lambda, const Mat33<T>& adj_tau, Mat33<T>& adj_f, T& adj_mu,
                              T& adj_lambda) {
  if constexpr (D == 3) {
    if (!(determinant(f) > T(0))) return;
    const T theta[3] = {mu, lambda, T(0)};
    T adj_theta[3] = {0, 0, 0};
    adj_spectral_congruence(f, stretch_eigen(f), HenckyStressMap{}, theta, adj_tau, adj_f, adj_theta);
    adj_mu += adj_theta[0];
    adj_lambda += adj_theta[1];
  } else {
    using Dl = Dual<T, 6>;
    Dl f2[4], tau[4];
    for (int k = 0; k < 4; ++k) f2[k] = Dl::input(f(k / 2, k % 2), k);
    hencky_stress(f2, Dl::input(mu, 4), Dl::input(lambda, 5), tau);
    T adj[6] = {0, 0, 0, 0, 0, 0};
    for (int o = 0; o < 4; ++o)
      for (int i = 0; i < 6; ++i) adj[i] += adj_tau(o / 2, o % 2) * tau[o].d[i];
    for (int k = 0; k < 4; ++k) adj_f(k / 2, k % 2) += adj[k];
    adj_mu += adj[4];
    adj_lambda += adj[5];
  }
}

// Adds dL/dF (the trial's), dL/dmu, dL/dlambda, dL/dalpha given dL/dF' of sand_gradient.
template <int D, class T>
NUDGE_HD void adj_sand_gradient(const Mat33<T>& f, T mu, T lambda, T alpha, const Mat33<T>& adj_out, Mat33<T>& adj_f,
                                T& adj_mu, T& adj_lambda, T& adj_alpha) {
  if constexpr (D == 3) {
    const SymmetricEigen<T> e = stretch_eigen(f);
    const SandProjectMap map = sand_project_map(f, e, mu, lambda, alpha);
    if (map.which == SandCase::Kept) {
      adj_f += adj_out;
      return;
    }
    const T theta[3] = {mu, lambda, alpha};
    T adj_theta[3] = {0, 0, 0};
    adj_spectral_product(f, e, map, theta, adj_out, adj_f, adj_theta);
    adj_mu += adj_theta[0];
    adj_lambda += adj_theta[1];
    adj_alpha += adj_theta[2];
  } else {
    using Dl = Dual<T, 7>;
    Dl f2[4], out[4];
    for (int k = 0; k < 4; ++k) f2[k] = Dl::input(f(k / 2, k % 2), k);
    sand_project(f2, Dl::input(mu, 4), Dl::input(lambda, 5), Dl::input(alpha, 6), out);
    T adj[7] = {0, 0, 0, 0, 0, 0, 0};
    for (int o = 0; o < 4; ++o)
      for (int i = 0; i < 7; ++i) adj[i] += adj_out(o / 2, o % 2) * out[o].d[i];
    for (int k = 0; k < 4; ++k) adj_f(k / 2, k % 2) += adj[k];
    adj_mu += adj[4];
    adj_lambda += adj[5];
    adj_alpha += adj[6];
  }
}

}  // namespace nudge
