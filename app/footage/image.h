// A decoded frame of footage: 8-bit RGB, rows top to bottom.
#pragma once

#include <vector>

namespace nudge::footage {

struct Image {
  int width = 0, height = 0;
  std::vector<unsigned char> rgb;  // 3 bytes per pixel
};

// Luma (ITU-R BT.601 weights), one byte per pixel: what the tracker follows.
std::vector<unsigned char> to_gray(const Image& image);
// Opaque RGBA, 4 bytes per pixel: what the renderer's plate shows.
std::vector<unsigned char> to_rgba(const Image& image);

}  // namespace nudge::footage
