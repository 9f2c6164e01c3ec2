// The gradient-growth check (nudge/gradient_growth.h): synthetic adjoint sizes (flat,
// growing from a step, noisy, exploding), the per-step norms a gradient records
// (StateAdjoints::norm) against the full recording, and a chaotic motion whose gradient
// grows against a calm one whose does not.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "nudge/gradient_growth.h"
#include "nudge/scene.h"
#include "nudge/simulator.h"
#include "test_scenes.h"

using namespace nudge;

namespace {

StateAdjoints record(const Scene& scene, bool norms_only) {
  auto sim = Simulator::create(scene, SimulatorOptions{});
  REQUIRE(sim.ok());
  ParameterSet params = scene.params;
  GradientOptions options;
  options.record_state_adjoints = !norms_only;
  options.record_adjoint_norms = norms_only;
  StateAdjoints adjoints;
  REQUIRE((*sim)->gradient(params, options, &adjoints).ok());
  return adjoints;
}

}  // namespace

TEST_CASE("gradient growth: flat, growing from a step, noisy") {
  std::vector<double> flat(500, 2.0);
  CHECK_FALSE(find_gradient_growth(flat).has_value());
  // 1.03x per step back from step 300 (about 7000x by step 0), flat after it.
  std::vector<double> growing(501);
  for (int t = 0; t <= 500; ++t) growing[size_t(t)] = t >= 300 ? 1.0 : std::pow(1.03, 300 - t);
  const std::optional<GradientGrowth> g = find_gradient_growth(growing);
  REQUIRE(g.has_value());
  CHECK(g->onset >= 300);
  CHECK(g->onset <= 340);
  CHECK(g->per_step == doctest::Approx(1.03).epsilon(0.01));
  CHECK(g->factor > 1e3);
  // The same with noise of a factor up to 3 either way on every step.
  std::vector<double> noisy = growing;
  for (int t = 0; t <= 500; ++t) noisy[size_t(t)] *= std::exp(std::sin(12.9898 * t) * std::log(3.0));
  const std::optional<GradientGrowth> n = find_gradient_growth(noisy);
  REQUIRE(n.has_value());
  CHECK(std::abs(n->onset - 300) <= 60);
  // Growth of 100x in all is below the warning's threshold; zeros (steps after the last
  // objective) are left out.
  std::vector<double> mild(501);
  for (int t = 0; t <= 500; ++t) mild[size_t(t)] = t > 450 ? 0.0 : std::pow(1.01, 450 - t);
  CHECK(find_gradient_growth(mild, 1e3) == std::nullopt);
  CHECK(find_gradient_growth(mild, 50.0).has_value());
}

TEST_CASE("gradient growth: the recorded norms are those of the full adjoint") {
  const Scene scene = test::make_feature_scene(60);
  const StateAdjoints full = record(scene, false);
  const StateAdjoints norms = record(scene, true);
  REQUIRE(full.norm.size() == 61);
  CHECK(norms.x.empty());
  CHECK(norms.norm == full.norm);
  for (int t = 0; t <= 60; ++t) {
    double squares = 0;
    for (int k = 0; k < 12; ++k)
      squares += std::pow(full.x[size_t(t) * 12 + k], 2) + std::pow(full.v[size_t(t) * 12 + k], 2);
    CHECK(full.norm[size_t(t)] == doctest::Approx(std::sqrt(squares)).epsilon(1e-12));
  }
}

TEST_CASE("gradient growth: a pendulum balanced upside down grows its gradient; a short one and a calm scene do not") {
  // A 1 kg bob on a stiff 0.5 m spring from a pinned pivot, 0.1 mm off the top: it stays
  // near the top, where every error grows by e^(sqrt(g / L) t), then falls and swings.
  const auto inverted = [](int steps) {
    Scene scene;
    scene.settings.dt = 1e-3;
    scene.settings.steps = steps;
    scene.pinned = {1, 0};
    scene.spring_a = {0};
    scene.spring_b = {1};
    scene.spring_channel = {-1};
    scene.actuation = {0};
    scene.params[ParamId::InitialPosition].value = {0, 0, 0, 1e-4, 0.5, 0};
    shape_parameters(scene);
    scene.params[ParamId::Stiffness].value = {1e4};
    scene.params[ParamId::Mass].value = {1, 1};
    Objective target;
    target.type = ObjectiveType::Target;
    target.particles = {1};
    target.target = {0.3, -0.2, 0};
    scene.objectives = {target};
    REQUIRE(check_scene(scene).ok());
    return scene;
  };
  const std::optional<GradientGrowth> long_run = find_gradient_growth(record(inverted(2500), true).norm);
  REQUIRE(long_run.has_value());
  CHECK(long_run->factor > 1e3);
  CHECK(long_run->onset > 1000);
  CHECK(long_run->per_step > 1.0);
  CHECK_FALSE(find_gradient_growth(record(inverted(800), true).norm).has_value());
  CHECK_FALSE(find_gradient_growth(record(test::make_feature_scene(200), true).norm).has_value());
}
