// Restarted GMRES on host vectors, for the implicit step's linear solves
// (sim/implicit_euler.h): the operator is applied by the caller (on the backend), the
// Krylov vectors, dot products and rotations stay here, in double, in a fixed order, so
// a solve's result does not depend on the thread count or on how the operator's kernels
// are scheduled.
//
// GMRES rather than CG because the operators it meets are not symmetric in general
// (a spring's damping and a triangle's drag and lift make df/dx unsymmetric) and may be
// indefinite (a compressed spring's geometric stiffness); its residual never grows.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

namespace nudge {

struct KrylovResult {
  int iterations = 0;      // operator applications inside the Krylov loop (restarts add one more each)
  double residual = 0;     // |b - A x| / |b| as GMRES estimates it (0 when b = 0)
  bool converged = false;  // residual <= the tolerance
};

namespace gmres_detail {
inline double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
  return s;
}
inline double norm(const std::vector<double>& a) { return std::sqrt(dot(a, a)); }
}  // namespace gmres_detail

// Solves A x = b from the initial guess in x, to |b - A x| <= rel_tol |b| or max_iter
// applications of A, restarting every `restart` iterations. apply(in, out) sets out = A in.
template <class Apply>
KrylovResult gmres(const Apply& apply, const std::vector<double>& b, std::vector<double>& x, double rel_tol,
                   int max_iter, int restart) {
  using gmres_detail::dot;
  using gmres_detail::norm;
  const size_t n = b.size();
  KrylovResult result;
  const double bnorm = norm(b);
  if (bnorm == 0) {
    std::fill(x.begin(), x.end(), 0.0);
    result.converged = true;
    return result;
  }
  const double target = rel_tol * bnorm;
  const int m = std::max(1, std::min(restart, max_iter));
  std::vector<std::vector<double>> V(m + 1, std::vector<double>(n));
  std::vector<double> H(size_t(m + 1) * m), cs(m), sn(m), g(m + 1), w(n);
  auto h = [&](int i, int j) -> double& { return H[size_t(i) * m + j]; };
  while (true) {
    // r = b - A x, the start of a cycle
    apply(x, w);
    for (size_t k = 0; k < n; ++k) w[k] = b[k] - w[k];
    const double beta = norm(w);
    result.residual = beta / bnorm;
    if (beta <= target || !std::isfinite(beta)) {
      result.converged = beta <= target;
      return result;
    }
    if (result.iterations >= max_iter) return result;
    for (size_t k = 0; k < n; ++k) V[0][k] = w[k] / beta;
    std::fill(g.begin(), g.end(), 0.0);
    g[0] = beta;
    int k_used = 0;
    for (int j = 0; j < m && result.iterations < max_iter; ++j) {
      apply(V[j], w);
      ++result.iterations;
      for (int i = 0; i <= j; ++i) {  // modified Gram-Schmidt
        h(i, j) = dot(w, V[i]);
        for (size_t k = 0; k < n; ++k) w[k] -= h(i, j) * V[i][k];
      }
      const double wnorm = norm(w);
      for (int i = 0; i < j; ++i) {  // the earlier rotations, on the new column
        const double a = h(i, j), c = h(i + 1, j);
        h(i, j) = cs[i] * a + sn[i] * c;
        h(i + 1, j) = -sn[i] * a + cs[i] * c;
      }
      const double r = std::hypot(h(j, j), wnorm);
      cs[j] = r == 0 ? 1 : h(j, j) / r;
      sn[j] = r == 0 ? 0 : wnorm / r;
      h(j, j) = r;
      g[j + 1] = -sn[j] * g[j];
      g[j] = cs[j] * g[j];
      k_used = j + 1;
      result.residual = std::fabs(g[j + 1]) / bnorm;
      if (std::fabs(g[j + 1]) <= target || wnorm == 0) break;  // converged, or the space is exhausted
      for (size_t k = 0; k < n; ++k) V[j + 1][k] = w[k] / wnorm;
    }
    // x += V y with H y = g (upper triangular)
    std::vector<double> y(k_used);
    for (int i = k_used - 1; i >= 0; --i) {
      double s = g[i];
      for (int l = i + 1; l < k_used; ++l) s -= h(i, l) * y[l];
      y[i] = h(i, i) == 0 ? 0 : s / h(i, i);
    }
    for (int i = 0; i < k_used; ++i)
      for (size_t k = 0; k < n; ++k) x[k] += y[i] * V[i][k];
    if (result.residual * bnorm <= target) {
      result.converged = true;
      return result;
    }
    if (result.iterations >= max_iter) return result;
  }
}

}  // namespace nudge
