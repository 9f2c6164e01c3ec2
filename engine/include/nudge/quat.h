// Quaternions for rigid-body orientation, with the adjoint of each operation beside it
// in the convention of vec3.h. Quat {x, y, z, w}: w is the scalar part. The product is
// Hamilton's, and a unit quaternion q turns a vector actively: v' = q v q*, the frame of
// a body whose orientation is q maps body coordinates to world coordinates.
#pragma once

#include <cmath>

#include "nudge/mat33.h"

namespace nudge {

// The operations and their adjoints read best one per line, as a table.
// clang-format off
template <class T>
struct Quat {
  T x, y, z, w;

  NUDGE_HD Vec3<T> vec() const { return {x, y, z}; }
  NUDGE_HD Quat& operator+=(const Quat& o) {
    x += o.x, y += o.y, z += o.z, w += o.w;
    return *this;
  }
};

template <class T> NUDGE_HD Quat<T> quat_identity() { return {0, 0, 0, 1}; }
template <class T> NUDGE_HD Quat<T> quat_from(Vec3<T> v, T w) { return {v.x, v.y, v.z, w}; }
template <class T> NUDGE_HD Quat<T> conjugate(Quat<T> q) { return {-q.x, -q.y, -q.z, q.w}; }
template <class T> NUDGE_HD T dot(Quat<T> a, Quat<T> b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }
template <class T> NUDGE_HD T length(Quat<T> q) { return std::sqrt(dot(q, q)); }
template <class T> NUDGE_HD Quat<T> operator*(T s, Quat<T> q) { return {s * q.x, s * q.y, s * q.z, s * q.w}; }
template <class T> NUDGE_HD Quat<T> operator+(Quat<T> a, Quat<T> b) { return {a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w}; }
template <class T> NUDGE_HD Quat<T> normalize(Quat<T> q) { return (T(1) / length(q)) * q; }

// Hamilton product: (p_w q_v + q_w p_v + p_v x q_v, p_w q_w - p_v . q_v)
template <class T> NUDGE_HD Quat<T> operator*(Quat<T> p, Quat<T> q) {
  const Vec3<T> pv = p.vec(), qv = q.vec();
  return quat_from(p.w * qv + q.w * pv + cross(pv, qv), p.w * q.w - dot(pv, qv));
}

// The rotation of unit axis `axis` by `angle` radians.
template <class T> NUDGE_HD Quat<T> quat_from_axis_angle(Vec3<T> axis, T angle) {
  const T s = std::sin(angle / 2);
  return quat_from(s * axis, std::cos(angle / 2));
}

// q v q* for a unit q, as v + 2w (u x v) + 2 u x (u x v), u = q's vector part.
template <class T> NUDGE_HD Vec3<T> rotate(Quat<T> q, Vec3<T> v) {
  const Vec3<T> u = q.vec(), t = cross(u, v);
  return v + (T(2) * q.w) * t + T(2) * cross(u, t);
}
// q* v q: world to body coordinates.
template <class T> NUDGE_HD Vec3<T> inverse_rotate(Quat<T> q, Vec3<T> v) { return rotate(conjugate(q), v); }

// The rotation matrix of a unit q (row-major): R v = rotate(q, v).
template <class T> NUDGE_HD Mat33<T> to_matrix(Quat<T> q) {
  const T x = q.x, y = q.y, z = q.z, w = q.w;
  return {{1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w),
           2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
           2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)}};
}

// The unit quaternion of a rotation matrix (Shepperd's method: the largest of the four
// candidates keeps the division well away from zero).
template <class T> Quat<T> quat_from_matrix(const Mat33<T>& r) {
  const T trace = r(0, 0) + r(1, 1) + r(2, 2);
  Quat<T> q{0, 0, 0, 1};
  if (trace > 0) {
    const T s = 2 * std::sqrt(1 + trace);
    q = {(r(2, 1) - r(1, 2)) / s, (r(0, 2) - r(2, 0)) / s, (r(1, 0) - r(0, 1)) / s, s / 4};
  } else if (r(0, 0) > r(1, 1) && r(0, 0) > r(2, 2)) {
    const T s = 2 * std::sqrt(1 + r(0, 0) - r(1, 1) - r(2, 2));
    q = {s / 4, (r(0, 1) + r(1, 0)) / s, (r(0, 2) + r(2, 0)) / s, (r(2, 1) - r(1, 2)) / s};
  } else if (r(1, 1) > r(2, 2)) {
    const T s = 2 * std::sqrt(1 + r(1, 1) - r(0, 0) - r(2, 2));
    q = {(r(0, 1) + r(1, 0)) / s, s / 4, (r(1, 2) + r(2, 1)) / s, (r(0, 2) - r(2, 0)) / s};
  } else {
    const T s = 2 * std::sqrt(1 + r(2, 2) - r(0, 0) - r(1, 1));
    q = {(r(0, 2) + r(2, 0)) / s, (r(1, 2) + r(2, 1)) / s, s / 4, (r(1, 0) - r(0, 1)) / s};
  }
  return normalize(q);
}

// One step of a rigid body's orientation under the world-frame angular velocity omega:
// q' = normalize(q + dt/2 [omega, 0] q), the first-order update that semi-implicit
// integrators (Warp's, Box2D's in 2D) use, renormalised so q stays a rotation.
template <class T> NUDGE_HD Quat<T> integrate(Quat<T> q, Vec3<T> omega, T dt) {
  return normalize(q + (dt / 2) * (quat_from(omega, T(0)) * q));
}

// Adjoints.

template <class T> NUDGE_HD void adj_dot(Quat<T> a, Quat<T> b, T adj_ret, Quat<T>& adj_a, Quat<T>& adj_b) {
  adj_a += adj_ret * b;
  adj_b += adj_ret * a;
}
// d(q / |q|) = (I - n n^T) dq / |q|
template <class T> NUDGE_HD void adj_normalize(Quat<T> q, Quat<T> adj_ret, Quat<T>& adj_q) {
  const T inv = T(1) / length(q);
  const Quat<T> n = inv * q;
  adj_q += inv * (adj_ret + (-dot(n, adj_ret)) * n);
}
template <class T> NUDGE_HD void adj_mul(Quat<T> p, Quat<T> q, Quat<T> adj_ret, Quat<T>& adj_p, Quat<T>& adj_q) {
  const Vec3<T> pv = p.vec(), qv = q.vec(), rv = adj_ret.vec();
  Vec3<T> adj_pv = q.w * rv - adj_ret.w * qv, adj_qv = p.w * rv - adj_ret.w * pv;
  adj_cross(pv, qv, rv, adj_pv, adj_qv);
  adj_p += quat_from(adj_pv, dot(rv, qv) + adj_ret.w * q.w);
  adj_q += quat_from(adj_qv, dot(rv, pv) + adj_ret.w * p.w);
}
template <class T> NUDGE_HD void adj_rotate(Quat<T> q, Vec3<T> v, Vec3<T> adj_ret, Quat<T>& adj_q, Vec3<T>& adj_v) {
  // r = v + 2w t + 2 u x t, t = u x v
  const Vec3<T> u = q.vec(), t = cross(u, v);
  Vec3<T> adj_u{0, 0, 0}, adj_t = (T(2) * q.w) * adj_ret;
  adj_v += adj_ret;
  const T adj_w = T(2) * dot(t, adj_ret);
  adj_cross(u, t, T(2) * adj_ret, adj_u, adj_t);
  adj_cross(u, v, adj_t, adj_u, adj_v);
  adj_q += quat_from(adj_u, adj_w);
}
template <class T>
NUDGE_HD void adj_inverse_rotate(Quat<T> q, Vec3<T> v, Vec3<T> adj_ret, Quat<T>& adj_q, Vec3<T>& adj_v) {
  Quat<T> adj_c{0, 0, 0, 0};
  adj_rotate(conjugate(q), v, adj_ret, adj_c, adj_v);
  adj_q += conjugate(adj_c);  // conjugate is linear and its own adjoint
}
// dL/dq_k = sum_ij dL/dR_ij dR_ij/dq_k, from to_matrix's entries.
template <class T> NUDGE_HD void adj_to_matrix(Quat<T> q, const Mat33<T>& adj_ret, Quat<T>& adj_q) {
  const T x = q.x, y = q.y, z = q.z, w = q.w;
  const T* a = adj_ret.m;
  adj_q.x += 2 * (y * (a[1] + a[3]) + z * (a[2] + a[6]) + w * (a[7] - a[5])) - 4 * x * (a[4] + a[8]);
  adj_q.y += 2 * (x * (a[1] + a[3]) + z * (a[5] + a[7]) + w * (a[2] - a[6])) - 4 * y * (a[0] + a[8]);
  adj_q.z += 2 * (x * (a[2] + a[6]) + y * (a[5] + a[7]) + w * (a[3] - a[1])) - 4 * z * (a[0] + a[4]);
  adj_q.w += 2 * (x * (a[7] - a[5]) + y * (a[2] - a[6]) + z * (a[3] - a[1]));
}
template <class T>
NUDGE_HD void adj_integrate(Quat<T> q, Vec3<T> omega, T dt, Quat<T> adj_ret, Quat<T>& adj_q, Vec3<T>& adj_omega) {
  const Quat<T> w = quat_from(omega, T(0));
  const Quat<T> sum = q + (dt / 2) * (w * q);
  Quat<T> adj_sum{0, 0, 0, 0};
  adj_normalize(sum, adj_ret, adj_sum);
  adj_q += adj_sum;
  Quat<T> adj_w{0, 0, 0, 0};
  adj_mul(w, q, (dt / 2) * adj_sum, adj_w, adj_q);
  adj_omega += adj_w.vec();
}

// clang-format on

}  // namespace nudge
