// B4 `diffmpm`: DiffTaichi's diffmpm robot (examples/diffmpm.py), scenes/diffmpm.json as
// scripts/make_diffmpm_scene.py writes it: 2976 material points (MLS-MPM, fixed
// corotated) on a 128 x 128 grid, 1023 steps, and the gradient of its loss (the points'
// mean x at the end) with respect to the 20 controller weights. bench/compare_diffmpm.sh
// runs it beside DiffTaichi's own kernels (bench/difftaichi_diffmpm.py) in one run.
#pragma once

#include <string>

#include "nudge/result.h"
#include "nudge/simulator.h"

namespace nudge {

struct DiffmpmBenchOptions {
  std::string scene = "scenes/diffmpm.json";
  Precision precision = Precision::Float32;
  Device device = Device::Auto;
  int runs = 3;
  int threads = 0;           // 0: all cores
  int checkpoint_every = 0;  // 0: store every state
};

struct DiffmpmBenchResult {
  DiffmpmBenchOptions options;
  std::string device, notice, cpu_fallback;
  int points = 0, steps = 0, threads = 0;
  double loss = 0, grad_norm = 0;        // of the first gradient (the warm-up)
  double forward_s = 0, gradient_s = 0;  // medians over `runs` timed runs after the warm-up
  // The process's resident memory before the simulator was made and its peak after the
  // timed runs, MiB (what the rollout keeps is most of the difference).
  double base_rss_mib = 0, peak_rss_mib = 0;

  std::string to_json() const;
};

Result<DiffmpmBenchResult> run_diffmpm_benchmark(const DiffmpmBenchOptions& options);

}  // namespace nudge
