#include "studio/state_adjoint_run.h"

#include <cmath>
#include <exception>
#include <utility>

#include "studio/rollout_worker.h"

namespace nudge::studio {

void state_adjoint_norms(const StateAdjoints& adjoints, std::vector<double>& x_norm, std::vector<double>& v_norm) {
  const size_t state = size_t(adjoints.particles) * 3;
  x_norm.assign(size_t(adjoints.steps) + 1, 0.0);
  v_norm.assign(size_t(adjoints.steps) + 1, 0.0);
  if (state == 0) return;
  for (size_t t = 0; t < x_norm.size(); ++t) {
    double sx = 0, sv = 0;
    for (size_t k = 0; k < state; ++k) {
      sx += adjoints.x[t * state + k] * adjoints.x[t * state + k];
      sv += adjoints.v[t * state + k] * adjoints.v[t * state + k];
    }
    x_norm[t] = std::sqrt(sx);
    v_norm[t] = std::sqrt(sv);
  }
}

StateAdjointRun::StateAdjointRun(Scene scene, int horizon, std::uint64_t key, std::function<void()> on_done)
    : key_(key), horizon_(horizon) {
  auto work = [this, scene = std::move(scene)](BackgroundJob::Control&) {
    auto result = std::make_shared<StateAdjointResult>();
    result->key = key_;
    result->horizon = horizon_;
    try {
      auto sim = Simulator::create(scene, rollout_simulator_options());
      if (!sim) {
        result->error = sim.error().message;
      } else {
        ParameterSet params = scene.params;
        GradientOptions options;
        options.horizon = horizon_;
        options.record_state_adjoints = true;
        Result<Evaluation> eval = (*sim)->gradient(params, options, &result->adjoints);
        if (!eval)
          result->error = eval.error().message;
        else
          state_adjoint_norms(result->adjoints, result->x_norm, result->v_norm);
      }
    } catch (const std::exception& e) {  // must not escape the worker thread (bad_alloc for a huge scene)
      result->adjoints = {};
      result->error = std::string("the state adjoint failed: ") + e.what();
    }
    std::lock_guard lock(mutex_);
    result_ = std::move(result);
  };
  job_ = std::make_unique<BackgroundJob>(std::move(work), std::move(on_done));
}

std::shared_ptr<const StateAdjointResult> StateAdjointRun::result() const {
  std::lock_guard lock(mutex_);
  return result_;
}

}  // namespace nudge::studio
