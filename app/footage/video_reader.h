// Frames of a shot, read with FFmpeg's libraries: a video file (mp4, mov, mkv, ...) or an
// image sequence (a folder of PNG or JPEG files in name order, or a printf pattern such as
// shot_%04d.png). Access is frame-accurate in any order: opening indexes every packet's
// presentation time once (no decoding), and a frame is found by seeking to the keyframe
// at or before it and decoding forward to its timestamp. Reading on in order decodes
// each frame once.
#pragma once

#include <filesystem>
#include <memory>

#include "footage/image.h"
#include "nudge/result.h"

namespace nudge::footage {

class VideoReader {
public:
  // An image sequence has no frame rate of its own: it gets `sequence_fps`.
  static Result<VideoReader> open(const std::filesystem::path& path, double sequence_fps = 24.0);

  VideoReader(VideoReader&&) noexcept;
  VideoReader& operator=(VideoReader&&) noexcept;
  ~VideoReader();

  int width() const;
  int height() const;
  int frame_count() const;
  double fps() const;
  const std::filesystem::path& path() const;

  // Frame `index` (0-based, in presentation order) as RGB.
  Result<Image> frame(int index);

private:
  struct State;
  explicit VideoReader(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace nudge::footage
