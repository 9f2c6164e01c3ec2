// An RGBA8 image on the host (rows top to bottom) and writing it as a PNG.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "nudge/render/result.h"

namespace nudge::render {

struct Image {
  int width = 0;
  int height = 0;
  std::vector<std::uint8_t> rgba;  // width * height * 4 bytes, row-major, top row first
};

// The four bytes of pixel (x, y); x and y must be inside the image.
std::array<std::uint8_t, 4> pixel_at(const Image& image, int x, int y);

// Writes a PNG. The bytes go to a temporary file beside `path` that is renamed over it
// once complete, so a failed write never leaves a truncated PNG (nor the temporary).
Status write_png(const std::string& path, const Image& image);

}  // namespace nudge::render
