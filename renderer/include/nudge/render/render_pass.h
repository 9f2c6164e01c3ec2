// The render pass shape the scene renderer draws in: one subpass, one colour attachment
// and one depth attachment, plus a single-sample resolve attachment when multisampled.
// Dear ImGui can draw in the same subpass after the scene.
#pragma once

#include <vulkan/vulkan.h>

#include "nudge/render/color_map.h"
#include "nudge/render/result.h"

namespace nudge::render {

struct RenderPassShape {
  VkFormat color_format = VK_FORMAT_R8G8B8A8_UNORM;
  VkFormat depth_format = VK_FORMAT_D32_SFLOAT;
  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
  // Layout the single-sample image (resolve target, or the colour attachment itself when
  // not multisampled) ends in: TRANSFER_SRC for read-back, PRESENT_SRC_KHR for a swapchain.
  VkImageLayout final_layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
};

// Attachments in order: 0 colour (cleared), 1 depth (cleared to 1.0), 2 resolve (only
// when samples > 1). Framebuffers must follow that order.
Expected<VkRenderPass> create_scene_render_pass(VkDevice device, const RenderPassShape& shape);

// A framebuffer for that render pass: views in its attachment order (colour, depth,
// resolve); the resolve view is used only when multisampled.
Expected<VkFramebuffer> create_scene_framebuffer(VkDevice device, VkRenderPass render_pass,
                                                 const VkImageView (&views)[3], bool multisampled, VkExtent2D extent);

// The clear values for that render pass: the background colour (converted to linear for
// an _SRGB colour format, so it shows as given) and depth 1.0. The resolve slot is unused.
struct SceneClearValues {
  VkClearValue values[3];
  static constexpr std::uint32_t kCount = 3;
};
SceneClearValues scene_clear_values(Rgba background, VkFormat color_format);

bool is_srgb_format(VkFormat format);

// The largest sample count <= requested that colour and depth attachments both support.
VkSampleCountFlagBits supported_sample_count(const VkPhysicalDeviceProperties& properties, int requested);

}  // namespace nudge::render
