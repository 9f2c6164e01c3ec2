// Reading footage: the example's H.264 clip (B-frames, a keyframe every 25 frames) read in
// a scattered order equals the same frames read in order, byte for byte; an image
// sequence reads from a folder and from a printf pattern; bad paths and frame numbers are
// refused with the path in the message.
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>

#include "../engine/temp_dir.h"
#include "footage/video_reader.h"
#include "nudge/render/image.h"

using namespace nudge;

namespace {

std::filesystem::path source_dir() {
  if (const char* dir = std::getenv("NUDGE_SOURCE_DIR")) return dir;
  return std::filesystem::path(__FILE__).parent_path().parent_path().parent_path();
}

// A 32 x 24 image with a bright square at x = 2 + 3 i.
render::Image numbered_image(int i) {
  render::Image image;
  image.width = 32, image.height = 24;
  image.rgba.assign(32 * 24 * 4, 40);
  for (int y = 8; y < 14; ++y)
    for (int x = 2 + 3 * i; x < 8 + 3 * i; ++x)
      for (int c = 0; c < 3; ++c) image.rgba[size_t(y * 32 + x) * 4 + size_t(c)] = 230;
  for (size_t k = 3; k < image.rgba.size(); k += 4) image.rgba[k] = 255;
  return image;
}

}  // namespace

TEST_CASE("footage: an H.264 clip read out of order equals the same frames read in order") {
  const std::filesystem::path clip = source_dir() / "assets" / "footage" / "spring_shot.mp4";
  Result<footage::VideoReader> in_order = footage::VideoReader::open(clip);
  REQUIRE_MESSAGE(in_order.ok(), (in_order.ok() ? "" : in_order.error().message));
  CHECK(in_order->frame_count() == 101);
  CHECK(in_order->fps() == doctest::Approx(50.0));
  CHECK(in_order->width() == 640);
  CHECK(in_order->height() == 360);
  std::vector<footage::Image> frames;
  for (int i = 0; i < in_order->frame_count(); ++i) {
    Result<footage::Image> frame = in_order->frame(i);
    REQUIRE_MESSAGE(frame.ok(), (frame.ok() ? "" : frame.error().message));
    frames.push_back(std::move(*frame));
  }
  CHECK(frames[0].rgb != frames[1].rgb);  // the clip moves (and has grain)
  Result<footage::VideoReader> scattered = footage::VideoReader::open(clip);
  REQUIRE(scattered.ok());
  for (int i : {37, 12, 100, 99, 0, 50, 51, 24, 25, 26, 3}) {
    CAPTURE(i);
    Result<footage::Image> frame = scattered->frame(i);
    REQUIRE(frame.ok());
    CHECK(frame->rgb == frames[size_t(i)].rgb);
  }
  const Result<footage::Image> past = scattered->frame(101);
  REQUIRE_FALSE(past.ok());
  CHECK(past.error().message.find("spring_shot.mp4: there is no frame 101; expected 0 to 100") != std::string::npos);
  CHECK_FALSE(scattered->frame(-1).ok());
}

TEST_CASE("footage: image sequences by folder and by pattern, and paths that are not footage") {
  test::TempDir dir("footage-reader");
  std::filesystem::create_directories(dir.path / "shot");
  for (int i = 0; i < 5; ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "shot/take_%03d.png", i + 1);
    REQUIRE(render::write_png((dir.path / name).string(), numbered_image(i)).ok());
  }
  for (const std::filesystem::path& path : {dir.path / "shot", dir.path / "shot" / "take_%03d.png"}) {
    CAPTURE(path);
    Result<footage::VideoReader> video = footage::VideoReader::open(path, 12.0);
    REQUIRE_MESSAGE(video.ok(), (video.ok() ? "" : video.error().message));
    CHECK(video->frame_count() == 5);
    CHECK(video->fps() == 12.0);
    for (int i : {4, 0, 2}) {
      Result<footage::Image> frame = video->frame(i);
      REQUIRE(frame.ok());
      CHECK(frame->width == 32);
      const auto at = [&](int x, int y) { return frame->rgb[size_t(y * 32 + x) * 3]; };
      CHECK(at(3 + 3 * i, 10) == 230);  // the square has moved to frame i's place
      CHECK(at(1 + 3 * i, 10) == 40);
    }
  }
  const auto error_of = [](const std::filesystem::path& path) {
    Result<footage::VideoReader> video = footage::VideoReader::open(path);
    REQUIRE_FALSE(video.ok());
    CHECK(video.error().message.find(path.string()) != std::string::npos);
    return video.error().message;
  };
  CHECK(error_of(dir.path / "missing.mp4").find("no such file") != std::string::npos);
  std::ofstream(dir.path / "notes.mp4") << "not a video";
  error_of(dir.path / "notes.mp4");
  std::filesystem::create_directories(dir.path / "empty");
  CHECK(error_of(dir.path / "empty").find("no PNG or JPEG") != std::string::npos);
  CHECK(error_of(dir.path / "shot" / "other_%03d.png").find("no file of this image sequence") != std::string::npos);
}
