#include "footage/image.h"

#include <cstddef>

namespace nudge::footage {

std::vector<unsigned char> to_gray(const Image& image) {
  std::vector<unsigned char> gray(std::size_t(image.width) * std::size_t(image.height));
  for (std::size_t i = 0; i < gray.size(); ++i) {
    const unsigned char* p = &image.rgb[3 * i];
    gray[i] = static_cast<unsigned char>((299 * p[0] + 587 * p[1] + 114 * p[2] + 500) / 1000);
  }
  return gray;
}

std::vector<unsigned char> to_rgba(const Image& image) {
  std::vector<unsigned char> rgba(std::size_t(image.width) * std::size_t(image.height) * 4);
  for (std::size_t i = 0; i < rgba.size() / 4; ++i) {
    for (std::size_t c = 0; c < 3; ++c) rgba[4 * i + c] = image.rgb[3 * i + c];
    rgba[4 * i + 3] = 255;
  }
  return rgba;
}

}  // namespace nudge::footage
