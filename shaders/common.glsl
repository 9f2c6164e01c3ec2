// Declarations every stage shares: the frame uniforms and the colour output conversion.
#ifndef NUDGE_SHADERS_COMMON_GLSL
#define NUDGE_SHADERS_COMMON_GLSL

#include "shared_types.h"

layout(std140, set = 0, binding = NUDGE_BINDING_FRAME) uniform Frame {
  FrameUniforms frame;
};

// True when the target is an _SRGB format: the hardware encodes what we write, so the
// sRGB-encoded colours of the draw list are decoded first and show as given.
layout(constant_id = NUDGE_SPEC_TARGET_IS_SRGB) const bool kTargetIsSrgb = false;

vec4 to_target(vec4 c) {
  if (!kTargetIsSrgb) return c;
  vec3 low = c.rgb / 12.92;
  vec3 high = pow((c.rgb + 0.055) / 1.055, vec3(2.4));
  return vec4(mix(high, low, lessThanEqual(c.rgb, vec3(0.04045))), c.a);
}

// Vertex positions that lie outside the clip volume: an instance that must draw nothing
// puts all its vertices here.
const vec4 kCulledVertex = vec4(2.0, 2.0, 2.0, 1.0);

#endif
