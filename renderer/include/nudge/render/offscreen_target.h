// Renders draw lists into an image with no window: screenshots, frame export and
// pixel-checked tests (lavapipe runs it on machines with no GPU).
#pragma once

#include <memory>

#include <vulkan/vulkan.h>

#include "nudge/render/draw_list.h"
#include "nudge/render/gpu_context.h"
#include "nudge/render/image.h"
#include "nudge/render/result.h"

namespace nudge::render {

class OffscreenTarget {
public:
  // An R8G8B8A8_UNORM target. `samples` is reduced to what the device supports.
  // R8G8B8A8_SRGB is accepted too (it gives the same bytes; it exercises the path of
  // sRGB swapchains); other formats are refused.
  static Expected<OffscreenTarget> create(const GpuContext& gpu, int width, int height, int samples = 4,
                                          VkFormat color_format = VK_FORMAT_R8G8B8A8_UNORM);

  OffscreenTarget(OffscreenTarget&& other) noexcept;
  OffscreenTarget& operator=(OffscreenTarget&& other) noexcept;
  OffscreenTarget(const OffscreenTarget&) = delete;
  OffscreenTarget& operator=(const OffscreenTarget&) = delete;
  ~OffscreenTarget();

  // Renders, copies the pixels to the host and waits for them (a fence): synchronous.
  Expected<Image> render(const DrawList& list);

  // Re-creates the size-dependent images; the pipelines are kept. On failure the target
  // keeps its old size and stays usable.
  Status resize(int width, int height);

  int width() const;
  int height() const;
  int samples() const;

private:
  struct State;  // offscreen_target.cpp
  OffscreenTarget();
  std::unique_ptr<State> state_;
};

}  // namespace nudge::render
