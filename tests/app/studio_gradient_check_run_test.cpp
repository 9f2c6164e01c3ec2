// The gradient-check panel's run: the engine's check of the chosen parameters, off the UI
// thread, with progress, and cancellable.
#include <doctest/doctest.h>

#include <atomic>

#include "studio/gradient_check_run.h"
#include "studio_test_scenes.h"

using namespace nudge;
using namespace nudge::studio;

TEST_CASE("gradient check run: the chosen parameters of an example scene pass") {
  const Scene scene = studio_test::load_example("spring_sysid");
  std::atomic<int> progress_calls{0};
  GradientCheckRun run(scene, {ParamId::Stiffness, ParamId::Damping}, 4, [&] { ++progress_calls; });
  REQUIRE(run.job().wait(120.0));
  auto outcome = run.outcome();
  REQUIRE(outcome->finished);
  REQUIRE_MESSAGE(outcome->report.has_value(), outcome->error);
  REQUIRE(outcome->report->entries.size() == 2);  // one spring: one entry each
  for (const GradCheckEntry& e : outcome->report->entries) {
    CHECK((e.param == ParamId::Stiffness || e.param == ParamId::Damping));
    CHECK(e.passed);
    CHECK(e.relative_error < 1e-6);
  }
  CHECK(run.job().total() == 2);
  CHECK(run.job().done() == 2);
  CHECK(progress_calls.load() >= 3);  // 0, 1, 2 entries done, and the end
}

TEST_CASE("gradient check run: cancelling ends it with an error, not a report") {
  const Scene scene = studio_test::load_example("walker");
  GradientCheckRun run(scene, {}, 50, {});
  run.cancel();
  REQUIRE(run.job().wait(120.0));
  auto outcome = run.outcome();
  CHECK(outcome->finished);
  CHECK(!outcome->report.has_value());
  CHECK(outcome->error.find("cancelled") != std::string::npos);
}
