// A collider shape of a scene file (nudge/colliders.h) in the form kernels read
// (Collider<T>): its frame as a rotation matrix and a position, and its sizes. Used by
// the colliders' family and by the material points' boundaries.
#pragma once

#include <cmath>

#include "families/colliders/collider_model.h"
#include "nudge/colliders.h"

namespace nudge {

// Row-major rotation of the unit quaternion (x, y, z, w); normalised here so that a
// file's rounding does not scale the shape.
inline void quaternion_matrix(const double* q, double* r) {
  const double len = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  const double x = q[0] / len, y = q[1] / len, z = q[2] / len, w = q[3] / len;
  const double m[9] = {1 - 2 * (y * y + z * z), 2 * (x * y - z * w),     2 * (x * z + y * w),
                       2 * (x * y + z * w),     1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
                       2 * (x * z - y * w),     2 * (y * z + x * w),     1 - 2 * (x * x + y * y)};
  for (int k = 0; k < 9; ++k) r[k] = m[k];
}

// Columns (t1, n, t2): any right-handed orthonormal frame whose second axis is n.
inline void plane_frame(const double* normal, double* r) {
  const double len = std::sqrt(normal[0] * normal[0] + normal[1] * normal[1] + normal[2] * normal[2]);
  const double n[3] = {normal[0] / len, normal[1] / len, normal[2] / len};
  // t1 = normalize(a x n) for an axis a not parallel to n; t2 = t1 x n.
  const double a[3] = {std::fabs(n[0]) < 0.9 ? 1.0 : 0.0, std::fabs(n[0]) < 0.9 ? 0.0 : 1.0, 0.0};
  double t1[3] = {a[1] * n[2] - a[2] * n[1], a[2] * n[0] - a[0] * n[2], a[0] * n[1] - a[1] * n[0]};
  const double l1 = std::sqrt(t1[0] * t1[0] + t1[1] * t1[1] + t1[2] * t1[2]);
  for (double& c : t1) c /= l1;
  const double t2[3] = {t1[1] * n[2] - t1[2] * n[1], t1[2] * n[0] - t1[0] * n[2], t1[0] * n[1] - t1[1] * n[0]};
  for (int row = 0; row < 3; ++row) {
    r[3 * row + 0] = t1[row];
    r[3 * row + 1] = n[row];
    r[3 * row + 2] = t2[row];
  }
}

// The kernel's form of a shape: its frame (position, rotation) and sizes. A plane's
// frame has its normal as local y and sits at normal * offset.
template <class T>
Collider<T> placed_collider(const ColliderShape& s) {
  Collider<T> c{};
  double rotation[9];
  if (s.type == ColliderType::Plane) {
    plane_frame(s.normal, rotation);
    for (int k = 0; k < 3; ++k) c.position[k] = static_cast<T>(s.normal[k] * s.offset);
  } else {
    quaternion_matrix(s.orientation, rotation);
    for (int k = 0; k < 3; ++k) c.position[k] = static_cast<T>(s.position[k]);
  }
  for (int k = 0; k < 9; ++k) c.rotation[k] = static_cast<T>(rotation[k]);
  switch (s.type) {
    case ColliderType::Plane: c.type = ShapeType::Plane; break;
    case ColliderType::Box:
      c.type = ShapeType::Box;
      for (int k = 0; k < 3; ++k) c.size[k] = static_cast<T>(s.half_extents[k]);
      break;
    case ColliderType::Sphere:
      c.type = ShapeType::Sphere;
      c.size[0] = static_cast<T>(s.radius);
      break;
    case ColliderType::Capsule:
      c.type = ShapeType::Capsule;
      c.size[0] = static_cast<T>(s.radius);
      c.size[1] = static_cast<T>(s.half_length);
      break;
  }
  return c;
}

}  // namespace nudge
