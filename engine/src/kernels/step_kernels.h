// The launchable units of a step: one functor per kernel, called once per element
// index by a backend (a loop over a chunk on the CPU, a thread per index on CUDA).
// The spring kernels also take a spring's ends as arguments (at()), so that the CPU's
// span kernel (kernels/span_kernels.h) can compute them along a run instead of loading them.
#pragma once

#include "families/particles/particle_step.h"
#include "families/springs/spring_force.h"

namespace nudge {

template <class T>
struct SpringForceKernel {  // over springs
  using Value = T;
  ModelView<T> m;
  int step;
  StateView<const T> state;
  T* fs;
  // Stores only, so recomputing a lane is harmless: `live` is not needed.
  template <bool kActuated = true>
  NUDGE_HD void at(int s, int ia, int ib, bool /*live*/ = true) const {
    store3(fs, s, m.springs.s, spring_force<kActuated>(m, s, ia, ib, step, state));
  }
  NUDGE_HD void operator()(int s) const { at(s, m.springs.a[s], m.springs.b[s]); }
};

// One particle's step, with the spring forces (fs, on each spring's end a) and the
// element families' forces on their corners (kernels/corner_model.h) gathered through
// the incidence lists.
template <class T>
struct ParticleStepKernel {  // over particles
  ModelView<T> m;
  StateView<const T> state;
  const T* fs;
  StateView<T> next;
  NUDGE_HD void operator()(int i) const {
    Vec3<T> sum = add_incident(m.springs, i, fs, Vec3<T>{0, 0, 0});
    if (m.corners.slots > 0) sum = add_corners(m.corners, i, m.corners.force, sum);
    integrate_particle(m, i, state, sum, next);
  }
};

// kContact = false: for a scene without ground, a branch-free body that vectorises.
template <class T, bool kContact = true>
struct ParticleAdjointKernel {  // over particles
  ModelView<T> m;
  StateView<const T> state;
  const T* v1;
  StateView<T> adj;
  T* adj_f;
  GradView<T> grad;
  NUDGE_HD void operator()(int i) const { particle_step_adjoint<kContact>(m, i, state, v1, adj, adj_f, grad); }
};

template <class T>
struct SpringAdjointKernel {  // over springs
  using Value = T;
  ModelView<T> m;
  int step;
  StateView<const T> state;
  const T* adj_f;
  T *adj_d, *adj_dv, *adj_rest_eff;
  SpringGrad<T> grad;
  // live = false: this lane was already done (a SIMD loop recomputing it); its stores are
  // repeated, its accumulations are not.
  template <bool kActuated = true>
  NUDGE_HD void at(int s, int ia, int ib, bool live = true) const {
    const int n = m.particles.n, springs = m.springs.s;
    const Vec3<T> af = load3(adj_f, ia, n) - load3(adj_f, ib, n);
    const SpringAdjoint<T> r = spring_force_adjoint<kActuated>(m, s, ia, ib, step, state, af);
    store3(adj_d, s, springs, r.adj_d);
    store3(adj_dv, s, springs, r.adj_dv);
    if (kActuated) adj_rest_eff[s] = r.rest_eff;  // read only for springs with a channel
    grad.stiffness[s] += live ? r.stiffness : T(0);
    grad.damping[s] += live ? r.damping : T(0);
    grad.rest[s] += live ? r.rest : T(0);
  }
  NUDGE_HD void operator()(int s) const { at(s, m.springs.a[s], m.springs.b[s]); }
};

template <class T>
struct ParticleGatherKernel {  // over particles
  ModelView<T> m;
  const T *adj_d, *adj_dv;
  StateView<T> adj;
  NUDGE_HD void operator()(int i) const { particle_gather_adjoint(m, i, adj_d, adj_dv, adj); }
};

// dL/dcontrol[step, c] = sum over the springs of channel c of dL/dL_eff * L0 * actuation.
template <class T>
struct ControlAdjointKernel {  // over channels
  SpringModel<T> sp;
  int step;
  const int *channel_start, *channel_spring;  // CSR: springs of each channel
  const T* adj_rest_eff;
  T* adj_controls;
  NUDGE_HD void operator()(int c) const {
    T sum = 0;
    for (int j = channel_start[c]; j < channel_start[c + 1]; ++j) {
      const int s = channel_spring[j];
      sum += adj_rest_eff[s] * sp.rest[s] * sp.actuation[s];
    }
    adj_controls[step * sp.channels + c] += sum;
  }
};

}  // namespace nudge
