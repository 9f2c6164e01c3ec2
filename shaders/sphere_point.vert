// Sphere impostors that are small on screen, as point sprites: one vertex per sphere
// instead of four, and one primitive instead of two triangles, which takes about a third
// off what CPU rasterisers (lavapipe) spend on thousands of particles a few pixels wide.
// The sprite is a screen-aligned square centred on the projected centre, just large
// enough to hold the projection of sphere.vert's square, which holds the silhouette (a
// margin would cost: most of these sprites are 2 to 4 pixels wide). The fragment shader
// ray-casts the sphere through gl_FragCoord (sphere.frag with NUDGE_POINT_SPRITE).
// The renderer sends only spheres that are small and wholly in front of the near plane
// here (pack_frame); the others go through sphere.vert. Devices that clip points by their
// centre drop a small sphere whose centre leaves the view a few pixels early (lavapipe
// clips them as squares).
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "shared_shading.h"

layout(std430, set = 0, binding = NUDGE_BINDING_SPHERES) readonly buffer Spheres {
  SphereInstance spheres[];
};

layout(location = 1) flat out vec4 out_center_radius;
layout(location = 2) flat out vec4 out_color;  // rgb: linear albedo

void main() {
  SphereInstance sphere = spheres[gl_VertexIndex];
  vec3 center = sphere.center_radius.xyz;
  float radius = sphere.center_radius.w;
  out_center_radius = sphere.center_radius;
  out_color = vec4(surface_albedo(sphere.color.rgb), sphere.color.a);  // once, not per pixel
  gl_PointSize = 1.0;

  vec3 to_center = center - frame.eye.xyz;
  float distance = length(to_center);
  if (!(radius > 0.0) || distance <= radius * 1.001) {  // eye inside: nothing to see
    gl_Position = kCulledVertex;
    return;
  }
  vec3 forward = to_center / distance;
  vec3 helper = abs(forward.y) < 0.99 ? vec3(0, 1, 0) : vec3(1, 0, 0);
  vec3 right = normalize(cross(forward, helper));
  vec3 up = cross(right, forward);
  float half_size = radius * distance / sqrt(distance * distance - radius * radius);
  vec4 clip = frame.view_projection * vec4(center, 1.0);
  vec4 along_right = frame.view_projection * vec4(right * half_size, 0.0);
  vec4 along_up = frame.view_projection * vec4(up * half_size, 0.0);
  vec2 center_ndc = clip.xy / clip.w;
  vec2 extent_ndc = vec2(0.0);
  for (int i = 0; i < 4; ++i) {
    vec4 corner = clip + (i < 2 ? along_right : -along_right) +
                  ((i & 1) == 0 ? along_up : -along_up);
    extent_ndc = max(extent_ndc, abs(corner.xy / corner.w - center_ndc));
  }
  vec2 extent_px = extent_ndc * 0.5 * frame.viewport.xy;
  gl_PointSize = 2.0 * max(extent_px.x, extent_px.y);
  gl_Position = clip;
}
