#include "studio/tracking_run.h"

#include "footage/scene_footage.h"

namespace nudge::studio {

TrackingRun::TrackingRun(const Scene& scene, int track_id, int first, int last, std::function<void()> on_progress)
    : track_id_(track_id) {
  const Track* track = scene.footage.track(track_id);
  std::optional<Track> copy = track ? std::optional<Track>(*track) : std::nullopt;
  job_ = std::make_unique<BackgroundJob>(
      [this, scene, copy, first, last](BackgroundJob::Control& control) {
        const auto publish = [&](Result<Track> r) {
          std::lock_guard lock(mutex_);
          result_ = std::move(r);
        };
        if (!copy) return publish(Error{"track " + std::to_string(track_id_) + " does not exist"});
        Result<footage::VideoReader> video = footage::open_scene_video(scene);
        if (!video) return publish(video.error());
        control.set_total(1);
        publish(footage::retrack(*video, *copy, first, last));
        control.set_done(1);
      },
      std::move(on_progress));
}

std::optional<Result<Track>> TrackingRun::result() const {
  std::lock_guard lock(mutex_);
  return result_;
}

}  // namespace nudge::studio
