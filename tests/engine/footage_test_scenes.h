// A filmed shot for the tests of screen-space objectives: a weight swinging and bouncing
// on a damped spring under a pinned anchor, seen by a pinhole camera at 50 frames per
// second (20 simulation steps per frame), and tracks made by projecting its motion.
#pragma once

#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "nudge/scene.h"
#include "nudge/simulator.h"
#include "gradient_outcome.h"

namespace nudge::test {

inline std::string file_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline PinholeCamera make_shot_camera() {
  PinholeCamera camera;
  camera.width = 640, camera.height = 480;
  camera.focal = 700;
  camera.principal[0] = 319.5, camera.principal[1] = 239.5;
  const double eye[3] = {0.4, 0.9, 2.6}, target[3] = {0.0, 0.55, 0.0};
  std::copy(eye, eye + 3, camera.position);
  look_at_orientation(eye, target, camera.orientation);
  return camera;
}

// The anchor (particle 0, pinned) at (0, 1, 0); the weight (particle 1) let go sideways
// and forwards of its rest place, so it swings in 3D and bounces on the spring.
inline Scene make_spring_shot(double stiffness = 60.0, double damping = 0.25, int frames = 50) {
  Scene scene;
  scene.name = "spring shot";
  scene.settings.dt = 1e-3;
  scene.settings.steps = frames * 20;
  scene.pinned = {1, 0};
  scene.spring_a = {0};
  scene.spring_b = {1};
  scene.spring_channel = {-1};
  scene.actuation = {0};
  scene.params[ParamId::InitialPosition].value = {0.0, 1.0, 0.0, 0.25, 0.45, 0.12};
  shape_parameters(scene);
  scene.params[ParamId::RestLength].value = {0.4};
  scene.params[ParamId::Mass].value = {1.0, 0.5};
  scene.params[ParamId::InitialVelocity].value = {0, 0, 0, 0.0, 0.3, -0.2};
  scene.params[ParamId::Stiffness].value = {stiffness};
  scene.params[ParamId::Damping].value = {damping};
  scene.params[ParamId::Gravity].value = {0.0, -9.81, 0.0};
  scene.footage.fps = 50;
  scene.footage.camera = make_shot_camera();
  return scene;
}

// Track `id` of particle p's projection at every frame of the trajectory (confidence 1).
inline Track projected_track(const Scene& scene, const Trajectory& traj, int id, int p) {
  Track track;
  track.id = id;
  const int spf = *steps_per_frame(scene.footage.fps, scene.settings.dt);
  for (int frame = 0; frame * spf <= traj.steps; ++frame) {
    TrackSample s;
    s.frame = frame + scene.footage.first_frame;
    const double* x = &traj.x[(size_t(frame) * spf * traj.particles + p) * 3];
    project_point(*scene.footage.camera, x, s.uv);
    track.samples.push_back(s);
  }
  return track;
}

inline Objective tracks_objective(std::vector<std::pair<int, int>> bind, double weight = 1.0) {
  Objective o;
  o.type = ObjectiveType::Tracks;
  o.bind = std::move(bind);
  o.weight = weight;
  return o;
}

}  // namespace nudge::test
