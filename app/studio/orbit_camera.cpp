#include "studio/orbit_camera.h"

#include <algorithm>
#include <cmath>

namespace nudge::studio {

namespace {

float clamp_distance(float d) {
  return std::isfinite(d) ? std::clamp(d, OrbitCamera::kMinDistance, OrbitCamera::kMaxDistance)
                          : OrbitCamera::kMaxDistance;
}

// In (-180, 180], so that yaw stays precise however long the user spins.
float wrap_degrees(float degrees) {
  float wrapped = std::fmod(degrees, 360.0f);
  if (wrapped > 180.0f) wrapped -= 360.0f;
  if (wrapped <= -180.0f) wrapped += 360.0f;
  return wrapped;
}

}  // namespace

OrbitCamera::OrbitCamera(const render::Camera& camera) {
  const glm::vec3 offset = camera.eye - camera.target;
  const float length = glm::length(offset);
  pose_.target = camera.target;
  pose_.distance = clamp_distance(length);
  if (length > 0 && std::isfinite(length)) {
    const glm::vec3 d = offset / length;
    pose_.yaw = glm::degrees(std::atan2(d.x, d.z));
    pose_.pitch =
        std::clamp(glm::degrees(std::asin(std::clamp(d.y, -1.0f, 1.0f))), -kMaxPitchDegrees, kMaxPitchDegrees);
  }
  pose_.fov_y = std::clamp(camera.fov_y_degrees, 1.0f, 179.0f);
  pose_.far_floor = camera.far_plane;
  home_ = pose_;
}

glm::vec3 OrbitCamera::eye_direction() const {
  const float yaw = glm::radians(pose_.yaw), pitch = glm::radians(pose_.pitch);
  return {std::cos(pitch) * std::sin(yaw), std::sin(pitch), std::cos(pitch) * std::cos(yaw)};
}

render::Camera OrbitCamera::camera() const {
  render::Camera camera;
  camera.target = pose_.target;
  camera.eye = pose_.target + pose_.distance * eye_direction();
  camera.up = {0, 1, 0};
  camera.fov_y_degrees = pose_.fov_y;
  // As view::framing_camera does: depth range scaled with the distance.
  camera.near_plane = std::max(1e-5f, pose_.distance * 1e-3f);
  camera.far_plane = std::max(pose_.distance * 100.0f, pose_.far_floor);
  return camera;
}

void OrbitCamera::rotate(float dx_pixels, float dy_pixels) {
  pose_.yaw = wrap_degrees(pose_.yaw - dx_pixels * kDegreesPerPixel);
  pose_.pitch = std::clamp(pose_.pitch + dy_pixels * kDegreesPerPixel, -kMaxPitchDegrees, kMaxPitchDegrees);
}

void OrbitCamera::pan(float dx_pixels, float dy_pixels, float viewport_height_pixels) {
  if (!(viewport_height_pixels > 0)) return;
  // World length of one pixel in the plane through the target, facing the camera.
  const float metres_per_pixel =
      2.0f * pose_.distance * std::tan(glm::radians(pose_.fov_y) * 0.5f) / viewport_height_pixels;
  const glm::vec3 forward = -eye_direction();
  const glm::vec3 right = glm::normalize(glm::cross(forward, glm::vec3(0, 1, 0)));
  const glm::vec3 up = glm::cross(right, forward);
  // The scene follows the cursor, so the camera moves the other way; pixel y points down.
  pose_.target += metres_per_pixel * (-dx_pixels * right + dy_pixels * up);
}

void OrbitCamera::zoom(float wheel_steps) {
  pose_.distance = clamp_distance(pose_.distance * std::pow(kZoomPerStep, -wheel_steps));
}

void OrbitCamera::frame(const view::Bounds& bounds, float aspect) {
  // view::framing_camera's fit, from the current direction.
  const float radius = bounds.radius();
  const float half_y = glm::radians(pose_.fov_y) * 0.5f;
  const float half_x = std::atan(std::tan(half_y) * std::max(aspect, 0.1f));
  pose_.target = bounds.center();
  pose_.distance = clamp_distance(1.15f * radius / std::sin(std::min(half_x, half_y)));
  pose_.far_floor = 0;
}

}  // namespace nudge::studio
