#include "nudge/render/color_map.h"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace nudge::render {

namespace {

struct Rgb {
  float r, g, b;
};

// matplotlib's viridis sampled at t = 0, 0.1, ..., 1: perceptually uniform, readable in
// grey and by colour-blind viewers.
constexpr Rgb kViridis[] = {
    {0.267004f, 0.004874f, 0.329415f}, {0.282623f, 0.140926f, 0.457517f}, {0.253935f, 0.265254f, 0.529983f},
    {0.206756f, 0.371758f, 0.553117f}, {0.163625f, 0.471133f, 0.558148f}, {0.127568f, 0.566949f, 0.550556f},
    {0.134692f, 0.658636f, 0.517649f}, {0.266941f, 0.748751f, 0.440573f}, {0.477504f, 0.821444f, 0.318195f},
    {0.741388f, 0.873449f, 0.149561f}, {0.993248f, 0.906157f, 0.143936f},
};

// ColorBrewer's RdBu reversed (blue for negative, red for positive) with its centre made
// pure white, so that zero is neutral.
constexpr Rgb kBlueWhiteRed[] = {
    {0.019608f, 0.188235f, 0.380392f}, {0.129412f, 0.400000f, 0.674510f}, {0.262745f, 0.576471f, 0.764706f},
    {0.572549f, 0.772549f, 0.870588f}, {0.819608f, 0.898039f, 0.941176f}, {1.000000f, 1.000000f, 1.000000f},
    {0.992157f, 0.858824f, 0.780392f}, {0.956863f, 0.647059f, 0.509804f}, {0.839216f, 0.376471f, 0.301961f},
    {0.698039f, 0.094118f, 0.168627f}, {0.403922f, 0.000000f, 0.121569f},
};

template <std::size_t N>
Rgba interpolate(const Rgb (&table)[N], float t) {
  const float x = t * static_cast<float>(N - 1);
  const std::size_t i = std::min(static_cast<std::size_t>(x), N - 2);
  const float f = x - static_cast<float>(i);
  const Rgb& a = table[i];
  const Rgb& b = table[i + 1];
  return Rgba{a.r + (b.r - a.r) * f, a.g + (b.g - a.g) * f, a.b + (b.b - a.b) * f, 1.0f};
}

// The product in float, as Vulkan's float to UNORM conversion writes it: f * (2^8 - 1).
std::uint8_t to_byte(float c) { return static_cast<std::uint8_t>(std::lround(std::clamp(c, 0.0f, 1.0f) * 255.0f)); }

}  // namespace

std::array<std::uint8_t, 4> to_bytes(Rgba c) { return {to_byte(c.r), to_byte(c.g), to_byte(c.b), to_byte(c.a)}; }

Rgba map_color(ColorMap map, float t) {
  t = std::isnan(t) ? 0.0f : std::clamp(t, 0.0f, 1.0f);
  switch (map) {
    case ColorMap::Diverging: return interpolate(kBlueWhiteRed, t);
    case ColorMap::Sequential: break;
  }
  return interpolate(kViridis, t);
}

Rgba map_value(ColorMap map, float value, float min, float max) {
  if (!(max > min)) return map_color(map, 0.5f);
  return map_color(map, (value - min) / (max - min));
}

}  // namespace nudge::render
