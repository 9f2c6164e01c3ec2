// The tet family's launchable units: Warp's stable Neo-Hookean element
// (families/tets/tet_neohookean.h) on each tet, its forces and adjoints stored in its corners'
// slots (kernels/corner_model.h), so that no two threads write one address; and the sum
// per actuation channel that turns the tets' activation adjoints into dL/dcontrols.
#pragma once

#include "kernels/corner_model.h"
#include "kernels/model.h"
#include "families/tets/tet_neohookean.h"

namespace nudge {

// The control driving tet e at a step, 0 for a passive tet (whose actuation is 0 too).
// A passive tet reads nothing: when no tet is actuated the family keeps a single padding
// value, not the steps x channels table (ASan found the read past it).
template <class T>
NUDGE_HD T tet_control(const TetModel<T>& tm, int e, int step) {
  const int ch = tm.channel[e];
  return ch < 0 ? T(0) : tm.controls[step * tm.channels + ch];
}

template <class T>
NUDGE_HD TetParams<T> tet_params_at(const TetModel<T>& tm, int e, int step) {
  const int c = tm.count;
  TetParams<T> p;
  for (int k = 0; k < 9; ++k) p.rest_inverse.m[k] = tm.pose[k * c + e];
  p.rest_volume = tm.volume[e];
  p.k_mu = tm.k_mu[e];
  p.k_lambda = tm.k_lambda[e];
  p.k_damp = tm.k_damp[e];
  p.activation = tm.actuation[e] * tet_control(tm, e, step);
  return p;
}

template <class T>
struct TetForceKernel {  // over tets
  ModelView<T> m;
  int step;
  StateView<const T> state;
  CornerOut<T> force;
  NUDGE_HD void operator()(int e) const {
    const TetModel<T>& tm = m.tets;
    const int tets = tm.count, n = m.particles.n;
    Vec3<T> x[4], v[4];
    for (int c = 0; c < 4; ++c) {
      const int i = tm.corner[c * tets + e];
      x[c] = load3(state.x, i, n);
      v[c] = load3(state.v, i, n);
    }
    const TetForces<T> f = tet_neohookean_forces(x, v, tet_params_at(tm, e, step));
    for (int c = 0; c < 4; ++c) force.store(c, tets, e, f.f[c]);
  }
};

// From dL/dF per particle (adj_f) to each tet's parameter gradients, its corners' dL/dx,
// dL/dv (in their slots, which the particles gather) and its dL/dcontrol at this step.
template <class T>
struct TetAdjointKernel {  // over tets
  ModelView<T> m;
  int step;
  StateView<const T> state;
  const T* adj_f;
  CornerOut<T> adj_x, adj_v;
  TetGrad<T> grad;
  NUDGE_HD void operator()(int e) const {
    const TetModel<T>& tm = m.tets;
    const int tets = tm.count, n = m.particles.n;
    Vec3<T> x[4], v[4], af[4];
    for (int c = 0; c < 4; ++c) {
      const int i = tm.corner[c * tets + e];
      x[c] = load3(state.x, i, n);
      v[c] = load3(state.v, i, n);
      af[c] = load3(adj_f, i, n);
    }
    const TetAdjoint<T> g = tet_neohookean_adjoint(x, v, tet_params_at(tm, e, step), af);
    for (int c = 0; c < 4; ++c) {
      adj_x.store(c, tets, e, g.x[c]);
      adj_v.store(c, tets, e, g.v[c]);
    }
    grad.k_mu[e] += g.params.k_mu;
    grad.k_lambda[e] += g.params.k_lambda;
    grad.k_damp[e] += g.params.k_damp;
    // activation = actuation * control: overwritten each step, summed per channel next.
    grad.adj_control[e] = g.params.activation * tm.actuation[e];
  }
};

// dL/dcontrol[step, c] += the tets of channel c's dL/dcontrol, summed in tet order.
template <class T>
struct TetControlAdjointKernel {  // over channels
  int step, channels;
  const int *channel_start, *channel_tet;  // CSR: tets of each channel
  TetGrad<T> grad;
  NUDGE_HD void operator()(int c) const {
    T sum = 0;
    for (int j = channel_start[c]; j < channel_start[c + 1]; ++j) sum += grad.adj_control[channel_tet[j]];
    grad.controls[step * channels + c] += sum;
  }
};

}  // namespace nudge
