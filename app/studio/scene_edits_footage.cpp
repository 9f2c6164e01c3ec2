// Edits of the shot a scene is matched to: its video, camera, correspondences and 2D
// tracks, and the bindings of tracks to particles in a tracks objective (scene_edits.h).
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "studio/scene_edits.h"
#include "studio/scene_edits_support.h"

namespace nudge::studio::edits {

using namespace support;

namespace {

std::optional<Error> check_track(std::string_view action, const Scene& scene, int id) {
  if (scene.footage.track(id)) return std::nullopt;
  return fail(action, "the scene has no track " + std::to_string(id));
}

std::optional<Error> check_image_point(std::string_view action, int frame, double u, double v) {
  if (frame < 0) return fail(action, "found frame " + std::to_string(frame) + "; expected a frame >= 0");
  if (!std::isfinite(u) || !std::isfinite(v))
    return fail(action,
                "found the image position (" + number_text(u) + ", " + number_text(v) + "); expected finite px");
  return std::nullopt;
}

Track& track_of(Scene& scene, int id) {
  return *std::find_if(scene.footage.tracks.begin(), scene.footage.tracks.end(),
                       [&](const Track& t) { return t.id == id; });
}

}  // namespace

Result<Scene> set_footage(const Scene& scene, const std::filesystem::path& video, double fps, int first_frame) {
  constexpr std::string_view action = "set footage";
  if (auto error = check_input(scene, action)) return *error;
  if (!(std::isfinite(fps) && fps > 0))
    return fail(action, "found " + number_text(fps) + " frames per second; expected a frame rate > 0");
  Scene edited = scene;
  edited.footage.video = video;
  edited.footage.fps = fps;
  edited.footage.first_frame = first_frame;
  return finish(std::move(edited), action);  // a tracks objective needs whole steps per frame
}

Result<Scene> set_footage_camera(const Scene& scene, const PinholeCamera& camera) {
  constexpr std::string_view action = "set footage camera";
  if (auto error = check_input(scene, action)) return *error;
  Scene edited = scene;
  edited.footage.camera = camera;
  return finish(std::move(edited), action);
}

Result<Scene> add_correspondence(const Scene& scene, const CameraCorrespondence& correspondence) {
  constexpr std::string_view action = "add correspondence";
  if (auto error = check_input(scene, action)) return *error;
  Scene edited = scene;
  edited.footage.correspondences.push_back(correspondence);
  return finish(std::move(edited), action);
}

Result<Scene> delete_correspondence(const Scene& scene, int index) {
  constexpr std::string_view action = "delete correspondence";
  if (auto error = check_input(scene, action)) return *error;
  if (auto error = check_indices(action, "correspondence", {index}, int(scene.footage.correspondences.size())))
    return *error;
  Scene edited = scene;
  edited.footage.correspondences.erase(edited.footage.correspondences.begin() + index);
  return finish(std::move(edited), action);
}

Result<Scene> add_track(const Scene& scene, const std::string& name, int frame, double u, double v) {
  constexpr std::string_view action = "add track";
  if (auto error = check_input(scene, action)) return *error;
  if (auto error = check_image_point(action, frame, u, v)) return *error;
  Track track;
  track.id = scene.footage.next_track_id();
  track.name = name;
  track.samples = {{frame, {u, v}, 1.0, true}};
  Scene edited = scene;
  edited.footage.tracks.push_back(std::move(track));
  return finish(std::move(edited), action);
}

Result<Scene> set_track_key(const Scene& scene, int id, int frame, double u, double v) {
  constexpr std::string_view action = "set track key";
  if (auto error = check_input(scene, action)) return *error;
  if (auto error = check_track(action, scene, id)) return *error;
  if (auto error = check_image_point(action, frame, u, v)) return *error;
  Scene edited = scene;
  std::vector<TrackSample>& samples = track_of(edited, id).samples;
  const auto at =
      std::lower_bound(samples.begin(), samples.end(), frame, [](const TrackSample& s, int f) { return s.frame < f; });
  const TrackSample key{frame, {u, v}, 1.0, true};
  if (at != samples.end() && at->frame == frame)
    *at = key;
  else
    samples.insert(at, key);
  return finish(std::move(edited), action);
}

Result<Scene> set_track_samples(const Scene& scene, int id, std::vector<TrackSample> samples) {
  constexpr std::string_view action = "set track samples";
  if (auto error = check_input(scene, action)) return *error;
  if (auto error = check_track(action, scene, id)) return *error;
  Scene edited = scene;
  track_of(edited, id).samples = std::move(samples);
  return finish(std::move(edited), action);  // check_scene: ascending frames, confidences in [0, 1]
}

Result<Scene> delete_track(const Scene& scene, int id) {
  constexpr std::string_view action = "delete track";
  if (auto error = check_input(scene, action)) return *error;
  if (auto error = check_track(action, scene, id)) return *error;
  Scene edited = scene;
  std::erase_if(edited.footage.tracks, [&](const Track& t) { return t.id == id; });
  std::vector<Objective> kept;
  for (Objective& o : edited.objectives) {
    if (o.type == ObjectiveType::Tracks) {
      std::erase_if(o.bind, [&](const auto& pair) { return pair.first == id; });
      std::erase_if(o.bind_bodies, [&](const auto& pair) { return pair.first == id; });
      if (o.bind.empty() && o.bind_bodies.empty()) continue;
    }
    kept.push_back(std::move(o));
  }
  edited.objectives = std::move(kept);
  return finish(std::move(edited), action);
}

Result<Scene> bind_track(const Scene& scene, int id, int particle) {
  constexpr std::string_view action = "bind track";
  if (auto error = check_input(scene, action)) return *error;
  if (auto error = check_track(action, scene, id)) return *error;
  if (auto error = check_indices(action, "particle", {particle}, scene.particle_count())) return *error;
  if (!scene.footage.camera)
    return fail(action, "the footage has no camera to compare through; fit one from correspondences first");
  if (!steps_per_frame(scene.footage.fps, scene.settings.dt))
    return fail(action, "the footage's " + number_text(scene.footage.fps) + " frames per second and the time step " +
                            number_text(scene.settings.dt) + " s give no whole number of steps per frame");
  Scene edited = scene;
  auto objective = std::find_if(edited.objectives.begin(), edited.objectives.end(),
                                [](const Objective& o) { return o.type == ObjectiveType::Tracks; });
  if (objective == edited.objectives.end()) {
    Objective o;
    o.type = ObjectiveType::Tracks;
    edited.objectives.push_back(o);
    objective = edited.objectives.end() - 1;
  }
  std::erase_if(objective->bind_bodies, [&](const auto& pair) { return pair.first == id; });
  const auto bound =
      std::find_if(objective->bind.begin(), objective->bind.end(), [&](const auto& pair) { return pair.first == id; });
  if (bound != objective->bind.end())
    bound->second = particle;
  else
    objective->bind.emplace_back(id, particle);
  return finish(std::move(edited), action);
}

}  // namespace nudge::studio::edits
