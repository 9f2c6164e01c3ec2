// Damped, optionally actuated spring between particles a and b.
//   d = x_b - x_a, l = |d|, u = d / l
//   L = L0 (1 + actuation * control[t, channel])      (L = L0 for a passive spring)
//   f_a = (k (l - L) + c ((v_b - v_a) . u)) u,  f_b = -f_a
#pragma once

#include "model.h"
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

// What the spring adjoint hands back per spring; the particle pass gathers it.
template <class T>
struct SpringAdjoint {
  Vec3<T> adj_d;   // dL/d(x_b - x_a)
  Vec3<T> adj_dv;  // dL/d(v_b - v_a)
};

// Adjoint of spring_force given adj_f = dL/df_a - dL/df_b. Accumulates the spring's own
// parameter gradients; returns the adjoint of its relative position and velocity and
// writes dL/dL (the effective rest length) to *adj_rest_eff for the control gradients.
template <bool kActuated = true, class T>
NUDGE_HD SpringAdjoint<T> spring_force_adjoint(const ModelView<T>& m, int s, int ia, int ib, int step, const T* x,
                                               const T* v, Vec3<T> adj_f, T* adj_stiffness, T* adj_damping,
                                               T* adj_rest, T* adj_rest_eff) {
  const Vec3<T> d = load3(x, ib, m.n) - load3(x, ia, m.n);
  const Vec3<T> dv = load3(v, ib, m.n) - load3(v, ia, m.n);
  const T l = length(d);
  const T inv_l = T(1) / l;
  const Vec3<T> u = d * inv_l;
  const T k = m.stiffness[s], c = m.damping[s];
  const T rest_eff = spring_rest_length<kActuated>(m, s, step);
  const T dv_u = dot(dv, u);
  const T mag = k * (l - rest_eff) + c * dv_u;

  // f = mag * u
  const T adj_mag = dot(adj_f, u);
  Vec3<T> adj_u = mag * adj_f + (adj_mag * c) * dv;
  // mag = k (l - L) + c (dv . u)
  adj_stiffness[s] += adj_mag * (l - rest_eff);
  adj_damping[s] += adj_mag * dv_u;
  const T adj_l = adj_mag * k;
  const T adj_rest_effective = -adj_mag * k;
  const Vec3<T> adj_dv = (adj_mag * c) * u;
  // u = d / l and l = |d|
  const Vec3<T> adj_d = (adj_u - u * dot(u, adj_u)) * inv_l + adj_l * u;

  if (!kActuated) {
    adj_rest[s] += adj_rest_effective;  // no control gradient to feed
  } else {
    adj_rest[s] += adj_rest_effective * (T(1) + m.actuation[s] * spring_control(m, s, step));
    *adj_rest_eff = adj_rest_effective;  // dL/dcontrol = this * rest * actuation (0 if passive)
  }
  return {adj_d, adj_dv};
}

template <class T>
NUDGE_HD SpringAdjoint<T> spring_force_adjoint(const ModelView<T>& m, int s, int step, const T* x, const T* v,
                                               Vec3<T> adj_f, T* adj_stiffness, T* adj_damping, T* adj_rest,
                                               T* adj_rest_eff) {
  return spring_force_adjoint(m, s, m.a[s], m.b[s], step, x, v, adj_f, adj_stiffness, adj_damping, adj_rest,
                              adj_rest_eff);
}

}  // namespace nudge
