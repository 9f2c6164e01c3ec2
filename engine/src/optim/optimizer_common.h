// Internals shared by the optimisation methods: the bounded problem they all see and the
// interface each method implements. minimize() (optimizer.cpp) owns the loop, the stop
// tests and the history; a method only knows how to get from one accepted point to the next.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "nudge/optimizer.h"

namespace nudge::optimizer_internal {

// A point that evaluated successfully: the only kind of point an optimiser may move to.
struct Point {
  std::vector<double> x;
  double loss = 0.0;
  std::vector<double> grad;  // empty for a gradient-free method
};

// The function being minimised together with its box [lower, upper].
class Problem {
public:
  Problem(const ObjectiveFunctions& f, const std::vector<double>& lower, const std::vector<double>& upper);

  size_t size() const { return lower_.size(); }
  int evaluations() const { return evaluations_; }
  const std::vector<double>& lower() const { return lower_; }
  const std::vector<double>& upper() const { return upper_; }

  // Evaluates the loss and its gradient at x. Counts every call; a non-finite point, loss
  // or gradient is turned into an Error as well, so that no method can accept a NaN.
  Result<Point> evaluate(std::vector<double> x);

  // Evaluates the loss alone at x, for gradient-free methods; the Point's grad is empty.
  // Counted and checked like evaluate().
  Result<Point> evaluate_loss(std::vector<double> x);

  // Clamps x into the box, component by component.
  void project(std::vector<double>& x) const;

  // True when x sits on a bound of component i and `direction` points out of the box.
  bool blocked(const std::vector<double>& x, size_t i, double direction) const;

  // The gradient with the components zeroed where x is on a bound and the descent
  // direction -g leaves the box: what is left can still be reduced by moving.
  std::vector<double> projected_gradient(const Point& p) const;

private:
  const ObjectiveFunctions& f_;
  const std::vector<double>& lower_;
  const std::vector<double>& upper_;
  int evaluations_ = 0;
};

// Why a method could not produce the next point.
struct StepFailure {
  StopReason reason = StopReason::EvaluationFailed;
  std::string message;
};

// One optimisation method. step() moves `current` to the next accepted point, evaluating
// the problem as often as it needs; on failure `current` is left unchanged.
class Stepper {
public:
  virtual ~Stepper() = default;
  virtual std::optional<StepFailure> step(Problem& problem, Point& current) = 0;

  // The method's own verdict after a completed step, for a method that the common tests
  // (projected gradient, loss change per iteration) do not fit: Tolerance or LossTolerance
  // to stop, nothing to go on.
  virtual std::optional<StopReason> converged() const { return std::nullopt; }
};

std::unique_ptr<Stepper> make_gradient_descent(const OptimizerSettings& settings, size_t size);
std::unique_ptr<Stepper> make_adam(const OptimizerSettings& settings, size_t size);
std::unique_ptr<Stepper> make_lbfgs(const OptimizerSettings& settings);
// `start` is the evaluated (projected) x0: the first mean, and the scale of the first step.
std::unique_ptr<Stepper> make_cmaes(const OptimizerSettings& settings, const Problem& problem, const Point& start);

double dot(const std::vector<double>& a, const std::vector<double>& b);
double norm(const std::vector<double>& v);

// Rescales v to 2-norm max_norm when it is longer; max_norm <= 0 means no clipping.
void clip_to_norm(std::vector<double>& v, double max_norm);

}  // namespace nudge::optimizer_internal
