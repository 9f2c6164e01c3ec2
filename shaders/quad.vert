// Textured quads: two triangles per instance, corners 0-1-2 and 0-2-3.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(std430, set = 0, binding = NUDGE_BINDING_QUADS) readonly buffer Quads {
  QuadInstance quads[];
};

layout(location = 0) out vec2 out_uv;
layout(location = 1) flat out uvec4 out_texels;

void main() {
  const int corner_of_vertex[6] = int[](0, 1, 2, 0, 2, 3);
  const vec2 uv_of_corner[4] = vec2[](vec2(0, 0), vec2(1, 0), vec2(1, 1), vec2(0, 1));
  QuadInstance quad = quads[gl_InstanceIndex];
  int corner = corner_of_vertex[gl_VertexIndex];
  out_uv = uv_of_corner[corner];
  out_texels = quad.texels;
  gl_Position = frame.view_projection * vec4(quad.corners[corner].xyz, 1.0);
}
