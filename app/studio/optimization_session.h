// Optimising a scene while the user watches: one worker thread runs the engine's
// optimiser on a copy of the scene and publishes an immutable snapshot after every
// iteration (loss, gradient norm, the histories, the iterate's parameters and its
// motion). The UI starts, pauses, steps and resets it; these take effect at the next
// iteration boundary, inside one run of the optimiser, so pausing does not lose the
// optimiser's state (Adam's moments, L-BFGS's history).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "nudge/gradient_growth.h"
#include "nudge/optimizer.h"
#include "nudge/scene.h"
#include "nudge/simulator.h"

namespace nudge::studio {

enum class RunState {
  Ready,  // at an iterate, not running: the start, or after a reset
  Running,
  Paused,    // inside a run, waiting to be resumed or stepped
  Finished,  // the run ended: iterations done, converged, or failed (see message)
};
std::string_view run_state_name(RunState state);

struct OptimizationSnapshot {
  std::uint64_t version = 0;  // increases with every snapshot published
  RunState state = RunState::Ready;
  int iteration = 0;    // iterations done since the start (0: the start)
  int evaluations = 0;  // evaluations since the start (cmaes: forward simulations)
  double loss = 0;
  std::vector<double> term_loss;          // per objective term, in the scene's order
  double grad_norm = 0;                   // of the projected gradient; NaN for cmaes, which has none
  std::vector<double> loss_history;       // iteration 0 .. iteration
  std::vector<double> grad_norm_history;  // iteration 0 .. iteration
  Scene scene;            // the scene with this iterate's parameters (and their gradients; zero for cmaes)
  Trajectory trajectory;  // this iterate's motion
  // The gradient grows exponentially with the horizon (nudge/gradient_growth.h): measured
  // from this iterate's gradient, or on a GPU (where it costs a download per step) at the
  // start, after edits and at the end only; nullopt when it does not, or was not measured.
  std::optional<GradientGrowth> growth;
  std::string message;  // why the run finished, what failed, or that an edit moved the iterate
  bool failed = false;  // the message is an error
};

class OptimizationSession {
public:
  // The worker evaluates the start (loss, gradient, motion) first and publishes it;
  // latest() is null until then. If the start does not evaluate, that snapshot has the
  // error in its message and state Finished, and the session never runs.
  explicit OptimizationSession(Scene scene, std::function<void()> on_publish = {});
  ~OptimizationSession();  // stops the run at its next iteration boundary and joins
  OptimizationSession(const OptimizationSession&) = delete;
  OptimizationSession& operator=(const OptimizationSession&) = delete;

  // The scene's own optimiser settings at first. New settings apply to the next run
  // (after a reset, or a start from Finished).
  void set_settings(const OptimizerSettings& settings);
  OptimizerSettings settings() const;
  // Backpropagate through the last `horizon` steps only (0: all); for the next run and
  // the next evaluation, like the settings.
  void set_horizon(int horizon);

  void start();  // Ready or Finished: a new run from the current iterate; Paused: resume
  void pause();  // Running: stop at the next iteration boundary
  void step();   // one iteration, then Paused (from Ready, Paused or Finished)
  void reset();  // end any run and go back to the start exactly; Ready
  // A change made by hand: ends any run at its next iteration boundary, moves the current
  // iterate to `params` (values of the same shapes; bounds and flags as at the start),
  // evaluates it and publishes it as Ready, keeping the histories. Start then runs from it.
  void edit(ParameterSet params);

  RunState state() const;
  std::shared_ptr<const OptimizationSnapshot> latest() const;
  // The start's snapshot (iteration 0), null until evaluated: a viewer that polls may
  // never see it as latest() when the first iterations are quick.
  std::shared_ptr<const OptimizationSnapshot> initial() const;
  // Blocks until a published snapshot satisfies `done` or the timeout passes; says which.
  bool wait_for(const std::function<bool(const OptimizationSnapshot&)>& done, double timeout_seconds) const;

private:
  // start() and step(): run with this many iterations before pausing (0: no limit).
  void run(int step_budget);
  void worker();
  bool evaluate_start();
  void run_optimizer();
  void go_back_to_start();
  void apply_edit(ParameterSet params);
  GradientOptions gradient_options() const;
  void publish(OptimizationSnapshot snapshot);
  OptimizationSnapshot evaluate_at(const ParameterSet& params, RunState state);
  // A gradient at params that also measures the adjoint's growth when `measure` is set.
  Result<Evaluation> gradient_at(ParameterSet& params, const GradientOptions& options, bool measure,
                                 std::optional<GradientGrowth>& growth);

  const Scene start_scene_;
  std::function<void()> on_publish_;
  std::unique_ptr<Simulator> sim_;       // used by the worker only (and the constructor)
  bool measure_every_gradient_ = false;  // the growth at every gradient: on the CPU, where it costs little
  ParameterSet current_;                 // the worker's current iterate
  std::vector<double> loss_history_, grad_norm_history_;
  int iterations_done_ = 0, evaluations_done_ = 0;

  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  OptimizerSettings settings_;
  int horizon_ = 0;
  RunState state_ = RunState::Ready;
  bool run_requested_ = false;        // start a run (start or step from Ready or Finished)
  bool reset_requested_ = false;      // end the run and go back to the start
  std::optional<ParameterSet> edit_;  // end the run and move to these values
  bool quit_ = false;
  bool unusable_ = false;  // the start did not evaluate
  int step_budget_ = 0;    // iterations left before pausing; 0: no limit
  std::uint64_t next_version_ = 1;
  std::shared_ptr<const OptimizationSnapshot> latest_;
  std::shared_ptr<const OptimizationSnapshot> initial_;
  std::thread thread_;  // last: starts once everything it uses exists
};

}  // namespace nudge::studio
