// Exporting the shown motion as PNG frames without stopping the window: a worker thread
// with its own offscreen Vulkan device draws the frames (view::write_frame_sequence) while
// the studio keeps drawing; progress and the outcome are polled.
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "studio/background_job.h"
#include "view/frame_sequence.h"

namespace nudge::gui {

class FrameExport {
public:
  // Copies what it draws; starts at once. over_shot: the shot's frames instead, each with
  // the motion drawn over it through the footage's camera (footage/composite.h).
  FrameExport(Scene scene, Trajectory trajectory, view::FrameSequence sequence, bool over_shot = false);

  const studio::BackgroundJob& job() const { return *job_; }
  void cancel() { job_->cancel(); }
  const std::filesystem::path& folder() const { return sequence_.folder; }
  // Once finished: the error, or empty on success (then frames() says how many).
  std::optional<std::string> outcome() const;
  int frames() const;

private:
  Scene scene_;
  Trajectory trajectory_;
  view::FrameSequence sequence_;
  mutable std::mutex mutex_;
  std::optional<std::string> outcome_;
  int frames_ = 0;
  std::unique_ptr<studio::BackgroundJob> job_;  // last: its thread uses the members above
};

}  // namespace nudge::gui
