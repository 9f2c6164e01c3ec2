#include "nudge/render/gpu_context.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <optional>
#include <utility>

#include "vk_check.h"

namespace nudge::render {

namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

VKAPI_ATTR VkBool32 VKAPI_CALL on_validation_message(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                                     VkDebugUtilsMessageTypeFlagsEXT,
                                                     const VkDebugUtilsMessengerCallbackDataEXT* data,
                                                     void* user_data) {
  auto* log = static_cast<ValidationLog*>(user_data);
  std::string text = (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) ? "error: " : "warning: ";
  text += (data && data->pMessage) ? data->pMessage : "(no message)";
  log->add(std::move(text));
  return VK_FALSE;  // never abort the call that produced the message
}

VkDebugUtilsMessengerCreateInfoEXT messenger_info(ValidationLog* log) {
  VkDebugUtilsMessengerCreateInfoEXT info{};
  info.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
  info.messageSeverity =
      VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  info.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                     VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  info.pfnUserCallback = on_validation_message;
  info.pUserData = log;
  return info;
}

bool has_layer(const char* name) {
  std::uint32_t count = 0;
  if (vkEnumerateInstanceLayerProperties(&count, nullptr) != VK_SUCCESS) return false;
  std::vector<VkLayerProperties> layers(count);
  if (vkEnumerateInstanceLayerProperties(&count, layers.data()) != VK_SUCCESS) return false;
  return std::any_of(layers.begin(), layers.end(),
                     [&](const VkLayerProperties& l) { return std::strcmp(l.layerName, name) == 0; });
}

std::vector<std::string> instance_extensions(const char* layer) {
  std::uint32_t count = 0;
  std::vector<std::string> names;
  if (vkEnumerateInstanceExtensionProperties(layer, &count, nullptr) != VK_SUCCESS) return names;
  std::vector<VkExtensionProperties> found(count);
  if (vkEnumerateInstanceExtensionProperties(layer, &count, found.data()) != VK_SUCCESS) return names;
  for (const VkExtensionProperties& e : found) names.emplace_back(e.extensionName);
  return names;
}

bool has_device_extension(VkPhysicalDevice device, const char* name) {
  std::uint32_t count = 0;
  if (vkEnumerateDeviceExtensionProperties(device, nullptr, &count, nullptr) != VK_SUCCESS) return false;
  std::vector<VkExtensionProperties> found(count);
  if (vkEnumerateDeviceExtensionProperties(device, nullptr, &count, found.data()) != VK_SUCCESS) return false;
  return std::any_of(found.begin(), found.end(),
                     [&](const VkExtensionProperties& e) { return std::strcmp(e.extensionName, name) == 0; });
}

// Lower is better: discrete GPUs first, CPU implementations (lavapipe) last.
int type_rank(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return 2;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return 3;
    default: return 4;
  }
}

// The first queue family with graphics (and presentation, when asked), if any.
std::optional<std::uint32_t> graphics_family(VkInstance instance, VkPhysicalDevice device,
                                             const ContextOptions& options) {
  std::uint32_t count = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(device, &count, nullptr);
  std::vector<VkQueueFamilyProperties> families(count);
  vkGetPhysicalDeviceQueueFamilyProperties(device, &count, families.data());
  for (std::uint32_t i = 0; i < count; ++i) {
    if (!(families[i].queueFlags & VK_QUEUE_GRAPHICS_BIT) || families[i].queueCount == 0) continue;
    if (options.swapchain && options.presentation_support && !options.presentation_support(instance, device, i))
      continue;
    return i;
  }
  return std::nullopt;
}

VkFormat find_depth_format(VkPhysicalDevice device) {
  for (VkFormat format :
       {VK_FORMAT_D32_SFLOAT, VK_FORMAT_D32_SFLOAT_S8_UINT, VK_FORMAT_D24_UNORM_S8_UINT, VK_FORMAT_D16_UNORM}) {
    VkFormatProperties properties;
    vkGetPhysicalDeviceFormatProperties(device, format, &properties);
    if (properties.optimalTilingFeatures & VK_FORMAT_FEATURE_DEPTH_STENCIL_ATTACHMENT_BIT) return format;
  }
  return VK_FORMAT_UNDEFINED;
}

}  // namespace

std::size_t ValidationLog::count() const {
  std::lock_guard lock(mutex_);
  return count_;
}

std::vector<std::string> ValidationLog::messages() const {
  std::lock_guard lock(mutex_);
  return messages_;
}

void ValidationLog::add(std::string message) {
  if (echo_) std::fprintf(stderr, "vulkan validation %s\n", message.c_str());
  std::lock_guard lock(mutex_);
  ++count_;
  if (messages_.size() < kMaxKept) messages_.push_back(std::move(message));
}

GpuContext::GpuContext() = default;

GpuContext::GpuContext(GpuContext&& other) noexcept
    : device_(std::exchange(other.device_, {})), messenger_(std::exchange(other.messenger_, VK_NULL_HANDLE)),
      log_(std::move(other.log_)), notes_(std::move(other.notes_)) {}

GpuContext& GpuContext::operator=(GpuContext&& other) noexcept {
  if (this != &other) {
    destroy();
    device_ = std::exchange(other.device_, {});
    messenger_ = std::exchange(other.messenger_, VK_NULL_HANDLE);
    log_ = std::move(other.log_);
    notes_ = std::move(other.notes_);
  }
  return *this;
}

GpuContext::~GpuContext() { destroy(); }

void GpuContext::destroy() {
  if (device_.device) {
    vkDeviceWaitIdle(device_.device);
    if (device_.command_pool) vkDestroyCommandPool(device_.device, device_.command_pool, nullptr);
    vkDestroyDevice(device_.device, nullptr);
  }
  // After the device, so that the layer's report of objects never destroyed is counted.
  if (messenger_) {
    auto destroy_messenger = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(device_.instance, "vkDestroyDebugUtilsMessengerEXT"));
    if (destroy_messenger) destroy_messenger(device_.instance, messenger_, nullptr);
  }
  if (device_.instance) vkDestroyInstance(device_.instance, nullptr);
  device_ = {};
  messenger_ = VK_NULL_HANDLE;
}

Status GpuContext::wait_idle() const {
  NUDGE_VK_TRY(vkDeviceWaitIdle(device_.device));
  return Ok{};
}

Expected<GpuContext> GpuContext::create(const ContextOptions& options) {
  GpuContext context;
  context.log_ = std::make_shared<ValidationLog>(options.print_validation_messages);

  // Instance: the caller's extensions, plus the validation layer and debug utils if asked.
  std::vector<const char*> layers;
  std::vector<const char*> extensions;
  const std::vector<std::string> available = instance_extensions(nullptr);
  for (const std::string& name : options.instance_extensions) {
    if (std::find(available.begin(), available.end(), name) == available.end())
      return Error{"Vulkan instance extension " + name + " is not available"};
    extensions.push_back(name.c_str());
  }
  bool validation = false;
  if (options.validation) {
    if (!has_layer(kValidationLayer)) {
      context.notes_.push_back(std::string(kValidationLayer) +
                               " is not installed: running without validation "
                               "(Debian: apt-get install vulkan-validationlayers)");
    } else {
      const std::vector<std::string> layer_extensions = instance_extensions(kValidationLayer);
      const auto has_debug_utils = [](const std::vector<std::string>& names) {
        return std::find(names.begin(), names.end(), VK_EXT_DEBUG_UTILS_EXTENSION_NAME) != names.end();
      };
      if (!has_debug_utils(available) && !has_debug_utils(layer_extensions)) {
        context.notes_.push_back(std::string(VK_EXT_DEBUG_UTILS_EXTENSION_NAME) +
                                 " is not available: running without validation");
      } else {
        validation = true;
        layers.push_back(kValidationLayer);
        extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
      }
    }
  }

  VkApplicationInfo app{};
  app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  app.pApplicationName = "Nudge";
  app.pEngineName = "Nudge";
  app.apiVersion = VK_API_VERSION_1_1;
  VkInstanceCreateInfo instance_info{};
  instance_info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  instance_info.pApplicationInfo = &app;
  instance_info.enabledLayerCount = static_cast<std::uint32_t>(layers.size());
  instance_info.ppEnabledLayerNames = layers.data();
  instance_info.enabledExtensionCount = static_cast<std::uint32_t>(extensions.size());
  instance_info.ppEnabledExtensionNames = extensions.data();
  // Chained so that instance creation and destruction are validated too.
  VkDebugUtilsMessengerCreateInfoEXT debug_info = messenger_info(context.log_.get());
  if (validation) instance_info.pNext = &debug_info;
  NUDGE_VK_TRY(vkCreateInstance(&instance_info, nullptr, &context.device_.instance));
  VkInstance instance = context.device_.instance;

  if (validation) {
    auto create_messenger = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
        vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
    if (!create_messenger) return Error{"vkCreateDebugUtilsMessengerEXT is not available"};
    NUDGE_VK_TRY(create_messenger(instance, &debug_info, nullptr, &context.messenger_));
  }

  // Physical device: the best ranked one that has a graphics queue (and can present).
  std::uint32_t count = 0;
  NUDGE_VK_TRY(vkEnumeratePhysicalDevices(instance, &count, nullptr));
  std::vector<VkPhysicalDevice> devices(count);
  NUDGE_VK_TRY(vkEnumeratePhysicalDevices(instance, &count, devices.data()));
  if (devices.empty())
    return Error{
        "no Vulkan device found (without a GPU, install Mesa's lavapipe: "
        "apt-get install mesa-vulkan-drivers)"};
  VkPhysicalDevice chosen = VK_NULL_HANDLE;
  std::uint32_t family = 0;
  int best_rank = 1 << 30;
  std::string rejected;
  for (VkPhysicalDevice candidate : devices) {
    VkPhysicalDeviceProperties properties;
    vkGetPhysicalDeviceProperties(candidate, &properties);
    const std::optional<std::uint32_t> queue = graphics_family(instance, candidate, options);
    const char* why_not = nullptr;
    if (!queue)
      why_not = options.swapchain ? "no graphics queue that can present" : "no graphics queue";
    else if (options.swapchain && !has_device_extension(candidate, VK_KHR_SWAPCHAIN_EXTENSION_NAME))
      why_not = "no VK_KHR_swapchain";
    else if (find_depth_format(candidate) == VK_FORMAT_UNDEFINED)
      why_not = "no depth format";
    if (why_not) {
      rejected += std::string(rejected.empty() ? "" : "; ") + properties.deviceName + ": " + why_not;
      continue;
    }
    const int rank = type_rank(properties.deviceType);
    if (rank < best_rank) {
      best_rank = rank;
      chosen = candidate;
      family = *queue;
    }
  }
  if (!chosen) return Error{"no usable Vulkan device (" + rejected + ")"};

  GpuDevice& gpu = context.device_;
  gpu.physical_device = chosen;
  gpu.queue_family = family;
  vkGetPhysicalDeviceProperties(chosen, &gpu.properties);
  vkGetPhysicalDeviceMemoryProperties(chosen, &gpu.memory);
  gpu.depth_format = find_depth_format(chosen);
  VkPhysicalDeviceFeatures supported;
  vkGetPhysicalDeviceFeatures(chosen, &supported);
  VkPhysicalDeviceFeatures enabled{};
  enabled.sampleRateShading = supported.sampleRateShading;
  gpu.sample_rate_shading = supported.sampleRateShading == VK_TRUE;
  enabled.wideLines = supported.wideLines;
  gpu.wide_lines = supported.wideLines == VK_TRUE;
  enabled.largePoints = supported.largePoints;
  gpu.large_points = supported.largePoints == VK_TRUE;

  const float priority = 1.0f;
  VkDeviceQueueCreateInfo queue_info{};
  queue_info.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
  queue_info.queueFamilyIndex = family;
  queue_info.queueCount = 1;
  queue_info.pQueuePriorities = &priority;
  std::vector<const char*> device_extensions;
  if (options.swapchain) device_extensions.push_back(VK_KHR_SWAPCHAIN_EXTENSION_NAME);
  VkDeviceCreateInfo device_info{};
  device_info.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
  device_info.queueCreateInfoCount = 1;
  device_info.pQueueCreateInfos = &queue_info;
  device_info.enabledExtensionCount = static_cast<std::uint32_t>(device_extensions.size());
  device_info.ppEnabledExtensionNames = device_extensions.data();
  device_info.pEnabledFeatures = &enabled;
  NUDGE_VK_TRY(vkCreateDevice(chosen, &device_info, nullptr, &gpu.device));
  vkGetDeviceQueue(gpu.device, family, 0, &gpu.queue);

  VkCommandPoolCreateInfo pool_info{};
  pool_info.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
  pool_info.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  pool_info.queueFamilyIndex = family;
  NUDGE_VK_TRY(vkCreateCommandPool(gpu.device, &pool_info, nullptr, &gpu.command_pool));
  return context;
}

}  // namespace nudge::render
