// Signed distance to a static collider and its outward normal, with the adjoint.
//
// Every shape but the plane, seen from outside, is "a point set plus a radius": the
// closest point c(q) of a box (a clamp to its extents), a capsule's axis segment (a
// clamp of q.y) or a sphere's centre, and phi = |u| - radius with u = q - c(q),
// n = u / |u|. The clamp's derivative is a 0/1 mask per component, so du/dq is
// diagonal: 1 where the component is outside the clamp's range (for a box, where q is
// past that face), 0 inside it. Inside a box phi is the largest of |q_k| - e_k, whose
// normal is the face's. A plane is q.y, its normal local +y.
#pragma once

#include <cmath>

#include "kernels/collider_model.h"

namespace nudge {

template <class T>
struct SdfSample {
  T distance;       // phi: > 0 outside
  Vec3<T> normal;   // world, unit
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
  bool inside_box;     // then face is the axis (0, 1, 2) of the nearest face
  int face;
  bool plane;
};

template <class T>
NUDGE_HD Local<T> local(const Collider<T>& c, Vec3<T> x) {
  Local<T> l{};
  l.q = to_local(c, x - Vec3<T>{c.position[0], c.position[1], c.position[2]});
  const Vec3<T> q = l.q;
  switch (c.type) {
    case ShapeType::Plane:
      l.plane = true;
      break;
    case ShapeType::Sphere:
      l.u = q, l.mask = {1, 1, 1}, l.rest = c.size[0];
      break;
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
        l.inside_box = true;
        l.face = d[0] >= d[1] && d[0] >= d[2] ? 0 : (d[1] >= d[2] ? 1 : 2);
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

template <class T>
NUDGE_HD Vec3<T> axis(int k, T s) {
  return {k == 0 ? s : T(0), k == 1 ? s : T(0), k == 2 ? s : T(0)};
}

template <class T>
NUDGE_HD T component(Vec3<T> a, int k) {
  return k == 0 ? a.x : (k == 1 ? a.y : a.z);
}

}  // namespace sdf_detail

template <class T>
NUDGE_HD SdfSample<T> collider_sdf(const Collider<T>& c, Vec3<T> x) {
  using namespace sdf_detail;
  const Local<T> l = local(c, x);
  if (l.plane) return {l.q.y, to_world(c, Vec3<T>{0, 1, 0})};
  if (l.inside_box) {
    const T qk = component(l.q, l.face);
    return {std::fabs(qk) - c.size[l.face], to_world(c, axis(l.face, sign(qk)))};
  }
  const T len = length(l.u);
  return {len - l.rest, to_world(c, l.u * (T(1) / len))};
}

// Given dL/dphi and dL/dn (world), returns dL/dx.
template <class T>
NUDGE_HD Vec3<T> collider_sdf_adjoint(const Collider<T>& c, Vec3<T> x, T adj_distance, Vec3<T> adj_normal) {
  using namespace sdf_detail;
  const Local<T> l = local(c, x);
  if (l.plane) return to_world(c, Vec3<T>{0, adj_distance, 0});  // the normal is constant
  if (l.inside_box) {
    const T qk = component(l.q, l.face);
    return to_world(c, axis(l.face, adj_distance * sign(qk)));  // the face normal is constant
  }
  // phi = |u| - rest, n = R u / |u|:  dL/du = dL/dphi n_l + (I - n_l n_l^T) R^T dL/dn / |u|
  const T len = length(l.u);
  const Vec3<T> nl = l.u * (T(1) / len);
  const Vec3<T> an = to_local(c, adj_normal);
  const Vec3<T> adj_u = adj_distance * nl + (an - nl * dot(nl, an)) * (T(1) / len);
  const Vec3<T> adj_q{adj_u.x * l.mask.x, adj_u.y * l.mask.y, adj_u.z * l.mask.z};
  return to_world(c, adj_q);  // q = R^T (x - p)
}

}  // namespace nudge
