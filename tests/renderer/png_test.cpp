// write_png: what is read back is what was written; failures leave no file behind.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <unistd.h>

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wconversion"
#pragma GCC diagnostic ignored "-Wsign-conversion"
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wunused-function"
#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_PNG
#include <stb/stb_image.h>
#pragma GCC diagnostic pop

#include "nudge/render/image.h"

using namespace nudge::render;
namespace fs = std::filesystem;

namespace {

fs::path scratch_dir() {
  const fs::path dir = fs::temp_directory_path() / ("nudge_png_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  return dir;
}

bool has_leftovers(const fs::path& dir, const std::string& stem) {
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(stem + ".tmp-", 0) == 0) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("write_png: round trip through stb_image") {
  Image image;
  image.width = 7;
  image.height = 5;
  for (int y = 0; y < image.height; ++y) {
    for (int x = 0; x < image.width; ++x) {
      image.rgba.push_back(static_cast<std::uint8_t>(x * 36));
      image.rgba.push_back(static_cast<std::uint8_t>(y * 60));
      image.rgba.push_back(static_cast<std::uint8_t>((x * 7 + y * 13) % 256));
      image.rgba.push_back(static_cast<std::uint8_t>(255 - x));
    }
  }
  const fs::path dir = scratch_dir();
  const fs::path path = dir / "round_trip.png";
  const Status written = write_png(path.string(), image);
  REQUIRE_MESSAGE(written.ok(), (written.ok() ? "" : written.error().message));

  int width = 0, height = 0, channels = 0;
  unsigned char* pixels = stbi_load(path.c_str(), &width, &height, &channels, 4);
  REQUIRE(pixels != nullptr);
  CHECK(width == 7);
  CHECK(height == 5);
  CHECK(std::equal(image.rgba.begin(), image.rgba.end(), pixels));
  stbi_image_free(pixels);
  CHECK_FALSE(has_leftovers(dir, "round_trip.png"));
  fs::remove_all(dir);
}

TEST_CASE("write_png: a failed write returns an error and leaves no file") {
  Image image{2, 2, std::vector<std::uint8_t>(16, 200)};
  const fs::path dir = scratch_dir();

  SUBCASE("the directory does not exist") {
    const fs::path path = dir / "no_such_dir" / "out.png";
    const Status written = write_png(path.string(), image);
    REQUIRE_FALSE(written.ok());
    CHECK(written.error().message.find(path.string()) != std::string::npos);
    CHECK_FALSE(fs::exists(path));
    CHECK_FALSE(fs::exists(dir / "no_such_dir"));
  }
  SUBCASE("the rename fails (a directory is in the way): the temporary is removed") {
    const fs::path path = dir / "occupied";
    fs::create_directories(path / "child");
    const Status written = write_png(path.string(), image);
    REQUIRE_FALSE(written.ok());
    CHECK(fs::is_directory(path));
    CHECK_FALSE(has_leftovers(dir, "occupied"));
  }
  SUBCASE("a malformed image is refused before any file is touched") {
    const fs::path path = dir / "bad.png";
    image.rgba.resize(15);
    const Status written = write_png(path.string(), image);
    REQUIRE_FALSE(written.ok());
    CHECK(written.error().message.find("2 x 2") != std::string::npos);
    CHECK_FALSE(fs::exists(path));
    CHECK_FALSE(has_leftovers(dir, "bad.png"));
  }
  fs::remove_all(dir);
}
