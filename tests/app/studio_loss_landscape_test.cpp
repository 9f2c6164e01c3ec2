// The loss landscape: its points are the engine's own losses, the gradient axis runs
// downhill with the gradient's slope, grids fill row by row, and cancelling stops it.
#include <doctest/doctest.h>

#include <cmath>

#include "studio/loss_landscape.h"
#include "studio/rollout_worker.h"
#include "studio_test_scenes.h"

using namespace nudge;
using namespace nudge::studio;

namespace {

std::shared_ptr<const LandscapeResult> run_to_end(LandscapeRequest request) {
  LossLandscape landscape(std::move(request));
  REQUIRE(landscape.job().wait(120.0));
  auto result = landscape.latest();
  REQUIRE(result->finished);
  REQUIRE_MESSAGE(result->error.empty(), result->error);
  return result;
}

double engine_loss(const Scene& scene, const ParameterSet& params) {
  auto sim = Simulator::create(scene, rollout_simulator_options());
  REQUIRE(sim.ok());
  Result<Evaluation> eval = (*sim)->evaluate(params);
  REQUIRE(eval.ok());
  return eval->loss;
}

}  // namespace

TEST_CASE("loss landscape: a line along one parameter is the engine's loss at each point") {
  const Scene scene = studio_test::load_example("spring_sysid");
  LandscapeRequest request{scene, parameter_axis(scene, {ParamId::Stiffness, 0}, 9), std::nullopt};
  const double k = scene.params[ParamId::Stiffness].value[0];
  CHECK(request.a.from == doctest::Approx(-0.5 * k));
  CHECK(request.a.to == doctest::Approx(0.5 * k));
  auto result = run_to_end(request);
  REQUIRE(result->loss.size() == 9);
  CHECK(result->computed == 9);
  CHECK(result->failed == 0);
  for (int i = 0; i < 9; ++i) {
    ParameterSet params = scene.params;
    params[ParamId::Stiffness].value[0] = k + request.a.offset(i);
    // Bitwise: the same rollout the engine runs for these values.
    CHECK(result->loss[size_t(i)] == engine_loss(scene, params));
  }
  // The middle sample is the centre itself.
  CHECK(result->loss[4] == result->centre_loss);
  CHECK(result->centre_loss == engine_loss(scene, scene.params));
  // The slope drawn through the centre is the engine's gradient.
  ParameterSet with_grad = scene.params;
  auto sim = Simulator::create(scene, rollout_simulator_options());
  REQUIRE((*sim)->gradient(with_grad).ok());
  CHECK(result->slope_a == with_grad[ParamId::Stiffness].grad[0]);
}

TEST_CASE("loss landscape: points stay within the parameter's bounds") {
  const Scene scene = studio_test::load_example("spring_sysid");
  LandscapeRequest request{scene, parameter_axis(scene, {ParamId::Damping, 0}, 5), std::nullopt};
  request.a.from = -1e6;  // far past the lower bound of 0
  const ParameterSet low = landscape_point(request, request.a.from, 0);
  CHECK(low[ParamId::Damping].value[0] == scene.params[ParamId::Damping].lower);
}

TEST_CASE("loss landscape: the gradient axis runs downhill at the gradient's slope") {
  const Scene scene = studio_test::load_example("projectile");
  LandscapeRequest request;
  request.scene = scene;
  request.a.kind = LandscapeAxis::Kind::NegativeGradient;
  request.a.from = -1e-4;
  request.a.to = 1e-4;
  request.a.samples = 3;
  auto result = run_to_end(request);
  // The slope along -g/|g| is -|g| (no bound is active at the projectile's start).
  ParameterSet with_grad = scene.params;
  auto sim = Simulator::create(scene, rollout_simulator_options());
  REQUIRE((*sim)->gradient(with_grad).ok());
  double g2 = 0;
  for (double g : with_grad.gather_optimized_grad()) g2 += g * g;
  CHECK(result->slope_a == doctest::Approx(-std::sqrt(g2)).epsilon(1e-12));
  // Downhill ahead, uphill behind, and the central difference is the slope.
  CHECK(result->loss[2] < result->centre_loss);
  CHECK(result->loss[0] > result->centre_loss);
  const double central = (result->loss[2] - result->loss[0]) / 2e-4;
  CHECK(central == doctest::Approx(result->slope_a).epsilon(1e-5));
  // Every point is the engine's loss at the moved parameters.
  for (int i = 0; i < 3; ++i)
    CHECK(result->loss[size_t(i)] == engine_loss(scene, landscape_point(result->request, request.a.offset(i), 0)));
}

TEST_CASE("loss landscape: a grid of two parameters, row by row") {
  const Scene scene = studio_test::load_example("spring_sysid");
  LandscapeRequest request{scene, parameter_axis(scene, {ParamId::Stiffness, 0}, 4),
                           parameter_axis(scene, {ParamId::Damping, 0}, 3)};
  auto result = run_to_end(request);
  REQUIRE(result->columns() == 4);
  REQUIRE(result->rows() == 3);
  REQUIRE(result->computed == 12);
  for (int row = 0; row < 3; ++row)
    for (int column = 0; column < 4; ++column) {
      ParameterSet params = scene.params;
      params[ParamId::Stiffness].value[0] += request.a.offset(column);
      params[ParamId::Damping].value[0] =
          std::max(params[ParamId::Damping].value[0] + request.b->offset(row), params[ParamId::Damping].lower);
      CHECK(result->loss[size_t(row * 4 + column)] == engine_loss(scene, params));
    }
}

TEST_CASE("loss landscape: cancelling stops it, a bad centre is an error, blow-ups are gaps") {
  SUBCASE("cancel") {
    const Scene scene = studio_test::load_example("walker");
    LandscapeRequest request{scene, parameter_axis(scene, {ParamId::Controls, 0}, 200),
                             parameter_axis(scene, {ParamId::Controls, 1}, 200)};
    LossLandscape landscape(request);
    landscape.cancel();
    REQUIRE(landscape.job().wait(60.0));
    auto result = landscape.latest();
    CHECK(result->finished);
    CHECK(result->computed < 40000);
  }
  SUBCASE("a centre that blows up") {
    const Scene scene = studio_test::exploding_scene();
    LossLandscape landscape(LandscapeRequest{scene, parameter_axis(scene, {ParamId::Stiffness, 0}, 3), std::nullopt});
    REQUIRE(landscape.job().wait(60.0));
    auto result = landscape.latest();
    CHECK(result->finished);
    CHECK(result->error.find("centre does not evaluate") != std::string::npos);
    CHECK(result->error.find("non-finite") != std::string::npos);
  }
  SUBCASE("points that blow up") {
    Scene scene = studio_test::exploding_scene();
    scene.params[ParamId::Stiffness].value = {10};  // stable at the centre
    LandscapeRequest request{scene, parameter_axis(scene, {ParamId::Stiffness, 0}, 3), std::nullopt};
    request.a.from = 0;
    request.a.to = 1e9;
    auto result = run_to_end(request);
    CHECK(result->failed == 2);
    CHECK(std::isfinite(result->loss[0]));
    CHECK(std::isnan(result->loss[2]));
  }
}
