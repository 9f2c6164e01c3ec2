#include "nudge/render/draw_list.h"

#include <cmath>
#include <string>

namespace nudge::render {

namespace {

std::string element(const char* kind, std::size_t index) {
  return std::string(kind) + "[" + std::to_string(index) + "]: ";
}

// Colours may be given per item, once for all, or not at all.
bool color_count_ok(std::size_t colors, std::size_t items) { return colors == 0 || colors == 1 || colors == items; }

std::string color_count_error(const std::string& where, std::size_t colors, std::size_t items, const char* items_name) {
  return where + "has " + std::to_string(colors) + " colors for " + std::to_string(items) + " " + items_name +
         ", expected 0, 1 or " + std::to_string(items);
}

}  // namespace

Status validate(const DrawList& list) {
  const Camera& camera = list.camera;
  if (!(camera.fov_y_degrees > 0 && camera.fov_y_degrees < 180))
    return Error{"camera: fov_y_degrees is " + std::to_string(camera.fov_y_degrees) + ", expected between 0 and 180"};
  if (!(camera.near_plane > 0 && camera.far_plane > camera.near_plane))
    return Error{"camera: near_plane " + std::to_string(camera.near_plane) + " and far_plane " +
                 std::to_string(camera.far_plane) + ", expected 0 < near < far"};
  if (list.grid.visible && !(list.grid.spacing > 0 && list.grid.half_lines >= 0))
    return Error{"grid: spacing " + std::to_string(list.grid.spacing) + " and half_lines " +
                 std::to_string(list.grid.half_lines) + ", expected spacing > 0, half_lines >= 0"};

  for (std::size_t i = 0; i < list.spheres.size(); ++i) {
    if (!(list.spheres[i].radius >= 0))
      return Error{element("spheres", i) + "radius is " + std::to_string(list.spheres[i].radius) + ", expected >= 0"};
  }
  for (std::size_t i = 0; i < list.lines.size(); ++i) {
    const LineBatch& batch = list.lines[i];
    if (!color_count_ok(batch.colors.size(), batch.points.size()))
      return Error{color_count_error(element("lines", i), batch.colors.size(), batch.points.size(), "points")};
    if (!(batch.width_pixels >= 0 && std::isfinite(batch.width_pixels)))
      return Error{element("lines", i) + "width_pixels is " + std::to_string(batch.width_pixels) +
                   ", expected a finite value >= 0"};
  }
  for (std::size_t i = 0; i < list.arrows.size(); ++i) {
    const ArrowBatch& batch = list.arrows[i];
    if (batch.vectors.size() != batch.origins.size())
      return Error{element("arrows", i) + "has " + std::to_string(batch.origins.size()) + " origins but " +
                   std::to_string(batch.vectors.size()) + " vectors"};
    if (!color_count_ok(batch.colors.size(), batch.origins.size()))
      return Error{color_count_error(element("arrows", i), batch.colors.size(), batch.origins.size(), "arrows")};
    if (!std::isfinite(batch.scale) || !(batch.max_length >= 0) ||
        !(batch.width_pixels >= 0 && std::isfinite(batch.width_pixels)))
      return Error{element("arrows", i) + "scale " + std::to_string(batch.scale) + ", max_length " +
                   std::to_string(batch.max_length) + ", width_pixels " + std::to_string(batch.width_pixels) +
                   ": expected a finite scale, max_length >= 0 and a finite width >= 0"};
  }
  for (std::size_t i = 0; i < list.meshes.size(); ++i) {
    const Mesh& mesh = list.meshes[i];
    const std::size_t n = mesh.positions.size();
    if (!mesh.normals.empty() && mesh.normals.size() != n)
      return Error{element("meshes", i) + "has " + std::to_string(mesh.normals.size()) + " normals for " +
                   std::to_string(n) + " positions, expected 0 or " + std::to_string(n)};
    if (!color_count_ok(mesh.colors.size(), n))
      return Error{color_count_error(element("meshes", i), mesh.colors.size(), n, "positions")};
    if (mesh.indices.size() % 3 != 0)
      return Error{element("meshes", i) + "has " + std::to_string(mesh.indices.size()) +
                   " indices, expected a multiple of 3 (triangles)"};
    for (std::size_t k = 0; k < mesh.indices.size(); ++k) {
      if (mesh.indices[k] >= n)
        return Error{element("meshes", i) + "indices[" + std::to_string(k) + "] is " + std::to_string(mesh.indices[k]) +
                     ", but there are " + std::to_string(n) + " positions"};
    }
  }
  for (std::size_t i = 0; i < list.quads.size(); ++i) {
    const TexturedQuad& quad = list.quads[i];
    const bool positive = quad.width > 0 && quad.height > 0;
    const std::size_t expected =
        positive ? static_cast<std::size_t>(quad.width) * static_cast<std::size_t>(quad.height) * 4 : 0;
    if (!positive || quad.rgba.size() != expected)
      return Error{element("quads", i) + "rgba has " + std::to_string(quad.rgba.size()) + " bytes for a " +
                   std::to_string(quad.width) + " x " + std::to_string(quad.height) +
                   " image, expected width * height * 4 with " + "both sides positive"};
  }
  return Ok{};
}

}  // namespace nudge::render
