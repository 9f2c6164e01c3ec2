// Sphere impostors: each instance is a camera-facing square through the sphere's centre,
// just large enough to hold its silhouette (the cone from the eye tangent to the sphere
// cuts that plane in a circle of radius r d / sqrt(d^2 - r^2)). The fragment shader
// ray-casts the sphere.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "shared_shading.h"

layout(std430, set = 0, binding = NUDGE_BINDING_SPHERES) readonly buffer Spheres {
  SphereInstance spheres[];
};

layout(location = 0) out vec3 out_world;
layout(location = 1) flat out vec4 out_center_radius;
layout(location = 2) flat out vec4 out_color;  // rgb: linear albedo

void main() {
  // Four vertices per sphere, indexed as two triangles (scene_renderer.cpp).
  const vec2 corners[4] = vec2[](vec2(-1, -1), vec2(1, -1), vec2(-1, 1), vec2(1, 1));
  SphereInstance sphere = spheres[gl_VertexIndex >> 2];
  vec3 center = sphere.center_radius.xyz;
  float radius = sphere.center_radius.w;
  out_center_radius = sphere.center_radius;
  out_color = vec4(surface_albedo(sphere.color.rgb), sphere.color.a);  // once, not per pixel
  out_world = center;

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
  vec2 corner = corners[gl_VertexIndex & 3];
  out_world = center + (right * corner.x + up * corner.y) * half_size;
  gl_Position = frame.view_projection * vec4(out_world, 1.0);
}
