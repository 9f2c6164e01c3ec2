// The engine's gradient check (adjoint against central finite differences, in double) run
// for the window on a worker thread, with progress and cancellation.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "nudge/gradcheck.h"
#include "studio/background_job.h"

namespace nudge::studio {

struct GradientCheckOutcome {
  bool finished = false;
  std::optional<GradCheckReport> report;  // when it finished without error
  std::string error;                      // the engine's, or "cancelled"
};

class GradientCheckRun {
public:
  // Checks `scene`'s parameters (all when `parameters` is empty) at its current values.
  GradientCheckRun(Scene scene, std::vector<ParamId> parameters, int samples_per_parameter,
                   std::function<void()> on_progress = {});

  std::shared_ptr<const GradientCheckOutcome> outcome() const;  // never null
  const BackgroundJob& job() const { return *job_; }
  void cancel() { job_->cancel(); }

private:
  mutable std::mutex mutex_;
  std::shared_ptr<const GradientCheckOutcome> outcome_;
  std::unique_ptr<BackgroundJob> job_;  // last: its thread uses the members above
};

}  // namespace nudge::studio
