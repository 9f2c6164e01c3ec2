// The adjoint of the state, dL/dx_t and dL/dv_t at every step, for a point of parameter
// space and a backpropagation horizon: what the viewport's adjoint arrows and the
// timeline's |dL/dx_t| curve show. Computed on a worker thread.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "nudge/scene.h"
#include "nudge/simulator.h"
#include "studio/background_job.h"

namespace nudge::studio {

struct StateAdjointResult {
  std::uint64_t key = 0;  // the caller's name for the point it was asked for
  int horizon = 0;        // 0: the whole rollout
  StateAdjoints adjoints;
  std::vector<double> x_norm, v_norm;  // |dL/dx_t|, |dL/dv_t| over all particles, t = 0..steps
  std::string error;                   // empty on success
};

// |dL/dx_t| and |dL/dv_t| (2-norms over every particle) for each step.
void state_adjoint_norms(const StateAdjoints& adjoints, std::vector<double>& x_norm, std::vector<double>& v_norm);

class StateAdjointRun {
public:
  StateAdjointRun(Scene scene, int horizon, std::uint64_t key, std::function<void()> on_done = {});

  std::uint64_t key() const { return key_; }
  int horizon() const { return horizon_; }
  bool finished() const { return job_->finished(); }
  bool job_finished_within(double seconds) const { return job_->wait(seconds); }
  std::shared_ptr<const StateAdjointResult> result() const;  // null until finished

private:
  const std::uint64_t key_;
  const int horizon_;
  mutable std::mutex mutex_;
  std::shared_ptr<const StateAdjointResult> result_;
  std::unique_ptr<BackgroundJob> job_;  // last: its thread uses the members above
};

}  // namespace nudge::studio
