// Model predictive control in the studio's background job: it publishes every plan with
// the newest plan's motion, finishes with the executed controls the engine's run_mpc
// gives, and stops when cancelled.
#include <doctest/doctest.h>

#include "nudge/mpc.h"
#include "studio/mpc_run.h"
#include "studio/rollout_worker.h"
#include "studio_test_scenes.h"

using namespace nudge;
using namespace nudge::studio;

TEST_CASE("mpc run: the drone's plans, its motion and the executed controls, as run_mpc gives them") {
  const Scene scene = studio_test::load_example("drone");
  MpcSettings settings;
  settings.horizon = 60;
  settings.replan_every = 40;
  settings.iterations = 3;
  MpcRun run(scene, settings);
  REQUIRE(run.job().wait(120.0));
  const auto result = run.latest();
  REQUIRE(result->finished);
  REQUIRE_MESSAGE(result->error.empty(), result->error);
  REQUIRE(result->plans.size() == size_t(mpc_plan_count(400, 40)));
  CHECK(result->plans.back().start == 360);
  CHECK(result->planned.steps == 400);  // the last plan's window reaches the end
  CHECK(run.job().done() == 10);
  const Result<MpcResult> direct = run_mpc(scene, settings, rollout_simulator_options());
  REQUIRE(direct.ok());
  CHECK(result->executed_loss == direct->loss);
  CHECK(result->executed[ParamId::Controls].value == direct->params[ParamId::Controls].value);
}

TEST_CASE("mpc run: cancelling stops it with a message") {
  const Scene scene = studio_test::load_example("drone");
  MpcSettings settings;
  settings.horizon = 100;
  settings.replan_every = 1;  // 400 plans: far more than it gets through
  settings.iterations = 20;
  MpcRun run(scene, settings);
  run.cancel();
  REQUIRE(run.job().wait(120.0));
  const auto result = run.latest();
  CHECK(result->finished);
  CHECK(result->error.find("cancelled") != std::string::npos);
  CHECK(result->plans.size() < 400);
}
