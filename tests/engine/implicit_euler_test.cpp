// The implicit step (Integrator::ImplicitEuler, sim/implicit_euler.h): stable where the
// semi-implicit step diverges, the same motion as the semi-implicit step as dt shrinks,
// gradients by implicit differentiation against central differences, and the same bits
// for any thread count and with checkpoints.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <vector>

#include "sanitized.h"
#include "nudge/gradcheck.h"
#include "nudge/scene.h"
#include "nudge/simulator.h"
#include "nudge/step_stability.h"
#include "sim/implicit_euler.h"
#include "sim/simulator_backends.h"
#include "cpu_simulator.h"
#include "gradient_outcome.h"
#include "implicit_test_scenes.h"

using namespace nudge;

namespace {

Result<Trajectory> trajectory(const Scene& scene, int threads = 1, Precision precision = Precision::Float64) {
  return test::cpu_simulator(scene, threads, -1, precision)->trajectory(scene.params);
}

// The largest distance between the two motions' final positions.
double final_gap(const Trajectory& a, const Trajectory& b) {
  const size_t values = 3 * size_t(a.particles), last = size_t(a.steps) * values;
  double gap = 0;
  for (size_t k = 0; k < values; ++k) gap = std::max(gap, std::fabs(a.x[last + k] - b.x[last + k]));
  return gap;
}

}  // namespace

TEST_CASE("implicit euler: a stiff chain stays whole at a step where semi-implicit Euler diverges") {
  // sqrt(k / m) dt = sqrt(1e5 / 0.01) 5e-3 = 16, eight times the explicit limit of 2.
  const int n = 10;
  const Scene explicit_chain = test::make_stiff_chain(n, 1e5, 5e-3, 200, Integrator::SemiImplicitEuler);
  const Scene implicit_chain = test::make_stiff_chain(n, 1e5, 5e-3, 200, Integrator::ImplicitEuler);
  REQUIRE(check_scene(implicit_chain).ok());

  const Result<Trajectory> diverged = trajectory(explicit_chain);
  REQUIRE_FALSE(diverged.ok());
  CHECK(diverged.error().message.find("non-finite") != std::string::npos);

  const Result<Trajectory> traj = trajectory(implicit_chain);
  REQUIRE_MESSAGE(traj.ok(), (traj.ok() ? "" : traj.error().message));
  // Every spring keeps its length within 1 % at every step, and the chain has swung down.
  double worst_strain = 0;
  for (int t = 0; t <= traj->steps; ++t) {
    const double* x = &traj->x[size_t(t) * 3 * n];
    for (int s = 0; s < implicit_chain.spring_count(); ++s) {
      const int a = implicit_chain.spring_a[s], b = implicit_chain.spring_b[s];
      const double l = std::hypot(x[3 * b] - x[3 * a], x[3 * b + 1] - x[3 * a + 1], x[3 * b + 2] - x[3 * a + 2]);
      const double rest = implicit_chain.params[ParamId::RestLength].value[s];
      worst_strain = std::max(worst_strain, std::fabs(l - rest) / rest);
    }
  }
  CHECK(worst_strain < 0.01);
  const double tip_y = traj->x[size_t(traj->steps) * 3 * n + 3 * (n - 1) + 1];
  CHECK(tip_y < 0.97);  // the stiff beam (its skip springs resist bending) sags from 1.0

  // The stability check knows the springs are implicit: it warns of them only for the
  // semi-implicit step.
  const auto springs_reported = [&](const Scene& scene) {
    int reported = 0;
    for (const StepStabilityIssue& issue : step_stability_issues(scene, *traj))
      reported += issue.force.rfind("spring", 0) == 0;
    return reported;
  };
  CHECK(springs_reported(explicit_chain) > 0);
  CHECK(springs_reported(implicit_chain) == 0);

  // float32 runs the same solve (to its own precision).
  Scene f32 = implicit_chain;
  f32.settings.implicit.newton_tolerance = 1e-4;
  f32.settings.implicit.linear_tolerance = 1e-5;
  const Result<Trajectory> single = trajectory(f32, 2, Precision::Float32);
  REQUIRE(single.ok());
  CHECK(final_gap(*single, *traj) < 1e-2);
}

TEST_CASE("implicit euler: as dt shrinks the implicit and semi-implicit motions meet, at first order") {
  // A softer chain (gain 0.1 at dt = 1e-4) over 0.05 s.
  const auto gap_at = [](double dt) {
    const int steps = static_cast<int>(std::lround(0.05 / dt));
    const Result<Trajectory> a = trajectory(test::make_stiff_chain(6, 1e3, dt, steps, Integrator::SemiImplicitEuler));
    Scene im = test::make_stiff_chain(6, 1e3, dt, steps, Integrator::ImplicitEuler);
    im.settings.implicit.newton_tolerance = 1e-12;
    const Result<Trajectory> b = trajectory(im);
    REQUIRE(a.ok());
    REQUIRE(b.ok());
    return final_gap(*a, *b);
  };
  const double coarse = gap_at(1e-4), fine = gap_at(1e-5);
  MESSAGE("final gap between the integrators: " << coarse << " m at dt = 1e-4, " << fine << " m at dt = 1e-5");
  CHECK(fine < 1e-4);
  CHECK(coarse > 0);
  CHECK(fine / coarse == doctest::Approx(0.1).epsilon(0.3));  // first order: 10x smaller dt, 10x smaller gap
}

TEST_CASE("implicit euler: scene gradients against central differences" * doctest::skip(test::kSanitized)) {
  // Newton and the adjoint's solve to 1e-13; every entry of every parameter the step
  // reads, to 1e-6 relative.
  const Scene scene = test::make_implicit_sheet();
  REQUIRE(check_scene(scene).ok());
  GradCheckOptions options;
  options.samples_per_parameter = 1000;  // every entry
  options.tolerance = 1e-6;
  options.parameters = {
      ParamId::Stiffness,       ParamId::Damping,      ParamId::RestLength,        ParamId::InitialPosition,
      ParamId::InitialVelocity, ParamId::Mass,         ParamId::Controls,          ParamId::ExternalForce,
      ParamId::Gravity,         ParamId::Drag,         ParamId::TriangleStiffness, ParamId::TriangleAreaStiffness,
      ParamId::TriangleDamping, ParamId::TriangleDrag, ParamId::TriangleLift,      ParamId::Wind,
      ParamId::GroundStiffness, ParamId::Friction};
  Result<GradCheckReport> report = gradient_check(scene, options);
  REQUIRE_MESSAGE(report.ok(), (report.ok() ? "" : report.error().message));
  int checked[kParamCount] = {};
  double worst = 0;
  for (const GradCheckEntry& e : report->entries) {
    INFO(param_name(e.param) << "[" << e.index << "] adjoint " << e.adjoint << ", finite difference "
                             << e.finite_difference << ", uncertainty " << e.uncertainty);
    CHECK(e.passed);
    worst = std::max(worst, e.relative_error);
    ++checked[static_cast<int>(e.param)];
  }
  // Against each parameter's gradient scale (its largest |entry|) too: small entries
  // carry the finite difference's own noise (the Newton tolerance over the step h).
  double scale[kParamCount] = {}, worst_scaled = 0;
  for (const GradCheckEntry& e : report->entries)
    scale[static_cast<int>(e.param)] = std::max(scale[static_cast<int>(e.param)], std::fabs(e.adjoint));
  for (const GradCheckEntry& e : report->entries)
    if (scale[static_cast<int>(e.param)] > 0)
      worst_scaled =
          std::max(worst_scaled, std::fabs(e.adjoint - e.finite_difference) / scale[static_cast<int>(e.param)]);
  MESSAGE("implicit sheet: " << report->entries.size() << " entries; worst relative error " << worst
                             << ", worst error against the parameter's gradient scale " << worst_scaled);
  CHECK(worst_scaled < 1e-6);
  for (ParamId id : options.parameters) {
    CAPTURE(param_name(id));
    CHECK(checked[static_cast<int>(id)] == scene.params[id].size());
  }
}

TEST_CASE("implicit euler: the same bits on 1 and 4 threads and with checkpoints") {
  const Scene scene = test::make_implicit_sheet();
  SimulatorOptions options;
  options.device = Device::Cpu;
  const auto run = [&](int threads, int every) {
    options.threads = threads;
    options.checkpoint_every = every;
    return test::run_gradient(scene, options);
  };
  const test::Outcome one = run(1, 0);
  test::require_bitwise_equal(one, run(4, 0));
  test::require_bitwise_equal(one, run(1, 7));
  test::require_bitwise_equal(one, run(4, 13));
}

TEST_CASE("implicit euler: what the solve costs per step" * doctest::skip(test::kSanitized)) {
  // Counted on the rollout itself: Newton iterations, force passes and operator products
  // (one product: the springs' and elements' adjoint kernels once each). One simulator
  // times the forward pass alone, another runs one gradient and is counted.
  Scene scene = test::make_stiff_chain(10, 1e5, 5e-3, 200, Integrator::ImplicitEuler);
  const std::unique_ptr<Simulator> forward_only = make_cpu_simulator(scene, Precision::Float64, 1, 0);
  const std::unique_ptr<Simulator> counted = make_cpu_simulator(scene, Precision::Float64, 1, 0);
  ParameterSet params = scene.params;
  const auto start = std::chrono::steady_clock::now();
  REQUIRE(forward_only->evaluate(params).ok());
  const auto mid = std::chrono::steady_clock::now();
  REQUIRE(counted->gradient(params).ok());
  const auto end = std::chrono::steady_clock::now();
  REQUIRE(cpu_implicit_stats(*counted) != nullptr);
  const ImplicitStats& s = *cpu_implicit_stats(*counted);
  const double steps = double(s.steps);
  const double forward_us = std::chrono::duration<double, std::micro>(mid - start).count();
  MESSAGE("stiff chain, 200 steps: per step "
          << double(s.newton_iterations) / steps << " Newton iterations, " << double(s.residuals) / steps
          << " force passes, " << double(s.forward_products) / steps << " products forward, "
          << double(s.adjoint_products) / double(s.adjoint_solves) << " backward; " << forward_us / steps
          << " us forward, " << (std::chrono::duration<double, std::micro>(end - mid).count() - forward_us) / steps
          << " us backward per step");
  CHECK(s.steps == 200);
  CHECK(s.unconverged == 0);
  CHECK(s.adjoint_solves == 200);
  CHECK(s.worst_adjoint_residual <= scene.settings.implicit.linear_tolerance);
  // A scene without the implicit step has no stats to give.
  scene.settings.integrator = Integrator::SemiImplicitEuler;
  CHECK(cpu_implicit_stats(*make_cpu_simulator(scene, Precision::Float64, 1, 0)) == nullptr);
}
