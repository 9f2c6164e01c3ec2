#include "nudge/pinhole_camera.h"

#include <algorithm>
#include <cmath>

#include "nudge/footage.h"
#include "nudge/quat.h"

namespace nudge {

namespace {

Quat<double> orientation_of(const PinholeCamera& camera) {
  const double* q = camera.orientation;
  return {q[0], q[1], q[2], q[3]};
}

}  // namespace

double project_point(const PinholeCamera& camera, const double p[3], double uv[2], double jacobian[2][3]) {
  const Quat<double> q = orientation_of(camera);
  const Vec3<double> offset{p[0] - camera.position[0], p[1] - camera.position[1], p[2] - camera.position[2]};
  const Vec3<double> c = inverse_rotate(q, offset);  // camera coordinates
  const double depth = -c.z;
  if (depth < kMinProjectionDepth) return depth;
  const double f = camera.focal, inv = 1.0 / depth;
  uv[0] = camera.principal[0] + f * c.x * inv;
  uv[1] = camera.principal[1] - f * c.y * inv;
  if (jacobian) {
    // d(u, v)/dc, then through c = R^T (p - position): rows of R^T are R's columns.
    const double du[3] = {f * inv, 0.0, f * c.x * inv * inv};
    const double dv[3] = {0.0, -f * inv, -f * c.y * inv * inv};
    const Vec3<double> axes[3] = {rotate(q, Vec3<double>{1, 0, 0}), rotate(q, Vec3<double>{0, 1, 0}),
                                  rotate(q, Vec3<double>{0, 0, 1})};
    for (int k = 0; k < 3; ++k) jacobian[0][k] = jacobian[1][k] = 0.0;
    for (int a = 0; a < 3; ++a) {
      const double column[3] = {axes[a].x, axes[a].y, axes[a].z};  // dc_a/dp
      for (int k = 0; k < 3; ++k) {
        jacobian[0][k] += du[a] * column[k];
        jacobian[1][k] += dv[a] * column[k];
      }
    }
  }
  return depth;
}

void look_at_orientation(const double eye[3], const double target[3], double orientation[4]) {
  const Vec3<double> forward = normalize(Vec3<double>{target[0] - eye[0], target[1] - eye[1], target[2] - eye[2]});
  const Vec3<double> right = normalize(cross(forward, Vec3<double>{0, 1, 0}));
  const Vec3<double> up = cross(right, forward);
  const Vec3<double> back = -1.0 * forward;
  const Quat<double> q =
      quat_from_matrix(Mat33<double>{{right.x, up.x, back.x, right.y, up.y, back.y, right.z, up.z, back.z}});
  orientation[0] = q.x, orientation[1] = q.y, orientation[2] = q.z, orientation[3] = q.w;
}

double vertical_fov_degrees(const PinholeCamera& camera) {
  return 2.0 * std::atan2(0.5 * camera.height, camera.focal) * 180.0 / 3.14159265358979323846;
}

std::optional<int> steps_per_frame(double fps, double dt) {
  if (!(fps > 0) || !(dt > 0) || !std::isfinite(fps) || !std::isfinite(dt)) return std::nullopt;
  const double ratio = 1.0 / (fps * dt);
  const double nearest = std::round(ratio);
  if (nearest < 1 || nearest > 1e9 || std::abs(ratio - nearest) > 1e-6 * ratio) return std::nullopt;
  return static_cast<int>(nearest);
}

}  // namespace nudge
