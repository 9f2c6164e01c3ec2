// Draws a DrawList inside a render pass instance that the caller began.
//
// Implemented features: ground grid with axes, lit sphere impostors with exact depth,
// screen-width lines (segments and strips), arrows with heads, two-sided lit meshes,
// textured quads (nearest or linear), legends with text. All per-frame data lives in one
// host-visible buffer per frame slot that grows as needed; nothing is uploaded with
// transfer commands, so record() needs no work outside the render pass.
//
// Frame slots: the caller owns frames in flight. Before calling record() with a slot, the
// GPU must be done with the command buffer recorded with that slot last time (wait on the
// fence of that frame), because record() overwrites the slot's buffer. Hence also one
// record() per slot per submission.
#pragma once

#include <cstdint>
#include <memory>

#include <vulkan/vulkan.h>

#include "nudge/render/draw_list.h"
#include "nudge/render/gpu_context.h"
#include "nudge/render/result.h"

namespace nudge::render {

struct SceneRendererConfig {
  VkRenderPass render_pass = VK_NULL_HANDLE;  // shaped like create_scene_render_pass()
  std::uint32_t subpass = 0;
  VkFormat color_format = VK_FORMAT_R8G8B8A8_UNORM;  // an _SRGB format is handled
  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
  std::uint32_t frames_in_flight = 2;
};

class SceneRenderer {
public:
  static Expected<SceneRenderer> create(const GpuContext& gpu, const SceneRendererConfig& config);

  SceneRenderer(SceneRenderer&& other) noexcept;
  SceneRenderer& operator=(SceneRenderer&& other) noexcept;
  SceneRenderer(const SceneRenderer&) = delete;
  SceneRenderer& operator=(const SceneRenderer&) = delete;
  ~SceneRenderer();

  // Records every pass into `commands`, which must be inside the render pass instance,
  // with `extent` the render area. Checks the list first (validate()) and records nothing
  // when it is malformed or a buffer cannot grow; the error says why.
  Status record(VkCommandBuffer commands, const DrawList& list, VkExtent2D extent, std::uint32_t frame_slot);
  // The same, drawn into `area` of the framebuffer (a window's viewport panel): the
  // list's pixel sizes and the legend are relative to that area.
  Status record(VkCommandBuffer commands, const DrawList& list, VkRect2D area, std::uint32_t frame_slot);

  std::uint32_t frames_in_flight() const;

private:
  struct State;  // pipelines, buffers and descriptor sets (scene_renderer.cpp)
  SceneRenderer();
  std::unique_ptr<State> state_;
};

}  // namespace nudge::render
