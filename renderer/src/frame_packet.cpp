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

void pack_lines(const std::vector<LineBatch>& batches, std::vector<gpu::LineSegment>& out, std::vector<LineRun>& runs) {
  for (const LineBatch& batch : batches) {
    const std::size_t n = batch.points.size();
    const std::size_t first = out.size();
    const auto add = [&](std::size_t a, std::size_t b) {
      out.push_back({gpu::vec4(batch.points[a], batch.width_pixels), gpu::vec4(batch.points[b], 0),
                     to_vec4(color_of(batch.colors, a, kWhite)), to_vec4(color_of(batch.colors, b, kWhite))});
    };
    if (batch.strip) {
      for (std::size_t i = 0; i + 1 < n; ++i) add(i, i + 1);
    } else {
      for (std::size_t i = 0; i + 1 < n; i += 2) add(i, i + 1);
    }
    const bool opaque = std::all_of(batch.colors.begin(), batch.colors.end(), [](Rgba c) { return c.a >= 1; });
    if (out.size() > first)
      runs.push_back({static_cast<std::uint32_t>(first), static_cast<std::uint32_t>(out.size() - first),
                      batch.width_pixels, opaque});
  }
}

void pack_meshes(const std::vector<Mesh>& meshes, FramePacket& packet) {
  for (const Mesh& mesh : meshes) {
    const auto base = static_cast<std::uint32_t>(packet.mesh_vertices.size());
    const std::vector<glm::vec3> computed =
        mesh.normals.empty() ? smooth_normals(mesh.positions, mesh.indices) : std::vector<glm::vec3>{};
    const std::vector<glm::vec3>& normals = mesh.normals.empty() ? computed : mesh.normals;
    for (std::size_t i = 0; i < mesh.positions.size(); ++i) {
      packet.mesh_vertices.push_back(
          {gpu::vec4(mesh.positions[i], 1), gpu::vec4(normals[i], 0), to_vec4(color_of(mesh.colors, i, kMeshGrey))});
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

void pack_frame(const DrawList& list, int width, int height, FramePacket& packet, glm::ivec2 origin) {
  const Camera& camera = list.camera;
  const float w = static_cast<float>(width);
  const float h = static_cast<float>(height);
  gpu::FrameUniforms& frame = packet.frame;
  frame.view_projection = projection_matrix(camera, w / h) * view_matrix(camera);
  frame.eye = gpu::vec4(camera.eye, 1);
  const float light_length = glm::length(list.light_direction);
  const glm::vec3 light = light_length > 0 ? list.light_direction / light_length : glm::vec3(0, 1, 0);
  frame.light_direction = gpu::vec4(light, 0);
  frame.viewport = {w, h, 1.0f / w, 1.0f / h};
  frame.grid = {list.grid.height, list.grid.spacing, static_cast<float>(list.grid.half_lines),
                list.grid.axes ? 1.0f : 0.0f};
  frame.camera = {camera.near_plane, camera.far_plane, 0, 0};

  // Eye rays from the inverse projection: the point at framebuffer position (x, y) on the
  // far plane, less the eye. Its w does not depend on x and y under a perspective, so the
  // direction is affine in x and y. In double precision: the far plane is far.
  const glm::dmat4 unproject = glm::inverse(glm::dmat4(frame.view_projection));
  const auto eye_ray = [&](double x, double y) {
    const glm::dvec4 ndc{(x - origin.x) * 2.0 / w - 1.0, (y - origin.y) * 2.0 / h - 1.0, 1.0, 1.0};
    const glm::dvec4 far = unproject * ndc;
    return glm::dvec3(far) / far.w - glm::dvec3(camera.eye);
  };
  const glm::dvec3 ray_at_origin = eye_ray(0, 0);
  frame.eye_ray = gpu::vec4(glm::vec3(ray_at_origin), 0);
  frame.eye_ray_dx = gpu::vec4(glm::vec3(eye_ray(1, 0) - ray_at_origin), 0);
  frame.eye_ray_dy = gpu::vec4(glm::vec3(eye_ray(0, 1) - ray_at_origin), 0);
  packet.grid = list.grid.visible && list.grid.half_lines > 0;

  // Small spheres first, then the others (two passes: no allocation).
  const glm::mat4 view = view_matrix(camera);
  const float pixels_per_unit_at_unit_depth = 0.5f * h / std::tan(0.5f * glm::radians(camera.fov_y_degrees));
  const auto is_small = [&](const Sphere& s) {
    const float nearest_depth = -(view * glm::vec4(s.center, 1.0f)).z - s.radius;
    return s.radius > 0 && nearest_depth > camera.near_plane &&
           s.radius * pixels_per_unit_at_unit_depth <= kPointSpherePixels * nearest_depth;
  };
  packet.spheres.clear();
  for (const Sphere& s : list.spheres)
    if (is_small(s)) packet.spheres.push_back({gpu::vec4(s.center, s.radius), to_vec4(s.color)});
  packet.point_spheres = packet.spheres.size();
  for (const Sphere& s : list.spheres)
    if (!is_small(s)) packet.spheres.push_back({gpu::vec4(s.center, s.radius), to_vec4(s.color)});

  packet.segments.clear();
  packet.line_runs.clear();
  pack_lines(list.lines, packet.segments, packet.line_runs);

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
    instance.texels = {static_cast<std::uint32_t>(packet.texel_count), static_cast<std::uint32_t>(quad.width),
                       static_cast<std::uint32_t>(quad.height), quad.filter == TextureFilter::Linear ? 1u : 0u};
    packet.quads.push_back(instance);
    packet.texel_count += quad.rgba.size() / 4;
  }

  packet.overlay.clear();
  append_legend_overlay(list.legends, width, height, packet.overlay);
}

}  // namespace nudge::render
