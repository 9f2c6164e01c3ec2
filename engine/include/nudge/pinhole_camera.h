// A pinhole camera that filmed a shot: where 3D points land on its image, and how that
// moves with the point (the Jacobian the screen-space objective's gradient goes through).
//
// Conventions: the camera looks along its local -z with +y up and +x right (as the
// renderer's view does); `orientation` turns camera coordinates into world coordinates.
// Image coordinates are pixels with u to the right and v down, pixel centres at integer
// coordinates (OpenCV's convention, which the tracker and the camera fit share).
#pragma once

namespace nudge {

struct PinholeCamera {
  int width = 0, height = 0;                     // image size, px
  double focal = 0.0;                            // focal length, px (square pixels)
  double principal[2] = {0.0, 0.0};              // principal point (u, v), px
  double position[3] = {0.0, 0.0, 0.0};          // centre of projection, m
  double orientation[4] = {0.0, 0.0, 0.0, 1.0};  // unit quaternion {x, y, z, w}, camera to world

  bool operator==(const PinholeCamera&) const = default;
};

// Points closer than this in front of the camera (or behind it) have no image.
inline constexpr double kMinProjectionDepth = 1e-6;  // m

// The image of world point p: returns its depth in front of the camera (m), and fills uv
// when the depth is at least kMinProjectionDepth. When jacobian is given, it receives
// d(u, v)/dp as two rows of three (valid with a depth of at least kMinProjectionDepth).
double project_point(const PinholeCamera& camera, const double p[3], double uv[2], double jacobian[2][3] = nullptr);

// The orientation of a camera at `eye` looking at `target` with world +y up (the view has
// no roll). eye and target must differ, and the view must not be straight up or down.
void look_at_orientation(const double eye[3], const double target[3], double orientation[4]);

// The vertical field of view (degrees) of the camera's image.
double vertical_fov_degrees(const PinholeCamera& camera);

}  // namespace nudge
