#include "gui/render_benchmark.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <vector>

#include "cloth_benchmark.h"
#include "gui/studio.h"
#include "gui/theme.h"
#include "gui/window.h"
#include "studio/app_log.h"

namespace nudge::gui {

namespace {

double percentile(std::vector<double> values, double p) {
  std::sort(values.begin(), values.end());
  const std::size_t at = std::min(values.size() - 1, static_cast<std::size_t>(p * double(values.size() - 1) + 0.5));
  return values[at];
}

double mean(const std::vector<double>& values) {
  double sum = 0;
  for (double v : values) sum += v;
  return values.empty() ? 0 : sum / double(values.size());
}

}  // namespace

int run_render_benchmark(const RenderBenchOptions& options) {
  studio::AppLog log;  // kept quiet: the benchmark prints its own summary
  WindowOptions window_options;
  window_options.title = "Nudge - bench render";
  window_options.width = options.width;
  window_options.height = options.height;
  window_options.samples = options.samples;
  window_options.vsync = false;  // measure the frame, not the display's refresh
  window_options.font_path = assets_directory() + "/fonts/DejaVuSans.ttf";
  bool no_display = false;
  render::Expected<std::unique_ptr<Window>> created = Window::create(window_options, &no_display);
  if (!created) {
    std::cerr << "nudge: error: " << created.error().message << "\n";
    if (no_display)
      std::cerr << "nudge: bench render opens the studio's window; run it on a display, e.g. "
                   "under Xvfb: xvfb-run -a nudge bench render\n";
    return no_display ? 2 : 1;
  }
  Window& window = **created;
  Studio studio(window, log);
  studio.show_scene(make_cloth_scene(options.n, options.steps));

  // Wait for the motion (computed on the worker thread) before measuring playback.
  using Clock = std::chrono::steady_clock;
  Clock::time_point last = Clock::now();
  const Clock::time_point give_up = last + std::chrono::minutes(5);
  while (studio.animating() && Clock::now() < give_up) {
    window.wait_events(0.0);
    const Clock::time_point now = Clock::now();
    if (!studio.frame(std::chrono::duration<double>(now - last).count())) return 1;
    last = now;
  }
  if (!studio.state().trajectory()) {
    std::cerr << "nudge: error: the cloth's motion did not come\n";
    return 1;
  }
  studio.play();

  std::vector<double> frame_ms, ui_ms, list_ms, render_ms;
  const int total = options.warmup + options.frames;
  for (int i = 0; i < total && !window.should_close(); ++i) {
    window.wait_events(0.0);
    const Clock::time_point now = Clock::now();
    const double wall = std::chrono::duration<double>(now - last).count();
    last = now;
    if (!studio.frame(wall)) return 1;
    if (i >= options.warmup) {  // each interval ends with the frame it times
      frame_ms.push_back(wall * 1000);
      const Studio::FrameTimings& t = studio.last_frame_timings();
      ui_ms.push_back(t.ui * 1000);
      list_ms.push_back(t.draw_list * 1000);
      render_ms.push_back(t.render * 1000);
    }
  }
  if (frame_ms.empty()) {
    std::cerr << "nudge: error: the window closed before any frame was measured\n";
    return 1;
  }
  if (window.validation_message_count() > 0) {
    for (const std::string& m : window.validation_messages())
      std::cerr << "nudge: error: Vulkan validation: " << m << "\n";
    return 1;
  }

  const double median = percentile(frame_ms, 0.5);
  std::fprintf(stderr,
               "bench render: %d x %d cloth (%d particles), %d frames at %d x %d, %d sample(s), %s\n"
               "  frame %.2f ms median, %.2f mean, %.2f p95 (%.1f fps); per frame: UI %.2f ms, "
               "draw list %.2f ms, render and present %.2f ms\n",
               options.n, options.n, options.n * options.n, int(frame_ms.size()), window.framebuffer_width(),
               window.framebuffer_height(), window.samples(), window.device_name().c_str(), median, mean(frame_ms),
               percentile(frame_ms, 0.95), 1000.0 / median, mean(ui_ms), mean(list_ms), mean(render_ms));
  std::printf(
      "{\"benchmark\": \"render\", \"scene\": \"cloth\", \"n\": %d, \"particles\": %d, \"frames\": %d, "
      "\"width\": %d, \"height\": %d, \"samples\": %d, \"device\": \"%s\", \"frame_ms_median\": %.3f, "
      "\"frame_ms_mean\": %.3f, \"frame_ms_p95\": %.3f, \"fps\": %.1f, \"ui_ms\": %.3f, "
      "\"draw_list_ms\": %.3f, \"render_ms\": %.3f}\n",
      options.n, options.n * options.n, int(frame_ms.size()), window.framebuffer_width(), window.framebuffer_height(),
      window.samples(), window.device_name().c_str(), median, mean(frame_ms), percentile(frame_ms, 0.95),
      1000.0 / median, mean(ui_ms), mean(list_ms), mean(render_ms));
  return 0;
}

}  // namespace nudge::gui
