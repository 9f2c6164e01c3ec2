// The grid's boundaries besides its walls: collider shapes, each of a group that may turn
// about a hinge (a vessel, nudge/material_points.h; the scene's colliders are a group
// that never turns). A grid node inside a part, moving into it relative to the part's
// own motion, is stopped (sticky) or slides with Coulomb friction on it: the standard
// MPM boundary, applied to the node's velocity after the walls. The boundary reaches a
// cell beyond each part's surface, so the liquid's side of a wall is held by nodes whose
// normal faces the liquid; a node inside a part moves with it, whatever its normal (in a
// thin wall, the nodes nearer the far face have the far face's normal, and would let
// the liquid through). A node meets the first part that reaches it, so every node has at
// most one contact, which its adjoint redoes.
//
// The adjoint gives dL/d(node velocity in) and the node's shares of dL/d(angle) and
// dL/d(rate) of its group's turn: the part's velocity there is rate * a x (x - pivot),
// and a turn by d(angle) carries the normal to R n(pivot + R^T (x - pivot)), whose
// derivative is a x n - (dn/dx)(a x (x - pivot)).
#pragma once

#include "families/colliders/collider_sdf.h"
#include "families/material_points/mpm_transfer.h"

namespace nudge {

template <class T>
struct MpmBoundaryPart {
  Collider<T> shape;  // placed as at angle 0
  int group;
};

template <class T>
struct MpmBoundaryGroup {
  T pivot[3];
  T axis[3];    // unit
  T friction;   // >= 0 Coulomb, < 0 sticky
  int channel;  // -1: it does not turn
  T gain;       // rad per unit of control
};

// A group's turn during one step: its angle and the rate that brought it there.
template <class T>
struct MpmGroupMotion {
  T angle = 0;
  T rate = 0;  // rad/s
};

template <class T>
struct MpmBoundaries {
  int parts = 0;
  T reach = 0;  // m beyond a part's surface: the grid's cell
  const MpmBoundaryPart<T>* part = nullptr;
  const MpmBoundaryGroup<T>* group = nullptr;
  const MpmGroupMotion<T>* motion = nullptr;  // per group, this step's
  const Collider<T>* shape = nullptr;         // per part, turned to this step's angle (turned_shape)
};

// R(axis, angle) a, by Rodrigues' formula.
template <class T>
NUDGE_HD Vec3<T> turn_about(Vec3<T> axis, T angle, Vec3<T> a) {
  const T c = std::cos(angle), s = std::sin(angle);
  return c * a + s * cross(axis, a) + ((T(1) - c) * dot(axis, a)) * axis;
}

template <class T>
NUDGE_HD Vec3<T> group_axis(const MpmBoundaryGroup<T>& g) {
  return {g.axis[0], g.axis[1], g.axis[2]};
}
template <class T>
NUDGE_HD Vec3<T> group_pivot(const MpmBoundaryGroup<T>& g) {
  return {g.pivot[0], g.pivot[1], g.pivot[2]};
}

// The part's shape where its group's angle has turned it.
template <class T>
NUDGE_HD Collider<T> turned_shape(const MpmBoundaryPart<T>& p, const MpmBoundaryGroup<T>& g, T angle) {
  Collider<T> c = p.shape;
  if (angle == T(0)) return c;
  const Vec3<T> axis = group_axis(g), pivot = group_pivot(g);
  const Vec3<T> centre = pivot + turn_about(axis, angle, Vec3<T>{c.position[0], c.position[1], c.position[2]} - pivot);
  c.position[0] = centre.x, c.position[1] = centre.y, c.position[2] = centre.z;
  for (int col = 0; col < 3; ++col) {  // R(angle) times each column of the rotation
    const Vec3<T> column{p.shape.rotation[col], p.shape.rotation[3 + col], p.shape.rotation[6 + col]};
    const Vec3<T> r = turn_about(axis, angle, column);
    c.rotation[col] = r.x, c.rotation[3 + col] = r.y, c.rotation[6 + col] = r.z;
  }
  return c;
}

// Per part: its shape at its group's angle this step.
template <class T>
struct MpmTurnPartsKernel {
  const MpmBoundaryPart<T>* part;
  const MpmBoundaryGroup<T>* group;
  const MpmGroupMotion<T>* motion;
  Collider<T>* shape;
  NUDGE_HD void operator()(int i) const {
    const int g = part[i].group;
    shape[i] = turned_shape(part[i], group[g], motion[g].angle);
  }
};

// What a node meets: the first part holding it, or none (part < 0).
template <class T>
struct BoundaryContact {
  int part = -1;
  Collider<T> shape;
  SdfSample<T> sdf;
  Vec3<T> solid_v;  // the part's velocity at the node
};

template <class T>
NUDGE_HD BoundaryContact<T> boundary_contact(const MpmBoundaries<T>& b, Vec3<T> x) {
  BoundaryContact<T> c;
  for (int i = 0; i < b.parts; ++i) {
    const SdfSample<T> sdf = collider_sdf(b.shape[i], x);
    if (!(sdf.distance < b.reach)) continue;
    const MpmBoundaryGroup<T>& g = b.group[b.part[i].group];
    c.part = i, c.shape = b.shape[i], c.sdf = sdf;
    c.solid_v = b.motion[b.part[i].group].rate * cross(group_axis(g), x - group_pivot(g));
    return c;
  }
  return c;
}

// The node's velocity v (after the walls) after the boundaries, at node position x.
template <class T>
NUDGE_HD Vec3<T> boundary_velocity(const MpmBoundaries<T>& b, Vec3<T> x, Vec3<T> v) {
  if (b.parts == 0) return v;
  const BoundaryContact<T> c = boundary_contact(b, x);
  if (c.part < 0) return v;
  if (c.sdf.distance < T(0)) return c.solid_v;  // inside: the part's own motion
  const Vec3<T> rel = v - c.solid_v;
  if (dot(rel, c.sdf.normal) >= T(0)) return v;  // leaving it
  return c.solid_v + wall_velocity(rel, c.sdf.normal, b.group[b.part[c.part].group].friction);
}

// The node's share of its group's dL/d(angle) and dL/d(rate); group < 0 for none.
template <class T>
struct BoundaryShare {
  int group = -1;
  T angle = 0, rate = 0;
};

// Given dL/d(boundary_velocity's result): adds dL/dv, returns the node's share.
template <class T>
NUDGE_HD BoundaryShare<T> adj_boundary_velocity(const MpmBoundaries<T>& b, Vec3<T> x, Vec3<T> v, Vec3<T> adj_out,
                                                Vec3<T>& adj_v) {
  BoundaryShare<T> share;
  const BoundaryContact<T> c = b.parts == 0 ? BoundaryContact<T>{} : boundary_contact(b, x);
  if (c.part >= 0 && c.sdf.distance < T(0)) {  // out = solid_v = rate (a x r)
    const MpmBoundaryGroup<T>& g = b.group[b.part[c.part].group];
    share.group = b.part[c.part].group;
    share.rate = dot(adj_out, cross(group_axis(g), x - group_pivot(g)));
    return share;
  }
  const Vec3<T> rel = c.part < 0 ? v : v - c.solid_v;
  if (c.part < 0 || dot(rel, c.sdf.normal) >= T(0)) {
    adj_v += adj_out;
    return share;
  }
  const MpmBoundaryGroup<T>& g = b.group[b.part[c.part].group];
  Vec3<T> adj_rel{0, 0, 0}, adj_n{0, 0, 0};
  adj_wall_velocity(rel, c.sdf.normal, g.friction, adj_out, adj_rel, &adj_n);
  adj_v += adj_rel;
  const Vec3<T> axis = group_axis(g), arm = cross(axis, x - group_pivot(g));
  share.group = b.part[c.part].group;
  // out = solid_v + W(v - solid_v, n): solid_v = rate (a x r)
  share.rate = dot(adj_out - adj_rel, arm);
  const Vec3<T> adj_x = collider_sdf_adjoint(c.shape, x, T(0), adj_n);
  share.angle = dot(adj_n, cross(axis, c.sdf.normal)) - dot(adj_x, arm);
  return share;
}

}  // namespace nudge
