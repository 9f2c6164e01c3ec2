// A rigid body's shape as a boundary of the material points' grid, the kernel of their
// two-way coupling: a part placed at the body's pose, moving with it (v + w x (x - c) at
// a node x, c the body's centre of mass), met by a grid node as a vessel's part is
// (mpm_boundary.h: stopped or sliding with friction within a cell of its surface, carried
// along inside it). What the part takes from the node's momentum, the node gives the
// body: a force -m (v' - v) / dt at x, and its torque about c.
//
// The adjoint gives dL/dv and dL/dm of the node and the body's shares: dL/dc (the body
// moved by d carries its shape and its rotation centre with it), dL/d(turn) (a small
// rotation theta of the body about c, in the world frame: its shape's phi and n seen from
// x turned back by theta, its normal turned forward), dL/dv_b and dL/dw_b.
#pragma once

#include "families/material_points/mpm_boundary.h"

namespace nudge {

// The body this step: its centre of mass, velocity and angular velocity (world frame).
template <class T>
struct BodyPartMotion {
  Vec3<T> centre, v, w;
};

// A node after a body's part: its velocity, and the force and torque (about the body's
// centre) it puts on the body.
template <class T>
struct BodyPartEffect {
  Vec3<T> v, force, torque;
};

template <class T>
NUDGE_HD BodyPartEffect<T> body_part_effect(const Collider<T>& shape, const BodyPartMotion<T>& m, T friction, T reach,
                                            T dt, Vec3<T> x, Vec3<T> v, T mass) {
  const SdfSample<T> sdf = collider_sdf(shape, x);
  if (!(sdf.distance < reach)) return {v, {0, 0, 0}, {0, 0, 0}};
  const Vec3<T> r = x - m.centre;
  const Vec3<T> out =
      part_velocity(make_part_contact(shape, sdf, Vec3<T>{0, 0, 0}, m.v + cross(m.w, r), friction, reach), v);
  const Vec3<T> force = (-mass / dt) * (out - v);
  return {out, force, cross(r, force)};
}

// The body's shares of dL.
template <class T>
struct BodyPartShares {
  Vec3<T> centre{0, 0, 0}, turn{0, 0, 0}, v{0, 0, 0}, w{0, 0, 0};
};

// Given dL/d(the effect's v, force and torque): adds dL/dv, dL/dm and the body's shares.
template <class T>
NUDGE_HD void adj_body_part_effect(const Collider<T>& shape, const BodyPartMotion<T>& m, T friction, T reach, T dt,
                                   Vec3<T> x, Vec3<T> v, T mass, const BodyPartEffect<T>& adj_effect, Vec3<T>& adj_v,
                                   T& adj_mass, BodyPartShares<T>& shares) {
  const SdfSample<T> sdf = collider_sdf(shape, x);
  if (!(sdf.distance < reach)) {
    adj_v += adj_effect.v;
    return;
  }
  const Vec3<T> r = x - m.centre;
  const PartContact<T> c = make_part_contact(shape, sdf, Vec3<T>{0, 0, 0}, m.v + cross(m.w, r), friction, reach);
  const Vec3<T> out = part_velocity(c, v);
  const Vec3<T> delta = out - v;
  const Vec3<T> force = (-mass / dt) * delta;
  // torque = r x force: a . (r x F) = F . (a x r) = r . (F x a)
  const Vec3<T> adj_force = adj_effect.force + cross(adj_effect.torque, r);
  shares.centre += cross(adj_effect.torque, force);  // dL/dr = F x a, r = x - c
  // force = -(m / dt) delta, delta = out - v
  const Vec3<T> adj_delta = (-mass / dt) * adj_force;
  adj_mass += -dot(adj_force, delta) / dt;
  const PartVelocityAdjoint<T> a = adj_part_velocity(c, reach, x, v, adj_effect.v + adj_delta);
  adj_v += a.in - adj_delta;
  // solid_v = v_b + w_b x r: a . (w x r) = w . (r x a) = r . (a x w)
  shares.v += a.solid;
  shares.w += cross(r, a.solid);
  shares.centre += cross(m.w, a.solid);  // -(a x w), r = x - c
  // The shape moves and turns with the body.
  shares.centre += T(-1) * a.x;
  shares.turn += cross(c.sdf.normal, a.n) - cross(r, a.x);
}

}  // namespace nudge
