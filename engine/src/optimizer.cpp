// minimize(): the loop shared by every method, plus the bounded problem and vector helpers.
//
// Semantics, common to all methods:
// - Bounds by projection: x0 is clamped into [lower, upper] before the first evaluation and
//   every point evaluated afterwards is clamped too.
// - The projected gradient (zero where x is on a bound and -g points out) measures
//   stationarity; its norm is what `tolerance` and grad_norm_history refer to.
// - A non-finite loss, gradient or point counts as a failed evaluation, like an Error.
// - Stop tests after each iteration, in this order: Tolerance, LossTolerance, Cancelled (the
//   callback, which is always called first), Iterations. Tolerance is also tested before the
//   first iteration. A method's own failure (EvaluationFailed, LineSearchFailed) stops the
//   run without completing the iteration.
// - The result is the accepted point with the lowest loss (the earliest on ties); for L-BFGS
//   that is the last one, for GD and Adam, whose loss need not decrease, it may be earlier.
#include "nudge/optimizer.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <utility>

#include "optimizer_common.h"

namespace nudge {

namespace optimizer_internal {

Problem::Problem(const LossAndGradient& f, const std::vector<double>& lower, const std::vector<double>& upper)
    : f_(f), lower_(lower), upper_(upper) {}

Result<Point> Problem::evaluate(std::vector<double> x) {
  ++evaluations_;
  Point p{std::move(x), 0.0, std::vector<double>(size(), 0.0)};
  Result<double> loss = f_(p.x, p.grad);
  if (!loss) return loss.error();
  assert(p.grad.size() == size());
  auto finite = [](double v) { return std::isfinite(v); };
  if (!std::isfinite(*loss) || !std::all_of(p.grad.begin(), p.grad.end(), finite) ||
      !std::all_of(p.x.begin(), p.x.end(), finite))
    return Error{"the loss or its gradient is not finite at this point"};
  p.loss = *loss;
  return p;
}

void Problem::project(std::vector<double>& x) const {
  for (size_t i = 0; i < x.size(); ++i) x[i] = std::min(std::max(x[i], lower_[i]), upper_[i]);
}

bool Problem::blocked(const std::vector<double>& x, size_t i, double direction) const {
  return (direction < 0.0 && x[i] <= lower_[i]) || (direction > 0.0 && x[i] >= upper_[i]);
}

std::vector<double> Problem::projected_gradient(const Point& p) const {
  return nudge::projected_gradient(p.x, p.grad, lower_, upper_);
}

double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double sum = 0.0;
  for (size_t i = 0; i < a.size(); ++i) sum += a[i] * b[i];
  return sum;
}

double norm(const std::vector<double>& v) { return std::sqrt(dot(v, v)); }

void clip_to_norm(std::vector<double>& v, double max_norm) {
  if (max_norm <= 0.0) return;
  const double length = norm(v);
  if (length <= max_norm) return;
  const double scale = max_norm / length;
  for (double& c : v) c *= scale;
}

}  // namespace optimizer_internal

namespace {

using namespace optimizer_internal;

constexpr std::string_view kMethodNames[] = {"gd", "adam", "lbfgs"};
constexpr std::string_view kStopReasonNames[] = {"iterations",        "tolerance",          "loss_tolerance",
                                                 "evaluation_failed", "line_search_failed", "cancelled"};

std::unique_ptr<Stepper> make_stepper(const OptimizerSettings& settings, size_t size) {
  switch (settings.method) {
    case OptimizerMethod::GradientDescent: return make_gradient_descent(settings, size);
    case OptimizerMethod::Adam: return make_adam(settings, size);
    case OptimizerMethod::LBFGS: return make_lbfgs(settings);
  }
  assert(false && "unknown optimizer method");
  return nullptr;
}

bool loss_converged(double previous, double current, double loss_tolerance) {
  return loss_tolerance > 0.0 && std::abs(current - previous) <= loss_tolerance * std::max(1.0, std::abs(current));
}

}  // namespace

std::vector<double> projected_gradient(const std::vector<double>& x, std::vector<double> grad,
                                       const std::vector<double>& lower, const std::vector<double>& upper) {
  // A step against the gradient that a bound blocks contributes nothing.
  for (size_t i = 0; i < grad.size(); ++i)
    if ((grad[i] > 0.0 && x[i] <= lower[i]) || (grad[i] < 0.0 && x[i] >= upper[i])) grad[i] = 0.0;
  return grad;
}

std::string_view method_name(OptimizerMethod m) { return kMethodNames[static_cast<int>(m)]; }

std::optional<OptimizerMethod> method_from_name(std::string_view name) {
  for (int i = 0; i < 3; ++i)
    if (kMethodNames[i] == name) return static_cast<OptimizerMethod>(i);
  return std::nullopt;
}

std::string_view stop_reason_name(StopReason r) { return kStopReasonNames[static_cast<int>(r)]; }

Result<OptimizeResult> minimize(const LossAndGradient& f, std::vector<double> x0, const std::vector<double>& lower,
                                const std::vector<double>& upper, const OptimizerSettings& settings,
                                const IterationCallback& on_iteration) {
  assert(lower.size() == x0.size() && upper.size() == x0.size());
  for (size_t i = 0; i < x0.size(); ++i) assert(lower[i] <= upper[i]);

  Problem problem(f, lower, upper);
  problem.project(x0);
  Result<Point> start = problem.evaluate(std::move(x0));
  if (!start) return start.error();
  Point current = std::move(start).value();

  OptimizeResult result;
  double grad_norm = norm(problem.projected_gradient(current));
  result.loss_history.push_back(current.loss);
  result.grad_norm_history.push_back(grad_norm);
  result.x = current.x;
  result.loss = current.loss;

  auto finish = [&](StopReason reason) {
    result.reason = reason;
    result.evaluations = problem.evaluations();
    return std::move(result);
  };
  if (grad_norm <= settings.tolerance) return finish(StopReason::Tolerance);

  std::unique_ptr<Stepper> stepper = make_stepper(settings, current.x.size());
  for (int iteration = 1; iteration <= settings.iterations; ++iteration) {
    const double previous_loss = current.loss;
    if (std::optional<StepFailure> failure = stepper->step(problem, current)) {
      result.message = std::move(failure->message);
      return finish(failure->reason);
    }

    result.iterations = iteration;
    grad_norm = norm(problem.projected_gradient(current));
    result.loss_history.push_back(current.loss);
    result.grad_norm_history.push_back(grad_norm);
    if (current.loss < result.loss) {
      result.x = current.x;
      result.loss = current.loss;
    }

    const bool go_on = !on_iteration || on_iteration(IterationInfo{iteration, current.loss, grad_norm,
                                                                   problem.evaluations(), &current.x, &current.grad});
    if (grad_norm <= settings.tolerance) return finish(StopReason::Tolerance);
    if (loss_converged(previous_loss, current.loss, settings.loss_tolerance)) return finish(StopReason::LossTolerance);
    if (!go_on) return finish(StopReason::Cancelled);
  }
  return finish(StopReason::Iterations);
}

}  // namespace nudge
