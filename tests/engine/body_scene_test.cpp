// The scene file's rigid bodies: what loads (a scene of bodies alone needs no particles),
// what saves and loads back the same, and the clear error each bad value gets.
#include <doctest/doctest.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "nudge/scene.h"

using namespace nudge;

namespace {

std::string scene_with_bodies(std::string_view bodies, std::string_view objectives = "[]") {
  return std::string(R"({"format": "nudge-scene", "version": 1,
 "simulation": {"dt": 0.01, "steps": 10},
 "bodies": )") +
         std::string(bodies) + ",\n \"objectives\": " + std::string(objectives) + "}";
}

constexpr std::string_view kBodies = R"([
   {"name": "ball", "shape": "sphere", "radius": 0.1, "density": 700, "position": [0, 1, 0],
    "velocity": [1, 0, 0], "angular_velocity": [0, 0, 3]},
   {"shape": "box", "half_extents": [0.1, 0.2, 0.3], "position": [1, 1, 0], "orientation": [0, 0, 0.6, 0.8]},
   {"shape": "capsule", "radius": 0.05, "half_length": 0.2, "position": [2, 1, 0]}])";

std::string error_of(const std::string& text) {
  Result<Scene> scene = parse_scene(text, "bad.json");
  REQUIRE_FALSE(scene.ok());
  return scene.error().message;
}

std::string file_text(const std::filesystem::path& p) {
  std::string text;
  FILE* f = std::fopen(p.string().c_str(), "rb");
  for (int c; f && (c = std::fgetc(f)) != EOF;) text.push_back(static_cast<char>(c));
  if (f) std::fclose(f);
  return text;
}

}  // namespace

TEST_CASE("body scenes: shapes, values and defaults load; no particles are needed") {
  Result<Scene> scene = parse_scene(
      scene_with_bodies(kBodies, R"([{"type": "target", "bodies": [0, 2], "target": [1, 0, 0]}])"), "b.json");
  REQUIRE_MESSAGE(scene.ok(), (scene.ok() ? "" : scene.error().message));
  CHECK(scene->particle_count() == 0);
  REQUIRE(scene->body_count() == 3);
  CHECK(scene->bodies[0].name == "ball");
  CHECK(scene->bodies[1].shape == BodyShape::Box);
  CHECK(scene->params[ParamId::BodyHalfExtents].value[5] == 0.3);
  CHECK(scene->params[ParamId::BodyHalfLength].value[2] == 0.2);
  CHECK(scene->params[ParamId::BodyRadius].value ==
        std::vector<double>{scene->params[ParamId::BodyRadius].value[0], 0, 0.05});
  const ParameterSet& p = scene->params;
  CHECK(p[ParamId::BodyDensity].value == std::vector<double>{700, 1000, 1000});
  CHECK(p[ParamId::BodyOrientation].value == std::vector<double>{0, 0, 0, 1, 0, 0, 0.6, 0.8, 0, 0, 0, 1});
  CHECK(p[ParamId::BodyAngularVelocity].value[2] == 3);
  CHECK(scene->objectives[0].bodies == std::vector<int>{0, 2});
  CHECK(scene->objectives[0].particles.empty());
}

TEST_CASE("body scenes: save and load give the same scene, and the same file again") {
  Result<Scene> scene = parse_scene(
      scene_with_bodies(kBodies, R"([{"type": "velocity", "bodies": [1], "target": [0, 0, 0]}])"), "b.json");
  REQUIRE(scene.ok());
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "nudge-body-scene-test";
  std::filesystem::create_directories(dir);
  REQUIRE(save_scene(*scene, dir / "a.json").ok());
  Result<Scene> again = load_scene(dir / "a.json");
  REQUIRE_MESSAGE(again.ok(), (again.ok() ? "" : again.error().message));
  REQUIRE(save_scene(*again, dir / "b.json").ok());
  CHECK(file_text(dir / "a.json") == file_text(dir / "b.json"));
  for (ParamId id : {ParamId::BodyPosition, ParamId::BodyOrientation, ParamId::BodyVelocity,
                     ParamId::BodyAngularVelocity, ParamId::BodyDensity})
    CHECK(again->params[id].value == scene->params[id].value);
  CHECK(again->bodies[0].name == "ball");
  CHECK(again->objectives[0].bodies == std::vector<int>{1});
  std::filesystem::remove_all(dir);
}

TEST_CASE("body scenes: bad values say what and where") {
  const auto body = [](std::string_view b) { return error_of(scene_with_bodies("[" + std::string(b) + "]")); };
  CHECK(body(R"({"shape": "cone", "position": [0, 0, 0]})") ==
        "bad.json: $.bodies[0].shape: found \"cone\"; expected sphere, box, capsule or mesh");
  CHECK(body(R"({"shape": "sphere", "radius": 0, "position": [0, 0, 0]})") ==
        "bad.json: $.bodies[0].radius: found 0; expected a radius > 0 (m)");
  CHECK(body(R"({"shape": "box", "half_extents": [1, -1, 1], "position": [0, 0, 0]})") ==
        "bad.json: $.bodies[0].half_extents[1]: found -1; expected a half extent > 0 (m)");
  CHECK(body(R"({"shape": "sphere", "radius": 1})") ==
        "bad.json: $.bodies[0]: missing key 'position'; expected [x, y, z]: a finite position of the centre of mass "
        "(m)");
  CHECK(body(R"({"shape": "sphere", "radius": 1, "position": [0, 0, 0], "angular_velocity": [0, 1]})") ==
        "bad.json: $.bodies[0].angular_velocity: found an array of 2 values; expected [x, y, z]: a finite angular "
        "velocity (rad/s)");
  // A body's keys: its shape's own, then its fields' from the facts table.
  CHECK(body(R"({"shape": "sphere", "radius": 1, "position": [0, 0, 0], "spin": [0, 1, 0]})")
            .ends_with("expected one of: name, shape, radius, position, orientation, velocity, angular_velocity, "
                       "density"));
  CHECK(body(R"({"shape": "sphere", "radius": 1, "position": [0, 0, 0], "orientation": [0, 0, 0, 0]})") ==
        "bad.json: $.bodies[0].orientation: found an array of 4 values; expected a quaternion [x, y, z, w] of "
        "non-zero length");
  CHECK(body(R"({"shape": "sphere", "radius": 1, "position": [0, 0, 0], "density": -5})") ==
        "bad.json: $.bodies[0].density: found -5; expected a density > 0 (kg/m^3)");
  CHECK(body(R"({"shape": "sphere", "radius": 1, "position": [0, 0, 0], "half_length": 2})")
            .starts_with("bad.json: $.bodies[0].half_length: unknown key 'half_length' in bodies[0] (a sphere body)"));
  CHECK(error_of(scene_with_bodies(kBodies, R"([{"type": "target", "bodies": [3], "target": [0, 0, 0]}])")) ==
        "bad.json: $.objectives[0].bodies[0]: found 3; expected a body index in [0, 3)");
}

// Saving must keep what the physics reads: an attachment's hold (joint_settings) in a
// scene without joints, and the contact of one body with particles (tether had both
// dropped: its rope's hold went from 20000 to the default 10000 N/m).
TEST_CASE("body scenes: every example saved and loaded again keeps every setting and parameter") {
  const std::filesystem::path source = std::filesystem::path(__FILE__).parent_path().parent_path().parent_path();
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "nudge-example-resave-test";
  std::filesystem::create_directories(dir);
  for (const auto& entry : std::filesystem::directory_iterator(source / "scenes")) {
    if (entry.path().extension() != ".json") continue;
    CAPTURE(entry.path().string());
    const Result<Scene> scene = load_scene(entry.path());
    REQUIRE(scene.ok());
    const std::filesystem::path copy = dir / entry.path().filename();
    REQUIRE(save_scene(*scene, copy).ok());
    const Result<Scene> again = load_scene(copy);
    REQUIRE_MESSAGE(again.ok(), (again.ok() ? "" : again.error().message));
    const JointSettings& a = scene->joint_settings;
    const JointSettings& b = again->joint_settings;
    CHECK(a.stiffness == b.stiffness);
    CHECK(a.damping == b.damping);
    CHECK(a.angular_stiffness == b.angular_stiffness);
    CHECK(a.angular_damping == b.angular_damping);
    CHECK(a.limit_stiffness == b.limit_stiffness);
    CHECK(scene->contact.smoothing == again->contact.smoothing);
    CHECK(scene->contact.friction_smoothing == again->contact.friction_smoothing);
    CHECK(scene->contact.damp_approach_only == again->contact.damp_approach_only);
    CHECK(scene->contact.bodies == again->contact.bodies);
    CHECK(scene->contact.restitution == again->contact.restitution);
    for (int i = 0; i < kParamCount; ++i) {
      CAPTURE(param_name(ParamId(i)));
      CHECK(scene->params.items[size_t(i)].value == again->params.items[size_t(i)].value);
    }
  }
  std::filesystem::remove_all(dir);
}
