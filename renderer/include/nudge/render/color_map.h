// Colours and colour maps. Colours are sRGB-encoded values in 0..1 that the renderer
// writes as they are to a UNORM target, so a flat, unlit element of colour c shows in
// the image as round(255 * c) (a colour interpolated between equal values can land one
// level off when 255 * c is within float error of a half). The same CPU functions colour
// the elements and the legend.
#pragma once

#include <array>
#include <cstdint>

namespace nudge::render {

struct Rgba {
  float r = 0, g = 0, b = 0, a = 1;
  bool operator==(const Rgba&) const = default;
};

// round(255 * c) per channel, clamped: what a flat, unlit element of colour c shows as.
std::array<std::uint8_t, 4> to_bytes(Rgba c);

enum class ColorMap {
  Sequential,  // viridis: dark blue to yellow, for magnitudes
  Diverging,   // blue, white at 0.5, red: for signed values such as gradients
};

// The colour at t in [0, 1] (clamped; NaN maps to 0), interpolated linearly between
// the map's control points. Diverging is exactly white at t = 0.5.
Rgba map_color(ColorMap map, float t);

// map_color of (value - min) / (max - min), clamped to [0, 1]. When max <= min the
// range is empty and every value maps to t = 0.5.
Rgba map_value(ColorMap map, float value, float min, float max);

}  // namespace nudge::render
