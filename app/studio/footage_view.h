// The shot behind the viewport: the document's video, opened when the scene names one,
// and the frame that goes with the play head, decoded once and kept until the play head
// moves to another frame. Owned by the UI thread.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "footage/video_reader.h"
#include "nudge/scene.h"

namespace nudge::studio {

// The frame of the shot shown at simulation step `step`: the footage's first frame plus
// the steps over the steps per frame (rounded to the nearest frame when the frame rate
// and time step give no whole number).
int shot_frame_at_step(const Scene& scene, int step);

class FootageView {
public:
  // Opens the scene's video when its resolved path changed (or closes it when the scene
  // names none). The error of a video that cannot be opened is kept, not thrown.
  void follow(const Scene& scene);

  bool has_video() const { return video_ != nullptr; }
  const footage::VideoReader* video() const { return video_.get(); }
  const std::string& error() const { return error_; }
  const std::filesystem::path& path() const { return path_; }

  // Frame `index` of the video, or nothing (no video, out of range, a decoding error,
  // which error() then says).
  const footage::Image* frame(int index);
  // The index of the frame frame() last decoded (-1: none).
  int frame_index() const { return frame_index_; }
  // That frame as opaque RGBA, converted once when it was decoded: the plate's texels.
  const std::vector<unsigned char>& frame_rgba() const { return rgba_; }

private:
  std::filesystem::path path_;
  std::unique_ptr<footage::VideoReader> video_;
  std::string error_;
  footage::Image image_;
  std::vector<unsigned char> rgba_;
  int frame_index_ = -1;
};

}  // namespace nudge::studio
