// Anti-aliased grid lines from screen-space derivatives: minor lines every spacing, major
// lines every 4, the X axis (z = 0) red and the Z axis (x = 0) blue. Lines fade towards
// the edge of the grid and where they would crowd closer than a few pixels (moire).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(location = 0) in vec3 in_world;
layout(location = 0) out vec4 out_color;

// Coverage of lines at integer values of `coord`, `width_px` pixels wide.
float line_coverage(vec2 coord, float width_px) {
  vec2 per_pixel = max(fwidth(coord), vec2(1e-6));
  vec2 distance_px = abs(fract(coord - 0.5) - 0.5) / per_pixel;
  return 1.0 - clamp(min(distance_px.x, distance_px.y) - 0.5 * width_px + 0.5, 0.0, 1.0);
}

float axis_coverage(float coord, float width_px) {
  float distance_px = abs(coord) / max(fwidth(coord), 1e-6);
  return 1.0 - clamp(distance_px - 0.5 * width_px + 0.5, 0.0, 1.0);
}

void main() {
  float spacing = frame.grid.y;
  float extent = spacing * frame.grid.z;
  vec2 xz = in_world.xz;
  vec2 cells = xz / spacing;

  // Fade out lines that get denser than about one every 4 pixels; major lines last longer.
  vec2 cells_per_pixel = fwidth(cells);
  float crowding = max(cells_per_pixel.x, cells_per_pixel.y);
  float minor_fade = 1.0 - smoothstep(0.12, 0.3, crowding);
  float major_fade = 1.0 - smoothstep(0.5, 1.2, crowding);
  float edge_fade = 1.0 - smoothstep(0.45 * extent, extent, length(xz));

  float minor = line_coverage(cells, 1.0) * minor_fade;
  float major = line_coverage(cells / 4.0, 1.4) * major_fade;
  vec4 color = vec4(0.55, 0.58, 0.63, max(0.22 * minor, 0.42 * major));

  if (frame.grid.w > 0.5) {
    float x_axis = axis_coverage(xz.y, 2.0);
    float z_axis = axis_coverage(xz.x, 2.0);
    color = mix(color, vec4(0.86, 0.24, 0.24, 0.95), x_axis);
    color = mix(color, vec4(0.25, 0.45, 0.92, 0.95), z_axis);
  }
  color.a *= edge_fade;
  if (color.a < 1.0 / 512.0) discard;
  out_color = to_target(color);
}
