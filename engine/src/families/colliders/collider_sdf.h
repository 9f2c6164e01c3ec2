// Signed distance to a static collider and its outward normal, with the adjoint.
//
// Every shape but the plane, seen from outside, is "a point set plus a radius": the
// closest point c(q) of a box (a clamp to its extents), a capsule's axis segment (a
// clamp of q.y) or a sphere's centre, and phi = |u| - radius with u = q - c(q),
// n = u / |u|. The clamp's derivative is a 0/1 mask per component, so du/dq is
// diagonal: 1 where the component is outside the clamp's range (for a box, where q is
// past that face), 0 inside it. Inside a box phi is the largest of |q_k| - e_k, whose
// normal is the face's. A plane is q.y, its normal local +y.
//
// A convex hull is the largest of its face planes' distances, n_f . q - d_f, with that
// face's normal: exact inside and on the faces' own regions outside; past an edge or a
// corner it is less than the true distance (by up to 1 - cos of the faces' angle), so
// a point there touches a little early. Its gradient is the face normal, as a box's
// inside.
#pragma once

#include <cmath>

#include "families/colliders/collider_model.h"

namespace nudge {

template <class T>
struct SdfSample {
  T distance;      // phi: > 0 outside
  Vec3<T> normal;  // world, unit
};

namespace sdf_detail {

template <class T>
NUDGE_HD T clamp(T a, T lo, T hi) {
  return a < lo ? lo : (a > hi ? hi : a);
}
template <class T>
NUDGE_HD T sign(T a) {
  return a < T(0) ? T(-1) : T(1);
}

// The local pieces both passes need: u = q - c(q) and its mask, or for a point inside
// a box the face it is nearest.
template <class T>
struct Local {
  Vec3<T> q, u, mask;  // mask: du/dq's diagonal
  T rest;              // what is subtracted from |u|: a radius, or 0
  // Inside a box, on a plane, or a convex hull: phi = face_distance, n = face_normal
  // (local, constant), so dphi/dq is the normal.
  bool flat;
  Vec3<T> face_normal;
  T face_distance;
  int face_size;  // inside a box: the size entry its face is at (phi = |q_k| - size[k]); else -1
};

template <class T>
NUDGE_HD Vec3<T> axis(int k, T s) {
  return {k == 0 ? s : T(0), k == 1 ? s : T(0), k == 2 ? s : T(0)};
}

template <class T>
NUDGE_HD Local<T> local(const Collider<T>& c, Vec3<T> x) {
  Local<T> l{};
  l.face_size = -1;
  l.q = to_local(c, x - Vec3<T>{c.position[0], c.position[1], c.position[2]});
  const Vec3<T> q = l.q;
  switch (c.type) {
    case ShapeType::Plane: l.flat = true, l.face_normal = {0, 1, 0}, l.face_distance = q.y; break;
    case ShapeType::Convex: {
      // The first face of the largest distance, so ties break the same way every time.
      int best = 0;
      T best_distance = T(0);
      for (int f = 0; f < c.plane_count; ++f) {
        const T* p = c.planes + 4 * f;
        const T distance = p[0] * q.x + p[1] * q.y + p[2] * q.z - p[3];
        if (f == 0 || distance > best_distance) best = f, best_distance = distance;
      }
      const T* p = c.planes + 4 * best;
      l.flat = true, l.face_normal = {p[0], p[1], p[2]}, l.face_distance = best_distance;
      break;
    }
    case ShapeType::Sphere: l.u = q, l.mask = {1, 1, 1}, l.rest = c.size[0]; break;
    case ShapeType::Capsule: {
      const T h = c.size[1];
      const T cy = clamp(q.y, -h, h);
      l.u = {q.x, q.y - cy, q.z}, l.mask = {1, (q.y > h || q.y < -h) ? T(1) : T(0), 1}, l.rest = c.size[0];
      break;
    }
    case ShapeType::Box: {
      const T e[3] = {c.size[0], c.size[1], c.size[2]};
      const T qs[3] = {q.x, q.y, q.z};
      T d[3];
      for (int k = 0; k < 3; ++k) d[k] = std::fabs(qs[k]) - e[k];
      if (d[0] <= T(0) && d[1] <= T(0) && d[2] <= T(0)) {
        const int face = d[0] >= d[1] && d[0] >= d[2] ? 0 : (d[1] >= d[2] ? 1 : 2);
        l.flat = true, l.face_normal = axis(face, sign(qs[face])), l.face_distance = d[face], l.face_size = face;
      } else {
        T u[3], m[3];
        for (int k = 0; k < 3; ++k) {
          u[k] = qs[k] - clamp(qs[k], -e[k], e[k]);
          m[k] = d[k] > T(0) ? T(1) : T(0);
        }
        l.u = {u[0], u[1], u[2]}, l.mask = {m[0], m[1], m[2]}, l.rest = 0;
      }
      break;
    }
  }
  return l;
}

}  // namespace sdf_detail

template <class T>
NUDGE_HD SdfSample<T> collider_sdf(const Collider<T>& c, Vec3<T> x) {
  using namespace sdf_detail;
  const Local<T> l = local(c, x);
  if (l.flat) return {l.face_distance, to_world(c, l.face_normal)};
  const T len = length(l.u);
  return {len - l.rest, to_world(c, l.u * (T(1) / len))};
}

// Given dL/dphi and dL/dn (world), returns dL/dx; adds dL/d(size) to adj_size (three
// entries, the collider's size) when given.
template <class T>
NUDGE_HD Vec3<T> collider_sdf_adjoint(const Collider<T>& c, Vec3<T> x, T adj_distance, Vec3<T> adj_normal,
                                      T* adj_size = nullptr) {
  using namespace sdf_detail;
  const Local<T> l = local(c, x);
  if (l.flat) {  // the normal is constant
    if (adj_size && l.face_size >= 0) adj_size[l.face_size] -= adj_distance;
    return to_world(c, adj_distance * l.face_normal);
  }
  // phi = |u| - rest, n = R u / |u|:  dL/du = dL/dphi n_l + (I - n_l n_l^T) R^T dL/dn / |u|
  const T len = length(l.u);
  const Vec3<T> nl = l.u * (T(1) / len);
  const Vec3<T> an = to_local(c, adj_normal);
  const Vec3<T> adj_u = adj_distance * nl + (an - nl * dot(nl, an)) * (T(1) / len);
  if (adj_size) {
    // u = q - clamp(q, -e, e): where q is past +e (-e), du/de is -1 (+1).
    const auto past = [](T q, T e) { return q > e ? T(-1) : (q < -e ? T(1) : T(0)); };
    switch (c.type) {
      case ShapeType::Sphere: adj_size[0] -= adj_distance; break;
      case ShapeType::Capsule:
        adj_size[0] -= adj_distance;
        adj_size[1] += past(l.q.y, c.size[1]) * adj_u.y;
        break;
      case ShapeType::Box:
        adj_size[0] += past(l.q.x, c.size[0]) * adj_u.x;
        adj_size[1] += past(l.q.y, c.size[1]) * adj_u.y;
        adj_size[2] += past(l.q.z, c.size[2]) * adj_u.z;
        break;
      case ShapeType::Plane:
      case ShapeType::Convex: break;
    }
  }
  const Vec3<T> adj_q{adj_u.x * l.mask.x, adj_u.y * l.mask.y, adj_u.z * l.mask.z};
  return to_world(c, adj_q);  // q = R^T (x - p)
}

// A hull scaled by S = diag(sigma) has the face n . q <= d as n' . q <= d', with
// n' = S^-1 n / |S^-1 n| and d' = d / |S^-1 n|. On the nearest face (phi = n' . q - d'),
// sigma_c d/dsigma_c gives phi n'_c (phi n'_c - q_c) and n' n'_c^2 - n'_c e_c: adds
// dL/d(log sigma_c) from dL/dphi and dL/dn' (local).
template <class T>
NUDGE_HD void add_hull_scale_adjoint(T phi, Vec3<T> normal, Vec3<T> q, T adj_phi, Vec3<T> adj_normal,
                                     T* adj_log_scale) {
  const T n[3] = {normal.x, normal.y, normal.z}, qs[3] = {q.x, q.y, q.z};
  const T an[3] = {adj_normal.x, adj_normal.y, adj_normal.z};
  const T along = dot(adj_normal, normal);
  for (int c = 0; c < 3; ++c) adj_log_scale[c] += n[c] * (adj_phi * (phi * n[c] - qs[c]) + n[c] * along - an[c]);
}

// The same for convex collider c at world point x, from dL/dphi and dL/dn (world).
template <class T>
NUDGE_HD void add_hull_scale_adjoint_at(const Collider<T>& c, Vec3<T> x, T adj_phi, Vec3<T> adj_normal,
                                        T* adj_log_scale) {
  const sdf_detail::Local<T> l = sdf_detail::local(c, x);
  add_hull_scale_adjoint(l.face_distance, l.face_normal, l.q, adj_phi, to_local(c, adj_normal), adj_log_scale);
}

}  // namespace nudge
