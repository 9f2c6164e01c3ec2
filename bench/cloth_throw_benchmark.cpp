#include "cloth_throw_benchmark.h"

#include <cmath>
#include <nlohmann/json.hpp>
#include <numbers>
#include <vector>

#include "bench_timing.h"

namespace nudge {

Scene make_cloth_throw_scene(int steps) {
  constexpr int dim = 16, side = dim + 1;  // cells and particles along a side
  constexpr double cell = 1.0 / dim;
  Scene scene;
  scene.name = "cloth_throw";
  scene.description =
      "Warp's example_cloth_throw: a 1 x 1 m cloth of 17 x 17 particles (1 kg each, 512 triangles, tri_ke = tri_ka "
      "= 1e4, tri_kd = 100, drag 5, lift 10, and dihedral bending edge_ke = 100 on its 736 interior edges), tilted 45 "
      "degrees and thrown at (0.1, 0.1, 0) m/s, flies for 2 s "
      "(1920 steps of 1/960 s, no ground). Its initial velocities, one per particle, are optimised by gradient "
      "descent so that its centroid ends at (8, 0, 0); the gradient flows through the membrane and the air's drag "
      "and lift on every triangle and the bending between neighbouring triangles. With Warp's settings (gradient "
      "descent, rate 5, 64 iterations) the loss |centroid - target|^2 falls from 270 to below 1.";
  scene.settings.dt = 1.0 / 960.0;  // Warp's 1/60 s frame in 16 substeps
  scene.settings.steps = steps;
  const int count = side * side;
  scene.pinned.assign(size_t(count), 0);

  // add_cloth_grid: particle (x, y) of the grid at index y * 17 + x, at (x, y, 0) cells,
  // rotated by -45 degrees about x: (x h, y h cos 45, -y h sin 45).
  const double c = std::cos(std::numbers::pi / 4), s = std::sin(std::numbers::pi / 4);
  std::vector<double> position;
  for (int y = 0; y < side; ++y)
    for (int x = 0; x < side; ++x)
      position.insert(position.end(), {x * cell, y * cell * c, 0.0 - y * cell * s});  // 0 - : no -0.0 in row 0
  // Each cell split the same way (Warp's default, no alternation): (v0, v1, v2), (v1, v3, v2).
  for (int y = 0; y < dim; ++y)
    for (int x = 0; x < dim; ++x) {
      const int v0 = y * side + x, v1 = v0 + 1, v2 = v0 + side, v3 = v2 + 1;
      scene.triangles.insert(scene.triangles.end(), {v0, v1, v2, v1, v3, v2});
    }
  // Warp's bending edges: the grid's interior edges, found as its MeshAdjacency does.
  scene.bending = bending_edges_of_triangles(scene.triangles);
  scene.initial_positions() = position;
  shape_parameters(scene);
  const size_t tris = size_t(scene.triangle_count());
  std::vector<double> velocity;
  for (int p = 0; p < count; ++p) velocity.insert(velocity.end(), {0.1, 0.1, 0.0});
  scene.params[ParamId::InitialVelocity].value = velocity;
  scene.params[ParamId::InitialVelocity].optimize = true;
  scene.params[ParamId::Mass].value.assign(size_t(count), 1.0);
  scene.params[ParamId::Gravity].value = {0.0, -9.80665, 0.0};
  scene.params[ParamId::Drag].value = {0.0};
  scene.params[ParamId::TriangleStiffness].value.assign(tris, 1e4);
  scene.params[ParamId::TriangleAreaStiffness].value.assign(tris, 1e4);
  scene.params[ParamId::TriangleDamping].value.assign(tris, 100.0);
  scene.params[ParamId::TriangleDrag].value.assign(tris, 5.0);
  scene.params[ParamId::TriangleLift].value.assign(tris, 10.0);
  scene.params[ParamId::BendingStiffness].value.assign(size_t(scene.bending_count()), 100.0);  // Warp's default_edge_ke
  scene.params[ParamId::BendingDamping].value.assign(size_t(scene.bending_count()), 0.0);      // and default_edge_kd

  Objective target;
  target.type = ObjectiveType::Target;
  for (int p = 0; p < count; ++p) target.particles.push_back(p);
  target.target = {8.0, 0.0, 0.0};
  scene.objectives.push_back(std::move(target));

  scene.optimizer.method = OptimizerMethod::GradientDescent;
  scene.optimizer.iterations = 64;
  scene.optimizer.learning_rate = 5.0;
  scene.optimizer.momentum = 0.0;
  return scene;
}

std::string ClothThrowBenchResult::to_json() const {
  nlohmann::ordered_json j;
  j["impl"] = "nudge-" + device;
  j["bench"] = "cloth_throw";
  j["n"] = 17;
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
  j["bending"] = true;
  return j.dump();
}

Result<ClothThrowBenchResult> run_cloth_throw_benchmark(const ClothThrowBenchOptions& options) {
  if (options.steps < 1 || options.runs < 1 || options.threads < 0 || options.checkpoint_every < 0)
    return Error{"cloth_throw benchmark: need steps >= 1, runs >= 1, threads >= 0 and checkpoint >= 0"};
  SimulatorOptions sim_options;
  sim_options.device = options.device;
  sim_options.precision = options.precision;
  sim_options.threads = options.threads;
  sim_options.checkpoint_every = options.checkpoint_every;
  ClothThrowBenchResult result;
  result.options = options;
  if (Status s = measure_gradient(make_cloth_throw_scene(options.steps), sim_options, options.runs,
                                  ParamId::TriangleStiffness, result);
      !s)
    return s.error();
  return result;
}

}  // namespace nudge
