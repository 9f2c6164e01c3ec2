// The kernels of the implicit step's adjoint (sim/implicit_euler.h), the same on both
// backends: the particles' part given the step's adjoint solution lambda, and adding the
// interaction forces' dL/dx share onto the running adjoint.
#pragma once

#include "families/particles/particle_step.h"

namespace nudge {

// Backward Euler's velocity update m (v' - v) = dt F reads, to its adjoint, as the
// semi-implicit one with the new velocity's adjoint m lambda (lambda solves
// A^T lambda = dL/dv' + dt dL/dx', sim/implicit_euler.h): dL/dF = dt lambda, and the
// local forces (gravity, drag, external, contacts) and the mass take their gradients
// as in particle_velocity_adjoint. A pinned particle's lambda is 0.
template <class T, bool kContact = true>
struct ImplicitParticleAdjointKernel {  // over particles
  ModelView<T> m;
  StateView<const T> state;
  const T* v1;
  const T* lambda;  // 3 x n
  StateView<T> adj;
  T* adj_f;
  GradView<T> grad;
  NUDGE_HD void operator()(int i) const {
    const ParticleModel<T>& p = m.particles;
    const Vec3<T> adj_vn = load3(lambda, i, p.n) * (p.mass[i] * p.free[i]);
    particle_velocity_adjoint<kContact>(m, i, state, v1, adj_vn, load3(adj.x, i, p.n), adj, adj_f, grad);
  }
};

// dst[k] += src[k]
template <class T>
struct AddKernel {  // over values
  T* dst;
  const T* src;
  NUDGE_HD void operator()(int k) const { dst[k] += src[k]; }
};

}  // namespace nudge
