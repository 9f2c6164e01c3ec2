#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <system_error>
#include <unistd.h>
#include <vector>

#include <stb/stb_image_write.h>

#include "nudge/render/image.h"

namespace nudge::render {

std::array<std::uint8_t, 4> pixel_at(const Image& image, int x, int y) {
  const std::size_t i =
      (static_cast<std::size_t>(y) * static_cast<std::size_t>(image.width) + static_cast<std::size_t>(x)) * 4;
  return {image.rgba[i], image.rgba[i + 1], image.rgba[i + 2], image.rgba[i + 3]};
}

namespace {

void append_bytes(void* context, void* data, int size) {
  auto* bytes = static_cast<std::vector<unsigned char>*>(context);
  const auto* begin = static_cast<const unsigned char*>(data);
  bytes->insert(bytes->end(), begin, begin + size);
}

}  // namespace

Status write_png(const std::string& path, const Image& image) {
  namespace fs = std::filesystem;
  const std::size_t expected = static_cast<std::size_t>(image.width > 0 ? image.width : 0) *
                               static_cast<std::size_t>(image.height > 0 ? image.height : 0) * 4;
  if (image.width <= 0 || image.height <= 0 || image.rgba.size() != expected)
    return Error{path + ": cannot write PNG: image is " + std::to_string(image.width) + " x " +
                 std::to_string(image.height) + " with " + std::to_string(image.rgba.size()) +
                 " bytes, expected width * height * 4 bytes with both sides positive"};

  // Encode in memory first: an encoding failure then touches no file at all.
  std::vector<unsigned char> png;
  if (!stbi_write_png_to_func(append_bytes, &png, image.width, image.height, 4, image.rgba.data(), image.width * 4))
    return Error{path + ": cannot write PNG: encoding failed"};

  const fs::path temp = path + ".tmp-" + std::to_string(::getpid());
  const auto fail = [&](const std::string& what) {
    std::error_code ignored;
    fs::remove(temp, ignored);
    return Status(Error{path + ": cannot write PNG: " + what});
  };
  std::FILE* file = std::fopen(temp.c_str(), "wb");
  if (!file) return fail(std::strerror(errno));
  const bool written = std::fwrite(png.data(), 1, png.size(), file) == png.size();
  const int write_errno = errno;
  // fsync so that a crash after the rename cannot leave an empty file behind.
  const bool flushed = std::fflush(file) == 0 && ::fsync(::fileno(file)) == 0;
  const bool closed = std::fclose(file) == 0;
  if (!written) return fail(std::strerror(write_errno));
  if (!flushed || !closed) return fail(std::strerror(errno));
  std::error_code ec;
  fs::rename(temp, path, ec);
  if (ec) return fail(ec.message());
  return Ok{};
}

}  // namespace nudge::render
