#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "nudge/optimizer.h"

using namespace nudge;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr OptimizerMethod kAllMethods[] = {OptimizerMethod::GradientDescent, OptimizerMethod::Adam,
                                           OptimizerMethod::LBFGS};

std::vector<double> unbounded_below(size_t n) { return std::vector<double>(n, -kInf); }
std::vector<double> unbounded_above(size_t n) { return std::vector<double>(n, kInf); }

// 0.5 * sum scale_i (x_i - centre_i)^2.
LossAndGradient quadratic(std::vector<double> scales, std::vector<double> centre) {
  return [scales, centre](const std::vector<double>& x, std::vector<double>& grad) -> Result<double> {
    double loss = 0.0;
    for (size_t i = 0; i < x.size(); ++i) {
      const double d = x[i] - centre[i];
      grad[i] = scales[i] * d;
      loss += 0.5 * scales[i] * d * d;
    }
    return loss;
  };
}

// Scales 1 .. 100 spread evenly over n components: condition number 100.
std::vector<double> ill_conditioned_scales(size_t n) {
  std::vector<double> scales(n);
  for (size_t i = 0; i < n; ++i) scales[i] = 1.0 + 99.0 * static_cast<double>(i) / static_cast<double>(n - 1);
  return scales;
}

Result<double> rosenbrock(const std::vector<double>& x, std::vector<double>& grad) {
  const double a = 1.0 - x[0];
  const double b = x[1] - x[0] * x[0];
  grad[0] = -2.0 * a - 400.0 * x[0] * b;
  grad[1] = 200.0 * b;
  return a * a + 100.0 * b * b;
}

double max_distance(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0.0;
  for (size_t i = 0; i < a.size(); ++i) d = std::max(d, std::abs(a[i] - b[i]));
  return d;
}

double distance(const std::vector<double>& a, const std::vector<double>& b) {
  double sum = 0.0;
  for (size_t i = 0; i < a.size(); ++i) sum += (a[i] - b[i]) * (a[i] - b[i]);
  return std::sqrt(sum);
}

// Wraps f and remembers every point it was called at, and which of them it accepted.
struct Recorder {
  explicit Recorder(LossAndGradient function) : f(std::move(function)) {}

  LossAndGradient f;
  std::vector<std::vector<double>> evaluated;
  std::vector<std::vector<double>> accepted;
  int failures = 0;

  LossAndGradient wrapped() {
    return [this](const std::vector<double>& x, std::vector<double>& grad) -> Result<double> {
      evaluated.push_back(x);
      Result<double> loss = f(x, grad);
      if (loss && std::isfinite(*loss))
        accepted.push_back(x);
      else
        ++failures;
      return loss;
    };
  }
};

}  // namespace

TEST_CASE("optimizer: method names round trip and unknown names are rejected") {
  CHECK(method_name(OptimizerMethod::GradientDescent) == "gd");
  CHECK(method_name(OptimizerMethod::Adam) == "adam");
  CHECK(method_name(OptimizerMethod::LBFGS) == "lbfgs");
  for (OptimizerMethod m : kAllMethods) CHECK(method_from_name(method_name(m)) == m);
  CHECK_FALSE(method_from_name("foo").has_value());
  CHECK_FALSE(method_from_name("").has_value());
  CHECK_FALSE(method_from_name("Adam").has_value());
}

TEST_CASE("optimizer: stop reasons have lower_snake names") {
  CHECK(stop_reason_name(StopReason::Iterations) == "iterations");
  CHECK(stop_reason_name(StopReason::Tolerance) == "tolerance");
  CHECK(stop_reason_name(StopReason::LossTolerance) == "loss_tolerance");
  CHECK(stop_reason_name(StopReason::EvaluationFailed) == "evaluation_failed");
  CHECK(stop_reason_name(StopReason::LineSearchFailed) == "line_search_failed");
  CHECK(stop_reason_name(StopReason::Cancelled) == "cancelled");
}

TEST_CASE("optimizer: every method minimises an ill-conditioned quadratic") {
  const size_t n = 10;
  const std::vector<double> centre(n, 1.0);
  for (OptimizerMethod method : kAllMethods) {
    CAPTURE(method_name(method));
    OptimizerSettings settings;
    settings.method = method;
    settings.iterations = 2000;
    settings.tolerance = 1e-8;
    settings.learning_rate = method == OptimizerMethod::Adam ? 5e-2 : 1e-2;
    settings.momentum = 0.9;
    Result<OptimizeResult> r = minimize(quadratic(ill_conditioned_scales(n), centre), std::vector<double>(n, 0.0),
                                        unbounded_below(n), unbounded_above(n), settings);
    REQUIRE(r.ok());
    CHECK(r->reason == StopReason::Tolerance);
    CHECK(max_distance(r->x, centre) < 1e-6);
    CHECK(r->iterations <= (method == OptimizerMethod::LBFGS ? 60 : 1000));
  }
}

TEST_CASE("optimizer: L-BFGS solves the Rosenbrock function") {
  OptimizerSettings settings;
  settings.method = OptimizerMethod::LBFGS;
  settings.iterations = 200;
  settings.tolerance = 1e-10;
  Result<OptimizeResult> r = minimize(rosenbrock, {-1.2, 1.0}, unbounded_below(2), unbounded_above(2), settings);
  REQUIRE(r.ok());
  CHECK(r->reason == StopReason::Tolerance);
  CHECK(max_distance(r->x, {1.0, 1.0}) < 1e-6);
  CHECK(r->iterations <= 200);
}

TEST_CASE("optimizer: gradient descent and Adam approach the Rosenbrock minimum") {
  for (OptimizerMethod method : {OptimizerMethod::GradientDescent, OptimizerMethod::Adam}) {
    CAPTURE(method_name(method));
    OptimizerSettings settings;
    settings.method = method;
    settings.iterations = 3000;
    settings.learning_rate = method == OptimizerMethod::Adam ? 2e-2 : 1e-3;
    settings.momentum = 0.9;
    Result<OptimizeResult> r = minimize(rosenbrock, {-1.2, 1.0}, unbounded_below(2), unbounded_above(2), settings);
    REQUIRE(r.ok());
    CHECK(r->reason == StopReason::Iterations);
    CHECK(r->loss < 1e-5);  // from 24.2 at the start
    CHECK(max_distance(r->x, {1.0, 1.0}) < (method == OptimizerMethod::Adam ? 5e-3 : 1e-4));
  }
}

TEST_CASE("optimizer: bounds keep every iterate in the box and stop on its face") {
  // The unconstrained minimum (2, -3, 0.5) lies outside [-1, 1]^3: the answer is (1, -1, 0.5).
  const std::vector<double> lower(3, -1.0), upper(3, 1.0);
  for (OptimizerMethod method : kAllMethods) {
    CAPTURE(method_name(method));
    Recorder recorder{quadratic({1.0, 1.0, 1.0}, {2.0, -3.0, 0.5})};
    OptimizerSettings settings;
    settings.method = method;
    settings.iterations = 5000;
    settings.tolerance = 1e-8;
    settings.learning_rate = 0.1;
    settings.momentum = 0.5;
    Result<OptimizeResult> r = minimize(recorder.wrapped(), {5.0, 5.0, 5.0}, lower, upper, settings);
    REQUIRE(r.ok());

    REQUIRE_FALSE(recorder.evaluated.empty());
    CHECK(recorder.evaluated.front() == std::vector<double>{1.0, 1.0, 1.0});  // x0 projected first
    for (const std::vector<double>& x : recorder.evaluated)
      for (size_t i = 0; i < 3; ++i) CHECK((x[i] >= -1.0 && x[i] <= 1.0));

    CHECK(r->reason == StopReason::Tolerance);
    CHECK(r->x[0] == 1.0);
    CHECK(r->x[1] == -1.0);
    CHECK(r->x[2] == doctest::Approx(0.5).epsilon(1e-7));
    CHECK(r->grad_norm_history.back() <= 1e-8);  // although the full gradient is about (-1, 2, 0)
  }
}

TEST_CASE("optimizer: L-BFGS keeps its curvature model to the free variables") {
  // A coupled quadratic whose minimum (1, 2, 2) violates x0 <= 0.5: the answer is
  // (0.5, 2, 1) with loss 0.5. Gradient changes in the pinned x0 must not spoil the model.
  LossAndGradient coupled = [](const std::vector<double>& x, std::vector<double>& grad) -> Result<double> {
    const double a = x[0] + x[1] - 3.0, b = x[0] - x[1] + 1.0, c = x[2] - 2.0 * x[0];
    grad[0] = 2.0 * a + 2.0 * b - 40.0 * c;
    grad[1] = 2.0 * a - 2.0 * b;
    grad[2] = 20.0 * c;
    return a * a + b * b + 10.0 * c * c;
  };
  OptimizerSettings settings;
  settings.method = OptimizerMethod::LBFGS;
  settings.tolerance = 1e-9;
  Result<OptimizeResult> r = minimize(coupled, {0.0, 0.0, 0.0}, {-1.0, -1.0, -1.0}, {0.5, 5.0, 5.0}, settings);
  REQUIRE(r.ok());
  CHECK(r->reason == StopReason::Tolerance);
  CHECK(r->iterations <= 30);
  CHECK(max_distance(r->x, {0.5, 2.0, 1.0}) < 1e-8);
  CHECK(r->loss == doctest::Approx(0.5));
}

TEST_CASE("optimizer: momentum does not build up against a bound") {
  // The minimum 0.9 is inside [0, 1], but heavy momentum overshoots into the wall at 1.
  int at_wall = 0;
  LossAndGradient f = [&at_wall](const std::vector<double>& x, std::vector<double>& grad) -> Result<double> {
    if (x[0] == 1.0) ++at_wall;
    grad[0] = x[0] - 0.9;
    return 0.5 * (x[0] - 0.9) * (x[0] - 0.9);
  };
  OptimizerSettings settings;
  settings.method = OptimizerMethod::GradientDescent;
  settings.learning_rate = 0.5;
  settings.momentum = 0.9;
  settings.iterations = 40;
  Result<OptimizeResult> r = minimize(f, {0.0}, {0.0}, {1.0}, settings);
  REQUIRE(r.ok());
  CHECK(at_wall >= 1);
  CHECK(at_wall <= 3);  // a velocity that kept growing while blocked would pin it there for 8 steps
}

TEST_CASE("optimizer: a start on the box face with the gradient pushing out stops before iterating") {
  const std::vector<double> lower{0.0, 0.0}, upper{1.0, 1.0};
  for (OptimizerMethod method : kAllMethods) {
    CAPTURE(method_name(method));
    OptimizerSettings settings;
    settings.method = method;
    Result<OptimizeResult> r = minimize(quadratic({1.0, 1.0}, {2.0, -2.0}), {1.0, 0.0}, lower, upper, settings);
    REQUIRE(r.ok());
    CHECK(r->reason == StopReason::Tolerance);
    CHECK(r->iterations == 0);
    CHECK(r->evaluations == 1);
    CHECK(r->grad_norm_history == std::vector<double>{0.0});
  }
}

TEST_CASE("optimizer: clipping limits the length of the first step") {
  // Gradient at x0 = 100 * (-1, -1): a long first step unless clipped.
  auto first_step = [](OptimizerMethod method, double clip) {
    Recorder recorder{quadratic({100.0, 100.0}, {1.0, 1.0})};
    OptimizerSettings settings;
    settings.method = method;
    settings.iterations = 1;
    settings.learning_rate = 1e-2;
    settings.momentum = 0.0;
    settings.clip = clip;
    Result<OptimizeResult> r =
        minimize(recorder.wrapped(), {0.0, 0.0}, unbounded_below(2), unbounded_above(2), settings);
    REQUIRE(r.ok());
    REQUIRE(recorder.evaluated.size() >= 2);
    return distance(recorder.evaluated[0], recorder.evaluated[1]);
  };
  // Gradient descent: the step is learning_rate * clipped gradient.
  CHECK(first_step(OptimizerMethod::GradientDescent, 0.0) == doctest::Approx(1e-2 * 100.0 * std::sqrt(2.0)));
  CHECK(first_step(OptimizerMethod::GradientDescent, 5.0) == doctest::Approx(1e-2 * 5.0));
  // L-BFGS: clip bounds the trial move itself (its unclipped first move has length 1).
  CHECK(first_step(OptimizerMethod::LBFGS, 0.0) == doctest::Approx(1.0));
  CHECK(first_step(OptimizerMethod::LBFGS, 0.25) == doctest::Approx(0.25));
}

TEST_CASE("optimizer: gradient descent and Adam stop at a failed evaluation and keep a point f accepted") {
  // Minimum at x = 2, but the evaluation fails beyond x = 1.
  LossAndGradient walled = [](const std::vector<double>& x, std::vector<double>& grad) -> Result<double> {
    if (x[0] > 1.0) return Error{"rollout diverged"};
    grad[0] = x[0] - 2.0;
    return 0.5 * (x[0] - 2.0) * (x[0] - 2.0);
  };
  for (OptimizerMethod method : {OptimizerMethod::GradientDescent, OptimizerMethod::Adam}) {
    CAPTURE(method_name(method));
    Recorder recorder{walled};
    OptimizerSettings settings;
    settings.method = method;
    settings.iterations = 1000;
    settings.learning_rate = 0.1;
    Result<OptimizeResult> r = minimize(recorder.wrapped(), {0.0}, unbounded_below(1), unbounded_above(1), settings);
    REQUIRE(r.ok());
    CHECK(r->reason == StopReason::EvaluationFailed);
    CHECK(r->message == "rollout diverged");
    CHECK(recorder.failures == 1);
    CHECK(std::find(recorder.accepted.begin(), recorder.accepted.end(), r->x) != recorder.accepted.end());
    CHECK(r->x[0] <= 1.0);
    CHECK(r->x[0] > 0.5);  // it did get somewhere first
    CHECK(r->loss == doctest::Approx(0.5 * (r->x[0] - 2.0) * (r->x[0] - 2.0)));
    CHECK(r->evaluations == static_cast<int>(recorder.evaluated.size()));
    CHECK(r->loss_history.size() == static_cast<size_t>(r->iterations) + 1);
  }
}

TEST_CASE("optimizer: a non-finite loss counts as a failed evaluation") {
  LossAndGradient nan_beyond = [](const std::vector<double>& x, std::vector<double>& grad) -> Result<double> {
    grad[0] = x[0] - 2.0;
    return x[0] > 1.0 ? std::nan("") : 0.5 * (x[0] - 2.0) * (x[0] - 2.0);
  };
  OptimizerSettings settings;
  settings.method = OptimizerMethod::GradientDescent;
  settings.learning_rate = 0.1;
  Result<OptimizeResult> r = minimize(nan_beyond, {0.0}, unbounded_below(1), unbounded_above(1), settings);
  REQUIRE(r.ok());
  CHECK(r->reason == StopReason::EvaluationFailed);
  CHECK(std::isfinite(r->loss));
  CHECK(r->x[0] <= 1.0);
  CHECK_FALSE(r->message.empty());
}

TEST_CASE("optimizer: L-BFGS backtracks out of failed evaluations") {
  // A pseudo-Huber loss: flat far from x = 2, so the secant step overshoots far into the
  // region x > 5 where the evaluation fails.
  Recorder recorder{[](const std::vector<double>& x, std::vector<double>& grad) -> Result<double> {
    if (x[0] > 5.0) return Error{"rollout diverged"};
    const double d = x[0] - 2.0;
    grad[0] = d / std::sqrt(1.0 + d * d);
    return std::sqrt(1.0 + d * d);
  }};
  OptimizerSettings settings;
  settings.method = OptimizerMethod::LBFGS;
  settings.tolerance = 1e-10;
  Result<OptimizeResult> r = minimize(recorder.wrapped(), {-10.0}, unbounded_below(1), unbounded_above(1), settings);
  REQUIRE(r.ok());
  CHECK(recorder.failures > 0);
  CHECK(r->reason == StopReason::Tolerance);
  CHECK(r->x[0] == doctest::Approx(2.0).epsilon(1e-8));
}

TEST_CASE("optimizer: L-BFGS stops with line_search_failed when every trial fails") {
  // Every point but the start fails: the line search cannot move anywhere.
  LossAndGradient only_start = [](const std::vector<double>& x, std::vector<double>& grad) -> Result<double> {
    if (x[0] != 0.0) return Error{"rollout diverged"};
    grad[0] = -1.0;
    return 1.0;
  };
  OptimizerSettings settings;
  settings.method = OptimizerMethod::LBFGS;
  Result<OptimizeResult> r = minimize(only_start, {0.0}, unbounded_below(1), unbounded_above(1), settings);
  REQUIRE(r.ok());
  CHECK(r->reason == StopReason::LineSearchFailed);
  CHECK(r->x == std::vector<double>{0.0});
  CHECK(r->loss == 1.0);
  CHECK(r->iterations == 0);
  CHECK(r->evaluations == 21);  // the start and 20 trials
  CHECK(r->message.find("rollout diverged") != std::string::npos);
}

TEST_CASE("optimizer: a failed first evaluation is returned as the error") {
  LossAndGradient broken = [](const std::vector<double>&, std::vector<double>&) -> Result<double> {
    return Error{"scene has no particles"};
  };
  for (OptimizerMethod method : kAllMethods) {
    CAPTURE(method_name(method));
    OptimizerSettings settings;
    settings.method = method;
    Result<OptimizeResult> r = minimize(broken, {0.0, 0.0}, unbounded_below(2), unbounded_above(2), settings);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().message == "scene has no particles");
  }
}

TEST_CASE("optimizer: the callback sees every iteration and can cancel") {
  for (OptimizerMethod method : kAllMethods) {
    CAPTURE(method_name(method));
    std::vector<IterationInfo> seen;
    auto cancel_after_three = [&seen](const IterationInfo& info) {
      seen.push_back(info);
      return info.iteration < 3;
    };
    OptimizerSettings settings;
    settings.method = method;
    settings.iterations = 100;
    Result<OptimizeResult> r =
        minimize(rosenbrock, {-1.2, 1.0}, unbounded_below(2), unbounded_above(2), settings, cancel_after_three);
    REQUIRE(r.ok());
    CHECK(r->reason == StopReason::Cancelled);
    CHECK(r->iterations == 3);
    REQUIRE(seen.size() == 3);
    REQUIRE(r->loss_history.size() == 4);
    for (size_t k = 0; k < seen.size(); ++k) {
      CHECK(seen[k].iteration == static_cast<int>(k) + 1);
      CHECK(seen[k].loss == r->loss_history[k + 1]);
      CHECK(seen[k].grad_norm == r->grad_norm_history[k + 1]);
    }
    CHECK(seen.back().evaluations == r->evaluations);
  }
}

TEST_CASE("optimizer: loss_tolerance stops once the loss stalls") {
  const double loss_tolerance = 1e-4;
  OptimizerSettings settings;
  settings.method = OptimizerMethod::GradientDescent;
  settings.momentum = 0.0;
  settings.learning_rate = 1e-2;
  settings.iterations = 10000;
  settings.loss_tolerance = loss_tolerance;
  // An offset of 100 makes the test relative: changes are compared with 1e-4 * |loss|.
  LossAndGradient f = [](const std::vector<double>& x, std::vector<double>& grad) -> Result<double> {
    return 100.0 + quadratic({1.0, 4.0}, {3.0, -1.0})(x, grad).value();
  };
  Result<OptimizeResult> r = minimize(f, {0.0, 0.0}, unbounded_below(2), unbounded_above(2), settings);
  REQUIRE(r.ok());
  CHECK(r->reason == StopReason::LossTolerance);
  CHECK(r->iterations < 10000);
  CHECK(r->iterations > 10);
  const std::vector<double>& h = r->loss_history;
  auto stalled = [&](size_t k) { return std::abs(h[k] - h[k - 1]) <= loss_tolerance * std::max(1.0, std::abs(h[k])); };
  CHECK(stalled(h.size() - 1));
  for (size_t k = 1; k + 1 < h.size(); ++k) CHECK_FALSE(stalled(k));
}

TEST_CASE("optimizer: histories and counters") {
  for (OptimizerMethod method : kAllMethods) {
    CAPTURE(method_name(method));
    Recorder recorder{rosenbrock};
    OptimizerSettings settings;
    settings.method = method;
    settings.iterations = 7;
    settings.learning_rate = 1e-3;
    Result<OptimizeResult> r =
        minimize(recorder.wrapped(), {-1.2, 1.0}, unbounded_below(2), unbounded_above(2), settings);
    REQUIRE(r.ok());
    CHECK(r->reason == StopReason::Iterations);
    CHECK(r->iterations == 7);
    CHECK(r->evaluations == static_cast<int>(recorder.evaluated.size()));
    CHECK(r->evaluations >= 8);
    REQUIRE(r->loss_history.size() == 8);
    REQUIRE(r->grad_norm_history.size() == 8);
    CHECK(r->loss_history[0] == doctest::Approx(24.2));  // Rosenbrock at (-1.2, 1)
    CHECK(r->grad_norm_history[0] == doctest::Approx(std::hypot(-215.6, -88.0)));
    CHECK(r->loss == *std::min_element(r->loss_history.begin(), r->loss_history.end()));
  }
}

TEST_CASE("optimizer: the result is the best accepted point, not the last") {
  // Heavy momentum overshoots, so the loss rises and falls; the last iterate is not the best.
  OptimizerSettings settings;
  settings.method = OptimizerMethod::GradientDescent;
  settings.momentum = 0.95;
  settings.learning_rate = 0.5;
  settings.iterations = 8;  // the loss is lowest at iteration 6
  LossAndGradient f = quadratic({1.0}, {1.0});
  Result<OptimizeResult> r = minimize(f, {0.0}, unbounded_below(1), unbounded_above(1), settings);
  REQUIRE(r.ok());
  const std::vector<double>& h = r->loss_history;
  const double best = *std::min_element(h.begin(), h.end());
  REQUIRE(best < h.back());
  CHECK(r->loss == best);
  std::vector<double> grad(1);
  CHECK(f(r->x, grad).value() == best);
}

TEST_CASE("optimizer: a stationary start stops before the first iteration") {
  for (OptimizerMethod method : kAllMethods) {
    CAPTURE(method_name(method));
    OptimizerSettings settings;
    settings.method = method;
    Result<OptimizeResult> r =
        minimize(quadratic({1.0, 2.0}, {0.5, 0.5}), {0.5, 0.5}, unbounded_below(2), unbounded_above(2), settings);
    REQUIRE(r.ok());
    CHECK(r->reason == StopReason::Tolerance);
    CHECK(r->iterations == 0);
    CHECK(r->evaluations == 1);
    CHECK(r->x == std::vector<double>{0.5, 0.5});
  }
}

TEST_CASE("optimizer: runs are deterministic") {
  for (OptimizerMethod method : kAllMethods) {
    CAPTURE(method_name(method));
    OptimizerSettings settings;
    settings.method = method;
    settings.iterations = 300;
    settings.learning_rate = 1e-3;
    settings.clip = 50.0;
    auto run = [&] { return minimize(rosenbrock, {-1.2, 1.0}, {-2.0, -0.5}, {2.0, 0.9}, settings).value(); };
    const OptimizeResult a = run();
    const OptimizeResult b = run();
    CHECK(a.x == b.x);
    CHECK(a.loss_history == b.loss_history);
    CHECK(a.grad_norm_history == b.grad_norm_history);
    CHECK(a.evaluations == b.evaluations);
  }
}
