#include "gui/example_thumbnails.h"

#include <exception>
#include <utility>

#include "gui/window.h"
#include "nudge/render/gpu_context.h"
#include "nudge/render/offscreen_target.h"
#include "nudge/scene.h"
#include "view/scene_draw.h"

namespace nudge::gui {

ExampleThumbnails::ExampleThumbnails(std::vector<std::filesystem::path> scenes) : scenes_(std::move(scenes)) {
  auto work = [this](studio::BackgroundJob::Control& control) {
    try {
      control.set_total(int(scenes_.size()));
      // A device of its own: the window's queue belongs to the UI thread.
      render::Expected<render::GpuContext> gpu = render::GpuContext::create({});
      if (!gpu) return;  // no pictures: the cards show their names alone
      render::Expected<render::OffscreenTarget> target = render::OffscreenTarget::create(*gpu, kWidth, kHeight, 1);
      if (!target) return;
      for (std::size_t i = 0; i < scenes_.size() && !control.cancelled(); ++i) {
        Result<Scene> scene = load_scene(scenes_[i]);
        if (scene) {
          view::SceneDrawOptions options = view::scene_draw_options(*scene, nullptr, float(kWidth) / float(kHeight));
          render::Expected<render::Image> image = target->render(view::scene_draw_list(*scene, nullptr, 0, options));
          if (image) {
            std::lock_guard lock(mutex_);
            ready_.emplace_back(int(i), std::move(*image));
          }
        }
        control.set_done(int(i) + 1);
      }
    } catch (const std::exception&) {  // must not escape the worker thread; the cards do without
    }
  };
  job_ = std::make_unique<studio::BackgroundJob>(std::move(work), [] { Window::wake(); });
}

std::vector<std::pair<int, render::Image>> ExampleThumbnails::take_ready() {
  std::lock_guard lock(mutex_);
  return std::exchange(ready_, {});
}

}  // namespace nudge::gui
