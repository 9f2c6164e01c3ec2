// Tracking a feature while the user goes on: one background job follows a track through
// the shot from its keys (footage/point_tracker.h) with its own reader of the video, and
// publishes the tracked track, which the studio applies to the document as one edit.
#pragma once

#include <functional>
#include <memory>
#include <mutex>
#include <optional>

#include "nudge/result.h"
#include "nudge/scene.h"
#include "studio/background_job.h"

namespace nudge::studio {

class TrackingRun {
public:
  // Tracks `track_id` of the scene over the video's frames [first, last].
  TrackingRun(const Scene& scene, int track_id, int first, int last, std::function<void()> on_progress = {});

  int track_id() const { return track_id_; }
  const BackgroundJob& job() const { return *job_; }
  void cancel() { job_->cancel(); }
  // Once the job has finished: the tracked track, or why there is none.
  std::optional<Result<Track>> result() const;

private:
  int track_id_;
  mutable std::mutex mutex_;
  std::optional<Result<Track>> result_;
  std::unique_ptr<BackgroundJob> job_;  // last: its thread uses the members above
};

}  // namespace nudge::studio
