// The "footage" section (nudge/footage.h): the shot a scene is matched to, with its
// camera, the correspondences the camera was fitted to, and the 2D tracks: how it is
// read from a scene file, written back and checked.
#include <cmath>
#include <cstddef>
#include <set>
#include <string>

#include "io/scene_section.h"
#include "io/scene_sections.h"
#include "nudge/footage.h"

namespace nudge::scene_io {

namespace {

constexpr int kMaxFrame = 100'000'000;
constexpr std::size_t kMaxTrackSamples = 10'000'000;

bool unit_quaternion(const double q[4]) {
  const double length = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  return std::isfinite(length) && std::abs(length - 1.0) <= 1e-9;
}

}  // namespace

// ---- Reading ----------------------------------------------------------------------

void SceneReader::read_footage(const Node& node, Scene& scene) const {
  expect_object(node, {"video", "fps", "first_frame", "camera", "correspondences", "tracks"});
  Footage& f = scene.footage;
  if (auto video = optional(node, "video")) {
    const std::string written =
        string(*video, "the path of the shot's video or image sequence, relative to the scene's folder");
    if (written.empty()) fail_found(*video, "the path of a video or an image sequence");
    f.video = fs::path(written);
  }
  if (auto fps = optional(node, "fps"))
    f.fps = number(*fps, "the shot's frame rate > 0 (frames per second)", [](double x) { return x > 0 && x < 1e6; });
  if (auto first = optional(node, "first_frame"))
    f.first_frame = int_in(*first, -kMaxFrame, kMaxFrame, "the frame at simulation step 0");
  if (auto camera = optional(node, "camera")) f.camera = read_pinhole_camera(*camera);
  if (auto points = optional(node, "correspondences")) {
    expect_array(*points, "an array of {\"world\": [x, y, z], \"image\": [u, v], \"frame\"} correspondences");
    for (std::size_t k = 0; k < points->size(); ++k) {
      const Node item = points->element(k);
      expect_object(item, {"world", "image", "frame"}, context_of(item) + " (a camera correspondence)");
      CameraCorrespondence c;
      const std::array<double, 3> world =
          vec3(required(item, "world", "the point's place [x, y, z] (m)"), "the point's place [x, y, z] (m)");
      std::copy(world.begin(), world.end(), c.world);
      const Node image = required(item, "image", "where it is in the image [u, v] (px)");
      if (!image.json.is_array() || image.size() != 2) fail_found(image, "an image position [u, v] (px)");
      for (std::size_t i = 0; i < 2; ++i) c.image[i] = number(image.element(i), "a finite number (px)");
      if (auto frame = optional(item, "frame")) c.frame = int_in(*frame, 0, kMaxFrame, "a frame");
      f.correspondences.push_back(c);
    }
  }
  if (auto tracks = optional(node, "tracks")) {
    expect_array(*tracks, "an array of tracks ({\"id\", \"points\"})");
    std::set<int> ids;
    for (std::size_t k = 0; k < tracks->size(); ++k) f.tracks.push_back(read_track(tracks->element(k), ids));
  }
}

PinholeCamera SceneReader::read_pinhole_camera(const Node& node) const {
  expect_object(node, {"width", "height", "focal", "principal", "position", "orientation", "target"},
                context_of(node) + " (a pinhole camera)");
  PinholeCamera c;
  c.width = int_in(required(node, "width", "the image width (px)"), 1, 1 << 16, "an image width (px)");
  c.height = int_in(required(node, "height", "the image height (px)"), 1, 1 << 16, "an image height (px)");
  c.focal = number(required(node, "focal", "the focal length (px)"), "a focal length > 0 (px)", positive);
  c.principal[0] = 0.5 * (c.width - 1), c.principal[1] = 0.5 * (c.height - 1);  // the image's centre
  if (auto principal = optional(node, "principal")) {
    if (!principal->json.is_array() || principal->size() != 2) fail_found(*principal, "a principal point [u, v] (px)");
    for (std::size_t i = 0; i < 2; ++i) c.principal[i] = number(principal->element(i), "a finite number (px)");
  }
  const std::array<double, 3> position =
      vec3(required(node, "position", "the camera's position [x, y, z] (m)"), "the camera's position [x, y, z] (m)");
  std::copy(position.begin(), position.end(), c.position);
  const std::optional<Node> orientation = optional(node, "orientation"), target = optional(node, "target");
  if (orientation.has_value() == target.has_value())
    fail(node.path, std::string(orientation ? "found both" : "found neither") +
                        " \"orientation\" and \"target\"; expected one of them (a quaternion [x, y, z, w], or a point "
                        "looked at)");
  if (target) {
    const std::array<double, 3> t = vec3(*target, "the point looked at [x, y, z] (m)");
    const double d[3] = {t[0] - position[0], t[1] - position[1], t[2] - position[2]};
    const double horizontal = std::hypot(d[0], d[2]);
    if (!(horizontal > 1e-9 * std::hypot(horizontal, d[1])))
      fail_found(*target,
                 "a point looked at that is not straight above or below the camera (the view's roll is "
                 "set by world +y; give an \"orientation\" instead)");
    look_at_orientation(c.position, t.data(), c.orientation);
  } else {
    constexpr std::string_view expected = "a quaternion [x, y, z, w] of length 1 (camera to world)";
    if (!orientation->json.is_array() || orientation->size() != 4) fail_found(*orientation, expected);
    for (std::size_t i = 0; i < 4; ++i) c.orientation[i] = number(orientation->element(i), "a finite number");
    if (!unit_quaternion(c.orientation)) fail_found(*orientation, expected);
  }
  return c;
}

Track SceneReader::read_track(const Node& node, std::set<int>& ids) const {
  expect_object(node, {"id", "name", "weight", "points"}, context_of(node) + " (a track)");
  Track t;
  const Node id = required(node, "id", "the track's id, an integer");
  t.id = int_in(id, -kMaxFrame, kMaxFrame, "a track id");
  if (!ids.insert(t.id).second) fail_found(id, "an id no other track has");
  if (auto name = optional(node, "name")) t.name = string(*name, "a track name");
  if (auto weight = optional(node, "weight")) t.weight = number(*weight, "a weight >= 0", non_negative);
  const Node points = required(node, "points", "an array of [frame, u, v, confidence, key] samples");
  constexpr std::string_view expected =
      "a sample [frame, u, v, confidence, key]: key 1 where the user placed it, else 0";
  expect_array(points, "an array of [frame, u, v, confidence, key] samples");
  if (points.size() > kMaxTrackSamples) fail_found(points, "at most " + std::to_string(kMaxTrackSamples) + " samples");
  for (std::size_t k = 0; k < points.size(); ++k) {
    const Node item = points.element(k);
    if (!item.json.is_array() || item.size() != 5) fail_found(item, expected);
    TrackSample s;
    s.frame = int_in(item.element(0), 0, kMaxFrame, "a frame");
    if (!t.samples.empty() && s.frame <= t.samples.back().frame)
      fail_found(item.element(0),
                 "a frame after the previous sample's (" + std::to_string(t.samples.back().frame) + ")");
    s.uv[0] = number(item.element(1), "an image position u (px)");
    s.uv[1] = number(item.element(2), "an image position v (px)");
    s.confidence = number(item.element(3), "a confidence in [0, 1]", [](double x) { return x >= 0 && x <= 1; });
    s.key = int_in(item.element(4), 0, 1, "0 (tracked) or 1 (placed by the user)") == 1;
    t.samples.push_back(s);
  }
  return t;
}

// ---- Writing ----------------------------------------------------------------------

static OrderedJson pinhole_camera_json(const PinholeCamera& c) {
  return {{"width", c.width},
          {"height", c.height},
          {"focal", c.focal},
          {"principal", {c.principal[0], c.principal[1]}},
          {"position", vec3_json(c.position)},
          {"orientation", {c.orientation[0], c.orientation[1], c.orientation[2], c.orientation[3]}}};
}

static OrderedJson footage_json(const Footage& f) {
  OrderedJson j;
  if (!f.video.empty()) j["video"] = f.video.generic_string();
  j["fps"] = f.fps;
  j["first_frame"] = f.first_frame;
  if (f.camera) j["camera"] = pinhole_camera_json(*f.camera);
  if (!f.correspondences.empty()) {
    OrderedJson points = OrderedJson::array();
    for (const CameraCorrespondence& c : f.correspondences)
      points.push_back({{"world", vec3_json(c.world)}, {"image", {c.image[0], c.image[1]}}, {"frame", c.frame}});
    j["correspondences"] = points;
  }
  if (!f.tracks.empty()) {
    OrderedJson tracks = OrderedJson::array();
    for (const Track& t : f.tracks) {
      OrderedJson track;
      track["id"] = t.id;
      if (!t.name.empty()) track["name"] = t.name;
      track["weight"] = t.weight;
      OrderedJson points = OrderedJson::array();
      for (const TrackSample& s : t.samples) points.push_back({s.frame, s.uv[0], s.uv[1], s.confidence, s.key ? 1 : 0});
      track["points"] = points;
      tracks.push_back(track);
    }
    j["tracks"] = tracks;
  }
  return j;
}

// ---- Checking ---------------------------------------------------------------------

static Problem check_footage(const Scene& scene) {
  const Footage& f = scene.footage;
  if (!(f.fps > 0) || !std::isfinite(f.fps)) return found("footage.fps", f.fps, "a frame rate > 0");
  if (f.camera) {
    const PinholeCamera& c = *f.camera;
    if (c.width < 1 || c.height < 1)
      return "footage.camera: found a " + std::to_string(c.width) + " x " + std::to_string(c.height) +
             " image; expected a width and height >= 1 (px)";
    if (!(c.focal > 0) || !std::isfinite(c.focal))
      return found("footage.camera.focal", c.focal, "a focal length > 0 (px)");
    for (int k = 0; k < 3; ++k)
      if (!std::isfinite(c.position[k])) return found("footage.camera.position", c.position[k], "a finite number (m)");
    for (double p : c.principal)
      if (!std::isfinite(p)) return found("footage.camera.principal", p, "a finite number (px)");
    if (!unit_quaternion(c.orientation))
      return "footage.camera.orientation: expected a quaternion [x, y, z, w] of length 1";
  }
  for (std::size_t k = 0; k < f.correspondences.size(); ++k) {
    const CameraCorrespondence& c = f.correspondences[k];
    const std::string at = index_path("footage.correspondences", static_cast<long long>(k));
    for (double x : c.world)
      if (!std::isfinite(x)) return found(at + ".world", x, "a finite number (m)");
    for (double x : c.image)
      if (!std::isfinite(x)) return found(at + ".image", x, "a finite number (px)");
    if (c.frame < 0) return found(at + ".frame", c.frame, "a frame >= 0");
  }
  std::set<int> ids;
  for (std::size_t k = 0; k < f.tracks.size(); ++k) {
    const Track& t = f.tracks[k];
    const std::string at = index_path("footage.tracks", static_cast<long long>(k));
    if (!ids.insert(t.id).second) return found(at + ".id", t.id, "an id no other track has");
    if (!(t.weight >= 0) || !std::isfinite(t.weight)) return found(at + ".weight", t.weight, "a weight >= 0");
    for (std::size_t i = 0; i < t.samples.size(); ++i) {
      const TrackSample& s = t.samples[i];
      const std::string point = index_path(at + ".points", static_cast<long long>(i));
      if (s.frame < 0 || (i > 0 && s.frame <= t.samples[i - 1].frame))
        return found(point + "[0]", s.frame, "a frame >= 0 after the previous sample's");
      if (!std::isfinite(s.uv[0]) || !std::isfinite(s.uv[1])) return point + ": expected a finite image position (px)";
      if (!(s.confidence >= 0 && s.confidence <= 1))
        return found(point + "[3]", s.confidence, "a confidence in [0, 1]");
    }
  }
  return std::nullopt;
}

// ---- Its rows in the list of sections (scene_section.h) ---------------------------

// Before the objectives, whose tracks objectives read it.
extern const SceneSection kFootageSection{
    "footage",
    ReadStage::Values,
    [](const SectionInput& in, Scene& scene) -> AfterShaping {
      if (in.node) in.reader.read_footage(*in.node, scene);
      return {};
    },
    [](const Scene& scene) { return scene.footage.empty() ? OrderedJson() : footage_json(scene.footage); },
    CheckStage::Elements,
    check_footage};

}  // namespace nudge::scene_io
