#include "gpu_memory.h"

#include <string>

#include "vk_check.h"

namespace nudge::render {

Expected<std::uint32_t> find_memory_type(const VkPhysicalDeviceMemoryProperties& memory, std::uint32_t type_bits,
                                         VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred) {
  for (VkMemoryPropertyFlags wanted : {required | preferred, required}) {
    for (std::uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
      if ((type_bits & (1u << i)) && (memory.memoryTypes[i].propertyFlags & wanted) == wanted) return i;
    }
  }
  return Error{"no Vulkan memory type with properties " + std::to_string(required) + " for memory type bits " +
               std::to_string(type_bits)};
}

Expected<HostBuffer> create_host_buffer(const GpuDevice& gpu, VkDeviceSize size, VkBufferUsageFlags usage,
                                        VkMemoryPropertyFlags preferred) {
  HostBuffer result;
  result.size = size;
  // Frees what was made so far when a later step fails.
  struct Guard {
    VkDevice device;
    HostBuffer* buffer;
    ~Guard() {
      if (buffer) destroy_host_buffer(device, *buffer);
    }
  } guard{gpu.device, &result};

  VkBufferCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  info.size = size;
  info.usage = usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  NUDGE_VK_TRY(vkCreateBuffer(gpu.device, &info, nullptr, &result.buffer));
  VkMemoryRequirements requirements;
  vkGetBufferMemoryRequirements(gpu.device, result.buffer, &requirements);
  const VkMemoryPropertyFlags required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  Expected<std::uint32_t> type = find_memory_type(gpu.memory, requirements.memoryTypeBits, required, preferred);
  if (!type) return type.error();
  VkMemoryAllocateInfo allocate{};
  allocate.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  allocate.allocationSize = requirements.size;
  allocate.memoryTypeIndex = *type;
  VkResult allocated = vkAllocateMemory(gpu.device, &allocate, nullptr, &result.memory);
  if (allocated != VK_SUCCESS && preferred != 0) {
    // The preferred heap can be small (device-local host-visible memory without
    // resizable BAR is 256 MiB): fall back to plain host memory.
    allocate.memoryTypeIndex = *find_memory_type(gpu.memory, requirements.memoryTypeBits, required, 0);
    allocated = vkAllocateMemory(gpu.device, &allocate, nullptr, &result.memory);
  }
  NUDGE_VK_TRY(allocated);
  NUDGE_VK_TRY(vkBindBufferMemory(gpu.device, result.buffer, result.memory, 0));
  NUDGE_VK_TRY(vkMapMemory(gpu.device, result.memory, 0, VK_WHOLE_SIZE, 0, &result.mapped));
  guard.buffer = nullptr;
  return result;
}

void destroy_host_buffer(VkDevice device, HostBuffer& buffer) {
  if (buffer.memory && buffer.mapped) vkUnmapMemory(device, buffer.memory);
  if (buffer.buffer) vkDestroyBuffer(device, buffer.buffer, nullptr);
  if (buffer.memory) vkFreeMemory(device, buffer.memory, nullptr);
  buffer = {};
}

Expected<DeviceImage> create_device_image(const GpuDevice& gpu, const DeviceImageSpec& spec) {
  DeviceImage result;
  struct Guard {
    VkDevice device;
    DeviceImage* image;
    ~Guard() {
      if (image) destroy_device_image(device, *image);
    }
  } guard{gpu.device, &result};

  VkImageCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
  info.imageType = VK_IMAGE_TYPE_2D;
  info.format = spec.format;
  info.extent = {spec.width, spec.height, 1};
  info.mipLevels = 1;
  info.arrayLayers = 1;
  info.samples = spec.samples;
  info.tiling = VK_IMAGE_TILING_OPTIMAL;
  info.usage = spec.usage;
  info.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  info.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
  NUDGE_VK_TRY(vkCreateImage(gpu.device, &info, nullptr, &result.image));
  VkMemoryRequirements requirements;
  vkGetImageMemoryRequirements(gpu.device, result.image, &requirements);
  Expected<std::uint32_t> type =
      find_memory_type(gpu.memory, requirements.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0);
  if (!type) return type.error();
  VkMemoryAllocateInfo allocate{};
  allocate.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  allocate.allocationSize = requirements.size;
  allocate.memoryTypeIndex = *type;
  NUDGE_VK_TRY(vkAllocateMemory(gpu.device, &allocate, nullptr, &result.memory));
  NUDGE_VK_TRY(vkBindImageMemory(gpu.device, result.image, result.memory, 0));

  VkImageViewCreateInfo view{};
  view.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO;
  view.image = result.image;
  view.viewType = VK_IMAGE_VIEW_TYPE_2D;
  view.format = spec.format;
  view.subresourceRange = {spec.aspect, 0, 1, 0, 1};
  NUDGE_VK_TRY(vkCreateImageView(gpu.device, &view, nullptr, &result.view));
  guard.image = nullptr;
  return result;
}

void destroy_device_image(VkDevice device, DeviceImage& image) {
  if (image.view) vkDestroyImageView(device, image.view, nullptr);
  if (image.image) vkDestroyImage(device, image.image, nullptr);
  if (image.memory) vkFreeMemory(device, image.memory, nullptr);
  image = {};
}

}  // namespace nudge::render
