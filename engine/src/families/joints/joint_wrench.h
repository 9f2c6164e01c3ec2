// A joint between a parent body (or the world) and a child body, as stiff penalty
// springs on the directions it locks, and what it leaves free: damping, limits and a
// motor on its free direction. Each joint has an anchor and two unit axes (its axis and
// a reference perpendicular to it), given in the parent's frame and in the child's; at
// the start both sides name the same world point and axes.
//
//   P_p = x_p + R_p anchor_p,  P_c = x_c + R_c anchor_c (and their velocities)
//   e = P_c - P_p,  e' = dP_c/dt - dP_p/dt,  a = R_p axis_p (the axis, parent side)
//   Positional lock (ball, hinge, fixed): F = -k e - c e'
//   Prismatic: only across the axis, with the slide s = a . e free:
//     F = -k (e - s a) - c (e' - s' a) + (-d s' + u + limit(s)) a
//   Child feels (F at P_c), the parent (-F at P_p).
//
//   Angular, with w = w_c - w_p and b the reference axes:
//   Ball: tau = -d w (no lock)
//   Hinge: tau = k_a (a_c x a) - c_a (w - (a . w) a) + (-d (a . w) + u + limit(theta)) a,
//          theta = atan2((b_p x b_c) . a, b_p . b_c), the turn about the axis in (-pi, pi]
//   Fixed, prismatic: tau = k_a / 2 (a_c x a + b_c x b_p + t_c x t_p) - c_a w,  t = a x b
//   Child feels tau, the parent -tau.
// (For a small turn by theta about n, sum over an orthonormal basis of R e_k x e_k is
// -2 theta n, so the fixed lock's torque is -k_a theta n.) limit(z) pushes back with
// limit stiffness k_l past [lower, upper]. u is the motor's torque (hinge) or force
// (prismatic) at this step, a control.
#pragma once

#include <cmath>

#include "families/body_contacts/body_pair_contact.h"

namespace nudge {

enum class JointKind : int { Ball = 0, Hinge = 1, Prismatic = 2, Fixed = 3 };

template <class T>
struct JointFrame {  // local to each side: the parent's frame (the world's for no parent) and the child's
  Vec3<T> anchor_p, anchor_c, axis_p, axis_c, ref_p, ref_c;
};

template <class T>
NUDGE_HD JointFrame<T> zero_joint_frame() {
  const Vec3<T> zero{0, 0, 0};
  return {zero, zero, zero, zero, zero, zero};
}

template <class T>
struct JointLaw {
  JointKind kind;
  T stiffness, damping;                  // the positional lock (N/m, N s/m)
  T angular_stiffness, angular_damping;  // the angular lock (N m/rad, N m s/rad)
  T joint_damping;                       // on the free direction (N m s/rad or N s/m)
  T control;                             // the motor's torque or force at this step
  bool limited;
  T lower, upper, limit_stiffness;
};

namespace joint_detail {

// The push back past the limits, and its derivative.
template <class T>
NUDGE_HD T limit_force(const JointLaw<T>& law, T z) {
  if (!law.limited) return 0;
  if (z < law.lower) return law.limit_stiffness * (law.lower - z);
  if (z > law.upper) return law.limit_stiffness * (law.upper - z);
  return 0;
}
template <class T>
NUDGE_HD T limit_slope(const JointLaw<T>& law, T z) {
  return law.limited && (z < law.lower || z > law.upper) ? -law.limit_stiffness : T(0);
}

// What both passes need.
template <class T>
struct Pieces {
  Vec3<T> rp, rc, e, ev, a, ac, bp, bc, w;
  T s, sd, theta, x, y;  // prismatic slide and its rate; hinge angle and atan2's arguments
};

template <class T>
NUDGE_HD Pieces<T> pieces(const JointFrame<T>& f, const BodyState<T>& sp, const BodyState<T>& sc) {
  Pieces<T> p;
  p.rp = rotate(sp.q, f.anchor_p);
  p.rc = rotate(sc.q, f.anchor_c);
  p.e = (sc.x + p.rc) - (sp.x + p.rp);
  p.ev = (sc.v + cross(sc.w, p.rc)) - (sp.v + cross(sp.w, p.rp));
  p.a = rotate(sp.q, f.axis_p);
  p.ac = rotate(sc.q, f.axis_c);
  p.bp = rotate(sp.q, f.ref_p);
  p.bc = rotate(sc.q, f.ref_c);
  p.w = sc.w - sp.w;
  p.s = dot(p.a, p.e);
  p.sd = dot(p.a, p.ev);
  p.y = dot(cross(p.bp, p.bc), p.a);
  p.x = dot(p.bp, p.bc);
  p.theta = std::atan2(p.y, p.x);
  return p;
}

}  // namespace joint_detail

// The wrenches on the parent (a) and the child (b), about their centres of mass.
template <class T>
NUDGE_HD PairWrench<T> joint_wrench(const JointLaw<T>& law, const JointFrame<T>& f, const BodyState<T>& sp,
                                    const BodyState<T>& sc) {
  using namespace joint_detail;
  const Pieces<T> p = pieces(f, sp, sc);
  Vec3<T> force, tau{};  // tau: every JointKind sets it; {} for the compiler, which cannot see that
  if (law.kind == JointKind::Prismatic) {
    const T h = -law.joint_damping * p.sd + law.control + limit_force(law, p.s);
    force = -law.stiffness * (p.e - p.s * p.a) - law.damping * (p.ev - p.sd * p.a) + h * p.a;
  } else {
    force = -law.stiffness * p.e - law.damping * p.ev;
  }
  switch (law.kind) {
    case JointKind::Ball: tau = -law.joint_damping * p.w; break;
    case JointKind::Hinge: {
      const T wa = dot(p.a, p.w);
      const T g = -law.joint_damping * wa + law.control + limit_force(law, p.theta);
      tau = law.angular_stiffness * cross(p.ac, p.a) - law.angular_damping * (p.w - wa * p.a) + g * p.a;
      break;
    }
    case JointKind::Prismatic:
    case JointKind::Fixed: {
      const Vec3<T> lock = cross(p.ac, p.a) + cross(p.bc, p.bp) + cross(cross(p.ac, p.bc), cross(p.a, p.bp));
      tau = (law.angular_stiffness / T(2)) * lock - law.angular_damping * p.w;
      break;
    }
  }
  return {{-force, -cross(p.rp, force) - tau}, {force, cross(p.rc, force) + tau}};
}

// Adds the adjoints of joint_wrench's inputs: both states, the frame, and the joint
// damping's and the control's shares.
template <class T>
NUDGE_HD void adj_joint_wrench(const JointLaw<T>& law, const JointFrame<T>& f, const BodyState<T>& sp,
                               const BodyState<T>& sc, const PairWrench<T>& adj_ret, BodyState<T>& adj_sp,
                               BodyState<T>& adj_sc, JointFrame<T>& adj_f, T& adj_joint_damping, T& adj_control) {
  using namespace joint_detail;
  const Pieces<T> p = pieces(f, sp, sc);
  Vec3<T> force;
  T h = 0;
  if (law.kind == JointKind::Prismatic) {
    h = -law.joint_damping * p.sd + law.control + limit_force(law, p.s);
    force = -law.stiffness * (p.e - p.s * p.a) - law.damping * (p.ev - p.sd * p.a) + h * p.a;
  } else {
    force = -law.stiffness * p.e - law.damping * p.ev;
  }
  Vec3<T> adj_rp{0, 0, 0}, adj_rc{0, 0, 0}, adj_a{0, 0, 0}, adj_ac{0, 0, 0}, adj_bp{0, 0, 0}, adj_bc{0, 0, 0};
  Vec3<T> adj_w{0, 0, 0}, adj_e{0, 0, 0}, adj_ev{0, 0, 0};
  T adj_s = 0, adj_sd = 0, adj_theta = 0;

  // parent: (-F, -(r_p x F) - tau); child: (F, r_c x F + tau)
  Vec3<T> adj_force = adj_ret.b.force - adj_ret.a.force;
  adj_cross(p.rc, force, adj_ret.b.torque, adj_rc, adj_force);
  adj_cross(p.rp, force, -adj_ret.a.torque, adj_rp, adj_force);
  const Vec3<T> adj_tau = adj_ret.b.torque - adj_ret.a.torque;

  switch (law.kind) {
    case JointKind::Ball:
      adj_w += -law.joint_damping * adj_tau;
      adj_joint_damping += -dot(p.w, adj_tau);
      break;
    case JointKind::Hinge: {
      const T wa = dot(p.a, p.w);
      const T g = -law.joint_damping * wa + law.control + limit_force(law, p.theta);
      adj_cross(p.ac, p.a, law.angular_stiffness * adj_tau, adj_ac, adj_a);
      adj_w += -law.angular_damping * adj_tau;
      T adj_wa = law.angular_damping * dot(p.a, adj_tau);
      adj_a += (law.angular_damping * wa + g) * adj_tau;
      const T adj_g = dot(p.a, adj_tau);
      adj_joint_damping += -wa * adj_g;
      adj_wa += -law.joint_damping * adj_g;
      adj_control += adj_g;
      adj_theta += adj_g * limit_slope(law, p.theta);
      // wa = a . w
      adj_a += adj_wa * p.w;
      adj_w += adj_wa * p.a;
      break;
    }
    case JointKind::Prismatic:
    case JointKind::Fixed: {
      const Vec3<T> h_tau = (law.angular_stiffness / T(2)) * adj_tau;
      const Vec3<T> tc = cross(p.ac, p.bc), tp = cross(p.a, p.bp);
      Vec3<T> adj_tc{0, 0, 0}, adj_tp{0, 0, 0};
      adj_cross(p.ac, p.a, h_tau, adj_ac, adj_a);
      adj_cross(p.bc, p.bp, h_tau, adj_bc, adj_bp);
      adj_cross(tc, tp, h_tau, adj_tc, adj_tp);
      adj_cross(p.ac, p.bc, adj_tc, adj_ac, adj_bc);
      adj_cross(p.a, p.bp, adj_tp, adj_a, adj_bp);
      adj_w += -law.angular_damping * adj_tau;
      break;
    }
  }

  if (law.kind == JointKind::Prismatic) {
    adj_e += -law.stiffness * adj_force;
    adj_ev += -law.damping * adj_force;
    const T adj_h = dot(p.a, adj_force);
    adj_s += law.stiffness * dot(p.a, adj_force) + adj_h * limit_slope(law, p.s);
    adj_sd += law.damping * dot(p.a, adj_force) - law.joint_damping * adj_h;
    adj_a += (law.stiffness * p.s + law.damping * p.sd + h) * adj_force;
    adj_joint_damping += -p.sd * adj_h;
    adj_control += adj_h;
  } else {
    adj_e += -law.stiffness * adj_force;
    adj_ev += -law.damping * adj_force;
  }
  // s = a . e, s' = a . e'
  adj_a += adj_s * p.e + adj_sd * p.ev;
  adj_e += adj_s * p.a;
  adj_ev += adj_sd * p.a;
  // theta = atan2(y, x), y = (b_p x b_c) . a, x = b_p . b_c
  if (adj_theta != T(0)) {
    const T r2 = p.x * p.x + p.y * p.y;
    const T adj_y = adj_theta * p.x / r2, adj_x = -adj_theta * p.y / r2;
    adj_bp += adj_x * p.bc;
    adj_bc += adj_x * p.bp;
    adj_a += adj_y * cross(p.bp, p.bc);
    adj_cross(p.bp, p.bc, adj_y * p.a, adj_bp, adj_bc);
  }
  // w = w_c - w_p
  adj_sc.w += adj_w;
  adj_sp.w += -adj_w;
  // e = x_c + r_c - x_p - r_p, e' = v_c + w_c x r_c - v_p - w_p x r_p
  adj_sc.x += adj_e;
  adj_sp.x += -adj_e;
  adj_rc += adj_e;
  adj_rp += -adj_e;
  adj_sc.v += adj_ev;
  adj_sp.v += -adj_ev;
  adj_cross(sc.w, p.rc, adj_ev, adj_sc.w, adj_rc);
  adj_cross(sp.w, p.rp, -adj_ev, adj_sp.w, adj_rp);
  // the rotated anchors and axes
  adj_rotate(sp.q, f.anchor_p, adj_rp, adj_sp.q, adj_f.anchor_p);
  adj_rotate(sc.q, f.anchor_c, adj_rc, adj_sc.q, adj_f.anchor_c);
  adj_rotate(sp.q, f.axis_p, adj_a, adj_sp.q, adj_f.axis_p);
  adj_rotate(sc.q, f.axis_c, adj_ac, adj_sc.q, adj_f.axis_c);
  adj_rotate(sp.q, f.ref_p, adj_bp, adj_sp.q, adj_f.ref_p);
  adj_rotate(sc.q, f.ref_c, adj_bc, adj_sc.q, adj_f.ref_c);
}

}  // namespace nudge
