// The `weights` objective (engine/src/objectives/weights_term.cpp): a linear function of
// every position of the trajectory. Its loss is the weights dotted with the trajectory's
// positions; its gradient, the trajectory's vector-Jacobian product, agrees with central
// differences through particles, bodies and material points; it round-trips through a
// scene file, and a wrong count of weights is named.
#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "../source_dir.h"
#include "cpu_simulator.h"
#include "nudge/gradcheck.h"
#include "nudge/objective_facts.h"
#include "nudge/parameter_facts.h"
#include "nudge/scene.h"
#include "temp_dir.h"

using namespace nudge;

namespace {

Scene example(const std::string& name) {
  Result<Scene> scene = load_scene(test::source_dir() / "scenes" / (name + ".json"));
  REQUIRE_MESSAGE(scene.ok(), (scene.ok() ? std::string() : scene.error().message));
  return std::move(scene).value();
}

// The scene with one weights objective of random weights in place of its own, over its
// first `steps` steps; with `motion`, on the velocities and orientations too.
Scene with_random_weights(Scene scene, int steps, bool motion = false) {
  scene.settings.steps = steps;
  shape_parameters(scene);
  const size_t per_step = weights_per_step(scene, motion);
  std::mt19937_64 rng(27);
  std::uniform_real_distribution<double> uniform(-1, 1);
  Objective o;
  o.type = ObjectiveType::Weights;
  o.weight = 0.5;
  for (size_t k = 0; k < size_t(steps + 1) * per_step; ++k) o.target.push_back(uniform(rng));
  scene.objectives = {o};
  return scene;
}

// Checks the parameters' sampled entries against central differences (each must pass);
// returns how many have a gradient that is not 0.
int checked_entries(const Scene& scene, const std::vector<ParamId>& parameters) {
  GradCheckOptions options;
  options.parameters = parameters;
  options.samples_per_parameter = 4;
  const Result<GradCheckReport> report = gradient_check(scene, options);
  REQUIRE_MESSAGE(report.ok(), (report.ok() ? "" : report.error().message));
  int nonzero = 0;
  for (const GradCheckEntry& e : report->entries) {
    INFO(param_name(e.param) << "[" << e.index << "] adjoint " << e.adjoint << ", finite difference "
                             << e.finite_difference);
    CHECK(e.passed);
    nonzero += e.adjoint != 0.0;
  }
  return nonzero;
}

}  // namespace

TEST_CASE("weights objective: its loss is the weights dotted with every position of the trajectory") {
  const Scene scene = with_random_weights(example("tether"), 60);  // particles and a body
  REQUIRE_MESSAGE(check_scene(scene).ok(), check_scene(scene).error().message);
  const Result<Trajectory> traj = test::cpu_simulator(scene, 1)->trajectory(scene.params);
  const Result<Evaluation> eval = test::cpu_simulator(scene, 1)->evaluate(scene.params);
  REQUIRE(traj.ok());
  REQUIRE(eval.ok());
  const std::vector<double>& w = scene.objectives[0].target;
  const int n = traj->particles, b = traj->bodies;
  double sum = 0;
  size_t k = 0;
  for (int t = 0; t <= traj->steps; ++t) {
    for (int i = 0; i < 3 * n; ++i) sum += w[k++] * traj->x[size_t(t) * 3 * size_t(n) + size_t(i)];
    for (int i = 0; i < 3 * b; ++i) sum += w[k++] * traj->body_x[size_t(t) * 3 * size_t(b) + size_t(i)];
  }
  CHECK(k == w.size());
  CHECK(eval->loss == doctest::Approx(0.5 * sum).epsilon(1e-12));
}

TEST_CASE("weights objective: with the motion, the weights dotted with velocities and orientations too") {
  const Scene scene = with_random_weights(example("tether"), 60, true);
  REQUIRE_MESSAGE(check_scene(scene).ok(), check_scene(scene).error().message);
  const Result<Trajectory> traj = test::cpu_simulator(scene, 1)->trajectory(scene.params);
  const Result<Evaluation> eval = test::cpu_simulator(scene, 1)->evaluate(scene.params);
  REQUIRE(traj.ok());
  REQUIRE(eval.ok());
  REQUIRE(traj->bodies > 0);
  const std::vector<double>& w = scene.objectives[0].target;
  const size_t n = size_t(traj->particles), b = size_t(traj->bodies);
  double sum = 0;
  size_t k = 0;
  const auto dot = [&](const std::vector<double>& a, int t, size_t count) {
    for (size_t i = 0; i < count; ++i) sum += w[k++] * a[size_t(t) * count + i];
  };
  for (int t = 0; t <= traj->steps; ++t) {
    dot(traj->x, t, 3 * n);
    dot(traj->body_x, t, 3 * b);
    dot(traj->v, t, 3 * n);
    dot(traj->body_q, t, 4 * b);
    dot(traj->body_v, t, 3 * b);
    dot(traj->body_w, t, 3 * b);
  }
  CHECK(k == w.size());
  CHECK(eval->loss == doctest::Approx(0.5 * sum).epsilon(1e-12));

  CHECK(checked_entries(scene, {ParamId::InitialVelocity, ParamId::BodyVelocity, ParamId::BodyAngularVelocity}) >= 6);
}

TEST_CASE("weights objective: its gradient against central differences, particles, bodies and material points") {
  for (const auto& [name, parameters] :
       {std::pair{std::string("tether"), std::vector<ParamId>{ParamId::InitialVelocity, ParamId::BodyVelocity}},
        std::pair{std::string("jelly_bounce"), std::vector<ParamId>{ParamId::PointVelocity, ParamId::PointPosition}}}) {
    CAPTURE(name);
    CHECK(checked_entries(with_random_weights(example(name), 40), parameters) >= 4);
  }
}

TEST_CASE("weights objective: round-trips through a scene file; a wrong count is named") {
  const Scene scene = with_random_weights(example("projectile"), 10);
  test::TempDir dir("weights");
  REQUIRE(save_scene(scene, dir.path / "weights.json").ok());
  const Result<Scene> again = load_scene(dir.path / "weights.json");
  REQUIRE_MESSAGE(again.ok(), (again.ok() ? "" : again.error().message));
  CHECK(again->objectives.at(0).type == ObjectiveType::Weights);
  CHECK(again->objectives.at(0).target == scene.objectives[0].target);

  Scene short_of_one = scene;
  short_of_one.objectives[0].target.pop_back();
  const Status checked = check_scene(short_of_one);
  REQUIRE_FALSE(checked.ok());
  CAPTURE(checked.error().message);
  CHECK(checked.error().message.find("objectives[0].weights: found 32 values; expected 33 (the positions') or 66 "
                                     "(with the velocities and orientations)") != std::string::npos);
}
