#include "gui/frame_export.h"

#include <exception>
#include <utility>

#include "gui/window.h"

namespace nudge::gui {

FrameExport::FrameExport(Scene scene, Trajectory trajectory, view::FrameSequence sequence)
    : scene_(std::move(scene)), trajectory_(std::move(trajectory)), sequence_(std::move(sequence)) {
  sequence_.scene = &scene_;
  sequence_.trajectory = &trajectory_;
  auto work = [this](studio::BackgroundJob::Control& control) {
    std::string error;
    int frames = 0;
    try {
      // A device of its own: the window's queue belongs to the UI thread.
      render::Expected<render::GpuContext> gpu = render::GpuContext::create({});
      if (!gpu) {
        error = "no Vulkan device to draw the frames with: " + gpu.error().message;
      } else {
        Result<int> written = view::write_frame_sequence(*gpu, sequence_, [&control](int done, int total) {
          control.set_total(total);
          control.set_done(done);
          return !control.cancelled();
        });
        if (written) frames = *written;
        else error = written.error().message;
      }
    } catch (const std::exception& e) {  // must not escape the worker thread
      error = std::string("the frame export failed: ") + e.what();
    }
    std::lock_guard lock(mutex_);
    outcome_ = error;
    frames_ = frames;
  };
  job_ = std::make_unique<studio::BackgroundJob>(std::move(work), [] { Window::wake(); });
}

std::optional<std::string> FrameExport::outcome() const {
  std::lock_guard lock(mutex_);
  return outcome_;
}

int FrameExport::frames() const {
  std::lock_guard lock(mutex_);
  return frames_;
}

}  // namespace nudge::gui
