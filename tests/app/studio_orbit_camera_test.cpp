// The viewport's orbit camera, checked through the renderer's own projection: rotations
// undo, a pan keeps the point under the cursor under it, zooms undo, and framing puts
// every corner of the bounds in the image.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <optional>

#include <glm/glm.hpp>

#include "nudge/render/camera.h"
#include "studio/orbit_camera.h"

using namespace nudge;
using studio::OrbitCamera;

namespace {

constexpr int kWidth = 1280, kHeight = 720;

render::Camera scene_like_camera() {
  render::Camera camera;
  camera.eye = {2.5f, 1.8f, 3.2f};
  camera.target = {0.4f, 0.5f, -0.2f};
  camera.fov_y_degrees = 50.0f;
  return camera;
}

void check_close(glm::vec3 a, glm::vec3 b, float tolerance = 1e-4f) {
  INFO("(", a.x, ", ", a.y, ", ", a.z, ") vs (", b.x, ", ", b.y, ", ", b.z, ")");
  CHECK(glm::length(a - b) < tolerance);
}

std::array<glm::vec3, 8> corners(const view::Bounds& b) {
  std::array<glm::vec3, 8> c;
  for (int i = 0; i < 8; ++i) c[i] = {(i & 1) ? b.hi.x : b.lo.x, (i & 2) ? b.hi.y : b.lo.y, (i & 4) ? b.hi.z : b.lo.z};
  return c;
}

}  // namespace

TEST_CASE("orbit camera: built from a camera, it gives the same camera back") {
  const render::Camera original = scene_like_camera();
  const OrbitCamera orbit(original);
  const render::Camera back = orbit.camera();
  check_close(back.eye, original.eye);
  check_close(back.target, original.target);
  CHECK(back.fov_y_degrees == original.fov_y_degrees);
  CHECK(back.up == glm::vec3(0, 1, 0));
  CHECK(orbit.distance() == doctest::Approx(glm::length(original.eye - original.target)));
  // The target projects to the image centre, as for the original camera.
  const std::optional<glm::vec2> centre = render::project_to_pixel(back, original.target, kWidth, kHeight);
  REQUIRE(centre.has_value());
  CHECK(centre->x == doctest::Approx(kWidth / 2.0).epsilon(1e-4));
  CHECK(centre->y == doctest::Approx(kHeight / 2.0).epsilon(1e-4));
  // Near and far planes bracket the target.
  CHECK(back.near_plane > 0.0f);
  CHECK(back.near_plane < orbit.distance());
  CHECK(back.far_plane > orbit.distance());
}

TEST_CASE("orbit camera: a rotation and its reverse give the same camera") {
  OrbitCamera orbit(scene_like_camera());
  const render::Camera before = orbit.camera();
  orbit.rotate(140.0f, -60.0f);
  const render::Camera turned = orbit.camera();
  CHECK(glm::length(turned.eye - before.eye) > 0.5f);  // it did move
  check_close(turned.target, before.target);
  CHECK(glm::length(turned.eye - turned.target) == doctest::Approx(orbit.distance()));
  orbit.rotate(-140.0f, 60.0f);
  check_close(orbit.camera().eye, before.eye);

  // Dragging right by d pixels turns by d x kDegreesPerPixel about +y; down raises the eye.
  OrbitCamera level(render::Camera{{0, 0, 5}, {0, 0, 0}});
  level.rotate(300.0f, 0.0f);  // 90 degrees
  check_close(level.camera().eye, {-5, 0, 0});
  level.rotate(0.0f, 100.0f);  // 30 degrees up
  CHECK(level.camera().eye.y == doctest::Approx(5.0 * std::sin(glm::radians(30.0))));
}

TEST_CASE("orbit camera: pitch stops short of the poles") {
  OrbitCamera orbit(scene_like_camera());
  orbit.rotate(0.0f, 10000.0f);
  CHECK(orbit.pitch_degrees() == doctest::Approx(OrbitCamera::kMaxPitchDegrees));
  const render::Camera top = orbit.camera();
  const glm::vec3 view = glm::normalize(top.target - top.eye);
  CHECK(std::abs(glm::dot(view, glm::vec3(0, 1, 0))) < 0.9999f);  // still a valid look-at
  orbit.rotate(0.0f, -20000.0f);
  CHECK(orbit.pitch_degrees() == doctest::Approx(-OrbitCamera::kMaxPitchDegrees));
}

TEST_CASE("orbit camera: a pan keeps the grabbed point under the cursor") {
  OrbitCamera orbit(scene_like_camera());
  const render::Camera before = orbit.camera();
  const float distance = orbit.distance();
  const glm::vec3 grabbed = before.target;
  const std::optional<glm::vec2> at_before = render::project_to_pixel(before, grabbed, kWidth, kHeight);
  REQUIRE(at_before.has_value());

  const float dx = 75.0f, dy = -40.0f;
  orbit.pan(dx, dy, float(kHeight));
  const render::Camera after = orbit.camera();
  const std::optional<glm::vec2> at_after = render::project_to_pixel(after, grabbed, kWidth, kHeight);
  REQUIRE(at_after.has_value());
  CHECK(at_after->x == doctest::Approx(at_before->x + dx).epsilon(1e-3));
  CHECK(at_after->y == doctest::Approx(at_before->y + dy).epsilon(1e-3));

  // Distance and direction unchanged; the target moved by the pixels' length at its depth.
  CHECK(orbit.distance() == doctest::Approx(distance));
  check_close(after.eye - after.target, before.eye - before.target);
  const float metres_per_pixel = 2.0f * distance * std::tan(glm::radians(before.fov_y_degrees) / 2) / kHeight;
  CHECK(glm::length(after.target - before.target) ==
        doctest::Approx(metres_per_pixel * std::hypot(dx, dy)).epsilon(1e-4));
  // In the view plane: perpendicular to the view direction.
  CHECK(std::abs(glm::dot(after.target - before.target, glm::normalize(before.target - before.eye))) < 1e-5f);

  orbit.pan(5.0f, 5.0f, 0.0f);  // no viewport yet: ignored
  check_close(orbit.camera().target, after.target);
}

TEST_CASE("orbit camera: zooming in then out restores the distance; it stays in range") {
  OrbitCamera orbit(scene_like_camera());
  const float distance = orbit.distance();
  orbit.zoom(1.0f);
  CHECK(orbit.distance() == doctest::Approx(distance / OrbitCamera::kZoomPerStep));
  orbit.zoom(2.5f);
  CHECK(orbit.distance() == doctest::Approx(distance / std::pow(OrbitCamera::kZoomPerStep, 3.5f)));
  orbit.zoom(-3.5f);
  CHECK(orbit.distance() == doctest::Approx(distance).epsilon(1e-5));
  check_close(orbit.camera().target, scene_like_camera().target);

  orbit.zoom(1000.0f);
  CHECK(orbit.distance() == OrbitCamera::kMinDistance);
  orbit.zoom(-1e6f);
  CHECK(orbit.distance() == OrbitCamera::kMaxDistance);
}

TEST_CASE("orbit camera: framing puts all eight corners of the bounds in the image") {
  view::Bounds bounds;
  bounds.lo = {-1.0f, 0.0f, -2.0f};
  bounds.hi = {3.0f, 1.5f, 0.5f};
  for (float aspect : {16.0f / 9.0f, 1.0f, 0.5f}) {
    const int width = int(std::lround(800 * aspect)), height = 800;
    for (float turn : {0.0f, 200.0f, 500.0f}) {
      CAPTURE(aspect);
      CAPTURE(turn);
      OrbitCamera orbit;  // the default view, turned to a few directions
      orbit.rotate(turn, turn / 4);
      orbit.frame(bounds, aspect);
      const render::Camera camera = orbit.camera();
      check_close(camera.target, bounds.center());
      glm::vec2 lo{1e9f}, hi{-1e9f};
      for (glm::vec3 corner : corners(bounds)) {
        const std::optional<glm::vec2> pixel = render::project_to_pixel(camera, corner, width, height);
        REQUIRE(pixel.has_value());
        lo = glm::min(lo, *pixel);
        hi = glm::max(hi, *pixel);
      }
      // Not lost in the distance either: the bounds fill a good part of the image.
      CHECK(std::max((hi.x - lo.x) / float(width), (hi.y - lo.y) / float(height)) > 0.4f);
    }
  }
}

TEST_CASE("orbit camera: reset returns home, and set_home moves home") {
  const render::Camera home = scene_like_camera();
  OrbitCamera orbit(home);
  orbit.rotate(50.0f, 20.0f);
  orbit.pan(10.0f, 10.0f, 500.0f);
  orbit.zoom(3.0f);
  CHECK(glm::length(orbit.camera().eye - home.eye) > 0.1f);
  orbit.reset();
  check_close(orbit.camera().eye, home.eye);
  check_close(orbit.camera().target, home.target);

  render::Camera other;
  other.eye = {0, 4, 4};
  other.target = {1, 0, 0};
  orbit.set_home(other);
  check_close(orbit.camera().eye, home.eye);  // set_home does not move the camera
  orbit.reset();
  check_close(orbit.camera().eye, other.eye);
  check_close(orbit.camera().target, other.target);
}
