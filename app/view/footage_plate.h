// Seeing the scene through the camera that filmed the shot: the renderer's camera that
// matches a fitted pinhole camera, and the shot's frame as a plate behind everything,
// filling that camera's view exactly, so the 3D scene is drawn over the footage.
#pragma once

#include <cstdint>
#include <vector>

#include "nudge/pinhole_camera.h"
#include "nudge/render/draw_list.h"

namespace nudge::view {

// The renderer's camera with the pinhole's pose and vertical field of view. The renderer
// centres its projection, so a principal point off the image's centre is not honoured
// (fitted cameras have theirs at the centre). Its pixel centres lie half a pixel from
// the pinhole's: pinhole (u, v) is renderer pixel coordinate (u + 0.5, v + 0.5).
render::Camera render_camera_of(const PinholeCamera& camera);

// A quad at `depth` metres in front of the camera that covers its view exactly, showing
// `rgba` (width x height x 4 bytes, top row first; footage::to_rgba): the plate. Its depth must
// lie within the renderer camera's near and far planes, and beyond everything in the scene.
render::TexturedQuad footage_plate(const PinholeCamera& camera, int width, int height, std::vector<std::uint8_t> rgba,
                                   float depth = 500.0f);

// Where the shot's image lies in a viewport that looks through its camera: the renderer
// fits the image's height to the viewport's and centres it, so image pixel (u, v) is at
// viewport point (left + (u + 0.5) scale, top + (v + 0.5) scale), in the viewport's own
// units from its top-left corner.
struct PlateFraming {
  float scale = 1, left = 0, top = 0;
  glm::vec2 to_viewport(double u, double v) const {
    return {left + float(u + 0.5) * scale, top + float(v + 0.5) * scale};
  }
  glm::dvec2 to_image(float x, float y) const {
    return {double((x - left) / scale) - 0.5, double((y - top) / scale) - 0.5};
  }
};
PlateFraming plate_framing(const PinholeCamera& camera, float viewport_width, float viewport_height);

}  // namespace nudge::view
