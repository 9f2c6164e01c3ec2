// The timeline model: play, pause, stepping, scrubbing, speed, looping and what happens
// at the end of a motion, all driven by explicit wall-clock times.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "studio/playback.h"

using namespace nudge::studio;

namespace {

// 101 states 10 ms apart: a 1 s motion.
Playback one_second() { return Playback(101, 0.01); }

}  // namespace

TEST_CASE("playback: a new timeline is paused at frame 0") {
  Playback p = one_second();
  CHECK(p.frame_count() == 101);
  CHECK(p.dt() == 0.01);
  CHECK(p.duration() == doctest::Approx(1.0));
  CHECK_FALSE(p.playing());
  CHECK(p.frame() == 0);
  CHECK(p.sim_time() == 0.0);
  CHECK(p.fraction() == 0.0);
  p.advance(0.5);  // paused: nothing moves
  CHECK(p.frame() == 0);
}

TEST_CASE("playback: advance moves by wall time x speed while playing") {
  Playback p = one_second();
  p.play();
  p.advance(0.25);
  CHECK(p.sim_time() == doctest::Approx(0.25));
  CHECK(p.frame() == 25);
  CHECK(p.fraction() == doctest::Approx(0.25));
  p.set_speed(2.0);
  p.advance(0.1);
  CHECK(p.frame() == 45);
  p.set_speed(0.5);
  p.advance(0.1);
  CHECK(p.frame() == 50);
  CHECK(p.playing());

  // Times that are no time at all are ignored.
  p.advance(-1.0);
  p.advance(std::numeric_limits<double>::quiet_NaN());
  p.advance(std::numeric_limits<double>::infinity());
  CHECK(p.frame() == 50);

  p.pause();
  p.advance(0.3);
  CHECK(p.frame() == 50);
}

TEST_CASE("playback: at the end it stops and pauses, or wraps when looping") {
  Playback p = one_second();
  p.set_loop(false);
  p.play();
  p.advance(0.9);
  CHECK(p.frame() == 90);
  p.advance(0.3);
  CHECK(p.frame() == 100);
  CHECK(p.sim_time() == doctest::Approx(1.0));
  CHECK(p.fraction() == doctest::Approx(1.0));
  CHECK_FALSE(p.playing());

  // Playing from the last frame starts over.
  p.play();
  CHECK(p.playing());
  CHECK(p.frame() == 0);
  p.advance(0.1);
  CHECK(p.frame() == 10);

  Playback looping = one_second();
  looping.set_loop(true);
  looping.play();
  looping.advance(1.25);
  CHECK(looping.playing());
  CHECK(looping.sim_time() == doctest::Approx(0.25));
  CHECK(looping.frame() == 25);
  looping.advance(3.5);  // several laps in one long frame
  CHECK(looping.sim_time() == doctest::Approx(0.75));
  // Looping, playing from the last frame continues from there rather than restarting.
  looping.pause();
  looping.seek(100);
  looping.play();
  CHECK(looping.frame() == 100);
}

TEST_CASE("playback: play, pause and toggle") {
  Playback p = one_second();
  p.toggle();
  CHECK(p.playing());
  p.toggle();
  CHECK_FALSE(p.playing());
  p.play();
  p.pause();
  CHECK_FALSE(p.playing());
}

TEST_CASE("playback: stepping moves one frame, pauses, and stops at the ends") {
  Playback p = one_second();
  p.play();
  p.step_forward();
  CHECK_FALSE(p.playing());
  CHECK(p.frame() == 1);
  p.step_forward();
  CHECK(p.frame() == 2);
  p.step_back();
  p.step_back();
  p.step_back();
  CHECK(p.frame() == 0);
  p.seek(100);
  p.step_forward();
  CHECK(p.frame() == 100);

  // Every frame reached by stepping is that frame exactly, despite rounding in k * dt
  // (0.29 / 0.01 is 28.999...).
  Playback hundredths(201, 0.01);
  for (int k = 1; k <= 200; ++k) {
    hundredths.step_forward();
    CHECK(hundredths.frame() == k);
  }
  // And so is a time summed from many UI frames: ten times 0.1 s is 0.999... s.
  Playback tenths(31, 0.1);
  tenths.play();
  for (int i = 0; i < 10; ++i) tenths.advance(0.1);
  CHECK(tenths.frame() == 10);
}

TEST_CASE("playback: scrubbing is clamped to the motion") {
  Playback p = one_second();
  p.seek(42);
  CHECK(p.frame() == 42);
  CHECK(p.sim_time() == doctest::Approx(0.42));
  p.seek(-5);
  CHECK(p.frame() == 0);
  p.seek(1000);
  CHECK(p.frame() == 100);
}

TEST_CASE("playback: speed is clamped to [0.1, 8]") {
  Playback p = one_second();
  p.set_speed(100.0);
  CHECK(p.speed() == Playback::kMaxSpeed);
  p.set_speed(0.0);
  CHECK(p.speed() == Playback::kMinSpeed);
  p.set_speed(-3.0);
  CHECK(p.speed() == Playback::kMinSpeed);
  p.set_speed(1.5);
  CHECK(p.speed() == 1.5);
  p.set_speed(std::numeric_limits<double>::quiet_NaN());
  CHECK(p.speed() == 1.5);
  CHECK(Playback::kMinSpeed == 0.1);
  CHECK(Playback::kMaxSpeed == 8.0);
}

TEST_CASE("playback: a new motion keeps the time, clamped to its end") {
  Playback p = one_second();
  p.seek(80);
  p.set_motion(201, 0.005);  // same 1 s, finer steps: same time, twice the frame
  CHECK(p.sim_time() == doctest::Approx(0.8));
  CHECK(p.frame() == 160);
  p.set_motion(51, 0.01);  // only 0.5 s long
  CHECK(p.sim_time() == doctest::Approx(0.5));
  CHECK(p.frame() == 50);
  CHECK(p.frame_count() == 51);
}

TEST_CASE("playback: a single frame or no motion stays at frame 0") {
  Playback empty;
  CHECK(empty.frame_count() == 1);
  empty.play();
  empty.advance(1.0);
  CHECK(empty.frame() == 0);
  CHECK(empty.fraction() == 0.0);
  empty.step_forward();
  CHECK(empty.frame() == 0);

  Playback bad(0, -1.0);
  CHECK(bad.frame_count() == 1);
  CHECK(bad.dt() == 0.0);
  bad.seek(3);
  CHECK(bad.frame() == 0);
}
