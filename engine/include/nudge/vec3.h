// A 3-vector for kernels, with the adjoint of each operation beside it (adj_*): the
// forward inputs and the output's adjoint in, the inputs' adjoints accumulated (+=)
// into references, in the style of Warp's builtin.h.
#pragma once

#include <cmath>

#include "nudge/config.h"

namespace nudge {

// The operations and their adjoints read best one per line, as a table.
// clang-format off
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
template <class T> NUDGE_HD T length_squared(Vec3<T> a) { return dot(a, a); }
template <class T> NUDGE_HD Vec3<T> cross(Vec3<T> a, Vec3<T> b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
// a / |a|; a must not be zero.
template <class T> NUDGE_HD Vec3<T> normalize(Vec3<T> a) { return a * (T(1) / length(a)); }

// Adjoints. Each takes the forward inputs and the output's adjoint (adj_ret) and adds
// the inputs' adjoints into the references it is given (+=, so that an input used twice
// collects both shares), as Warp's adj_* functions do.

template <class T> NUDGE_HD void adj_dot(Vec3<T> a, Vec3<T> b, T adj_ret, Vec3<T>& adj_a, Vec3<T>& adj_b) {
  adj_a += adj_ret * b;
  adj_b += adj_ret * a;
}
// d|a| = u . da, u = a / |a|
template <class T> NUDGE_HD void adj_length(Vec3<T> a, T adj_ret, Vec3<T>& adj_a) {
  adj_a += (adj_ret / length(a)) * a;
}
template <class T> NUDGE_HD void adj_length_squared(Vec3<T> a, T adj_ret, Vec3<T>& adj_a) {
  adj_a += (T(2) * adj_ret) * a;
}
// d(a x b) = da x b + a x db, and w . (da x b) = da . (b x w)
template <class T> NUDGE_HD void adj_cross(Vec3<T> a, Vec3<T> b, Vec3<T> adj_ret, Vec3<T>& adj_a, Vec3<T>& adj_b) {
  adj_a += cross(b, adj_ret);
  adj_b += cross(adj_ret, a);
}
// d(a / |a|) = (I - u u^T) da / |a|, a symmetric map
template <class T> NUDGE_HD void adj_normalize(Vec3<T> a, Vec3<T> adj_ret, Vec3<T>& adj_a) {
  const T inv = T(1) / length(a);
  const Vec3<T> u = a * inv;
  adj_a += (adj_ret - u * dot(u, adj_ret)) * inv;
}

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

// clang-format on

}  // namespace nudge
