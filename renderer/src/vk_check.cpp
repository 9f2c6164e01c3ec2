#include "vk_check.h"

#include <filesystem>

namespace nudge::render {

std::string vk_result_name(VkResult result) {
  switch (result) {
#define NUDGE_CASE(name) \
  case name: return #name;
    NUDGE_CASE(VK_SUCCESS)
    NUDGE_CASE(VK_NOT_READY)
    NUDGE_CASE(VK_TIMEOUT)
    NUDGE_CASE(VK_EVENT_SET)
    NUDGE_CASE(VK_EVENT_RESET)
    NUDGE_CASE(VK_INCOMPLETE)
    NUDGE_CASE(VK_ERROR_OUT_OF_HOST_MEMORY)
    NUDGE_CASE(VK_ERROR_OUT_OF_DEVICE_MEMORY)
    NUDGE_CASE(VK_ERROR_INITIALIZATION_FAILED)
    NUDGE_CASE(VK_ERROR_DEVICE_LOST)
    NUDGE_CASE(VK_ERROR_MEMORY_MAP_FAILED)
    NUDGE_CASE(VK_ERROR_LAYER_NOT_PRESENT)
    NUDGE_CASE(VK_ERROR_EXTENSION_NOT_PRESENT)
    NUDGE_CASE(VK_ERROR_FEATURE_NOT_PRESENT)
    NUDGE_CASE(VK_ERROR_INCOMPATIBLE_DRIVER)
    NUDGE_CASE(VK_ERROR_TOO_MANY_OBJECTS)
    NUDGE_CASE(VK_ERROR_FORMAT_NOT_SUPPORTED)
    NUDGE_CASE(VK_ERROR_FRAGMENTED_POOL)
    NUDGE_CASE(VK_ERROR_UNKNOWN)
    NUDGE_CASE(VK_ERROR_OUT_OF_POOL_MEMORY)
    NUDGE_CASE(VK_ERROR_INVALID_EXTERNAL_HANDLE)
    NUDGE_CASE(VK_ERROR_FRAGMENTATION)
    NUDGE_CASE(VK_ERROR_INVALID_OPAQUE_CAPTURE_ADDRESS)
    NUDGE_CASE(VK_ERROR_SURFACE_LOST_KHR)
    NUDGE_CASE(VK_ERROR_NATIVE_WINDOW_IN_USE_KHR)
    NUDGE_CASE(VK_SUBOPTIMAL_KHR)
    NUDGE_CASE(VK_ERROR_OUT_OF_DATE_KHR)
    NUDGE_CASE(VK_ERROR_INCOMPATIBLE_DISPLAY_KHR)
    NUDGE_CASE(VK_ERROR_VALIDATION_FAILED_EXT)
    NUDGE_CASE(VK_ERROR_INVALID_SHADER_NV)
#undef NUDGE_CASE
    default: return "VkResult(" + std::to_string(static_cast<int>(result)) + ")";
  }
}

Error vk_error(std::string_view call, VkResult result, const char* file, int line) {
  // Only the function's name: the arguments add noise, not information.
  const std::string_view function = call.substr(0, call.find('('));
  return Error{std::string(function) + " failed: " + vk_result_name(result) + " (" +
               std::filesystem::path(file).filename().string() + ":" + std::to_string(line) + ")"};
}

}  // namespace nudge::render
