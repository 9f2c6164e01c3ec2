// Ray-casts the sphere through this fragment: exact silhouette, normal and depth.
// Built three times: with NUDGE_PER_SAMPLE the position is interpolated (and the sphere
// hit tested) per sample, which anti-aliases the silhouette under MSAA; with
// NUDGE_POINT_SPRITE (sphere_point.vert) the ray comes from gl_FragCoord, which is the
// sample's position when the pipeline shades per sample.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "shared_shading.h"

#if defined(NUDGE_POINT_SPRITE)
#elif defined(NUDGE_PER_SAMPLE)
layout(location = 0) sample in vec3 in_world;
#else
layout(location = 0) in vec3 in_world;
#endif
layout(location = 1) flat in vec4 in_center_radius;
layout(location = 2) flat in vec4 in_color;  // rgb: surface_albedo(), a: alpha
layout(location = 0) out vec4 out_color;

void main() {
  vec3 eye = frame.eye.xyz;
#ifdef NUDGE_POINT_SPRITE
  vec3 direction = normalize(frame.eye_ray.xyz + gl_FragCoord.x * frame.eye_ray_dx.xyz +
                             gl_FragCoord.y * frame.eye_ray_dy.xyz);
#else
  vec3 direction = normalize(in_world - eye);
#endif
  vec3 to_center = in_center_radius.xyz - eye;
  float radius = in_center_radius.w;
  // Closest approach of the ray to the centre, computed without subtracting large
  // squares so that small far spheres keep a clean edge.
  float along = dot(to_center, direction);
  vec3 miss = to_center - along * direction;
  float miss_squared = dot(miss, miss);
  float radius_squared = radius * radius;
  if (miss_squared > radius_squared) discard;
  float t = along - sqrt(radius_squared - miss_squared);
  vec3 hit = eye + t * direction;
  vec3 normal = normalize(hit - in_center_radius.xyz);

  vec4 clip = frame.view_projection * vec4(hit, 1.0);
  if (clip.z < 0.0) discard;  // the front of the sphere is behind the near plane
  gl_FragDepth = min(clip.z / clip.w, 1.0);
  vec3 rgb = shade_albedo(in_color.rgb, normal, frame.light_direction.xyz, -direction);
  out_color = to_target(vec4(rgb, in_color.a));
}
