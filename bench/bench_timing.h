// What every benchmark of ../shared/bench/SPEC.md measures the same way: the median wall
// time of `runs` calls, and the 2-norm of a gradient.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

namespace nudge {

// The median wall seconds of `runs` >= 1 calls of f (the caller runs its warm-up first).
template <class F>
double median_seconds(int runs, F&& f) {
  std::vector<double> times;
  for (int r = 0; r < runs; ++r) {
    const auto start = std::chrono::steady_clock::now();
    f();
    times.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(times.begin(), times.end());
  return runs % 2 ? times[size_t(runs / 2)] : 0.5 * (times[size_t(runs / 2 - 1)] + times[size_t(runs / 2)]);
}

inline double norm2(const std::vector<double>& v) {
  double sum = 0.0;
  for (double x : v) sum += x * x;
  return std::sqrt(sum);
}

}  // namespace nudge
