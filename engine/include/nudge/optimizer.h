// Gradient-based minimisation with bounds by projection: gradient descent with
// momentum, Adam and L-BFGS. Independent of the physics: it sees a function that
// returns a loss and its gradient, or fails (a rollout that produced NaN).
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <optional>
#include <vector>

#include "nudge/result.h"

namespace nudge {

enum class OptimizerMethod { GradientDescent, Adam, LBFGS };

std::string_view method_name(OptimizerMethod m);  // "gd", "adam", "lbfgs"
std::optional<OptimizerMethod> method_from_name(std::string_view name);

struct OptimizerSettings {
  OptimizerMethod method = OptimizerMethod::Adam;
  int iterations = 100;          // upper bound on iterations
  double learning_rate = 1e-2;   // step size (gd, adam); initial step scale of lbfgs is 1
  double momentum = 0.9;         // gd: heavy-ball momentum, 0 for plain gradient descent
  double beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8;  // adam
  int history = 10;              // lbfgs: number of correction pairs kept
  double clip = 0.0;             // > 0: rescale the gradient so its 2-norm is at most this
  double tolerance = 0.0;        // stop when the projected gradient's norm <= tolerance
  double loss_tolerance = 0.0;   // stop when |loss change| <= loss_tolerance * max(1, |loss|)
};

// Evaluates the loss at x and writes dL/dx into grad (same size). An Error means
// the point is unusable (NaN in the rollout); the optimiser never accepts it.
using LossAndGradient = std::function<Result<double>(const std::vector<double>& x, std::vector<double>& grad)>;

struct IterationInfo {
  int iteration = 0;        // 1-based count of completed iterations
  double loss = 0.0;        // loss at the current (accepted) x
  double grad_norm = 0.0;   // 2-norm of the projected gradient at x
  int evaluations = 0;      // function evaluations so far
  // The current point and its gradient; valid only during the callback (a viewer copies
  // what it shows: the iterate's parameters, its motion).
  const std::vector<double>* x = nullptr;
  const std::vector<double>* grad = nullptr;
};

enum class StopReason { Iterations, Tolerance, LossTolerance, EvaluationFailed, LineSearchFailed, Cancelled };
std::string_view stop_reason_name(StopReason r);

struct OptimizeResult {
  std::vector<double> x;              // the best accepted point (always finite)
  double loss = 0.0;                  // loss at x
  std::vector<double> loss_history;   // loss at the start and after each iteration
  std::vector<double> grad_norm_history;
  int iterations = 0;
  int evaluations = 0;
  StopReason reason = StopReason::Iterations;
  std::string message;                // for EvaluationFailed: the evaluation's error
};

// Called after every iteration; return false to stop (reason Cancelled).
using IterationCallback = std::function<bool(const IterationInfo&)>;

// The gradient with the entries that would push x out of [lower, upper] at an active
// bound set to zero: what the optimisers measure (IterationInfo::grad_norm) and stop on.
std::vector<double> projected_gradient(const std::vector<double>& x, std::vector<double> grad,
                                       const std::vector<double>& lower, const std::vector<double>& upper);

// Minimises from x0 within [lower, upper] (same sizes; +-inf for unbounded).
// Fails only if the very first evaluation fails.
Result<OptimizeResult> minimize(const LossAndGradient& f, std::vector<double> x0,
                                const std::vector<double>& lower, const std::vector<double>& upper,
                                const OptimizerSettings& settings, const IterationCallback& on_iteration = {});

}  // namespace nudge
