// What every benchmark of ../shared/bench/SPEC.md measures the same way: the median wall
// time of `runs` calls, the 2-norm of a gradient, and one scene's forward and gradient
// timed on a simulator.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>
#include <vector>

#include "nudge/result.h"
#include "nudge/simulator.h"

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

// Creates the simulator, runs one gradient as the warm-up (its loss, |dL/dv0| and
// |dL/d k_param| are the ones reported), then times `runs` forwards and `runs` gradients.
// Fills the result's device, notice, CPU fallback, threads, loss, grad_v0_norm, grad_k_norm, forward_s
// and gradient_s.
template <class BenchResult>
Status measure_gradient(const Scene& scene, const SimulatorOptions& options, int runs, ParamId k_param,
                        BenchResult& result) {
  auto sim = Simulator::create(scene, options);
  if (!sim) return sim.error();
  result.device = (*sim)->device_name();
  result.notice = (*sim)->notice();
  result.cpu_fallback = (*sim)->cpu_fallback();
  result.threads = options.threads > 0 ? options.threads : static_cast<int>(std::thread::hardware_concurrency());
  ParameterSet params = scene.params;
  Result<Evaluation> eval = (*sim)->gradient(params);
  if (!eval) return eval.error();
  result.loss = eval->loss;
  result.grad_v0_norm = norm2(params[ParamId::InitialVelocity].grad);
  result.grad_k_norm = norm2(params[k_param].grad);
  result.forward_s = median_seconds(runs, [&] { (void)(*sim)->evaluate(params); });
  result.gradient_s = median_seconds(runs, [&] { (void)(*sim)->gradient(params); });
  return Ok{};
}

}  // namespace nudge
