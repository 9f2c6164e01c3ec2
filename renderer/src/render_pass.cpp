#include "nudge/render/render_pass.h"

#include <cmath>

#include "vk_check.h"

namespace nudge::render {

Expected<VkRenderPass> create_scene_render_pass(VkDevice device, const RenderPassShape& shape) {
  const bool multisampled = shape.samples != VK_SAMPLE_COUNT_1_BIT;
  VkAttachmentDescription attachments[3]{};
  VkAttachmentDescription& color = attachments[0];
  color.format = shape.color_format;
  color.samples = shape.samples;
  color.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  // The multisampled image only feeds the resolve; nothing reads it afterwards.
  color.storeOp = multisampled ? VK_ATTACHMENT_STORE_OP_DONT_CARE : VK_ATTACHMENT_STORE_OP_STORE;
  color.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  color.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  color.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  color.finalLayout = multisampled ? VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL : shape.final_layout;

  VkAttachmentDescription& depth = attachments[1];
  depth.format = shape.depth_format;
  depth.samples = shape.samples;
  depth.loadOp = VK_ATTACHMENT_LOAD_OP_CLEAR;
  depth.storeOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  depth.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  depth.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  depth.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  depth.finalLayout = VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL;

  VkAttachmentDescription& resolve = attachments[2];
  resolve.format = shape.color_format;
  resolve.samples = VK_SAMPLE_COUNT_1_BIT;
  resolve.loadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  resolve.storeOp = VK_ATTACHMENT_STORE_OP_STORE;
  resolve.stencilLoadOp = VK_ATTACHMENT_LOAD_OP_DONT_CARE;
  resolve.stencilStoreOp = VK_ATTACHMENT_STORE_OP_DONT_CARE;
  resolve.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  resolve.finalLayout = shape.final_layout;

  const VkAttachmentReference color_ref{0, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  const VkAttachmentReference depth_ref{1, VK_IMAGE_LAYOUT_DEPTH_STENCIL_ATTACHMENT_OPTIMAL};
  const VkAttachmentReference resolve_ref{2, VK_IMAGE_LAYOUT_COLOR_ATTACHMENT_OPTIMAL};
  VkSubpassDescription subpass{};
  subpass.pipelineBindPoint = VK_PIPELINE_BIND_POINT_GRAPHICS;
  subpass.colorAttachmentCount = 1;
  subpass.pColorAttachments = &color_ref;
  subpass.pResolveAttachments = multisampled ? &resolve_ref : nullptr;
  subpass.pDepthStencilAttachment = &depth_ref;

  // In: the previous frame's use of the same attachments (and a swapchain image's
  // acquire semaphore, which waits at colour output) must finish before we clear them.
  // Out: the colour result is read by a copy (read-back) or presented.
  const VkPipelineStageFlags attachment_stages = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT |
                                                 VK_PIPELINE_STAGE_EARLY_FRAGMENT_TESTS_BIT |
                                                 VK_PIPELINE_STAGE_LATE_FRAGMENT_TESTS_BIT;
  VkSubpassDependency dependencies[2]{};
  dependencies[0].srcSubpass = VK_SUBPASS_EXTERNAL;
  dependencies[0].dstSubpass = 0;
  dependencies[0].srcStageMask = attachment_stages;
  dependencies[0].dstStageMask = attachment_stages;
  dependencies[0].srcAccessMask = VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
  dependencies[0].dstAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT | VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_READ_BIT |
                                  VK_ACCESS_DEPTH_STENCIL_ATTACHMENT_WRITE_BIT;
  dependencies[1].srcSubpass = 0;
  dependencies[1].dstSubpass = VK_SUBPASS_EXTERNAL;
  dependencies[1].srcStageMask = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
  dependencies[1].srcAccessMask = VK_ACCESS_COLOR_ATTACHMENT_WRITE_BIT;
  if (shape.final_layout == VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL) {
    dependencies[1].dstStageMask = VK_PIPELINE_STAGE_TRANSFER_BIT;
    dependencies[1].dstAccessMask = VK_ACCESS_TRANSFER_READ_BIT;
  } else {
    dependencies[1].dstStageMask = VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT;
    dependencies[1].dstAccessMask = 0;
  }

  VkRenderPassCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_RENDER_PASS_CREATE_INFO;
  info.attachmentCount = multisampled ? 3 : 2;
  info.pAttachments = attachments;
  info.subpassCount = 1;
  info.pSubpasses = &subpass;
  info.dependencyCount = 2;
  info.pDependencies = dependencies;
  VkRenderPass render_pass = VK_NULL_HANDLE;
  NUDGE_VK_TRY(vkCreateRenderPass(device, &info, nullptr, &render_pass));
  return render_pass;
}

bool is_srgb_format(VkFormat format) {
  switch (format) {
    case VK_FORMAT_R8_SRGB:
    case VK_FORMAT_R8G8_SRGB:
    case VK_FORMAT_R8G8B8_SRGB:
    case VK_FORMAT_B8G8R8_SRGB:
    case VK_FORMAT_R8G8B8A8_SRGB:
    case VK_FORMAT_B8G8R8A8_SRGB:
    case VK_FORMAT_A8B8G8R8_SRGB_PACK32: return true;
    default: return false;
  }
}

namespace {
float srgb_to_linear(float c) { return c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f); }
}  // namespace

Expected<VkFramebuffer> create_scene_framebuffer(VkDevice device, VkRenderPass render_pass,
                                                 const VkImageView (&views)[3], bool multisampled, VkExtent2D extent) {
  VkFramebufferCreateInfo framebuffer{};
  framebuffer.sType = VK_STRUCTURE_TYPE_FRAMEBUFFER_CREATE_INFO;
  framebuffer.renderPass = render_pass;
  framebuffer.attachmentCount = multisampled ? 3 : 2;
  framebuffer.pAttachments = views;
  framebuffer.width = extent.width;
  framebuffer.height = extent.height;
  framebuffer.layers = 1;
  VkFramebuffer made = VK_NULL_HANDLE;
  NUDGE_VK_TRY(vkCreateFramebuffer(device, &framebuffer, nullptr, &made));
  return made;
}

SceneClearValues scene_clear_values(Rgba background, VkFormat color_format) {
  SceneClearValues clear{};
  Rgba c = background;
  if (is_srgb_format(color_format)) {
    c.r = srgb_to_linear(c.r);
    c.g = srgb_to_linear(c.g);
    c.b = srgb_to_linear(c.b);
  }
  clear.values[0].color = {{c.r, c.g, c.b, c.a}};
  clear.values[1].depthStencil = {1.0f, 0};
  clear.values[2].color = {{0, 0, 0, 0}};
  return clear;
}

VkSampleCountFlagBits supported_sample_count(const VkPhysicalDeviceProperties& properties, int requested) {
  const VkSampleCountFlags supported =
      properties.limits.framebufferColorSampleCounts & properties.limits.framebufferDepthSampleCounts;
  for (VkSampleCountFlagBits count : {VK_SAMPLE_COUNT_64_BIT, VK_SAMPLE_COUNT_32_BIT, VK_SAMPLE_COUNT_16_BIT,
                                      VK_SAMPLE_COUNT_8_BIT, VK_SAMPLE_COUNT_4_BIT, VK_SAMPLE_COUNT_2_BIT}) {
    if (static_cast<int>(count) <= requested && (supported & count)) return count;
  }
  return VK_SAMPLE_COUNT_1_BIT;
}

}  // namespace nudge::render
