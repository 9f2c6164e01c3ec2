// The launchable units of the rigid-body family: one body per index. A body's step
// sums its wrench (gravity, and every contact point against every collider, in a fixed
// order) and integrates; its adjoint recomputes the wrench and runs both backwards.
// Each index reads and writes only its own body, so the adjoint runs in place.
#pragma once

#include "kernels/body_coupling.h"
#include "families/bodies/body_state_io.h"
#include "families/bodies/body_step.h"
#include "kernels/model.h"
#include "families/articulations/body_link_contact.h"
#include "families/attachments/particle_body.h"

namespace nudge {

template <class T>
NUDGE_HD BodyInertia<T> load_inertia(const BodyModel<T>& bm, int b) {
  return {bm.mass[b], load_matrix(bm.inertia, b, bm.count), load_matrix(bm.inv_inertia, b, bm.count)};
}

// Gravity, every contact of body b with the colliders, what joints and other bodies
// left in its coupling slots, and the particles' and links' contacts, about its centre
// of mass.
template <class T>
NUDGE_HD Wrench<T> body_wrench(const ModelView<T>& m, int b, const BodyState<T>& s, StateView<const T> state) {
  const BodyModel<T>& bm = m.bodies;
  const T* g = m.particles.gravity;
  Wrench<T> f{bm.mass[b] * Vec3<T>{g[0], g[1], g[2]}, {0, 0, 0}};
  for (int j = bm.point_start[b]; j < bm.point_start[b + 1]; ++j)
    for (int c = 0; c < m.colliders.count; ++c) {
      f += body_point_contact(m.colliders, m.colliders.shapes[c], s, load3(bm.point_offset, j, bm.points),
                              bm.point_radius[j], bm.mass[b]);
    }
  if (m.coupling.slots > 0) f += gathered_wrench(m.coupling, b);
  if (particles_meet_bodies(m)) f += body_particle_wrench(m, b, s, state);
  if (bodies_meet_links(m)) f += body_link_wrench(m, b, s);
  return f;
}

template <class T>
struct BodyStepKernel {  // over bodies
  ModelView<T> m;
  StateView<const T> state;
  StateView<T> next;
  NUDGE_HD void operator()(int b) const {
    const BodyState<T> s = load_body(state, b, m.bodies.count);
    const BodyState<T> s1 = body_integrate(s, load_inertia(m.bodies, b), body_wrench(m, b, s, state), m.dt);
    store_body(next, b, m.bodies.count, s1);
  }
};

// adj holds dL/dstate_{t+1} for body b on entry and dL/dstate_t on return.
template <class T>
struct BodyAdjointKernel {  // over bodies
  ModelView<T> m;
  StateView<const T> state;
  StateView<T> adj;
  BodyGrad<T> grad;
  NUDGE_HD void operator()(int b) const {
    const BodyModel<T>& bm = m.bodies;
    const int count = bm.count;
    const BodyState<T> s = load_body(state, b, count);
    const BodyInertia<T> inertia = load_inertia(bm, b);
    const Wrench<T> f = body_wrench(m, b, s, state);
    BodyState<T> adj_s = zero_body_state<T>();
    BodyInertia<T> adj_inertia{0, zero33<T>(), zero33<T>()};
    Wrench<T> adj_f{{0, 0, 0}, {0, 0, 0}};
    adj_body_integrate(s, inertia, f, m.dt, load_body(StateView<const T>(adj), b, count), adj_s, adj_inertia, adj_f);
    // F = m g + contacts
    const T* g = m.particles.gravity;
    grad.mass[b] += adj_inertia.mass + dot(adj_f.force, Vec3<T>{g[0], g[1], g[2]});
    add3(grad.force, b, count, adj_f.force);
    add_matrix(grad.inertia, b, count, adj_inertia.inertia);
    add_matrix(grad.inv_inertia, b, count, adj_inertia.inv_inertia);
    // For the adjoints of the interactions with joints, other bodies, particles and links.
    if (m.coupling.slots > 0 || particles_meet_bodies(m) || bodies_meet_links(m))
      store_wrench(m.coupling.adj_wrench, b, count, adj_f);
    T adj_contact_mass = 0;  // through a restitution's damping
    Vec3<T> adj_size{0, 0, 0};
    for (int j = bm.point_start[b]; j < bm.point_start[b + 1]; ++j) {
      Vec3<T> adj_offset{0, 0, 0};
      T adj_radius = 0;
      for (int c = 0; c < m.colliders.count; ++c)
        adj_body_point_contact(m.colliders, m.colliders.shapes[c], s, load3(bm.point_offset, j, bm.points),
                               bm.point_radius[j], adj_f, adj_s, adj_offset, adj_radius, grad.stiffness[b],
                               grad.damping[b], grad.friction[b], bm.mass[b], &adj_contact_mass);
      adj_size += point_size_gradient(bm, j, adj_offset, adj_radius);
    }
    grad.mass[b] += adj_contact_mass;
    add3(grad.size, b, count, adj_size);
    store_body(adj, b, count, adj_s);
  }
};

// After the particles' adjoint: adds what body b's state owes to its contacts and
// attachments with particles (adj_f: every particle's dL/dF at this step).
template <class T>
struct BodyParticleAdjointKernel {  // over bodies
  ModelView<T> m;
  StateView<const T> state;
  const T* adj_f;
  StateView<T> adj;
  BodyGrad<T> grad;
  NUDGE_HD void operator()(int b) const {
    const int count = m.bodies.count;
    BodyState<T> sum = load_body(StateView<const T>(adj), b, count);
    T adj_size[3] = {0, 0, 0};
    sum += adj_body_particle_wrench(m, b, load_body(state, b, count), state, adj_f, grad.mass[b], adj_size);
    store_body(adj, b, count, sum);
    add3(grad.size, b, count, Vec3<T>{adj_size[0], adj_size[1], adj_size[2]});
  }
};

// After the interactions' adjoints: adds body b's slots' dL/dstate to its adjoint.
template <class T>
struct BodyGatherAdjointKernel {  // over bodies
  ModelView<T> m;
  StateView<T> adj;
  NUDGE_HD void operator()(int b) const {
    const BodyCouplingView<T>& c = m.coupling;
    const int count = m.bodies.count;
    BodyState<T> sum = load_body(StateView<const T>(adj), b, count);
    for (int k = c.body_start[b]; k < c.body_start[b + 1]; ++k)
      sum += load_body(slot_view(static_cast<const T*>(c.adj_state), c.slots), c.body_slots[k], c.slots);
    store_body(adj, b, count, sum);
  }
};

}  // namespace nudge
