// The grid's boundaries besides its walls: collider shapes, each of a group that may turn
// about a hinge (a vessel, nudge/material_points.h; the scene's colliders are a group
// that never turns). A grid node near a part, moving into it relative to the part's own
// motion, is stopped (sticky) or slides with Coulomb friction on it: the standard MPM
// boundary, applied to the node's velocity after the walls. Each part reaches a cell
// beyond its surface, so the liquid's side of a wall is held by nodes whose normal faces
// the liquid, and a node a cell inside a part moves with it, whatever its normal (in a
// thin wall, the nodes nearer the far face have the far face's normal, and would let the
// liquid through). Between, smooth steps blend the rules in, so the node's velocity is
// continuous as a turning part sweeps past it: a hard switch makes the loss jump under
// a small change of the turn, and its gradient useless (a finite difference disagrees).
// The parts a node is within reach of act in turn.
//
// The adjoint gives dL/d(node velocity in) and the node's shares of dL/d(angle) and
// dL/d(rate) of each group's turn: the part's velocity there is rate * a x (x - pivot),
// and a turn by d(angle) carries phi and the normal to phi(pivot + R^T (x - pivot)) and
// R n(pivot + R^T (x - pivot)), whose derivatives are -grad phi . (a x r) and
// a x n - (dn/dx)(a x r).
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
  T gain;       // rad/s per unit of control
};

// A group's turn during one step: its angle at the step's start (the state's) and the
// rate its control gives during the step.
template <class T>
struct MpmGroupMotion {
  T angle = 0;
  T rate = 0;  // rad/s
};

template <class T>
struct MpmBoundaries {
  int parts = 0, groups = 0;
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

// The smooth step 3u^2 - 2u^3 of u clamped to [0, 1], and its slope.
template <class T>
NUDGE_HD T smooth_step(T u) {
  u = u < T(0) ? T(0) : (u > T(1) ? T(1) : u);
  return u * u * (T(3) - T(2) * u);
}
template <class T>
NUDGE_HD T smooth_step_slope(T u) {
  return u <= T(0) || u >= T(1) ? T(0) : T(6) * u * (T(1) - u);
}

// One part's effect on a node at x: where it is, how it moves there, how far the node is
// within its reach (band: 0 at the reach, 1 at the surface and inside) and how deep
// inside (depth: 0 at the surface, 1 a reach deep).
template <class T>
struct PartContact {
  Collider<T> shape;
  SdfSample<T> sdf;
  Vec3<T> arm;      // a x (x - pivot): the part's velocity per unit rate
  Vec3<T> solid_v;  // rate * arm
  T band, depth;
  T friction;
};

// A part's contact with a node at x, the part moving there at solid_v.
template <class T>
NUDGE_HD PartContact<T> make_part_contact(const Collider<T>& shape, SdfSample<T> sdf, Vec3<T> arm, Vec3<T> solid_v,
                                          T friction, T reach) {
  PartContact<T> c;
  c.shape = shape, c.sdf = sdf;
  c.arm = arm;
  c.solid_v = solid_v;
  c.band = smooth_step((reach - sdf.distance) / reach);
  c.depth = smooth_step(-sdf.distance / reach);
  c.friction = friction;
  return c;
}

template <class T>
NUDGE_HD PartContact<T> part_contact(const MpmBoundaries<T>& b, int i, Vec3<T> x, SdfSample<T> sdf) {
  const MpmBoundaryGroup<T>& g = b.group[b.part[i].group];
  const Vec3<T> arm = cross(group_axis(g), x - group_pivot(g));
  return make_part_contact(b.shape[i], sdf, arm, b.motion[b.part[i].group].rate * arm, g.friction, b.reach);
}

// One part's map of the node's velocity: the surface's rule (moving in relative to the
// part: stopped, or sliding with friction) blended in over the band, then the part's own
// velocity blended in over the depth. Continuous in x, v and the part's motion, so a
// part sweeping past a node does not jolt it.
template <class T>
NUDGE_HD Vec3<T> part_velocity(const PartContact<T>& c, Vec3<T> v) {
  const Vec3<T> rel = v - c.solid_v;
  const Vec3<T> surface = dot(rel, c.sdf.normal) < T(0) ? c.solid_v + wall_velocity(rel, c.sdf.normal, c.friction) : v;
  const Vec3<T> banded = v + c.band * (surface - v);
  return banded + c.depth * (c.solid_v - banded);
}

// How many parts one node can meet at once (a corner of three, and a fourth); more are
// passed over, in both passes alike.
inline constexpr int kMaxNodeContacts = 4;

// The node's velocity v (after the walls) after the boundaries, at node position x: each
// part within its reach in turn.
template <class T>
NUDGE_HD Vec3<T> boundary_velocity(const MpmBoundaries<T>& b, Vec3<T> x, Vec3<T> v) {
  int count = 0;
  for (int i = 0; i < b.parts && count < kMaxNodeContacts; ++i) {
    const SdfSample<T> sdf = collider_sdf(b.shape[i], x);
    if (!(sdf.distance < b.reach)) continue;
    v = part_velocity(part_contact(b, i, x, sdf), v);
    ++count;
  }
  return v;
}

// One contact's adjoint: given its input velocity vin and dL/d(part_velocity's result),
// dL/dvin and the contact's dL/d(solid_v), dL/d(the node's place as the shape sees it,
// through phi and n: the shape moved by d is the node moved by -d) and dL/dn (of the
// normal as placed, before any turn of it) and dL/dphi; dL/d(the shape's size) is added
// to adj_size where given.
template <class T>
struct PartVelocityAdjoint {
  Vec3<T> in, solid, x, n;
  T phi;
};

template <class T>
NUDGE_HD PartVelocityAdjoint<T> adj_part_velocity(const PartContact<T>& c, T reach, Vec3<T> x, Vec3<T> vin,
                                                  Vec3<T> adj_out, T* adj_size = nullptr) {
  const Vec3<T> rel = vin - c.solid_v;
  const bool moving_in = dot(rel, c.sdf.normal) < T(0);
  const Vec3<T> surface = moving_in ? c.solid_v + wall_velocity(rel, c.sdf.normal, c.friction) : vin;
  const Vec3<T> banded = vin + c.band * (surface - vin);
  // out = banded + depth (solid_v - banded)
  const Vec3<T> adj_banded = (T(1) - c.depth) * adj_out;
  Vec3<T> adj_solid = c.depth * adj_out;
  const T adj_depth = dot(adj_out, c.solid_v - banded);
  // banded = vin + band (surface - vin)
  Vec3<T> adj_in = (T(1) - c.band) * adj_banded;
  const Vec3<T> adj_surface = c.band * adj_banded;
  const T adj_band = dot(adj_banded, surface - vin);
  Vec3<T> adj_n{0, 0, 0};
  if (moving_in) {  // surface = solid_v + W(vin - solid_v, n)
    Vec3<T> adj_rel{0, 0, 0};
    adj_wall_velocity(rel, c.sdf.normal, c.friction, adj_surface, adj_rel, &adj_n);
    adj_in += adj_rel;
    adj_solid += adj_surface - adj_rel;
  } else {
    adj_in += adj_surface;
  }
  // band = S((reach - phi) / reach), depth = S(-phi / reach)
  const T adj_phi = -(adj_band * smooth_step_slope((reach - c.sdf.distance) / reach) +
                      adj_depth * smooth_step_slope(-c.sdf.distance / reach)) /
                    reach;
  return {adj_in, adj_solid, collider_sdf_adjoint(c.shape, x, adj_phi, adj_n, adj_size), adj_n, adj_phi};
}

// Given dL/d(boundary_velocity's result): adds dL/dv, and each group's shares of
// dL/d(angle) and dL/d(rate) to angle[g * stride], rate[g * stride].
template <class T>
NUDGE_HD void adj_boundary_velocity(const MpmBoundaries<T>& b, Vec3<T> x, Vec3<T> v, Vec3<T> adj_out, Vec3<T>& adj_v,
                                    T* angle, T* rate, int stride = 1) {
  // Forward again, keeping each contact's input velocity.
  int part[kMaxNodeContacts];
  SdfSample<T> sdf[kMaxNodeContacts];
  Vec3<T> input[kMaxNodeContacts];
  int count = 0;
  for (int i = 0; i < b.parts && count < kMaxNodeContacts; ++i) {
    const SdfSample<T> s = collider_sdf(b.shape[i], x);
    if (!(s.distance < b.reach)) continue;
    part[count] = i, sdf[count] = s, input[count] = v;
    v = part_velocity(part_contact(b, i, x, s), v);
    ++count;
  }
  for (int k = count - 1; k >= 0; --k) {
    const PartContact<T> c = part_contact(b, part[k], x, sdf[k]);
    const PartVelocityAdjoint<T> a = adj_part_velocity(c, b.reach, x, input[k], adj_out);
    const int g = b.part[part[k]].group;
    const Vec3<T> axis = group_axis(b.group[g]);
    rate[g * stride] += dot(a.solid, c.arm);
    // A turn by d(angle) moves the surface under the fixed node: phi and n seen from x
    // turned back by d(angle), and n turned forward.
    angle[g * stride] += dot(a.n, cross(axis, c.sdf.normal)) - dot(a.x, c.arm);
    adj_out = a.in;
  }
  adj_v += adj_out;
}

}  // namespace nudge
