// Minimisation with bounds: gradient descent with momentum, Adam and L-BFGS, which
// follow the gradient, and CMA-ES, the gradient-free baseline they are compared with.
// Independent of the physics: it sees functions that return a loss (and its gradient),
// or fail (a rollout that produced NaN).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <optional>
#include <vector>

#include "nudge/result.h"

namespace nudge {

enum class OptimizerMethod { GradientDescent, Adam, LBFGS, CMAES };

std::string_view method_name(OptimizerMethod m);  // "gd", "adam", "lbfgs", "cmaes"
std::optional<OptimizerMethod> method_from_name(std::string_view name);

// True for the methods that follow the gradient; false for CMA-ES, which samples the loss
// alone (one forward simulation per sample, never a backward pass).
bool uses_gradient(OptimizerMethod m);

// Up to this many parameters CMA-ES adapts a full covariance matrix (O(n^2) memory,
// an eigendecomposition of O(n^3)); above it the diagonal one of sep-CMA-ES (O(n)), so
// that scenes with thousands of control values stay affordable.
constexpr std::size_t kCmaesMaxFullCovarianceSize = 100;

struct OptimizerSettings {
  OptimizerMethod method = OptimizerMethod::Adam;
  int iterations = 100;                               // upper bound on iterations
  double learning_rate = 1e-2;                        // step size (gd, adam); initial step scale of lbfgs is 1
  double momentum = 0.9;                              // gd: heavy-ball momentum, 0 for plain gradient descent
  double beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8;  // adam
  int history = 10;                                   // lbfgs: number of correction pairs kept
  double clip = 0.0;            // > 0: rescale the gradient so its 2-norm is at most this (not cmaes)
  bool normalize = false;       // gd: step along g / (|g| + epsilon), a fixed step length
                                // (DiffTaichi's mass_spring update), after clipping
  double tolerance = 0.0;       // stop when the projected gradient's norm <= tolerance (not cmaes,
                                // which stops when its step size has collapsed)
  double loss_tolerance = 0.0;  // stop when |loss change| <= loss_tolerance * max(1, |loss|)
                                // (cmaes: the best loss's change over a window of generations)
  int population = 0;           // cmaes: samples per generation (lambda) >= 2; 0: 4 + floor(3 ln n)
  // cmaes: initial step size relative to each parameter's scale: its bound width where both
  // bounds are finite, else max(|x0_i|, 1). 0.3 of the width is Hansen's advice for a box:
  // the first generation spreads over the box without piling up on its faces.
  double sigma = 0.3;
  std::uint64_t seed = 1;  // cmaes: random seed; the same seed and build give the same run
};

// Evaluates the loss at x and writes dL/dx into grad (same size). An Error means
// the point is unusable (NaN in the rollout); the optimiser never accepts it.
using LossAndGradient = std::function<Result<double>(const std::vector<double>& x, std::vector<double>& grad)>;

// Evaluates the loss alone at x: what gradient-free methods (cmaes) call, so that one call
// costs one forward simulation. Errors as for LossAndGradient.
using LossOnly = std::function<Result<double>(const std::vector<double>& x)>;

// What minimize may call: gradient methods need loss_and_gradient, cmaes needs loss. A
// caller that lets the user pick the method gives both.
struct ObjectiveFunctions {
  LossAndGradient loss_and_gradient;
  LossOnly loss;
};

// For cmaes an iteration is one generation, and the current point is the best sample seen
// so far, so its loss never rises. A gradient-free method knows no gradient: grad_norm is
// NaN and grad is null.
struct IterationInfo {
  int iteration = 0;       // 1-based count of completed iterations
  double loss = 0.0;       // loss at the current (accepted) x
  double grad_norm = 0.0;  // 2-norm of the projected gradient at x; NaN for cmaes
  int evaluations = 0;     // function evaluations so far (for cmaes: simulations run)
  // The current point and its gradient (null for cmaes); valid only during the callback
  // (a viewer copies what it shows: the iterate's parameters, its motion).
  const std::vector<double>* x = nullptr;
  const std::vector<double>* grad = nullptr;
};

enum class StopReason { Iterations, Tolerance, LossTolerance, EvaluationFailed, LineSearchFailed, Cancelled };
std::string_view stop_reason_name(StopReason r);

struct OptimizeResult {
  std::vector<double> x;                  // the best accepted point (always finite)
  double loss = 0.0;                      // loss at x
  std::vector<double> loss_history;       // loss at the start and after each iteration
  std::vector<double> grad_norm_history;  // NaN throughout for cmaes (JSON writers: null)
  int iterations = 0;
  int evaluations = 0;  // for cmaes: 1 + population * generations run
  StopReason reason = StopReason::Iterations;
  std::string message;  // for EvaluationFailed: the evaluation's error
};

// Called after every iteration; return false to stop (reason Cancelled).
using IterationCallback = std::function<bool(const IterationInfo&)>;

// The gradient with the entries that would push x out of [lower, upper] at an active
// bound set to zero: what the optimisers measure (IterationInfo::grad_norm) and stop on.
std::vector<double> projected_gradient(const std::vector<double>& x, std::vector<double> grad,
                                       const std::vector<double>& lower, const std::vector<double>& upper);

// Minimises from x0 within [lower, upper] (same sizes; +-inf for unbounded). Fails if the
// very first evaluation fails, if the method needs a function that `f` lacks, or if a
// cmaes setting is out of range (population 1 or negative, sigma not > 0).
Result<OptimizeResult> minimize(const ObjectiveFunctions& f, std::vector<double> x0, const std::vector<double>& lower,
                                const std::vector<double>& upper, const OptimizerSettings& settings,
                                const IterationCallback& on_iteration = {});

// The same with a gradient function only: for the gradient methods.
Result<OptimizeResult> minimize(const LossAndGradient& f, std::vector<double> x0, const std::vector<double>& lower,
                                const std::vector<double>& upper, const OptimizerSettings& settings,
                                const IterationCallback& on_iteration = {});

}  // namespace nudge
