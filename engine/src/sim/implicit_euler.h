// Backward Euler on the interaction forces (Integrator::ImplicitEuler), with gradients
// by implicit differentiation of each step's solve. docs/engine.md, "Implicit Euler",
// has the derivation; in short, for the free particles
//
//   g(v') = M (v' - v) - dt f_int(x + dt v', v') - dt f_ext(x, v) = 0,   x' = x + dt v'
//
// with f_int the springs' and element families' forces (implicit) and f_ext the rest
// (gravity, drag, external force, ground, colliders, bodies: explicit, at the step's
// start); a pinned particle keeps v' = 0. In velocity units, r(w) = w - Phi(w) with
// Phi(w) = v + dt M^-1 (f_ext(x, v) + f_int(x + dt w, w)): Phi is exactly the
// semi-implicit particle pass run with the interaction forces evaluated at the iterate
// (x + dt w, w), so the residual needs no kernel of its own, and the step's result is
// Phi(w) of the last iterate, written by that pass.
//
// Newton: B delta = -r, B = M^-1 A^T on the free particles (the identity on the pinned),
// A = M - dt^2 K - dt D, K = df_int/dx, D = df_int/dv. Products with A^T are the
// families' own adjoints (adj_f = y gives K^T y in dL/dx and D^T y in dL/dv), run into
// scratch with their parameter gradients going to a sink. Newton with A^T in place of A
// (they differ by the non-symmetric parts of K and D: a spring's damping through its
// direction, a triangle's drag and lift) still converges to the exact root, since the
// residual is exact, only linearly where A is not symmetric; a backtracking line search
// on |r| keeps it from overshooting.
//
// The adjoint: with b = dL/dv' + dt dL/dx' (free particles), A^T lambda = b, solved with
// the same operator at the step's result; then dL/dF = dt lambda gives the parameters'
// gradients through the families' adjoints, dL/dx = dL/dx' + dt lambda^T (K + df_ext/dx),
// dL/dv = M lambda + dt lambda^T df_ext/dv. No Newton iteration is unrolled.
//
// The Krylov vectors live on the host (sim/gmres.h): each operator product uploads its
// input and downloads its output (copies on the CPU, transfers on a GPU), and every dot
// product is summed on the host in a fixed order, so results do not depend on the
// thread count.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "kernels/implicit_step.h"
#include "nudge/scene.h"
#include "sim/backend.h"
#include "sim/element_families.h"
#include "sim/step_pass.h"
#include "sim/gmres.h"

namespace nudge {

// What the solves did over a rollout's forward and backward passes (for tests and
// benchmarks).
struct ImplicitStats {
  long steps = 0;              // implicit steps solved (forward, recomputed segments included)
  long newton_iterations = 0;  // over those steps
  long residuals = 0;          // force passes (residual evaluations), line search included
  long forward_products = 0;   // operator products in the Newton solves
  long unconverged = 0;        // steps that stopped above the Newton tolerance
  double worst_residual = 0;   // the largest final velocity residual of a step (m/s)
  long adjoint_solves = 0;
  long adjoint_products = 0;
  double worst_adjoint_residual = 0;  // relative to the right-hand side
};

// The Newton step's linear solve needs no more than this (Newton's own residual decides
// when to stop); the adjoint's uses ImplicitSettings::linear_tolerance.
inline constexpr double kNewtonLinearTolerance = 1e-4;
inline constexpr int kGmresRestart = 100;
inline constexpr int kLineSearchHalvings = 8;

template <class T, Backend Exec>
class ImplicitEuler {
public:
  ImplicitEuler(const Scene& scene, const Exec& exec)
      : n_(scene.particle_count()), nv_(3 * size_t(scene.particle_count())), settings_(scene.settings.implicit),
        free_(nv_), element_sink_(scene, exec) {
    for (int k = 0; k < 3; ++k)
      for (int i = 0; i < n_; ++i) free_[size_t(k) * n_ + i] = scene.pinned[size_t(i)] ? 0.0 : 1.0;
    for (auto* a : {&iterate_, &out_}) exec.resize(*a, 2 * nv_);
    for (auto* a : {&in_, &lambda_}) exec.resize(*a, nv_);
    for (auto* a : {&sink_stiffness_, &sink_damping_, &sink_rest_}) exec.resize(*a, size_t(scene.spring_count()));
    exec.resize(sink_controls_, std::max<size_t>(1, size_t(scene.settings.steps) * size_t(scene.channels)));
  }

  const ImplicitStats& stats() const { return stats_; }

  // Before each forward pass: the masses (the operator's M), and a clean gradient sink.
  void upload(const ParameterSet& p, const Exec& exec) {
    mass_ = p[ParamId::Mass].value;
    for (auto* a : {&sink_stiffness_, &sink_damping_, &sink_rest_, &sink_controls_}) exec.zero(*a);
    element_sink_.zero_gradients(exec);
  }

  // One step from s into next: Newton on r(w) = w - Phi(w) from w = v. Families: the
  // rollout's FamilyList, whose interaction_forces and integrate_particles phases give Phi.
  template <class Families>
  void step(const Exec& exec, const ModelView<T>& m, int t, StateView<const T> s, StateView<T> next,
            Families& families) {
    std::vector<T> x(nv_), v(nv_);
    exec.download(s.x, nv_, x.data());
    exec.download(s.v, nv_, v.data());
    x_.assign(x.begin(), x.end());
    std::vector<double> w(nv_), r(nv_), trial(nv_), trial_r(nv_), delta(nv_), rhs(nv_);
    for (size_t k = 0; k < nv_; ++k) w[k] = free_[k] * static_cast<double>(v[k]);
    const Forward<Families> f{exec, m, t, s, next, families};
    Norms norms = evaluate(f, w, r);
    const double tol = settings_.newton_tolerance;
    int it = 0;
    for (; it < settings_.newton_iterations && norms.max > tol; ++it) {
      for (size_t k = 0; k < nv_; ++k) rhs[k] = -r[k];
      std::fill(delta.begin(), delta.end(), 0.0);
      const KrylovResult kr =
          gmres([&](const std::vector<double>& in,
                    std::vector<double>& out) { apply(exec, m, t, iterate_view(), families, in, out); },
                rhs, delta, kNewtonLinearTolerance, settings_.linear_iterations, kGmresRestart);
      stats_.forward_products += kr.iterations;
      // Backtracking on |r|: the first of 1, 1/2, 1/4, ... of the step that lowers it.
      bool accepted = false;
      double alpha = 1;
      for (int h = 0; h <= kLineSearchHalvings && !accepted; ++h, alpha *= 0.5) {
        for (size_t k = 0; k < nv_; ++k) trial[k] = w[k] + alpha * delta[k];
        const Norms tn = evaluate(f, trial, trial_r);
        if (tn.two < norms.two) {
          w.swap(trial);
          r.swap(trial_r);
          norms = tn;
          accepted = true;
        }
      }
      if (!accepted) {  // no descent along this direction: stop at w (next holds its Phi again)
        norms = evaluate(f, w, r);
        ++it;
        break;
      }
    }
    ++stats_.steps;
    stats_.newton_iterations += it;
    if (!(norms.max <= tol)) ++stats_.unconverged;
    stats_.worst_residual = std::max(stats_.worst_residual, norms.max);
  }

  // The step's adjoint solve: lambda with A^T lambda = dL/dv' + dt dL/dx' (free
  // particles), A linearised at the step's result `next`; adj holds dL/dstate_{t+1}.
  template <class Families>
  void solve_adjoint(const Exec& exec, const ModelView<T>& m, int t, StateView<const T> next, StateView<const T> adj,
                     Families& families) {
    std::vector<T> ax(nv_), av(nv_);
    exec.download(adj.x, nv_, ax.data());
    exec.download(adj.v, nv_, av.data());
    const double dt = static_cast<double>(m.dt);
    std::vector<double> rhs(nv_), lambda(nv_);
    // In B = M^-1 A^T's terms: B lambda = M^-1 b.
    for (size_t k = 0; k < nv_; ++k)
      rhs[k] = free_[k] * (static_cast<double>(av[k]) + dt * static_cast<double>(ax[k])) / mass_[k % size_t(n_)];
    lambda = rhs;  // the solution where the interaction forces are weak
    const KrylovResult kr = gmres(
        [&](const std::vector<double>& in, std::vector<double>& out) { apply(exec, m, t, next, families, in, out); },
        rhs, lambda, settings_.linear_tolerance, settings_.linear_iterations, kGmresRestart);
    ++stats_.adjoint_solves;
    stats_.adjoint_products += kr.iterations;
    stats_.worst_adjoint_residual = std::max(stats_.worst_adjoint_residual, kr.residual);
    std::vector<T> host(nv_);
    for (size_t k = 0; k < nv_; ++k) host[k] = static_cast<T>(free_[k] * lambda[k]);
    exec.upload_to(exec.data(lambda_), host);
  }

  // The particles' part of the step's adjoint, given lambda (ImplicitParticleAdjointKernel):
  // adj from dL/dstate_{t+1} to the local part of dL/dstate_t; adj_f = dt lambda.
  void particle_adjoint(const Exec& exec, const ModelView<T>& m, StateView<const T> s, const T* v1, StateView<T> adj,
                        T* adj_f, const GradView<T>& grad) const {
    if (has_local_contact(m))
      exec.launch(n_, ImplicitParticleAdjointKernel<T, true>{m, s, v1, exec.data(lambda_), adj, adj_f, grad});
    else
      exec.launch(n_, ImplicitParticleAdjointKernel<T, false>{m, s, v1, exec.data(lambda_), adj, adj_f, grad});
  }

  // The interaction forces' part: their adjoints at the step's result with adj_f =
  // dt lambda give their parameters' gradients and dt K^T lambda, which joins dL/dx; their
  // D^T share is dropped (f_int reads v', not v).
  template <class Families>
  void interaction_adjoint(const Exec& exec, const ModelView<T>& m, int t, StateView<const T> next, T* adj_f,
                           StateView<T> adj, const GradView<T>& grad, Families& families) {
    exec.zero(out_);
    families.adjoint_interaction_forces(AdjointPass<T, Exec>{exec, m, t, next, next, out_view(exec), adj_f, grad});
    exec.launch(static_cast<int>(nv_), AddKernel<T>{adj.x, exec.data(out_)});
  }

private:
  using Array = typename Exec::template Array<T>;

  struct Norms {
    double two = 0, max = 0;  // of the velocity residual over the free particles
  };

  // What a residual evaluation needs of the step.
  template <class Families>
  struct Forward {
    const Exec& exec;
    const ModelView<T>& m;
    int t;
    StateView<const T> s;
    StateView<T> next;
    Families& families;
  };

  // r = w - Phi(w): the interaction forces at the iterate (x + dt w, w), then the
  // particle pass from s, which writes Phi(w) and x + dt Phi(w) into next.
  template <class Families>
  Norms evaluate(const Forward<Families>& f, const std::vector<double>& w, std::vector<double>& r) {
    std::vector<T> z(2 * nv_);
    for (size_t k = 0; k < nv_; ++k) {
      const T wk = static_cast<T>(w[k]);
      z[k] = static_cast<T>(x_[k]) + f.m.dt * wk;
      z[nv_ + k] = wk;
    }
    f.exec.upload_to(f.exec.data(iterate_), z);
    f.families.interaction_forces(StepPass<T, Exec>{f.exec, f.m, f.t, iterate_view(), f.next});
    f.families.integrate_particles(StepPass<T, Exec>{f.exec, f.m, f.t, f.s, f.next});
    std::vector<T> phi(nv_);
    f.exec.download(static_cast<const T*>(f.next.v), nv_, phi.data());
    ++stats_.residuals;
    Norms norms;
    for (size_t k = 0; k < nv_; ++k) {
      r[k] = free_[k] * (w[k] - static_cast<double>(phi[k]));
      norms.two += r[k] * r[k];
      norms.max = std::max(norms.max, std::fabs(r[k]));
      if (std::isnan(r[k])) norms.max = r[k];  // poisons the convergence test; the rollout reports it
    }
    norms.two = std::sqrt(norms.two);
    return norms;
  }

  // out = B in, B = M^-1 A^T = I - M^-1 (dt^2 K^T + dt D^T) on the free particles, the
  // identity on the pinned; K and D at `at`. The families' adjoints give K^T y and D^T y.
  template <class Families>
  void apply(const Exec& exec, const ModelView<T>& m, int t, StateView<const T> at, Families& families,
             const std::vector<double>& in, std::vector<double>& out) {
    std::vector<T> y(nv_);
    for (size_t k = 0; k < nv_; ++k) y[k] = static_cast<T>(free_[k] * in[k]);
    exec.upload_to(exec.data(in_), y);
    exec.zero(out_);
    // K^T y and D^T y: the interaction families' adjoints with dL/dF = y, into a sink.
    const GradView<T> sink = sink_grad(exec);
    families.adjoint_interaction_forces(AdjointPass<T, Exec>{exec, m, t, at, at, out_view(exec), exec.data(in_), sink});
    std::vector<T> kd(2 * nv_);
    exec.download(static_cast<const T*>(exec.data(out_)), 2 * nv_, kd.data());
    const double dt = static_cast<double>(m.dt);
    for (size_t k = 0; k < nv_; ++k) {
      const double coupled =
          (dt * dt * static_cast<double>(kd[k]) + dt * static_cast<double>(kd[nv_ + k])) / mass_[k % size_t(n_)];
      out[k] = in[k] - free_[k] * coupled;
    }
  }

  StateView<const T> iterate_view() const {
    StateView<const T> z;
    z.x = iterate_.data();
    z.v = iterate_.data() + nv_;
    return z;
  }
  StateView<T> out_view(const Exec& exec) {
    StateView<T> o;
    o.x = exec.data(out_);
    o.v = exec.data(out_) + nv_;
    return o;
  }

  // Where the operator products' parameter gradients go: accumulators nobody reads.
  SpringGrad<T> sink_springs(const Exec& exec) {
    return {exec.data(sink_stiffness_), exec.data(sink_damping_), exec.data(sink_rest_), exec.data(sink_controls_)};
  }
  GradView<T> sink_grad(const Exec& exec) {
    GradView<T> g;
    g.operator_product = true;
    g.springs = sink_springs(exec);
    element_sink_.put_grad(g, exec);
    return g;
  }

  int n_;
  size_t nv_;  // 3 n
  ImplicitSettings settings_;
  std::vector<double> free_;  // 3 x n: 1 free, 0 pinned
  std::vector<double> mass_;  // n, this forward pass's
  std::vector<double> x_;     // 3 x n: the step's start positions
  ImplicitStats stats_;
  Array iterate_;  // (x + dt w, w): 2 x 3 x n
  Array in_;       // an operator product's input, 3 x n
  Array out_;      // its output: K^T y (3 x n), then D^T y (3 x n)
  Array lambda_;   // the step's adjoint solution, 3 x n
  Array sink_stiffness_, sink_damping_, sink_rest_, sink_controls_;
  // A second set of the element families, used only for its gradient accumulators (the
  // families own theirs; this keeps element_families.h unchanged): the cost is their
  // topology once more.
  ElementFamilies<T, Exec> element_sink_;
};

}  // namespace nudge
