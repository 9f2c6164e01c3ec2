// Isotropic functions of a 3D deformation gradient through the eigenvalues of C = F^T F,
// and their adjoints: the 3D materials' rotation (fixed corotated), Hencky stress and
// return mapping (sand) without a differentiable SVD.
//
// With C = V diag(lam) V^T (Jacobi, below) and a map g of the eigenvalues that treats
// them alike (g(P lam) = P g(lam) for a permutation P), G(C) = V diag(g(lam)) V^T is
// well defined whatever V a repeated eigenvalue gets. Each material writes
// tau = F G(C) F^T or F' = F G(C):
//   F = U Sigma V^T, Sigma^2 = lam, so U D U^T = F V (D / lam) V^T F^T and U D V^T =
//   F V (D / Sigma) V^T.
//
// The adjoint (Lewis and Sendov's derivative of a spectral function): in V's basis, with
// B = V^T dL/dG V, dL/dC has the diagonal J^T diag(B) (J = dg/dlam, taken in forward mode
// by kernels/forward_dual.h) and the off-diagonal Gamma_ij (B_ij + B_ji) / 2, where
// Gamma_ij = (g_i - g_j) / (lam_i - lam_j), or its limit dg_i/dlam_i - dg_i/dlam_j when
// the two eigenvalues are closer than the square root of the type's precision (where
// the quotient has lost half its digits and the limit is off by as much). Nothing
// divides by an eigenvalue gap, so F = I (every eigenvalue 1) is an ordinary point.
#pragma once

#include <cmath>

#include "kernels/forward_dual.h"
#include "nudge/mat33.h"

namespace nudge {

// C = V diag(lam) V^T for a symmetric C; the columns of v are the eigenvectors.
template <class T>
struct SymmetricEigen {
  T lam[3];
  Mat33<T> v;
};

// One Jacobi rotation in the (p, q) plane that zeroes a(p, q) (Numerical Recipes' tan
// t and its update of the diagonal): a = J^T a J and v = v J, with J the identity but
// J_pp = J_qq = c, J_pq = s, J_qp = -s; only rows and columns p and q change.
template <class T>
NUDGE_HD void jacobi_rotate(Mat33<T>& a, Mat33<T>& v, int p, int q) {
  const T apq = a(p, q);
  if (apq == T(0)) return;
  const T theta = (a(q, q) - a(p, p)) / (T(2) * apq);
  const T t = (theta >= T(0) ? T(1) : T(-1)) / (std::fabs(theta) + std::sqrt(theta * theta + T(1)));
  const T c = T(1) / std::sqrt(t * t + T(1)), s = t * c;
  const int r = 3 - p - q;  // the third axis
  const T arp = a(r, p), arq = a(r, q);
  a(r, p) = a(p, r) = c * arp - s * arq;
  a(r, q) = a(q, r) = s * arp + c * arq;
  a(p, p) -= t * apq;
  a(q, q) += t * apq;
  a(p, q) = a(q, p) = T(0);
  for (int k = 0; k < 3; ++k) {
    const T vkp = v(k, p), vkq = v(k, q);
    v(k, p) = c * vkp - s * vkq;
    v(k, q) = s * vkp + c * vkq;
  }
}

// Cyclic Jacobi: the off-diagonal shrinks quadratically; a handful of sweeps reaches
// the type's precision (the cap only guards against a NaN).
template <class T>
NUDGE_HD SymmetricEigen<T> symmetric_eigen(Mat33<T> a) {
  const T tol = sizeof(T) == 4 ? T(1e-14) : T(1e-30);  // about epsilon^2
  Mat33<T> v = identity33<T>();
  for (int sweep = 0; sweep < 12; ++sweep) {
    const T off = a(0, 1) * a(0, 1) + a(0, 2) * a(0, 2) + a(1, 2) * a(1, 2);
    const T diag = a(0, 0) * a(0, 0) + a(1, 1) * a(1, 1) + a(2, 2) * a(2, 2);
    if (!(off > tol * diag)) break;
    jacobi_rotate(a, v, 0, 1);
    jacobi_rotate(a, v, 0, 2);
    jacobi_rotate(a, v, 1, 2);
  }
  return {{a(0, 0), a(1, 1), a(2, 2)}, v};
}

// C = F^T F's eigen-decomposition, each eigenvalue kept above a tiny floor (a flat F's
// rounding can leave one just below 0, and the maps take logs and roots).
template <class T>
NUDGE_HD SymmetricEigen<T> stretch_eigen(const Mat33<T>& f) {
  SymmetricEigen<T> e = symmetric_eigen(transpose(f) * f);
  const T floor = sizeof(T) == 4 ? T(1e-30) : T(1e-200);
  for (T& l : e.lam) l = l > floor ? l : floor;
  return e;
}

// The parameters a map may read (mu, lambda, alpha), as one array so one dual covers them.
constexpr int kSpectralParams = 3;

// G = V diag(g(lam)) V^T. Map: template <class S> void operator()(const S lam[3],
// const S theta[3], S g[3]) const.
template <class T, class Map>
NUDGE_HD Mat33<T> spectral_function(const SymmetricEigen<T>& e, const Map& map, const T theta[kSpectralParams]) {
  T g[3];
  map(e.lam, theta, g);
  return e.v * diagonal33(Vec3<T>{g[0], g[1], g[2]}) * transpose(e.v);
}

// The map's values and derivatives in one forward-mode pass, and G from the values (the
// adjoints need both; the map runs once).
template <class T>
struct SpectralDuals {
  Dual<T, 3 + kSpectralParams> g[3];
  Mat33<T> value;  // G
};

template <class T, class Map>
NUDGE_HD SpectralDuals<T> spectral_duals(const SymmetricEigen<T>& e, const Map& map, const T theta[kSpectralParams]) {
  using D = Dual<T, 3 + kSpectralParams>;
  SpectralDuals<T> out;
  D lam[3], th[kSpectralParams];
  for (int i = 0; i < 3; ++i) lam[i] = D::input(e.lam[i], i);
  for (int p = 0; p < kSpectralParams; ++p) th[p] = D::input(theta[p], 3 + p);
  map(lam, th, out.g);
  out.value = e.v * diagonal33(Vec3<T>{out.g[0].v, out.g[1].v, out.g[2].v}) * transpose(e.v);
  return out;
}

// Given dL/dG, adds dL/dC (symmetric) and dL/dtheta; d is spectral_duals' for e.
template <class T>
NUDGE_HD void adj_spectral_function(const SymmetricEigen<T>& e, const SpectralDuals<T>& d, const Mat33<T>& adj_g,
                                    Mat33<T>& adj_c, T adj_theta[kSpectralParams]) {
  const auto& g = d.g;
  const Mat33<T> b = transpose(e.v) * adj_g * e.v;
  Mat33<T> in_basis = zero33<T>();
  for (int k = 0; k < 3; ++k)
    for (int i = 0; i < 3; ++i) in_basis(k, k) += b(i, i) * g[i].d[k];
  for (int p = 0; p < kSpectralParams; ++p)
    for (int i = 0; i < 3; ++i) adj_theta[p] += b(i, i) * g[i].d[3 + p];
  const T close = sizeof(T) == 4 ? T(3e-4) : T(1e-7);  // about sqrt(epsilon)
  for (int i = 0; i < 3; ++i)
    for (int j = i + 1; j < 3; ++j) {
      const T gap = e.lam[i] - e.lam[j];
      const T scale = std::fabs(e.lam[i]) > std::fabs(e.lam[j]) ? std::fabs(e.lam[i]) : std::fabs(e.lam[j]);
      const T gamma = std::fabs(gap) > close * scale ? (g[i].v - g[j].v) / gap
                                                     : T(0.5) * (g[i].d[i] - g[i].d[j] + g[j].d[j] - g[j].d[i]);
      in_basis(i, j) = in_basis(j, i) = gamma * T(0.5) * (b(i, j) + b(j, i));
    }
  adj_c += e.v * in_basis * transpose(e.v);
}

// The two shapes the materials use: tau = F G(C) F^T (a stress) and F' = F G(C) (a
// projected deformation gradient), with their adjoints (G is symmetric); e is F's
// stretch_eigen, computed once by the caller.
template <class T, class Map>
NUDGE_HD Mat33<T> spectral_congruence(const Mat33<T>& f, const SymmetricEigen<T>& e, const Map& map,
                                      const T theta[kSpectralParams]) {
  return f * spectral_function(e, map, theta) * transpose(f);
}
template <class T, class Map>
NUDGE_HD void adj_spectral_congruence(const Mat33<T>& f, const SymmetricEigen<T>& e, const Map& map,
                                      const T theta[kSpectralParams], const Mat33<T>& adj_tau, Mat33<T>& adj_f,
                                      T adj_theta[kSpectralParams]) {
  const SpectralDuals<T> d = spectral_duals(e, map, theta);
  adj_f += (adj_tau + transpose(adj_tau)) * f * d.value;
  Mat33<T> adj_c = zero33<T>();
  adj_spectral_function(e, d, transpose(f) * adj_tau * f, adj_c, adj_theta);
  adj_f += f * (adj_c + transpose(adj_c));
}

template <class T, class Map>
NUDGE_HD Mat33<T> spectral_product(const Mat33<T>& f, const SymmetricEigen<T>& e, const Map& map,
                                   const T theta[kSpectralParams]) {
  return f * spectral_function(e, map, theta);
}
template <class T, class Map>
NUDGE_HD void adj_spectral_product(const Mat33<T>& f, const SymmetricEigen<T>& e, const Map& map,
                                   const T theta[kSpectralParams], const Mat33<T>& adj_out, Mat33<T>& adj_f,
                                   T adj_theta[kSpectralParams]) {
  const SpectralDuals<T> d = spectral_duals(e, map, theta);
  adj_f += adj_out * d.value;
  Mat33<T> adj_c = zero33<T>();
  adj_spectral_function(e, d, transpose(f) * adj_out, adj_c, adj_theta);
  adj_f += f * (adj_c + transpose(adj_c));
}

// The smallest of three eigenvalues (an inverted F's negative singular value is that one).
template <class T>
NUDGE_HD int smallest_of(const T lam[3]) {
  int k = lam[1] < lam[0] ? 1 : 0;
  return lam[2] < lam[k] ? 2 : k;
}

// h_i = 1 / sigma_i: F H is F's rotation U V^T. With F inverted (det F < 0) the smallest
// singular value is taken negative, so that the rotation is proper (det +1), as the
// signed SVD of the MPM literature does.
template <class S>
NUDGE_HD void inverse_stretch(const S lam[3], bool inverted, S h[3]) {
  using std::sqrt;
  using RealT = typename RealOf<S>::type;
  const RealT values[3] = {value_of(lam[0]), value_of(lam[1]), value_of(lam[2])};
  const int smallest = smallest_of(values);
  for (int i = 0; i < 3; ++i) {
    h[i] = constant<S>(1.0) / sqrt(lam[i]);
    if (inverted && i == smallest) h[i] = -h[i];
  }
}

}  // namespace nudge
