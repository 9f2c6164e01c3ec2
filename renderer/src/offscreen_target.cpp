#include "nudge/render/offscreen_target.h"

#include <cstring>
#include <optional>
#include <string>
#include <utility>

#include "gpu_memory.h"
#include "nudge/render/render_pass.h"
#include "nudge/render/scene_renderer.h"
#include "vk_check.h"

namespace nudge::render {

namespace {

constexpr std::uint64_t kFenceTimeoutNs = 120'000'000'000;  // lavapipe is slow, not that slow

// Everything whose size follows the target's: re-created together on resize.
struct Surfaces {
  int width = 0, height = 0;
  DeviceImage color;  // multisampled when samples > 1
  DeviceImage depth;
  DeviceImage resolve;  // single-sample result; unused when samples == 1
  VkFramebuffer framebuffer = VK_NULL_HANDLE;
  HostBuffer readback;
};

void destroy_surfaces(VkDevice device, Surfaces& s) {
  if (s.framebuffer) vkDestroyFramebuffer(device, s.framebuffer, nullptr);
  destroy_device_image(device, s.color);
  destroy_device_image(device, s.depth);
  destroy_device_image(device, s.resolve);
  destroy_host_buffer(device, s.readback);
  s = {};
}

Expected<Surfaces> create_surfaces(const GpuDevice& gpu, VkRenderPass render_pass, VkFormat color_format,
                                   VkSampleCountFlagBits samples, int width, int height) {
  const std::uint32_t max_side = gpu.properties.limits.maxImageDimension2D;
  if (width <= 0 || height <= 0 || static_cast<std::uint32_t>(width) > max_side ||
      static_cast<std::uint32_t>(height) > max_side)
    return Error{"OffscreenTarget: size " + std::to_string(width) + " x " + std::to_string(height) +
                 " is not within 1 .. " + std::to_string(max_side)};
  Surfaces s;
  s.width = width;
  s.height = height;
  struct Guard {
    VkDevice device;
    Surfaces* surfaces;
    ~Guard() {
      if (surfaces) destroy_surfaces(device, *surfaces);
    }
  } guard{gpu.device, &s};

  const bool multisampled = samples != VK_SAMPLE_COUNT_1_BIT;
  DeviceImageSpec spec;
  spec.width = static_cast<std::uint32_t>(width);
  spec.height = static_cast<std::uint32_t>(height);
  spec.format = color_format;
  spec.samples = samples;
  spec.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT |
               (multisampled ? VkImageUsageFlags{0} : VkImageUsageFlags{VK_IMAGE_USAGE_TRANSFER_SRC_BIT});
  Expected<DeviceImage> color = create_device_image(gpu, spec);
  if (!color) return color.error();
  s.color = *color;

  spec.format = gpu.depth_format;
  spec.usage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT;
  spec.aspect = VK_IMAGE_ASPECT_DEPTH_BIT;
  Expected<DeviceImage> depth = create_device_image(gpu, spec);
  if (!depth) return depth.error();
  s.depth = *depth;

  if (multisampled) {
    spec.format = color_format;
    spec.samples = VK_SAMPLE_COUNT_1_BIT;
    spec.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT;
    spec.aspect = VK_IMAGE_ASPECT_COLOR_BIT;
    Expected<DeviceImage> resolve = create_device_image(gpu, spec);
    if (!resolve) return resolve.error();
    s.resolve = *resolve;
  }

  const VkImageView views[3] = {s.color.view, s.depth.view, s.resolve.view};
  Expected<VkFramebuffer> framebuffer =
      create_scene_framebuffer(gpu.device, render_pass, views, multisampled, {spec.width, spec.height});
  if (!framebuffer) return framebuffer.error();
  s.framebuffer = *framebuffer;

  // Read back through cached memory where there is some: the CPU reads every byte.
  Expected<HostBuffer> readback =
      create_host_buffer(gpu, static_cast<VkDeviceSize>(width) * static_cast<VkDeviceSize>(height) * 4,
                         VK_BUFFER_USAGE_TRANSFER_DST_BIT, VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
  if (!readback) return readback.error();
  s.readback = *readback;
  guard.surfaces = nullptr;
  return s;
}

}  // namespace

struct OffscreenTarget::State {
  GpuDevice gpu;
  VkFormat color_format = VK_FORMAT_R8G8B8A8_UNORM;
  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
  VkRenderPass render_pass = VK_NULL_HANDLE;
  std::optional<SceneRenderer> renderer;
  Surfaces surfaces;
  VkCommandBuffer commands = VK_NULL_HANDLE;
  VkFence fence = VK_NULL_HANDLE;

  ~State() {
    VkDevice device = gpu.device;
    if (!device) return;
    // render() waits for its work, but a failed wait may have left some in flight.
    vkQueueWaitIdle(gpu.queue);
    renderer.reset();
    destroy_surfaces(device, surfaces);
    if (fence) vkDestroyFence(device, fence, nullptr);
    if (commands) vkFreeCommandBuffers(device, gpu.command_pool, 1, &commands);
    if (render_pass) vkDestroyRenderPass(device, render_pass, nullptr);
  }

  Status record(const DrawList& list);
};

OffscreenTarget::OffscreenTarget() = default;
OffscreenTarget::OffscreenTarget(OffscreenTarget&&) noexcept = default;
OffscreenTarget& OffscreenTarget::operator=(OffscreenTarget&&) noexcept = default;
OffscreenTarget::~OffscreenTarget() = default;

int OffscreenTarget::width() const { return state_ ? state_->surfaces.width : 0; }
int OffscreenTarget::height() const { return state_ ? state_->surfaces.height : 0; }
int OffscreenTarget::samples() const { return state_ ? static_cast<int>(state_->samples) : 0; }

Expected<OffscreenTarget> OffscreenTarget::create(const GpuContext& gpu, int width, int height, int samples,
                                                  VkFormat color_format) {
  // UNORM, not _SRGB, by default: the draw list's sRGB-encoded colours go in as given.
  if (color_format != VK_FORMAT_R8G8B8A8_UNORM && color_format != VK_FORMAT_R8G8B8A8_SRGB)
    return Error{"OffscreenTarget: colour format " + std::to_string(color_format) +
                 " is not supported (R8G8B8A8_UNORM or R8G8B8A8_SRGB)"};
  OffscreenTarget target;
  target.state_ = std::make_unique<State>();
  State& s = *target.state_;
  s.gpu = gpu.device();
  s.color_format = color_format;
  s.samples = supported_sample_count(s.gpu.properties, samples);

  RenderPassShape shape;
  shape.color_format = color_format;
  shape.depth_format = s.gpu.depth_format;
  shape.samples = s.samples;
  shape.final_layout = VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL;
  Expected<VkRenderPass> render_pass = create_scene_render_pass(s.gpu.device, shape);
  if (!render_pass) return render_pass.error();
  s.render_pass = *render_pass;

  Expected<Surfaces> surfaces = create_surfaces(s.gpu, s.render_pass, s.color_format, s.samples, width, height);
  if (!surfaces) return surfaces.error();
  s.surfaces = *surfaces;

  SceneRendererConfig config;
  config.render_pass = s.render_pass;
  config.color_format = color_format;
  config.samples = s.samples;
  config.frames_in_flight = 1;  // render() waits for each frame
  Expected<SceneRenderer> renderer = SceneRenderer::create(gpu, config);
  if (!renderer) return renderer.error();
  s.renderer.emplace(std::move(*renderer));

  VkCommandBufferAllocateInfo allocate{};
  allocate.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
  allocate.commandPool = s.gpu.command_pool;
  allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  allocate.commandBufferCount = 1;
  NUDGE_VK_TRY(vkAllocateCommandBuffers(s.gpu.device, &allocate, &s.commands));
  VkFenceCreateInfo fence{};
  fence.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
  NUDGE_VK_TRY(vkCreateFence(s.gpu.device, &fence, nullptr, &s.fence));
  return target;
}

Status OffscreenTarget::resize(int width, int height) {
  if (!state_) return Error{"OffscreenTarget::resize on a moved-from target"};
  State& s = *state_;
  if (width == s.surfaces.width && height == s.surfaces.height) return Ok{};
  Expected<Surfaces> fresh = create_surfaces(s.gpu, s.render_pass, s.color_format, s.samples, width, height);
  if (!fresh) return fresh.error();
  destroy_surfaces(s.gpu.device, s.surfaces);  // no work in flight: render() waits
  s.surfaces = *fresh;
  return Ok{};
}

Status OffscreenTarget::State::record(const DrawList& list) {
  NUDGE_VK_TRY(vkResetCommandBuffer(commands, 0));
  VkCommandBufferBeginInfo begin{};
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  NUDGE_VK_TRY(vkBeginCommandBuffer(commands, &begin));

  const VkExtent2D extent{static_cast<std::uint32_t>(surfaces.width), static_cast<std::uint32_t>(surfaces.height)};
  const SceneClearValues clear = scene_clear_values(list.background, color_format);
  VkRenderPassBeginInfo pass{};
  pass.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO;
  pass.renderPass = render_pass;
  pass.framebuffer = surfaces.framebuffer;
  pass.renderArea = {{0, 0}, extent};
  pass.clearValueCount = samples != VK_SAMPLE_COUNT_1_BIT ? 3 : 2;
  pass.pClearValues = clear.values;
  vkCmdBeginRenderPass(commands, &pass, VK_SUBPASS_CONTENTS_INLINE);
  const Status drawn = renderer->record(commands, list, extent, 0);
  vkCmdEndRenderPass(commands);
  if (!drawn) {
    vkEndCommandBuffer(commands);
    return drawn.error();
  }

  // The render pass left the single-sample image in TRANSFER_SRC_OPTIMAL.
  VkBufferImageCopy region{};
  region.imageSubresource = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1};
  region.imageExtent = {extent.width, extent.height, 1};
  const VkImage source = samples != VK_SAMPLE_COUNT_1_BIT ? surfaces.resolve.image : surfaces.color.image;
  vkCmdCopyImageToBuffer(commands, source, VK_IMAGE_LAYOUT_TRANSFER_SRC_OPTIMAL, surfaces.readback.buffer, 1, &region);
  VkBufferMemoryBarrier to_host{};
  to_host.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_BARRIER;
  to_host.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  to_host.srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  to_host.dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
  to_host.buffer = surfaces.readback.buffer;
  to_host.size = VK_WHOLE_SIZE;
  vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 0, nullptr, 1, &to_host,
                       0, nullptr);
  NUDGE_VK_TRY(vkEndCommandBuffer(commands));
  return Ok{};
}

Expected<Image> OffscreenTarget::render(const DrawList& list) {
  if (!state_) return Error{"OffscreenTarget::render on a moved-from target"};
  State& s = *state_;
  if (Status recorded = s.record(list); !recorded) return recorded.error();

  VkSubmitInfo submit{};
  submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &s.commands;
  NUDGE_VK_TRY(vkResetFences(s.gpu.device, 1, &s.fence));
  NUDGE_VK_TRY(vkQueueSubmit(s.gpu.queue, 1, &submit, s.fence));
  NUDGE_VK_TRY(vkWaitForFences(s.gpu.device, 1, &s.fence, VK_TRUE, kFenceTimeoutNs));

  Image image;
  image.width = s.surfaces.width;
  image.height = s.surfaces.height;
  image.rgba.resize(static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height) * 4);
  std::memcpy(image.rgba.data(), s.surfaces.readback.mapped, image.rgba.size());
  return image;
}

}  // namespace nudge::render
