// Damped, optionally actuated spring between particles a and b.
//   d = x_b - x_a, l = |d|, u = d / l
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
NUDGE_HD T spring_control(const ModelView<T>& m, int s, int step) {
  const int ch = m.channel[s];
  return m.controls[step * m.channels + (ch < 0 ? 0 : ch)];
}

// kActuated = false promises a passive spring: the rest length is read directly, without
// the control lookup (an indexed load that would keep a SIMD loop gathering).
template <bool kActuated = true, class T>
NUDGE_HD T spring_rest_length(const ModelView<T>& m, int s, int step) {
  if (!kActuated) return m.rest[s];
  return m.rest[s] * (T(1) + m.actuation[s] * spring_control(m, s, step));
}

// Force on end a of spring s, which joins particles ia and ib. x, v: current positions
// and velocities (3 x n). The ends are arguments so that a loop over a run of springs
// can compute them (ia = a0 + t) instead of loading them.
template <bool kActuated = true, class T>
NUDGE_HD Vec3<T> spring_force(const ModelView<T>& m, int s, int ia, int ib, int step, const T* x, const T* v) {
  const Vec3<T> d = load3(x, ib, m.n) - load3(x, ia, m.n);
  const Vec3<T> dv = load3(v, ib, m.n) - load3(v, ia, m.n);
  const T l = length(d);
  const Vec3<T> u = d * (T(1) / l);
  const T mag = m.stiffness[s] * (l - spring_rest_length<kActuated>(m, s, step)) + m.damping[s] * dot(dv, u);
  return mag * u;
}

template <class T>
NUDGE_HD Vec3<T> spring_force(const ModelView<T>& m, int s, int step, const T* x, const T* v) {
  return spring_force(m, s, m.a[s], m.b[s], step, x, v);
}

// What the spring adjoint hands back per spring: the particle pass gathers adj_d and
// adj_dv; the caller adds the parameter terms to its accumulators.
template <class T>
struct SpringAdjoint {
  Vec3<T> adj_d;   // dL/d(x_b - x_a)
  Vec3<T> adj_dv;  // dL/d(v_b - v_a)
  T stiffness, damping, rest;  // this step's dL/dk, dL/dc, dL/dL0
  T rest_eff;                  // dL/dL (the effective rest length), for the control gradients
};

// Adjoint of spring_force given adj_f = dL/df_a - dL/df_b. Returns values only (nothing
// is accumulated here), so a SIMD loop can recompute a lane without adding it twice.
template <bool kActuated = true, class T>
NUDGE_HD SpringAdjoint<T> spring_force_adjoint(const ModelView<T>& m, int s, int ia, int ib, int step, const T* x,
                                               const T* v, Vec3<T> adj_f) {
  const Vec3<T> d = load3(x, ib, m.n) - load3(x, ia, m.n);
  const Vec3<T> dv = load3(v, ib, m.n) - load3(v, ia, m.n);
  const T l = length(d);
  const T inv_l = T(1) / l;
  const Vec3<T> u = d * inv_l;
  const T k = m.stiffness[s], c = m.damping[s];
  const T rest_length = spring_rest_length<kActuated>(m, s, step);
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
  // u = d / l and l = |d|
  r.adj_d = (adj_u - u * dot(u, adj_u)) * inv_l + adj_l * u;
  // L = L0 (1 + actuation * control); dL/dcontrol = rest_eff * L0 * actuation (0 if passive)
  r.rest = kActuated ? r.rest_eff * (T(1) + m.actuation[s] * spring_control(m, s, step)) : r.rest_eff;
  return r;
}

template <class T>
NUDGE_HD SpringAdjoint<T> spring_force_adjoint(const ModelView<T>& m, int s, int step, const T* x, const T* v,
                                               Vec3<T> adj_f) {
  return spring_force_adjoint(m, s, m.a[s], m.b[s], step, x, v, adj_f);
}

}  // namespace nudge
