#include "view/footage_plate.h"

#include "nudge/quat.h"

namespace nudge::view {

namespace {

glm::vec3 axis(const PinholeCamera& camera, Vec3<double> local) {
  const double* q = camera.orientation;
  const Vec3<double> v = rotate(Quat<double>{q[0], q[1], q[2], q[3]}, local);
  return {float(v.x), float(v.y), float(v.z)};
}

}  // namespace

render::Camera render_camera_of(const PinholeCamera& camera) {
  render::Camera out;
  out.eye = {float(camera.position[0]), float(camera.position[1]), float(camera.position[2])};
  out.target = out.eye + axis(camera, {0, 0, -1});
  out.up = axis(camera, {0, 1, 0});
  out.fov_y_degrees = float(vertical_fov_degrees(camera));
  return out;
}

render::TexturedQuad footage_plate(const PinholeCamera& camera, int width, int height, std::vector<std::uint8_t> rgba,
                                   float depth) {
  render::TexturedQuad quad;
  const glm::vec3 eye{float(camera.position[0]), float(camera.position[1]), float(camera.position[2])};
  const glm::vec3 right = axis(camera, {1, 0, 0}), up = axis(camera, {0, 1, 0}), forward = axis(camera, {0, 0, -1});
  // The image's outer edges lie half a pixel beyond the corner pixels' centres.
  const auto corner = [&](double u, double v) {
    const float x = float((u - camera.principal[0]) / camera.focal),
                y = float((camera.principal[1] - v) / camera.focal);
    return eye + depth * (forward + x * right + y * up);
  };
  const double w = camera.width, h = camera.height;
  quad.corners = {corner(-0.5, -0.5), corner(w - 0.5, -0.5), corner(w - 0.5, h - 0.5), corner(-0.5, h - 0.5)};
  quad.width = width, quad.height = height;
  quad.rgba = std::move(rgba);
  quad.filter = render::TextureFilter::Linear;
  return quad;
}

PlateFraming plate_framing(const PinholeCamera& camera, float viewport_width, float viewport_height) {
  PlateFraming framing;
  framing.scale = viewport_height / float(camera.height);
  framing.left = 0.5f * (viewport_width - framing.scale * float(camera.width));
  return framing;
}

}  // namespace nudge::view
