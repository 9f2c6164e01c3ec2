// The rotation a ball or free joint carries in q: four numbers x, y, z, w, read as the
// unit quaternion they point along (so a q that drifts off unit length, or a design
// variable an optimiser moves freely, is still a rotation), turned at the rate qd (the
// angular velocity in the link's frame, as MuJoCo's ball and free joints) by the exact
// exponential, as MuJoCo's mju_quatIntegrate. Each with its adjoint in the raw four
// numbers, which is what a gradient of q means to the rest of the engine.
#pragma once

#include <cmath>

#include "nudge/quat.h"

namespace nudge {

template <class T>
NUDGE_HD Quat<T> joint_rotation(const T* q) {
  return normalize(Quat<T>{q[0], q[1], q[2], q[3]});
}

// dL/dq from dL/dtheta, where theta is a small turn of the link in its own frame
// (joint_rotation(q) times exp(theta)): theta = 2 vec(n* dn) with n the unit rotation,
// whose adjoint is 2 n (g, 0); it is normal to n, so the normalisation only scales it.
template <class T>
NUDGE_HD void adj_joint_rotation_turn(const T* q, Vec3<T> adj_theta, T* adj_q) {
  const Quat<T> raw{q[0], q[1], q[2], q[3]};
  const T inverse_length = T(1) / length(raw);
  const Quat<T> g = (T(2) * inverse_length) * (inverse_length * raw * quat_from(adj_theta, T(0)));
  adj_q[0] += g.x, adj_q[1] += g.y, adj_q[2] += g.z, adj_q[3] += g.w;
}

// exp(phi) as a unit quaternion: (sin(|phi|/2) phi/|phi|, cos(|phi|/2)); below 1e-4 rad
// by its series, whose next terms are beneath rounding.
template <class T>
NUDGE_HD Quat<T> rotation_exp(Vec3<T> phi) {
  const T angle = length(phi);
  const T s = angle < T(1e-4) ? T(0.5) - angle * angle / T(48) : std::sin(angle / 2) / angle;
  return quat_from(s * phi, std::cos(angle / 2));
}

template <class T>
NUDGE_HD void adj_rotation_exp(Vec3<T> phi, Quat<T> adj_ret, Vec3<T>& adj_phi) {
  const T angle = length(phi);
  // s(angle) = sin(angle/2)/angle and ds/dangle / angle, the latter by its series near 0.
  T s, ds_over_angle;
  if (angle < T(1e-4)) {
    s = T(0.5) - angle * angle / T(48);
    ds_over_angle = T(-1) / T(24) + angle * angle / T(960);
  } else {
    s = std::sin(angle / 2) / angle;
    ds_over_angle = (std::cos(angle / 2) / 2 - s) / (angle * angle);
  }
  // vec = s phi: d = s I + ds_over_angle phi phi^T; w = cos(angle/2): dw/dphi = -s/2 phi.
  const Vec3<T> av = adj_ret.vec();
  adj_phi += s * av + (ds_over_angle * dot(phi, av)) * phi + (T(-0.5) * s * adj_ret.w) * phi;
}

// q' = normalize(n exp(dt w)), n = joint_rotation(q): a step at the link-frame rate w.
template <class T>
NUDGE_HD void integrate_joint_rotation(const T* q, Vec3<T> w, T dt, T* q_next) {
  const Quat<T> r = normalize(joint_rotation(q) * rotation_exp(dt * w));
  q_next[0] = r.x, q_next[1] = r.y, q_next[2] = r.z, q_next[3] = r.w;
}

// Its adjoint: dL/dq' to dL/dq (set, not added: q' replaces q) and dL/dw (added).
template <class T>
NUDGE_HD void adj_integrate_joint_rotation(const T* q, Vec3<T> w, T dt, const T* adj_next, T* adj_q, Vec3<T>& adj_w) {
  const Quat<T> raw{q[0], q[1], q[2], q[3]}, n = normalize(raw), e = rotation_exp(dt * w), product = n * e;
  Quat<T> adj_product{0, 0, 0, 0}, adj_n{0, 0, 0, 0}, adj_e{0, 0, 0, 0}, adj_raw{0, 0, 0, 0};
  adj_normalize(product, Quat<T>{adj_next[0], adj_next[1], adj_next[2], adj_next[3]}, adj_product);
  adj_mul(n, e, adj_product, adj_n, adj_e);
  adj_normalize(raw, adj_n, adj_raw);
  Vec3<T> adj_phi{0, 0, 0};
  adj_rotation_exp(dt * w, adj_e, adj_phi);
  adj_w += dt * adj_phi;
  adj_q[0] = adj_raw.x, adj_q[1] = adj_raw.y, adj_q[2] = adj_raw.z, adj_q[3] = adj_raw.w;
}

}  // namespace nudge
