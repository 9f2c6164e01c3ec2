// A scene's motion, one gradient evaluation's loss and gradients, the check that two are the same to the
// last bit (for tests that the thread count, checkpointing or a backend change nothing),
// and the checks every element family's tests make of a scene's gradients.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <initializer_list>
#include <vector>

#include "nudge/gradcheck.h"
#include "nudge/simulator.h"

namespace nudge::test {

struct Outcome {
  double loss = 0;
  ParameterSet params;  // with their gradients
};

inline Outcome run_gradient(const Scene& scene, const SimulatorOptions& options) {
  auto sim = Simulator::create(scene, options);
  REQUIRE(sim.ok());
  Outcome out{0.0, scene.params};
  Result<Evaluation> eval = (*sim)->gradient(out.params);
  REQUIRE_MESSAGE(eval.ok(), (eval.ok() ? "" : eval.error().message));
  out.loss = eval->loss;
  return out;
}

// The scene's motion on the CPU in double.
inline Trajectory simulate_on_cpu(const Scene& scene) {
  SimulatorOptions options;
  options.device = Device::Cpu;
  auto sim = Simulator::create(scene, options);
  REQUIRE(sim.ok());
  Result<Trajectory> traj = (*sim)->trajectory(scene.params);
  REQUIRE_MESSAGE(traj.ok(), (traj.ok() ? "" : traj.error().message));
  return std::move(*traj);
}

inline bool bitwise_equal(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

inline void require_bitwise_equal(const Outcome& a, const Outcome& b) {
  CHECK(bitwise_equal(a.loss, b.loss));
  for (int p = 0; p < kParamCount; ++p) {
    const std::vector<double>& ga = a.params.items[p].grad;
    const std::vector<double>& gb = b.params.items[p].grad;
    REQUIRE(ga.size() == gb.size());
    size_t differing = 0;
    for (size_t i = 0; i < ga.size(); ++i) differing += bitwise_equal(ga[i], gb[i]) ? 0 : 1;
    INFO(param_name(static_cast<ParamId>(p)));
    CHECK(differing == 0);
  }
}

inline Outcome run_cpu_gradient(const Scene& scene, int threads, int checkpoint_every = 0,
                                Precision precision = Precision::Float64) {
  SimulatorOptions options;
  options.device = Device::Cpu;
  options.threads = threads;
  options.checkpoint_every = checkpoint_every;
  options.precision = precision;
  return run_gradient(scene, options);
}

// The same bits on 1 and 4 threads, with and without checkpoints (ragged segments
// included); returns the one-thread outcome.
inline Outcome require_same_bits_for_threads_and_checkpoints(const Scene& scene) {
  const Outcome one = run_cpu_gradient(scene, 1);
  require_bitwise_equal(one, run_cpu_gradient(scene, 4));
  require_bitwise_equal(one, run_cpu_gradient(scene, 1, 7));
  require_bitwise_equal(one, run_cpu_gradient(scene, 4, 13));
  return one;
}

// Each of these parameters' gradients is nonzero somewhere.
inline void check_has_gradient(const Outcome& out, std::initializer_list<ParamId> ids) {
  for (ParamId id : ids) {
    double largest = 0;
    for (double gk : out.params[id].grad) largest = std::max(largest, std::fabs(gk));
    CAPTURE(param_name(id));
    CHECK(largest > 0);
  }
}

// These parameters' gradients against central differences in double: `samples` entries
// of each (all of them when it has no more), each within the tolerance.
inline void check_against_central_differences(const Scene& scene, const std::vector<ParamId>& ids, int samples = 1000,
                                              double tolerance = 1e-6) {
  REQUIRE(check_scene(scene).ok());
  GradCheckOptions options;
  options.samples_per_parameter = samples;
  options.tolerance = tolerance;
  options.parameters = ids;
  Result<GradCheckReport> report = gradient_check(scene, options);
  REQUIRE_MESSAGE(report.ok(), (report.ok() ? "" : report.error().message));
  int checked[kParamCount] = {};
  for (const GradCheckEntry& e : report->entries) {
    INFO(param_name(e.param) << "[" << e.index << "] adjoint " << e.adjoint << ", finite difference "
                             << e.finite_difference << ", uncertainty " << e.uncertainty);
    CHECK(e.passed);
    ++checked[static_cast<int>(e.param)];
  }
  for (ParamId id : ids) {
    CAPTURE(param_name(id));
    CHECK(checked[static_cast<int>(id)] == std::min(samples, scene.params[id].size()));
  }
}

// float32 against float64: the loss to 1e-4, each gradient as a vector to `tolerance`
// of its size.
inline void check_float32_matches_float64(const Scene& scene, std::initializer_list<ParamId> ids,
                                          double tolerance = 1e-3) {
  const Outcome f64 = run_cpu_gradient(scene, 2, 0, Precision::Float64);
  const Outcome f32 = run_cpu_gradient(scene, 2, 0, Precision::Float32);
  CHECK(f32.loss == doctest::Approx(f64.loss).epsilon(1e-4));
  for (ParamId id : ids) {
    double diff = 0, size = 0;
    for (size_t k = 0; k < f64.params[id].grad.size(); ++k) {
      diff += std::pow(f32.params[id].grad[k] - f64.params[id].grad[k], 2);
      size += std::pow(f64.params[id].grad[k], 2);
    }
    CAPTURE(param_name(id));
    CHECK(std::sqrt(diff) <= tolerance * std::sqrt(size));
  }
}

}  // namespace nudge::test
