#include "frame_packet.h"

#include <algorithm>
#include <cmath>

#include "legend_overlay.h"

namespace nudge::render {

namespace {

gpu::vec4 to_vec4(Rgba c) { return {c.r, c.g, c.b, c.a}; }

// One colour per item, one for all, or a default.
Rgba color_of(const std::vector<Rgba>& colors, std::size_t i, Rgba fallback) {
  if (colors.empty()) return fallback;
  return colors.size() == 1 ? colors[0] : colors[i];
}

constexpr Rgba kWhite{1, 1, 1, 1};
constexpr Rgba kMeshGrey{0.78f, 0.78f, 0.80f, 1};

void pack_lines(const std::vector<LineBatch>& batches, std::vector<gpu::LineSegment>& out) {
  for (const LineBatch& batch : batches) {
    const std::size_t n = batch.points.size();
    const auto add = [&](std::size_t a, std::size_t b) {
      out.push_back({gpu::vec4(batch.points[a], batch.width_pixels), gpu::vec4(batch.points[b], 0),
                     to_vec4(color_of(batch.colors, a, kWhite)),
                     to_vec4(color_of(batch.colors, b, kWhite))});
    };
    if (batch.strip) {
      for (std::size_t i = 0; i + 1 < n; ++i) add(i, i + 1);
    } else {
      for (std::size_t i = 0; i + 1 < n; i += 2) add(i, i + 1);
    }
  }
}

void pack_meshes(const std::vector<Mesh>& meshes, FramePacket& packet) {
  for (const Mesh& mesh : meshes) {
    const auto base = static_cast<std::uint32_t>(packet.mesh_vertices.size());
    const std::vector<glm::vec3> computed = mesh.normals.empty()
                                                ? smooth_normals(mesh.positions, mesh.indices)
                                                : std::vector<glm::vec3>{};
    const std::vector<glm::vec3>& normals = mesh.normals.empty() ? computed : mesh.normals;
    for (std::size_t i = 0; i < mesh.positions.size(); ++i) {
      packet.mesh_vertices.push_back({gpu::vec4(mesh.positions[i], 1), gpu::vec4(normals[i], 0),
                                      to_vec4(color_of(mesh.colors, i, kMeshGrey))});
    }
    for (std::uint32_t index : mesh.indices) packet.mesh_indices.push_back(base + index);
  }
}

}  // namespace

std::vector<glm::vec3> smooth_normals(const std::vector<glm::vec3>& positions,
                                      const std::vector<std::uint32_t>& indices) {
  std::vector<glm::vec3> normals(positions.size(), glm::vec3(0));
  for (std::size_t t = 0; t + 2 < indices.size(); t += 3) {
    const glm::vec3& a = positions[indices[t]];
    const glm::vec3& b = positions[indices[t + 1]];
    const glm::vec3& c = positions[indices[t + 2]];
    const glm::vec3 area_weighted = glm::cross(b - a, c - a);  // length: twice the area
    for (std::size_t k = 0; k < 3; ++k) normals[indices[t + k]] += area_weighted;
  }
  for (glm::vec3& n : normals) {
    const float length = glm::length(n);
    n = length > 0 && std::isfinite(length) ? n / length : glm::vec3(0, 1, 0);
  }
  return normals;
}

glm::vec3 arrow_tip(const ArrowBatch& batch, std::size_t i) {
  const glm::vec3 v = batch.vectors[i];
  const float magnitude = glm::length(v);
  const float drawn = std::min(magnitude * batch.scale, batch.max_length);
  if (!(magnitude > 0) || !std::isfinite(magnitude) || !(drawn > 0)) return batch.origins[i];
  return batch.origins[i] + v * (drawn / magnitude);
}

void pack_frame(const DrawList& list, int width, int height, FramePacket& packet) {
  const Camera& camera = list.camera;
  const float w = static_cast<float>(width);
  const float h = static_cast<float>(height);
  gpu::FrameUniforms& frame = packet.frame;
  frame.view_projection = projection_matrix(camera, w / h) * view_matrix(camera);
  frame.eye = gpu::vec4(camera.eye, 1);
  const float light_length = glm::length(list.light_direction);
  const glm::vec3 light =
      light_length > 0 ? list.light_direction / light_length : glm::vec3(0, 1, 0);
  frame.light_direction = gpu::vec4(light, 0);
  frame.viewport = {w, h, 1.0f / w, 1.0f / h};
  frame.grid = {list.grid.height, list.grid.spacing, static_cast<float>(list.grid.half_lines),
                list.grid.axes ? 1.0f : 0.0f};
  frame.camera = {camera.near_plane, camera.far_plane, 0, 0};
  packet.grid = list.grid.visible && list.grid.half_lines > 0;

  packet.spheres.clear();
  for (const Sphere& s : list.spheres)
    packet.spheres.push_back({gpu::vec4(s.center, s.radius), to_vec4(s.color)});

  packet.segments.clear();
  pack_lines(list.lines, packet.segments);

  packet.arrows.clear();
  for (const ArrowBatch& batch : list.arrows) {
    for (std::size_t i = 0; i < batch.origins.size(); ++i) {
      const glm::vec3 tip = arrow_tip(batch, i);
      if (tip == batch.origins[i]) continue;
      packet.arrows.push_back({gpu::vec4(batch.origins[i], batch.width_pixels), gpu::vec4(tip, 1),
                               to_vec4(color_of(batch.colors, i, kWhite))});
    }
  }

  packet.mesh_vertices.clear();
  packet.mesh_indices.clear();
  pack_meshes(list.meshes, packet);

  packet.quads.clear();
  packet.texel_count = 0;
  for (const TexturedQuad& quad : list.quads) {
    gpu::QuadInstance instance{};
    for (std::size_t k = 0; k < 4; ++k) instance.corners[k] = gpu::vec4(quad.corners[k], 1);
    instance.texels = {
        static_cast<std::uint32_t>(packet.texel_count), static_cast<std::uint32_t>(quad.width),
        static_cast<std::uint32_t>(quad.height), quad.filter == TextureFilter::Linear ? 1u : 0u};
    packet.quads.push_back(instance);
    packet.texel_count += quad.rgba.size() / 4;
  }

  packet.overlay.clear();
  append_legend_overlay(list.legends, width, height, packet.overlay);
}

}  // namespace nudge::render
