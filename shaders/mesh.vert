// Triangle meshes: vertices pulled from the frame's storage buffer by index.
#version 450
#extension GL_GOOGLE_include_directive : require
#include "common.glsl"

layout(std430, set = 0, binding = NUDGE_BINDING_MESH_VERTICES) readonly buffer Vertices {
  MeshVertex vertices[];
};

layout(location = 0) out vec3 out_world;
layout(location = 1) out vec3 out_normal;
layout(location = 2) out vec4 out_color;

void main() {
  MeshVertex vertex = vertices[gl_VertexIndex];
  out_world = vertex.position.xyz;
  out_normal = vertex.normal.xyz;
  out_color = vertex.color;
  gl_Position = frame.view_projection * vec4(vertex.position.xyz, 1.0);
}
