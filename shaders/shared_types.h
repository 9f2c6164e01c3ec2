// Types shared by the GLSL shaders and the C++ renderer: the one place where the layout
// of the frame uniforms, the per-instance records and the descriptor bindings is written.
// GLSL includes it through GL_GOOGLE_include_directive; C++ sees glm types of the same
// names in nudge::render::gpu, and checks every size with static_assert. Only vec4, uvec4
// and mat4 members, so std140 / std430 and C++ agree with no padding rules to remember.
#ifndef NUDGE_SHADERS_SHARED_TYPES_H
#define NUDGE_SHADERS_SHARED_TYPES_H

#ifdef __cplusplus
#include <glm/glm.hpp>
namespace nudge::render::gpu {
using vec4 = glm::vec4;
using uvec4 = glm::uvec4;
using mat4 = glm::mat4;
#define NUDGE_CHECK_SIZE(type, bytes) static_assert(sizeof(type) == (bytes), #type " must match its GLSL layout");
#else
#define NUDGE_CHECK_SIZE(type, bytes)
#endif

// Descriptor set 0: one uniform buffer and one storage buffer per kind of record, all
// ranges of the frame slot's single host-visible buffer.
#define NUDGE_BINDING_FRAME 0
#define NUDGE_BINDING_SPHERES 1
#define NUDGE_BINDING_SEGMENTS 2
#define NUDGE_BINDING_ARROWS 3
#define NUDGE_BINDING_MESH_VERTICES 4
#define NUDGE_BINDING_QUADS 5
#define NUDGE_BINDING_TEXELS 6
#define NUDGE_BINDING_OVERLAY 7
#define NUDGE_BINDING_COUNT 8

// Specialization constant 0 of every fragment shader: the target is an _SRGB format, so
// outputs are converted to linear and the hardware encodes them back.
#define NUDGE_SPEC_TARGET_IS_SRGB 0

struct FrameUniforms {
  mat4 view_projection;  // world to Vulkan clip space
  vec4 eye;              // xyz: camera position
  vec4 light_direction;  // xyz: unit vector from surfaces toward the light
  vec4 viewport;         // width, height, 1 / width, 1 / height in pixels
  vec4 grid;             // y of the plane, spacing, half line count, axes (0 or 1)
  vec4 camera;           // near, far, 0, 0
  // The eye ray through framebuffer position (x, y) (gl_FragCoord.xy) has the direction
  // eye_ray + x * eye_ray_dx + y * eye_ray_dy (xyz, not of unit length).
  vec4 eye_ray;
  vec4 eye_ray_dx;
  vec4 eye_ray_dy;
};
NUDGE_CHECK_SIZE(FrameUniforms, 192)

struct SphereInstance {
  vec4 center_radius;  // xyz centre, w radius
  vec4 color;          // sRGB-encoded
};
NUDGE_CHECK_SIZE(SphereInstance, 32)

struct LineSegment {
  vec4 a;        // xyz first end, w width in pixels
  vec4 b;        // xyz second end
  vec4 color_a;  // colours at the ends, interpolated
  vec4 color_b;
};
NUDGE_CHECK_SIZE(LineSegment, 64)

struct ArrowInstance {
  vec4 origin;  // xyz tail, w shaft width in pixels
  vec4 tip;     // xyz tip (the drawn length is already applied)
  vec4 color;
};
NUDGE_CHECK_SIZE(ArrowInstance, 48)

struct MeshVertex {
  vec4 position;  // xyz, w 1
  vec4 normal;    // xyz unit normal (either side: lighting is two-sided)
  vec4 color;
};
NUDGE_CHECK_SIZE(MeshVertex, 48)

struct QuadInstance {
  vec4 corners[4];  // xyz: image top-left, top-right, bottom-right, bottom-left
  uvec4 texels;     // first texel in the texel buffer, width, height, filter (0 nearest)
};
NUDGE_CHECK_SIZE(QuadInstance, 80)

struct OverlayVertex {
  vec4 position;  // xy in pixels (x right, y down)
  vec4 color;
};
NUDGE_CHECK_SIZE(OverlayVertex, 32)

#ifdef __cplusplus
}  // namespace nudge::render::gpu
#endif
#undef NUDGE_CHECK_SIZE

#endif  // NUDGE_SHADERS_SHARED_TYPES_H
