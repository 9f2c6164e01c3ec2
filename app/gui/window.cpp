#include "gui/window.h"

#include <algorithm>
#include <chrono>
#include <thread>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <optional>
#include <utility>

#define GLFW_INCLUDE_NONE
#define GLFW_INCLUDE_VULKAN
#include <GLFW/glfw3.h>
#include <imgui.h>
#include <imgui_internal.h>  // RegisterUserTexture
#include <imgui_impl_glfw.h>
#include <imgui_impl_vulkan.h>
#include <implot.h>
#include <ImGuizmo.h>

#include "gui/theme.h"
#include "nudge/render/gpu_context.h"
#include "nudge/render/scene_renderer.h"
#include "nudge/render/swapchain.h"

namespace nudge::gui {

namespace {

// GLFW reports errors through a callback; the last one explains a failed call.
std::mutex g_glfw_error_mutex;
std::string g_glfw_error;

void on_glfw_error(int code, const char* description) {
  std::lock_guard lock(g_glfw_error_mutex);
  g_glfw_error = description ? description : ("GLFW error " + std::to_string(code));
}

std::string last_glfw_error() {
  std::lock_guard lock(g_glfw_error_mutex);
  return g_glfw_error.empty() ? "unknown GLFW error" : g_glfw_error;
}

void on_imgui_vulkan_result(VkResult result) {
  if (result != VK_SUCCESS) std::fprintf(stderr, "nudge: error: Dear ImGui Vulkan call: %d\n", result);
}

}  // namespace

struct Window::State {
  bool glfw_ready = false;
  GLFWwindow* window = nullptr;
  std::optional<render::GpuContext> gpu;
  VkSurfaceKHR surface = VK_NULL_HANDLE;
  std::optional<render::Swapchain> swapchain;
  std::optional<render::SceneRenderer> scene_renderer;
  VkDescriptorPool imgui_pool = VK_NULL_HANDLE;
  bool imgui_context = false, implot_context = false, imgui_glfw = false, imgui_vulkan = false;
  std::vector<std::string> dropped;
  // Images for the panels. Dear ImGui's Vulkan backend frees their GPU side at shutdown (they
  // stay registered); the objects themselves go after it, with the State.
  std::vector<std::unique_ptr<ImTextureData>> textures;
  std::vector<std::string> notes;
  bool vsync = true;
  double refresh_seconds = 1.0 / 60.0;
  std::chrono::steady_clock::time_point last_frame = std::chrono::steady_clock::now();
  render::Rgba background{20 / 255.0f, 22 / 255.0f, 27 / 255.0f, 1};

  ~State() {
    if (gpu) (void)gpu->wait_idle();
    if (imgui_vulkan) ImGui_ImplVulkan_Shutdown();
    if (imgui_glfw) ImGui_ImplGlfw_Shutdown();
    if (implot_context) ImPlot::DestroyContext();
    if (imgui_context) ImGui::DestroyContext();
    if (gpu && imgui_pool) vkDestroyDescriptorPool(gpu->device().device, imgui_pool, nullptr);
    scene_renderer.reset();
    swapchain.reset();
    if (gpu && surface) vkDestroySurfaceKHR(gpu->device().instance, surface, nullptr);
    gpu.reset();
    if (window) glfwDestroyWindow(window);
    if (glfw_ready) glfwTerminate();
  }

  render::Status init_imgui(const WindowOptions& options);
};

render::Status Window::State::init_imgui(const WindowOptions& options) {
  IMGUI_CHECKVERSION();
  ImGui::CreateContext();
  imgui_context = true;
  ImPlot::CreateContext();
  implot_context = true;
  ImGuiIO& io = ImGui::GetIO();
  io.IniFilename = nullptr;  // the panels' layout is read and written by gui/dock_layout.cpp
  io.ConfigFlags |= ImGuiConfigFlags_NavEnableKeyboard;

  float scale_x = 1, scale_y = 1;
  glfwGetWindowContentScale(window, &scale_x, &scale_y);
  const float scale = std::max(1.0f, scale_y);
  apply_dark_theme(scale);
  if (std::string problem = load_fonts(options.font_path, options.font_size * scale); !problem.empty())
    notes.push_back(std::move(problem));

  if (!ImGui_ImplGlfw_InitForVulkan(window, true))
    return render::Error{"Dear ImGui could not attach to the GLFW window"};
  imgui_glfw = true;

  const render::GpuDevice& device = gpu->device();
  // Dear ImGui needs one combined image sampler (the font atlas); room for a few images more.
  const VkDescriptorPoolSize sizes[] = {{VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 16}};
  VkDescriptorPoolCreateInfo pool{};
  pool.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
  pool.flags = VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT;
  pool.maxSets = 16;
  pool.poolSizeCount = 1;
  pool.pPoolSizes = sizes;
  if (vkCreateDescriptorPool(device.device, &pool, nullptr, &imgui_pool) != VK_SUCCESS)
    return render::Error{"could not create Dear ImGui's descriptor pool"};

  ImGui_ImplVulkan_InitInfo info{};
  info.ApiVersion = VK_API_VERSION_1_1;  // what GpuContext asks the instance for
  info.Instance = device.instance;
  info.PhysicalDevice = device.physical_device;
  info.Device = device.device;
  info.QueueFamily = device.queue_family;
  info.Queue = device.queue;
  info.DescriptorPool = imgui_pool;
  // Dear ImGui keeps one vertex buffer per "image" and cycles through them each frame; the
  // swapchain has two frames in flight, each waited on before its slot is reused.
  info.MinImageCount = render::Swapchain::kFramesInFlight;
  info.ImageCount = render::Swapchain::kFramesInFlight;
  // The panels draw into the scene's render pass, after the scene.
  info.PipelineInfoMain.RenderPass = swapchain->render_pass();
  info.PipelineInfoMain.Subpass = 0;
  info.PipelineInfoMain.MSAASamples = swapchain->samples();
  info.CheckVkResultFn = on_imgui_vulkan_result;
  // The font atlas is uploaded by the backend itself when a frame first needs it.
  if (!ImGui_ImplVulkan_Init(&info)) return render::Error{"Dear ImGui's Vulkan backend did not start"};
  imgui_vulkan = true;
  return render::Ok{};
}

Window::Window() = default;
Window::~Window() = default;

render::Expected<std::unique_ptr<Window>> Window::create(const WindowOptions& options, bool* no_display) {
  if (no_display) *no_display = false;
  std::unique_ptr<Window> result(new Window());
  result->state_ = std::make_unique<State>();
  State& s = *result->state_;

  glfwSetErrorCallback(on_glfw_error);
  if (!glfwInit()) {
    if (no_display) *no_display = true;
    return render::Error{"cannot open a window: " + last_glfw_error()};
  }
  s.glfw_ready = true;
  if (!glfwVulkanSupported())
    return render::Error{"cannot open a window: GLFW found no Vulkan loader with window support"};

  std::uint32_t count = 0;
  const char** names = glfwGetRequiredInstanceExtensions(&count);
  if (!names) return render::Error{"cannot open a window: " + last_glfw_error()};
  render::ContextOptions context;
  context.validation = options.validation;
  context.instance_extensions.assign(names, names + count);
  context.swapchain = true;
  context.presentation_support = [](VkInstance instance, VkPhysicalDevice device, std::uint32_t family) {
    return glfwGetPhysicalDevicePresentationSupport(instance, device, family) == GLFW_TRUE;
  };
  render::Expected<render::GpuContext> gpu = render::GpuContext::create(context);
  if (!gpu) return gpu.error();
  s.gpu.emplace(std::move(*gpu));
  s.notes = s.gpu->notes();

  glfwWindowHint(GLFW_CLIENT_API, GLFW_NO_API);
  // No bigger than the screen's work area (less what a window manager adds around it).
  int width = options.width, height = options.height;
  if (GLFWmonitor* monitor = glfwGetPrimaryMonitor()) {
    int x = 0, y = 0, area_width = 0, area_height = 0;
    glfwGetMonitorWorkarea(monitor, &x, &y, &area_width, &area_height);
    if (area_width > 0 && area_height > 0) {
      width = std::min(width, area_width);
      height = std::min(height, area_height);
    }
  }
  s.window = glfwCreateWindow(width, height, options.title.c_str(), nullptr, nullptr);
  if (!s.window) return render::Error{"cannot open a window: " + last_glfw_error()};
  glfwSetWindowUserPointer(s.window, &s);
  glfwSetDropCallback(s.window, [](GLFWwindow* window, int n, const char** paths) {
    auto* state = static_cast<State*>(glfwGetWindowUserPointer(window));
    for (int i = 0; i < n; ++i) state->dropped.emplace_back(paths[i]);
  });
  glfwSetWindowSizeLimits(s.window, 480, 320, GLFW_DONT_CARE, GLFW_DONT_CARE);

  if (glfwCreateWindowSurface(s.gpu->device().instance, s.window, nullptr, &s.surface) != VK_SUCCESS)
    return render::Error{"cannot make a Vulkan surface for the window: " + last_glfw_error()};

  glfwGetFramebufferSize(s.window, &width, &height);
  render::SwapchainOptions chain_options;
  const bool cpu_device = s.gpu->device().properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU;
  chain_options.samples = options.samples > 0 ? options.samples : (cpu_device ? 1 : 4);
  s.vsync = options.vsync;
  if (GLFWmonitor* monitor = glfwGetPrimaryMonitor())
    if (const GLFWvidmode* mode = glfwGetVideoMode(monitor); mode && mode->refreshRate > 0)
      s.refresh_seconds = 1.0 / mode->refreshRate;
  chain_options.vsync = options.vsync;
  render::Expected<render::Swapchain> chain = render::Swapchain::create(
      *s.gpu, s.surface, {static_cast<std::uint32_t>(width), static_cast<std::uint32_t>(height)}, chain_options);
  if (!chain) return chain.error();
  s.swapchain.emplace(std::move(*chain));

  render::SceneRendererConfig config;
  config.render_pass = s.swapchain->render_pass();
  config.color_format = s.swapchain->color_format();
  config.samples = s.swapchain->samples();
  config.frames_in_flight = render::Swapchain::kFramesInFlight;
  render::Expected<render::SceneRenderer> renderer = render::SceneRenderer::create(*s.gpu, config);
  if (!renderer) return renderer.error();
  s.scene_renderer.emplace(std::move(*renderer));

  if (render::Status ui = s.init_imgui(options); !ui) return ui.error();
  return result;
}

bool Window::should_close() const { return glfwWindowShouldClose(state_->window); }
void Window::request_close() { glfwSetWindowShouldClose(state_->window, GLFW_TRUE); }
void Window::cancel_close() { glfwSetWindowShouldClose(state_->window, GLFW_FALSE); }

void Window::wait_events(double timeout_seconds) {
  if (timeout_seconds <= 0)
    glfwPollEvents();
  else
    glfwWaitEventsTimeout(timeout_seconds);
}

void Window::wake() { glfwPostEmptyEvent(); }

void Window::set_title(const std::string& title) { glfwSetWindowTitle(state_->window, title.c_str()); }

void Window::pace_frame() {
  State& s = *state_;
  using Clock = std::chrono::steady_clock;
  if (s.vsync) {
    const Clock::time_point due =
        s.last_frame + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(s.refresh_seconds));
    if (Clock::now() < due) std::this_thread::sleep_until(due);
  }
  s.last_frame = Clock::now();
}

void Window::begin_ui_frame() {
  ImGui_ImplVulkan_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
  ImGuizmo::BeginFrame();
}

render::Status Window::render(const render::DrawList* scene, PixelRect viewport) {
  State& s = *state_;
  ImGui::Render();
  ImDrawData* ui = ImGui::GetDrawData();
  const VkExtent2D size{static_cast<std::uint32_t>(framebuffer_width()),
                        static_cast<std::uint32_t>(framebuffer_height())};
  render::Expected<std::optional<render::SwapchainFrame>> begun = s.swapchain->begin_frame(size, s.background);
  if (!begun) return begun.error();
  if (!*begun) return render::Ok{};  // minimised or re-created: nothing to draw into now
  const render::SwapchainFrame& frame = **begun;

  vkCmdBeginRenderPass(frame.commands, &frame.render_pass_begin, VK_SUBPASS_CONTENTS_INLINE);
  render::Status drawn = render::Ok{};
  // Clip the viewport to the framebuffer: the layout may lag a resize by a frame.
  const int x0 = std::clamp(viewport.x, 0, static_cast<int>(frame.extent.width));
  const int y0 = std::clamp(viewport.y, 0, static_cast<int>(frame.extent.height));
  const int x1 = std::clamp(viewport.x + viewport.width, x0, static_cast<int>(frame.extent.width));
  const int y1 = std::clamp(viewport.y + viewport.height, y0, static_cast<int>(frame.extent.height));
  if (scene && x1 > x0 && y1 > y0) {
    const VkRect2D area{{x0, y0}, {static_cast<std::uint32_t>(x1 - x0), static_cast<std::uint32_t>(y1 - y0)}};
    drawn = s.scene_renderer->record(frame.commands, *scene, area, frame.slot);
  }
  if (ui) ImGui_ImplVulkan_RenderDrawData(ui, frame.commands);
  vkCmdEndRenderPass(frame.commands);
  if (render::Status ended = s.swapchain->end_frame(); !ended) return ended.error();
  return drawn;
}

std::vector<std::string> Window::take_dropped_paths() { return std::exchange(state_->dropped, {}); }

ImTextureRef Window::add_texture(const render::Image& image) {
  auto texture = std::make_unique<ImTextureData>();
  texture->Create(ImTextureFormat_RGBA32, image.width, image.height);
  std::memcpy(texture->GetPixels(), image.rgba.data(), image.rgba.size());
  texture->SetStatus(ImTextureStatus_WantCreate);
  ImGui::RegisterUserTexture(texture.get());
  const ImTextureRef ref(texture->GetTexRef());
  state_->textures.push_back(std::move(texture));
  return ref;
}

int Window::framebuffer_width() const {
  int w = 0, h = 0;
  glfwGetFramebufferSize(state_->window, &w, &h);
  return w;
}

int Window::framebuffer_height() const {
  int w = 0, h = 0;
  glfwGetFramebufferSize(state_->window, &w, &h);
  return h;
}

float Window::framebuffer_scale() const { return ImGui::GetIO().DisplayFramebufferScale.x; }

const std::vector<std::string>& Window::notes() const { return state_->notes; }

std::string Window::device_name() const { return state_->gpu->device_name(); }

std::size_t Window::validation_message_count() const { return state_->gpu->validation_message_count(); }

std::vector<std::string> Window::validation_messages() const { return state_->gpu->validation_messages(); }

int Window::samples() const { return static_cast<int>(state_->swapchain->samples()); }

std::string Window::present_mode_name() const {
  switch (state_->swapchain->present_mode()) {
    case VK_PRESENT_MODE_FIFO_KHR: return "fifo (vsync)";
    case VK_PRESENT_MODE_MAILBOX_KHR: return "mailbox";
    case VK_PRESENT_MODE_IMMEDIATE_KHR: return "immediate";
    default: return "other";
  }
}

}  // namespace nudge::gui
