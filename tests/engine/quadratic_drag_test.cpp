// The quadratic drag family (families/quadratic_drag): its kernel's adjoint against
// central differences in double, its physics (terminal velocity, the wind as a change of
// frame), the family in the rollout (the same bits on any thread count and with
// checkpoints, scene gradients against central differences with the semi-implicit and the
// implicit step, float32 against float64), what a scene without it pays (nothing), and
// its column in scene files.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "central_difference.h"
#include "families/quadratic_drag/quadratic_drag.h"
#include "gradient_outcome.h"
#include "implicit_test_scenes.h"
#include "nudge/gradcheck.h"
#include "nudge/parameter_facts.h"
#include "nudge/scene.h"
#include "nudge/simulator.h"
#include "sanitized.h"
#include "temp_dir.h"
#include "test_scenes.h"

using namespace nudge;
using test::central_difference;

namespace {

using V = Vec3<double>;

double& component(V& v, int k) { return k == 0 ? v.x : (k == 1 ? v.y : v.z); }
double component(const V& v, int k) { return k == 0 ? v.x : (k == 1 ? v.y : v.z); }

// A scene with the family: the feature scene's springs, ground and objectives, each
// particle with its own coefficient, in a wind.
Scene feature_scene_with_drag(int steps = 60) {
  Scene scene = test::make_feature_scene(steps, /*pinned=*/false);
  REQUIRE(check_scene(scene).ok());
  scene.params[ParamId::QuadraticDrag].value = {0.08, 0.05, 0.12, 0.03};
  scene.params[ParamId::Wind].value = {1.2, 0.3, -0.6};
  return scene;
}

// One particle falling from rest for `seconds` under gravity with drag c, no ground.
Scene falling_particle(double c, double mass, double seconds, double dt = 1e-3) {
  Scene scene;
  scene.settings.dt = dt;
  scene.settings.steps = static_cast<int>(std::lround(seconds / dt));
  scene.pinned = {0};
  scene.params[ParamId::InitialPosition].value = {0, 100, 0};
  shape_parameters(scene);
  scene.params[ParamId::Mass].value = {mass};
  scene.params[ParamId::QuadraticDrag].value = {c};
  return scene;
}

}  // namespace

TEST_CASE("quadratic drag kernel: the adjoint against central differences in double") {
  std::mt19937 gen(7);
  std::uniform_real_distribution<double> u(-2, 2);
  for (int trial = 0; trial < 50; ++trial) {
    double c = 0.05 + 0.1 * (u(gen) + 2);
    V v{u(gen), u(gen), u(gen)}, wind{u(gen), u(gen), u(gen)};
    const V w{u(gen), u(gen), u(gen)};  // dL/dF: L = w . F
    const auto loss = [&] { return dot(w, quadratic_drag_force(c, v, wind)); };
    const QuadraticDragAdjoint<double> g = quadratic_drag_adjoint(c, v, wind, w);
    for (int k = 0; k < 3; ++k) {
      CHECK(gradient_relative_error(component(g.v, k), central_difference(component(v, k), loss), 1e-9) <= 1e-7);
      CHECK(gradient_relative_error(-component(g.v, k), central_difference(component(wind, k), loss), 1e-9) <= 1e-7);
    }
    CHECK(gradient_relative_error(g.c, central_difference(c, loss), 1e-9) <= 1e-7);
  }
  // In still air at the wind's speed there is no force and no derivative (not 0/0).
  const QuadraticDragAdjoint<double> at_rest = quadratic_drag_adjoint(0.1, V{1, 2, 3}, V{1, 2, 3}, V{1, 1, 1});
  CHECK(at_rest.c == 0.0);
  CHECK(length(at_rest.v) == 0.0);
  CHECK(length(quadratic_drag_force(0.1, V{1, 2, 3}, V{1, 2, 3})) == 0.0);
}

TEST_CASE("quadratic drag: a falling particle reaches the terminal velocity sqrt(m g / c)") {
  const double mass = 0.2, c = 0.05, g = 9.81;
  const double terminal = std::sqrt(mass * g / c);  // 6.26 m/s, reached in a few m / (g) seconds
  const Trajectory traj = test::simulate_on_cpu(falling_particle(c, mass, 5.0));
  const size_t last = size_t(traj.steps) * 3;
  CHECK(traj.v[last + 1] == doctest::Approx(-terminal).epsilon(1e-3));
  CHECK(std::fabs(traj.v[last]) < 1e-12);
  // Without it the particle keeps accelerating: the test can tell.
  const Trajectory free = test::simulate_on_cpu(falling_particle(0.0, mass, 5.0));
  CHECK(free.v[last + 1] == doctest::Approx(-g * 5.0).epsilon(1e-9));
}

TEST_CASE("quadratic drag: the wind is a change of frame, and carries a particle along") {
  // In a wind w, a particle moving at v feels what one moving at v - w in still air feels.
  Scene still = falling_particle(0.05, 0.2, 0.5);
  still.params[ParamId::Gravity].value = {0, 0, 0};
  still.params[ParamId::InitialVelocity].value = {-2, 0, 0};
  Scene windy = still;
  windy.params[ParamId::InitialVelocity].value = {1, 0, 0};
  windy.params[ParamId::Wind].value = {3, 0, 0};
  const Trajectory a = test::simulate_on_cpu(still), b = test::simulate_on_cpu(windy);
  for (int t = 0; t <= a.steps; ++t)
    CHECK(b.v[3 * size_t(t)] - 3 == doctest::Approx(a.v[3 * size_t(t)]).epsilon(1e-12));
  // A particle at rest in a wind is pushed along it.
  Scene rest = still;
  rest.params[ParamId::InitialVelocity].value = {0, 0, 0};
  rest.params[ParamId::Wind].value = {0, 0, 2};
  const Trajectory c = test::simulate_on_cpu(rest);
  CHECK(c.v[3 * size_t(c.steps) + 2] > 0.3);
  CHECK(c.v[3 * size_t(c.steps) + 2] < 2.0);
}

TEST_CASE("quadratic drag family: the same bits on 1 and 4 threads and with checkpoints") {
  const test::Outcome one = test::require_same_bits_for_threads_and_checkpoints(feature_scene_with_drag(90));
  test::check_has_gradient(one, {ParamId::QuadraticDrag, ParamId::Wind});
}

TEST_CASE("quadratic drag family: scene gradients against central differences") {
  test::check_against_central_differences(
      feature_scene_with_drag(),
      {ParamId::QuadraticDrag, ParamId::Wind, ParamId::InitialVelocity, ParamId::Mass, ParamId::Stiffness});
  // With the triangles in the same wind, dL/dwind sums both families' shares.
  Scene sheet = test::make_triangle_sheet(4, 4, 50, /*ground=*/false);
  std::vector<double>& c = sheet.params[ParamId::QuadraticDrag].value;
  for (size_t i = 0; i < c.size(); ++i) c[i] = 0.01 + 0.004 * double(i % 5);
  test::check_against_central_differences(sheet, {ParamId::QuadraticDrag, ParamId::Wind, ParamId::TriangleDrag});
}

TEST_CASE("quadratic drag family: implicit Euler gradients against central differences" *
          doctest::skip(test::kSanitized)) {
  Scene scene = test::make_implicit_sheet(20);
  std::vector<double>& c = scene.params[ParamId::QuadraticDrag].value;
  for (size_t i = 0; i < c.size(); ++i) c[i] = 0.02 + 0.01 * double(i % 3);
  test::check_against_central_differences(scene, {ParamId::QuadraticDrag, ParamId::Wind, ParamId::InitialVelocity},
                                          1000, 1e-5);
}

TEST_CASE("quadratic drag family: float32 agrees with float64") {
  test::check_float32_matches_float64(feature_scene_with_drag(120), {ParamId::QuadraticDrag, ParamId::Wind});
}

TEST_CASE("quadratic drag family: a scene without it pays nothing and says so when given some") {
  const Scene plain = test::make_feature_scene(40, false);
  const test::Outcome out = test::run_cpu_gradient(plain, 1);
  for (double gk : out.params[ParamId::QuadraticDrag].grad) CHECK(gk == 0.0);
  // The same bits as before the family existed: the determinism hashes cover every
  // example; here, a scene with the coefficients all 0 runs as the plain one.
  SimulatorOptions options;
  options.device = Device::Cpu;
  auto sim = Simulator::create(plain, options);
  REQUIRE(sim.ok());
  ParameterSet with_drag = plain.params;
  with_drag[ParamId::QuadraticDrag].value[2] = 0.1;
  Result<Evaluation> refused = (*sim)->evaluate(with_drag);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().message.find("particles.quadratic_drag: the simulator was built from a scene without") !=
        std::string::npos);
  // Optimising it from 0 makes it present.
  Scene optimised = plain;
  optimised.params[ParamId::QuadraticDrag].optimize = true;
  const test::Outcome opt = test::run_cpu_gradient(optimised, 1);
  test::check_has_gradient(opt, {ParamId::QuadraticDrag});
  CHECK(opt.loss == out.loss);
}

TEST_CASE("quadratic drag: its column in scene files reads, checks and saves from the facts table") {
  const std::string head =
      R"({"format": "nudge-scene", "version": 1, "simulation": {"dt": 0.01, "steps": 10, "wind": [1, 0, 0]},
    "particles": {"position": [[0, 1, 0], [1, 1, 0]], "quadratic_drag": )";
  Result<Scene> one = parse_scene(head + "0.2}}", "");
  REQUIRE_MESSAGE(one.ok(), (one.ok() ? "" : one.error().message));
  CHECK(one->params[ParamId::QuadraticDrag].value == std::vector<double>{0.2, 0.2});
  Result<Scene> bad = parse_scene(head + "[0.1, -1]}}", "s.json");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message ==
        "s.json: $.particles.quadratic_drag[1]: found -1; expected a quadratic drag coefficient >= 0 (kg/m)");
  test::TempDir dir("quadratic-drag");
  const std::filesystem::path path = dir.path / "drag.json";
  REQUIRE(save_scene(*one, path).ok());
  Result<Scene> again = load_scene(path);
  REQUIRE(again.ok());
  CHECK(again->params[ParamId::QuadraticDrag].value == std::vector<double>{0.2, 0.2});
  CHECK(param_from_name("quadratic_drag") == ParamId::QuadraticDrag);
}
