// Screen overlay (legends): triangles given in pixels, drawn over the scene.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(std430, set = 0, binding = NUDGE_BINDING_OVERLAY) readonly buffer Overlay {
  OverlayVertex overlay[];
};

layout(location = 0) out vec4 out_color;

void main() {
  OverlayVertex vertex = overlay[gl_VertexIndex];
  out_color = vertex.color;
  gl_Position = vec4(vertex.position.xy * frame.viewport.zw * 2.0 - 1.0, 0.0, 1.0);
}
