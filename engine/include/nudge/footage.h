// A shot that a scene is matched to: the video it came from, when its frames happen in
// the simulation, the camera that filmed it and the 2D tracks followed through it. The
// engine reads the tracks for screen-space objectives ("tracks"); it never decodes video
// (the app does, with FFmpeg).
#pragma once

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "nudge/pinhole_camera.h"

namespace nudge {

// One observation of a tracked feature.
struct TrackSample {
  int frame = 0;            // frame of the video, 0-based
  double uv[2] = {0, 0};    // image position, px
  double confidence = 1.0;  // in [0, 1]: the tracker's, or 1 for a point the user placed
  bool key = false;         // placed (or corrected) by the user; trackers keep it

  bool operator==(const TrackSample&) const = default;
};

struct Track {
  int id = 0;
  std::string name;
  double weight = 1.0;               // this track's share in a tracks objective, >= 0
  std::vector<TrackSample> samples;  // ascending frames, each at most once

  bool operator==(const Track&) const = default;
  double mean_confidence() const {
    double sum = 0;
    for (const TrackSample& s : samples) sum += s.confidence;
    return samples.empty() ? 0.0 : sum / double(samples.size());
  }
};

// A point whose place in the world is known (a ground corner, an end of a measured rod)
// and where the user clicked it in the image: what the camera is fitted to.
struct CameraCorrespondence {
  double world[3] = {0, 0, 0};  // m
  double image[2] = {0, 0};     // px
  int frame = 0;                // the frame it was placed on (the camera does not move)

  bool operator==(const CameraCorrespondence&) const = default;
};

struct Footage {
  std::filesystem::path video;  // as written in the scene (resolved against its folder); may be empty
  double fps = 24.0;            // frames per second of the shot
  int first_frame = 0;          // the frame shown at simulation step 0
  std::optional<PinholeCamera> camera;
  std::vector<CameraCorrespondence> correspondences;
  std::vector<Track> tracks;

  bool operator==(const Footage&) const = default;
  bool empty() const { return video.empty() && !camera && correspondences.empty() && tracks.empty(); }
  const Track* track(int id) const {
    for (const Track& t : tracks)
      if (t.id == id) return &t;
    return nullptr;
  }
  // The id a new track gets: one more than the largest (0 for the first).
  int next_track_id() const {
    int id = -1;
    for (const Track& t : tracks) id = std::max(id, t.id);
    return id + 1;
  }
};

// Simulation steps per frame of the shot: 1 / (fps dt) when that is an integer (to within
// 1e-6 relative), else nothing: frames would fall between steps.
std::optional<int> steps_per_frame(double fps, double dt);

// The simulation step at which frame `frame` of the shot happens (may lie outside [0, T]).
inline long long step_of_frame(const Footage& footage, int steps_per_frame, int frame) {
  return static_cast<long long>(frame - footage.first_frame) * steps_per_frame;
}

}  // namespace nudge
