// A 3x3 matrix for kernels (row-major), with the adjoint of each operation beside it in
// the convention of vec3.h: forward inputs and the output's adjoint in, the inputs'
// adjoints accumulated (+=).
#pragma once

#include "nudge/vec3.h"

namespace nudge {

// The operations and their adjoints read best one per line, as a table.
// clang-format off
template <class T>
struct Mat33 {
  T m[9];  // row-major: m[3 * row + column]

  NUDGE_HD T operator()(int r, int c) const { return m[3 * r + c]; }
  NUDGE_HD T& operator()(int r, int c) { return m[3 * r + c]; }
  NUDGE_HD Mat33& operator+=(const Mat33& o) {
    for (int k = 0; k < 9; ++k) m[k] += o.m[k];
    return *this;
  }
};

template <class T> NUDGE_HD Mat33<T> identity33() { return {{1, 0, 0, 0, 1, 0, 0, 0, 1}}; }
template <class T> NUDGE_HD Mat33<T> diagonal33(Vec3<T> d) { return {{d.x, 0, 0, 0, d.y, 0, 0, 0, d.z}}; }
template <class T> NUDGE_HD Mat33<T> zero33() { return {{0, 0, 0, 0, 0, 0, 0, 0, 0}}; }

template <class T> NUDGE_HD Mat33<T> transpose(const Mat33<T>& a) {
  return {{a.m[0], a.m[3], a.m[6], a.m[1], a.m[4], a.m[7], a.m[2], a.m[5], a.m[8]}};
}
template <class T> NUDGE_HD Mat33<T> operator+(const Mat33<T>& a, const Mat33<T>& b) {
  Mat33<T> r;
  for (int k = 0; k < 9; ++k) r.m[k] = a.m[k] + b.m[k];
  return r;
}
template <class T> NUDGE_HD Mat33<T> operator*(T s, const Mat33<T>& a) {
  Mat33<T> r;
  for (int k = 0; k < 9; ++k) r.m[k] = s * a.m[k];
  return r;
}
// a b^T
template <class T> NUDGE_HD Mat33<T> outer(Vec3<T> a, Vec3<T> b) {
  return {{a.x * b.x, a.x * b.y, a.x * b.z, a.y * b.x, a.y * b.y, a.y * b.z, a.z * b.x, a.z * b.y, a.z * b.z}};
}
// [a]x: skew(a) b = a x b
template <class T> NUDGE_HD Mat33<T> skew(Vec3<T> a) { return {{0, -a.z, a.y, a.z, 0, -a.x, -a.y, a.x, 0}}; }

template <class T> NUDGE_HD Vec3<T> operator*(const Mat33<T>& a, Vec3<T> v) {
  return {a.m[0] * v.x + a.m[1] * v.y + a.m[2] * v.z, a.m[3] * v.x + a.m[4] * v.y + a.m[5] * v.z,
          a.m[6] * v.x + a.m[7] * v.y + a.m[8] * v.z};
}
// a^T v, without forming the transpose
template <class T> NUDGE_HD Vec3<T> mul_transpose(const Mat33<T>& a, Vec3<T> v) {
  return {a.m[0] * v.x + a.m[3] * v.y + a.m[6] * v.z, a.m[1] * v.x + a.m[4] * v.y + a.m[7] * v.z,
          a.m[2] * v.x + a.m[5] * v.y + a.m[8] * v.z};
}
template <class T> NUDGE_HD Mat33<T> operator*(const Mat33<T>& a, const Mat33<T>& b) {
  Mat33<T> r;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) r(i, j) = a(i, 0) * b(0, j) + a(i, 1) * b(1, j) + a(i, 2) * b(2, j);
  return r;
}
template <class T> NUDGE_HD T determinant(const Mat33<T>& a) {
  return a.m[0] * (a.m[4] * a.m[8] - a.m[5] * a.m[7]) - a.m[1] * (a.m[3] * a.m[8] - a.m[5] * a.m[6]) +
         a.m[2] * (a.m[3] * a.m[7] - a.m[4] * a.m[6]);
}
// The inverse of an invertible matrix, by the adjugate.
template <class T> NUDGE_HD Mat33<T> inverse(const Mat33<T>& a) {
  const T inv_det = T(1) / determinant(a);
  return {{(a.m[4] * a.m[8] - a.m[5] * a.m[7]) * inv_det, (a.m[2] * a.m[7] - a.m[1] * a.m[8]) * inv_det,
           (a.m[1] * a.m[5] - a.m[2] * a.m[4]) * inv_det, (a.m[5] * a.m[6] - a.m[3] * a.m[8]) * inv_det,
           (a.m[0] * a.m[8] - a.m[2] * a.m[6]) * inv_det, (a.m[2] * a.m[3] - a.m[0] * a.m[5]) * inv_det,
           (a.m[3] * a.m[7] - a.m[4] * a.m[6]) * inv_det, (a.m[1] * a.m[6] - a.m[0] * a.m[7]) * inv_det,
           (a.m[0] * a.m[4] - a.m[1] * a.m[3]) * inv_det}};
}

// Matrix i of a structure of arrays of `count` matrices (9 x count: entry k of matrix i
// at k * count + i), as the rollout's states and models keep them.
template <class T> NUDGE_HD Mat33<T> load_matrix(const T* a, int i, int count) {
  Mat33<T> m;
  for (int k = 0; k < 9; ++k) m.m[k] = a[k * count + i];
  return m;
}
template <class T> NUDGE_HD void store_matrix(T* a, int i, int count, const Mat33<T>& m) {
  for (int k = 0; k < 9; ++k) a[k * count + i] = m.m[k];
}
template <class T> NUDGE_HD void add_matrix(T* a, int i, int count, const Mat33<T>& m) {
  for (int k = 0; k < 9; ++k) a[k * count + i] += m.m[k];
}

// Adjoints.

// r = A v:  dL/dA += dL/dr v^T,  dL/dv += A^T dL/dr
template <class T> NUDGE_HD void adj_mul(const Mat33<T>& a, Vec3<T> v, Vec3<T> adj_ret, Mat33<T>& adj_a, Vec3<T>& adj_v) {
  adj_a += outer(adj_ret, v);
  adj_v += mul_transpose(a, adj_ret);
}
// r = A^T v:  dL/dA += v dL/dr^T,  dL/dv += A dL/dr
template <class T>
NUDGE_HD void adj_mul_transpose(const Mat33<T>& a, Vec3<T> v, Vec3<T> adj_ret, Mat33<T>& adj_a, Vec3<T>& adj_v) {
  adj_a += outer(v, adj_ret);
  adj_v += a * adj_ret;
}
// C = A B:  dL/dA += dL/dC B^T,  dL/dB += A^T dL/dC
template <class T>
NUDGE_HD void adj_mul(const Mat33<T>& a, const Mat33<T>& b, const Mat33<T>& adj_ret, Mat33<T>& adj_a, Mat33<T>& adj_b) {
  adj_a += adj_ret * transpose(b);
  adj_b += transpose(a) * adj_ret;
}
template <class T> NUDGE_HD void adj_transpose(const Mat33<T>& adj_ret, Mat33<T>& adj_a) { adj_a += transpose(adj_ret); }
template <class T> NUDGE_HD void adj_outer(Vec3<T> a, Vec3<T> b, const Mat33<T>& adj_ret, Vec3<T>& adj_a, Vec3<T>& adj_b) {
  adj_a += adj_ret * b;
  adj_b += mul_transpose(adj_ret, a);
}
template <class T> NUDGE_HD void adj_skew(const Mat33<T>& adj_ret, Vec3<T>& adj_a) {
  adj_a += Vec3<T>{adj_ret.m[7] - adj_ret.m[5], adj_ret.m[2] - adj_ret.m[6], adj_ret.m[3] - adj_ret.m[1]};
}
// d det(A) = det(A) tr(A^-1 dA):  dL/dA += dL/ddet det(A) A^-T
template <class T> NUDGE_HD void adj_determinant(const Mat33<T>& a, T adj_ret, Mat33<T>& adj_a) {
  adj_a += (adj_ret * determinant(a)) * transpose(inverse(a));
}
// d(A^-1) = -A^-1 dA A^-1:  dL/dA += -A^-T dL/dR A^-T
template <class T> NUDGE_HD void adj_inverse(const Mat33<T>& a, const Mat33<T>& adj_ret, Mat33<T>& adj_a) {
  const Mat33<T> inv_t = transpose(inverse(a));
  adj_a += T(-1) * (inv_t * adj_ret * inv_t);
}

// clang-format on

}  // namespace nudge
