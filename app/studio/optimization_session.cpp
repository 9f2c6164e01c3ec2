#include "studio/optimization_session.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <utility>

#include "nudge/optimize_scene.h"
#include "studio/rollout_worker.h"

namespace nudge::studio {

namespace {

double projected_gradient_norm(const ParameterSet& params) {
  std::vector<double> lower, upper;
  params.optimized_bounds(lower, upper);
  const std::vector<double> g =
      projected_gradient(params.gather_optimized(), params.gather_optimized_grad(), lower, upper);
  return std::sqrt(std::inner_product(g.begin(), g.end(), g.begin(), 0.0));
}

}  // namespace

std::string_view run_state_name(RunState state) {
  switch (state) {
    case RunState::Ready: return "ready";
    case RunState::Running: return "running";
    case RunState::Paused: return "paused";
    case RunState::Finished: return "finished";
  }
  return "?";
}

OptimizationSession::OptimizationSession(Scene scene, std::function<void()> on_publish)
    : start_scene_(std::move(scene)), on_publish_(std::move(on_publish)), current_(start_scene_.params),
      settings_(start_scene_.optimizer) {
  // Everything that may take longer than a UI frame, the first rollout included, runs on
  // the worker.
  thread_ = std::thread([this] {
    if (evaluate_start()) worker();
  });
}

bool OptimizationSession::evaluate_start() {
  Result<std::unique_ptr<Simulator>> sim = Simulator::create(start_scene_, rollout_simulator_options());
  OptimizationSnapshot first;
  if (sim) {
    sim_ = std::move(*sim);
    measure_every_gradient_ = sim_->device_name().rfind("cpu", 0) == 0;
    first = evaluate_at(current_, RunState::Ready);
  } else {
    first.scene = start_scene_;
    first.message = sim.error().message;
    first.failed = true;
  }
  const bool usable = first.message.empty();
  if (usable) {
    loss_history_ = {first.loss};
    grad_norm_history_ = {first.grad_norm};
    first.loss_history = loss_history_;
    first.grad_norm_history = grad_norm_history_;
  }
  {
    std::lock_guard lock(mutex_);
    if (!usable) {
      unusable_ = true;
      run_requested_ = false;
      state_ = RunState::Finished;
    }
    first.state = state_;  // a start() that came early already says Running
  }
  publish(std::move(first));
  return usable;
}

OptimizationSession::~OptimizationSession() {
  {
    std::lock_guard lock(mutex_);
    quit_ = true;
  }
  changed_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void OptimizationSession::set_settings(const OptimizerSettings& settings) {
  std::lock_guard lock(mutex_);
  settings_ = settings;
}

GradientOptions OptimizationSession::gradient_options() const {
  std::lock_guard lock(mutex_);
  GradientOptions options;
  options.horizon = horizon_;
  return options;
}

void OptimizationSession::set_horizon(int horizon) {
  std::lock_guard lock(mutex_);
  horizon_ = std::max(0, horizon);
}

OptimizerSettings OptimizationSession::settings() const {
  std::lock_guard lock(mutex_);
  return settings_;
}

void OptimizationSession::start() { run(0); }

void OptimizationSession::pause() {
  std::lock_guard lock(mutex_);
  if (state_ == RunState::Running) state_ = RunState::Paused;
}

void OptimizationSession::step() { run(1); }

void OptimizationSession::run(int step_budget) {
  std::lock_guard lock(mutex_);
  if (unusable_) return;  // the start did not evaluate: nothing to run
  if (state_ == RunState::Paused) {
    step_budget_ = step_budget;
    state_ = RunState::Running;
  } else if (state_ == RunState::Ready || state_ == RunState::Finished) {
    step_budget_ = step_budget;
    run_requested_ = true;
    state_ = RunState::Running;
  }
  changed_.notify_all();
}

void OptimizationSession::reset() {
  std::lock_guard lock(mutex_);
  reset_requested_ = true;
  run_requested_ = false;
  changed_.notify_all();
}

void OptimizationSession::edit(ParameterSet params) {
  std::lock_guard lock(mutex_);
  if (unusable_) return;
  edit_ = std::move(params);
  run_requested_ = false;
  step_budget_ = 0;
  if (state_ == RunState::Running) state_ = RunState::Paused;  // stops at the next boundary
  changed_.notify_all();
}

RunState OptimizationSession::state() const {
  std::lock_guard lock(mutex_);
  return state_;
}

std::shared_ptr<const OptimizationSnapshot> OptimizationSession::latest() const {
  std::lock_guard lock(mutex_);
  return latest_;
}

std::shared_ptr<const OptimizationSnapshot> OptimizationSession::initial() const {
  std::lock_guard lock(mutex_);
  return initial_;
}

bool OptimizationSession::wait_for(const std::function<bool(const OptimizationSnapshot&)>& done,
                                   double timeout_seconds) const {
  std::unique_lock lock(mutex_);
  return changed_.wait_for(lock, std::chrono::duration<double>(timeout_seconds),
                           [&] { return latest_ && done(*latest_); });
}

void OptimizationSession::publish(OptimizationSnapshot snapshot) {
  {
    std::lock_guard lock(mutex_);
    snapshot.version = next_version_++;
    latest_ = std::make_shared<const OptimizationSnapshot>(std::move(snapshot));
    if (latest_->iteration == 0 && latest_->message.empty()) initial_ = latest_;
  }
  changed_.notify_all();
  if (on_publish_) on_publish_();
}

Result<Evaluation> OptimizationSession::gradient_at(ParameterSet& params, const GradientOptions& options, bool measure,
                                                    std::optional<GradientGrowth>& growth) {
  if (!measure) return sim_->gradient(params, options);
  GradientOptions measured = options;
  measured.record_adjoint_norms = true;
  StateAdjoints norms;
  Result<Evaluation> evaluation = sim_->gradient(params, measured, &norms);
  growth = evaluation ? find_gradient_growth(norms.norm) : std::nullopt;
  return evaluation;
}

OptimizationSnapshot OptimizationSession::evaluate_at(const ParameterSet& params, RunState state) {
  OptimizationSnapshot snapshot;
  snapshot.state = state;
  snapshot.scene = start_scene_;
  snapshot.scene.params = params;
  snapshot.iteration = iterations_done_;
  snapshot.evaluations = evaluations_done_;
  Result<Evaluation> evaluation = gradient_at(snapshot.scene.params, gradient_options(), true, snapshot.growth);
  if (!evaluation) {
    snapshot.message = evaluation.error().message;
    snapshot.failed = true;
    return snapshot;
  }
  snapshot.loss = evaluation->loss;
  snapshot.term_loss = evaluation->term_loss;
  snapshot.grad_norm = projected_gradient_norm(snapshot.scene.params);
  Result<Trajectory> trajectory = sim_->trajectory(snapshot.scene.params);
  if (!trajectory) {
    snapshot.message = trajectory.error().message;
    snapshot.failed = true;
    return snapshot;
  }
  snapshot.trajectory = std::move(*trajectory);
  return snapshot;
}

void OptimizationSession::worker() {
  for (;;) {
    {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [&] { return quit_ || reset_requested_ || edit_ || run_requested_; });
      if (quit_) return;
    }
    bool reset = false;
    std::optional<ParameterSet> edit;
    {
      std::lock_guard lock(mutex_);
      reset = reset_requested_;
      reset_requested_ = false;
      if (!reset) edit.swap(edit_);  // a reset wins; an edit after it waits for the next turn
    }
    if (reset) {
      go_back_to_start();
      continue;
    }
    if (edit) {
      apply_edit(std::move(*edit));
      continue;
    }
    {
      std::lock_guard lock(mutex_);
      run_requested_ = false;
    }
    run_optimizer();
  }
}

void OptimizationSession::go_back_to_start() {
  current_ = start_scene_.params;
  iterations_done_ = 0;
  evaluations_done_ = 0;
  OptimizationSnapshot snapshot = evaluate_at(current_, RunState::Ready);
  loss_history_ = {snapshot.loss};
  grad_norm_history_ = {snapshot.grad_norm};
  snapshot.loss_history = loss_history_;
  snapshot.grad_norm_history = grad_norm_history_;
  {
    std::lock_guard lock(mutex_);
    // A start or step that came after the reset runs next; its state stands.
    if (!run_requested_) {
      state_ = RunState::Ready;
      step_budget_ = 0;
    }
    snapshot.state = state_;
  }
  publish(std::move(snapshot));
}

void OptimizationSession::apply_edit(ParameterSet params) {
  // Only values change: what is optimised, and within which bounds, stays the scene's.
  for (int p = 0; p < kParamCount; ++p) {
    Parameter& now = current_.items[size_t(p)];
    if (params.items[size_t(p)].value.size() == now.value.size()) now.value = params.items[size_t(p)].value;
  }
  OptimizationSnapshot snapshot = evaluate_at(current_, RunState::Ready);
  snapshot.loss_history = loss_history_;
  snapshot.grad_norm_history = grad_norm_history_;
  if (snapshot.message.empty()) snapshot.message = "edited by hand; Start runs from here";
  {
    std::lock_guard lock(mutex_);
    if (!run_requested_) state_ = RunState::Ready;
    snapshot.state = state_;
  }
  publish(std::move(snapshot));
}

void OptimizationSession::run_optimizer() {
  const OptimizerSettings settings = this->settings();
  const GradientOptions options = gradient_options();
  ParameterSet params = current_;
  // The last point the optimiser evaluated, with every parameter's gradient: the
  // accepted iterate in each callback is the point evaluated last (gradient descent and
  // Adam evaluate once per iteration, the line search of L-BFGS ends on the point it
  // accepts), so its gradients need no second evaluation.
  ParameterSet last_evaluated = params;
  std::vector<double> last_term_loss;
  std::optional<GradientGrowth> last_growth = latest() ? latest()->growth : std::nullopt;
  const int evaluations_before = evaluations_done_;
  // A gradient-free run (cmaes) evaluates losses only; its iterates are shown with their
  // gradients all the same (one gradient per iteration for the overlays, not counted
  // among the method's simulations).
  const bool gradient_based = uses_gradient(settings.method);

  const IterationCallback on_iteration = [&](const IterationInfo& info) {
    ++iterations_done_;
    evaluations_done_ = evaluations_before + info.evaluations;
    loss_history_.push_back(info.loss);
    grad_norm_history_.push_back(info.grad_norm);
    ParameterSet iterate = last_evaluated;
    std::vector<double> term_loss = last_term_loss;
    if (!gradient_based || iterate.gather_optimized() != *info.x) {  // not the last point evaluated with its gradient
      iterate.scatter_optimized(*info.x);
      if (Result<Evaluation> again = gradient_at(iterate, options, measure_every_gradient_, last_growth); again)
        term_loss = again->term_loss;
    }
    OptimizationSnapshot snapshot;
    snapshot.iteration = iterations_done_;
    snapshot.evaluations = evaluations_done_;
    snapshot.loss = info.loss;
    snapshot.term_loss = std::move(term_loss);
    snapshot.growth = last_growth;
    snapshot.grad_norm = info.grad_norm;
    snapshot.loss_history = loss_history_;
    snapshot.grad_norm_history = grad_norm_history_;
    snapshot.scene = start_scene_;
    snapshot.scene.params = iterate;
    if (Result<Trajectory> trajectory = sim_->trajectory(iterate); trajectory) {
      snapshot.trajectory = std::move(*trajectory);
    } else {
      snapshot.message = trajectory.error().message;
      snapshot.failed = true;
    }
    current_ = std::move(iterate);

    std::unique_lock lock(mutex_);
    if (step_budget_ > 0 && --step_budget_ == 0 && state_ == RunState::Running) state_ = RunState::Paused;
    snapshot.state = state_;
    lock.unlock();
    publish(std::move(snapshot));
    lock.lock();
    // A pause that came while this snapshot was being made: say so in a copy, or a viewer
    // would wait for a "paused" that never comes.
    if (state_ == RunState::Paused && latest_->state != RunState::Paused) {
      auto paused = std::make_shared<OptimizationSnapshot>(*latest_);
      paused->state = RunState::Paused;
      paused->version = next_version_++;
      latest_ = std::move(paused);
      changed_.notify_all();
      if (on_publish_) {
        lock.unlock();
        on_publish_();
        lock.lock();
      }
    }
    changed_.wait(lock, [&] { return state_ != RunState::Paused || reset_requested_ || edit_ || quit_; });
    return !reset_requested_ && !edit_ && !quit_;
  };

  ObjectiveFunctions f;
  f.loss_and_gradient = [&](const std::vector<double>& x, std::vector<double>& grad) -> Result<double> {
    params.scatter_optimized(x);
    Result<Evaluation> evaluation = gradient_at(params, options, measure_every_gradient_, last_growth);
    if (!evaluation) return evaluation.error();
    grad = params.gather_optimized_grad();
    last_evaluated = params;
    last_term_loss = evaluation->term_loss;
    return evaluation->loss;
  };
  f.loss = [&](const std::vector<double>& x) -> Result<double> {
    params.scatter_optimized(x);
    params.zero_grad();
    Result<Evaluation> evaluation = sim_->evaluate(params);
    if (!evaluation) return evaluation.error();
    last_evaluated = params;
    last_term_loss = evaluation->term_loss;
    return evaluation->loss;
  };
  std::vector<double> lower, upper;
  params.optimized_bounds(lower, upper);
  Result<OptimizeResult> result = minimize(f, params.gather_optimized(), lower, upper, settings, on_iteration);

  {
    std::lock_guard lock(mutex_);
    if (reset_requested_ || edit_ || quit_) return;  // the worker goes back, moves, or stops
  }
  std::string message;
  bool failed = false;
  if (!result) {
    message = "the optimiser could not start: " + result.error().message;
    failed = true;
  } else {
    message = "finished after " + std::to_string(iterations_done_) +
              " iterations (stop: " + std::string(stop_reason_name(result->reason)) + "); the best iterate is shown";
    if (!result->message.empty()) message += " (" + result->message + ")";
    // Keep the best point found, as the command line does.
    current_.scatter_optimized(result->x);
  }
  OptimizationSnapshot last = evaluate_at(current_, RunState::Finished);
  last.loss_history = loss_history_;
  last.grad_norm_history = grad_norm_history_;
  if (last.message.empty()) {
    last.message = message;
    last.failed = failed;
  }
  {
    std::lock_guard lock(mutex_);
    state_ = RunState::Finished;
  }
  publish(std::move(last));
}

}  // namespace nudge::studio
