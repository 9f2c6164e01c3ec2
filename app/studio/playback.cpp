#include "studio/playback.h"

#include <algorithm>
#include <cmath>

namespace nudge::studio {

void Playback::set_motion(int frames, double dt) {
  frames_ = std::max(frames, 1);
  dt_ = std::isfinite(dt) && dt > 0 ? dt : 0.0;
  time_ = std::clamp(time_, 0.0, duration());
}

void Playback::play() {
  if (!loop_ && frame() == last_frame()) time_ = 0;
  playing_ = true;
}

void Playback::toggle() {
  if (playing_)
    pause();
  else
    play();
}

void Playback::step_forward() {
  pause();
  seek(frame() + 1);
}

void Playback::step_back() {
  pause();
  seek(frame() - 1);
}

void Playback::seek(int frame) { time_ = std::clamp(frame, 0, last_frame()) * dt_; }

void Playback::set_speed(double speed) {
  if (std::isnan(speed)) return;
  speed_ = std::clamp(speed, kMinSpeed, kMaxSpeed);
}

void Playback::advance(double wall_seconds) {
  if (!playing_ || !std::isfinite(wall_seconds) || wall_seconds <= 0) return;
  const double end = duration();
  if (end <= 0) {  // a single frame: nothing moves
    if (!loop_) pause();
    return;
  }
  time_ += wall_seconds * speed_;
  if (time_ < end) return;
  if (loop_) {
    time_ = std::fmod(time_, end);
  } else {
    time_ = end;
    pause();
  }
}

int Playback::frame() const {
  if (dt_ <= 0) return 0;
  // The small bias keeps k * dt on frame k despite rounding (0.3 / 0.1 = 2.999...).
  const double frame = std::floor(time_ / dt_ + 1e-6);
  return std::clamp(static_cast<int>(frame), 0, last_frame());
}

double Playback::fraction() const {
  const double end = duration();
  return end > 0 ? time_ / end : 0.0;
}

}  // namespace nudge::studio
