// The rigid-body family's part of the model, and its gradient accumulators.
// 9 x B arrays hold one 3x3 matrix per body, entry k (row-major) of body b at k * B + b.
#pragma once

#include "families/colliders/collider_model.h"

namespace nudge {

template <class T>
struct BodyModel {
  int count = 0;                   // B
  const T* mass = nullptr;         // B
  const T* inertia = nullptr;      // 9 x B, in each body's frame
  const T* inv_inertia = nullptr;  // 9 x B
  // Contact points, CSR by body: body b's are [point_start[b], point_start[b + 1]).
  const int* point_start = nullptr;  // B + 1
  const T* point_offset = nullptr;   // 3 x P, in the body's frame
  const T* point_radius = nullptr;   // P
  // How each point follows its body's shape size s (families/colliders/collider_model.h's size):
  // offset = base + sign * s componentwise, radius = s[0] where sized_radius is 1.
  const T* point_sign = nullptr;          // 3 x P
  const T* point_sized_radius = nullptr;  // P: 1 or 0
  int points = 0;                         // P
  // Each body's shape in its own frame (at the origin, unturned), which other bodies'
  // points meet, and the radius of a sphere about its centre that holds it.
  const Collider<T>* shape = nullptr;  // B
  const T* bound = nullptr;            // B
};

// dL/d(shape size) of body point j, given dL/d of its offset and radius (the point
// follows the size as BodyModel::point_sign and point_sized_radius say).
template <class T>
NUDGE_HD Vec3<T> point_size_gradient(const BodyModel<T>& bm, int j, Vec3<T> adj_offset, T adj_radius) {
  const Vec3<T> sign = load3(bm.point_sign, j, bm.points);
  return {sign.x * adj_offset.x + bm.point_sized_radius[j] * adj_radius, sign.y * adj_offset.y, sign.z * adj_offset.z};
}

// One slot per body (no two threads add to one address); global parameters' shares are
// summed at the end in body order.
template <class T>
struct BodyGrad {
  T* mass = nullptr;         // B
  T* inertia = nullptr;      // 9 x B
  T* inv_inertia = nullptr;  // 9 x B
  T* force = nullptr;        // 3 x B: dL/dF summed over steps; dL/dg = sum_b m_b of it
  T* stiffness = nullptr;    // B: shares of the contact parameters
  T* damping = nullptr;      // B
  T* friction = nullptr;     // B
  T* size = nullptr;         // 3 x B: dL/d(shape size) through contact points and shapes
};

}  // namespace nudge
