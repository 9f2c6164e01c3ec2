#include "studio/live_play.h"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace nudge::studio {

LivePlay::LivePlay(std::shared_ptr<const RolloutResult> motion, std::unique_ptr<LiveSimulation> simulation)
    : motion_(std::move(motion)), simulation_(std::move(simulation)),
      held_(size_t(std::max(simulation_->channels(), 0))) {}

Result<std::unique_ptr<LivePlay>> LivePlay::start(std::shared_ptr<const RolloutResult> motion, int frame) {
  if (!motion || !motion->ok()) return Error{"live play needs the scene's motion: it has not been computed"};
  Result<std::unique_ptr<LiveSimulation>> simulation = LiveSimulation::create(motion->scene);
  if (!simulation) return simulation.error();
  const int at = std::clamp(frame, 0, motion->trajectory.steps);
  if (Status started = simulation.value()->start_from(motion->trajectory, at); !started) return started.error();
  return std::unique_ptr<LivePlay>(new LivePlay(std::move(motion), std::move(simulation.value())));
}

Status LivePlay::advance(double wall_seconds, double speed, double budget_seconds) {
  if (!failure_.empty()) return Error{failure_};
  if (!(wall_seconds > 0)) return Ok{};
  using Clock = std::chrono::steady_clock;
  const Clock::time_point begin = Clock::now();
  const double dt = scene().settings.dt;
  owed_ += wall_seconds * speed;
  // Whole steps owed; the tolerance keeps 0.1 s of 1 ms steps at 100 steps, not 99.
  const int owed_steps = int(std::min(std::floor(owed_ / dt + 1e-6), 1e8));
  owed_ = std::max(0.0, owed_ - owed_steps * dt);
  int steps = 0;
  while (steps < owed_steps) {
    if (Status stepped = simulation_->step(); !stepped) {
      failure_ = stepped.error().message;
      return stepped.error();
    }
    ++steps;
    // The clock is read every 8 steps: a step of a small scene costs less than reading it.
    if (steps % 8 == 0 && std::chrono::duration<double>(Clock::now() - begin).count() > budget_seconds) {
      owed_ = 0;  // out of time: drop the rest rather than fall behind
      break;
    }
  }
  // Smoothed over about a second of frames.
  const double factor = steps * dt / wall_seconds;
  const double weight = std::min(1.0, wall_seconds);
  real_time_factor_ = real_time_factor_ > 0 ? (1 - weight) * real_time_factor_ + weight * factor : factor;
  return Ok{};
}

Status LivePlay::pull(std::optional<Pull> pull) {
  if (Status set = simulation_->set_pull(pull); !set) return set;
  pull_ = pull;
  return Ok{};
}

Status LivePlay::hold(int channel, std::optional<double> value) {
  if (Status set = simulation_->set_control(channel, value); !set) return set;
  held_[size_t(channel)] = value;
  return Ok{};
}

const std::vector<Contact>& ContactProbe::at(const std::shared_ptr<const RolloutResult>& motion, int frame) {
  if (motion != motion_) {
    motion_ = motion;
    simulation_.reset();
    frame_ = -1;
    contacts_.clear();
    error_.clear();
    if (motion && motion->ok()) {
      Result<std::unique_ptr<LiveSimulation>> simulation = LiveSimulation::create(motion->scene);
      if (simulation)
        simulation_ = std::move(simulation.value());
      else
        error_ = simulation.error().message;
    }
  }
  if (!simulation_ || frame == frame_) return contacts_;
  frame_ = frame;
  contacts_.clear();
  if (Status set = simulation_->start_from(motion_->trajectory, std::clamp(frame, 0, motion_->trajectory.steps)); !set)
    error_ = set.error().message;
  else
    contacts_ = simulation_->contacts();
  return contacts_;
}

}  // namespace nudge::studio
