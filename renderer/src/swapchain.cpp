#include "nudge/render/swapchain.h"

#include <algorithm>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "gpu_memory.h"
#include "nudge/render/render_pass.h"
#include "vk_check.h"

namespace nudge::render {

namespace {

constexpr std::uint64_t kWaitTimeoutNs = 10'000'000'000;  // a frame that takes 10 s is a hang

// UNORM first: Dear ImGui's colours are sRGB-encoded and go in as given, like the scene's.
VkSurfaceFormatKHR choose_surface_format(const std::vector<VkSurfaceFormatKHR>& formats) {
  for (VkFormat wanted : {VK_FORMAT_B8G8R8A8_UNORM, VK_FORMAT_R8G8B8A8_UNORM})
    for (const VkSurfaceFormatKHR& f : formats)
      if (f.format == wanted && f.colorSpace == VK_COLOR_SPACE_SRGB_NONLINEAR_KHR) return f;
  return formats.front();
}

VkPresentModeKHR choose_present_mode(const std::vector<VkPresentModeKHR>& modes, bool vsync) {
  if (vsync) return VK_PRESENT_MODE_FIFO_KHR;  // always supported
  for (VkPresentModeKHR wanted : {VK_PRESENT_MODE_MAILBOX_KHR, VK_PRESENT_MODE_IMMEDIATE_KHR})
    if (std::find(modes.begin(), modes.end(), wanted) != modes.end()) return wanted;
  return VK_PRESENT_MODE_FIFO_KHR;
}

}  // namespace

struct Swapchain::State {
  GpuDevice gpu;
  VkSurfaceKHR surface = VK_NULL_HANDLE;
  SwapchainOptions options;
  VkSurfaceFormatKHR format{};
  VkPresentModeKHR present_mode = VK_PRESENT_MODE_FIFO_KHR;
  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
  VkRenderPass render_pass = VK_NULL_HANDLE;
  std::uint32_t min_image_count = 2;

  // Size-dependent: re-created together.
  VkSwapchainKHR swapchain = VK_NULL_HANDLE;
  VkExtent2D extent{};
  std::vector<VkImage> images;
  std::vector<VkImageView> views;
  std::vector<VkFramebuffer> framebuffers;
  std::vector<VkSemaphore> render_finished;  // per image: presentation waits on it
  DeviceImage color;                         // multisampled; unused when samples == 1
  DeviceImage depth;

  // Per frame in flight.
  VkCommandBuffer commands[kFramesInFlight]{};
  VkFence done[kFramesInFlight]{};
  VkSemaphore image_acquired[kFramesInFlight]{};

  std::uint32_t slot = 0;
  std::uint32_t image_index = 0;
  bool frame_open = false;
  bool stale = false;  // out of date or suboptimal: re-create before the next frame
  SceneClearValues clear{};

  ~State() {
    if (!gpu.device) return;
    vkDeviceWaitIdle(gpu.device);
    destroy_sized();
    if (swapchain) vkDestroySwapchainKHR(gpu.device, swapchain, nullptr);
    for (std::uint32_t i = 0; i < kFramesInFlight; ++i) {
      if (done[i]) vkDestroyFence(gpu.device, done[i], nullptr);
      if (image_acquired[i]) vkDestroySemaphore(gpu.device, image_acquired[i], nullptr);
      if (commands[i]) vkFreeCommandBuffers(gpu.device, gpu.command_pool, 1, &commands[i]);
    }
    if (render_pass) vkDestroyRenderPass(gpu.device, render_pass, nullptr);
  }

  // Everything that depends on the images, but not the swapchain itself (which the next
  // one is created from).
  void destroy_sized() {
    for (VkFramebuffer f : framebuffers) vkDestroyFramebuffer(gpu.device, f, nullptr);
    for (VkImageView v : views) vkDestroyImageView(gpu.device, v, nullptr);
    for (VkSemaphore s : render_finished) vkDestroySemaphore(gpu.device, s, nullptr);
    framebuffers.clear();
    views.clear();
    render_finished.clear();
    images.clear();
    destroy_device_image(gpu.device, color);
    destroy_device_image(gpu.device, depth);
  }

  Status create_per_frame();
  // Makes a swapchain for the surface's current size (or `wanted` where the surface lets
  // the application choose). Leaves extent 0 x 0 when the window is minimised.
  Status recreate(VkExtent2D wanted);
  Status create_sized();
};

Status Swapchain::State::create_per_frame() {
  VkCommandBufferAllocateInfo allocate{};
  allocate.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
  allocate.commandPool = gpu.command_pool;
  allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  allocate.commandBufferCount = kFramesInFlight;
  NUDGE_VK_TRY(vkAllocateCommandBuffers(gpu.device, &allocate, commands));
  VkFenceCreateInfo fence{};
  fence.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
  fence.flags = VK_FENCE_CREATE_SIGNALED_BIT;  // the first wait on each slot returns at once
  VkSemaphoreCreateInfo semaphore{};
  semaphore.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO;
  for (std::uint32_t i = 0; i < kFramesInFlight; ++i) {
    NUDGE_VK_TRY(vkCreateFence(gpu.device, &fence, nullptr, &done[i]));
    NUDGE_VK_TRY(vkCreateSemaphore(gpu.device, &semaphore, nullptr, &image_acquired[i]));
  }
  return Ok{};
}

Status Swapchain::State::recreate(VkExtent2D wanted) {
  NUDGE_VK_TRY(vkDeviceWaitIdle(gpu.device));
  VkSurfaceCapabilitiesKHR caps{};
  NUDGE_VK_TRY(vkGetPhysicalDeviceSurfaceCapabilitiesKHR(gpu.physical_device, surface, &caps));
  VkExtent2D size = caps.currentExtent;
  if (size.width == std::numeric_limits<std::uint32_t>::max()) {  // the application chooses
    size.width = std::clamp(wanted.width, caps.minImageExtent.width, caps.maxImageExtent.width);
    size.height = std::clamp(wanted.height, caps.minImageExtent.height, caps.maxImageExtent.height);
  }
  destroy_sized();
  extent = {0, 0};
  stale = false;
  if (size.width == 0 || size.height == 0) return Ok{};  // minimised: try again later

  std::uint32_t image_count = caps.minImageCount + 1;  // one to draw while one is shown
  if (caps.maxImageCount > 0) image_count = std::min(image_count, caps.maxImageCount);
  min_image_count = caps.minImageCount;

  VkSwapchainCreateInfoKHR info{};
  info.sType = VK_STRUCTURE_TYPE_SWAPCHAIN_CREATE_INFO_KHR;
  info.surface = surface;
  info.minImageCount = image_count;
  info.imageFormat = format.format;
  info.imageColorSpace = format.colorSpace;
  info.imageExtent = size;
  info.imageArrayLayers = 1;
  info.imageUsage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT;
  info.imageSharingMode = VK_SHARING_MODE_EXCLUSIVE;
  info.preTransform = (caps.supportedTransforms & VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR)
                          ? VK_SURFACE_TRANSFORM_IDENTITY_BIT_KHR
                          : caps.currentTransform;
  info.compositeAlpha = VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR;
  for (VkCompositeAlphaFlagBitsKHR alpha :
       {VK_COMPOSITE_ALPHA_OPAQUE_BIT_KHR, VK_COMPOSITE_ALPHA_INHERIT_BIT_KHR,
        VK_COMPOSITE_ALPHA_PRE_MULTIPLIED_BIT_KHR, VK_COMPOSITE_ALPHA_POST_MULTIPLIED_BIT_KHR})
    if (caps.supportedCompositeAlpha & alpha) {
      info.compositeAlpha = alpha;
      break;
    }
  info.presentMode = present_mode;
  info.clipped = VK_TRUE;
  info.oldSwapchain = swapchain;
  VkSwapchainKHR fresh = VK_NULL_HANDLE;
  const VkResult created = vkCreateSwapchainKHR(gpu.device, &info, nullptr, &fresh);
  if (swapchain) vkDestroySwapchainKHR(gpu.device, swapchain, nullptr);
  swapchain = VK_NULL_HANDLE;
  if (created != VK_SUCCESS) return vk_error("vkCreateSwapchainKHR", created, __FILE__, __LINE__);
  swapchain = fresh;
  extent = size;
  if (Status sized = create_sized(); !sized) {
    destroy_sized();
    extent = {0, 0};
    return sized.error();
  }
  return Ok{};
}

Status Swapchain::State::create_sized() {
  std::uint32_t count = 0;
  NUDGE_VK_TRY(vkGetSwapchainImagesKHR(gpu.device, swapchain, &count, nullptr));
  images.resize(count);
  NUDGE_VK_TRY(vkGetSwapchainImagesKHR(gpu.device, swapchain, &count, images.data()));

  const bool multisampled = samples != VK_SAMPLE_COUNT_1_BIT;
  DeviceImageSpec spec;
  spec.width = extent.width;
  spec.height = extent.height;
  spec.samples = samples;
  if (multisampled) {
    spec.format = format.format;
    // Transient: the samples are resolved in the render pass and never stored.
    spec.usage = VK_IMAGE_USAGE_COLOR_ATTACHMENT_BIT | VK_IMAGE_USAGE_TRANSIENT_ATTACHMENT_BIT;
    Expected<DeviceImage> image = create_device_image(gpu, spec);
    if (!image) return image.error();
    color = *image;
  }
  spec.format = gpu.depth_format;
  spec.usage = VK_IMAGE_USAGE_DEPTH_STENCIL_ATTACHMENT_BIT;
  spec.aspect = VK_IMAGE_ASPECT_DEPTH_BIT;
  Expected<DeviceImage> depth_image = create_device_image(gpu, spec);
  if (!depth_image) return depth_image.error();
  depth = *depth_image;

  VkSemaphoreCreateInfo semaphore{};
  semaphore.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO;
  for (VkImage image : images) {
    VkImageViewCreateInfo view{};
    view.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO;
    view.image = image;
    view.viewType = VK_IMAGE_VIEW_TYPE_2D;
    view.format = format.format;
    view.subresourceRange = {VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1};
    VkImageView created = VK_NULL_HANDLE;
    NUDGE_VK_TRY(vkCreateImageView(gpu.device, &view, nullptr, &created));
    views.push_back(created);

    // Attachment order of create_scene_render_pass: colour, depth, resolve.
    const VkImageView attachments[3] = {multisampled ? color.view : created, depth.view, created};
    Expected<VkFramebuffer> made = create_scene_framebuffer(gpu.device, render_pass, attachments, multisampled, extent);
    if (!made) return made.error();
    framebuffers.push_back(*made);

    VkSemaphore finished = VK_NULL_HANDLE;
    NUDGE_VK_TRY(vkCreateSemaphore(gpu.device, &semaphore, nullptr, &finished));
    render_finished.push_back(finished);
  }
  return Ok{};
}

Swapchain::Swapchain() = default;
Swapchain::Swapchain(Swapchain&&) noexcept = default;
Swapchain& Swapchain::operator=(Swapchain&&) noexcept = default;
Swapchain::~Swapchain() = default;

Expected<Swapchain> Swapchain::create(const GpuContext& gpu, VkSurfaceKHR surface, VkExtent2D framebuffer_extent,
                                      const SwapchainOptions& options) {
  Swapchain chain;
  chain.state_ = std::make_unique<State>();
  State& s = *chain.state_;
  s.gpu = gpu.device();
  s.surface = surface;
  s.options = options;

  VkBool32 presentable = VK_FALSE;
  NUDGE_VK_TRY(vkGetPhysicalDeviceSurfaceSupportKHR(s.gpu.physical_device, s.gpu.queue_family, surface, &presentable));
  if (!presentable)
    return Error{"Swapchain: the graphics queue of " + gpu.device_name() + " cannot present to this window"};

  std::uint32_t count = 0;
  NUDGE_VK_TRY(vkGetPhysicalDeviceSurfaceFormatsKHR(s.gpu.physical_device, surface, &count, nullptr));
  if (count == 0) return Error{"Swapchain: the window's surface offers no pixel format"};
  std::vector<VkSurfaceFormatKHR> formats(count);
  NUDGE_VK_TRY(vkGetPhysicalDeviceSurfaceFormatsKHR(s.gpu.physical_device, surface, &count, formats.data()));
  s.format = choose_surface_format(formats);

  NUDGE_VK_TRY(vkGetPhysicalDeviceSurfacePresentModesKHR(s.gpu.physical_device, surface, &count, nullptr));
  std::vector<VkPresentModeKHR> modes(count);
  NUDGE_VK_TRY(vkGetPhysicalDeviceSurfacePresentModesKHR(s.gpu.physical_device, surface, &count, modes.data()));
  s.present_mode = choose_present_mode(modes, options.vsync);
  s.samples = supported_sample_count(s.gpu.properties, options.samples);

  RenderPassShape shape;
  shape.color_format = s.format.format;
  shape.depth_format = s.gpu.depth_format;
  shape.samples = s.samples;
  shape.final_layout = VK_IMAGE_LAYOUT_PRESENT_SRC_KHR;
  Expected<VkRenderPass> render_pass = create_scene_render_pass(s.gpu.device, shape);
  if (!render_pass) return render_pass.error();
  s.render_pass = *render_pass;

  if (Status made = s.create_per_frame(); !made) return made.error();
  if (Status made = s.recreate(framebuffer_extent); !made) return made.error();
  return chain;
}

Expected<std::optional<SwapchainFrame>> Swapchain::begin_frame(VkExtent2D framebuffer_extent, Rgba background) {
  if (!state_) return Error{"Swapchain::begin_frame on a moved-from swapchain"};
  State& s = *state_;
  if (s.frame_open) return Error{"Swapchain::begin_frame: the previous frame was not ended"};
  if (framebuffer_extent.width == 0 || framebuffer_extent.height == 0)
    return std::optional<SwapchainFrame>{};  // minimised
  if (s.stale || !s.swapchain || s.extent.width != framebuffer_extent.width ||
      s.extent.height != framebuffer_extent.height) {
    if (Status remade = s.recreate(framebuffer_extent); !remade) return remade.error();
    if (s.extent.width == 0) return std::optional<SwapchainFrame>{};
  }

  NUDGE_VK_TRY(vkWaitForFences(s.gpu.device, 1, &s.done[s.slot], VK_TRUE, kWaitTimeoutNs));
  const VkResult acquired = vkAcquireNextImageKHR(s.gpu.device, s.swapchain, kWaitTimeoutNs, s.image_acquired[s.slot],
                                                  VK_NULL_HANDLE, &s.image_index);
  if (acquired == VK_ERROR_OUT_OF_DATE_KHR) {
    s.stale = true;
    return std::optional<SwapchainFrame>{};
  }
  if (acquired == VK_SUBOPTIMAL_KHR)
    s.stale = true;  // draw this one; re-create afterwards
  else if (acquired != VK_SUCCESS)
    return vk_error("vkAcquireNextImageKHR", acquired, __FILE__, __LINE__);

  // Reset only now: had the acquire failed, an unsignalled fence would block the next wait.
  NUDGE_VK_TRY(vkResetFences(s.gpu.device, 1, &s.done[s.slot]));
  VkCommandBuffer commands = s.commands[s.slot];
  NUDGE_VK_TRY(vkResetCommandBuffer(commands, 0));
  VkCommandBufferBeginInfo begin{};
  begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  begin.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  NUDGE_VK_TRY(vkBeginCommandBuffer(commands, &begin));
  s.frame_open = true;

  s.clear = scene_clear_values(background, s.format.format);
  SwapchainFrame frame;
  frame.commands = commands;
  frame.extent = s.extent;
  frame.slot = s.slot;
  frame.render_pass_begin.sType = VK_STRUCTURE_TYPE_RENDER_PASS_BEGIN_INFO;
  frame.render_pass_begin.renderPass = s.render_pass;
  frame.render_pass_begin.framebuffer = s.framebuffers[s.image_index];
  frame.render_pass_begin.renderArea = {{0, 0}, s.extent};
  frame.render_pass_begin.clearValueCount = s.samples != VK_SAMPLE_COUNT_1_BIT ? 3 : 2;
  frame.render_pass_begin.pClearValues = s.clear.values;
  return std::optional<SwapchainFrame>{frame};
}

Status Swapchain::end_frame() {
  if (!state_) return Error{"Swapchain::end_frame on a moved-from swapchain"};
  State& s = *state_;
  if (!s.frame_open) return Error{"Swapchain::end_frame without begin_frame"};
  s.frame_open = false;
  VkCommandBuffer commands = s.commands[s.slot];
  NUDGE_VK_TRY(vkEndCommandBuffer(commands));

  const VkPipelineStageFlags wait_stage = VK_PIPELINE_STAGE_COLOR_ATTACHMENT_OUTPUT_BIT;
  VkSubmitInfo submit{};
  submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  submit.waitSemaphoreCount = 1;
  submit.pWaitSemaphores = &s.image_acquired[s.slot];
  submit.pWaitDstStageMask = &wait_stage;
  submit.commandBufferCount = 1;
  submit.pCommandBuffers = &commands;
  submit.signalSemaphoreCount = 1;
  submit.pSignalSemaphores = &s.render_finished[s.image_index];
  NUDGE_VK_TRY(vkQueueSubmit(s.gpu.queue, 1, &submit, s.done[s.slot]));
  s.slot = (s.slot + 1) % kFramesInFlight;

  VkPresentInfoKHR present{};
  present.sType = VK_STRUCTURE_TYPE_PRESENT_INFO_KHR;
  present.waitSemaphoreCount = 1;
  present.pWaitSemaphores = &s.render_finished[s.image_index];
  present.swapchainCount = 1;
  present.pSwapchains = &s.swapchain;
  present.pImageIndices = &s.image_index;
  const VkResult presented = vkQueuePresentKHR(s.gpu.queue, &present);
  if (presented == VK_ERROR_OUT_OF_DATE_KHR || presented == VK_SUBOPTIMAL_KHR) {
    s.stale = true;
    return Ok{};
  }
  if (presented != VK_SUCCESS) return vk_error("vkQueuePresentKHR", presented, __FILE__, __LINE__);
  return Ok{};
}

VkRenderPass Swapchain::render_pass() const { return state_ ? state_->render_pass : VK_NULL_HANDLE; }
VkFormat Swapchain::color_format() const { return state_ ? state_->format.format : VK_FORMAT_UNDEFINED; }
VkSampleCountFlagBits Swapchain::samples() const { return state_ ? state_->samples : VK_SAMPLE_COUNT_1_BIT; }
std::uint32_t Swapchain::image_count() const { return state_ ? static_cast<std::uint32_t>(state_->images.size()) : 0; }
std::uint32_t Swapchain::min_image_count() const { return state_ ? state_->min_image_count : 0; }
VkExtent2D Swapchain::extent() const { return state_ ? state_->extent : VkExtent2D{}; }
VkPresentModeKHR Swapchain::present_mode() const { return state_ ? state_->present_mode : VK_PRESENT_MODE_FIFO_KHR; }

}  // namespace nudge::render
