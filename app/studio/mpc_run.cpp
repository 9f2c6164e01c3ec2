#include "studio/mpc_run.h"

#include <exception>
#include <utility>

#include "studio/rollout_worker.h"

namespace nudge::studio {

int mpc_plan_count(int steps, int every) { return every > 0 ? (steps + every - 1) / every : 0; }

MpcRun::MpcRun(Scene scene, MpcSettings settings, std::function<void()> on_progress) {
  auto first = std::make_shared<MpcSnapshot>();
  first->settings = settings;
  latest_ = first;
  auto work = [this, scene = std::move(scene), settings](BackgroundJob::Control& control) {
    MpcSnapshot snapshot;
    snapshot.settings = settings;
    control.set_total(mpc_plan_count(scene.settings.steps, settings.replan_every));
    try {
      Result<MpcResult> result =
          run_mpc(scene, settings, rollout_simulator_options(), [&](const MpcPlan& plan, const Trajectory& planned) {
            snapshot.plans.push_back(plan);
            snapshot.planned = planned;
            publish(snapshot);
            control.set_done(static_cast<int>(snapshot.plans.size()));
            return !control.cancelled();
          });
      if (result) {
        snapshot.executed = std::move(result->params);
        snapshot.executed_loss = result->loss;
      } else {
        snapshot.error = result.error().message;
      }
    } catch (const std::exception& e) {  // must not escape the worker thread
      snapshot.error = std::string("model predictive control failed: ") + e.what();
    }
    snapshot.finished = true;
    publish(snapshot);
  };
  job_ = std::make_unique<BackgroundJob>(std::move(work), std::move(on_progress));
}

std::shared_ptr<const MpcSnapshot> MpcRun::latest() const {
  std::lock_guard lock(mutex_);
  return latest_;
}

void MpcRun::publish(const MpcSnapshot& snapshot) {
  auto copy = std::make_shared<const MpcSnapshot>(snapshot);
  std::lock_guard lock(mutex_);
  latest_ = std::move(copy);
}

}  // namespace nudge::studio
