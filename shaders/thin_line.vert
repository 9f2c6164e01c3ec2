// Thin lines drawn as the device's own line primitives: a line list, two vertices per
// segment, the width set with vkCmdSetLineWidth (needs wideLines past one pixel). For
// widths of a pixel or two this looks like line.vert's quads, less the square caps, at
// about half the cost on CPU rasterisers (lavapipe): one primitive of two vertices
// instead of two triangles of four.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(std430, set = 0, binding = NUDGE_BINDING_SEGMENTS) readonly buffer Segments {
  LineSegment segments[];
};

layout(location = 0) out vec4 out_color;

void main() {
  LineSegment segment = segments[gl_VertexIndex >> 1];
  bool at_b = (gl_VertexIndex & 1) != 0;
  gl_Position = frame.view_projection * vec4(at_b ? segment.b.xyz : segment.a.xyz, 1.0);
  out_color = at_b ? segment.color_b : segment.color_a;
}
