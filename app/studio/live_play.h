// Live play, as MuJoCo's simulate runs a model: the scene shown, simulated from a frame of
// its recorded motion on while the user watches, pulls things with the mouse and holds
// control channels by hand (nudge/live_simulation.h). It belongs to the motion it started
// from; the studio ends it when that motion is replaced (an edit, another scene).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "nudge/live_simulation.h"
#include "nudge/result.h"
#include "studio/rollout_worker.h"

namespace nudge::studio {

class LivePlay {
public:
  // From state `frame` of the motion (a finished, successful rollout).
  static Result<std::unique_ptr<LivePlay>> start(std::shared_ptr<const RolloutResult> motion, int frame);

  // Runs the simulated time that `wall_seconds` of play at `speed` covers, computing for
  // at most `budget_seconds`: what the budget leaves undone is dropped, so a scene too
  // heavy for real time plays slower (real_time_factor() says how much) rather than
  // falling further behind. An Error (and nothing more runs) when a step blows up.
  Status advance(double wall_seconds, double speed, double budget_seconds);

  const RolloutResult& motion() const { return *motion_; }
  const Scene& scene() const { return motion_->scene; }
  const Trajectory& state() const { return simulation_->state(); }
  double time() const { return simulation_->time(); }
  int step_index() const { return simulation_->step_index(); }
  // Simulated seconds per wall-clock second while playing, smoothed over about a second.
  double real_time_factor() const { return real_time_factor_; }
  const std::string& failure() const { return failure_; }  // empty unless a step blew up

  Status pull(std::optional<Pull> pull);
  const std::optional<Pull>& pulled() const { return pull_; }
  Status hold(int channel, std::optional<double> value);
  const std::vector<std::optional<double>>& held() const { return held_; }

  std::vector<Contact> contacts() const { return simulation_->contacts(); }

private:
  LivePlay(std::shared_ptr<const RolloutResult> motion, std::unique_ptr<LiveSimulation> simulation);

  std::shared_ptr<const RolloutResult> motion_;
  std::unique_ptr<LiveSimulation> simulation_;
  std::optional<Pull> pull_;
  std::vector<std::optional<double>> held_;
  double owed_ = 0;  // simulated seconds asked for and not yet run (under one step)
  double real_time_factor_ = 0;
  std::string failure_;
};

// The contacts at a frame of a recorded motion, for drawing while it plays back: one live
// simulation per motion, set to the frame asked for, and the last answer kept.
class ContactProbe {
public:
  // Empty (and the reason in error()) when the motion's scene cannot be simulated live.
  const std::vector<Contact>& at(const std::shared_ptr<const RolloutResult>& motion, int frame);
  const std::string& error() const { return error_; }

private:
  std::shared_ptr<const RolloutResult> motion_;
  std::unique_ptr<LiveSimulation> simulation_;
  int frame_ = -1;
  std::vector<Contact> contacts_;
  std::string error_;
};

}  // namespace nudge::studio
