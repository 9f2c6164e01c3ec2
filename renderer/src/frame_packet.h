// A draw list turned into the records the shaders read (shared_types.h): pure CPU work,
// kept apart from Vulkan so that it can be tested on its own.
#pragma once

#include <cstdint>
#include <vector>

#include "nudge/render/draw_list.h"
#include "shared_types.h"

namespace nudge::render {

// Consecutive segments of one line batch (they share a width).
struct LineRun {
  std::uint32_t first = 0, count = 0;
  float width_pixels = 1;
  bool opaque = true;  // every colour has alpha 1: no need to blend
};

struct FramePacket {
  gpu::FrameUniforms frame{};
  bool grid = false;
  // Spheres whose radius on screen is at most kPointSpherePixels come first, and are
  // counted in point_spheres: the renderer may draw them as point sprites.
  std::vector<gpu::SphereInstance> spheres;
  std::size_t point_spheres = 0;
  std::vector<gpu::LineSegment> segments;
  std::vector<LineRun> line_runs;  // the segments, batch by batch
  std::vector<gpu::ArrowInstance> arrows;
  std::vector<gpu::MeshVertex> mesh_vertices;  // all meshes, one after the other
  std::vector<std::uint32_t> mesh_indices;     // already offset to the merged vertices
  std::vector<gpu::QuadInstance> quads;
  std::size_t texel_count = 0;  // the quads' texels, in order (copied from the list itself)
  std::vector<gpu::OverlayVertex> overlay;
};

// Radius on screen, in pixels, up to which a sphere counts as small (an estimate that
// leaves out the stretching of spheres far off the axis of view).
constexpr float kPointSpherePixels = 8.0f;

// Fills `packet` (its vectors keep their capacity from frame to frame). `list` must pass
// validate(); width and height are the size in pixels of the area drawn into, and
// `origin` its top-left corner in the framebuffer (for the eye rays of gl_FragCoord).
void pack_frame(const DrawList& list, int width, int height, FramePacket& packet, glm::ivec2 origin = {0, 0});

// Unit normals for a mesh that has none: the area-weighted average of the normals of the
// triangles around each vertex (vertices on no triangle get +Y).
std::vector<glm::vec3> smooth_normals(const std::vector<glm::vec3>& positions,
                                      const std::vector<std::uint32_t>& indices);

// The tip of arrow `i`: drawn length min(|v| * scale, max_length) along v. Equal to the
// origin for zero or non-finite vectors.
glm::vec3 arrow_tip(const ArrowBatch& batch, std::size_t i);

}  // namespace nudge::render
