// The launchable units of a step: one functor per kernel, called once per element
// index by a backend (a loop over a chunk on the CPU, a thread per index on CUDA).
// The spring kernels also take a spring's ends as arguments (at()), so that the CPU's
// span kernel (span_kernels.h) can compute them along a run instead of loading them.
#pragma once

#include "kernels/particle_step.h"
#include "kernels/spring_force.h"

namespace nudge {

template <class T>
struct SpringForceKernel {  // over springs
  using Value = T;
  ModelView<T> m;
  int step;
  const T *x, *v;
  T* fs;
  // Stores only, so recomputing a lane is harmless: `live` is not needed.
  template <bool kActuated = true>
  NUDGE_HD void at(int s, int ia, int ib, bool /*live*/ = true) const {
    store3(fs, s, m.s, spring_force<kActuated>(m, s, ia, ib, step, x, v));
  }
  NUDGE_HD void operator()(int s) const { at(s, m.a[s], m.b[s]); }
};

template <class T>
struct ParticleStepKernel {  // over particles
  ModelView<T> m;
  const T *x, *v, *fs;
  T *x1, *v1;
  NUDGE_HD void operator()(int i) const { particle_step(m, i, x, v, fs, x1, v1); }
};

// kContact = false: for a scene without ground, a branch-free body that vectorises.
template <class T, bool kContact = true>
struct ParticleAdjointKernel {  // over particles
  ModelView<T> m;
  const T *x, *v, *v1;
  T *adj_x, *adj_v, *adj_f;
  GradView<T> grad;
  NUDGE_HD void operator()(int i) const {
    particle_step_adjoint<kContact>(m, i, x, v, v1, adj_x, adj_v, adj_f, grad);
  }
};

template <class T>
struct SpringAdjointKernel {  // over springs
  using Value = T;
  ModelView<T> m;
  int step;
  const T *x, *v, *adj_f;
  T *adj_d, *adj_dv, *adj_rest_eff;
  GradView<T> grad;
  // live = false: this lane was already done (a SIMD loop recomputing it); its stores are
  // repeated, its accumulations are not.
  template <bool kActuated = true>
  NUDGE_HD void at(int s, int ia, int ib, bool live = true) const {
    const Vec3<T> af = load3(adj_f, ia, m.n) - load3(adj_f, ib, m.n);
    const SpringAdjoint<T> r = spring_force_adjoint<kActuated>(m, s, ia, ib, step, x, v, af);
    store3(adj_d, s, m.s, r.adj_d);
    store3(adj_dv, s, m.s, r.adj_dv);
    if (kActuated) adj_rest_eff[s] = r.rest_eff;  // read only for springs with a channel
    grad.stiffness[s] += live ? r.stiffness : T(0);
    grad.damping[s] += live ? r.damping : T(0);
    grad.rest[s] += live ? r.rest : T(0);
  }
  NUDGE_HD void operator()(int s) const { at(s, m.a[s], m.b[s]); }
};

template <class T>
struct ParticleGatherKernel {  // over particles
  ModelView<T> m;
  const T *adj_d, *adj_dv;
  T *adj_x, *adj_v;
  NUDGE_HD void operator()(int i) const { particle_gather_adjoint(m, i, adj_d, adj_dv, adj_x, adj_v); }
};

// dL/dcontrol[step, c] = sum over the springs of channel c of dL/dL_eff * L0 * actuation.
template <class T>
struct ControlAdjointKernel {  // over channels
  ModelView<T> m;
  int step;
  const int *channel_start, *channel_spring;  // CSR: springs of each channel
  const T* adj_rest_eff;
  T* adj_controls;
  NUDGE_HD void operator()(int c) const {
    T sum = 0;
    for (int j = channel_start[c]; j < channel_start[c + 1]; ++j) {
      const int s = channel_spring[j];
      sum += adj_rest_eff[s] * m.rest[s] * m.actuation[s];
    }
    adj_controls[step * m.channels + c] += sum;
  }
};

}  // namespace nudge
