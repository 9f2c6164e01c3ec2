// The Vulkan instance, device and queue that everything else draws with.
//
// Implemented features:
//  - optional Khronos validation layer with a debug messenger that counts warnings and
//    errors and keeps their text (missing layer: a note, and the context still works);
//  - physical device choice: discrete GPU first, then integrated, virtual, CPU (lavapipe);
//  - one graphics queue and a resettable command pool;
//  - VK_KHR_swapchain and present support on request, for the window.
// Single-threaded: the queue and the command pool must be used from one thread.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <vulkan/vulkan.h>

#include "nudge/render/result.h"

namespace nudge::render {

struct ContextOptions {
  bool validation = false;
  std::vector<std::string> instance_extensions;  // e.g. from glfwGetRequiredInstanceExtensions
  bool swapchain = false;                        // enable VK_KHR_swapchain and require present support
  // With `swapchain`: whether a queue family of a device can present to the window
  // (glfwGetPhysicalDevicePresentationSupport fits). Without it, the graphics family is
  // assumed to present; the window checks its surface when it creates one.
  std::function<bool(VkInstance, VkPhysicalDevice, std::uint32_t queue_family)> presentation_support;
  bool print_validation_messages = true;  // also write them to stderr as they come
};

// Validation warnings and errors, counted and kept. Shared, so that messages that come
// while the device is destroyed (objects not freed) can still be read afterwards.
class ValidationLog {
public:
  explicit ValidationLog(bool echo_to_stderr) : echo_(echo_to_stderr) {}
  std::size_t count() const;
  std::vector<std::string> messages() const;  // the first kMaxKept, in order
  void add(std::string message);

  static constexpr std::size_t kMaxKept = 64;

private:
  mutable std::mutex mutex_;
  bool echo_ = false;
  std::size_t count_ = 0;
  std::vector<std::string> messages_;
};

// Handles and facts that objects built on the context copy (they stay valid as long as the
// context lives; copying them keeps those objects independent of where the context moves).
struct GpuDevice {
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical_device = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  VkQueue queue = VK_NULL_HANDLE;
  std::uint32_t queue_family = 0;
  VkCommandPool command_pool = VK_NULL_HANDLE;  // resettable command buffers, on `queue`
  VkPhysicalDeviceProperties properties{};
  VkPhysicalDeviceMemoryProperties memory{};
  VkFormat depth_format = VK_FORMAT_UNDEFINED;  // best depth attachment format found
  bool sample_rate_shading = false;             // enabled: spheres shade per sample for smooth edges
  bool wide_lines = false;                      // enabled: line primitives wider than one pixel
  bool large_points = false;                    // enabled: point sprites larger than one pixel
};

class GpuContext {
public:
  static Expected<GpuContext> create(const ContextOptions& options);

  GpuContext(GpuContext&& other) noexcept;
  GpuContext& operator=(GpuContext&& other) noexcept;
  GpuContext(const GpuContext&) = delete;
  GpuContext& operator=(const GpuContext&) = delete;
  ~GpuContext();

  const GpuDevice& device() const { return device_; }
  std::string device_name() const { return device_.properties.deviceName; }

  bool validation_enabled() const { return messenger_ != VK_NULL_HANDLE; }
  std::size_t validation_message_count() const { return log_ ? log_->count() : 0; }
  std::vector<std::string> validation_messages() const { return log_ ? log_->messages() : std::vector<std::string>{}; }
  std::shared_ptr<const ValidationLog> validation_log() const { return log_; }
  // Things worth knowing that are not validation messages (e.g. "layer not installed").
  const std::vector<std::string>& notes() const { return notes_; }

  // vkDeviceWaitIdle, reported as an error on failure (e.g. device lost).
  Status wait_idle() const;

private:
  GpuContext();
  void destroy();

  GpuDevice device_;
  VkDebugUtilsMessengerEXT messenger_ = VK_NULL_HANDLE;
  std::shared_ptr<ValidationLog> log_;
  std::vector<std::string> notes_;
};

}  // namespace nudge::render
