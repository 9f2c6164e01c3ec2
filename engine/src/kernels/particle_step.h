// Semi-implicit Euler for one particle:
//   F  = f_ext + m g - drag v + f_contact(x, v) + sum of spring forces on it
//   v' = (v + dt F / m) * free        (free = 0 holds a pinned particle still)
//   x' = x + dt v'
#pragma once

#include "kernels/ground_contact.h"
#include "kernels/model.h"
#include "nudge/vec3.h"

namespace nudge {

// Adds sign * value[s] over the springs s of particle i's incidence list onto sum.
// values: one 3-vector per spring (3 x s, structure of arrays).
template <class T>
NUDGE_HD Vec3<T> add_incident(const ModelView<T>& m, int i, const T* values, Vec3<T> sum) {
  for (int j = m.inc_start[i]; j < m.inc_start[i + 1]; ++j) sum += m.inc_sign[j] * load3(values, m.inc_spring[j], m.s);
  return sum;
}

// Total force on particle i, given the sum of the spring forces on it.
// kContact = false leaves the ground out whatever m.ground says: a caller that has
// checked m.ground once gets a loop without branches or exp/log, one that vectorises.
template <bool kContact = true, class T>
NUDGE_HD Vec3<T> particle_force(const ModelView<T>& m, int i, Vec3<T> x, Vec3<T> v, Vec3<T> spring_sum) {
  const T mass = m.mass[i];
  Vec3<T> f = load3(m.ext_force, i, m.n) + Vec3<T>{mass * m.gravity[0], mass * m.gravity[1], mass * m.gravity[2]};
  f -= m.drag * v;
  if (kContact && m.ground) f += contact_force(m, x, v);
  return f + spring_sum;
}

// One step of particle i from (x, v) to (x1, v1), given the spring forces on it.
template <bool kContact = true, class T>
NUDGE_HD void integrate_particle(const ModelView<T>& m, int i, const T* x, const T* v, Vec3<T> spring_sum, T* x1,
                                 T* v1) {
  const Vec3<T> xi = load3(x, i, m.n), vi = load3(v, i, m.n);
  const Vec3<T> f = particle_force<kContact>(m, i, xi, vi, spring_sum);
  const Vec3<T> vn = (vi + f * (m.dt / m.mass[i])) * m.free[i];
  store3(v1, i, m.n, vn);
  store3(x1, i, m.n, xi + m.dt * vn);
}

// One step of particle i; fs holds each spring's force on its end a (3 x s), reached
// through the incidence list.
template <class T>
NUDGE_HD void particle_step(const ModelView<T>& m, int i, const T* x, const T* v, const T* fs, T* x1, T* v1) {
  integrate_particle(m, i, x, v, add_incident(m, i, fs, Vec3<T>{0, 0, 0}), x1, v1);
}

// Gradient accumulators, one slot per element so that no two threads ever add to the
// same address; global parameters are summed over particles once, at the end. Gravity
// has none: its force m g enters exactly where the external force does, so dL/dg is
// sum_i m_i dL/df_ext,i, formed from ext_force's at the end.
template <class T>
struct GradView {
  T* mass = nullptr;              // n
  T* ext_force = nullptr;         // 3 x n
  T* drag = nullptr;              // n, per-particle share
  T* ground_stiffness = nullptr;  // n, per-particle share
  T* friction = nullptr;          // n, per-particle share
  T* stiffness = nullptr;         // s
  T* damping = nullptr;           // s
  T* rest = nullptr;              // s
  T* controls = nullptr;          // steps x channels
};

// First half of the adjoint of particle_step, the part local to particle i.
// In: adj_x, adj_v hold dL/dx', dL/dv' (the state after the step). Out: they hold the
// local part of dL/dx, dL/dv; adj_f[i] receives dL/dF for the spring adjoint; v1 is the
// velocity after the step (it gives dt F / m without recomputing the spring forces).
template <bool kContact = true, class T>
NUDGE_HD void particle_step_adjoint(const ModelView<T>& m, int i, const T* x, const T* v, const T* v1, T* adj_x,
                                    T* adj_v, T* adj_f, const GradView<T>& grad) {
  const Vec3<T> xi = load3(x, i, m.n), vi = load3(v, i, m.n);
  const Vec3<T> ax1 = load3(adj_x, i, m.n);
  // v' feeds x' = x + dt v', so its total adjoint includes dt * dL/dx'.
  const Vec3<T> adj_vn = (load3(adj_v, i, m.n) + m.dt * ax1) * m.free[i];
  const T mass = m.mass[i];
  const Vec3<T> af = adj_vn * (m.dt / mass);
  store3(adj_f, i, m.n, af);

  Vec3<T> ax = ax1;
  Vec3<T> av = adj_vn - m.drag * af;
  // d(dt F / m)/dm = dt (g - F/m) / m, and dt F / m = v' - v for a free particle.
  const Vec3<T> g{m.gravity[0], m.gravity[1], m.gravity[2]};
  grad.mass[i] += dot(adj_vn, m.dt * g - (load3(v1, i, m.n) - vi)) / mass;
  add3(grad.ext_force, i, m.n, af);
  grad.drag[i] -= dot(af, vi);
  if (kContact && m.ground) contact_force_adjoint(m, xi, vi, af, ax, av, grad.ground_stiffness[i], grad.friction[i]);
  store3(adj_x, i, m.n, ax);
  store3(adj_v, i, m.n, av);
}

// Second half: gathers the spring adjoints of the springs touching particle i.
// adj_d, adj_dv: per spring dL/d(x_b - x_a), dL/d(v_b - v_a) (3 x s).
template <class T>
NUDGE_HD void particle_gather_adjoint(const ModelView<T>& m, int i, const T* adj_d, const T* adj_dv, T* adj_x,
                                      T* adj_v) {
  // End a (sign +1) enters d = x_b - x_a with a minus: subtract the signed sum.
  store3(adj_x, i, m.n, load3(adj_x, i, m.n) - add_incident(m, i, adj_d, Vec3<T>{0, 0, 0}));
  store3(adj_v, i, m.n, load3(adj_v, i, m.n) - add_incident(m, i, adj_dv, Vec3<T>{0, 0, 0}));
}

}  // namespace nudge
