// Computes a scene's motion off the UI thread: the UI hands over a copy of the scene, one
// worker thread simulates it, and the UI draws the newest published result. Requests that
// arrive while the worker is busy coalesce: only the newest one runs next.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "nudge/scene.h"
#include "nudge/simulator.h"
#include "nudge/step_stability.h"

namespace nudge::studio {

// One finished request, immutable once published: the UI may keep drawing it while the
// worker computes the next.
struct RolloutResult {
  std::uint64_t generation = 0;  // of the request it answers
  Scene scene;                   // the scene simulated, for view::scene_draw_list
  Trajectory trajectory;         // every state; empty when the rollout failed
  Evaluation evaluation;         // loss in total and per objective term
  std::string error;             // empty on success, else the engine's message (a blow-up names its step)
  double seconds = 0;            // wall-clock time the request took
  // Forces the step is too coarse for in this motion: their gradients blow up.
  std::vector<StepStabilityIssue> unstable;

  bool ok() const { return error.empty(); }
};

// CPU, float64, one thread: the UI keeps a core to itself.
SimulatorOptions rollout_simulator_options();

class RolloutWorker {
public:
  // Called on the worker thread after each result is published, before busy() turns false:
  // to wake a UI that sleeps until the next event, or to log a failure once.
  using PublishCallback = std::function<void(const RolloutResult&)>;

  explicit RolloutWorker(PublishCallback on_publish = {});
  // Stops and joins: waits for a rollout in progress, drops one that has not started.
  ~RolloutWorker();
  RolloutWorker(const RolloutWorker&) = delete;
  RolloutWorker& operator=(const RolloutWorker&) = delete;

  // Hands a copy of the scene to the worker; returns the request's generation (1, 2, ...).
  std::uint64_t request(Scene scene);
  // The newest published result, or null before the first one.
  std::shared_ptr<const RolloutResult> latest() const;
  // Whether a request is waiting or running.
  bool busy() const;
  // Blocks until nothing is waiting or running, or the timeout passes; says which.
  bool wait_until_idle(double timeout_seconds) const;

private:
  struct Request {
    std::uint64_t generation = 0;
    Scene scene;
  };

  void run();
  static RolloutResult compute(Request request);

  const PublishCallback on_publish_;
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;  // a request arrived, one finished, or stop
  std::optional<Request> pending_;
  bool running_ = false;
  bool stop_ = false;
  std::uint64_t next_generation_ = 1;
  std::shared_ptr<const RolloutResult> latest_;
  std::thread thread_;  // last: starts once everything it uses exists
};

}  // namespace nudge::studio
