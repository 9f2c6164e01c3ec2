// The dynamics of one tree of links in joint coordinates, M(q) qdd + c(q, qd) = tau, and
// its step and the step's adjoint, written on arrays so that each is checked on its own
// (tests/engine/articulation_dynamics_test.cpp) and a kernel runs them per tree.
//
// Everything is in world coordinates about the world's origin (Featherstone's spatial
// vectors), so that a link's quantities add up its tree without transforms:
//   forward kinematics  each link's frame from its parent's and its joint (as MuJoCo
//                       places a body: its pos and quat in the parent, then the joint)
//   inverse dynamics    the recursive Newton-Euler algorithm (RNEA): the residual
//                       r(q, qd, qdd) = M qdd + c - tau of the generalised forces
//   mass matrix         the composite-rigid-body algorithm (CRBA), then a Cholesky solve
// The step is MuJoCo's Euler: qdd from (M + armature + dt damping) qdd = tau - c - damping
// qd (damping implicit; a joint's dry friction linearly implicit, dry_friction), then
// qd' = qd + dt qdd, q' = q + dt qd' (a ball's or free joint's rotation turned by dt qd',
// joint_rotation.h). A joint has as many motions (columns of
// the Jacobian, per unit of each of its qd) as qd entries: a hinge's or slide's one, a
// ball's three turns about the link's axes, a free joint's three shifts along the world's
// axes and three turns.
//
// The adjoint differentiates the step through the implicit function r(q, qd, qdd) = 0
// (Carpentier and Mansard's analytical derivatives of rigid-body dynamics): with
// lambda = M~^-1 dL/dqdd, every input z gets -lambda^T dr/dz at the solved qdd, so it
// needs RNEA's adjoint and one more solve with the same factor, not the adjoint of the
// CRBA or of the factorisation. RNEA's adjoint runs the recursion backwards; what a
// link's frame carries (its joint's motion, its inertia) gives a wrench on the link, and
// a joint's coordinate gets the sum over its subtree along its motion, as its force does.
// Contacts with the colliders are an external wrench on each link (articulation_contact.h),
// implicit in velocity: with them the step solves its residual by Newton's method
// (implicit_contact_acceleration) and the adjoint uses the LU factor of dr/dqdd.
#pragma once

#include "families/articulations/articulation_contact.h"
#include "families/articulations/articulation_model.h"
#include "families/articulations/joint_rotation.h"

namespace nudge {

// What the recursions keep per link.
template <class T>
struct LinkFrame {
  Mat33<T> rot;                      // the link's axes in the world
  Vec3<T> origin;                    // its frame's origin in the world
  Spatial<T> motion[kMaxJointDofs];  // its joint's motion per unit of each of its qd
  BodyInertiaWorld<T> inertia;
  Spatial<T> v, a, f;  // velocity, acceleration, and the force its own inertia needs
  Spatial<T> vc;       // the velocity its contacts see (at the step's new qd), with contacts
  Spatial<T> subtree;  // the force its joint carries: f summed over its subtree
  CompositeInertia<T> composite;
  // The adjoint's: dL/d(subtree force), dL/dv, dL/da, and the wrench its subtree's frames
  // feel (dL per twist of the link).
  Spatial<T> adj_subtree, adj_v, adj_a, wrench;
  Spatial<T> adj_vc;  // dL/dvc, with contacts
};

// The parent's frame, or the world's.
template <class T>
NUDGE_HD void parent_frame(const LinkFrame<T>* frames, int parent, Mat33<T>& rot, Vec3<T>& origin) {
  if (parent >= 0) {
    rot = frames[parent].rot, origin = frames[parent].origin;
  } else {
    rot = identity33<T>(), origin = {0, 0, 0};
  }
}

// Forward kinematics: every link's frame, joint motions and world inertia at q. A hinge's
// and a ball's motions turn the link about its anchor, a slide's and a free joint's first
// three translate it (along the slide's axis; along the world's, as MuJoCo's free joint);
// a ball's and a free joint's rotations are about the link's own axes.
template <class T>
NUDGE_HD_NOINLINE void link_frames(const TreeModel& tree, const LinkModel<T>* links, const T* q, LinkFrame<T>* frames) {
  for (int k = tree.first_link; k < tree.first_link + tree.links; ++k) {
    const LinkModel<T>& l = links[k];
    LinkFrame<T>& fr = frames[k];
    Mat33<T> rp;
    Vec3<T> op;
    parent_frame(frames, l.parent, rp, op);
    const Mat33<T> r0 = rp * to_matrix(l.quat);
    const Vec3<T> o0 = op + rp * l.pos;
    const Vec3<T> axis = r0 * l.axis;
    if (l.joint == int(LinkJoint::Hinge)) {
      const Vec3<T> anchor = o0 + r0 * l.anchor;
      fr.rot = r0 * to_matrix(quat_from_axis_angle(l.axis, q[l.position]));
      fr.origin = anchor - fr.rot * l.anchor;
      fr.motion[0] = {axis, cross(anchor, axis)};
    } else if (l.joint == int(LinkJoint::Slide)) {
      fr.rot = r0;
      fr.origin = o0 + q[l.position] * axis;
      fr.motion[0] = {{0, 0, 0}, axis};
    } else if (l.joint == int(LinkJoint::Ball) || l.joint == int(LinkJoint::Free)) {
      const bool free = l.joint == int(LinkJoint::Free);
      const T* turn = q + l.position + (free ? 3 : 0);
      const Vec3<T> shift = free ? Vec3<T>{q[l.position], q[l.position + 1], q[l.position + 2]} : Vec3<T>{0, 0, 0};
      const Vec3<T> anchor = o0 + shift + r0 * l.anchor;
      fr.rot = r0 * to_matrix(joint_rotation(turn));
      fr.origin = anchor - fr.rot * l.anchor;
      for (int c = 0; c < 3; ++c) {
        const Vec3<T> e = fr.rot * Vec3<T>{T(c == 0), T(c == 1), T(c == 2)};
        if (free) fr.motion[c] = {{0, 0, 0}, {T(c == 0), T(c == 1), T(c == 2)}};
        fr.motion[c + (free ? 3 : 0)] = {e, cross(anchor, e)};
      }
    } else {
      fr.rot = r0, fr.origin = o0;
    }
    fr.inertia = {l.mass, fr.origin + fr.rot * l.com, fr.rot * l.inertia * transpose(fr.rot)};
  }
}

// The link's velocity relative to its parent, its joint's motions times their rates.
template <class T>
NUDGE_HD Spatial<T> joint_velocity(const LinkModel<T>& l, const LinkFrame<T>& fr, const T* rate) {
  Spatial<T> w = zero_spatial<T>();
  for (int c = 0; c < l.dofs; ++c) w += rate[l.dof + c] * fr.motion[c];
  return w;
}

// A free joint's translations are fixed in the world while its rotations turn with the
// link, so its motions' own rate adds (translation rate) x (rotation's velocity) to the
// link's acceleration; every other joint's motions move with its parent or its link,
// whose rate v_parent x w the recursion adds for all. That term's linear part, given w's
// angular part from the rotations:
template <class T>
NUDGE_HD Vec3<T> free_joint_coriolis(const LinkModel<T>& l, const LinkFrame<T>& fr, const T* qd) {
  Vec3<T> turn{0, 0, 0};
  for (int c = 3; c < 6; ++c) turn += qd[l.dof + c] * fr.motion[c].ang;
  return cross(Vec3<T>{qd[l.dof], qd[l.dof + 1], qd[l.dof + 2]}, turn);
}

// Where a ball's or free joint's rotation starts among its entries (of q and of qd alike):
// 0 for a ball, 3 for a free joint (after its shifts); -1 for a joint without one.
template <class T>
NUDGE_HD int joint_turn_offset(const LinkModel<T>& l) {
  return l.joint == int(LinkJoint::Ball) ? 0 : l.joint == int(LinkJoint::Free) ? 3 : -1;
}

// dL/dq of the link's joint from the wrench its subtree feels (dL per twist of the link,
// world coordinates about the origin): a hinge or a slide moves the subtree along its
// motion, a free joint's translation along the world's axes, and a ball's or a free
// joint's rotation by a turn of the link (joint_rotation.h maps that to its four numbers).
template <class T>
NUDGE_HD void add_joint_position_adjoint(const LinkModel<T>& l, const LinkFrame<T>& fr, const T* q, Spatial<T> wrench,
                                         T* adj_q) {
  if (l.joint == int(LinkJoint::Hinge) || l.joint == int(LinkJoint::Slide)) {
    adj_q[l.position] += dot(fr.motion[0], wrench);
  } else if (joint_turn_offset(l) >= 0) {
    const int turn = joint_turn_offset(l);
    if (turn)
      adj_q[l.position] += wrench.lin.x, adj_q[l.position + 1] += wrench.lin.y, adj_q[l.position + 2] += wrench.lin.z;
    const Vec3<T> adj_theta{dot(fr.motion[turn], wrench), dot(fr.motion[turn + 1], wrench),
                            dot(fr.motion[turn + 2], wrench)};
    adj_joint_rotation_turn(q + l.position + turn, adj_theta, adj_q + l.position + turn);
  }
}

// Whether the link's c-th motion turns with the link (hinges, slides, balls, a free
// joint's rotations), so that a twist d of the link moves it by d x motion; a free
// joint's translations stay fixed in the world.
template <class T>
NUDGE_HD bool motion_moves_with_link(const LinkModel<T>& l, int c) {
  return !(l.joint == int(LinkJoint::Free) && c < 3);
}

// RNEA at (qd, qdd) on frames from link_frames: each link's v, a, f and subtree force,
// and r = M qdd + c (gravity, the velocity terms and, with contacts, minus their
// generalised force) into out, one per coordinate. The contacts see the velocity at
// qd + contact_dt qdd: the step's new rate with contact_dt = dt (implicit in velocity).
template <class T>
NUDGE_HD_NOINLINE void inverse_dynamics(const TreeModel& tree, const LinkModel<T>* links, const T* qd, const T* qdd,
                                        Vec3<T> gravity, LinkFrame<T>* frames, T* out,
                                        const LinkContacts<T>* contacts = nullptr, T contact_dt = T(0)) {
  const bool touching = contacts && contacts->active();
  const int end = tree.first_link + tree.links;
  for (int k = tree.first_link; k < end; ++k) {
    const LinkModel<T>& l = links[k];
    LinkFrame<T>& fr = frames[k];
    Spatial<T> vp = zero_spatial<T>(), ap = {{0, 0, 0}, -gravity};
    if (l.parent >= 0) vp = frames[l.parent].v, ap = frames[l.parent].a;
    const Spatial<T> w = joint_velocity(l, fr, qd);
    fr.v = vp + w;
    fr.a = ap + cross_motion(fr.v, w) + joint_velocity(l, fr, qdd);
    if (l.joint == int(LinkJoint::Free)) fr.a.lin += free_joint_coriolis(l, fr, qd);
    fr.f = apply_inertia(fr.inertia, fr.a) + cross_force(fr.v, apply_inertia(fr.inertia, fr.v));
    if (touching) {
      fr.vc = l.parent >= 0 ? frames[l.parent].vc : zero_spatial<T>();
      for (int c = 0; c < l.dofs; ++c) fr.vc += (qd[l.dof + c] + contact_dt * qdd[l.dof + c]) * fr.motion[c];
      fr.f += T(-1) * link_contact_wrench(*contacts, k, l.mass, fr.rot, fr.origin, fr.vc);
    }
    if (contacts && contacts->external) fr.f += T(-1) * contacts->external[k];
    fr.subtree = fr.f;
  }
  for (int k = end - 1; k >= tree.first_link; --k) {
    const LinkModel<T>& l = links[k];
    for (int c = 0; c < l.dofs; ++c) out[l.dof + c] = dot(frames[k].motion[c], frames[k].subtree);
    if (l.parent >= 0) frames[l.parent].subtree += frames[k].subtree;
  }
}

// CRBA: the joint-space mass matrix (dofs x dofs, row-major, the tree's own coordinates)
// on frames from link_frames.
template <class T>
NUDGE_HD_NOINLINE void mass_matrix(const TreeModel& tree, const LinkModel<T>* links, LinkFrame<T>* frames, T* m) {
  const int end = tree.first_link + tree.links, n = tree.dofs;
  for (int i = 0; i < n * n; ++i) m[i] = 0;  // coordinates on different branches do not couple
  for (int k = tree.first_link; k < end; ++k) frames[k].composite = composite_of(frames[k].inertia);
  for (int k = end - 1; k >= tree.first_link; --k) {
    const int p = links[k].parent;
    if (p < 0) continue;
    CompositeInertia<T>& c = frames[p].composite;
    const CompositeInertia<T>& own = frames[k].composite;
    c.mass += own.mass, c.moment += own.moment, c.rot += own.rot;
  }
  for (int k = tree.first_link; k < end; ++k) {
    for (int c = 0; c < links[k].dofs; ++c) {
      const int i = links[k].dof + c - tree.first_dof;
      const Spatial<T> force = apply_composite(frames[k].composite, frames[k].motion[c]);
      for (int j = k; j >= 0; j = links[j].parent)
        for (int e = 0; e < links[j].dofs; ++e) {
          const int d = links[j].dof + e - tree.first_dof;
          const T value = dot(frames[j].motion[e], force);
          m[i * n + d] = value;
          m[d * n + i] = value;
        }
    }
  }
}

// In place: the lower Cholesky factor L of a symmetric positive definite n x n matrix
// (the upper triangle is left as it was). False if it is not positive definite.
template <class T>
NUDGE_HD bool cholesky_factor(T* a, int n) {
  for (int j = 0; j < n; ++j) {
    T d = a[j * n + j];
    for (int k = 0; k < j; ++k) d -= a[j * n + k] * a[j * n + k];
    if (!(d > T(0))) return false;
    d = std::sqrt(d);
    a[j * n + j] = d;
    for (int i = j + 1; i < n; ++i) {
      T s = a[i * n + j];
      for (int k = 0; k < j; ++k) s -= a[i * n + k] * a[j * n + k];
      a[i * n + j] = s / d;
    }
  }
  return true;
}

// In place: A = L U (Doolittle: L unit lower), without pivoting. The step's matrix with
// contacts is M~ plus dt times the contacts' damping and friction, whose symmetric part is
// positive definite. False on a zero pivot.
template <class T>
NUDGE_HD bool lu_factor(T* a, int n) {
  for (int k = 0; k < n; ++k) {
    const T pivot = a[k * n + k];
    if (!(std::fabs(pivot) > T(0))) return false;
    for (int i = k + 1; i < n; ++i) {
      const T l = a[i * n + k] / pivot;
      a[i * n + k] = l;
      for (int j = k + 1; j < n; ++j) a[i * n + j] -= l * a[k * n + j];
    }
  }
  return true;
}

// In place: x = (L U)^-1 b.
template <class T>
NUDGE_HD void lu_solve(const T* a, int n, T* b) {
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < i; ++k) b[i] -= a[i * n + k] * b[k];
  for (int i = n - 1; i >= 0; --i) {
    for (int k = i + 1; k < n; ++k) b[i] -= a[i * n + k] * b[k];
    b[i] /= a[i * n + i];
  }
}

// In place: x = (L U)^-T b.
template <class T>
NUDGE_HD void lu_solve_transposed(const T* a, int n, T* b) {
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < i; ++k) b[i] -= a[k * n + i] * b[k];
    b[i] /= a[i * n + i];
  }
  for (int i = n - 1; i >= 0; --i)
    for (int k = i + 1; k < n; ++k) b[i] -= a[k * n + i] * b[k];
}

// In place: x = (L L^T)^-1 b.
template <class T>
NUDGE_HD void cholesky_solve(const T* l, int n, T* b) {
  for (int i = 0; i < n; ++i) {
    T s = b[i];
    for (int k = 0; k < i; ++k) s -= l[i * n + k] * b[k];
    b[i] = s / l[i * n + i];
  }
  for (int i = n - 1; i >= 0; --i) {
    T s = b[i];
    for (int k = i + 1; k < n; ++k) s -= l[k * n + i] * b[k];
    b[i] = s / l[i * n + i];
  }
}

// What one step reads besides the state.
template <class T>
struct TreeStepInputs {
  const LinkModel<T>* links;
  const DofModel<T>* dofs;
  const DofActuator<T>* actuators;
  int actuator_count;  // all trees': each acts on its own coordinates
  const T* controls;   // the step's row of the controls table (channels), or null
  Vec3<T> gravity;
  T dt;
  LinkContacts<T> contacts;  // none by default
};

// Scratch of a step: frames per link, two matrices per tree (the factor, and M~ while
// contacts are solved for), five arrays per coordinate.
template <class T>
struct TreeScratch {
  LinkFrame<T>* frames;
  T* matrix;
  T* tau;  // generalised force of the actuators and limits
  T* qdd;
  T* work;
  T* mass;  // M~, with contacts
  T* step;  // Newton's step, with contacts
  T* base;  // qdd before it
};

// The control an actuator reads: its channel's, clamped to its ctrlrange; inside says
// whether the clamp let it through (its derivative is 1, else 0).
template <class T>
NUDGE_HD T actuator_control(const TreeStepInputs<T>& in, const DofActuator<T>& act, bool& inside) {
  T u = in.controls && act.channel >= 0 ? in.controls[act.channel] : T(0);
  inside = true;
  if (act.ctrl_limited && (u < act.ctrl_lower || u > act.ctrl_upper)) {
    inside = false;
    u = u < act.ctrl_lower ? act.ctrl_lower : act.ctrl_upper;
  }
  return u;
}

// An actuator's force f (before its gear) at its control u, clamped to its forcerange;
// free says whether the clamp let it through (its derivatives are the affine terms', else 0).
template <class T>
NUDGE_HD T actuator_force(const DofActuator<T>& act, T u, T q, T qd, bool& free) {
  const T force = act.gain * u + act.bias_q * act.gear * q + act.bias_qd * act.gear * qd;
  free = !(act.force_limited && (force < act.force_lower || force > act.force_upper));
  if (free) return force;
  return force < act.force_lower ? act.force_lower : act.force_upper;
}

// A coordinate's limit force, 0 inside its range: past a bound, -k (q - bound) - b qd,
// never pulling q outwards (a limit pushes, as MuJoCo's unilateral constraint does). Its
// derivatives in q and qd into dq and dqd.
template <class T>
NUDGE_HD T limit_force(const DofModel<T>& d, T q, T qd, T& dq, T& dqd) {
  dq = dqd = T(0);
  if (!d.limited) return T(0);
  const bool above = q > d.upper, below = q < d.lower;
  if (!above && !below) return T(0);
  const T f = -d.limit_stiffness * (q - (above ? d.upper : d.lower)) - d.limit_damping * qd;
  if (above ? f > T(0) : f < T(0)) return T(0);
  dq = -d.limit_stiffness, dqd = -d.limit_damping;
  return f;
}

// A coordinate's dry friction at the rate qd: the force F tanh(qd / v) that resists it
// (F: frictionloss, v: friction_velocity; the residual adds it), and its slope in qd,
// F / v sech^2. The step takes it linearly implicit, F tanh(qd / v) + dt slope qdd, as
// it takes damping: its slope joins M~'s diagonal, so a small v stays stable, and near
// qd = 0 the friction is a damping of F / v that holds the joint all but still.
template <class T>
struct DryFriction {
  T force, slope;
};
template <class T>
NUDGE_HD DryFriction<T> dry_friction(const DofModel<T>& d, T qd) {
  if (d.frictionloss == T(0)) return {T(0), T(0)};
  const T t = std::tanh(qd / d.friction_velocity);
  return {d.frictionloss * t, d.frictionloss / d.friction_velocity * (T(1) - t * t)};
}

// A ball's rotation as its four numbers hold it, taken apart for its cone and its spring:
// the unit rotation with w >= 0 (q and -q turn alike, as MuJoCo's mju_subQuat takes
// them), its vector part v, s = |v| and w; it turns by theta = 2 atan2(s, w) about
// a = v / s, the same axis in the link's axes and its parent's.
template <class T>
struct BallTurn {
  Quat<T> raw;  // the four numbers, as q holds them
  T sign;       // +-1: the one with w >= 0
  Vec3<T> v;
  T s, w;
  NUDGE_HD T angle() const { return T(2) * std::atan2(s, w); }
  // phi = theta a; theta / s tends to 2 / w at s = 0.
  NUDGE_HD Vec3<T> rotation_vector() const { return (s > T(1e-8) ? angle() / s : T(2) / w) * v; }
};
template <class T>
NUDGE_HD BallTurn<T> ball_turn(const T* q) {
  BallTurn<T> t;
  t.raw = Quat<T>{q[0], q[1], q[2], q[3]};
  const Quat<T> n = normalize(t.raw);
  t.sign = n.w < T(0) ? T(-1) : T(1);
  t.v = Vec3<T>{t.sign * n.x, t.sign * n.y, t.sign * n.z};
  t.s = length(t.v), t.w = t.sign * n.w;
  return t;
}
// dL/dv and dL/dw of the unit rotation back to the four numbers (through the sign and
// the normalisation), added to adj_q.
template <class T>
NUDGE_HD void adj_ball_turn(const BallTurn<T>& t, Vec3<T> adj_v, T adj_w, T* adj_q) {
  Quat<T> adj_raw{0, 0, 0, 0};
  adj_normalize(t.raw, Quat<T>{t.sign * adj_v.x, t.sign * adj_v.y, t.sign * adj_v.z, t.sign * adj_w}, adj_raw);
  adj_q[0] += adj_raw.x, adj_q[1] += adj_raw.y, adj_q[2] += adj_raw.z, adj_q[3] += adj_raw.w;
}

// A ball's cone limit (MuJoCo's ball range [0, angle]), kept as its first coordinate's
// limit (upper: the angle, in (0, pi]). Past upper, its coordinates (turns about the
// link's axes) feel the torque f a with f = -k (theta - upper) - b (qd . a), never
// pulling it further out. False, and no torque, inside the cone.
template <class T>
struct ConeLimit {
  BallTurn<T> turn;
  Vec3<T> axis;  // a
  T f;
};
template <class T>
NUDGE_HD bool cone_limit(const DofModel<T>& d, const T* q, const T* qd, ConeLimit<T>& c) {
  if (!d.limited) return false;
  c.turn = ball_turn(q);
  const T theta = c.turn.angle();
  if (!(theta > d.upper && c.turn.s > T(0))) return false;
  c.axis = (T(1) / c.turn.s) * c.turn.v;
  c.f = -d.limit_stiffness * (theta - d.upper) - d.limit_damping * dot(Vec3<T>{qd[0], qd[1], qd[2]}, c.axis);
  return c.f <= T(0);
}

// Its adjoint: lambda (dL/dtau on the ball's three coordinates) into the adjoints of the
// four numbers and the three rates.
template <class T>
NUDGE_HD void adj_cone_limit(const DofModel<T>& d, const T* qd, const ConeLimit<T>& c, Vec3<T> lambda, T* adj_q,
                             T* adj_qd) {
  const Vec3<T> a = c.axis, rate{qd[0], qd[1], qd[2]};
  const T along = dot(lambda, a), s = c.turn.s;
  const Vec3<T> adj_rate = (-d.limit_damping * along) * a;  // tau = f a
  adj_qd[0] += adj_rate.x, adj_qd[1] += adj_rate.y, adj_qd[2] += adj_rate.z;
  const Vec3<T> adj_a = c.f * lambda + (-d.limit_damping * along) * rate;
  const T adj_theta = -d.limit_stiffness * along;
  // theta = 2 atan2(s, w) with s^2 + w^2 = 1: dtheta/dv = 2 w a, dtheta/dw = -2 s; a = v / s.
  const Vec3<T> adj_v = (T(2) * c.turn.w * adj_theta) * a + (T(1) / s) * (adj_a + (-dot(a, adj_a)) * a);
  adj_ball_turn(c.turn, adj_v, T(-2) * s * adj_theta, adj_q);
}

// A ball's spring (MuJoCo's joint stiffness on a ball, toward no turn): its coordinates
// feel -k phi, phi = theta a its rotation vector, k its first coordinate's stiffness.
// The adjoint in q: lambda (dL/dtau on the three coordinates) into the four numbers'
// adjoints (dL/dk is -phi . lambda).
template <class T>
NUDGE_HD void adj_ball_spring(T k, const T* q, Vec3<T> lambda, T* adj_q) {
  const BallTurn<T> t = ball_turn(q);
  // dphi/dv = (theta / s)(1 - a a^T) + 2 w a a^T, dphi/dw = -2 s a (s^2 + w^2 = 1); at s = 0,
  // dphi/dv = (2 / w) 1 and dphi/dw = -2 v / w^2.
  Vec3<T> adj_v;
  T adj_w;
  if (t.s > T(1e-8)) {
    const Vec3<T> a = (T(1) / t.s) * t.v;
    const T along = dot(a, lambda), ratio = t.angle() / t.s;
    adj_v = (-k) * (ratio * (lambda + (-along) * a) + (T(2) * t.w * along) * a);
    adj_w = (-k) * (T(-2) * t.s * along);
  } else {
    adj_v = (-k * T(2) / t.w) * lambda;
    adj_w = (-k) * (T(-2) / (t.w * t.w)) * dot(t.v, lambda);
  }
  adj_ball_turn(t, adj_v, adj_w, adj_q);
}

// tau of the actuators and the limits acting on the tree's coordinates.
template <class T>
NUDGE_HD void actuator_forces(const TreeModel& tree, const TreeStepInputs<T>& in, const T* q, const T* qd, T* tau) {
  for (int i = tree.first_dof; i < tree.first_dof + tree.dofs; ++i) {
    T dq, dqd;
    const DofModel<T>& d = in.dofs[i];
    tau[i] = d.position >= 0 ? limit_force(d, q[d.position], qd[i], dq, dqd) : T(0);
    if (d.stiffness != T(0) && d.position >= 0) tau[i] -= d.stiffness * (q[d.position] - d.spring_ref);
  }
  for (int a = 0; a < in.actuator_count; ++a) {
    const DofActuator<T>& act = in.actuators[a];
    const int i = act.dof;
    if (i < tree.first_dof || i >= tree.first_dof + tree.dofs) continue;
    bool inside, free;
    const T u = actuator_control(in, act, inside);
    tau[i] += act.gear * actuator_force(act, u, q[act.position], qd[i], free);
  }
  for (int k = tree.first_link; k < tree.first_link + tree.links; ++k) {  // the balls' springs and cones
    const LinkModel<T>& l = in.links[k];
    if (l.joint != int(LinkJoint::Ball)) continue;
    const DofModel<T>& d = in.dofs[l.dof];
    if (d.stiffness != T(0)) {
      const Vec3<T> phi = ball_turn(q + l.position).rotation_vector();
      tau[l.dof] -= d.stiffness * phi.x, tau[l.dof + 1] -= d.stiffness * phi.y, tau[l.dof + 2] -= d.stiffness * phi.z;
    }
    ConeLimit<T> cone;
    if (!cone_limit(d, q + l.position, qd + l.dof, cone)) continue;
    tau[l.dof] += cone.f * cone.axis.x, tau[l.dof + 1] += cone.f * cone.axis.y, tau[l.dof + 2] += cone.f * cone.axis.z;
  }
}

// Adds -dt d(J^T W)/dqd to a, the tree's dofs x dofs block (tree-local): a link's contact
// wrench W(V) has a 6 x 6 Jacobian D = dW/dV at the velocity its contacts see (its rows
// from link_contact_wrench's adjoint, one unit cotangent each), and V is the sum of the
// motions of the joints above the link times their rates; so entry (i, j) gains
// -dt S_i . D S_j for each link below both joints.
template <class T>
NUDGE_HD void add_contact_damping(const TreeModel& tree, const LinkModel<T>* links, const LinkContacts<T>& c,
                                  const LinkFrame<T>* frames, T dt, T* a) {
  const int n = tree.dofs, first = tree.first_dof;
  for (int k = tree.first_link; k < tree.first_link + tree.links; ++k) {
    if (c.point_start[k] == c.point_start[k + 1]) continue;
    const LinkFrame<T>& fr = frames[k];
    Spatial<T> rows[6];
    for (int m = 0; m < 6; ++m) {
      const Spatial<T> unit{{T(m == 0), T(m == 1), T(m == 2)}, {T(m == 3), T(m == 4), T(m == 5)}};
      Spatial<T> adj_v = zero_spatial<T>(), frame = zero_spatial<T>();
      T unused[4] = {0, 0, 0, 0};
      adj_link_contact_wrench(c, k, links[k].mass, fr.rot, fr.origin, fr.vc, unit, adj_v, frame, unused[0], unused[1],
                              unused[2], unused[3]);
      rows[m] = adj_v;
    }
    for (int j = k; j >= 0; j = links[j].parent)
      for (int cj = 0; cj < links[j].dofs; ++cj) {
        const int dj = links[j].dof + cj;
        const Spatial<T>& sj = frames[j].motion[cj];
        const Spatial<T> x{{dot(rows[0], sj), dot(rows[1], sj), dot(rows[2], sj)},
                           {dot(rows[3], sj), dot(rows[4], sj), dot(rows[5], sj)}};  // D S_j, a wrench
        for (int i = k; i >= 0; i = links[i].parent)
          for (int ci = 0; ci < links[i].dofs; ++ci)
            a[(links[i].dof + ci - first) * n + (dj - first)] -= dt * dot(frames[i].motion[ci], x);
      }
  }
}

// The step's residual with contacts at qdd, into r: r = M qdd + c - J^T F(qd + dt qdd) +
// armature qdd + damping (qd + dt qdd) + friction (dry_friction) - tau. Returns its
// largest magnitude.
template <class T>
NUDGE_HD T contact_step_residual(const TreeModel& tree, const TreeStepInputs<T>& in, const T* qd,
                                 const TreeScratch<T>& s, const T* qdd, T* r) {
  inverse_dynamics(tree, in.links, qd, qdd, in.gravity, s.frames, r, &in.contacts, in.dt);
  T largest = 0;
  for (int i = tree.first_dof; i < tree.first_dof + tree.dofs; ++i) {
    const DofModel<T>& d = in.dofs[i];
    const DryFriction<T> friction = dry_friction(d, qd[i]);
    r[i] += d.armature * qdd[i] + d.damping * (qd[i] + in.dt * qdd[i]) + friction.force +
            in.dt * friction.slope * qdd[i] - s.tau[i];
    largest = std::fabs(r[i]) > largest ? std::fabs(r[i]) : largest;
  }
  return largest;
}

// With contacts the step is implicit in their velocity, as in the joints' damping: qdd
// solves contact_step_residual = 0, by Newton's method from qdd = 0 (whose first step is
// the linearised, semi-implicit one), each step halved while |r| does not fall. So stiff
// friction (a small friction_smoothing) and damping stay stable, and their gradients
// sane. dr/dqdd = M~ - dt J^T dF/dv J; its factor at the solution is left in s.matrix.
template <class T>
NUDGE_HD_NOINLINE bool implicit_contact_acceleration(const TreeModel& tree, const TreeStepInputs<T>& in, const T* qd,
                                                     const TreeScratch<T>& s) {
  constexpr int kMaxNewton = 30;
  const T tolerance = T(64) * (sizeof(T) == 4 ? T(1.1920929e-7) : T(2.220446049250313e-16));
  const int first = tree.first_dof, n = tree.dofs;
  const T* mass = s.mass + tree.matrix;
  T* jacobian = s.matrix + tree.matrix;
  const auto factor_jacobian = [&]() {
    for (int e = 0; e < n * n; ++e) jacobian[e] = mass[e];
    add_contact_damping(tree, in.links, in.contacts, s.frames, in.dt, jacobian);
    return lu_factor(jacobian, n);
  };
  for (int i = first; i < first + n; ++i) s.qdd[i] = 0;
  T norm = contact_step_residual(tree, in, qd, s, s.qdd, s.work);
  for (int iteration = 0; iteration < kMaxNewton; ++iteration) {
    if (!factor_jacobian()) return false;
    T largest_step = 0, largest_qdd = 0;
    for (int i = first; i < first + n; ++i) {
      s.step[i] = s.work[i];
      s.base[i] = s.qdd[i];
      largest_qdd = std::fabs(s.qdd[i]) > largest_qdd ? std::fabs(s.qdd[i]) : largest_qdd;
    }
    lu_solve(jacobian, n, s.step + first);
    for (int i = first; i < first + n; ++i)
      largest_step = std::fabs(s.step[i]) > largest_step ? std::fabs(s.step[i]) : largest_step;
    T scale = 1;
    for (int halving = 0;; ++halving) {
      for (int i = first; i < first + n; ++i) s.qdd[i] = s.base[i] - scale * s.step[i];
      const T next = contact_step_residual(tree, in, qd, s, s.qdd, s.work);
      if (next < norm || halving == 8) {
        norm = next;
        break;
      }
      scale *= T(0.5);
    }
    if (scale * largest_step <= tolerance * (T(1) + largest_qdd)) break;
  }
  return factor_jacobian();  // at the solution, whose frames the last residual left
}

// The step's qdd into s.qdd and the frames at q in s.frames, with the factor of
// M~ = M + armature + dt (damping + friction's slope) (Cholesky) or, with contacts, of
// dr/dqdd (LU) left in s.matrix. False where M~ is not positive definite (a tree without
// mass on some coordinate).
template <class T>
NUDGE_HD_NOINLINE bool tree_acceleration(const TreeModel& tree, const TreeStepInputs<T>& in, const T* q, const T* qd,
                                         const TreeScratch<T>& s) {
  const int first = tree.first_dof, n = tree.dofs;
  link_frames(tree, in.links, q, s.frames);
  actuator_forces(tree, in, q, qd, s.tau);
  const bool touching = in.contacts.active();
  T* m = (touching ? s.mass : s.matrix) + tree.matrix;
  mass_matrix(tree, in.links, s.frames, m);
  for (int i = 0; i < n; ++i) {
    const DofModel<T>& d = in.dofs[first + i];
    m[i * n + i] += d.armature + in.dt * (d.damping + dry_friction(d, qd[first + i]).slope);
  }
  if (touching) return implicit_contact_acceleration(tree, in, qd, s);
  for (int i = first; i < first + n; ++i) s.work[i] = 0;
  inverse_dynamics(tree, in.links, qd, s.work, in.gravity, s.frames, s.qdd, &in.contacts);  // qdd holds c
  for (int i = first; i < first + n; ++i)
    s.qdd[i] = s.tau[i] - s.qdd[i] - in.dofs[i].damping * qd[i] - dry_friction(in.dofs[i], qd[i]).force;
  if (!cholesky_factor(m, n)) return false;
  cholesky_solve(m, n, s.qdd + first);
  return true;
}

// q' from q and the new rates qd': q + dt qd' for hinges, slides and a free joint's
// translation; a ball's and a free joint's rotation turned by dt qd' (joint_rotation.h).
template <class T>
NUDGE_HD void integrate_positions(const TreeModel& tree, const LinkModel<T>* links, const T* q, const T* qd_next, T dt,
                                  T* q_next) {
  for (int k = tree.first_link; k < tree.first_link + tree.links; ++k) {
    const LinkModel<T>& l = links[k];
    const int turn = joint_turn_offset(l);
    const int shifts = turn < 0 ? l.dofs : turn;
    for (int c = 0; c < shifts; ++c) q_next[l.position + c] = q[l.position + c] + dt * qd_next[l.dof + c];
    if (turn >= 0) {
      const T* w = qd_next + l.dof + turn;
      integrate_joint_rotation(q + l.position + turn, Vec3<T>{w[0], w[1], w[2]}, dt, q_next + l.position + turn);
    }
  }
}

// Its adjoint: adj_q holds dL/dq' on entry and dL/dq (from this map) on return; the
// rates' shares are added to adj_qd. The rates integrated were qd + dt qdd (the Euler
// step's new ones) or, with qdd null, qd itself (RK4's weighted rates).
template <class T>
NUDGE_HD void adjoint_integrate_positions(const TreeModel& tree, const LinkModel<T>* links, const T* q, const T* qd,
                                          const T* qdd, T dt, T* adj_q, T* adj_qd) {
  for (int k = tree.first_link; k < tree.first_link + tree.links; ++k) {
    const LinkModel<T>& l = links[k];
    const int turn = joint_turn_offset(l);
    const int shifts = turn < 0 ? l.dofs : turn;
    for (int c = 0; c < shifts; ++c) adj_qd[l.dof + c] += dt * adj_q[l.position + c];
    if (turn >= 0) {
      const int d = l.dof + turn;
      const Vec3<T> w = qdd ? Vec3<T>{qd[d] + dt * qdd[d], qd[d + 1] + dt * qdd[d + 1], qd[d + 2] + dt * qdd[d + 2]}
                            : Vec3<T>{qd[d], qd[d + 1], qd[d + 2]};
      T* adj = adj_q + l.position + turn;
      const T adj_next[4] = {adj[0], adj[1], adj[2], adj[3]};
      Vec3<T> adj_w{0, 0, 0};
      adj_integrate_joint_rotation(q + l.position + turn, w, dt, adj_next, adj, adj_w);
      adj_qd[l.dof + turn] += adj_w.x, adj_qd[l.dof + turn + 1] += adj_w.y, adj_qd[l.dof + turn + 2] += adj_w.z;
    }
  }
}

// One semi-implicit Euler step of a tree: (q, qd) -> (q', qd').
template <class T>
NUDGE_HD_NOINLINE bool tree_step(const TreeModel& tree, const TreeStepInputs<T>& in, const T* q, const T* qd,
                                 const TreeScratch<T>& s, T* q_next, T* qd_next) {
  if (!tree_acceleration(tree, in, q, qd, s)) return false;
  for (int i = tree.first_dof; i < tree.first_dof + tree.dofs; ++i) qd_next[i] = qd[i] + in.dt * s.qdd[i];
  integrate_positions(tree, in.links, q, qd_next, in.dt, q_next);
  return true;
}

// dL/d(an actuator's gain, bias_q, bias_qd), per actuator; null: not wanted.
template <class T>
struct DofActuatorGrad {
  T* gain;
  T* bias_q;
  T* bias_qd;
};

// Where a step's adjoint adds the parameters' gradients (per link, per coordinate, per
// actuator; null: not wanted).
template <class T>
struct TreeGrad {
  T* mass;            // per link
  Vec3<T>* com;       // per link, in its frame
  Mat33<T>* inertia;  // per link (the full matrix's entries; a symmetric parameter sums pairs)
  Vec3<T>* pos;       // per link, in its parent's frame
  T* armature;        // per coordinate
  T* damping;
  DofActuatorGrad<T> actuator;  // per actuator
  T* controls;                  // the step's row of dL/dcontrols (channels)
  Vec3<T>* gravity;             // one per tree
  LinkContactGrad<T> contact;   // one share per tree
  LinkPointGrad<T> points;      // per contact point (articulation_contact.h)
  T* stiffness;                 // per coordinate: a hinge's or slide's spring
  T* spring_ref;
  T* frictionloss;  // per coordinate
};

// RNEA's adjoint at the motion inverse_dynamics left in the frames (at q, qd, qdd): adds
// mu^T dr/dz to the adjoint of each input z (q and qd per coordinate, the links'
// parameters, gravity). Root to leaves, dL/d(subtree force) is the parent's plus mu along
// the link's motion; leaves to root, each link's dL/dv and dL/da (its children's shares
// already in), then its frame's share as a wrench, summed over its subtree like a force.
template <class T>
NUDGE_HD_NOINLINE void adjoint_inverse_dynamics(const TreeModel& tree, const LinkModel<T>* links, const T* q,
                                                const T* qd, const T* qdd, const T* mu, LinkFrame<T>* frames, T* adj_q,
                                                T* adj_qd, const TreeGrad<T>& grad, int tree_index,
                                                const LinkContacts<T>* contacts = nullptr, T contact_dt = T(0)) {
  const int first = tree.first_link, end = tree.first_link + tree.links;
  const bool touching = contacts && contacts->active();
  for (int k = first; k < end; ++k) {
    const LinkModel<T>& l = links[k];
    LinkFrame<T>& fr = frames[k];
    fr.adj_subtree = l.parent >= 0 ? frames[l.parent].adj_subtree : zero_spatial<T>();
    fr.adj_subtree += joint_velocity(l, fr, mu);
    fr.adj_v = fr.adj_a = fr.wrench = fr.adj_vc = zero_spatial<T>();
  }
  for (int k = end - 1; k >= first; --k) {
    const LinkModel<T>& l = links[k];
    LinkFrame<T>& fr = frames[k];
    const BodyInertiaWorld<T>& in = fr.inertia;
    Spatial<T> adj_motion[kMaxJointDofs];
    for (int c = 0; c < l.dofs; ++c) adj_motion[c] = mu[l.dof + c] * fr.subtree;
    T adj_mass = 0;
    Vec3<T> adj_com{0, 0, 0};
    Mat33<T> adj_rot = zero33<T>();
    // f = I a + v x* (I v)
    const Spatial<T> fbar = fr.adj_subtree;
    fr.adj_a += apply_inertia(in, fbar);
    adj_apply_inertia(in, fr.a, fbar, adj_mass, adj_com, adj_rot);
    const Spatial<T> h = apply_inertia(in, fr.v);
    fr.adj_v += Spatial<T>{cross(h.ang, fbar.ang) + cross(h.lin, fbar.lin), cross(h.lin, fbar.ang)};
    const Spatial<T> hbar = {cross(fbar.ang, fr.v.ang), cross(fbar.ang, fr.v.lin) + cross(fbar.lin, fr.v.ang)};
    fr.adj_v += apply_inertia(in, hbar);
    adj_apply_inertia(in, fr.v, hbar, adj_mass, adj_com, adj_rot);
    // f -= the external wrench, a constant of the step
    if (contacts && contacts->adj_external) contacts->adj_external[k] += T(-1) * fbar;
    // f -= the contacts' wrench (of the link's velocity and of points its frame carries)
    if (touching) {
      T stiffness = 0, damping = 0, friction = 0;
      adj_link_contact_wrench(*contacts, k, l.mass, fr.rot, fr.origin, fr.vc, T(-1) * fbar, fr.adj_vc, fr.wrench,
                              adj_mass, stiffness, damping, friction, grad.points);
      if (grad.contact.stiffness) grad.contact.stiffness[tree_index] += stiffness;
      if (grad.contact.damping) grad.contact.damping[tree_index] += damping;
      if (grad.contact.friction) grad.contact.friction[tree_index] += friction;
      // vc = vc_parent + motion (qd + contact_dt qdd): qdd is the step's unknown, so only
      // qd and the motion take its share here.
      const Spatial<T> vcbar = fr.adj_vc;
      if (l.parent >= 0) frames[l.parent].adj_vc += vcbar;
      for (int c = 0; c < l.dofs; ++c) {
        adj_qd[l.dof + c] += dot(fr.motion[c], vcbar);
        adj_motion[c] += (qd[l.dof + c] + contact_dt * qdd[l.dof + c]) * vcbar;
      }
    }
    // a = a_parent + v x w + motion qdd (+ a free joint's own term), w = motion qd
    const Spatial<T> w = joint_velocity(l, fr, qd);
    const Spatial<T> abar = fr.adj_a;
    if (l.parent >= 0)
      frames[l.parent].adj_a += abar;
    else if (grad.gravity)
      grad.gravity[tree_index] += -abar.lin;
    fr.adj_v += Spatial<T>{cross(w.ang, abar.ang) + cross(w.lin, abar.lin), cross(w.ang, abar.lin)};
    Spatial<T> wbar = {cross(abar.ang, fr.v.ang) + cross(abar.lin, fr.v.lin), cross(abar.lin, fr.v.ang)};
    // v = v_parent + w
    wbar += fr.adj_v;
    if (l.parent >= 0) frames[l.parent].adj_v += fr.adj_v;
    for (int c = 0; c < l.dofs; ++c) {
      adj_qd[l.dof + c] += dot(fr.motion[c], wbar);
      adj_motion[c] += qd[l.dof + c] * wbar + qdd[l.dof + c] * abar;
    }
    if (l.joint == int(LinkJoint::Free)) {  // a.lin += shift rate x turn, turn = sum of qd motion.ang
      const Vec3<T> shift{qd[l.dof], qd[l.dof + 1], qd[l.dof + 2]};
      Vec3<T> turn{0, 0, 0};
      for (int c = 3; c < 6; ++c) turn += qd[l.dof + c] * fr.motion[c].ang;
      const Vec3<T> adj_shift = cross(turn, abar.lin), adj_turn = cross(abar.lin, shift);
      adj_qd[l.dof] += adj_shift.x, adj_qd[l.dof + 1] += adj_shift.y, adj_qd[l.dof + 2] += adj_shift.z;
      for (int c = 3; c < 6; ++c) {
        adj_qd[l.dof + c] += dot(fr.motion[c].ang, adj_turn);
        adj_motion[c].ang += qd[l.dof + c] * adj_turn;
      }
    }
    // The link's frame carries its joint's motions (those that turn with it) and its
    // inertia: moved by a twist d, motion' = d x motion, com' = com + d's velocity there,
    // rot' = [d]x rot - rot [d]x.
    Spatial<T> carried = zero_spatial<T>();
    for (int c = 0; c < l.dofs; ++c) {
      if (!motion_moves_with_link(l, c)) continue;
      const Spatial<T> s = fr.motion[c];
      carried.ang += cross(s.ang, adj_motion[c].ang) + cross(s.lin, adj_motion[c].lin);
      carried.lin += cross(s.ang, adj_motion[c].lin);
    }
    fr.wrench.ang += carried.ang + cross(in.com, adj_com) + skew_trace(in.rot * transpose(adj_rot)) +
                     T(-1) * skew_trace(transpose(adj_rot) * in.rot);
    fr.wrench.lin += carried.lin + adj_com;
    // A joint moves its subtree; the link's placement moves it along the parent's axes.
    add_joint_position_adjoint(l, fr, q, fr.wrench, adj_q);
    Mat33<T> rp;
    Vec3<T> op;
    parent_frame(frames, l.parent, rp, op);
    if (grad.mass) grad.mass[k] += adj_mass;
    if (grad.com) grad.com[k] += mul_transpose(fr.rot, adj_com);
    if (grad.inertia) grad.inertia[k] += transpose(fr.rot) * adj_rot * fr.rot;
    if (grad.pos) grad.pos[k] += mul_transpose(rp, fr.wrench.lin);
    if (l.parent >= 0) frames[l.parent].wrench += fr.wrench;
  }
}

// The adjoint of tree_acceleration, called after it and after inverse_dynamics at its qdd
// (so the frames hold that motion; contact_dt as the step saw its contacts): s.work holds
// dL/dqdd on entry. Every input's share is added: q's to adj_q, qd's to adj_qd, the
// parameters' to grad.
template <class T>
NUDGE_HD_NOINLINE void adjoint_tree_acceleration(const TreeModel& tree, const TreeStepInputs<T>& in, const T* q,
                                                 const T* qd, const TreeScratch<T>& s, T* adj_q, T* adj_qd,
                                                 const TreeGrad<T>& grad, int tree_index) {
  const bool touching = in.contacts.active();
  const int first = tree.first_dof, n = tree.dofs;
  // lambda = (dr/dqdd)^-T dL/dqdd: M~ is symmetric; with contacts, dr/dqdd need not be.
  if (touching)
    lu_solve_transposed(s.matrix + tree.matrix, n, s.work + first);
  else
    cholesky_solve(s.matrix + tree.matrix, n, s.work + first);
  // tau enters r with a minus sign: dL/dtau = lambda, and every other input z of r gets
  // mu^T dr/dz with mu = -lambda.
  for (int a = 0; a < in.actuator_count; ++a) {
    const DofActuator<T>& act = in.actuators[a];
    const int i = act.dof;
    if (i < first || i >= first + n) continue;
    bool inside, free;
    const T u = actuator_control(in, act, inside);
    actuator_force(act, u, q[act.position], qd[i], free);
    if (!free) continue;         // a clamped force moves with nothing
    const T lambda = s.work[i];  // dL/dtau; dL/df = gear lambda
    if (grad.controls && act.channel >= 0 && inside) grad.controls[act.channel] += act.gear * act.gain * lambda;
    if (grad.actuator.gain) grad.actuator.gain[a] += act.gear * u * lambda;
    if (grad.actuator.bias_q) grad.actuator.bias_q[a] += act.gear * act.gear * q[act.position] * lambda;
    if (grad.actuator.bias_qd) grad.actuator.bias_qd[a] += act.gear * act.gear * qd[i] * lambda;
    adj_q[act.position] += act.gear * act.bias_q * act.gear * lambda;
    adj_qd[i] += act.gear * act.bias_qd * act.gear * lambda;
  }
  for (int k = tree.first_link; k < tree.first_link + tree.links; ++k) {  // the balls' springs and cones, as tau
    const LinkModel<T>& l = in.links[k];
    if (l.joint != int(LinkJoint::Ball)) continue;
    const DofModel<T>& d = in.dofs[l.dof];
    const Vec3<T> lambda{s.work[l.dof], s.work[l.dof + 1], s.work[l.dof + 2]};
    if (grad.stiffness) grad.stiffness[l.dof] -= dot(lambda, ball_turn(q + l.position).rotation_vector());
    if (d.stiffness != T(0)) adj_ball_spring(d.stiffness, q + l.position, lambda, adj_q + l.position);
    ConeLimit<T> cone;
    if (cone_limit(d, q + l.position, qd + l.dof, cone))
      adj_cone_limit(d, qd + l.dof, cone, lambda, adj_q + l.position, adj_qd + l.dof);
  }
  for (int i = first; i < first + n; ++i) {
    const DofModel<T>& d = in.dofs[i];
    if (d.position >= 0) {
      T dq, dqd;  // the limit's force enters as tau does
      limit_force(d, q[d.position], qd[i], dq, dqd);
      adj_q[d.position] += dq * s.work[i];
      adj_qd[i] += dqd * s.work[i];
      // the spring's -stiffness (q - spring_ref) too
      if (d.stiffness != T(0)) adj_q[d.position] -= d.stiffness * s.work[i];
      if (grad.stiffness) grad.stiffness[i] -= (q[d.position] - d.spring_ref) * s.work[i];
      if (grad.spring_ref) grad.spring_ref[i] += d.stiffness * s.work[i];
    }
    const T mu = -s.work[i];
    s.tau[i] = mu;
    if (grad.armature) grad.armature[i] += mu * s.qdd[i];
    if (grad.damping) grad.damping[i] += mu * (in.dt * s.qdd[i] + qd[i]);
    adj_qd[i] += mu * in.dofs[i].damping;
    // the friction's F tanh(qd / v) + dt slope qdd, whose slope F / v sech^2 has the
    // derivative -2 slope tanh / v in qd; dL/dF is wanted at F = 0 too, where
    // dry_friction skips the tanh
    if (d.friction_velocity != T(0) && (d.frictionloss != T(0) || grad.frictionloss)) {
      const T t = std::tanh(qd[i] / d.friction_velocity), sech2 = T(1) - t * t;
      if (grad.frictionloss) grad.frictionloss[i] += mu * (t + in.dt * s.qdd[i] * sech2 / d.friction_velocity);
      const T slope = d.frictionloss / d.friction_velocity * sech2;
      adj_qd[i] += mu * slope * (T(1) - T(2) * in.dt * s.qdd[i] * t / d.friction_velocity);
    }
  }
  adjoint_inverse_dynamics(tree, in.links, q, qd, s.qdd, s.tau, s.frames, adj_q, adj_qd, grad, tree_index, &in.contacts,
                           in.dt);
}

// The adjoint of tree_step: adj_q and adj_qd hold dL/dq' and dL/dqd' on entry and
// dL/dq and dL/dqd on return; the parameters' shares are added to grad. False where M~
// is not positive definite.
template <class T>
NUDGE_HD_NOINLINE bool adjoint_tree_step(const TreeModel& tree, const TreeStepInputs<T>& in, const T* q, const T* qd,
                                         const TreeScratch<T>& s, T* adj_q, T* adj_qd, const TreeGrad<T>& grad,
                                         int tree_index) {
  if (!tree_acceleration(tree, in, q, qd, s)) return false;
  inverse_dynamics(tree, in.links, qd, s.qdd, in.gravity, s.frames, s.work, &in.contacts,
                   in.dt);  // the motion at qdd, RNEA's adjoint reads
  // qd' = qd + dt qdd and q' from q and qd' (integrate_positions): dL/dqdd = dt dL/dqd'
  // after q's share has reached qd'.
  adjoint_integrate_positions(tree, in.links, q, qd, s.qdd, in.dt, adj_q, adj_qd);
  for (int i = tree.first_dof; i < tree.first_dof + tree.dofs; ++i) s.work[i] = in.dt * adj_qd[i];
  adjoint_tree_acceleration(tree, in, q, qd, s, adj_q, adj_qd, grad, tree_index);
  return true;
}

// The tree's kinetic and potential energy at (q, qd) (as MuJoCo's mj_energyPos and
// mj_energyVel: 1/2 qd^T M qd and -m g . com summed over links), on the frames.
template <class T>
NUDGE_HD_NOINLINE void tree_energy(const TreeModel& tree, const LinkModel<T>* links, const T* q, const T* qd,
                                   Vec3<T> gravity, LinkFrame<T>* frames, T& kinetic, T& potential) {
  link_frames(tree, links, q, frames);
  kinetic = potential = 0;
  for (int k = tree.first_link; k < tree.first_link + tree.links; ++k) {
    const LinkModel<T>& l = links[k];
    LinkFrame<T>& fr = frames[k];
    fr.v = (l.parent >= 0 ? frames[l.parent].v : zero_spatial<T>()) + joint_velocity(l, fr, qd);
    kinetic += T(0.5) * dot(fr.v, apply_inertia(fr.inertia, fr.v));
    potential -= fr.inertia.mass * dot(gravity, fr.inertia.com);
  }
}

}  // namespace nudge
