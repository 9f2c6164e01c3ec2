// B3 `cloth_throw`: NVIDIA Warp's example_cloth_throw (warp/examples/optim/
// example_cloth_throw.py) as it ships: a 17 x 17 cloth of 512 triangles and 736 bending
// edges thrown through drag and lift for 1920 steps, the loss |centroid - (8, 0, 0)|^2 and its
// gradient with respect to every particle's initial velocity. The builder makes the same
// scene as scenes/cloth_throw.json (tests/engine/cloth_throw_benchmark_test.cpp checks),
// so an installed binary needs no scene file.
#pragma once

#include <string>

#include "nudge/result.h"
#include "nudge/scene.h"
#include "nudge/simulator.h"

namespace nudge {

// Warp's add_cloth_grid(dim 16 x 16, cell 1/16, mass 1, tri_ke = tri_ka = 1e4, tri_kd = 100,
// tri_drag = 5, tri_lift = 10, edge_ke = 100 on its interior edges), rotated -45 degrees about x, thrown at (0.1, 0.1, 0) m/s,
// gravity -9.80665, dt = 1/960, no ground; the initial velocities are optimised (gradient
// descent, rate 5, 64 iterations) toward a centroid at (8, 0, 0). `steps` = 1920 is
// scenes/cloth_throw.json.
Scene make_cloth_throw_scene(int steps = 1920);

struct ClothThrowBenchOptions {
  int steps = 1920;
  Precision precision = Precision::Float32;
  Device device = Device::Auto;
  int runs = 5;
  int threads = 0;           // 0: all cores
  int checkpoint_every = 0;  // 0: store every state
};

struct ClothThrowBenchResult {
  ClothThrowBenchOptions options;
  std::string device;        // the backend that ran, in words
  std::string notice;        // what the rollout does differently (checkpointing)
  std::string cpu_fallback;  // why Device::Auto runs on the CPU, if it does
  // grad_k_norm is |dL/d tri_ke|, the 512 triangles' membrane stiffnesses (Warp's
  // tri_materials[:, 0]).
  double loss = 0, grad_v0_norm = 0, grad_k_norm = 0;
  double forward_s = 0, gradient_s = 0;  // medians over `runs` timed runs after one warm-up
  int threads = 0;

  std::string to_json() const;  // the spec's one-line JSON object, bench "cloth_throw", n 17
};

Result<ClothThrowBenchResult> run_cloth_throw_benchmark(const ClothThrowBenchOptions& options);

}  // namespace nudge
