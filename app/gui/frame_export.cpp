#include "gui/frame_export.h"

#include <exception>
#include <utility>

#include "footage/composite.h"
#include "footage/scene_footage.h"
#include "gui/window.h"

namespace nudge::gui {

FrameExport::FrameExport(Scene scene, Trajectory trajectory, view::FrameSequence sequence, bool over_shot)
    : scene_(std::move(scene)), trajectory_(std::move(trajectory)), sequence_(std::move(sequence)) {
  sequence_.scene = &scene_;
  sequence_.trajectory = &trajectory_;
  auto work = [this, over_shot](studio::BackgroundJob::Control& control) {
    std::string error;
    int frames = 0;
    try {
      // A device of its own: the window's queue belongs to the UI thread.
      render::Expected<render::GpuContext> gpu = render::GpuContext::create({});
      if (!gpu) {
        error = "no Vulkan device to draw the frames with: " + gpu.error().message;
      } else {
        const auto progress = [&control](int done, int total) {
          control.set_total(total);
          control.set_done(done);
          return !control.cancelled();
        };
        Result<int> written = Error{""};
        if (over_shot) {
          Result<footage::VideoReader> video = footage::open_scene_video(scene_);  // a reader of its own
          written =
              video ? footage::write_composited_frames(*gpu, scene_, trajectory_, *video, sequence_.folder, progress)
                    : Result<int>(video.error());
        } else {
          written = view::write_frame_sequence(*gpu, sequence_, progress);
        }
        if (written)
          frames = *written;
        else
          error = written.error().message;
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
