// Helpers for geometry that is expanded on screen (lines, arrows): widths in pixels.
#ifndef NUDGE_SHADERS_SCREEN_SPACE_GLSL
#define NUDGE_SHADERS_SCREEN_SPACE_GLSL

// Clips the segment a-b (clip space) to the near plane z >= 0, moving `t_a` / `t_b`
// (the parameters of the ends along the original segment) with it. False when all of it
// lies behind the plane. Needed because the screen-space expansion divides by w.
bool clip_to_near_plane(inout vec4 a, inout vec4 b, out float t_a, out float t_b) {
  t_a = 0.0;
  t_b = 1.0;
  if (a.z < 0.0 && b.z < 0.0) return false;
  if (a.z < 0.0) {
    t_a = a.z / (a.z - b.z);
    a = mix(a, b, t_a);
  } else if (b.z < 0.0) {
    t_b = a.z / (a.z - b.z);
    b = mix(a, b, t_b);
  }
  return true;
}

// Pixels from the centre of the screen, for a clip-space position in front of the eye.
vec2 to_pixels(vec4 clip) {
  return clip.xy / clip.w * (0.5 * frame.viewport.xy);
}

// Moves a clip-space position by `offset` pixels on screen, keeping its depth.
vec4 offset_by_pixels(vec4 clip, vec2 offset) {
  clip.xy += offset * 2.0 * frame.viewport.zw * clip.w;
  return clip;
}

#endif
