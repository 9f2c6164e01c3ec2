// Tracking one point on a synthetic shot whose truth is known: a textured 15 x 15 target
// gliding along a parabola (a few px per frame, at sub-pixel positions) over a textured
// background, with Gaussian pixel noise of sigma 3 (of 255), and an opaque grey card
// that hides it on frames 30 to 33. The track must stay within a pixel of the truth,
// leave the hidden frames out, and pick the target up again after the card.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "footage/point_tracker.h"

using namespace nudge;
using namespace nudge::footage;

namespace {

constexpr int kWidth = 220, kHeight = 140, kFrames = 60;
constexpr int kHiddenFrom = 30, kHiddenTo = 33;

struct Uv {
  double u, v;
};

// The target's centre on frame t.
Uv truth(int t) { return {40.3 + 2.3 * t, 35.7 + 0.04 * (t - 30) * (t - 30)}; }

bool hidden(int t) { return t >= kHiddenFrom && t <= kHiddenTo; }

// Smooth random blobs, the same on every run.
std::vector<double> background() {
  std::vector<double> image(size_t(kWidth) * kHeight, 120.0);
  std::mt19937 random(7);
  std::uniform_real_distribution<double> x(0, kWidth), y(0, kHeight), sigma(2, 6), amplitude(-70, 70);
  for (int blob = 0; blob < 300; ++blob) {
    const double cx = x(random), cy = y(random), s = sigma(random), a = amplitude(random);
    const int r = int(std::ceil(3 * s));
    for (int py = std::max(0, int(cy) - r); py < std::min(kHeight, int(cy) + r + 1); ++py)
      for (int px = std::max(0, int(cx) - r); px < std::min(kWidth, int(cx) + r + 1); ++px)
        image[size_t(py) * kWidth + px] += a * std::exp(-((px - cx) * (px - cx) + (py - cy) * (py - cy)) / (2 * s * s));
  }
  return image;
}

// The target, 15 x 15 texels of 3 x 3 random dark and light cells, inside a border of one
// transparent texel so that bilinear sampling fades its edges at sub-pixel positions.
constexpr int kTexels = 17;
struct Target {
  std::vector<double> premultiplied = std::vector<double>(kTexels * kTexels, 0.0);
  std::vector<double> alpha = std::vector<double>(kTexels * kTexels, 0.0);
};

Target target() {
  Target t;
  std::mt19937 random(11);
  int cells[5][5];
  for (auto& row : cells)
    for (int& cell : row) cell = int(random() % 2);
  cells[0][0] = 0, cells[0][1] = 1;  // never uniform
  for (int y = 0; y < 15; ++y)
    for (int x = 0; x < 15; ++x) {
      t.alpha[size_t(y + 1) * kTexels + x + 1] = 1.0;
      t.premultiplied[size_t(y + 1) * kTexels + x + 1] = cells[y / 3][x / 3] ? 225.0 : 25.0;
    }
  return t;
}

double bilinear(const std::vector<double>& texels, double x, double y) {
  if (x < 0 || y < 0 || x > kTexels - 1 || y > kTexels - 1) return 0.0;
  const int x0 = std::min(int(x), kTexels - 2), y0 = std::min(int(y), kTexels - 2);
  const double fx = x - x0, fy = y - y0;
  const auto at = [&](int px, int py) { return texels[size_t(py) * kTexels + px]; };
  return (1 - fy) * ((1 - fx) * at(x0, y0) + fx * at(x0 + 1, y0)) +
         fy * ((1 - fx) * at(x0, y0 + 1) + fx * at(x0 + 1, y0 + 1));
}

// Every frame of the shot, rendered once.
const std::vector<footage::Image>& shot() {
  static const std::vector<footage::Image> frames = [] {
    const std::vector<double> back = background();
    const Target tex = target();
    std::vector<footage::Image> out;
    for (int t = 0; t < kFrames; ++t) {
      std::vector<double> grey = back;
      const Uv c = truth(t);
      for (int y = int(c.v) - 10; y <= int(c.v) + 10; ++y)
        for (int x = int(c.u) - 10; x <= int(c.u) + 10; ++x) {
          // The target's centre texel (7, plus the border) sits at the true position.
          const double tx = x - c.u + 8, ty = y - c.v + 8;
          const double a = bilinear(tex.alpha, tx, ty);
          double& pixel = grey[size_t(y) * kWidth + x];
          pixel = bilinear(tex.premultiplied, tx, ty) + (1 - a) * pixel;
        }
      // The card, over all of the target's path while it is hidden.
      if (hidden(t))
        for (int y = 20; y < 52; ++y)
          for (int x = 94; x < 132; ++x) grey[size_t(y) * kWidth + x] = 128.0;
      footage::Image image;
      image.width = kWidth, image.height = kHeight;
      image.rgb.resize(grey.size() * 3);
      std::mt19937 random(unsigned(100 + t));
      std::normal_distribution<double> noise(0.0, 3.0);
      for (size_t i = 0; i < image.rgb.size(); ++i)
        image.rgb[i] = static_cast<unsigned char>(std::clamp(std::lround(grey[i / 3] + noise(random)), 0L, 255L));
      out.push_back(std::move(image));
    }
    return out;
  }();
  return frames;
}

FrameSource source() {
  return [](int frame) -> Result<footage::Image> {
    if (frame < 0 || frame >= kFrames) return Error{"synthetic shot: there is no frame " + std::to_string(frame)};
    return shot()[size_t(frame)];
  };
}

TrackPoint key_at(int frame, double du = 0, double dv = 0) {
  return {frame, truth(frame).u + du, truth(frame).v + dv, 1.0, true};
}

// Checks the track against the truth (shifted by `offset` from frame `from` on): a point on
// every visible frame within a pixel, none on the hidden ones. Returns the errors.
std::vector<double> check_track(const std::vector<TrackPoint>& track, int first, int last, int shifted_from = kFrames,
                                Uv offset = {0, 0}) {
  const TrackerSettings settings;
  std::vector<double> errors;
  for (int t = first; t <= last; ++t) {
    CAPTURE(t);
    const auto at = std::find_if(track.begin(), track.end(), [&](const TrackPoint& p) { return p.frame == t; });
    if (hidden(t)) {
      CHECK((at == track.end() || at->confidence < settings.min_confidence));
      continue;
    }
    REQUIRE(at != track.end());
    CHECK(std::count_if(track.begin(), track.end(), [&](const TrackPoint& p) { return p.frame == t; }) == 1);
    CHECK(at->confidence >= settings.min_confidence);
    CHECK(at->confidence <= 1.0);
    const Uv expected = t >= shifted_from ? Uv{truth(t).u + offset.u, truth(t).v + offset.v} : truth(t);
    const double error = std::hypot(at->u - expected.u, at->v - expected.v);
    CHECK(error < 1.0);
    errors.push_back(error);
  }
  CHECK(std::is_sorted(track.begin(), track.end(),
                       [](const TrackPoint& a, const TrackPoint& b) { return a.frame < b.frame; }));
  return errors;
}

void report(const char* what, const std::vector<double>& errors) {
  double sum = 0, worst = 0;
  for (double e : errors) sum += e, worst = std::max(worst, e);
  const double mean = errors.empty() ? 0 : sum / double(errors.size());
  MESSAGE(std::string(what) << ": " << errors.size() << " frames, error max " << worst << " px, mean " << mean
                            << " px");
  CHECK(mean < 0.3);
}

void check_key(const std::vector<TrackPoint>& track, const TrackPoint& key) {
  const auto at = std::find_if(track.begin(), track.end(), [&](const TrackPoint& p) { return p.frame == key.frame; });
  REQUIRE(at != track.end());
  CHECK(at->key);
  CHECK(at->u == key.u);
  CHECK(at->v == key.v);
  CHECK(at->confidence == 1.0);
}

}  // namespace

TEST_CASE("footage: a point is tracked within a pixel, left out under a card and found again") {
  const TrackPoint key = key_at(0);
  Result<std::vector<TrackPoint>> track = track_point(source(), {key}, 0, kFrames - 1);
  REQUIRE_MESSAGE(track.ok(), (track.ok() ? "" : track.error().message));
  check_key(*track, key);
  CHECK(std::count_if(track->begin(), track->end(), [](const TrackPoint& p) { return p.key; }) == 1);
  report("forward from frame 0", check_track(*track, 0, kFrames - 1));
}

TEST_CASE("footage: a key in the middle is tracked backward and forward") {
  const TrackPoint key = key_at(45);
  Result<std::vector<TrackPoint>> track = track_point(source(), {key}, 0, kFrames - 1);
  REQUIRE_MESSAGE(track.ok(), (track.ok() ? "" : track.error().message));
  check_key(*track, key);
  report("both ways from frame 45", check_track(*track, 0, kFrames - 1));

  // A range that stops short of the shot's ends is kept to.
  Result<std::vector<TrackPoint>> part = track_point(source(), {key}, 40, 50);
  REQUIRE(part.ok());
  CHECK(part->size() == 11);
  CHECK(part->front().frame == 40);
  CHECK(part->back().frame == 50);
  check_track(*part, 40, 50);
}

TEST_CASE("footage: a later key corrects the track from its frame on") {
  // The user moves the point 3 px right and 2 px up on frame 40: from there the track
  // follows that spot of the target, and before it the first key's.
  const TrackPoint first = key_at(0), correction = key_at(40, 3.0, -2.0);
  Result<std::vector<TrackPoint>> track = track_point(source(), {first, correction}, 0, kFrames - 1);
  REQUIRE_MESSAGE(track.ok(), (track.ok() ? "" : track.error().message));
  check_key(*track, first);
  check_key(*track, correction);
  report("with a correction on frame 40", check_track(*track, 0, kFrames - 1, 40, {3.0, -2.0}));
  for (const TrackPoint& p : *track)
    if (p.frame > 40) CHECK(std::hypot(p.u - truth(p.frame).u, p.v - truth(p.frame).v) > 2.0);
}

TEST_CASE("footage: tracking reports bad keys and frames that cannot be read") {
  CHECK_FALSE(track_point(source(), {}, 0, 10).ok());

  Result<std::vector<TrackPoint>> outside = track_point(source(), {key_at(20)}, 0, 10);
  REQUIRE_FALSE(outside.ok());
  CHECK(outside.error().message.find("20") != std::string::npos);

  // The shot ends at frame 59: asking for more passes the source's own error on.
  Result<std::vector<TrackPoint>> unreadable = track_point(source(), {key_at(55)}, 50, 65);
  REQUIRE_FALSE(unreadable.ok());
  CHECK(unreadable.error().message.find("synthetic shot: there is no frame 60") != std::string::npos);

  // Images that do not hold what they say, or change size, are errors, not reads past the end.
  const FrameSource short_rows = [](int frame) -> Result<footage::Image> {
    footage::Image image = shot()[size_t(frame)];
    if (frame == 12) image.rgb.resize(image.rgb.size() / 2);
    return image;
  };
  Result<std::vector<TrackPoint>> truncated = track_point(short_rows, {key_at(10)}, 10, 15);
  REQUIRE_FALSE(truncated.ok());
  CHECK(truncated.error().message.find("frame 12") != std::string::npos);
  const FrameSource resized = [](int frame) -> Result<footage::Image> {
    footage::Image image = shot()[size_t(frame)];
    if (frame == 13) image.height -= 1, image.rgb.resize(image.rgb.size() - 3 * size_t(image.width));
    return image;
  };
  Result<std::vector<TrackPoint>> mixed = track_point(resized, {key_at(10)}, 10, 15);
  REQUIRE_FALSE(mixed.ok());
  CHECK(mixed.error().message.find("frame 13") != std::string::npos);
}
