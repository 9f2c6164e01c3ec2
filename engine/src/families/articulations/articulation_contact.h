// Contact of links with the scene's colliders (the ground plane among them). A link's
// shapes give it contact points (articulation_links.h: link_contact_points), and each
// point meets every collider by the law a free body's points meet them with
// (families/bodies/body_step.h: body_point_contact), so a robot's foot and a box on the
// same floor feel the same stiffness, damping and friction.
//
// In the dynamics a link's contacts are one external wrench on it (about the world's
// origin, as the recursions keep forces), taken from the force its inertia needs in RNEA:
// every joint above the link then feels it through the subtree sums, and the step solves
// for qdd with it. The adjoint turns dL/d(wrench) into dL/d(the link's velocity), which
// RNEA's adjoint carries to qd and to the joints' motions, and a wrench on the link's
// frame (its points move with the frame), which reaches q and the links' placements.
#pragma once

#include "families/articulations/articulation_model.h"
#include "families/bodies/body_step.h"
#include "families/colliders/collider_model.h"

namespace nudge {

// The links' contact points and the colliders they meet; colliders.count == 0 or no
// points: no contact, and no cost.
template <class T>
struct LinkContacts {
  ColliderModel<T> colliders;
  const int* point_start = nullptr;  // per link, and one past the last: its points' range
  const Vec3<T>* offset = nullptr;   // per point, in its link's frame
  const T* radius = nullptr;         // per point (0: a box's corner)
  // Per link, a wrench from elsewhere (particles: particle_link_contact.h), about the
  // origin, constant over the step; and where its adjoint adds dL/d(it). Null: none.
  const Spatial<T>* external = nullptr;
  Spatial<T>* adj_external = nullptr;
  NUDGE_HD bool active() const { return colliders.count > 0 && point_start != nullptr; }
};

// Where the contact parameters' gradients go (null: not wanted): one share per tree.
template <class T>
struct LinkContactGrad {
  T* stiffness = nullptr;
  T* damping = nullptr;  // or the restitution's, where the scene gives one
  T* friction = nullptr;
};

// A contact point as a free body's point: the body at the point itself, not turned, with
// the link's velocity there, so that the bodies' contact law and its adjoint apply as they are.
template <class T>
NUDGE_HD BodyState<T> contact_point_state(Vec3<T> p, Spatial<T> v) {
  return {p, quat_identity<T>(), v.lin + cross(v.ang, p), v.ang};
}

// The wrench of link k's contacts (torque about the origin, force) at its frame (rot,
// origin) and spatial velocity v; mass: the link's (for a restitution's damping).
template <class T>
NUDGE_HD Spatial<T> link_contact_wrench(const LinkContacts<T>& c, int k, T mass, const Mat33<T>& rot, Vec3<T> origin,
                                        Spatial<T> v) {
  Spatial<T> w = zero_spatial<T>();
  for (int j = c.point_start[k]; j < c.point_start[k + 1]; ++j) {
    const Vec3<T> p = origin + rot * c.offset[j];
    const BodyState<T> s = contact_point_state(p, v);
    for (int i = 0; i < c.colliders.count; ++i) {
      const Wrench<T> f =
          body_point_contact(c.colliders, c.colliders.shapes[i], s, Vec3<T>{0, 0, 0}, c.radius[j], mass);
      w.ang += f.torque + cross(p, f.force);
      w.lin += f.force;
    }
  }
  return w;
}

// Where the points' own gradients go (null: not wanted), per point: dL/d(its offset, in
// its link's frame) and dL/d(its radius), for the links' scales.
template <class T>
struct LinkPointGrad {
  Vec3<T>* offset = nullptr;
  T* radius = nullptr;
};

// The adjoint of link_contact_wrench given dL/d(wrench), wbar (a motion: the wrench's
// power pairs it with a twist): adds dL/dv into adj_v, the points' share into the frame's
// wrench (a twist d of the frame moves a point p by d.ang x p + d.lin), the link's share
// of dL/dmass and of the contact parameters, and the points' own into points.
template <class T>
NUDGE_HD void adj_link_contact_wrench(const LinkContacts<T>& c, int k, T mass, const Mat33<T>& rot, Vec3<T> origin,
                                      Spatial<T> v, Spatial<T> wbar, Spatial<T>& adj_v, Spatial<T>& frame, T& adj_mass,
                                      T& adj_stiffness, T& adj_damping, T& adj_friction,
                                      const LinkPointGrad<T>& points = {}) {
  for (int j = c.point_start[k]; j < c.point_start[k + 1]; ++j) {
    const Vec3<T> p = origin + rot * c.offset[j];
    const BodyState<T> s = contact_point_state(p, v);
    BodyState<T> adj_s{{0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
    Vec3<T> adj_p{0, 0, 0};
    T adj_radius = 0;
    for (int i = 0; i < c.colliders.count; ++i) {
      const Collider<T>& shape = c.colliders.shapes[i];
      const Wrench<T> f = body_point_contact(c.colliders, shape, s, Vec3<T>{0, 0, 0}, c.radius[j], mass);
      // w.ang += torque + p x force, w.lin += force
      adj_p += cross(f.force, wbar.ang);
      const Wrench<T> adj_f{wbar.lin + cross(wbar.ang, p), wbar.ang};
      Vec3<T> adj_offset{0, 0, 0};
      adj_body_point_contact(c.colliders, shape, s, Vec3<T>{0, 0, 0}, c.radius[j], adj_f, adj_s, adj_offset, adj_radius,
                             adj_stiffness, adj_damping, adj_friction, mass, &adj_mass);
    }
    // s = (p, 1, v.lin + v.ang x p, v.ang)
    adj_p += adj_s.x + cross(adj_s.v, v.ang);
    adj_v.lin += adj_s.v;
    adj_v.ang += cross(p, adj_s.v) + adj_s.w;
    frame.ang += cross(p, adj_p);
    frame.lin += adj_p;
    // p = origin + rot offset
    if (points.offset) points.offset[j] += mul_transpose(rot, adj_p);
    if (points.radius) points.radius[j] += adj_radius;
  }
}

}  // namespace nudge
