// Two-sided lighting: the normal is turned to the side of the triangle that faces the
// eye. That side comes from the triangle's own plane (screen derivatives of the position),
// so it does not depend on the winding order nor on which side the given normals face.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"
#include "shared_shading.h"

layout(location = 0) in vec3 in_world;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec4 in_color;
layout(location = 0) out vec4 out_color;

void main() {
  vec3 to_eye = normalize(frame.eye.xyz - in_world);
  vec3 face = cross(dFdx(in_world), dFdy(in_world));
  if (dot(face, to_eye) < 0.0) face = -face;
  vec3 normal = normalize(in_normal);
  if (dot(normal, face) < 0.0) normal = -normal;
  vec3 rgb = shade_surface(in_color.rgb, normal, frame.light_direction.xyz, to_eye);
  out_color = to_target(vec4(rgb, in_color.a));
}
