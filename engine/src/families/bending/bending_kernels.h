// The bending family's launchable units (over bending edges): Warp's dihedral bending
// (families/bending/dihedral_bending.h) on each edge, its forces and adjoints stored in its
// corners' slots (kernels/corner_model.h), so that no two threads write one address.
#pragma once

#include "kernels/corner_model.h"
#include "families/bending/dihedral_bending.h"
#include "kernels/model.h"

namespace nudge {

template <class T>
NUDGE_HD void load_bending_corners(const ModelView<T>& m, StateView<const T> state, int e, Vec3<T> x[4], Vec3<T> v[4]) {
  const BendingModel<T>& bm = m.bending;
  for (int c = 0; c < 4; ++c) {
    const int i = bm.corner[c * bm.count + e];
    x[c] = load3(state.x, i, m.particles.n);
    v[c] = load3(state.v, i, m.particles.n);
  }
}

template <class T>
struct BendingForceKernel {  // over bending edges
  ModelView<T> m;
  StateView<const T> state;
  CornerOut<T> force;
  NUDGE_HD void operator()(int e) const {
    const BendingModel<T>& bm = m.bending;
    Vec3<T> x[4], v[4];
    load_bending_corners(m, state, e, x, v);
    const BendingForces<T> f = dihedral_bending_force(x, v, bm.rest[e], bm.ke[e], bm.kd[e]);
    for (int c = 0; c < 4; ++c) force.store(c, bm.count, e, f.f[c]);
  }
};

// From dL/dF per particle (adj_f) to each edge's gradients and its corners' dL/dx and
// dL/dv (in their slots, which the particles gather).
template <class T>
struct BendingAdjointKernel {  // over bending edges
  ModelView<T> m;
  StateView<const T> state;
  const T* adj_f;
  CornerOut<T> adj_x, adj_v;
  BendingGrad<T> grad;
  NUDGE_HD void operator()(int e) const {
    const BendingModel<T>& bm = m.bending;
    Vec3<T> x[4], v[4], af[4];
    load_bending_corners(m, state, e, x, v);
    for (int c = 0; c < 4; ++c) af[c] = load3(adj_f, bm.corner[c * bm.count + e], m.particles.n);
    const BendingAdjoint<T> g = dihedral_bending_force_adjoint(x, v, bm.rest[e], bm.ke[e], bm.kd[e], af);
    for (int c = 0; c < 4; ++c) {
      adj_x.store(c, bm.count, e, g.x[c]);
      adj_v.store(c, bm.count, e, g.v[c]);
    }
    grad.ke[e] += g.ke;
    grad.kd[e] += g.kd;
  }
};

}  // namespace nudge
