// What the renderer draws: plain data with no Vulkan types, built by the app each frame
// from whatever it shows (the renderer never sees engine types). Positions are in world
// units with Y up; colours are sRGB-encoded 0..1 values (see color_map.h).
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "nudge/render/camera.h"
#include "nudge/render/color_map.h"
#include "nudge/render/image.h"

namespace nudge::render {

// Particles, drawn as lit spheres (ray-cast impostors with exact depth).
struct Sphere {
  glm::vec3 center{0, 0, 0};
  float radius = 0.05f;
  Rgba color{0.9f, 0.9f, 0.9f, 1};
};

// Unlit lines of constant width on screen (springs, trajectories). Either segments
// (points 0-1, 2-3, ...; an odd last point is ignored) or one polyline through every
// point when `strip`. colors: one per point (interpolated along each segment), a single
// colour for all, or none (white).
struct LineBatch {
  std::vector<glm::vec3> points;
  std::vector<Rgba> colors;
  float width_pixels = 2;
  bool strip = false;
};

// Unlit arrows with a head (vector fields, gradients). Arrow i starts at origins[i] and
// points along vectors[i]; its drawn length in world units is
// min(|vectors[i]| * scale, max_length). Zero vectors draw nothing.
// colors: one per arrow, a single colour for all, or none (white).
struct ArrowBatch {
  std::vector<glm::vec3> origins, vectors;
  std::vector<Rgba> colors;
  float scale = 1;
  float max_length = INFINITY;
  float width_pixels = 3;
};

// A lit triangle mesh (cloth, soft and rigid bodies), lit on both sides. normals: one
// per position, or none (smooth normals are then computed from the triangles; give
// vertices their own copies for flat shading). colors: one per position, a single colour
// for all, or none (light grey). indices: three per triangle.
struct Mesh {
  std::vector<glm::vec3> positions, normals;
  std::vector<Rgba> colors;
  std::vector<std::uint32_t> indices;
};

enum class TextureFilter { Nearest, Linear };

// An unlit image on a quadrilateral in the world (fields, footage plates). corners in
// the order of the image's top-left, top-right, bottom-right, bottom-left; rgba is
// width * height * 4 bytes, row-major, top row first. Texels with alpha 0 are not drawn.
struct TexturedQuad {
  std::array<glm::vec3, 4> corners{};
  int width = 0, height = 0;
  std::vector<std::uint8_t> rgba;
  TextureFilter filter = TextureFilter::Nearest;
};

// A vertical colour bar with min, max and a label, in the top-right corner of the screen
// (several legends stand side by side, leftwards). Where exactly: legend_layout.h.
struct Legend {
  ColorMap map = ColorMap::Sequential;
  float min = 0, max = 1;
  std::string label;
};

// Ground grid on the plane y = height, `half_lines` lines each side of the origin every
// `spacing`, fading with distance; the X axis drawn red and the Z axis blue.
struct Grid {
  bool visible = true;
  float height = 0;
  float spacing = 0.25f;
  int half_lines = 20;
  bool axes = true;
};

struct DrawList {
  Camera camera;
  Rgba background{0.11f, 0.12f, 0.14f, 1};
  Grid grid;
  glm::vec3 light_direction{0.35f, 1.0f, 0.55f};  // from surfaces toward the light; any length
  std::vector<Sphere> spheres;
  std::vector<LineBatch> lines;
  std::vector<ArrowBatch> arrows;
  std::vector<Mesh> meshes;
  std::vector<TexturedQuad> quads;
  std::vector<Legend> legends;
};

// Checks what record() needs: array sizes that agree, textures whose byte count matches
// their size. The error names the element, e.g. "quads[2]: rgba has 12 bytes, ...".
Status validate(const DrawList& list);

}  // namespace nudge::render
