// The studio's state-adjoint run: the engine's recorded dL/dx_t for the point and horizon
// asked, with per-step norms.
#include <doctest/doctest.h>

#include <cmath>

#include "studio/rollout_worker.h"
#include "studio/state_adjoint_run.h"
#include "studio_test_scenes.h"

using namespace nudge;
using namespace nudge::studio;

TEST_CASE("state adjoint run: the engine's adjoints and their norms, for a horizon") {
  const Scene scene = studio_test::load_example("walker");
  for (int horizon : {0, 100}) {
    CAPTURE(horizon);
    StateAdjointRun run(scene, horizon, 42);
    REQUIRE(run.job_finished_within(120.0));
    auto result = run.result();
    REQUIRE(result);
    REQUIRE_MESSAGE(result->error.empty(), result->error);
    CHECK(result->key == 42);
    CHECK(result->horizon == horizon);
    // The engine's own recording, bitwise.
    auto sim = Simulator::create(scene, rollout_simulator_options());
    REQUIRE(sim.ok());
    ParameterSet params = scene.params;
    StateAdjoints direct;
    REQUIRE((*sim)->gradient(params, GradientOptions{horizon, true}, &direct).ok());
    CHECK(result->adjoints.x == direct.x);
    CHECK(result->adjoints.v == direct.v);
    const int steps = scene.settings.steps;
    REQUIRE(result->x_norm.size() == size_t(steps) + 1);
    // The norm at t is the 2-norm of that step's dL/dx.
    for (int t : {0, steps / 2, steps}) {
      double sum = 0;
      for (int k = 0; k < 3 * direct.particles; ++k) sum += std::pow(direct.x[size_t(t) * 3 * direct.particles + k], 2);
      CHECK(result->x_norm[size_t(t)] == doctest::Approx(std::sqrt(sum)).epsilon(1e-14));
    }
    if (horizon > 0) {  // nothing flows back past the window
      CHECK(result->x_norm[size_t(steps - horizon - 1)] == 0);
      CHECK(result->x_norm[size_t(steps - horizon)] > 0);
    } else {
      CHECK(result->x_norm[0] > 0);
    }
  }
}
