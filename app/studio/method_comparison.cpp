#include "studio/method_comparison.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <utility>

#include "nudge/optimize_scene.h"
#include "studio/rollout_worker.h"

namespace nudge::studio {

std::string MethodComparison::label(const OptimizerSettings& settings) {
  switch (settings.method) {
    case OptimizerMethod::GradientDescent: return "gradient descent";
    case OptimizerMethod::Adam: return "Adam";
    case OptimizerMethod::LBFGS: return "L-BFGS";
    case OptimizerMethod::CMAES: return "CMA-ES";
  }
  return std::string(method_name(settings.method));
}

MethodComparison::MethodComparison(Scene scene, std::vector<OptimizerSettings> methods, int budget,
                                   std::function<void()> on_progress)
    : latest_(std::make_shared<const ComparisonResult>()) {
  auto work = [this, scene = std::move(scene), methods = std::move(methods), budget](BackgroundJob::Control& control) {
    ComparisonResult result;
    for (const OptimizerSettings& s : methods) result.curves.push_back({label(s), s, {}, "", false});
    control.set_total(budget * static_cast<int>(methods.size()));
    try {
      auto sim = Simulator::create(scene, rollout_simulator_options());
      if (!sim) {
        result.error = sim.error().message;
        result.finished = true;
        return publish(result);
      }
      // The start, where every method's first simulation is (the callbacks see only the
      // iterations after it).
      Result<Evaluation> at_start = (*sim)->evaluate(scene.params);
      if (!at_start) {
        result.error = "the start does not evaluate: " + at_start.error().message;
        result.finished = true;
        return publish(result);
      }
      for (size_t m = 0; m < methods.size() && !control.cancelled(); ++m) {
        ComparisonCurve& curve = result.curves[m];
        OptimizerSettings settings = methods[m];
        settings.iterations = budget;  // an upper bound: the budget of simulations stops it first
        ParameterSet params = scene.params;
        const auto start = std::chrono::steady_clock::now();
        double best = at_start->loss;
        curve.points.push_back({1, best, 0.0});
        const IterationCallback on_iteration = [&](const IterationInfo& info) {
          best = std::min(best, info.loss);
          const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
          curve.points.push_back({info.evaluations, best, seconds});
          publish(result);
          control.set_done(int(m) * budget + std::min(info.evaluations, budget));
          return info.evaluations < budget && !control.cancelled();
        };
        Result<OptimizeResult> run = optimize_parameters(**sim, params, settings, on_iteration);
        if (!run) {
          curve.message = run.error().message;
        } else {
          curve.message = std::string(stop_reason_name(run->reason)) + " after " + std::to_string(run->evaluations) +
                          " simulations";
        }
        curve.done = true;
        publish(result);
      }
    } catch (const std::exception& e) {  // must not escape the worker thread
      result.error = std::string("the comparison failed: ") + e.what();
    }
    result.finished = true;
    publish(result);
  };
  job_ = std::make_unique<BackgroundJob>(std::move(work), std::move(on_progress));
}

std::shared_ptr<const ComparisonResult> MethodComparison::latest() const {
  std::lock_guard lock(mutex_);
  return latest_;
}

void MethodComparison::publish(const ComparisonResult& result) {
  auto copy = std::make_shared<const ComparisonResult>(result);
  std::lock_guard lock(mutex_);
  latest_ = std::move(copy);
}

}  // namespace nudge::studio
