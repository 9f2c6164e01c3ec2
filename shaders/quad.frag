// Texels come from a storage buffer (RGBA8 packed in a uint) rather than an image, so the
// draw list's pictures need no upload commands outside the render pass. Filtering is done
// here: nearest, or bilinear with clamp-to-edge.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(std430, set = 0, binding = NUDGE_BINDING_TEXELS) readonly buffer Texels {
  uint texels[];
};

layout(location = 0) in vec2 in_uv;
layout(location = 1) flat in uvec4 in_texels;  // first texel, width, height, filter
layout(location = 0) out vec4 out_color;

vec4 fetch(ivec2 p) {
  ivec2 size = ivec2(in_texels.yz);
  p = clamp(p, ivec2(0), size - 1);
  return unpackUnorm4x8(texels[in_texels.x + uint(p.y * size.x + p.x)]);
}

void main() {
  vec2 size = vec2(in_texels.yz);
  vec4 color;
  if (in_texels.w == 0u) {
    color = fetch(ivec2(floor(in_uv * size)));
  } else {
    vec2 st = in_uv * size - 0.5;
    ivec2 p = ivec2(floor(st));
    vec2 f = fract(st);
    color = mix(mix(fetch(p), fetch(p + ivec2(1, 0)), f.x),
                mix(fetch(p + ivec2(0, 1)), fetch(p + ivec2(1, 1)), f.x), f.y);
  }
  if (color.a <= 0.0) discard;
  out_color = to_target(color);
}
