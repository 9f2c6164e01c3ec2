#include "studio/rollout_worker.h"

#include <chrono>
#include <exception>
#include <utility>

namespace nudge::studio {

SimulatorOptions rollout_simulator_options() {
  SimulatorOptions options;
  options.device = Device::Cpu;
  options.precision = Precision::Float64;
  options.threads = 1;
  return options;
}

RolloutWorker::RolloutWorker(PublishCallback on_publish)
    : on_publish_(std::move(on_publish)), thread_([this] { run(); }) {}

RolloutWorker::~RolloutWorker() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

std::uint64_t RolloutWorker::request(Scene scene) {
  std::uint64_t generation;
  {
    std::lock_guard lock(mutex_);
    generation = next_generation_++;
    pending_ = Request{generation, std::move(scene)};  // replaces an older one still waiting
  }
  changed_.notify_all();
  return generation;
}

std::shared_ptr<const RolloutResult> RolloutWorker::latest() const {
  std::lock_guard lock(mutex_);
  return latest_;
}

bool RolloutWorker::busy() const {
  std::lock_guard lock(mutex_);
  return running_ || pending_.has_value();
}

bool RolloutWorker::wait_until_idle(double timeout_seconds) const {
  std::unique_lock lock(mutex_);
  return changed_.wait_for(lock, std::chrono::duration<double>(timeout_seconds),
                           [this] { return !running_ && !pending_.has_value(); });
}

void RolloutWorker::run() {
  for (;;) {
    Request request;
    {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [this] { return stop_ || pending_.has_value(); });
      if (stop_) return;
      request = std::move(*pending_);
      pending_.reset();
      running_ = true;
    }
    auto result = std::make_shared<const RolloutResult>(compute(std::move(request)));
    {
      std::lock_guard lock(mutex_);
      latest_ = result;
    }
    if (on_publish_) on_publish_(*result);
    {
      std::lock_guard lock(mutex_);
      running_ = false;
    }
    changed_.notify_all();
  }
}

RolloutResult RolloutWorker::compute(Request request) {
  const auto start = std::chrono::steady_clock::now();
  RolloutResult result;
  result.generation = request.generation;
  result.scene = std::move(request.scene);
  const auto fail = [&result](const Error& error) { result.error = error.message; };

  // An exception escaping the worker thread would end the app: report it like any failure
  // (in practice std::bad_alloc for a motion too long to keep).
  try {
    if (auto simulator = Simulator::create(result.scene, rollout_simulator_options()); !simulator) {
      fail(simulator.error());
    } else if (Result<Trajectory> trajectory = (*simulator)->trajectory(result.scene.params); !trajectory) {
      fail(trajectory.error());
    } else if (Result<Evaluation> evaluation = (*simulator)->evaluate(result.scene.params); !evaluation) {
      fail(evaluation.error());
    } else {
      result.trajectory = std::move(*trajectory);
      result.evaluation = std::move(*evaluation);
      result.unstable = step_stability_issues(result.scene, result.trajectory);
    }
  } catch (const std::exception& e) {
    result.trajectory = {};
    result.evaluation = {};
    result.error = std::string("the rollout failed: ") + e.what();
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace nudge::studio
