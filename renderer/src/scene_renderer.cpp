#include "nudge/render/scene_renderer.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "frame_packet.h"
#include "gpu_memory.h"
#include "nudge/render/render_pass.h"
#include "scene_pipelines.h"
#include "shared_types.h"
#include "vk_check.h"

namespace nudge::render {

namespace {

// Where each kind of record lies in a frame slot's buffer.
struct FrameLayout {
  struct Range {
    VkDeviceSize offset = 0, size = 0;
  };
  Range frame, spheres, segments, arrows, mesh_vertices, mesh_indices, quads, texels, overlay;
  VkDeviceSize total = 0;
};

template <class T>
VkDeviceSize bytes_of(const std::vector<T>& v) {
  return static_cast<VkDeviceSize>(v.size() * sizeof(T));
}

FrameLayout layout_frame(const FramePacket& packet, VkDeviceSize alignment) {
  FrameLayout layout;
  VkDeviceSize cursor = 0;
  // Empty ranges still get a few bytes: descriptors cannot have a zero range.
  const auto place = [&](FrameLayout::Range& range, VkDeviceSize bytes) {
    range.offset = cursor;
    range.size = std::max<VkDeviceSize>(bytes, 16);
    cursor = (cursor + range.size + alignment - 1) / alignment * alignment;
  };
  place(layout.frame, sizeof(gpu::FrameUniforms));
  place(layout.spheres, bytes_of(packet.spheres));
  place(layout.segments, bytes_of(packet.segments));
  place(layout.arrows, bytes_of(packet.arrows));
  place(layout.mesh_vertices, bytes_of(packet.mesh_vertices));
  place(layout.mesh_indices, bytes_of(packet.mesh_indices));
  place(layout.quads, bytes_of(packet.quads));
  place(layout.texels, static_cast<VkDeviceSize>(packet.texel_count * 4));
  place(layout.overlay, bytes_of(packet.overlay));
  layout.total = cursor;
  return layout;
}

struct FrameSlot {
  HostBuffer buffer;
  VkDescriptorSet descriptors = VK_NULL_HANDLE;  // freed with the pool
};

// Large spheres and wide line segments are quads expanded by the vertex shader, which
// finds its quad as gl_VertexIndex / 4 and its corner as gl_VertexIndex % 4. They are
// drawn as indexed triangle lists, not as instances: lavapipe runs its vertex stage once
// per instance, four vertices at a time, at a cost well above that of one long run of
// vertices (which it shades once each, the index buffer sharing them between the two
// triangles). The index buffer is fixed: 16-bit indices of up to kQuadsPerDraw quads;
// longer runs take several draws, each with a vertexOffset.
constexpr std::uint32_t kQuadsPerDraw = 65536 / 4;
constexpr std::uint32_t kIndicesPerQuad = 6;

// Lines up to this wide are drawn as line primitives (thin_line.vert), wider ones as quads
// with square caps (line.vert). Line primitives have no caps: the joints of a strip show
// a notch up to half the width deep, which goes unseen at two pixels or less.
constexpr float kMaxThinLineWidth = 2.0f;

}  // namespace

struct SceneRenderer::State {
  GpuDevice gpu;
  SceneRendererConfig config;
  VkDescriptorSetLayout set_layout = VK_NULL_HANDLE;
  VkPipelineLayout pipeline_layout = VK_NULL_HANDLE;
  VkDescriptorPool pool = VK_NULL_HANDLE;
  ScenePipelines pipelines;
  std::vector<FrameSlot> slots;
  HostBuffer quad_indices;  // kQuadsPerDraw quads, written once
  FramePacket packet;       // reused so that steady frames allocate nothing
  VkDeviceSize alignment = 256;

  ~State() {
    VkDevice device = gpu.device;
    if (!device) return;
    destroy_scene_pipelines(device, pipelines);
    for (FrameSlot& slot : slots) destroy_host_buffer(device, slot.buffer);
    destroy_host_buffer(device, quad_indices);
    if (pool) vkDestroyDescriptorPool(device, pool, nullptr);
    if (pipeline_layout) vkDestroyPipelineLayout(device, pipeline_layout, nullptr);
    if (set_layout) vkDestroyDescriptorSetLayout(device, set_layout, nullptr);
  }

  Status ensure_capacity(FrameSlot& slot, VkDeviceSize needed);
  void write_packet(FrameSlot& slot, const FrameLayout& layout, const DrawList& list);
  void update_descriptors(const FrameSlot& slot, const FrameLayout& layout);
};

SceneRenderer::SceneRenderer() = default;
SceneRenderer::SceneRenderer(SceneRenderer&&) noexcept = default;
SceneRenderer& SceneRenderer::operator=(SceneRenderer&&) noexcept = default;
SceneRenderer::~SceneRenderer() = default;

std::uint32_t SceneRenderer::frames_in_flight() const {
  return state_ ? static_cast<std::uint32_t>(state_->slots.size()) : 0;
}

Expected<SceneRenderer> SceneRenderer::create(const GpuContext& gpu, const SceneRendererConfig& config) {
  if (config.render_pass == VK_NULL_HANDLE) return Error{"SceneRenderer: no render pass given"};
  if (config.frames_in_flight == 0) return Error{"SceneRenderer: frames_in_flight must be >= 1"};
  SceneRenderer renderer;
  renderer.state_ = std::make_unique<State>();
  State& s = *renderer.state_;
  s.gpu = gpu.device();
  s.config = config;
  const VkDevice device = s.gpu.device;
  const VkPhysicalDeviceLimits& limits = s.gpu.properties.limits;
  s.alignment =
      std::max<VkDeviceSize>({limits.minUniformBufferOffsetAlignment, limits.minStorageBufferOffsetAlignment, 16});

  VkDescriptorSetLayoutBinding bindings[NUDGE_BINDING_COUNT]{};
  for (std::uint32_t b = 0; b < NUDGE_BINDING_COUNT; ++b) {
    bindings[b].binding = b;
    bindings[b].descriptorType =
        b == NUDGE_BINDING_FRAME ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    bindings[b].descriptorCount = 1;
    bindings[b].stageFlags = VK_SHADER_STAGE_VERTEX_BIT | VK_SHADER_STAGE_FRAGMENT_BIT;
  }
  VkDescriptorSetLayoutCreateInfo set_info{};
  set_info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
  set_info.bindingCount = NUDGE_BINDING_COUNT;
  set_info.pBindings = bindings;
  NUDGE_VK_TRY(vkCreateDescriptorSetLayout(device, &set_info, nullptr, &s.set_layout));

  VkPipelineLayoutCreateInfo layout_info{};
  layout_info.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
  layout_info.setLayoutCount = 1;
  layout_info.pSetLayouts = &s.set_layout;
  NUDGE_VK_TRY(vkCreatePipelineLayout(device, &layout_info, nullptr, &s.pipeline_layout));

  const std::uint32_t n = config.frames_in_flight;
  const VkDescriptorPoolSize pool_sizes[] = {
      {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, n},
      {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, n * (NUDGE_BINDING_COUNT - 1)},
  };
  VkDescriptorPoolCreateInfo pool_info{};
  pool_info.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
  pool_info.maxSets = n;
  pool_info.poolSizeCount = 2;
  pool_info.pPoolSizes = pool_sizes;
  NUDGE_VK_TRY(vkCreateDescriptorPool(device, &pool_info, nullptr, &s.pool));
  s.slots.resize(n);
  for (FrameSlot& slot : s.slots) {
    VkDescriptorSetAllocateInfo allocate{};
    allocate.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
    allocate.descriptorPool = s.pool;
    allocate.descriptorSetCount = 1;
    allocate.pSetLayouts = &s.set_layout;
    NUDGE_VK_TRY(vkAllocateDescriptorSets(device, &allocate, &slot.descriptors));
  }

  Expected<HostBuffer> quad_indices =
      create_host_buffer(s.gpu, kQuadsPerDraw * kIndicesPerQuad * sizeof(std::uint16_t),
                         VK_BUFFER_USAGE_INDEX_BUFFER_BIT, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  if (!quad_indices) return quad_indices.error();
  s.quad_indices = *quad_indices;
  auto* indices = static_cast<std::uint16_t*>(s.quad_indices.mapped);
  for (std::uint32_t q = 0; q < kQuadsPerDraw; ++q) {
    // Corners 0-1-2 and 2-1-3: the two triangles of the strip 0, 1, 2, 3.
    const std::uint32_t first = 4 * q;
    for (std::uint32_t corner : {0u, 1u, 2u, 2u, 1u, 3u}) *indices++ = static_cast<std::uint16_t>(first + corner);
  }

  PipelineTarget target;
  target.render_pass = config.render_pass;
  target.subpass = config.subpass;
  target.samples = config.samples;
  target.srgb = is_srgb_format(config.color_format);
  target.per_sample_spheres = s.gpu.sample_rate_shading;
  Expected<ScenePipelines> pipelines = create_scene_pipelines(device, s.pipeline_layout, target);
  if (!pipelines) return pipelines.error();
  s.pipelines = *pipelines;
  return renderer;
}

Status SceneRenderer::State::ensure_capacity(FrameSlot& slot, VkDeviceSize needed) {
  if (slot.buffer.buffer && slot.buffer.size >= needed) return Ok{};
  // Grow by half again at least, so that a scene that grows a little each frame does not
  // re-create the buffer every frame.
  const VkDeviceSize capacity = std::max<VkDeviceSize>({needed, slot.buffer.size + slot.buffer.size / 2, 256 * 1024});
  Expected<HostBuffer> buffer = create_host_buffer(
      gpu, capacity,
      VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_INDEX_BUFFER_BIT,
      VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
  if (!buffer)
    return Error{"SceneRenderer: cannot grow the frame buffer to " + std::to_string(capacity) +
                 " bytes: " + buffer.error().message};
  // The caller guarantees the GPU is done with this slot, so the old buffer can go now.
  destroy_host_buffer(gpu.device, slot.buffer);
  slot.buffer = *buffer;
  return Ok{};
}

void SceneRenderer::State::write_packet(FrameSlot& slot, const FrameLayout& layout, const DrawList& list) {
  auto* base = static_cast<unsigned char*>(slot.buffer.mapped);
  const auto copy = [&](const FrameLayout::Range& range, const void* data, std::size_t bytes) {
    if (bytes > 0) std::memcpy(base + range.offset, data, bytes);
  };
  copy(layout.frame, &packet.frame, sizeof packet.frame);
  copy(layout.spheres, packet.spheres.data(), bytes_of(packet.spheres));
  copy(layout.segments, packet.segments.data(), bytes_of(packet.segments));
  copy(layout.arrows, packet.arrows.data(), bytes_of(packet.arrows));
  copy(layout.mesh_vertices, packet.mesh_vertices.data(), bytes_of(packet.mesh_vertices));
  copy(layout.mesh_indices, packet.mesh_indices.data(), bytes_of(packet.mesh_indices));
  copy(layout.quads, packet.quads.data(), bytes_of(packet.quads));
  VkDeviceSize texel_offset = layout.texels.offset;
  for (const TexturedQuad& quad : list.quads) {  // straight from the list: one copy only
    std::memcpy(base + texel_offset, quad.rgba.data(), quad.rgba.size());
    texel_offset += quad.rgba.size();
  }
  copy(layout.overlay, packet.overlay.data(), bytes_of(packet.overlay));
}

void SceneRenderer::State::update_descriptors(const FrameSlot& slot, const FrameLayout& layout) {
  const FrameLayout::Range* ranges[NUDGE_BINDING_COUNT] = {};
  ranges[NUDGE_BINDING_FRAME] = &layout.frame;
  ranges[NUDGE_BINDING_SPHERES] = &layout.spheres;
  ranges[NUDGE_BINDING_SEGMENTS] = &layout.segments;
  ranges[NUDGE_BINDING_ARROWS] = &layout.arrows;
  ranges[NUDGE_BINDING_MESH_VERTICES] = &layout.mesh_vertices;
  ranges[NUDGE_BINDING_QUADS] = &layout.quads;
  ranges[NUDGE_BINDING_TEXELS] = &layout.texels;
  ranges[NUDGE_BINDING_OVERLAY] = &layout.overlay;
  VkDescriptorBufferInfo infos[NUDGE_BINDING_COUNT];
  VkWriteDescriptorSet writes[NUDGE_BINDING_COUNT]{};
  for (std::uint32_t b = 0; b < NUDGE_BINDING_COUNT; ++b) {
    infos[b] = {slot.buffer.buffer, ranges[b]->offset, ranges[b]->size};
    writes[b].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
    writes[b].dstSet = slot.descriptors;
    writes[b].dstBinding = b;
    writes[b].descriptorCount = 1;
    writes[b].descriptorType =
        b == NUDGE_BINDING_FRAME ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    writes[b].pBufferInfo = &infos[b];
  }
  vkUpdateDescriptorSets(gpu.device, NUDGE_BINDING_COUNT, writes, 0, nullptr);
}

Status SceneRenderer::record(VkCommandBuffer commands, const DrawList& list, VkExtent2D extent,
                             std::uint32_t frame_slot) {
  return record(commands, list, VkRect2D{{0, 0}, extent}, frame_slot);
}

Status SceneRenderer::record(VkCommandBuffer commands, const DrawList& list, VkRect2D area, std::uint32_t frame_slot) {
  const VkExtent2D extent = area.extent;
  if (!state_) return Error{"SceneRenderer::record on a moved-from renderer"};
  State& s = *state_;
  if (frame_slot >= s.slots.size())
    return Error{"SceneRenderer::record: frame slot " + std::to_string(frame_slot) + " but the renderer has " +
                 std::to_string(s.slots.size())};
  if (extent.width == 0 || extent.height == 0) return Ok{};  // e.g. a minimised window
  if (Status valid = validate(list); !valid) return valid.error();

  pack_frame(list, static_cast<int>(extent.width), static_cast<int>(extent.height), s.packet,
             {area.offset.x, area.offset.y});
  const FrameLayout layout = layout_frame(s.packet, s.alignment);
  const VkDeviceSize max_range = s.gpu.properties.limits.maxStorageBufferRange;
  for (const FrameLayout::Range* range : {&layout.spheres, &layout.segments, &layout.arrows, &layout.mesh_vertices,
                                          &layout.quads, &layout.texels, &layout.overlay}) {
    if (range->size > max_range)
      return Error{"SceneRenderer: " + std::to_string(range->size) +
                   " bytes of one kind of record in one frame, more than this device's "
                   "maxStorageBufferRange (" +
                   std::to_string(max_range) + ")"};
  }
  FrameSlot& slot = s.slots[frame_slot];
  if (Status grown = s.ensure_capacity(slot, layout.total); !grown) return grown.error();
  s.write_packet(slot, layout, list);
  s.update_descriptors(slot, layout);

  const VkViewport viewport{static_cast<float>(area.offset.x),
                            static_cast<float>(area.offset.y),
                            static_cast<float>(extent.width),
                            static_cast<float>(extent.height),
                            0,
                            1};
  const VkRect2D scissor = area;
  vkCmdSetViewport(commands, 0, 1, &viewport);
  vkCmdSetScissor(commands, 0, 1, &scissor);
  vkCmdBindDescriptorSets(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, s.pipeline_layout, 0, 1, &slot.descriptors, 0,
                          nullptr);
  const FramePacket& p = s.packet;
  const auto count = [](std::size_t n) { return static_cast<std::uint32_t>(n); };
  // Solids first, then what blends over them, the grid after everything it may lie under,
  // the overlay last.
  if (!p.mesh_indices.empty()) {
    vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, s.pipelines.meshes);
    vkCmdBindIndexBuffer(commands, slot.buffer.buffer, layout.mesh_indices.offset, VK_INDEX_TYPE_UINT32);
    vkCmdDrawIndexed(commands, count(p.mesh_indices.size()), 1, 0, 0, 0);
  }
  const auto draw = [&](VkPipeline pipeline, std::uint32_t vertices, std::size_t instances) {
    if (instances == 0 || vertices == 0) return;
    vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    vkCmdDraw(commands, vertices, count(instances), 0, 0);
  };
  // Quads [first, first + n) of a quad pass.
  const auto draw_quads = [&](VkPipeline pipeline, std::size_t first, std::size_t n) {
    if (n == 0) return;
    vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, pipeline);
    vkCmdBindIndexBuffer(commands, s.quad_indices.buffer, 0, VK_INDEX_TYPE_UINT16);
    for (std::size_t done = 0; done < n; done += kQuadsPerDraw) {
      const std::size_t chunk = std::min<std::size_t>(n - done, kQuadsPerDraw);
      vkCmdDrawIndexed(commands, count(chunk * kIndicesPerQuad), 1, 0, static_cast<std::int32_t>(4 * (first + done)),
                       0);
    }
  };
  // Point sprites need largePoints, and room for the sprites of spheres up to
  // kPointSpherePixels (pack_frame) stretched off axis: twice that radius and more.
  const bool point_sprites = s.gpu.large_points && s.gpu.properties.limits.pointSizeRange[1] >= 4 * kPointSpherePixels;
  const std::size_t point_spheres = point_sprites ? p.point_spheres : 0;
  if (point_spheres > 0) {
    vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS, s.pipelines.point_spheres);
    vkCmdDraw(commands, count(point_spheres), 1, 0, 0);
  }
  draw_quads(s.pipelines.spheres, point_spheres, p.spheres.size() - point_spheres);
  draw(s.pipelines.quads, 6, p.quads.size());
  const float* line_widths = s.gpu.properties.limits.lineWidthRange;
  for (const LineRun& run : p.line_runs) {
    const bool thin = run.width_pixels <= kMaxThinLineWidth && run.width_pixels >= line_widths[0] &&
                      run.width_pixels <= line_widths[1] && (s.gpu.wide_lines || run.width_pixels == 1.0f);
    if (!thin) {
      draw_quads(s.pipelines.lines, run.first, run.count);
      continue;
    }
    vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_GRAPHICS,
                      run.opaque ? s.pipelines.thin_opaque_lines : s.pipelines.thin_lines);
    vkCmdSetLineWidth(commands, run.width_pixels);
    vkCmdDraw(commands, 2 * run.count, 1, 2 * run.first, 0);
  }
  draw(s.pipelines.arrows, 9, p.arrows.size());
  draw(s.pipelines.grid, 6, p.grid ? 1 : 0);
  draw(s.pipelines.overlay, count(p.overlay.size()), 1);
  return Ok{};
}

}  // namespace nudge::render
