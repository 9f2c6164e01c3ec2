// The gradient check's verdict on one entry, on numbers (judge_gradient_entry), and on a
// small spring cage whose tiny stiffness entries used to fail the whole check.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "nudge/gradcheck.h"
#include "nudge/scene.h"
#include "test_scenes.h"

using namespace nudge;

namespace {

constexpr double kTolerance = 1e-6;

GradCheckEntry judged(double adjoint, double fd, double uncertainty, double rounding, double noise_floor) {
  GradCheckEntry e;
  e.adjoint = adjoint;
  e.finite_difference = fd;
  e.uncertainty = uncertainty;
  judge_gradient_entry(e, rounding, kTolerance, noise_floor);
  return e;
}

}  // namespace

TEST_CASE("gradcheck verdict: rounding noise next to the gradient's scale passes, marked as noise") {
  // The cloth's stiffness entry 1160 (scenes/cloth.json): 2.2e-10 next to a largest entry
  // of 4.1e-5. Adjoint and difference differ by 2.05e-14, just over the difference's
  // uncertainty, 9e-5 of the entry but 5e-10 of the gradient's scale.
  const double adjoint = 2.23605478e-10, fd = 2.236259788e-10, uncertainty = 1.950e-14, rounding = 1.877e-14;
  const double floor = kGradCheckNoise * 4.11e-5;
  const GradCheckEntry strict = judged(adjoint, fd, uncertainty, rounding, 0.0);
  CHECK(strict.resolved);
  CHECK(strict.verifiable);
  CHECK_FALSE(strict.passed);  // without the floor: a failure
  const GradCheckEntry e = judged(adjoint, fd, uncertainty, rounding, floor);
  CHECK(e.passed);
  CHECK(e.noise);
  CHECK(e.relative_error == doctest::Approx(9.17e-5).epsilon(1e-2));
}

TEST_CASE("gradcheck verdict: a wrong gradient still fails, however small the entry") {
  const double largest = 4.11e-5, floor = kGradCheckNoise * largest;
  // Twice the difference, on a large entry and on a tiny one.
  for (double fd : {3e-5, 2.2e-10}) {
    CAPTURE(fd);
    const GradCheckEntry e = judged(2.0 * fd, fd, 1e-16, 1e-17, floor);
    CHECK_FALSE(e.passed);
    CHECK_FALSE(e.noise);
    CHECK(e.verifiable);  // a certain difference: a plain failure, not an unverifiable one
  }
  // The wrong sign on a tiny entry; a missing term of 1e-12 (2.4e-8 of the scale).
  CHECK_FALSE(judged(-2.2e-10, 2.2e-10, 1e-16, 1e-17, floor).passed);
  CHECK_FALSE(judged(2.2e-10 + 1e-12, 2.2e-10, 1e-16, 1e-17, floor).passed);
  // An entry the adjoint misses entirely, where the difference resolves it.
  CHECK_FALSE(judged(0.0, 1e-9, 1e-16, 1e-17, floor).passed);
}

TEST_CASE("gradcheck verdict: tolerance, the difference's uncertainty and the floor add up") {
  const double floor = 1e-15;
  // Agreement to the tolerance: ok, not noise.
  const GradCheckEntry close = judged(1.0, 1.0 + 5e-7, 1e-12, 1e-14, floor);
  CHECK(close.passed);
  CHECK_FALSE(close.noise);
  // Apart by more than the tolerance but within the difference's uncertainty: ok, not noise.
  const GradCheckEntry uncertain = judged(1.0, 1.0 + 5e-5, 6e-5, 1e-14, floor);
  CHECK(uncertain.passed);
  CHECK_FALSE(uncertain.noise);
  // A difference uncertain by more than 1 % of the entry checks nothing: unverifiable...
  const GradCheckEntry vague = judged(1e-9, 1e-9, 2e-11, 1e-14, floor);
  CHECK_FALSE(vague.verifiable);
  CHECK_FALSE(vague.passed);
  // ...unless it is certain to the noise floor, which is all that is asked of it there.
  const GradCheckEntry pinned = judged(1e-14, 1.03e-14, 5e-16, 1e-17, floor);
  CHECK(pinned.verifiable);
  CHECK(pinned.passed);
  CHECK(pinned.noise);
  // Below what differences resolve, both must be ~0 (to the uncertainty and the floor).
  const GradCheckEntry zero = judged(3e-15, -2e-15, 1e-14, 1e-14, floor);
  CHECK_FALSE(zero.resolved);
  CHECK(zero.passed);
  CHECK_FALSE(zero.noise);
  CHECK_FALSE(judged(1e-14, -1e-14, 1e-14, 1e-14, floor).passed);
}

TEST_CASE("gradcheck: a spring cage's tiny stiffness entries pass, and its velocities agree") {
  // Most springs of the spinning cage barely stretch: stiffness entry 4 is -1.7e-10 next
  // to a largest of 1.1e-7. The difference at the finest pair of steps was uncertain by
  // the losses' rounding (1.2 % of the entry), which failed the whole check, while the
  // coarser pair pins it to 0.03 %: the pair is chosen by its uncertainty now.
  const Scene cage = test::make_spring_cage();
  GradCheckOptions options;
  options.samples_per_parameter = 28;  // every spring
  Result<GradCheckReport> report = gradient_check(cage, options);
  REQUIRE(report.ok());
  double largest_stiffness = 0.0;
  for (const GradCheckEntry& e : report->entries)
    if (e.param == ParamId::Stiffness) largest_stiffness = std::max(largest_stiffness, std::fabs(e.adjoint));
  for (const GradCheckEntry& e : report->entries) {
    INFO(param_name(e.param) << "[" << e.index << "] adjoint " << e.adjoint << ", difference " << e.finite_difference
                             << ", uncertainty " << e.uncertainty);
    CHECK(e.passed);
    if (e.param == ParamId::InitialVelocity) CHECK(e.relative_error < 1e-7);  // the optimised entries
    if (e.param == ParamId::Stiffness && e.index == 4) {
      CHECK(std::fabs(e.adjoint) < 2e-3 * largest_stiffness);
      CHECK(e.uncertainty < 1e-3 * std::fabs(e.finite_difference));
    }
  }
  CHECK(report->failed() == 0);
}

TEST_CASE("gradcheck: the report says how much of each parameter its sample left unchecked") {
  const Scene scene = test::make_lattice_scene();
  GradCheckOptions options;
  options.samples_per_parameter = 2;
  options.parameters = {ParamId::Stiffness, ParamId::Gravity};
  Result<GradCheckReport> report = gradient_check(scene, options);
  REQUIRE_MESSAGE(report.ok(), (report.ok() ? "" : report.error().message));
  REQUIRE(report->coverage.size() == 2);  // only the parameters asked for
  const GradCheckCoverage& springs = report->coverage[0];
  CHECK(springs.param == ParamId::Stiffness);
  CHECK(springs.entries == scene.spring_count());
  CHECK(springs.checked == 2);
  const GradCheckCoverage& gravity = report->coverage[1];
  CHECK(gravity.param == ParamId::Gravity);
  CHECK(gravity.entries == 3);
  CHECK(gravity.checked == 2);
  CHECK(report->unchecked() == scene.spring_count() - 2 + 1);
  CHECK(report->entries.size() == 4);
}

// At an optimum the gradient is the difference of nearly equal states: the projectile
// lands 1e-13 m from its target, and the rounding of its landing point (1e-15 m) is a
// percent of the gradient. The check measures that rounding (the gradient again with the
// values moved by 4 ulp) and reports the entries as rounding noise instead of failures
// (issue 25: the Check tab said "7 failed" after L-BFGS).
TEST_CASE("gradcheck: at the projectile's optimum the gradient is rounding noise, measured, not a failure") {
  Result<Scene> scene = load_scene(std::filesystem::path(__FILE__).parent_path().parent_path().parent_path() /
                                   "scenes" / "projectile.json");
  REQUIRE(scene.ok());
  // The velocity L-BFGS finds (nudge optimize scenes/projectile.json): loss 1.6e-26.
  scene->params[ParamId::InitialVelocity].value = {6.357643906065704, 4.055865906189241, 1.271528781213168};
  GradCheckOptions options;
  options.parameters = {ParamId::InitialVelocity};
  Result<GradCheckReport> report = gradient_check(*scene, options);
  REQUIRE(report.ok());
  CHECK(report->loss < 1e-20);
  REQUIRE(report->entries.size() == 3);
  for (const GradCheckEntry& e : report->entries) {
    CAPTURE(e.index);
    CHECK(std::fabs(e.adjoint) < 1e-12);
    CHECK(e.relative_error > 1e-3);  // adjoint and difference really do differ by a percent or more
    CHECK(e.measured_noise > 0);
    CHECK(std::fabs(e.adjoint - e.finite_difference) <= 4 * e.measured_noise + e.uncertainty);
    CHECK(e.passed);
    CHECK(e.noise);
  }
  CHECK(report->failed() == 0);
  CHECK(report->rounding_noise() == 3);

  // Away from the optimum the same rounding is nothing next to the gradient: no entry
  // needs it, and each agrees with its difference to the tolerance.
  scene->params[ParamId::InitialVelocity].value = {3.0, 4.0, 0.5};
  Result<GradCheckReport> start = gradient_check(*scene, options);
  REQUIRE(start.ok());
  for (const GradCheckEntry& e : start->entries) {
    CHECK(e.measured_noise < 1e-12 * std::fabs(e.adjoint));
    CHECK(e.passed);
    CHECK_FALSE(e.noise);
  }
}
