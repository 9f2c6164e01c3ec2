#include "studio/footage_view.h"

#include <cmath>

#include "footage/scene_footage.h"

namespace nudge::studio {

int shot_frame_at_step(const Scene& scene, int step) {
  const Footage& f = scene.footage;
  if (const std::optional<int> spf = steps_per_frame(f.fps, scene.settings.dt))
    return f.first_frame + int(std::lround(double(step) / double(*spf)));
  return f.first_frame + int(std::lround(double(step) * scene.settings.dt * f.fps));
}

void FootageView::follow(const Scene& scene) {
  const std::filesystem::path path =
      scene.footage.video.empty() ? std::filesystem::path() : footage::scene_video_path(scene);
  if (path == path_ && (video_ || !error_.empty() || path.empty())) return;
  path_ = path;
  video_.reset();
  error_.clear();
  frame_index_ = -1;
  if (path.empty()) return;
  Result<footage::VideoReader> opened = footage::open_scene_video(scene);
  if (!opened) {
    error_ = opened.error().message;
    return;
  }
  video_ = std::make_unique<footage::VideoReader>(std::move(*opened));
}

const footage::Image* FootageView::frame(int index) {
  if (!video_ || index < 0 || index >= video_->frame_count()) return nullptr;
  if (index == frame_index_) return &image_;
  Result<footage::Image> decoded = video_->frame(index);
  if (!decoded) {
    error_ = decoded.error().message;
    return nullptr;
  }
  image_ = std::move(*decoded);
  rgba_ = footage::to_rgba(image_);
  frame_index_ = index;
  return &image_;
}

}  // namespace nudge::studio
