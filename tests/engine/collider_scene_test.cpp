// The scene file's colliders, contact settings and particle radii: what loads, what
// saves and loads back the same, and the clear error each bad value gets.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "nudge/scene.h"

using namespace nudge;

namespace {

std::string scene_with(std::string_view extra, std::string_view particles_extra = "") {
  return std::string(R"({"format": "nudge-scene", "version": 1,
 "simulation": {"dt": 0.01, "steps": 10},
 "particles": {"position": [[0, 1, 0], [1, 1, 0]])") +
         std::string(particles_extra) + "},\n " + std::string(extra) + "}";
}

constexpr std::string_view kColliders = R"("colliders": [
   {"type": "plane", "normal": [0, 2, 0], "offset": -0.5},
   {"type": "box", "position": [2, 1, 0], "orientation": [0, 0.0998334166, 0, 0.9950041653], "half_extents": [0.25, 1, 1]},
   {"type": "sphere", "position": [0, 0, 1], "radius": 0.3},
   {"type": "capsule", "position": [1, 0, 1], "radius": 0.1, "half_length": 0.5}],
 "contact": {"stiffness": 20000, "damping": 10, "friction": 0.2, "damping_mode": "both", "smoothing": 0.001})";

std::string error_of(const std::string& text) {
  Result<Scene> scene = parse_scene(text, "bad.json");
  REQUIRE_FALSE(scene.ok());
  return scene.error().message;
}

}  // namespace

TEST_CASE("collider scenes: every shape, the contact settings and radii load") {
  Result<Scene> scene = parse_scene(scene_with(kColliders, R"(, "radius": [0.1, 0.05])"), "c.json");
  REQUIRE_MESSAGE(scene.ok(), (scene.ok() ? "" : scene.error().message));
  REQUIRE(scene->colliders.size() == 4);
  const ColliderShape& plane = scene->colliders[0];
  CHECK(plane.type == ColliderType::Plane);
  CHECK(plane.normal[1] == 1.0);  // normalised
  CHECK(plane.offset == -0.5);
  CHECK(scene->colliders[1].type == ColliderType::Box);
  CHECK(scene->colliders[1].half_extents[0] == 0.25);
  CHECK(scene->colliders[2].radius == 0.3);
  CHECK(scene->colliders[3].half_length == 0.5);
  CHECK(scene->params[ParamId::ContactStiffness].value[0] == 20000);
  CHECK(scene->params[ParamId::ContactDamping].value[0] == 10);
  CHECK(scene->params[ParamId::ContactFriction].value[0] == 0.2);
  CHECK_FALSE(scene->contact.damp_approach_only);
  CHECK(scene->contact.smoothing == 0.001);
  CHECK(scene->params[ParamId::ParticleRadius].value == std::vector<double>{0.1, 0.05});

  // A scene without any of it has no colliders, radius 0 and the defaults.
  Result<Scene> plain = parse_scene(scene_with(R"("objectives": [])"), "p.json");
  REQUIRE(plain.ok());
  CHECK(plain->colliders.empty());
  CHECK(plain->params[ParamId::ParticleRadius].value == std::vector<double>{0, 0});
  CHECK(plain->contact.damp_approach_only);
}

TEST_CASE("collider scenes: save and load give the same scene, and the same file again") {
  Result<Scene> scene = parse_scene(scene_with(kColliders, R"(, "radius": 0.1)"), "c.json");
  REQUIRE(scene.ok());
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "nudge-collider-scene-test";
  std::filesystem::create_directories(dir);
  REQUIRE(save_scene(*scene, dir / "a.json").ok());
  Result<Scene> again = load_scene(dir / "a.json");
  REQUIRE_MESSAGE(again.ok(), (again.ok() ? "" : again.error().message));
  REQUIRE(save_scene(*again, dir / "b.json").ok());
  const auto read = [](const std::filesystem::path& p) {
    std::string text;
    Result<Scene> unused = load_scene(p);  // exists and loads
    CHECK(unused.ok());
    FILE* f = std::fopen(p.string().c_str(), "rb");
    for (int c; f && (c = std::fgetc(f)) != EOF;) text.push_back(static_cast<char>(c));
    if (f) std::fclose(f);
    return text;
  };
  CHECK(read(dir / "a.json") == read(dir / "b.json"));
  REQUIRE(again->colliders.size() == 4);
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK(again->colliders[i].type == scene->colliders[i].type);
    for (int k = 0; k < 3; ++k) CHECK(again->colliders[i].position[k] == scene->colliders[i].position[k]);
    for (int k = 0; k < 4; ++k) CHECK(again->colliders[i].orientation[k] == scene->colliders[i].orientation[k]);
  }
  CHECK(again->params[ParamId::ParticleRadius].value == scene->params[ParamId::ParticleRadius].value);
  CHECK(again->contact.smoothing == scene->contact.smoothing);
  std::filesystem::remove_all(dir);
}

TEST_CASE("collider scenes: bad values say what and where") {
  const auto collider = [](std::string_view body) {
    return error_of(scene_with("\"colliders\": [" + std::string(body) + "]"));
  };
  CHECK(collider(R"({"type": "cone"})") ==
        "bad.json: $.colliders[0].type: found \"cone\"; expected plane, box, sphere or capsule");
  CHECK(collider(R"({"type": "plane", "normal": [0, 0, 0]})") ==
        "bad.json: $.colliders[0].normal: found an array of 3 values; expected a non-zero direction");
  CHECK(collider(R"({"type": "sphere", "position": [0, 0, 0], "radius": -1})") ==
        "bad.json: $.colliders[0].radius: found -1; expected a radius > 0 (m)");
  CHECK(collider(R"({"type": "box", "position": [0, 0, 0], "half_extents": [1, 0, 1]})") ==
        "bad.json: $.colliders[0].half_extents[1]: found 0; expected a half extent > 0 (m)");
  CHECK(collider(R"({"type": "box", "position": [0, 0, 0], "orientation": [0, 0, 0, 2], "half_extents": [1, 1, 1]})") ==
        "bad.json: $.colliders[0].orientation: found an array of 4 values; expected a unit quaternion [x, y, z, w] "
        "(its length is 2)");
  CHECK(collider(R"({"type": "capsule", "position": [0, 0, 0], "radius": 0.1})") ==
        "bad.json: $.colliders[0]: missing key 'half_length'; expected half the axis' length > 0 (m)");
  CHECK(collider(R"({"type": "sphere", "position": [0, 0, 0], "radius": 1, "half_extents": [1, 1, 1]})")
            .starts_with("bad.json: $.colliders[0].half_extents: unknown key 'half_extents' in colliders[0] (a sphere "
                         "collider); expected one of: type, position, radius"));
  CHECK(error_of(scene_with(R"("contact": {"damping_mode": "always"})")) ==
        "bad.json: $.contact.damping_mode: found \"always\"; expected \"approach\" (damp only motion into a "
        "collider) or \"both\"");
  CHECK(error_of(scene_with(R"("contact": {"smoothing": -0.1})")) ==
        "bad.json: $.contact.smoothing: found -0.1; expected a width >= 0 (m; 0: contact switches on at the surface)");
  CHECK(
      error_of(scene_with(R"("contact": {"stifness": 1})"))
          .starts_with("bad.json: $.contact.stifness: unknown key 'stifness' in contact (did you mean 'stiffness'?)"));
  CHECK(error_of(scene_with(R"("objectives": [])", R"(, "radius": [0.1])")) ==
        "bad.json: $.particles.radius: found an array of 1 value; expected a number or an array of 2 numbers (one "
        "per particle)");
}

TEST_CASE("collider scenes: check_scene catches what code built wrong") {
  Result<Scene> scene = parse_scene(scene_with(kColliders), "c.json");
  REQUIRE(scene.ok());
  Scene bad = *scene;
  bad.colliders[1].half_extents[2] = -1;
  CHECK(check_scene(bad).error().message == "colliders[1].half_extents[2]: found -1; expected a half extent > 0 (m)");
  bad = *scene;
  bad.colliders[0].normal[0] = 1;  // (1, 1, 0): not unit
  CHECK(check_scene(bad).error().message ==
        "colliders[0].normal: not of unit length; expected a unit normal [x, y, z]");
  bad = *scene;
  bad.params[ParamId::ParticleRadius].value[1] = -0.5;
  CHECK(check_scene(bad).error().message == "particles.radius[1]: found -0.5; expected a radius >= 0 (m)");
}
