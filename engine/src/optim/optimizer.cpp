// minimize(): the loop shared by every method, plus the bounded problem and vector helpers.
//
// Semantics, common to all methods:
// - Bounds by projection: x0 is clamped into [lower, upper] before the first evaluation and
//   every point evaluated afterwards is clamped too.
// - The projected gradient (zero where x is on a bound and -g points out) measures
//   stationarity; its norm is what `tolerance` and grad_norm_history refer to. A
//   gradient-free method (cmaes) has none: its grad_norm is NaN, which no test passes.
// - A non-finite loss, gradient or point counts as a failed evaluation, like an Error.
// - Stop tests after each iteration, in this order: Tolerance, LossTolerance, Cancelled (the
//   callback, which is always called first), Iterations. Tolerance is also tested before the
//   first iteration. A method's own failure (EvaluationFailed, LineSearchFailed) stops the
//   run without completing the iteration. A method may bring its own Tolerance and
//   LossTolerance tests (Stepper::converged); cmaes does, in place of the gradient's and
//   the per-iteration loss change's.
// - The result is the accepted point with the lowest loss (the earliest on ties); for L-BFGS
//   and cmaes that is the last one, for GD and Adam, whose loss need not decrease, it may be
//   earlier.
#include "nudge/optimizer.h"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <cmath>
#include <iterator>
#include <limits>
#include <string>
#include <utility>

#include "io/json_text.h"
#include "optim/optimizer_common.h"

namespace nudge {

namespace optimizer_internal {

Problem::Problem(const ObjectiveFunctions& f, const std::vector<double>& lower, const std::vector<double>& upper)
    : f_(f), lower_(lower), upper_(upper) {}

Result<Point> Problem::evaluate(std::vector<double> x) {
  assert(f_.loss_and_gradient);
  ++evaluations_;
  Point p{std::move(x), 0.0, std::vector<double>(size(), 0.0)};
  Result<double> loss = f_.loss_and_gradient(p.x, p.grad);
  if (!loss) return loss.error();
  assert(p.grad.size() == size());
  auto finite = [](double v) { return std::isfinite(v); };
  if (!std::isfinite(*loss) || !std::all_of(p.grad.begin(), p.grad.end(), finite) ||
      !std::all_of(p.x.begin(), p.x.end(), finite))
    return Error{"the loss or its gradient is not finite at this point"};
  p.loss = *loss;
  return p;
}

Result<Point> Problem::evaluate_loss(std::vector<double> x) {
  assert(f_.loss);
  ++evaluations_;
  Point p{std::move(x), 0.0, {}};
  Result<double> loss = f_.loss(p.x);
  if (!loss) return loss.error();
  auto finite = [](double v) { return std::isfinite(v); };
  if (!std::isfinite(*loss) || !std::all_of(p.x.begin(), p.x.end(), finite))
    return Error{"the loss is not finite at this point"};
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

constexpr std::string_view kMethodNames[] = {"gd", "adam", "lbfgs", "cmaes"};
constexpr std::string_view kStopReasonNames[] = {"iterations",        "tolerance",          "loss_tolerance",
                                                 "evaluation_failed", "line_search_failed", "cancelled"};

std::unique_ptr<Stepper> make_stepper(const OptimizerSettings& settings, const Problem& problem, const Point& start) {
  switch (settings.method) {
    case OptimizerMethod::GradientDescent: return make_gradient_descent(settings, problem.size());
    case OptimizerMethod::Adam: return make_adam(settings, problem.size());
    case OptimizerMethod::LBFGS: return make_lbfgs(settings);
    case OptimizerMethod::CMAES: return make_cmaes(settings, problem, start);
  }
  assert(false && "unknown optimizer method");
  return nullptr;
}

bool loss_converged(double previous, double current, double loss_tolerance) {
  return loss_tolerance > 0.0 && std::abs(current - previous) <= loss_tolerance * std::max(1.0, std::abs(current));
}

// A method given a function it cannot use, or cmaes settings it cannot run with: the
// caller's mistake, reported rather than asserted, since settings come from files and UIs.
std::optional<Error> unusable(const ObjectiveFunctions& f, const OptimizerSettings& settings) {
  const std::string name(method_name(settings.method));
  if (uses_gradient(settings.method) && !f.loss_and_gradient)
    return Error{"the optimizer " + name + " follows the gradient, but no loss-and-gradient function was given"};
  if (settings.method != OptimizerMethod::CMAES) return std::nullopt;
  if (!f.loss)
    return Error{
        "the optimizer cmaes is gradient-free and needs a loss-only function (ObjectiveFunctions::loss); "
        "none was given"};
  if (settings.population < 0 || settings.population == 1)
    return Error{"optimizer.population: found " + std::to_string(settings.population) +
                 "; expected 0 (the default) or an integer >= 2"};
  if (!(settings.sigma > 0.0) || !std::isfinite(settings.sigma))
    return Error{"optimizer.sigma: found " + scene_io::number_text(settings.sigma) + "; expected a number > 0"};
  return std::nullopt;
}

// 2-norm of the projected gradient at p; NaN for a gradient-free method, which has none.
double gradient_norm(const Problem& problem, const Point& p, bool gradient_based) {
  return gradient_based ? norm(problem.projected_gradient(p)) : std::numeric_limits<double>::quiet_NaN();
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
  for (int i = 0; i < static_cast<int>(std::size(kMethodNames)); ++i)
    if (kMethodNames[i] == name) return static_cast<OptimizerMethod>(i);
  return std::nullopt;
}

bool uses_gradient(OptimizerMethod m) { return m != OptimizerMethod::CMAES; }

std::string_view stop_reason_name(StopReason r) { return kStopReasonNames[static_cast<int>(r)]; }

Result<OptimizeResult> minimize(const ObjectiveFunctions& f, std::vector<double> x0, const std::vector<double>& lower,
                                const std::vector<double>& upper, const OptimizerSettings& settings,
                                const IterationCallback& on_iteration) {
  assert(lower.size() == x0.size() && upper.size() == x0.size());
  for (size_t i = 0; i < x0.size(); ++i) assert(lower[i] <= upper[i]);
  if (std::optional<Error> error = unusable(f, settings)) return *error;

  const bool gradient_based = uses_gradient(settings.method);
  Problem problem(f, lower, upper);
  problem.project(x0);
  Result<Point> start = gradient_based ? problem.evaluate(std::move(x0)) : problem.evaluate_loss(std::move(x0));
  if (!start) return start.error();
  Point current = std::move(start).value();

  OptimizeResult result;
  double grad_norm = gradient_norm(problem, current, gradient_based);
  result.loss_history.push_back(current.loss);
  result.grad_norm_history.push_back(grad_norm);
  result.x = current.x;
  result.loss = current.loss;

  auto finish = [&](StopReason reason) {
    result.reason = reason;
    result.evaluations = problem.evaluations();
    return std::move(result);
  };
  // With nothing to vary, every method is done (the gradient methods through the norm of an
  // empty gradient; cmaes, which has none, needs telling).
  if (grad_norm <= settings.tolerance || current.x.empty()) return finish(StopReason::Tolerance);

  std::unique_ptr<Stepper> stepper = make_stepper(settings, problem, current);
  for (int iteration = 1; iteration <= settings.iterations; ++iteration) {
    const double previous_loss = current.loss;
    if (std::optional<StepFailure> failure = stepper->step(problem, current)) {
      result.message = std::move(failure->message);
      return finish(failure->reason);
    }

    result.iterations = iteration;
    grad_norm = gradient_norm(problem, current, gradient_based);
    result.loss_history.push_back(current.loss);
    result.grad_norm_history.push_back(grad_norm);
    if (current.loss < result.loss) {
      result.x = current.x;
      result.loss = current.loss;
    }

    const bool go_on =
        !on_iteration || on_iteration(IterationInfo{iteration, current.loss, grad_norm, problem.evaluations(),
                                                    &current.x, gradient_based ? &current.grad : nullptr});
    const std::optional<StopReason> verdict = stepper->converged();
    if (grad_norm <= settings.tolerance || verdict == StopReason::Tolerance) return finish(StopReason::Tolerance);
    if (verdict == StopReason::LossTolerance ||
        (gradient_based && loss_converged(previous_loss, current.loss, settings.loss_tolerance)))
      return finish(StopReason::LossTolerance);
    if (!go_on) return finish(StopReason::Cancelled);
  }
  return finish(StopReason::Iterations);
}

Result<OptimizeResult> minimize(const LossAndGradient& f, std::vector<double> x0, const std::vector<double>& lower,
                                const std::vector<double>& upper, const OptimizerSettings& settings,
                                const IterationCallback& on_iteration) {
  return minimize(ObjectiveFunctions{f, {}}, std::move(x0), lower, upper, settings, on_iteration);
}

}  // namespace nudge
