// Rigid bodies: one step of a body's motion, and the force a contact point of the body
// feels against a static collider, each with its adjoint. The body family (next) will
// run these per body; they are written on values, so each is checked on its own.
//
// A body's state is its centre of mass x, its orientation q (a unit quaternion, body to
// world), its linear velocity v and its angular velocity w, both in world coordinates.
// Its inertia is given in its own frame (I, and its inverse, both constant).
//
// Semi-implicit Euler, the integrator of Warp's SemiImplicitIntegrator and of MuJoCo's
// Euler in spirit, with the gyroscopic term explicit and computed in the body frame:
//   v'  = v + dt F / m
//   w_b = R^T w,  t_b = R^T tau
//   w'  = w + dt R I^-1 (t_b - w_b x (I w_b))
//   x'  = x + dt v'
//   q'  = normalize(q + dt/2 [w', 0] q)
// with R = R(q), and F, tau the force and torque about the centre of mass at step t
// (gravity included). It is first order; with no forces it keeps the momentum exactly
// and the energy up to the gyroscopic term's O(dt) drift.
#pragma once

#include "families/colliders/collider_contact.h"
#include "nudge/quat.h"

namespace nudge {

template <class T>
struct BodyState {
  Vec3<T> x;
  Quat<T> q;
  Vec3<T> v, w;
  NUDGE_HD BodyState& operator+=(const BodyState& o) {  // for adjoints, which add up
    x += o.x, q += o.q, v += o.v, w += o.w;
    return *this;
  }
};

template <class T>
struct BodyInertia {
  T mass;
  Mat33<T> inertia, inv_inertia;  // in the body's frame
};

template <class T>
struct Wrench {
  Vec3<T> force, torque;  // world frame; the torque about the centre of mass
  NUDGE_HD Wrench& operator+=(const Wrench& o) {
    force += o.force, torque += o.torque;
    return *this;
  }
};

template <class T>
NUDGE_HD BodyState<T> zero_body_state() {
  return {{0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
}

// The angular acceleration's body-frame part: I^-1 (t_b - w_b x (I w_b)).
template <class T>
NUDGE_HD Vec3<T> body_angular_acceleration(const BodyInertia<T>& inertia, Vec3<T> w_b, Vec3<T> t_b) {
  return inertia.inv_inertia * (t_b - cross(w_b, inertia.inertia * w_b));
}

template <class T>
NUDGE_HD BodyState<T> body_integrate(const BodyState<T>& s, const BodyInertia<T>& inertia, const Wrench<T>& f, T dt) {
  const Mat33<T> r = to_matrix(s.q);
  BodyState<T> next;
  next.v = s.v + (dt / inertia.mass) * f.force;
  const Vec3<T> alpha = body_angular_acceleration(inertia, mul_transpose(r, s.w), mul_transpose(r, f.torque));
  next.w = s.w + dt * (r * alpha);
  next.x = s.x + dt * next.v;
  next.q = integrate(s.q, next.w, dt);
  return next;
}

// Adds the adjoints of the inputs of body_integrate, given the next state's adjoint.
template <class T>
NUDGE_HD void adj_body_integrate(const BodyState<T>& s, const BodyInertia<T>& inertia, const Wrench<T>& f, T dt,
                                 const BodyState<T>& adj_next, BodyState<T>& adj_s, BodyInertia<T>& adj_inertia,
                                 Wrench<T>& adj_f) {
  const Mat33<T> r = to_matrix(s.q);
  const Vec3<T> w_b = mul_transpose(r, s.w), t_b = mul_transpose(r, f.torque);
  const Vec3<T> l_b = inertia.inertia * w_b;
  const Vec3<T> rhs = t_b - cross(w_b, l_b);
  const Vec3<T> alpha = inertia.inv_inertia * rhs;
  const Vec3<T> w1 = s.w + dt * (r * alpha);

  // q' = integrate(q, w', dt)
  Vec3<T> adj_w1 = adj_next.w;
  adj_integrate(s.q, w1, dt, adj_next.q, adj_s.q, adj_w1);
  // x' = x + dt v'
  adj_s.x += adj_next.x;
  const Vec3<T> adj_v1 = adj_next.v + dt * adj_next.x;
  // v' = v + dt F / m
  adj_s.v += adj_v1;
  adj_f.force += (dt / inertia.mass) * adj_v1;
  adj_inertia.mass += -dt / (inertia.mass * inertia.mass) * dot(f.force, adj_v1);
  // w' = w + dt R alpha
  adj_s.w += adj_w1;
  Mat33<T> adj_r = zero33<T>();
  Vec3<T> adj_alpha{0, 0, 0};
  adj_mul(r, alpha, dt * adj_w1, adj_r, adj_alpha);
  // alpha = I^-1 rhs,  rhs = t_b - w_b x l_b,  l_b = I w_b
  Vec3<T> adj_rhs{0, 0, 0};
  adj_mul(inertia.inv_inertia, rhs, adj_alpha, adj_inertia.inv_inertia, adj_rhs);
  Vec3<T> adj_w_b{0, 0, 0}, adj_l_b{0, 0, 0};
  adj_cross(w_b, l_b, -adj_rhs, adj_w_b, adj_l_b);
  adj_mul(inertia.inertia, w_b, adj_l_b, adj_inertia.inertia, adj_w_b);
  // w_b = R^T w, t_b = R^T tau, R = R(q)
  adj_mul_transpose(r, f.torque, adj_rhs, adj_r, adj_f.torque);
  adj_mul_transpose(r, s.w, adj_w_b, adj_r, adj_s.w);
  adj_to_matrix(s.q, adj_r, adj_s.q);
}

// A contact point of a body: at `offset` in the body's frame, with a radius (a sphere's
// centre and radius, a box's corner with radius 0). Its force against a collider acts
// where the point's sphere touches the surface, c = p - radius n, so friction turns a
// rolling sphere; as a wrench about the body's centre of mass:
//   r = R(q) offset,  p = x + r,  (phi, n) = sdf(p)
//   r_c = r - radius n,  v_c = v + w x r_c
//   F = contact_law(phi, n, v_c, radius),  tau = r_c x F
// mass: the body's (for a restitution).
template <class T>
NUDGE_HD Wrench<T> body_point_contact(const ColliderModel<T>& cm, const Collider<T>& c, const BodyState<T>& s,
                                      Vec3<T> offset, T radius, T mass = T(1)) {
  const Vec3<T> r = rotate(s.q, offset);
  const SdfSample<T> sd = collider_sdf(c, s.x + r);
  const Vec3<T> rc = r - radius * sd.normal;
  const Vec3<T> f =
      contact_law_force(contact_model_for(cm, mass), sd.distance, sd.normal, s.v + cross(s.w, rc), radius);
  return {f, cross(rc, f)};
}

// Adds the adjoints of body_point_contact's inputs: the body's state, the point's offset
// and radius, and the contact parameters' shares.
template <class T>
NUDGE_HD void adj_body_point_contact(const ColliderModel<T>& cm, const Collider<T>& c, const BodyState<T>& s,
                                     Vec3<T> offset, T radius, const Wrench<T>& adj_ret, BodyState<T>& adj_s,
                                     Vec3<T>& adj_offset, T& adj_radius, T& adj_stiffness, T& adj_damping,
                                     T& adj_friction, T mass = T(1), T* adj_mass = nullptr) {
  const Vec3<T> r = rotate(s.q, offset);
  const Vec3<T> p = s.x + r;
  const SdfSample<T> sd = collider_sdf(c, p);
  if (radius - sd.distance <= T(0) && cm.smoothing <= T(0)) return;  // no contact, no gradient
  const Vec3<T> n = sd.normal;
  const Vec3<T> rc = r - radius * n, vc = s.v + cross(s.w, rc);
  const ColliderModel<T> contact = contact_model_for(cm, mass);
  const Vec3<T> f = contact_law_force(contact, sd.distance, n, vc, radius);
  // tau = r_c x F
  Vec3<T> adj_rc{0, 0, 0}, adj_f = adj_ret.force;
  adj_cross(rc, f, adj_ret.torque, adj_rc, adj_f);
  // F = contact_law(phi, n, v_c)
  T adj_phi = 0, adj_c = 0;
  Vec3<T> adj_n{0, 0, 0}, adj_vc{0, 0, 0};
  adj_contact_law(contact, sd.distance, n, vc, radius, adj_f, adj_phi, adj_n, adj_vc, adj_stiffness, adj_c,
                  adj_friction, adj_radius);
  adj_contact_model_for(cm, mass, adj_c, adj_damping, adj_stiffness, adj_mass);
  // v_c = v + w x r_c,  r_c = r - radius n
  adj_s.v += adj_vc;
  adj_cross(s.w, rc, adj_vc, adj_s.w, adj_rc);
  adj_n += -radius * adj_rc;
  adj_radius += -dot(n, adj_rc);
  // (phi, n) = sdf(p), p = x + r
  const Vec3<T> adj_p = collider_sdf_adjoint(c, p, adj_phi, adj_n);
  adj_s.x += adj_p;
  // r = rotate(q, offset)
  adj_rotate(s.q, offset, adj_rc + adj_p, adj_s.q, adj_offset);
}

}  // namespace nudge
