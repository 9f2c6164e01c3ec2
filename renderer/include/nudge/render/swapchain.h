// A window's swapchain and the frames drawn into it: the scene render pass (multisampled
// colour, depth, resolve into the presented image), one framebuffer per swapchain image,
// and two frames in flight, each with its command buffer, fence and semaphores.
//
// It takes a VkSurfaceKHR, so the renderer needs no windowing library: the app makes the
// surface with GLFW. The render pass keeps its shape for the swapchain's whole life, so
// pipelines built on it (the scene renderer, Dear ImGui) survive every re-creation.
// Resizes and minimising are handled in begin_frame(): a changed size re-creates the
// size-dependent objects, and a zero-sized (minimised) window draws nothing.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include <vulkan/vulkan.h>

#include "nudge/render/color_map.h"
#include "nudge/render/gpu_context.h"
#include "nudge/render/result.h"

namespace nudge::render {

struct SwapchainOptions {
  int samples = 4;    // reduced to what the device supports
  bool vsync = true;  // FIFO; false prefers MAILBOX, then IMMEDIATE (benchmarks)
};

// One frame being recorded: begin the render pass with `render_pass_begin`, draw, end it.
struct SwapchainFrame {
  VkCommandBuffer commands = VK_NULL_HANDLE;  // begun, one-time submit
  VkRenderPassBeginInfo render_pass_begin{};  // framebuffer, full area, clear values
  VkExtent2D extent{};
  std::uint32_t slot = 0;  // frame in flight: pass to SceneRenderer::record
};

class Swapchain {
public:
  static constexpr std::uint32_t kFramesInFlight = 2;

  // The surface must stay alive until the swapchain is destroyed; the swapchain does not
  // own it. `framebuffer_extent` is the window's size in pixels.
  static Expected<Swapchain> create(const GpuContext& gpu, VkSurfaceKHR surface, VkExtent2D framebuffer_extent,
                                    const SwapchainOptions& options = {});

  Swapchain(Swapchain&& other) noexcept;
  Swapchain& operator=(Swapchain&& other) noexcept;
  Swapchain(const Swapchain&) = delete;
  Swapchain& operator=(const Swapchain&) = delete;
  ~Swapchain();

  // Waits for this slot's previous frame, acquires an image and begins the slot's command
  // buffer. Empty when there is nothing to draw into this time (a minimised window, or a
  // swapchain that was out of date and has just been re-created): skip the frame.
  // `framebuffer_extent` is the window's current size in pixels; the whole image is
  // cleared to `background` (sRGB-encoded, as in DrawList).
  Expected<std::optional<SwapchainFrame>> begin_frame(VkExtent2D framebuffer_extent, Rgba background);

  // Ends the command buffer, submits it and presents. An out-of-date or suboptimal
  // swapchain is re-created on the next begin_frame().
  Status end_frame();

  VkRenderPass render_pass() const;
  VkFormat color_format() const;
  VkSampleCountFlagBits samples() const;
  std::uint32_t image_count() const;
  std::uint32_t min_image_count() const;
  VkExtent2D extent() const;
  VkPresentModeKHR present_mode() const;

private:
  struct State;  // swapchain.cpp
  Swapchain();
  std::unique_ptr<State> state_;
};

}  // namespace nudge::render
