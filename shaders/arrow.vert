// Arrows: a shaft quad of constant width on screen (vertices 0-5) and a triangular head
// (vertices 6-8) whose size is in pixels, shrunk on short arrows to at most 45 % of the
// arrow's length on screen.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "screen_space.glsl"

layout(std430, set = 0, binding = NUDGE_BINDING_ARROWS) readonly buffer Arrows {
  ArrowInstance arrows[];
};

layout(location = 0) out vec4 out_color;

void main() {
  const vec2 shaft[6] = vec2[](vec2(0, -1), vec2(1, -1), vec2(1, 1),
                               vec2(0, -1), vec2(1, 1), vec2(0, 1));
  ArrowInstance arrow = arrows[gl_InstanceIndex];
  out_color = arrow.color;
  vec4 tail = frame.view_projection * vec4(arrow.origin.xyz, 1.0);
  vec4 tip = frame.view_projection * vec4(arrow.tip.xyz, 1.0);
  float t_tail, t_tip;
  vec2 along = vec2(0.0);
  if (clip_to_near_plane(tail, tip, t_tail, t_tip)) along = to_pixels(tip) - to_pixels(tail);
  float length_px = length(along);
  if (length_px < 1e-3) {
    gl_Position = kCulledVertex;
    return;
  }
  vec2 direction = along / length_px;
  vec2 normal = vec2(-direction.y, direction.x);
  float width = arrow.origin.w;

  float nominal_head = max(4.0 * width, 10.0);
  float head_length = min(nominal_head, 0.45 * length_px);
  float head_half_width = max(1.6 * width, 4.5) * (head_length / nominal_head);
  // The head's base lies a fraction f of the way along on screen; under perspective that
  // is t = f w_tail / (f w_tail + (1 - f) w_tip) along the clip-space segment.
  float f = 1.0 - head_length / length_px;
  float t = f * tail.w / (f * tail.w + (1.0 - f) * tip.w);
  vec4 base = mix(tail, tip, t);

  int v = gl_VertexIndex;
  if (v < 6) {
    vec2 corner = shaft[v];
    vec4 position = corner.x > 0.5 ? base : tail;
    gl_Position = offset_by_pixels(position, normal * corner.y * 0.5 * width);
  } else if (v == 6) {
    gl_Position = offset_by_pixels(base, normal * head_half_width);
  } else if (v == 7) {
    gl_Position = offset_by_pixels(base, -normal * head_half_width);
  } else {
    gl_Position = tip;
  }
}
