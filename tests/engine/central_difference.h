// The central difference that kernel tests compare adjoints with, in double.
#pragma once

#include <algorithm>
#include <cmath>
#include <functional>

namespace nudge::test {

// d f / d p at p's value, by (f(p + h) - f(p - h)) / 2h; p is restored.
inline double central_difference(double& p, const std::function<double()>& f, double h) {
  const double saved = p;
  p = saved + h;
  const double up = f();
  p = saved - h;
  const double down = f();
  p = saved;
  return (up - down) / (2 * h);
}

// The same with h = 1e-6 max(1, |p|).
inline double central_difference(double& p, const std::function<double()>& f) {
  return central_difference(p, f, 1e-6 * std::max(1.0, std::fabs(p)));
}

}  // namespace nudge::test
