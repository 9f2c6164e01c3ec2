// Reading footage: an image sequence (a folder, a printf pattern) and an H.264 clip with
// B-frames and a keyframe every 10 frames, whose frames must come out the same whether
// read in order or jumped to. Each frame shows where it is: a white square at
// x = 10 + 5 i, and (in the PNGs, which are lossless) its index in the first pixel.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <stb/stb_image_write.h>  // compiled by the renderer (renderer/src/stb_image_write_impl.cpp)

#include "../engine/temp_dir.h"
#include "footage/video_reader.h"

using namespace nudge;
using namespace nudge::footage;

namespace {

constexpr int kWidth = 192, kHeight = 96, kFrames = 30, kSquare = 10;

int square_x(int i) { return 10 + 5 * i; }

footage::Image make_frame(int i) {
  footage::Image image;
  image.width = kWidth, image.height = kHeight;
  image.rgb.assign(size_t(kWidth) * kHeight * 3, 40);
  for (int y = 40; y < 40 + kSquare; ++y)
    for (int x = square_x(i); x < square_x(i) + kSquare; ++x)
      for (int c = 0; c < 3; ++c) image.rgb[(size_t(y) * kWidth + x) * 3 + c] = 230;
  image.rgb[0] = static_cast<unsigned char>(i);
  image.rgb[1] = 0, image.rgb[2] = 255;
  return image;
}

void append(void* context, void* data, int size) {
  auto* bytes = static_cast<std::vector<unsigned char>*>(context);
  bytes->insert(bytes->end(), static_cast<unsigned char*>(data), static_cast<unsigned char*>(data) + size);
}

// Through stbi_write_png_to_func: the renderer compiles stb without its stdio functions.
void write_png(const std::filesystem::path& file, const footage::Image& image) {
  std::vector<unsigned char> png;
  REQUIRE(stbi_write_png_to_func(append, &png, image.width, image.height, 3, image.rgb.data(), 3 * image.width));
  std::ofstream out(file, std::ios::binary);
  out.write(reinterpret_cast<const char*>(png.data()), std::streamsize(png.size()));
  REQUIRE(out.good());
}

// A folder of frame_0000.png ... frame_0029.png.
void write_sequence(const std::filesystem::path& folder) {
  std::filesystem::create_directories(folder);
  for (int i = 0; i < kFrames; ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "frame_%04d.png", i);
    write_png(folder / name, make_frame(i));
  }
}

// The square's centre from the bright pixels' centroid; -1 when there are none.
double square_centre_x(const footage::Image& image) {
  double sum = 0, count = 0;
  for (int y = 0; y < image.height; ++y)
    for (int x = 0; x < image.width; ++x)
      if (image.rgb[(size_t(y) * image.width + x) * 3 + 1] > 135) sum += x, count += 1;
  return count > 0 ? sum / count : -1;
}

bool has_ffmpeg() { return std::system("ffmpeg -version >/dev/null 2>&1") == 0; }

}  // namespace

TEST_CASE("footage: an image sequence reads as a folder and as a printf pattern") {
  test::TempDir dir("footage-sequence");
  const std::filesystem::path folder = dir.path / "shot";
  write_sequence(folder);
  dir.write("shot/notes.txt", "not a frame");  // a folder's other files are not frames

  for (const std::filesystem::path& source : {folder, folder / "frame_%04d.png"}) {
    CAPTURE(source.string());
    Result<VideoReader> reader = VideoReader::open(source, 30.0);
    REQUIRE_MESSAGE(reader.ok(), (reader.ok() ? "" : reader.error().message));
    CHECK(reader->frame_count() == kFrames);
    CHECK(reader->width() == kWidth);
    CHECK(reader->height() == kHeight);
    CHECK(reader->fps() == 30.0);
    CHECK(reader->path() == source);
    for (int i : {0, 7, 29, 3, 4, 5, 18}) {
      Result<footage::Image> frame = reader->frame(i);
      REQUIRE_MESSAGE(frame.ok(), (frame.ok() ? "" : frame.error().message));
      CHECK(frame->width == kWidth);
      CHECK(frame->height == kHeight);
      CHECK(frame->rgb == make_frame(i).rgb);  // PNG is lossless: every byte
    }
  }

  Result<VideoReader> default_rate = VideoReader::open(folder);
  REQUIRE(default_rate.ok());
  CHECK(default_rate->fps() == 24.0);
}

// A missing ffmpeg fails the case: a skip here used to count as a pass.
TEST_CASE("footage: an H.264 clip with B-frames gives the same frames in any order") {
  REQUIRE_MESSAGE(has_ffmpeg(),
                  "the ffmpeg command is needed to encode the test clip (scripts/setup installs "
                  "Debian's ffmpeg package)");
  test::TempDir dir("footage-video");
  write_sequence(dir.path / "shot");
  const std::filesystem::path clip = dir.path / "clip.mp4";
  const std::string command = "ffmpeg -v error -y -framerate 24 -i '" +
                              (dir.path / "shot" / "frame_%04d.png").string() +
                              "' -c:v libx264 -g 10 -bf 2 -pix_fmt yuv420p -crf 12 '" + clip.string() + "'";
  REQUIRE_MESSAGE(std::system(command.c_str()) == 0,
                  "ffmpeg could not encode H.264 (it needs libx264, which Debian's "
                  "ffmpeg package has; scripts/setup installs it): "
                      << command);

  Result<VideoReader> in_order = VideoReader::open(clip);
  REQUIRE_MESSAGE(in_order.ok(), (in_order.ok() ? "" : in_order.error().message));
  CHECK(in_order->frame_count() == kFrames);
  CHECK(in_order->width() == kWidth);
  CHECK(in_order->height() == kHeight);
  CHECK(in_order->fps() == doctest::Approx(24.0));

  std::vector<footage::Image> frames;
  for (int i = 0; i < kFrames; ++i) {
    Result<footage::Image> frame = in_order->frame(i);
    REQUIRE_MESSAGE(frame.ok(), (frame.ok() ? "" : frame.error().message));
    CAPTURE(i);
    CHECK(std::abs(square_centre_x(*frame) - (square_x(i) + 0.5 * (kSquare - 1))) < 1.0);
    frames.push_back(std::move(*frame));
  }

  // Jumps both ways, a step on from a jump, and (past the cache of recent frames) every
  // frame again backwards, each a seek to its keyframe and decoding forward.
  Result<VideoReader> jumping = VideoReader::open(clip);
  REQUIRE(jumping.ok());
  std::vector<int> order{25, 3, 17, 18, 0, 29};
  for (int i = kFrames - 1; i >= 0; --i) order.push_back(i);
  for (int i : order) {
    CAPTURE(i);
    Result<footage::Image> frame = jumping->frame(i);
    REQUIRE_MESSAGE(frame.ok(), (frame.ok() ? "" : frame.error().message));
    CHECK(std::abs(square_centre_x(*frame) - (square_x(i) + 0.5 * (kSquare - 1))) < 1.0);
    CHECK(frame->rgb == frames[size_t(i)].rgb);  // the same decoded frame, byte for byte
  }

  // Cut without re-encoding from 0.5 s (frame 12): the clip starts at the keyframe on
  // frame 10, and an edit list hides the two frames before the cut. They are no frames.
  const std::filesystem::path cut = dir.path / "cut.mp4";
  const std::string cut_command =
      "ffmpeg -v error -y -ss 0.5 -i '" + clip.string() + "' -c copy '" + cut.string() + "'";
  REQUIRE_MESSAGE(std::system(cut_command.c_str()) == 0, "ffmpeg could not cut the clip: " << cut_command);
  Result<VideoReader> trimmed = VideoReader::open(cut);
  REQUIRE_MESSAGE(trimmed.ok(), (trimmed.ok() ? "" : trimmed.error().message));
  CHECK(trimmed->frame_count() == kFrames - 12);
  for (int i : {5, 0, 17, 1, 2}) {
    CAPTURE(i);
    Result<footage::Image> frame = trimmed->frame(i);
    REQUIRE_MESSAGE(frame.ok(), (frame.ok() ? "" : frame.error().message));
    CHECK(frame->rgb == frames[size_t(12 + i)].rgb);
  }
}

TEST_CASE("footage: what is not footage is an error that names it") {
  test::TempDir dir("footage-errors");

  const std::filesystem::path missing = dir.path / "missing.mp4";
  Result<VideoReader> none = VideoReader::open(missing);
  REQUIRE_FALSE(none.ok());
  CHECK(none.error().message.find(missing.string()) != std::string::npos);

  const std::filesystem::path text = dir.write("notes.mp4", "this is a text file, not a video\n");
  Result<VideoReader> not_video = VideoReader::open(text);
  REQUIRE_FALSE(not_video.ok());
  CHECK(not_video.error().message.find(text.string()) != std::string::npos);

  const std::filesystem::path empty = dir.path / "empty";
  std::filesystem::create_directories(empty);
  Result<VideoReader> no_frames = VideoReader::open(empty);
  REQUIRE_FALSE(no_frames.ok());
  CHECK(no_frames.error().message.find(empty.string()) != std::string::npos);

  const std::filesystem::path no_match = dir.path / "shot_%04d.png";
  Result<VideoReader> no_files = VideoReader::open(no_match);
  REQUIRE_FALSE(no_files.ok());
  CHECK(no_files.error().message.find(no_match.string()) != std::string::npos);

  write_sequence(dir.path / "shot");
  Result<VideoReader> reader = VideoReader::open(dir.path / "shot");
  REQUIRE(reader.ok());
  for (int bad : {-1, kFrames}) {
    Result<footage::Image> frame = reader->frame(bad);
    REQUIRE_FALSE(frame.ok());
    CHECK(frame.error().message.find((dir.path / "shot").string()) != std::string::npos);
    CHECK(frame.error().message.find(std::to_string(bad)) != std::string::npos);
  }

  // A frame that went missing after opening is an error on that frame, not a crash.
  std::filesystem::remove(dir.path / "shot" / "frame_0012.png");
  Result<footage::Image> gone = reader->frame(12);
  REQUIRE_FALSE(gone.ok());
  CHECK(gone.error().message.find("frame_0012.png") != std::string::npos);

  // Moved, the reader is still whole.
  VideoReader moved = std::move(*reader);
  CHECK(moved.frame_count() == kFrames);
  CHECK(moved.frame(3).ok());
}
