// A perspective camera and the matrices the renderer draws with. Y is up in the world;
// clip space is Vulkan's: y points down and depth runs 0 (near) to 1 (far).
#pragma once

#include <optional>

#include <glm/glm.hpp>

namespace nudge::render {

struct Camera {
  glm::vec3 eye{3, 2, 3};
  glm::vec3 target{0, 0, 0};
  glm::vec3 up{0, 1, 0};
  float fov_y_degrees = 45;
  float near_plane = 0.01f;
  float far_plane = 1000;
};

glm::mat4 view_matrix(const Camera& camera);
// aspect = width / height.
glm::mat4 projection_matrix(const Camera& camera, float aspect);

// Where a world point lands in a width x height image, in continuous pixel coordinates
// (x right, y down): pixel (i, j) covers [i, i + 1) x [j, j + 1), so its centre is
// (i + 0.5, j + 0.5) and floor() of the result names the pixel. Empty when the point is
// behind the near plane, beyond the far plane, or outside the image.
std::optional<glm::vec2> project_to_pixel(const Camera& camera, glm::vec3 world, int width, int height);

}  // namespace nudge::render
