// The point tracker on frames made in memory: a textured target moving on a known
// sub-pixel path over a textured background, with pixel noise and a grey card hiding it
// for four frames. It is followed within a pixel, the hidden frames get no point and it
// is found again after them; tracking runs backwards from a key in the middle; a second
// key (a user's correction) is kept exactly.
#include <doctest/doctest.h>

#include <cmath>
#include <random>

#include "footage/point_tracker.h"

using namespace nudge;

namespace {

constexpr int kW = 200, kH = 150;

double truth_u(int f) { return 40.0 + 2.3 * f; }
double truth_v(int f) { return 30.0 + 3.1 * f - 0.045 * f * f; }
bool hidden(int f) { return f >= 30 && f <= 33; }

// A smooth background, the target (a checker disc of radius 8) drawn at sub-pixel places
// by sampling it at each pixel, noise of sigma 3.
footage::Image make_frame(int f) {
  footage::Image image;
  image.width = kW, image.height = kH;
  image.rgb.resize(size_t(kW) * kH * 3);
  std::mt19937 random(unsigned(f + 1));
  std::normal_distribution<double> noise(0.0, 3.0);
  for (int y = 0; y < kH; ++y)
    for (int x = 0; x < kW; ++x) {
      // 4 x 4 samples per pixel: the target's edges are anti-aliased, so its image moves
      // by fractions of a pixel as it does.
      double value = 0;
      for (int sy = 0; sy < 4; ++sy)
        for (int sx = 0; sx < 4; ++sx) {
          const double px = x + (sx - 1.5) / 4, py = y + (sy - 1.5) / 4;
          const double dx = px - truth_u(f), dy = py - truth_v(f);
          double sample = 110 + 40 * std::sin(0.11 * px) * std::cos(0.07 * py) + 20 * std::sin(0.031 * (px + 2 * py));
          if (dx * dx + dy * dy < 64) sample = ((dx > 0) != (dy > 0)) ? 235 : 25;
          value += sample / 16;
        }
      if (hidden(f) && std::abs(x - truth_u(f)) < 16 && std::abs(y - truth_v(f)) < 16) value = 128;
      value += noise(random);
      for (int c = 0; c < 3; ++c)
        image.rgb[(size_t(y) * kW + x) * 3 + size_t(c)] = (unsigned char)std::clamp(std::lround(value), 0L, 255L);
    }
  return image;
}

Result<footage::Image> frames(int f) { return make_frame(f); }

}  // namespace

TEST_CASE("footage: the tracker follows a target within a pixel, through four hidden frames") {
  Result<std::vector<footage::TrackPoint>> points =
      footage::track_point(frames, {{0, truth_u(0), truth_v(0), 1.0, true}}, 0, 50);
  REQUIRE_MESSAGE(points.ok(), (points.ok() ? "" : points.error().message));
  double worst = 0;
  int count = 0;
  for (const footage::TrackPoint& p : *points) {
    CAPTURE(p.frame);
    CHECK_FALSE(hidden(p.frame));
    worst = std::max(worst, std::hypot(p.u - truth_u(p.frame), p.v - truth_v(p.frame)));
    CHECK(p.confidence >= 0.6);
    ++count;
  }
  MESSAGE("tracked " << count << " frames, worst error " << worst << " px");
  CHECK(count == 51 - 4);
  CHECK(worst < 0.5);

  // Backwards and forwards from a key in the middle, and a correction at frame 45 kept.
  Result<std::vector<footage::TrackPoint>> both = footage::track_point(
      frames, {{20, truth_u(20), truth_v(20), 1.0, true}, {45, truth_u(45) + 0.4, truth_v(45), 1.0, true}}, 0, 50);
  REQUIRE(both.ok());
  CHECK(both->front().frame == 0);
  CHECK(std::hypot(both->front().u - truth_u(0), both->front().v - truth_v(0)) < 0.5);
  for (const footage::TrackPoint& p : *both)
    if (p.frame == 45) {
      CHECK(p.key);
      CHECK(p.u == truth_u(45) + 0.4);
    }
  CHECK(std::is_sorted(both->begin(), both->end(), [](const auto& a, const auto& b) { return a.frame < b.frame; }));

  CHECK_FALSE(footage::track_point(frames, {}, 0, 10).ok());
  CHECK(footage::track_point(frames, {{60, 10, 10, 1, true}}, 0, 50).error().message.find("outside") !=
        std::string::npos);
  CHECK(footage::track_point(frames, {{5, -3, 10, 1, true}}, 0, 50).error().message.find("outside the 200 x 150") !=
        std::string::npos);
}
