// Articulations as the kernels see them: trees of links, each joined to its parent by one
// joint, in reduced (joint) coordinates. Links of every tree sit in one array, each
// tree's links consecutive with a parent before its children; a joint's coordinates are
// its entries of q (positions) and qd (velocities). Hinges and slides have one of each; a
// ball has a rotation in q (4 numbers, joint_rotation.h) and an angular velocity in qd
// (3); a free joint a translation and a rotation (7) and their rates (6); a weld none.
#pragma once

#include "nudge/mat33.h"
#include "nudge/quat.h"
#include "nudge/vec3.h"

namespace nudge {

enum class LinkJoint : int { Weld = 0, Hinge = 1, Slide = 2, Ball = 3, Free = 4 };

// A joint's entries in qd and in q.
NUDGE_HD int link_joint_dofs(int joint) {
  return joint == int(LinkJoint::Ball) ? 3 : joint == int(LinkJoint::Free) ? 6 : joint == int(LinkJoint::Weld) ? 0 : 1;
}
NUDGE_HD int link_joint_positions(int joint) {
  return joint == int(LinkJoint::Ball) ? 4 : joint == int(LinkJoint::Free) ? 7 : joint == int(LinkJoint::Weld) ? 0 : 1;
}
inline constexpr int kMaxJointDofs = 6;

// One link and the joint to its parent, constant over a rollout.
template <class T>
struct LinkModel {
  int parent = -1;    // a link of the same tree, before this one; -1: the world
  int joint = 0;      // LinkJoint
  int dof = -1;       // its first entry in qd; -1: welded
  int dofs = 0;       // how many (link_joint_dofs)
  int position = -1;  // its first entry in q; -1: welded
  Vec3<T> pos;        // the link's frame in its parent's at q = 0 (MuJoCo's body pos, quat)
  Quat<T> quat;
  Vec3<T> anchor;    // the joint's point (a ball's and a free joint's centre of rotation) and
  Vec3<T> axis;      // axis (a unit vector; a hinge's and a slide's) in the link's frame
  T mass;            // kg
  Vec3<T> com;       // the centre of mass in the link's frame
  Mat33<T> inertia;  // about the centre of mass, in the link's axes (symmetric)
};

// A joint coordinate's own terms: armature (added to M's diagonal), damping (a torque
// -damping qd, implicit in the step as MuJoCo's Euler makes it), its limits (a penalty
// past [lower, upper]; limited 0: none) and its spring (-stiffness (q - spring_ref),
// explicit, as MuJoCo's) and its dry friction (-frictionloss tanh(qd / friction_velocity),
// linearly implicit: articulation_dynamics.h's dry_friction). position: its entry in q,
// for a hinge's or a slide's coordinate (whose q and qd are one number each), else -1.
template <class T>
struct DofModel {
  T armature;
  T damping;
  int position;
  int limited;
  T lower, upper, limit_stiffness, limit_damping;
  T stiffness, spring_ref;
  T frictionloss, friction_velocity;
};

// An actuator on one coordinate, as MuJoCo's with an affine bias: a length l = gear q,
// a force f = gain u + bias_q l + bias_qd (gear qd) from its channel's control u, and a
// generalised force gear f. A motor has gain 1 and no bias; a position servo gain kp,
// bias_q -kp and bias_qd -kv.
// ctrl_limited: the control is clamped to [ctrl_lower, ctrl_upper] first; force_limited:
// the force f to [force_lower, force_upper] last.
template <class T>
struct DofActuator {
  int dof;
  int position;  // the coordinate's entry in q
  int channel;
  T gear, gain, bias_q, bias_qd;
  int ctrl_limited;
  T ctrl_lower, ctrl_upper;
  int force_limited;
  T force_lower, force_upper;
};

// One tree: its links, its coordinates, and where its mass matrix sits in the scratch.
struct TreeModel {
  int first_link, links;
  int first_dof, dofs;            // its entries in qd
  int first_position, positions;  // and in q
  int matrix;                     // offset of its dofs x dofs block
};

// A motion or a force of a rigid body in world coordinates about the world's origin
// (Featherstone's spatial vectors): (angular, linear). For a motion, linear is the
// velocity of the body's point at the origin.
template <class T>
struct Spatial {
  Vec3<T> ang, lin;
  NUDGE_HD Spatial& operator+=(const Spatial& o) {
    ang += o.ang, lin += o.lin;
    return *this;
  }
};

template <class T>
NUDGE_HD Spatial<T> operator+(Spatial<T> a, Spatial<T> b) {
  return {a.ang + b.ang, a.lin + b.lin};
}
template <class T>
NUDGE_HD Spatial<T> operator*(T s, Spatial<T> a) {
  return {s * a.ang, s * a.lin};
}
template <class T>
NUDGE_HD T dot(Spatial<T> a, Spatial<T> b) {
  return dot(a.ang, b.ang) + dot(a.lin, b.lin);
}
template <class T>
NUDGE_HD Spatial<T> zero_spatial() {
  return {{0, 0, 0}, {0, 0, 0}};
}
// Motion cross motion: the rate of a motion vector w carried by a body moving with v.
template <class T>
NUDGE_HD Spatial<T> cross_motion(Spatial<T> v, Spatial<T> w) {
  return {cross(v.ang, w.ang), cross(v.ang, w.lin) + cross(v.lin, w.ang)};
}
// Motion cross force: the rate of a force (momentum) h carried by a body moving with v.
template <class T>
NUDGE_HD Spatial<T> cross_force(Spatial<T> v, Spatial<T> h) {
  return {cross(v.ang, h.ang) + cross(v.lin, h.lin), cross(v.ang, h.lin)};
}

// A rigid body's inertia in world coordinates: mass, centre of mass, and rotational
// inertia about the centre of mass in world axes.
template <class T>
struct BodyInertiaWorld {
  T mass;
  Vec3<T> com;
  Mat33<T> rot;
};

// Its momentum (angular about the origin, linear) moving with x.
template <class T>
NUDGE_HD Spatial<T> apply_inertia(const BodyInertiaWorld<T>& in, Spatial<T> x) {
  const Vec3<T> u = x.lin + cross(x.ang, in.com);  // the centre of mass's velocity
  return {in.rot * x.ang + in.mass * cross(in.com, u), in.mass * u};
}

// Adjoint of y = apply_inertia(in, x) for x held: dL/dy -> the inertia's shares.
template <class T>
NUDGE_HD void adj_apply_inertia(const BodyInertiaWorld<T>& in, Spatial<T> x, Spatial<T> adj_y, T& adj_mass,
                                Vec3<T>& adj_com, Mat33<T>& adj_rot) {
  const Vec3<T> u = x.lin + cross(x.ang, in.com);
  adj_mass += dot(adj_y.ang, cross(in.com, u)) + dot(adj_y.lin, u);
  adj_rot += outer(adj_y.ang, x.ang);
  adj_com += in.mass * (cross(u, adj_y.ang) + cross(cross(adj_y.ang, in.com), x.ang) + cross(adj_y.lin, x.ang));
}

// Several bodies' inertia summed (a subtree's, for the mass matrix): mass, first moment
// m c, and rotational inertia about the origin.
template <class T>
struct CompositeInertia {
  T mass;
  Vec3<T> moment;
  Mat33<T> rot;
};

template <class T>
NUDGE_HD CompositeInertia<T> composite_of(const BodyInertiaWorld<T>& in) {
  const Vec3<T> c = in.com;
  return {in.mass, in.mass * c, in.rot + in.mass * (dot(c, c) * identity33<T>() + T(-1) * outer(c, c))};
}

template <class T>
NUDGE_HD Spatial<T> apply_composite(const CompositeInertia<T>& in, Spatial<T> x) {
  return {in.rot * x.ang + cross(in.moment, x.lin), in.mass * x.lin - cross(in.moment, x.ang)};
}

// tr([w]x A) = w . skew_trace(A), for the adjoint of a rotation of a matrix.
template <class T>
NUDGE_HD Vec3<T> skew_trace(const Mat33<T>& a) {
  return {a(1, 2) - a(2, 1), a(2, 0) - a(0, 2), a(0, 1) - a(1, 0)};
}

}  // namespace nudge
