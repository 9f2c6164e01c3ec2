// Semi-implicit Euler for one particle:
//   F  = f_ext + m g - drag v + f_contact(x, v) + sum of interaction forces on it
//   v' = (v + dt F / m) * free        (free = 0 holds a pinned particle still)
//   x' = x + dt v'
// The interaction forces (springs', triangles') are gathered by the particle kernels
// (step_kernels.h, kernels/span_kernels.h) and passed in;
// the forces here are those local to the particle, and the bodies' and links' (whose states it
// reads from the step's state and the kinematics phase).
#pragma once

#include "families/colliders/collider_contact.h"
#include "families/ground/ground_contact.h"
#include "families/ground/ground_projection.h"
#include "kernels/model.h"
#include "families/articulations/particle_link_contact.h"
#include "families/attachments/particle_body.h"
#include "nudge/vec3.h"

namespace nudge {

// Total force on particle i, given the sum of the interaction forces on it.
// kContact = false leaves the ground and colliders out whatever the model says: a
// caller that has checked has_local_contact(m) once gets a loop without branches or
// exp/log, one that vectorises.
template <bool kContact = true, class T>
NUDGE_HD Vec3<T> particle_force(const ModelView<T>& m, int i, Vec3<T> x, Vec3<T> v, Vec3<T> interaction_sum,
                                StateView<const T> state) {
  const ParticleModel<T>& p = m.particles;
  const T mass = p.mass[i];
  Vec3<T> f = load3(p.ext_force, i, p.n) + Vec3<T>{mass * p.gravity[0], mass * p.gravity[1], mass * p.gravity[2]};
  f -= p.drag * v;
  if constexpr (kContact) {
    if (ground_penalty(m.ground)) f += contact_force(m.ground, x, v);
    if (m.colliders.count > 0) f += colliders_force(m.colliders, i, x, v, mass);
    if (particles_meet_bodies(m)) f += particle_body_force(m, i, x, v, state);
    if (particles_meet_links(m)) f += particle_link_force(m, i, x, v);
  }
  return f + interaction_sum;
}

// One step of particle i from `state` into `next`, given the interaction forces on it.
template <bool kContact = true, class T>
NUDGE_HD void integrate_particle(const ModelView<T>& m, int i, StateView<const T> state, Vec3<T> interaction_sum,
                                 StateView<T> next) {
  const ParticleModel<T>& p = m.particles;
  const Vec3<T> xi = load3(state.x, i, p.n), vi = load3(state.v, i, p.n);
  const Vec3<T> f = particle_force<kContact>(m, i, xi, vi, interaction_sum, state);
  Vec3<T> vn = (vi + f * (m.dt / p.mass[i])) * p.free[i];
  if constexpr (kContact) {
    if (ground_stops(m.ground, xi, vn)) vn = Vec3<T>{0, 0, 0};
    if (m.ground.time_of_impact) {
      store3(next.v_pre, i, p.n, vn);  // the adjoint's: where the particle was heading
      if (ground_impact(m.ground, xi, vn, m.dt)) {
        store3(next.v, i, p.n, Vec3<T>{0, 0, 0});
        store3(next.x, i, p.n, xi + ground_impact_time(m.ground, xi, vn) * vn);
        return;
      }
    }
  }
  store3(next.v, i, p.n, vn);
  store3(next.x, i, p.n, xi + m.dt * vn);
}

// The local part of a step's adjoint past the velocity update m (v' - v) = dt F: given
// adj_vn, the adjoint of the new velocity as if v' = v + dt F / m (semi-implicit Euler:
// dL/dv' + dt dL/dx'; the implicit step: m lambda, sim/implicit_euler.h), writes
// dL/dF = dt adj_vn / m to adj_f, dL/dx = ax1 plus the local forces' share and dL/dv to
// adj, and the local parameters' gradients. v1: the velocity after the step.
template <bool kContact = true, class T>
NUDGE_HD void particle_velocity_adjoint(const ModelView<T>& m, int i, StateView<const T> state, const T* v1,
                                        Vec3<T> adj_vn, Vec3<T> ax1, StateView<T> adj, T* adj_f,
                                        const GradView<T>& grad) {
  const ParticleModel<T>& p = m.particles;
  const Vec3<T> xi = load3(state.x, i, p.n), vi = load3(state.v, i, p.n);
  const T mass = p.mass[i];
  const Vec3<T> af = adj_vn * (m.dt / mass);
  store3(adj_f, i, p.n, af);

  Vec3<T> ax = ax1;
  Vec3<T> av = adj_vn - p.drag * af;
  // d(dt F / m)/dm = dt (g - F/m) / m, and dt F / m = v' - v for a free particle.
  const Vec3<T> g{p.gravity[0], p.gravity[1], p.gravity[2]};
  grad.particles.mass[i] += dot(adj_vn, m.dt * g - (load3(v1, i, p.n) - vi)) / mass;
  add3(grad.particles.ext_force, i, p.n, af);
  grad.particles.drag[i] -= dot(af, vi);
  if constexpr (kContact) {
    if (ground_penalty(m.ground))
      contact_force_adjoint(m.ground, xi, vi, af, ax, av, grad.ground.stiffness[i], grad.ground.friction[i]);
    if (m.colliders.count > 0)
      colliders_adjoint(m.colliders, grad.colliders, i, xi, vi, mass, af, ax, av, grad.particles.mass[i]);
    if (particles_meet_bodies(m)) adj_particle_body_force(m, grad, i, xi, vi, state, af, ax, av);
    if (particles_meet_links(m)) adj_particle_link_force(m, grad, i, xi, vi, af, ax, av);
  }
  store3(adj.x, i, p.n, ax);
  store3(adj.v, i, p.n, av);
}

// The adjoint of integrate_particle, the part local to particle i.
// In: adj holds dL/dx', dL/dv' (the state after the step). Out: adj holds the local part
// of dL/dx, dL/dv; adj_f[i] receives dL/dF for the interaction families' adjoints; v1 is
// the velocity the forces gave (it gives dt F / m without recomputing the forces): the
// velocity after the step, or with the time-of-impact ground the state's v_pre.
template <bool kContact = true, class T>
NUDGE_HD void particle_step_adjoint(const ModelView<T>& m, int i, StateView<const T> state, const T* v1,
                                    StateView<T> adj, T* adj_f, const GradView<T>& grad) {
  const ParticleModel<T>& p = m.particles;
  const Vec3<T> ax1 = load3(adj.x, i, p.n);
  // v' feeds x' = x + dt v', so its total adjoint includes dt * dL/dx'.
  Vec3<T> adj_vn = (load3(adj.v, i, p.n) + m.dt * ax1) * p.free[i];
  Vec3<T> ax = ax1;
  if constexpr (kContact) {
    const Vec3<T> xi = load3(state.x, i, p.n), vn = load3(v1, i, p.n);
    // A particle the ground stopped left with v' = 0 whatever the forces: nothing flows back.
    if (ground_stopped(m.ground, xi, vn)) adj_vn = Vec3<T>{0, 0, 0};
    // One that landed on it: x' = x + toi vn, v' = 0.
    if (ground_impact(m.ground, xi, vn, m.dt)) {
      ax = Vec3<T>{0, 0, 0};
      adj_vn = ground_impact_adjoint(m.ground, xi, vn, ax1, ax);
    }
  }
  particle_velocity_adjoint<kContact>(m, i, state, v1, adj_vn, ax, adj, adj_f, grad);
}

}  // namespace nudge
