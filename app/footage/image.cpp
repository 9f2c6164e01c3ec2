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

}  // namespace nudge::footage
