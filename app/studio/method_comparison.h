// Gradient descent against a gradient-free method (CMA-ES) on the same objective, from
// the same start, with the same budget of simulations: the loss each has reached after
// each number of simulations. What the teaching panel plots side by side.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "nudge/optimizer.h"
#include "nudge/scene.h"
#include "studio/background_job.h"

namespace nudge::studio {

struct ComparisonPoint {
  int simulations = 0;   // rollouts so far: a loss (CMA-ES) or a loss and its gradient (GD)
  double best_loss = 0;  // the lowest loss reached so far
  double seconds = 0;    // wall-clock time so far
};

struct ComparisonCurve {
  std::string label;  // "gradient descent", "CMA-ES"
  OptimizerSettings settings;
  std::vector<ComparisonPoint> points;  // the start (1 simulation) and after each iteration
  std::string message;                  // why it stopped
  bool done = false;
};

struct ComparisonResult {
  std::vector<ComparisonCurve> curves;
  bool finished = false;
  std::string error;  // the start does not evaluate
};

class MethodComparison {
public:
  // Runs each method in turn from the scene's values until it has used `budget`
  // simulations (or stops on its own).
  MethodComparison(Scene scene, std::vector<OptimizerSettings> methods, int budget,
                   std::function<void()> on_progress = {});

  std::shared_ptr<const ComparisonResult> latest() const;  // never null
  const BackgroundJob& job() const { return *job_; }
  void cancel() { job_->cancel(); }

  static std::string label(const OptimizerSettings& settings);

private:
  void publish(const ComparisonResult& result);

  mutable std::mutex mutex_;
  std::shared_ptr<const ComparisonResult> latest_;
  std::unique_ptr<BackgroundJob> job_;  // last: its thread uses the members above
};

}  // namespace nudge::studio
