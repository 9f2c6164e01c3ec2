// Semi-implicit Euler for one particle:
//   F  = f_ext + m g - drag v + f_contact(x, v) + sum of spring forces on it
//   v' = (v + dt F / m) * free        (free = 0 holds a pinned particle still)
//   x' = x + dt v'
#pragma once

#include "ground_contact.h"
#include "model.h"
#include "nudge/vec3.h"

namespace nudge {

// Total force on particle i. fs holds each spring's force on its end a (s x 3).
template <class T>
NUDGE_HD Vec3<T> particle_force(const ModelView<T>& m, int i, Vec3<T> x, Vec3<T> v, const T* fs) {
  const T mass = m.mass[i];
  Vec3<T> f = load3(m.ext_force, i) + Vec3<T>{mass * m.gravity[0], mass * m.gravity[1], mass * m.gravity[2]};
  f -= m.drag * v;
  if (m.ground) f += contact_force(m, x, v);
  for (int j = m.inc_start[i]; j < m.inc_start[i + 1]; ++j) f += m.inc_sign[j] * load3(fs, m.inc_spring[j]);
  return f;
}

// One step of particle i from (x, v) to (x1, v1).
template <class T>
NUDGE_HD void particle_step(const ModelView<T>& m, int i, const T* x, const T* v, const T* fs, T* x1, T* v1) {
  const Vec3<T> xi = load3(x, i), vi = load3(v, i);
  const Vec3<T> f = particle_force(m, i, xi, vi, fs);
  const Vec3<T> vn = (vi + f * (m.dt / m.mass[i])) * m.free[i];
  store3(v1, i, vn);
  store3(x1, i, xi + m.dt * vn);
}

// Gradient accumulators, one slot per element so that no two threads ever add to the
// same address; global parameters are summed over particles once, at the end.
template <class T>
struct GradView {
  T* mass = nullptr;              // n
  T* ext_force = nullptr;         // n x 3
  T* gravity = nullptr;           // n x 3, per-particle share
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
template <class T>
NUDGE_HD void particle_step_adjoint(const ModelView<T>& m, int i, const T* x, const T* v, const T* v1, T* adj_x,
                                    T* adj_v, T* adj_f, const GradView<T>& grad) {
  const Vec3<T> xi = load3(x, i), vi = load3(v, i);
  const Vec3<T> ax1 = load3(adj_x, i);
  // v' feeds x' = x + dt v', so its total adjoint includes dt * dL/dx'.
  const Vec3<T> adj_vn = (load3(adj_v, i) + m.dt * ax1) * m.free[i];
  const T mass = m.mass[i];
  const Vec3<T> af = adj_vn * (m.dt / mass);
  store3(adj_f, i, af);

  Vec3<T> ax = ax1;
  Vec3<T> av = adj_vn - m.drag * af;
  // d(dt F / m)/dm = dt (g - F/m) / m, and dt F / m = v' - v for a free particle.
  const Vec3<T> g{m.gravity[0], m.gravity[1], m.gravity[2]};
  grad.mass[i] += dot(adj_vn, m.dt * g - (load3(v1, i) - vi)) / mass;
  add3(grad.ext_force, i, af);
  add3(grad.gravity, i, mass * af);
  grad.drag[i] -= dot(af, vi);
  if (m.ground) contact_force_adjoint(m, xi, vi, af, ax, av, grad.ground_stiffness[i], grad.friction[i]);
  store3(adj_x, i, ax);
  store3(adj_v, i, av);
}

// Second half: gathers the spring adjoints of the springs touching particle i.
// adj_d, adj_dv: per spring dL/d(x_b - x_a), dL/d(v_b - v_a) (s x 3).
template <class T>
NUDGE_HD void particle_gather_adjoint(const ModelView<T>& m, int i, const T* adj_d, const T* adj_dv, T* adj_x,
                                      T* adj_v) {
  Vec3<T> ax = load3(adj_x, i), av = load3(adj_v, i);
  for (int j = m.inc_start[i]; j < m.inc_start[i + 1]; ++j) {
    const T sign = m.inc_sign[j];  // +1 at end a, which enters d with a minus
    const int s = m.inc_spring[j];
    ax -= sign * load3(adj_d, s);
    av -= sign * load3(adj_dv, s);
  }
  store3(adj_x, i, ax);
  store3(adj_v, i, av);
}

}  // namespace nudge
