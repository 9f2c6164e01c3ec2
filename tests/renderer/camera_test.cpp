// Camera matrices and project_to_pixel: the tests of the passes rely on them.
#include <doctest/doctest.h>

#include "nudge/render/camera.h"

using namespace nudge::render;

TEST_CASE("project_to_pixel: the target is the image centre; up is up, right is right") {
  Camera camera;
  camera.eye = {0, 0, 5};
  camera.target = {0, 0, 0};
  const auto centre = project_to_pixel(camera, {0, 0, 0}, 200, 100);
  REQUIRE(centre);
  CHECK(centre->x == doctest::Approx(100.0));
  CHECK(centre->y == doctest::Approx(50.0));
  const auto above = project_to_pixel(camera, {0, 1, 0}, 200, 100);
  const auto right = project_to_pixel(camera, {1, 0, 0}, 200, 100);
  REQUIRE(above);
  REQUIRE(right);
  CHECK(above->y < 50.0f);  // y down in pixels
  CHECK(right->x > 100.0f);
  // Square pixels: one world unit is as many pixels across as up.
  CHECK(right->x - 100.0f == doctest::Approx(50.0f - above->y));
  // tan(22.5 deg) * 5 world units fill half the height.
  const auto top = project_to_pixel(camera, {0, 5 * 0.41421356f * 0.999f, 0}, 200, 100);
  REQUIRE(top);
  CHECK(top->y == doctest::Approx(0.05).epsilon(0.01));
}

TEST_CASE("project_to_pixel: nothing behind the eye or outside the image") {
  Camera camera;
  camera.eye = {0, 0, 5};
  CHECK_FALSE(project_to_pixel(camera, {0, 0, 6}, 100, 100));
  CHECK_FALSE(project_to_pixel(camera, {50, 0, 0}, 100, 100));
  CHECK_FALSE(project_to_pixel(camera, {0, 0, -5000}, 100, 100));  // beyond the far plane
}

TEST_CASE("projection_matrix: Vulkan depth runs 0 at the near plane to 1 at the far plane") {
  Camera camera;
  camera.eye = {0, 0, 0};
  camera.target = {0, 0, -1};
  camera.near_plane = 0.5f;
  camera.far_plane = 100;
  const glm::mat4 m = projection_matrix(camera, 1.0f) * view_matrix(camera);
  const glm::vec4 near_point = m * glm::vec4(0, 0, -0.5f, 1);
  const glm::vec4 far_point = m * glm::vec4(0, 0, -100, 1);
  CHECK(near_point.z / near_point.w == doctest::Approx(0.0).epsilon(1e-6));
  CHECK(far_point.z / far_point.w == doctest::Approx(1.0).epsilon(1e-6));
}
