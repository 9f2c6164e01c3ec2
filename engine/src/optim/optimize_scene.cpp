#include "nudge/optimize_scene.h"

namespace nudge {

Result<OptimizeResult> optimize_parameters(Simulator& sim, ParameterSet& params, const OptimizerSettings& settings,
                                           const IterationCallback& on_iteration, const GradientOptions& gradient) {
  ObjectiveFunctions f;
  f.loss_and_gradient = [&](const std::vector<double>& x, std::vector<double>& grad) -> Result<double> {
    params.scatter_optimized(x);
    Result<Evaluation> eval = sim.gradient(params, gradient);
    if (!eval) return eval.error();
    grad = params.gather_optimized_grad();
    return eval->loss;
  };
  // For gradient-free methods: a forward rollout only, no backward pass.
  f.loss = [&](const std::vector<double>& x) -> Result<double> {
    params.scatter_optimized(x);
    Result<Evaluation> eval = sim.evaluate(params);
    if (!eval) return eval.error();
    return eval->loss;
  };
  std::vector<double> lower, upper;
  params.optimized_bounds(lower, upper);
  const std::vector<double> start = params.gather_optimized();
  Result<OptimizeResult> result = minimize(f, start, lower, upper, settings, on_iteration);
  params.scatter_optimized(result ? result->x : start);
  return result;
}

}  // namespace nudge
