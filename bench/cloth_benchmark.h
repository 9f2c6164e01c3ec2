// B1 `cloth` of the shared benchmark spec: a hanging n x n mass-spring sheet, the loss of
// its final positions against targets, and the gradient with respect to the initial
// velocities and the spring stiffnesses. The same builder makes scenes/cloth.json.
#pragma once

#include <string>

#include "nudge/result.h"
#include "nudge/scene.h"
#include "nudge/simulator.h"

namespace nudge {

// The B1 scene: particles (i h, 1, j h), h = 0.05, mass 0.01, the corners of row 0
// pinned, structural and shear springs k = 200, c = 0.1, dt = 1e-3, target offset
// (0.2, -0.9, 0.1) for every particle at the final step.
Scene make_cloth_scene(int n, int steps);

struct ClothBenchOptions {
  int n = 32;
  int steps = 500;
  Precision precision = Precision::Float32;
  Device device = Device::Auto;
  int runs = 5;
  int threads = 0;           // 0: all cores
  int checkpoint_every = 0;  // 0: store every state
};

struct ClothBenchResult {
  ClothBenchOptions options;
  std::string device;        // the backend that ran, in words
  std::string notice;        // what the rollout does differently (checkpointing)
  std::string cpu_fallback;  // why Device::Auto runs on the CPU, if it does
  double loss = 0, grad_v0_norm = 0, grad_k_norm = 0;
  double forward_s = 0, gradient_s = 0;  // medians over `runs` timed runs after one warm-up
  int threads = 0;

  std::string to_json() const;  // the one-line JSON object the spec asks for
};

Result<ClothBenchResult> run_cloth_benchmark(const ClothBenchOptions& options);

}  // namespace nudge
