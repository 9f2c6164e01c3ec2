// The timeline: which frame of a motion (states 0 .. steps, dt apart) the viewport shows,
// and how the play head moves while playing. Plain state advanced by the caller with the
// wall-clock time of each UI frame, so it is deterministic and needs no clock.
#pragma once

namespace nudge::studio {

class Playback {
public:
  static constexpr double kMinSpeed = 0.1;
  static constexpr double kMaxSpeed = 8.0;

  Playback() = default;  // one frame, nothing to play
  Playback(int frames, double dt) { set_motion(frames, dt); }

  // A new motion of `frames` states (steps + 1, at least 1) `dt` seconds apart. The play
  // head keeps its simulated time, clamped to the new motion's end.
  void set_motion(int frames, double dt);
  int frame_count() const { return frames_; }
  double dt() const { return dt_; }
  double duration() const { return (frames_ - 1) * dt_; }  // seconds from the first to the last state

  bool playing() const { return playing_; }
  // At the last frame with looping off, playing starts again from frame 0.
  void play();
  void pause() { playing_ = false; }
  void toggle();

  // One frame forward or back, clamped, and paused: for stepping through a motion.
  void step_forward();
  void step_back();
  // Scrubbing: moves the play head to a frame, clamped to [0, frame_count - 1].
  void seek(int frame);

  // Simulated seconds per wall-clock second, clamped to [kMinSpeed, kMaxSpeed].
  void set_speed(double speed);
  double speed() const { return speed_; }
  void set_loop(bool loop) { loop_ = loop; }
  bool loop() const { return loop_; }

  // Moves the play head by wall_seconds x speed of simulated time while playing. Past the
  // end it wraps around when looping, else stops at the last frame and pauses.
  void advance(double wall_seconds);

  int frame() const;                         // the state shown, in [0, frame_count - 1]
  double sim_time() const { return time_; }  // seconds, in [0, duration]
  double fraction() const;                   // sim_time / duration, in [0, 1]; 0 for a single frame

private:
  int last_frame() const { return frames_ - 1; }

  int frames_ = 1;
  double dt_ = 0;
  double time_ = 0;
  double speed_ = 1;
  bool playing_ = false;
  bool loop_ = true;
};

}  // namespace nudge::studio
