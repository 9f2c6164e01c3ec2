// atan2 for the kernels: std::atan2 in double, and in float a branch-free polynomial
// (Cephes' atanf after reducing the ratio to |t| <= tan(pi/8)) within a few float ulps
// of the exact angle (tests/engine/kernel_atan2_test.cpp). libm's atan2f is an opaque
// call that no loop around it can vectorise; it was 43 % of the cloth_throw gradient's
// time (the lift's angle of attack, forward and adjoint).
#pragma once

#include <cmath>

#include "nudge/config.h"

namespace nudge {

template <class T>
NUDGE_HD T kernel_atan2(T y, T x) {
  return std::atan2(y, x);
}

template <>
NUDGE_HD float kernel_atan2<float>(float y, float x) {
  const float ax = std::fabs(x), ay = std::fabs(y);
  const float hi = ax > ay ? ax : ay, lo = ax > ay ? ay : ax;
  const float a = hi > 0.0f ? lo / hi : 0.0f;   // in [0, 1]; atan2(0, 0) = 0, as std's
  const bool reduced = a > 0.414213562373095f;  // tan(pi/8): then atan(a) = pi/4 + atan((a-1)/(a+1))
  const float t = reduced ? (a - 1.0f) / (a + 1.0f) : a;
  const float z = t * t;
  float r = (((8.05374449538e-2f * z - 1.38776856032e-1f) * z + 1.99777106478e-1f) * z - 3.33329491539e-1f) * z * t + t;
  r = reduced ? r + 0.785398163397448f : r;
  r = ay > ax ? 1.57079632679490f - r : r;   // the angle from the x axis, in [0, pi/2]
  r = x < 0.0f ? 3.14159265358979f - r : r;  // in [0, pi]
  return std::signbit(y) ? -r : r;           // atan2(-0, x < 0) = -pi, as std's
}

}  // namespace nudge
