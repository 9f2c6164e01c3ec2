// Damped, optionally actuated spring between particles a and b.
//   d = x_b - x_a, l = |d| + e, u = d / l   (e: SpringModel::length_offset, usually 0)
//   L = L0 (1 + actuation * control[t, channel])      (L = L0 for a passive spring)
//   f_a = (k (l - L) + c ((v_b - v_a) . u)) u,  f_b = -f_a
#pragma once

#include "kernels/model.h"
#include "nudge/vec3.h"

namespace nudge {

// The control signal seen by spring s at a step. Branch-free, so loops over springs
// vectorise: a passive spring (channel -1) has actuation 0 and reads a valid slot,
// and rest * (1 + 0 * u) == rest exactly.
template <class T>
NUDGE_HD T spring_control(const SpringModel<T>& sp, int s, int step) {
  const int ch = sp.channel[s];
  return sp.controls[step * sp.channels + (ch < 0 ? 0 : ch)];
}

// kActuated = false promises a passive spring: the rest length is read directly, without
// the control lookup (an indexed load that would keep a SIMD loop gathering).
template <bool kActuated = true, class T>
NUDGE_HD T spring_rest_length(const SpringModel<T>& sp, int s, int step) {
  if (!kActuated) return sp.rest[s];
  return sp.rest[s] * (T(1) + sp.actuation[s] * spring_control(sp, s, step));
}

// Force on end a of spring s, which joins particles ia and ib, in the state `state`. The ends are arguments so that a loop over a run of springs
// can compute them (ia = a0 + t) instead of loading them.
template <bool kActuated = true, class T>
NUDGE_HD Vec3<T> spring_force(const ModelView<T>& m, int s, int ia, int ib, int step, StateView<const T> state) {
  const int n = m.particles.n;
  const Vec3<T> d = load3(state.x, ib, n) - load3(state.x, ia, n);
  const Vec3<T> dv = load3(state.v, ib, n) - load3(state.v, ia, n);
  const SpringModel<T>& sp = m.springs;
  const T l = length(d) + sp.length_offset;
  const Vec3<T> u = d * (T(1) / l);
  const T mag = sp.stiffness[s] * (l - spring_rest_length<kActuated>(sp, s, step)) + sp.damping[s] * dot(dv, u);
  return mag * u;
}

template <class T>
NUDGE_HD Vec3<T> spring_force(const ModelView<T>& m, int s, int step, StateView<const T> state) {
  return spring_force(m, s, m.springs.a[s], m.springs.b[s], step, state);
}

// What the spring adjoint hands back per spring: the particle pass gathers adj_d and
// adj_dv; the caller adds the parameter terms to its accumulators.
template <class T>
struct SpringAdjoint {
  Vec3<T> adj_d;               // dL/d(x_b - x_a)
  Vec3<T> adj_dv;              // dL/d(v_b - v_a)
  T stiffness, damping, rest;  // this step's dL/dk, dL/dc, dL/dL0
  T rest_eff;                  // dL/dL (the effective rest length), for the control gradients
};

// Adjoint of spring_force given adj_f = dL/df_a - dL/df_b. Returns values only (nothing
// is accumulated here), so a SIMD loop can recompute a lane without adding it twice.
template <bool kActuated = true, class T>
NUDGE_HD SpringAdjoint<T> spring_force_adjoint(const ModelView<T>& m, int s, int ia, int ib, int step,
                                               StateView<const T> state, Vec3<T> adj_f) {
  const int n = m.particles.n;
  const Vec3<T> d = load3(state.x, ib, n) - load3(state.x, ia, n);
  const Vec3<T> dv = load3(state.v, ib, n) - load3(state.v, ia, n);
  const SpringModel<T>& sp = m.springs;
  const T length_d = length(d);
  const T l = length_d + sp.length_offset;
  const T inv_l = T(1) / l;
  const Vec3<T> u = d * inv_l;
  const Vec3<T> unit = d * (T(1) / length_d);  // dl/dd (u itself when the offset is 0)
  const T k = sp.stiffness[s], c = sp.damping[s];
  const T rest_length = spring_rest_length<kActuated>(sp, s, step);
  const T dv_u = dot(dv, u);
  const T mag = k * (l - rest_length) + c * dv_u;

  SpringAdjoint<T> r;
  // f = mag * u
  const T adj_mag = dot(adj_f, u);
  Vec3<T> adj_u = mag * adj_f + (adj_mag * c) * dv;
  // mag = k (l - L) + c (dv . u)
  r.stiffness = adj_mag * (l - rest_length);
  r.damping = adj_mag * dv_u;
  const T adj_l = adj_mag * k;
  r.rest_eff = -adj_mag * k;
  r.adj_dv = (adj_mag * c) * u;
  // u = d / l and l = |d| + e
  r.adj_d = (adj_u - unit * dot(u, adj_u)) * inv_l + adj_l * unit;
  // L = L0 (1 + actuation * control); dL/dcontrol = rest_eff * L0 * actuation (0 if passive)
  r.rest = kActuated ? r.rest_eff * (T(1) + sp.actuation[s] * spring_control(sp, s, step)) : r.rest_eff;
  return r;
}

template <class T>
NUDGE_HD SpringAdjoint<T> spring_force_adjoint(const ModelView<T>& m, int s, int step, StateView<const T> state,
                                               Vec3<T> adj_f) {
  return spring_force_adjoint(m, s, m.springs.a[s], m.springs.b[s], step, state, adj_f);
}

// Adds sign * value[s] over the springs s of particle i's incidence list onto sum.
// values: one 3-vector per spring (3 x s, structure of arrays).
template <class T>
NUDGE_HD Vec3<T> add_incident(const SpringModel<T>& sp, int i, const T* values, Vec3<T> sum) {
  for (int j = sp.inc_start[i]; j < sp.inc_start[i + 1]; ++j)
    sum += sp.inc_sign[j] * load3(values, sp.inc_spring[j], sp.s);
  return sum;
}

// Gathers the spring adjoints of the springs touching particle i into the adjoint state.
// adj_d, adj_dv: per spring dL/d(x_b - x_a), dL/d(v_b - v_a) (3 x s).
template <class T>
NUDGE_HD void particle_gather_adjoint(const ModelView<T>& m, int i, const T* adj_d, const T* adj_dv, StateView<T> adj) {
  const int n = m.particles.n;
  // End a (sign +1) enters d = x_b - x_a with a minus: subtract the signed sum.
  store3(adj.x, i, n, load3(adj.x, i, n) - add_incident(m.springs, i, adj_d, Vec3<T>{0, 0, 0}));
  store3(adj.v, i, n, load3(adj.v, i, n) - add_incident(m.springs, i, adj_dv, Vec3<T>{0, 0, 0}));
}

}  // namespace nudge
