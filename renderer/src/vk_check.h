// Turning failed Vulkan calls into errors that say which call failed and how.
#pragma once

#include <string>
#include <string_view>

#include <vulkan/vulkan.h>

#include "nudge/render/result.h"

namespace nudge::render {

// "VK_ERROR_OUT_OF_DEVICE_MEMORY", or "VkResult(-42)" for codes this build does not know.
std::string vk_result_name(VkResult result);

// "vkCreateBuffer(...) failed: VK_ERROR_OUT_OF_DEVICE_MEMORY (scene_renderer.cpp:120)"
Error vk_error(std::string_view call, VkResult result, const char* file, int line);

}  // namespace nudge::render

// Evaluates a call that returns VkResult; on anything but VK_SUCCESS returns an Error
// (which converts to any Expected<T>) from the enclosing function.
#define NUDGE_VK_TRY(call)                                                                                             \
  do {                                                                                                                 \
    const VkResult nudge_vk_result_ = (call);                                                                          \
    if (nudge_vk_result_ != VK_SUCCESS) return ::nudge::render::vk_error(#call, nudge_vk_result_, __FILE__, __LINE__); \
  } while (false)
