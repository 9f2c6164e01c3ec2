// Lines of constant width on screen: each segment is a quad expanded around its projected
// ends (square caps of half the width, so that the segments of a strip join without gaps).
// Does not rely on wideLines.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "screen_space.glsl"

layout(std430, set = 0, binding = NUDGE_BINDING_SEGMENTS) readonly buffer Segments {
  LineSegment segments[];
};

layout(location = 0) out vec4 out_color;

void main() {
  // (end, side) of the quad's four vertices, indexed as two triangles (scene_renderer.cpp).
  const vec2 corners[4] = vec2[](vec2(0, -1), vec2(1, -1), vec2(0, 1), vec2(1, 1));
  LineSegment segment = segments[gl_VertexIndex >> 2];
  vec4 a = frame.view_projection * vec4(segment.a.xyz, 1.0);
  vec4 b = frame.view_projection * vec4(segment.b.xyz, 1.0);
  float t_a, t_b;
  out_color = vec4(0.0);
  if (!clip_to_near_plane(a, b, t_a, t_b)) {
    gl_Position = kCulledVertex;
    return;
  }
  vec2 along = to_pixels(b) - to_pixels(a);
  float length_px = length(along);
  vec2 direction = length_px > 1e-4 ? along / length_px : vec2(1.0, 0.0);
  vec2 normal = vec2(-direction.y, direction.x);
  float half_width = 0.5 * segment.a.w;

  vec2 corner = corners[gl_VertexIndex & 3];
  bool at_b = corner.x > 0.5;
  float cap = at_b ? 1.0 : -1.0;
  vec4 position = at_b ? b : a;
  gl_Position = offset_by_pixels(position, (normal * corner.y + direction * cap) * half_width);
  out_color = mix(segment.color_a, segment.color_b, at_b ? t_b : t_a);
}
