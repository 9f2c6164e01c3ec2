// Gradient descent against CMA-ES on one objective with one budget: each curve is the
// engine's own run, counted in simulations, and its best loss never rises.
#include <doctest/doctest.h>

#include "nudge/optimize_scene.h"
#include "studio/method_comparison.h"
#include "studio/rollout_worker.h"
#include "studio_test_scenes.h"

using namespace nudge;
using namespace nudge::studio;

TEST_CASE("method comparison: gradient descent and CMA-ES on the projectile, within one budget") {
  const Scene scene = studio_test::load_example("projectile");
  OptimizerSettings gd = scene.optimizer;
  gd.method = OptimizerMethod::GradientDescent;
  gd.learning_rate = 1e-2;
  gd.momentum = 0.5;
  gd.tolerance = gd.loss_tolerance = 0;
  OptimizerSettings cmaes = scene.optimizer;
  cmaes.method = OptimizerMethod::CMAES;
  cmaes.tolerance = cmaes.loss_tolerance = 0;
  const int budget = 50;
  MethodComparison comparison(scene, {gd, cmaes}, budget);
  REQUIRE(comparison.job().wait(120.0));
  auto result = comparison.latest();
  REQUIRE(result->finished);
  REQUIRE_MESSAGE(result->error.empty(), result->error);
  REQUIRE(result->curves.size() == 2);
  CHECK(result->curves[0].label == "gradient descent");
  CHECK(result->curves[1].label == "CMA-ES");

  auto sim = Simulator::create(scene, rollout_simulator_options());
  REQUIRE(sim.ok());
  const double start = (*sim)->evaluate(scene.params)->loss;
  for (const ComparisonCurve& curve : result->curves) {
    CAPTURE(curve.label);
    REQUIRE(curve.done);
    REQUIRE(curve.points.size() >= 3);
    CHECK(curve.points[0].simulations == 1);
    CHECK(curve.points[0].best_loss == start);
    for (size_t k = 1; k < curve.points.size(); ++k) {
      CHECK(curve.points[k].simulations > curve.points[k - 1].simulations);
      CHECK(curve.points[k].best_loss <= curve.points[k - 1].best_loss);
    }
    CHECK(curve.points.back().best_loss < start);
    // Stopped by the budget: the last iteration is the one that reached it.
    CHECK(curve.points.back().simulations >= budget);
    CHECK(curve.points[curve.points.size() - 2].simulations < budget);
  }
  // Gradient descent takes one simulation per iteration; CMA-ES a generation of them.
  CHECK(result->curves[0].points[1].simulations == 2);
  CHECK(result->curves[1].points[1].simulations == 1 + 7);  // 4 + floor(3 ln 3) samples

  // The curves are the engine's runs: the same settings give the same best loss.
  for (size_t m = 0; m < 2; ++m) {
    OptimizerSettings settings = m == 0 ? gd : cmaes;
    const int iterations = static_cast<int>(result->curves[m].points.size()) - 1;
    settings.iterations = iterations;
    ParameterSet params = scene.params;
    Result<OptimizeResult> run = optimize_parameters(**sim, params, settings);
    REQUIRE(run.ok());
    CHECK(run->loss == result->curves[m].points.back().best_loss);
  }
}

TEST_CASE("method comparison: cancelling stops it") {
  const Scene scene = studio_test::load_example("walker");
  OptimizerSettings cmaes = scene.optimizer;
  cmaes.method = OptimizerMethod::CMAES;
  MethodComparison comparison(scene, {cmaes}, 1000000);
  comparison.cancel();
  REQUIRE(comparison.job().wait(120.0));
  CHECK(comparison.latest()->finished);
}
