// Forces between particles and rigid bodies, and their adjoints. A particle is a body
// with no turn of its own (its orientation the identity, its spin zero), so contact is
// body_pair_contact with the particle's point against the body's shape, and an
// attachment is a ball joint's positional lock with the body as parent and the particle
// as child. The particle's share is local to the particle's pass; the body's share is
// summed by the body, over every particle, in index order.
#pragma once

#include "kernels/body_coupling.h"
#include "families/bodies/body_state_io.h"
#include "families/joints/joint_wrench.h"
#include "kernels/model.h"

namespace nudge {

template <class T>
NUDGE_HD bool particles_meet_bodies(const ModelView<T>& m) {
  return m.particle_bodies.contact || m.particle_bodies.attachments;
}

template <class T>
NUDGE_HD BodyState<T> particle_as_body(Vec3<T> x, Vec3<T> v) {
  return {x, {0, 0, 0, 1}, v, {0, 0, 0}};
}

// Whether particle i (at x) does not touch body b: too far from it (see bodies_apart),
// or attached to it (as two bodies a joint joins do not collide; the particle sits on
// the body's surface, where contact would switch on and off).
template <class T>
NUDGE_HD bool particle_apart(const ModelView<T>& m, int i, Vec3<T> x, const BodyState<T>& sb, int b) {
  if (m.particle_bodies.attachments && m.particle_bodies.attach_body[i] == b) return true;
  const T reach = m.bodies.bound[b] + m.colliders.radius[i] + m.body_contacts.reach;
  return length_squared(x - sb.x) > reach * reach;
}

template <class T>
NUDGE_HD JointLaw<T> attachment_law(const ParticleBodyModel<T>& pb) {
  return {JointKind::Ball, pb.stiffness, pb.damping, T(0), T(0), T(0), T(0), false, T(0), T(0), T(0)};
}

// The body's side at the offset, the particle's at its own position; the axes are unused.
template <class T>
NUDGE_HD JointFrame<T> attachment_frame(const ParticleBodyModel<T>& pb, int i, int n) {
  return {load3(pb.attach_offset, i, n), {0, 0, 0}, {0, 1, 0}, {0, 1, 0}, {1, 0, 0}, {1, 0, 0}};
}

// The force of every body on particle i.
template <class T>
NUDGE_HD_NOINLINE Vec3<T> particle_body_force(const ModelView<T>& m, int i, Vec3<T> x, Vec3<T> v,
                                              StateView<const T> s) {
  const ParticleBodyModel<T>& pb = m.particle_bodies;
  const int nb = m.bodies.count, n = m.particles.n;
  const BodyState<T> sp = particle_as_body(x, v);
  Vec3<T> f{0, 0, 0};
  if (pb.contact)
    for (int b = 0; b < nb; ++b) {
      const BodyState<T> sb = load_body(s, b, nb);
      if (!particle_apart(m, i, x, sb, b))
        f += body_pair_contact(m.colliders, m.bodies.shape[b], sp, sb, Vec3<T>{0, 0, 0}, m.colliders.radius[i],
                               m.particles.mass[i], m.bodies.mass[b])
                 .a.force;
    }
  if (pb.attachments && pb.attach_body[i] >= 0) {
    const int b = pb.attach_body[i];
    f += joint_wrench(attachment_law(pb), attachment_frame(pb, i, n), load_body(s, b, nb), sp).b.force;
  }
  return f;
}

// The wrench of every particle on body b.
template <class T>
NUDGE_HD Wrench<T> body_particle_wrench(const ModelView<T>& m, int b, const BodyState<T>& sb, StateView<const T> s) {
  const ParticleBodyModel<T>& pb = m.particle_bodies;
  const int n = m.particles.n;
  Wrench<T> w{{0, 0, 0}, {0, 0, 0}};
  if (pb.contact)
    for (int i = 0; i < n; ++i) {
      const Vec3<T> x = load3(s.x, i, n);
      if (particle_apart(m, i, x, sb, b)) continue;
      w += body_pair_contact(m.colliders, m.bodies.shape[b], particle_as_body(x, load3(s.v, i, n)), sb,
                             Vec3<T>{0, 0, 0}, m.colliders.radius[i], m.particles.mass[i], m.bodies.mass[b])
               .b;
    }
  if (pb.attachments)
    for (int k = pb.attached_start[b]; k < pb.attached_start[b + 1]; ++k) {
      const int i = pb.attached[k];
      w += joint_wrench(attachment_law(pb), attachment_frame(pb, i, n), sb,
                        particle_as_body(load3(s.x, i, n), load3(s.v, i, n)))
               .a;
    }
  return w;
}

// What particle i's state and parameters owe, given dL/dF on it (adj_f) and every
// body's dL/dwrench (in the coupling's adj_wrench): both the forces on the particle and
// the reactions on the bodies depend on the particle. Adds to adj_x and adj_v.
template <class T>
NUDGE_HD_NOINLINE void adj_particle_body_force(const ModelView<T>& m, const GradView<T>& grad, int i, Vec3<T> x,
                                               Vec3<T> v, StateView<const T> s, Vec3<T> adj_f, Vec3<T>& adj_x,
                                               Vec3<T>& adj_v) {
  const ParticleBodyModel<T>& pb = m.particle_bodies;
  const int nb = m.bodies.count, n = m.particles.n;
  const BodyState<T> sp = particle_as_body(x, v);
  BodyState<T> adj_sp = zero_body_state<T>();
  const Wrench<T> on_particle{adj_f, {0, 0, 0}};
  if (pb.contact)
    for (int b = 0; b < nb; ++b) {
      const BodyState<T> sb = load_body(s, b, nb);
      if (particle_apart(m, i, x, sb, b)) continue;
      BodyState<T> unused_b = zero_body_state<T>();
      Vec3<T> unused_offset{0, 0, 0};
      adj_body_pair_contact(m.colliders, m.bodies.shape[b], sp, sb, Vec3<T>{0, 0, 0}, m.colliders.radius[i],
                            {on_particle, load_wrench(m.coupling.adj_wrench, b, nb)}, adj_sp, unused_b, unused_offset,
                            grad.colliders.radius[i], grad.colliders.stiffness[i], grad.colliders.damping[i],
                            grad.colliders.friction[i], m.particles.mass[i], m.bodies.mass[b], &grad.particles.mass[i],
                            static_cast<T*>(nullptr));
    }
  if (pb.attachments && pb.attach_body[i] >= 0) {
    const int b = pb.attach_body[i];
    BodyState<T> unused_b = zero_body_state<T>();
    JointFrame<T> adj_frame = zero_joint_frame<T>();
    T unused_damping = 0, unused_control = 0;
    adj_joint_wrench(attachment_law(pb), attachment_frame(pb, i, n), load_body(s, b, nb), sp,
                     {load_wrench(m.coupling.adj_wrench, b, nb), on_particle}, unused_b, adj_sp, adj_frame,
                     unused_damping, unused_control);
    add3(grad.particle_bodies.offset, i, n, adj_frame.anchor_p);
  }
  adj_x += adj_sp.x;
  adj_v += adj_sp.v;
}

// What body b's state owes to its contacts and attachments with particles, given every
// particle's dL/dF (adj_f, 3 x N) and its own dL/dwrench; adds its mass's share (through
// a restitution's damping) to adj_body_mass and its shape size's to adj_size (3). The
// other parameters' shares were taken on the particles' side.
template <class T>
NUDGE_HD BodyState<T> adj_body_particle_wrench(const ModelView<T>& m, int b, const BodyState<T>& sb,
                                               StateView<const T> s, const T* adj_f, T& adj_body_mass, T* adj_size) {
  const ParticleBodyModel<T>& pb = m.particle_bodies;
  const int nb = m.bodies.count, n = m.particles.n;
  const Wrench<T> on_body = load_wrench(m.coupling.adj_wrench, b, nb);
  BodyState<T> adj_sb = zero_body_state<T>();
  T unused_radius = 0, unused_k = 0, unused_c = 0, unused_mu = 0, unused_damping = 0, unused_control = 0;
  if (pb.contact)
    for (int i = 0; i < n; ++i) {
      const Vec3<T> x = load3(s.x, i, n);
      if (particle_apart(m, i, x, sb, b)) continue;
      BodyState<T> unused_p = zero_body_state<T>();
      Vec3<T> unused_offset{0, 0, 0};
      adj_body_pair_contact(m.colliders, m.bodies.shape[b], particle_as_body(x, load3(s.v, i, n)), sb, Vec3<T>{0, 0, 0},
                            m.colliders.radius[i], {{load3(adj_f, i, n), {0, 0, 0}}, on_body}, unused_p, adj_sb,
                            unused_offset, unused_radius, unused_k, unused_c, unused_mu, m.particles.mass[i],
                            m.bodies.mass[b], static_cast<T*>(nullptr), &adj_body_mass, adj_size);
    }
  if (pb.attachments)
    for (int k = pb.attached_start[b]; k < pb.attached_start[b + 1]; ++k) {
      const int i = pb.attached[k];
      BodyState<T> unused_p = zero_body_state<T>();
      JointFrame<T> unused_frame = zero_joint_frame<T>();
      adj_joint_wrench(attachment_law(pb), attachment_frame(pb, i, n), sb,
                       particle_as_body(load3(s.x, i, n), load3(s.v, i, n)), {on_body, {load3(adj_f, i, n), {0, 0, 0}}},
                       adj_sb, unused_p, unused_frame, unused_damping, unused_control);
    }
  return adj_sb;
}

}  // namespace nudge
