// Buffers and images with their own memory: plain structs with free create and destroy
// functions. The renderer makes a handful of them, so one allocation each is fine.
#pragma once

#include <cstdint>

#include <vulkan/vulkan.h>

#include "nudge/render/gpu_context.h"
#include "nudge/render/result.h"

namespace nudge::render {

// A memory type allowed by `type_bits` with all of `required`, preferring those that also
// have `preferred`. Empty when there is none.
Expected<std::uint32_t> find_memory_type(const VkPhysicalDeviceMemoryProperties& memory, std::uint32_t type_bits,
                                         VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred);

// A buffer in host-visible, coherent memory, mapped for its whole life.
struct HostBuffer {
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  void* mapped = nullptr;
  VkDeviceSize size = 0;
};

// `preferred` adds memory properties to try first (e.g. DEVICE_LOCAL for data the GPU
// reads every frame, HOST_CACHED for read-back); plain host-visible memory otherwise.
Expected<HostBuffer> create_host_buffer(const GpuDevice& gpu, VkDeviceSize size, VkBufferUsageFlags usage,
                                        VkMemoryPropertyFlags preferred);
void destroy_host_buffer(VkDevice device, HostBuffer& buffer);

// A 2D image in device-local memory with one view of all of it.
struct DeviceImage {
  VkImage image = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkImageView view = VK_NULL_HANDLE;
};

struct DeviceImageSpec {
  std::uint32_t width = 0, height = 0;
  VkFormat format = VK_FORMAT_UNDEFINED;
  VkSampleCountFlagBits samples = VK_SAMPLE_COUNT_1_BIT;
  VkImageUsageFlags usage = 0;
  VkImageAspectFlags aspect = VK_IMAGE_ASPECT_COLOR_BIT;
};

Expected<DeviceImage> create_device_image(const GpuDevice& gpu, const DeviceImageSpec& spec);
void destroy_device_image(VkDevice device, DeviceImage& image);

}  // namespace nudge::render
