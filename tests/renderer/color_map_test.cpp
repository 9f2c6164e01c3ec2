// Colour maps: control points, the white centre of the diverging map, clamping.
#include <doctest/doctest.h>

#include <cmath>

#include "nudge/render/color_map.h"

using namespace nudge::render;

namespace {

bool same(Rgba a, Rgba b, float tolerance = 1e-6f) {
  return std::abs(a.r - b.r) <= tolerance && std::abs(a.g - b.g) <= tolerance && std::abs(a.b - b.b) <= tolerance &&
         std::abs(a.a - b.a) <= tolerance;
}

float luminance(Rgba c) { return 0.2126f * c.r + 0.7152f * c.g + 0.0722f * c.b; }

}  // namespace

TEST_CASE("map_color: sequential is viridis at its ends and middle") {
  CHECK(same(map_color(ColorMap::Sequential, 0.0f), Rgba{0.267004f, 0.004874f, 0.329415f, 1}));
  CHECK(same(map_color(ColorMap::Sequential, 0.5f), Rgba{0.127568f, 0.566949f, 0.550556f, 1}));
  CHECK(same(map_color(ColorMap::Sequential, 1.0f), Rgba{0.993248f, 0.906157f, 0.143936f, 1}));
  // Brighter as t grows: it reads as "more" even in grey.
  float previous = -1;
  for (int i = 0; i <= 100; ++i) {
    const float l = luminance(map_color(ColorMap::Sequential, static_cast<float>(i) / 100.0f));
    CHECK(l > previous);
    previous = l;
  }
}

TEST_CASE("map_color: diverging is blue, exactly white at 0.5, red") {
  const Rgba low = map_color(ColorMap::Diverging, 0.0f);
  const Rgba high = map_color(ColorMap::Diverging, 1.0f);
  CHECK(same(map_color(ColorMap::Diverging, 0.5f), Rgba{1, 1, 1, 1}, 0.0f));
  CHECK(low.b > low.r);
  CHECK(high.r > high.b);
  // Symmetric lightness: equal distances from the centre are about equally light.
  for (float d : {0.1f, 0.25f, 0.4f}) {
    CAPTURE(d);
    CHECK(std::abs(luminance(map_color(ColorMap::Diverging, 0.5f - d)) -
                   luminance(map_color(ColorMap::Diverging, 0.5f + d))) < 0.15f);
  }
}

TEST_CASE("map_value: normalises, clamps, and survives an empty range") {
  CHECK(same(map_value(ColorMap::Diverging, 0.0f, -3.0f, 3.0f), Rgba{1, 1, 1, 1}));
  CHECK(same(map_value(ColorMap::Sequential, 5.0f, 0.0f, 10.0f), map_color(ColorMap::Sequential, 0.5f)));
  CHECK(same(map_value(ColorMap::Sequential, -7.0f, 0.0f, 1.0f), map_color(ColorMap::Sequential, 0.0f)));
  CHECK(same(map_value(ColorMap::Sequential, 9.0f, 0.0f, 1.0f), map_color(ColorMap::Sequential, 1.0f)));
  CHECK(same(map_value(ColorMap::Diverging, 4.0f, 2.0f, 2.0f), Rgba{1, 1, 1, 1}));
  CHECK(same(map_color(ColorMap::Sequential, NAN), map_color(ColorMap::Sequential, 0.0f)));
}

TEST_CASE("to_bytes: round(255 c), clamped") {
  const auto bytes = to_bytes(Rgba{0.5f, 1.2f, -0.1f, 0.2f});
  CHECK(bytes[0] == 128);
  CHECK(bytes[1] == 255);
  CHECK(bytes[2] == 0);
  CHECK(bytes[3] == 51);
}
