// The small scenes and checks the scene edits' tests share (scene_edits_test.cpp,
// scene_edits_random_test.cpp): a scratch folder, save-load-save stability, and two
// scenes with one of every element and reference.
#pragma once

#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "nudge/scene.h"
#include "studio/scene_edits.h"

namespace nudge::scene_edits_test {

namespace fs = std::filesystem;

// A folder of its own, in memory where the system has one (saves fsync each file).
struct TempDir {
  fs::path path;
  TempDir() {
    static int count = 0;
    const fs::path shm = "/dev/shm";
    std::error_code error;
    const fs::path base =
        fs::is_directory(shm, error) && ::access(shm.c_str(), W_OK) == 0 ? shm : fs::temp_directory_path();
    path = base / ("nudge_scene_edits_test_" + std::to_string(::getpid()) + "_" + std::to_string(count++));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() { fs::remove_all(path); }
};

inline std::string read_text(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline std::string saved_text(const Scene& scene, const fs::path& file) {
  const Status saved = save_scene(scene, file);
  REQUIRE_MESSAGE(saved.ok(), (saved.ok() ? "" : saved.error().message));
  return read_text(file);
}

// The scene is valid, and saving it, loading it and saving again gives the same text,
// which is returned.
inline std::string check_stable(const Scene& scene, const fs::path& dir) {
  const Status valid = check_scene(scene);
  REQUIRE_MESSAGE(valid.ok(), (valid.ok() ? "" : valid.error().message));
  const std::string text = saved_text(scene, dir / "first.json");
  Result<Scene> loaded = load_scene(dir / "first.json");
  REQUIRE_MESSAGE(loaded.ok(), (loaded.ok() ? "" : loaded.error().message));
  CHECK(saved_text(*loaded, dir / "second.json") == text);
  return text;
}

inline Scene ok(Result<Scene> result) {
  REQUIRE_MESSAGE(result.ok(), (result.ok() ? "" : result.error().message));
  return std::move(*result);
}

// An edit that must fail with exactly this message.
inline void check_error(const Result<Scene>& result, const std::string& message) {
  REQUIRE_FALSE(result.ok());
  CHECK(result.error().message == message);
}

inline const std::vector<double>& values(const Scene& scene, ParamId id) { return scene.params[id].value; }

inline Objective objective(ObjectiveType type) {
  Objective o;
  o.type = type;
  return o;
}

// Five particles in a row along x, 0.1 m apart, each joined to the next (springs 0-1,
// 1-2, 2-3, 3-4, the two middle ones muscles on two channels), particle 0 pinned; one
// objective of every particle kind (target {2, 3} at step 30, positions {1, 2, 4},
// travel {2}, markers 0 and 1 bound to particles 2 and 4, effort); initial velocities
// of particles 1 to 3 optimised. Its marker track is written into `dir`, where the scene
// says it was loaded from.
inline Scene chain_scene(const fs::path& dir) {
  {
    std::ofstream csv(dir / "track.csv");
    csv << "frame,marker,x,y,z\n";
    for (int frame = 0; frame <= 6; ++frame) csv << frame << ",0,0.2,1,0\n" << frame << ",1,0.4,1,0\n";
  }
  Scene scene;
  scene.name = "chain";
  scene.source = dir / "chain.json";
  scene.settings.dt = 1e-3;
  scene.settings.steps = 60;
  scene.pinned = {1, 0, 0, 0, 0};
  scene.spring_a = {0, 1, 2, 3};
  scene.spring_b = {1, 2, 3, 4};
  scene.spring_channel = {-1, 0, 1, -1};
  scene.actuation = {0, 0.2, 0.3, 0};
  scene.channels = 2;
  scene.params[ParamId::InitialPosition].value = {0, 1, 0, 0.1, 1, 0, 0.2, 1, 0, 0.3, 1, 0, 0.4, 1, 0};
  shape_parameters(scene);
  scene.params[ParamId::Stiffness].value = {100, 101, 102, 103};
  scene.params[ParamId::Mass].value = {1, 2, 3, 4, 5};
  scene.params[ParamId::ParticleRadius].value.assign(5, 0.01);
  std::vector<double>& controls = scene.params[ParamId::Controls].value;
  for (size_t k = 0; k < controls.size(); ++k) controls[k] = 0.001 * double(k + 1);
  Parameter& velocity = scene.params[ParamId::InitialVelocity];
  velocity.optimize = true;
  velocity.optimize_rows = {1, 2, 3};

  Objective target = objective(ObjectiveType::Target);
  target.particles = {2, 3};
  target.target = {1, 1, 0};
  target.step = 30;
  Objective positions = objective(ObjectiveType::Positions);
  positions.particles = {1, 2, 4};
  positions.target = {1, 0, 0, 2, 0, 0, 4, 0, 0};
  Objective travel = objective(ObjectiveType::Travel);
  travel.particles = {2};
  Objective markers = objective(ObjectiveType::Markers);
  markers.marker_file = "track.csv";
  markers.steps_per_frame = 10;
  markers.bind = {{0, 2}, {1, 4}};
  for (int frame = 0; frame <= 6; ++frame) {
    markers.samples.push_back({frame, 0, {0.2, 1, 0}});
    markers.samples.push_back({frame, 1, {0.4, 1, 0}});
  }
  scene.objectives = {target, positions, travel, markers, objective(ObjectiveType::Effort)};
  const Status valid = check_scene(scene);
  REQUIRE_MESSAGE(valid.ok(), (valid.ok() ? "" : valid.error().message));
  return scene;
}

inline RigidBody body_of(BodyShape shape, std::string name = "") {
  RigidBody body;
  body.shape = shape;
  body.name = std::move(name);
  return body;
}

// Three bodies (a sphere, a box, a capsule) and four particles (0 pinned, 1 held to
// body 0 and 3 to body 2) on springs 0-1, 1-2, 2-3; joints: a hinge from the world to
// body 0, a ball 0-1, a prismatic 1-2, a fixed 0-2, each with its own motor controls;
// objectives: target on bodies {0, 2}, orientation of {1, 2}, markers bound to bodies 1
// and 2 and to particle 0; body_density optimised for bodies 1 and 2, joint_damping for
// joints 1 and 3.
inline Scene body_scene(const fs::path& dir) {
  {
    std::ofstream csv(dir / "bodies.csv");
    csv << "frame,marker,x,y,z\n";
    for (int frame = 0; frame <= 4; ++frame)
      for (int marker = 0; marker < 3; ++marker) csv << frame << "," << marker << ",0," << 0.1 * marker << ",0\n";
  }
  Scene scene;
  scene.name = "bodies";
  scene.source = dir / "bodies.json";
  scene.settings.dt = 1e-3;
  scene.settings.steps = 40;
  scene.bodies = {body_of(BodyShape::Sphere, "ball"), body_of(BodyShape::Box, "crate"),
                  body_of(BodyShape::Capsule, "rod")};
  scene.joints = {{"hinge", JointType::Hinge, -1, 0, {0, 0, 1}, true, -0.5, 0.5, false},
                  {"ball", JointType::Ball, 0, 1, {0, 0, 1}, false, 0, 0, false},
                  {"slide", JointType::Prismatic, 1, 2, {1, 0, 0}, false, 0, 0, true},
                  {"weld", JointType::Fixed, 0, 2, {0, 1, 0}, false, 0, 0, false}};
  scene.pinned = {1, 0, 0, 0};
  scene.spring_a = {0, 1, 2};
  scene.spring_b = {1, 2, 3};
  scene.attachments = {{1, 0}, {3, 2}};
  scene.params[ParamId::InitialPosition].value = {0, 2, 0, 0.1, 2, 0, 0.2, 2, 0, 0.3, 2, 0};
  shape_parameters(scene);
  set_body_shape_size(scene.params, scene.bodies[0], 0, {0.1, 0, 0});
  set_body_shape_size(scene.params, scene.bodies[1], 1, {0.1, 0.2, 0.3});
  set_body_shape_size(scene.params, scene.bodies[2], 2, {0.05, 0.2, 0});
  scene.params[ParamId::BodyPosition].value = {0, 1, 0, 1, 1, 0, 2, 1, 0};
  scene.params[ParamId::BodyDensity].value = {100, 200, 300};
  scene.params[ParamId::JointAnchor].value = {0, 1.2, 0, 0.5, 1, 0, 1.5, 1, 0, 1, 1, 0};
  scene.params[ParamId::JointDamping].value = {0.1, 0.2, 0.3, 0.4};
  std::vector<double>& u = scene.params[ParamId::JointControl].value;
  for (int t = 0; t < scene.settings.steps; ++t)
    for (int j = 0; j < 4; ++j) u[size_t(4 * t + j)] = 10.0 * j + 0.01 * t;
  scene.params[ParamId::BodyDensity].optimize = true;
  scene.params[ParamId::BodyDensity].optimize_rows = {1, 2};
  scene.params[ParamId::JointDamping].optimize = true;
  scene.params[ParamId::JointDamping].optimize_rows = {1, 3};
  scene.params[ParamId::JointDamping].lower = 0;

  Objective target = objective(ObjectiveType::Target);
  target.bodies = {0, 2};
  target.target = {0, 0, 0};
  Objective turn = objective(ObjectiveType::Orientation);
  turn.bodies = {1, 2};
  turn.direction[0] = 0, turn.direction[1] = 1;
  Objective markers = objective(ObjectiveType::Markers);
  markers.marker_file = "bodies.csv";
  markers.steps_per_frame = 10;
  markers.bind = {{2, 0}};
  markers.bind_bodies = {{0, 1}, {1, 2}};
  for (int frame = 0; frame <= 4; ++frame)
    for (int marker = 0; marker < 3; ++marker) markers.samples.push_back({frame, marker, {0, 0.1 * marker, 0}});
  scene.objectives = {target, turn, markers};
  const Status valid = check_scene(scene);
  REQUIRE_MESSAGE(valid.ok(), (valid.ok() ? "" : valid.error().message));
  return scene;
}

}  // namespace nudge::scene_edits_test
