// Conversions between the public xyz triples (n x 3, double) of parameters, gradients
// and trajectories, and the kernels' structures of arrays (3 x n: all x, then all y,
// then all z) in the rollout's scalar.
#pragma once

#include <cstddef>
#include <vector>

namespace nudge {

template <class T>
std::vector<T> soa_from_triples(const std::vector<double>& triples, int n) {
  std::vector<T> out(3 * size_t(n));
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < 3; ++k) out[size_t(k) * n + i] = static_cast<T>(triples[3 * size_t(i) + k]);
  return out;
}

template <class U>
std::vector<double> triples_from_soa(const U* components, int n) {
  std::vector<double> out(3 * size_t(n));
  for (int i = 0; i < n; ++i)
    for (int k = 0; k < 3; ++k) out[3 * size_t(i) + k] = static_cast<double>(components[size_t(k) * n + i]);
  return out;
}

template <class U>
std::vector<double> triples_from_soa(const std::vector<U>& components, int n) {
  return triples_from_soa(components.data(), n);
}

// A backend array's first `count` values, downloaded and widened to double.
template <class T, class Exec>
std::vector<double> fetch_values(const Exec& exec, const T* device, size_t count) {
  std::vector<T> host(count);
  exec.download(device, count, host.data());
  return std::vector<double>(host.begin(), host.end());
}

// The sum of v in index order: per-element shares of a global parameter's gradient are
// summed so, and the result does not depend on the thread count.
inline double ordered_sum(const std::vector<double>& v) {
  double total = 0.0;
  for (double x : v) total += x;
  return total;
}

}  // namespace nudge
