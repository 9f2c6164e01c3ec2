// A 3-vector for kernels, with the adjoint of each operation beside it.
// Adjoint functions take the output's adjoint last-but-none and accumulate (+=) into
// the inputs' adjoints, in the style of Warp's builtin.h.
#pragma once

#include <cmath>

#include "nudge/config.h"

namespace nudge {

template <class T>
struct Vec3 {
  T x, y, z;

  NUDGE_HD Vec3& operator+=(const Vec3& o) { x += o.x; y += o.y; z += o.z; return *this; }
  NUDGE_HD Vec3& operator-=(const Vec3& o) { x -= o.x; y -= o.y; z -= o.z; return *this; }
  NUDGE_HD Vec3& operator*=(T s) { x *= s; y *= s; z *= s; return *this; }
};

template <class T> NUDGE_HD Vec3<T> operator+(Vec3<T> a, Vec3<T> b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
template <class T> NUDGE_HD Vec3<T> operator-(Vec3<T> a, Vec3<T> b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
template <class T> NUDGE_HD Vec3<T> operator-(Vec3<T> a) { return {-a.x, -a.y, -a.z}; }
template <class T> NUDGE_HD Vec3<T> operator*(T s, Vec3<T> a) { return {s * a.x, s * a.y, s * a.z}; }
template <class T> NUDGE_HD Vec3<T> operator*(Vec3<T> a, T s) { return {s * a.x, s * a.y, s * a.z}; }
template <class T> NUDGE_HD T dot(Vec3<T> a, Vec3<T> b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
template <class T> NUDGE_HD T length(Vec3<T> a) { return std::sqrt(dot(a, a)); }

// Loads and stores of 3-vectors kept as structure of arrays: component k of element i
// is p[k * stride + i], stride being the element count (3 x N). Loops over elements then
// read each component contiguously, which is what lets them run as SIMD lanes.
template <class T> NUDGE_HD Vec3<T> load3(const T* p, int i, int stride) {
  return {p[i], p[stride + i], p[2 * stride + i]};
}
template <class T> NUDGE_HD void store3(T* p, int i, int stride, Vec3<T> v) {
  p[i] = v.x;
  p[stride + i] = v.y;
  p[2 * stride + i] = v.z;
}
template <class T> NUDGE_HD void add3(T* p, int i, int stride, Vec3<T> v) {
  p[i] += v.x;
  p[stride + i] += v.y;
  p[2 * stride + i] += v.z;
}

}  // namespace nudge
