// The studio's window: GLFW, a Vulkan swapchain, the scene renderer and Dear ImGui
// drawing into one render pass (the scene into the viewport's rectangle first, the
// panels over it). One per process; everything here runs on the UI thread.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <imgui.h>

#include "nudge/render/draw_list.h"
#include "nudge/render/image.h"
#include "nudge/render/result.h"

struct GLFWwindow;

namespace nudge::gui {

struct WindowOptions {
  std::string title = "Nudge";
  int width = 1440, height = 900;
  // Multisampling of the scene and panels; 0: 4 on a GPU, 1 on a CPU rasteriser
  // (lavapipe), where 4 samples cost 2.5 times the frame time.
  int samples = 0;
  // FIFO presentation, and frames paced to the monitor's refresh rate as well (a virtual
  // display such as Xvfb has no vertical blank to wait for). false: as fast as frames are
  // made (benchmarks).
  bool vsync = true;
  bool validation = false;  // Vulkan validation layer; messages are counted and logged
  std::string font_path;    // TTF for the panels; empty or unreadable: ImGui's own font
  float font_size = 16.0f;  // in pixels at a content scale of 1
};

// A rectangle of the window in framebuffer pixels.
struct PixelRect {
  int x = 0, y = 0, width = 0, height = 0;
};

class Window {
public:
  // Fails with a message that says why: no display, no Vulkan device that can present...
  // `no_display` is set when the failure is that there is no display at all.
  static render::Expected<std::unique_ptr<Window>> create(const WindowOptions& options, bool* no_display = nullptr);
  ~Window();
  Window(const Window&) = delete;
  Window& operator=(const Window&) = delete;

  bool should_close() const;
  void request_close();
  void cancel_close();
  // Waits for events up to `timeout_seconds` (0: just polls).
  void wait_events(double timeout_seconds);
  void set_title(const std::string& title);
  // Ends a wait_events() early; callable from any thread (a worker that has a result).
  static void wake();

  // Starts a Dear ImGui frame (call ImGui functions after it).
  void begin_ui_frame();
  // With vsync: sleeps until one refresh interval has passed since the previous call.
  void pace_frame();
  // Renders `scene` into `viewport` (skipped when null or empty) and the ImGui frame over
  // it, then presents. A minimised window draws nothing and returns Ok.
  render::Status render(const render::DrawList* scene, PixelRect viewport);

  // An image for the panels (ImGui::Image): uploaded by Dear ImGui's backend with the next
  // frame, kept until the window closes.
  ImTextureRef add_texture(const render::Image& image);

  // Paths dropped on the window since the last call.
  std::vector<std::string> take_dropped_paths();
  // Size of the drawable area in pixels, and pixels per ImGui unit (HiDPI).
  int framebuffer_width() const;
  int framebuffer_height() const;
  float framebuffer_scale() const;
  std::string device_name() const;
  // Things worth telling the user that did not stop the window (a missing font...).
  const std::vector<std::string>& notes() const;
  std::size_t validation_message_count() const;
  std::vector<std::string> validation_messages() const;
  std::string present_mode_name() const;
  int samples() const;

private:
  struct State;  // window.cpp
  Window();
  std::unique_ptr<State> state_;
};

}  // namespace nudge::gui
