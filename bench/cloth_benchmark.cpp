#include "cloth_benchmark.h"

#include <nlohmann/json.hpp>
#include <vector>

#include "bench_timing.h"

namespace nudge {

Scene make_cloth_scene(int n, int steps) {
  constexpr double h = 0.05;
  Scene scene;
  scene.name = "cloth";
  scene.description = "B1: a hanging " + std::to_string(n) + " x " + std::to_string(n) +
                      " mass-spring sheet pinned at two corners; its final positions are pulled toward targets.";
  scene.settings.dt = 1e-3;
  scene.settings.steps = steps;
  const int count = n * n;
  scene.pinned.assign(count, 0);
  scene.pinned[0] = scene.pinned[n - 1] = 1;
  std::vector<double> position(3 * count);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const int p = i * n + j;
      position[3 * p] = i * h, position[3 * p + 1] = 1.0, position[3 * p + 2] = j * h;
    }
  auto spring = [&](int a, int b) {
    scene.spring_a.push_back(a);
    scene.spring_b.push_back(b);
  };
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const int p = i * n + j;
      if (i + 1 < n) spring(p, (i + 1) * n + j);
      if (j + 1 < n) spring(p, p + 1);
      if (i + 1 < n && j + 1 < n) {
        spring(p, (i + 1) * n + j + 1);
        spring((i + 1) * n + j, p + 1);
      }
    }
  scene.initial_positions() = position;
  shape_parameters(scene);  // rest lengths from the initial positions, zero velocities
  scene.params[ParamId::Mass].value.assign(count, 0.01);
  scene.params[ParamId::Stiffness].value.assign(scene.spring_count(), 200.0);
  scene.params[ParamId::Damping].value.assign(scene.spring_count(), 0.1);
  scene.params[ParamId::Gravity].value = {0.0, -9.81, 0.0};
  scene.params[ParamId::InitialVelocity].optimize = true;

  Objective target;
  target.type = ObjectiveType::Positions;
  for (int p = 0; p < count; ++p) {
    target.particles.push_back(p);
    target.target.insert(target.target.end(),
                         {position[3 * p] + 0.2, position[3 * p + 1] - 0.9, position[3 * p + 2] + 0.1});
  }
  scene.objectives.push_back(std::move(target));
  return scene;
}

std::string ClothBenchResult::to_json() const {
  nlohmann::ordered_json j;
  j["impl"] = "nudge-" + device;
  j["bench"] = "cloth";
  j["n"] = options.n;
  j["steps"] = options.steps;
  j["dtype"] = precision_name(options.precision);
  j["loss"] = loss;
  j["grad_v0_norm"] = grad_v0_norm;
  j["grad_k_norm"] = grad_k_norm;
  j["forward_s"] = forward_s;
  j["gradient_s"] = gradient_s;
  j["runs"] = options.runs;
  j["threads"] = threads;
  j["checkpoint_every"] = options.checkpoint_every;
  return j.dump();
}

Result<ClothBenchResult> run_cloth_benchmark(const ClothBenchOptions& options) {
  if (options.n < 2 || options.steps < 1 || options.runs < 1)
    return Error{"cloth benchmark: need n >= 2, steps >= 1 and runs >= 1"};
  SimulatorOptions sim_options;
  sim_options.device = options.device;
  sim_options.precision = options.precision;
  sim_options.threads = options.threads;
  sim_options.checkpoint_every = options.checkpoint_every;
  ClothBenchResult result;
  result.options = options;
  if (Status s = measure_gradient(make_cloth_scene(options.n, options.steps), sim_options, options.runs,
                                  ParamId::Stiffness, result);
      !s)
    return s.error();
  return result;
}

}  // namespace nudge
