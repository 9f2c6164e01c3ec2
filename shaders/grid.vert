// Ground grid: one quad on the plane y = frame.grid.x covering the grid's extent; the
// fragment shader draws the lines.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(location = 0) out vec3 out_world;

void main() {
  const vec2 corners[6] = vec2[](vec2(-1, -1), vec2(1, -1), vec2(1, 1),
                                 vec2(-1, -1), vec2(1, 1), vec2(-1, 1));
  float extent = frame.grid.y * frame.grid.z;  // spacing * half line count
  vec2 xz = corners[gl_VertexIndex] * extent;
  out_world = vec3(xz.x, frame.grid.x, xz.y);
  gl_Position = frame.view_projection * vec4(out_world, 1.0);
}
