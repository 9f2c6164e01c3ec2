// Model predictive control while the user watches (nudge/mpc.h): one background job runs
// the receding-horizon loop on a copy of the scene and publishes, after each plan, the
// plans so far and the newest plan's motion (the executed prefix, then the planned
// window), which the viewport draws as a ghost over the scene. When it finishes, the
// executed controls can be taken into the document.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "nudge/mpc.h"
#include "nudge/scene.h"
#include "nudge/simulator.h"
#include "studio/background_job.h"

namespace nudge::studio {

struct MpcSnapshot {
  MpcSettings settings;
  std::vector<MpcPlan> plans;  // so far
  Trajectory planned;          // the newest plan's motion: steps 0 .. plans.back().start + steps
  bool finished = false;
  std::string error;         // the loop failed (or was cancelled)
  ParameterSet executed;     // finished without error: the scene's parameters with the executed controls
  double executed_loss = 0;  // the scene's loss of the executed motion
};

class MpcRun {
public:
  MpcRun(Scene scene, MpcSettings settings, std::function<void()> on_progress = {});
  std::shared_ptr<const MpcSnapshot> latest() const;  // never null
  const BackgroundJob& job() const { return *job_; }
  void cancel() { job_->cancel(); }

private:
  void publish(const MpcSnapshot& snapshot);

  mutable std::mutex mutex_;
  std::shared_ptr<const MpcSnapshot> latest_;
  std::unique_ptr<BackgroundJob> job_;  // last: its thread uses the members above
};

// How many plans a loop over `steps` steps re-planning every `every` makes.
int mpc_plan_count(int steps, int every);

}  // namespace nudge::studio
