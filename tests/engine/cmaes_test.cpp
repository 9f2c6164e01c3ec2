// CMA-ES (engine/src/optimizer_cmaes.cpp), the gradient-free baseline: it converges on
// the classic test functions, never asks for a gradient, counts one evaluation per sample,
// keeps to the box, survives failed samples, is deterministic per seed, and tunes a scene
// through optimize_parameters with forward rollouts alone.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "nudge/optimize_scene.h"
#include "nudge/optimizer.h"
#include "nudge/scene.h"
#include "nudge/simulator.h"

using namespace nudge;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

std::vector<double> unbounded_below(size_t n) { return std::vector<double>(n, -kInf); }
std::vector<double> unbounded_above(size_t n) { return std::vector<double>(n, kInf); }

OptimizerSettings cmaes(int iterations) {
  OptimizerSettings settings;
  settings.method = OptimizerMethod::CMAES;
  settings.iterations = iterations;
  return settings;
}

// The default population 4 + floor(3 ln n).
int default_population(size_t n) { return 4 + static_cast<int>(std::floor(3.0 * std::log(static_cast<double>(n)))); }

// sum_i 10^(4 i / (n - 1)) x_i^2: an ellipsoid of condition number 1e4, minimum 0 at 0.
Result<double> ellipsoid(const std::vector<double>& x) {
  double sum = 0.0;
  const double n = static_cast<double>(x.size());
  for (size_t i = 0; i < x.size(); ++i) sum += std::pow(10.0, 4.0 * static_cast<double>(i) / (n - 1.0)) * x[i] * x[i];
  return sum;
}

Result<double> rosenbrock(const std::vector<double>& x) {
  const double a = 1.0 - x[0];
  const double b = x[1] - x[0] * x[0];
  return a * a + 100.0 * b * b;
}

// sum_i (x_i - centre_i)^2.
LossOnly sphere(std::vector<double> centre) {
  return [centre](const std::vector<double>& x) -> Result<double> {
    double sum = 0.0;
    for (size_t i = 0; i < x.size(); ++i) sum += (x[i] - centre[i]) * (x[i] - centre[i]);
    return sum;
  };
}

// Only the loss: a gradient function that fails the test if anyone calls it.
ObjectiveFunctions loss_only(LossOnly loss) {
  ObjectiveFunctions f;
  f.loss_and_gradient = [](const std::vector<double>&, std::vector<double>&) -> Result<double> {
    FAIL("CMA-ES asked for a gradient");
    return Error{"no gradient here"};
  };
  f.loss = std::move(loss);
  return f;
}

// Wraps a loss and remembers every point it was called at, and how many calls failed.
struct Recorder {
  explicit Recorder(LossOnly function) : f(std::move(function)) {}

  LossOnly f;
  std::vector<std::vector<double>> evaluated;
  int failures = 0;

  ObjectiveFunctions wrapped() {
    return loss_only([this](const std::vector<double>& x) -> Result<double> {
      evaluated.push_back(x);
      Result<double> loss = f(x);
      if (!loss) ++failures;
      return loss;
    });
  }
};

// The repository root: NUDGE_SOURCE_DIR (set by ctest), else three levels above this file.
std::filesystem::path source_dir() {
  if (const char* env = std::getenv("NUDGE_SOURCE_DIR"); env != nullptr && *env != '\0') return env;
  return std::filesystem::path(__FILE__).parent_path().parent_path().parent_path();
}

// A CPU simulator that counts what it is asked for.
class CountingSimulator final : public Simulator {
public:
  explicit CountingSimulator(std::unique_ptr<Simulator> inner) : inner_(std::move(inner)) {}

  Result<Evaluation> evaluate(const ParameterSet& params) override {
    ++evaluations;
    return inner_->evaluate(params);
  }
  Result<Evaluation> run_gradient(ParameterSet& params, const GradientOptions& options,
                                  StateAdjoints* adjoints) override {
    ++gradients;
    return inner_->gradient(params, options, adjoints);
  }
  Result<Trajectory> trajectory(const ParameterSet& params) override { return inner_->trajectory(params); }
  std::string device_name() const override { return inner_->device_name(); }

  int evaluations = 0, gradients = 0;  // every gradient call passes through run_gradient

private:
  std::unique_ptr<Simulator> inner_;
};

}  // namespace

TEST_CASE("cmaes: its name round trips and it is the one method without a gradient") {
  CHECK(method_name(OptimizerMethod::CMAES) == "cmaes");
  CHECK(method_from_name("cmaes") == OptimizerMethod::CMAES);
  CHECK_FALSE(method_from_name("CMA-ES").has_value());
  CHECK_FALSE(uses_gradient(OptimizerMethod::CMAES));
  for (OptimizerMethod m : {OptimizerMethod::GradientDescent, OptimizerMethod::Adam, OptimizerMethod::LBFGS})
    CHECK(uses_gradient(m));
}

TEST_CASE("cmaes: minimises a 10-D ellipsoid of condition 1e4") {
  const size_t n = 10;
  Result<OptimizeResult> r =
      minimize(loss_only(ellipsoid), std::vector<double>(n, 1.0), unbounded_below(n), unbounded_above(n), cmaes(3000));
  REQUIRE(r.ok());
  INFO("iterations ", r->iterations, ", evaluations ", r->evaluations, ", loss ", r->loss);
  CHECK(r->loss < 1e-8);
  CHECK(r->reason == StopReason::Tolerance);  // the step size collapsed long before the budget ran out
  for (double v : r->x) CHECK(std::abs(v) < 1e-4);
}

TEST_CASE("cmaes: solves the Rosenbrock function") {
  Result<OptimizeResult> r =
      minimize(loss_only(rosenbrock), {-1.2, 1.0}, unbounded_below(2), unbounded_above(2), cmaes(2000));
  REQUIRE(r.ok());
  INFO("iterations ", r->iterations, ", evaluations ", r->evaluations, ", loss ", r->loss);
  CHECK(r->loss < 1e-8);
  CHECK(r->reason == StopReason::Tolerance);
  CHECK(std::abs(r->x[0] - 1.0) < 1e-4);
  CHECK(std::abs(r->x[1] - 1.0) < 1e-4);
}

TEST_CASE("cmaes: sep-CMA-ES reduces a 200-D sphere by orders of magnitude") {
  const size_t n = 200;
  static_assert(200 > kCmaesMaxFullCovarianceSize, "the diagonal (separable) variant must run here");
  const std::vector<double> centre(n, 1.0);
  Result<OptimizeResult> r = minimize(loss_only(sphere(centre)), std::vector<double>(n, 0.0), unbounded_below(n),
                                      unbounded_above(n), cmaes(600));
  REQUIRE(r.ok());
  INFO("loss ", r->loss_history.front(), " -> ", r->loss, " after ", r->iterations, " generations");
  CHECK(r->loss_history.front() == 200.0);
  CHECK(r->loss < 200.0 * 1e-4);
}

TEST_CASE("cmaes: the same seed gives the same run bit for bit, another seed another run") {
  auto run = [](std::uint64_t seed) {
    OptimizerSettings settings = cmaes(60);
    settings.seed = seed;
    return minimize(loss_only(rosenbrock), {-1.2, 1.0}, {-2.0, -0.5}, {2.0, 0.9}, settings).value();
  };
  const OptimizeResult a = run(7), b = run(7), c = run(8);
  CHECK(a.loss_history == b.loss_history);
  CHECK(a.x == b.x);
  CHECK(a.evaluations == b.evaluations);
  CHECK(a.loss_history != c.loss_history);
}

TEST_CASE("cmaes: never asks for a gradient and reports none") {
  std::vector<IterationInfo> seen;
  Result<OptimizeResult> r = minimize(loss_only(rosenbrock), {-1.2, 1.0}, unbounded_below(2), unbounded_above(2),
                                      cmaes(20), [&seen](const IterationInfo& info) {
                                        seen.push_back(info);
                                        return true;
                                      });
  REQUIRE(r.ok());
  REQUIRE(seen.size() == 20);
  for (const IterationInfo& info : seen) {
    CHECK(info.grad == nullptr);
    CHECK(std::isnan(info.grad_norm));
    REQUIRE(info.x != nullptr);
  }
  REQUIRE(r->grad_norm_history.size() == 21);
  for (double g : r->grad_norm_history) CHECK(std::isnan(g));
}

TEST_CASE("cmaes: asking a method for a function it was not given is an error") {
  const std::vector<double> x0{0.0, 0.0};
  Result<OptimizeResult> no_loss = minimize(
      [](const std::vector<double>&, std::vector<double>& grad) -> Result<double> {
        grad.assign(2, 0.0);
        return 0.0;
      },
      x0, unbounded_below(2), unbounded_above(2), cmaes(10));
  REQUIRE_FALSE(no_loss.ok());
  CHECK(no_loss.error().message ==
        "the optimizer cmaes is gradient-free and needs a loss-only function (ObjectiveFunctions::loss); "
        "none was given");

  ObjectiveFunctions only_loss;
  only_loss.loss = rosenbrock;
  OptimizerSettings adam;
  adam.method = OptimizerMethod::Adam;
  Result<OptimizeResult> no_gradient = minimize(only_loss, x0, unbounded_below(2), unbounded_above(2), adam);
  REQUIRE_FALSE(no_gradient.ok());
  CHECK(no_gradient.error().message ==
        "the optimizer adam follows the gradient, but no loss-and-gradient function was given");

  OptimizerSettings one = cmaes(10);
  one.population = 1;
  Result<OptimizeResult> tiny = minimize(only_loss, x0, unbounded_below(2), unbounded_above(2), one);
  REQUIRE_FALSE(tiny.ok());
  CHECK(tiny.error().message == "optimizer.population: found 1; expected 0 (the default) or an integer >= 2");
  OptimizerSettings flat = cmaes(10);
  flat.sigma = -0.5;
  Result<OptimizeResult> no_step = minimize(only_loss, x0, unbounded_below(2), unbounded_above(2), flat);
  REQUIRE_FALSE(no_step.ok());
  CHECK(no_step.error().message == "optimizer.sigma: found -0.5; expected a number > 0");
}

TEST_CASE("cmaes: evaluations are 1 + population x generations") {
  for (int population : {0, 12}) {
    CAPTURE(population);
    const size_t n = 5;
    const int lambda = population > 0 ? population : default_population(n);
    Recorder recorder{sphere(std::vector<double>(n, 3.0))};
    OptimizerSettings settings = cmaes(7);
    settings.population = population;
    std::vector<int> seen;
    Result<OptimizeResult> r = minimize(recorder.wrapped(), std::vector<double>(n, 0.0), unbounded_below(n),
                                        unbounded_above(n), settings, [&seen](const IterationInfo& info) {
                                          seen.push_back(info.evaluations);
                                          return true;
                                        });
    REQUIRE(r.ok());
    CHECK(r->reason == StopReason::Iterations);
    CHECK(r->iterations == 7);
    CHECK(r->evaluations == 1 + 7 * lambda);
    CHECK(r->evaluations == static_cast<int>(recorder.evaluated.size()));
    REQUIRE(seen.size() == 7);
    for (size_t k = 0; k < seen.size(); ++k) CHECK(seen[k] == 1 + static_cast<int>(k + 1) * lambda);
  }
}

TEST_CASE("cmaes: the reported point is the best sample so far, so the loss never rises") {
  Recorder recorder{rosenbrock};
  Result<OptimizeResult> r =
      minimize(recorder.wrapped(), {-1.2, 1.0}, unbounded_below(2), unbounded_above(2), cmaes(40));
  REQUIRE(r.ok());
  const std::vector<double>& h = r->loss_history;
  for (size_t k = 1; k < h.size(); ++k) CHECK(h[k] <= h[k - 1]);
  CHECK(r->loss == h.back());
  double best = kInf;
  for (const std::vector<double>& x : recorder.evaluated) best = std::min(best, rosenbrock(x).value());
  CHECK(r->loss == best);
  CHECK(rosenbrock(r->x).value() == r->loss);
}

TEST_CASE("cmaes: every sample is evaluated inside the box and an optimum on its faces is found") {
  // The unconstrained minimum (2, -3, 0.5) lies outside [-1, 1]^3: the answer is (1, -1, 0.5).
  Recorder recorder{sphere({2.0, -3.0, 0.5})};
  Result<OptimizeResult> r = minimize(recorder.wrapped(), {5.0, 5.0, 5.0}, std::vector<double>(3, -1.0),
                                      std::vector<double>(3, 1.0), cmaes(400));
  REQUIRE(r.ok());
  REQUIRE_FALSE(recorder.evaluated.empty());
  CHECK(recorder.evaluated.front() == std::vector<double>{1.0, 1.0, 1.0});  // x0 projected first
  int outside = 0;
  for (const std::vector<double>& x : recorder.evaluated)
    for (double v : x) outside += (v < -1.0 || v > 1.0) ? 1 : 0;
  CHECK(outside == 0);
  INFO("x = (", r->x[0], ", ", r->x[1], ", ", r->x[2], ") after ", r->iterations, " generations");
  CHECK(r->x[0] == 1.0);
  CHECK(r->x[1] == -1.0);
  CHECK(r->x[2] == doctest::Approx(0.5).epsilon(1e-6));
}

TEST_CASE("cmaes: samples that fail are ranked worst and the run goes on") {
  // The loss fails in half the space, x0 < 0, and its minimum lies close to that half.
  Recorder recorder{[](const std::vector<double>& x) -> Result<double> {
    if (x[0] < 0.0) return Error{"rollout diverged"};
    return sphere({0.05, 2.0, -1.0, 0.5})(x);
  }};
  Result<OptimizeResult> r =
      minimize(recorder.wrapped(), {0.5, 0.0, 0.0, 0.0}, unbounded_below(4), unbounded_above(4), cmaes(300));
  REQUIRE(r.ok());
  CHECK(recorder.failures > 0);
  CHECK(r->reason != StopReason::EvaluationFailed);
  CHECK(r->loss < 1e-10);
  CHECK(r->x[0] >= 0.0);
}

TEST_CASE("cmaes: a generation that fails entirely stops the run, keeping the start") {
  Recorder recorder{[](const std::vector<double>& x) -> Result<double> {
    if (x[0] != 0.5) return Error{"rollout diverged"};
    return 1.0;
  }};
  Result<OptimizeResult> r = minimize(recorder.wrapped(), {0.5}, unbounded_below(1), unbounded_above(1), cmaes(10));
  REQUIRE(r.ok());
  CHECK(r->reason == StopReason::EvaluationFailed);
  CHECK(r->iterations == 0);
  CHECK(r->evaluations == 1 + default_population(1));
  CHECK(r->x == std::vector<double>{0.5});
  CHECK(r->message == "all 4 samples of generation 1 failed; the last: rollout diverged");
}

TEST_CASE("cmaes: a failed first evaluation is returned as the error") {
  ObjectiveFunctions broken =
      loss_only([](const std::vector<double>&) -> Result<double> { return Error{"scene has no particles"}; });
  Result<OptimizeResult> r = minimize(broken, {0.0, 0.0}, unbounded_below(2), unbounded_above(2), cmaes(10));
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().message == "scene has no particles");
}

TEST_CASE("cmaes: loss_tolerance stops once the best loss has stalled over its window") {
  // An offset of 100 makes the test relative; the sphere's minimum is soon reached to 1e-6 of it.
  OptimizerSettings settings = cmaes(5000);
  settings.loss_tolerance = 1e-6;
  auto offset = [](const std::vector<double>& x) -> Result<double> {
    return 100.0 + sphere({1.0, -1.0, 2.0})(x).value();
  };
  Result<OptimizeResult> r =
      minimize(loss_only(offset), {0.0, 0.0, 0.0}, unbounded_below(3), unbounded_above(3), settings);
  REQUIRE(r.ok());
  CHECK(r->reason == StopReason::LossTolerance);
  CHECK(r->iterations > 10);
  CHECK(r->iterations < 1000);
  CHECK(r->loss - 100.0 < 1e-3);
}

TEST_CASE("cmaes: tunes the projectile scene with forward rollouts alone") {
  Result<Scene> loaded = load_scene(source_dir() / "scenes" / "projectile.json");
  REQUIRE_MESSAGE(loaded.ok(), (loaded.ok() ? "" : loaded.error().message));
  Scene scene = std::move(loaded).value();
  SimulatorOptions options;
  options.device = Device::Cpu;
  options.threads = 1;
  Result<std::unique_ptr<Simulator>> cpu = Simulator::create(scene, options);
  REQUIRE(cpu.ok());
  CountingSimulator sim(std::move(cpu).value());

  OptimizerSettings settings = scene.optimizer;
  settings.method = OptimizerMethod::CMAES;
  settings.iterations = 60;
  settings.loss_tolerance = 0.0;
  ParameterSet params = scene.params;
  Result<OptimizeResult> r = optimize_parameters(sim, params, settings);
  REQUIRE(r.ok());
  INFO("loss ", r->loss_history.front(), " -> ", r->loss, " after ", r->iterations, " generations, ", r->evaluations,
       " evaluations");
  CHECK(r->loss < 1e-4 * r->loss_history.front());
  CHECK(sim.gradients == 0);
  CHECK(sim.evaluations == r->evaluations);
  CHECK(r->evaluations == 1 + r->iterations * default_population(3));
  CHECK(params.gather_optimized() == r->x);
  for (double v : r->x) {
    CHECK(v >= -30.0);
    CHECK(v <= 30.0);
  }
}
