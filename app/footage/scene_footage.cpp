#include "footage/scene_footage.h"

#include <algorithm>
#include <string>

namespace nudge::footage {

std::filesystem::path scene_video_path(const Scene& scene) {
  const std::filesystem::path& video = scene.footage.video;
  if (video.empty() || video.is_absolute() || scene.source.empty()) return video;
  return scene.source.parent_path() / video;
}

Result<VideoReader> open_scene_video(const Scene& scene) {
  if (scene.footage.video.empty())
    return Error{(scene.source.empty() ? scene.name : scene.source.string()) +
                 ": the scene names no video; expected footage.video, the path of a video file or an image sequence"};
  return VideoReader::open(scene_video_path(scene), scene.footage.fps);
}

Result<Track> retrack(VideoReader& video, const Track& track, int first, int last, const TrackerSettings& settings) {
  std::vector<TrackPoint> keys;
  for (const TrackSample& s : track.samples)
    if (s.key) keys.push_back({s.frame, s.uv[0], s.uv[1], 1.0, true});
  const std::string name = "track " + std::to_string(track.id) + (track.name.empty() ? "" : " (" + track.name + ")");
  if (keys.empty())
    return Error{name + " has no key point to track from; place one on a frame where the feature shows"};
  first = std::max(first, 0);
  last = std::min(last, video.frame_count() - 1);
  if (first > last || keys.front().frame < first || keys.back().frame > last)
    return Error{name + ": its key points (frames " + std::to_string(keys.front().frame) + " to " +
                 std::to_string(keys.back().frame) + ") lie outside the frames tracked (" + std::to_string(first) +
                 " to " + std::to_string(last) + " of " + std::to_string(video.frame_count()) + ")"};
  Result<std::vector<TrackPoint>> points =
      track_point([&](int frame) { return video.frame(frame); }, keys, first, last, settings);
  if (!points) return Error{name + ": " + points.error().message};
  Track out = track;
  out.samples.clear();
  for (const TrackPoint& p : *points)
    out.samples.push_back({p.frame, {p.u, p.v}, p.confidence, p.key});  // in frame order
  return out;
}

int bound_particle(const Scene& scene, int id) {
  for (const Objective& o : scene.objectives)
    if (o.type == ObjectiveType::Tracks)
      for (const auto& [track, particle] : o.bind)
        if (track == id) return particle;
  return -1;
}

}  // namespace nudge::footage
