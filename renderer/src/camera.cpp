#include "nudge/render/camera.h"

#include <glm/gtc/matrix_transform.hpp>

namespace nudge::render {

glm::mat4 view_matrix(const Camera& camera) { return glm::lookAtRH(camera.eye, camera.target, camera.up); }

glm::mat4 projection_matrix(const Camera& camera, float aspect) {
  glm::mat4 projection =
      glm::perspectiveRH_ZO(glm::radians(camera.fov_y_degrees), aspect, camera.near_plane, camera.far_plane);
  projection[1][1] *= -1.0f;  // Vulkan's clip space has y pointing down
  return projection;
}

std::optional<glm::vec2> project_to_pixel(const Camera& camera, glm::vec3 world, int width, int height) {
  if (width <= 0 || height <= 0) return std::nullopt;
  const float aspect = static_cast<float>(width) / static_cast<float>(height);
  const glm::vec4 clip = projection_matrix(camera, aspect) * view_matrix(camera) * glm::vec4(world, 1.0f);
  if (!(clip.w > 0.0f)) return std::nullopt;
  const glm::vec3 ndc = glm::vec3(clip) / clip.w;
  if (ndc.z < 0.0f || ndc.z > 1.0f) return std::nullopt;
  const glm::vec2 pixel{(ndc.x * 0.5f + 0.5f) * static_cast<float>(width),
                        (ndc.y * 0.5f + 0.5f) * static_cast<float>(height)};
  if (pixel.x < 0.0f || pixel.y < 0.0f || pixel.x >= static_cast<float>(width) || pixel.y >= static_cast<float>(height))
    return std::nullopt;
  return pixel;
}

}  // namespace nudge::render
