// Forward-mode differentiation: a value with its derivatives along N directions, for
// small closed-form maps whose Jacobian is wanted whole (a material's return mapping:
// four entries of F and three parameters in, eight numbers out). Seeding input i with
// d[i] = 1 gives every output's derivative by each input in one pass; an adjoint is then
// the Jacobian's transpose times the output's adjoint.
#pragma once

#include <cmath>

#include "nudge/vec3.h"  // NUDGE_HD

namespace nudge {

template <class T, int N>
struct Dual {
  T v = 0;
  T d[N] = {};

  NUDGE_HD Dual() = default;
  NUDGE_HD Dual(T value) : v(value) {}  // NOLINT: a constant converts implicitly
  // Input i of the map: value x with derivative 1 along direction i.
  NUDGE_HD static Dual input(T x, int i) {
    Dual r(x);
    r.d[i] = T(1);
    return r;
  }
};

// Applies the chain rule: r = f(a) with f'(a) = slope.
template <class T, int N>
NUDGE_HD Dual<T, N> chain(const Dual<T, N>& a, T value, T slope) {
  Dual<T, N> r(value);
  for (int i = 0; i < N; ++i) r.d[i] = slope * a.d[i];
  return r;
}

template <class T, int N>
NUDGE_HD Dual<T, N> operator+(const Dual<T, N>& a, const Dual<T, N>& b) {
  Dual<T, N> r(a.v + b.v);
  for (int i = 0; i < N; ++i) r.d[i] = a.d[i] + b.d[i];
  return r;
}
template <class T, int N>
NUDGE_HD Dual<T, N> operator-(const Dual<T, N>& a, const Dual<T, N>& b) {
  Dual<T, N> r(a.v - b.v);
  for (int i = 0; i < N; ++i) r.d[i] = a.d[i] - b.d[i];
  return r;
}
template <class T, int N>
NUDGE_HD Dual<T, N> operator-(const Dual<T, N>& a) {
  return chain(a, -a.v, T(-1));
}
template <class T, int N>
NUDGE_HD Dual<T, N> operator*(const Dual<T, N>& a, const Dual<T, N>& b) {
  Dual<T, N> r(a.v * b.v);
  for (int i = 0; i < N; ++i) r.d[i] = a.d[i] * b.v + a.v * b.d[i];
  return r;
}
template <class T, int N>
NUDGE_HD Dual<T, N> operator/(const Dual<T, N>& a, const Dual<T, N>& b) {
  const T q = a.v / b.v;
  Dual<T, N> r(q);
  for (int i = 0; i < N; ++i) r.d[i] = (a.d[i] - q * b.d[i]) / b.v;
  return r;
}
template <class T, int N>
NUDGE_HD Dual<T, N> operator*(T s, const Dual<T, N>& a) {
  return chain(a, s * a.v, s);
}
template <class T, int N>
NUDGE_HD Dual<T, N> operator*(const Dual<T, N>& a, T s) {
  return chain(a, s * a.v, s);
}
template <class T, int N>
NUDGE_HD Dual<T, N> operator+(const Dual<T, N>& a, T s) {
  return chain(a, a.v + s, T(1));
}
template <class T, int N>
NUDGE_HD Dual<T, N> operator-(const Dual<T, N>& a, T s) {
  return chain(a, a.v - s, T(1));
}

template <class T, int N>
NUDGE_HD Dual<T, N> sqrt(const Dual<T, N>& a) {
  const T s = std::sqrt(a.v);
  return chain(a, s, T(0.5) / s);
}
template <class T, int N>
NUDGE_HD Dual<T, N> log(const Dual<T, N>& a) {
  return chain(a, std::log(a.v), T(1) / a.v);
}
template <class T, int N>
NUDGE_HD Dual<T, N> exp(const Dual<T, N>& a) {
  const T e = std::exp(a.v);
  return chain(a, e, e);
}
template <class T, int N>
NUDGE_HD Dual<T, N> sin(const Dual<T, N>& a) {
  return chain(a, std::sin(a.v), std::cos(a.v));
}
template <class T, int N>
NUDGE_HD Dual<T, N> cos(const Dual<T, N>& a) {
  return chain(a, std::cos(a.v), -std::sin(a.v));
}
template <class T, int N>
NUDGE_HD Dual<T, N> atan2(const Dual<T, N>& y, const Dual<T, N>& x) {
  const T r2 = x.v * x.v + y.v * y.v;
  Dual<T, N> r(std::atan2(y.v, x.v));
  for (int i = 0; i < N; ++i) r.d[i] = (x.v * y.d[i] - y.v * x.d[i]) / r2;
  return r;
}

// The real type under a scalar (itself, or a dual's), and a constant of a scalar type.
template <class S>
struct RealOf {
  using type = S;
};
template <class T, int N>
struct RealOf<Dual<T, N>> {
  using type = T;
};
template <class S>
NUDGE_HD S constant(double x) {
  return S(static_cast<typename RealOf<S>::type>(x));
}

// The value of a plain number or a dual, for branches (which follow the value).
template <class T>
NUDGE_HD T value_of(T x) {
  return x;
}
template <class T, int N>
NUDGE_HD T value_of(const Dual<T, N>& x) {
  return x.v;
}

}  // namespace nudge
