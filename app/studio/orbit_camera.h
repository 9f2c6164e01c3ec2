// The viewport's camera as the mouse moves it: it orbits a target point at a distance, at
// a yaw around the world's +y axis and a pitch above the horizon. Built from and turned
// back into the renderer's eye/target camera; y is always up.
#pragma once

#include <glm/glm.hpp>

#include "nudge/render/camera.h"
#include "view/scene_draw.h"

namespace nudge::studio {

class OrbitCamera {
public:
  static constexpr float kDegreesPerPixel = 0.3f;   // rotate
  static constexpr float kZoomPerStep = 1.15f;      // zoom: distance factor per wheel step
  static constexpr float kMaxPitchDegrees = 89.0f;  // keeps the view off the poles, where up is undefined
  static constexpr float kMinDistance = 1e-3f;      // m
  static constexpr float kMaxDistance = 1e5f;       // m

  OrbitCamera() : OrbitCamera(render::Camera{}) {}
  // Takes the camera's target, distance, direction and field of view (its `up` is
  // ignored), and makes it the home that reset() returns to.
  explicit OrbitCamera(const render::Camera& camera);

  render::Camera camera() const;

  // Dragging right turns the scene to the right; dragging down looks from higher up.
  void rotate(float dx_pixels, float dy_pixels);
  // Moves the target in the view plane so that a point at the target's depth stays under
  // the cursor; the distance and angles are unchanged.
  void pan(float dx_pixels, float dy_pixels, float viewport_height_pixels);
  // Positive steps move closer: distance / kZoomPerStep^steps, clamped.
  void zoom(float wheel_steps);
  // Looks at the centre of the bounds from the current direction, from the nearest distance
  // at which their bounding sphere fits the view at this aspect (width / height).
  void frame(const view::Bounds& bounds, float aspect);

  void set_home(const render::Camera& camera) { home_ = OrbitCamera(camera).pose_; }
  void reset() { pose_ = home_; }

  glm::vec3 target() const { return pose_.target; }
  float distance() const { return pose_.distance; }
  float yaw_degrees() const { return pose_.yaw; }  // 0 looks along -z, from +z
  float pitch_degrees() const { return pose_.pitch; }
  float fov_y_degrees() const { return pose_.fov_y; }

private:
  struct Pose {
    glm::vec3 target{0, 0, 0};
    float distance = 1;
    float yaw = 0;    // degrees
    float pitch = 0;  // degrees
    float fov_y = 45;
    float far_floor = 0;  // the far plane stays at least this far: the scene's own camera's
  };

  glm::vec3 eye_direction() const;  // unit vector from the target to the eye

  Pose pose_;
  Pose home_;
};

}  // namespace nudge::studio
