#include "gui/gui_main.h"

#include <chrono>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>

#include "gui/studio.h"
#include "nudge/sweep.h"
#include "gui/theme.h"
#include "gui/window.h"
#include "studio/app_log.h"

namespace nudge::gui {

namespace {

constexpr int kExitOk = 0, kExitFailure = 1, kExitNoDisplay = 2;

// SIGINT and SIGTERM close the window as its close button does.
volatile std::sig_atomic_t g_stop_requested = 0;
void on_stop_signal(int) {
  g_stop_requested = 1;
  Window::wake();
}

}  // namespace

int run_gui(const GuiOptions& options) {
  studio::AppLog log(studio::AppLog::kDefaultCapacity, &std::cerr);

  // A scene named on the command line is checked before any window opens, like every
  // other command's input.
  std::optional<Result<studio::Document>> first;
  // A sweep's table (.csv) opens in the Sweep tab, with the scene it was made from.
  std::string sweep_table;
  std::filesystem::path scene_file = options.scene;
  if (scene_file.extension() == ".csv") {
    Result<SweepTableContents> table = read_sweep_table(scene_file);
    if (!table) {
      std::cerr << studio::format_log_line(studio::LogLevel::Error, table.error().message) << "\n";
      return kExitNoDisplay;
    }
    sweep_table = options.scene;
    scene_file = table->scene.empty() ? std::filesystem::path() : scene_file.parent_path() / table->scene;
  }
  if (!scene_file.empty()) {
    // A shipped example opens as a copy: the window's first title already says so.
    const auto examples = studio::list_example_scenes(studio::examples_directory(NUDGE_SOURCE_SCENES_DIR));
    first.emplace(studio::open_document(scene_file, examples));
    if (!*first) {
      std::cerr << studio::format_log_line(studio::LogLevel::Error, first->error().message) << "\n";
      return kExitNoDisplay;  // bad input: 2, as for every command
    }
  }

  WindowOptions window_options;
  // The document's title from the first frame on (the studio sets it again on every open).
  window_options.title = first ? first->value().title() : studio::Document{}.title();
  window_options.samples = options.samples;
  window_options.vsync = options.vsync;
  window_options.validation = options.validation;
  window_options.font_path = assets_directory() + "/fonts/DejaVuSans.ttf";
  bool no_display = false;
  render::Expected<std::unique_ptr<Window>> created = Window::create(window_options, &no_display);
  if (!created) {
    if (no_display) {
      std::cerr << "nudge: no display: " << created.error().message << "\n"
                << "nudge: the window needs a display (X11 or Wayland). Without one, use the headless commands:\n"
                << "  nudge validate SCENE, nudge simulate SCENE, nudge optimize SCENE,\n"
                << "  nudge gradcheck SCENE, nudge render SCENE --out shot.png, nudge bench ...\n"
                << "  (nudge --help lists them)\n";
      return kExitNoDisplay;
    }
    std::cerr << studio::format_log_line(studio::LogLevel::Error, created.error().message) << "\n";
    return kExitFailure;
  }
  Window& window = **created;
  for (const std::string& note : window.notes()) log.warning(note);
  log.info("Vulkan device: " + window.device_name() + ", present mode " + window.present_mode_name() + ", " +
           std::to_string(window.samples()) + " sample(s) per pixel");

  Studio studio(window, log, first ? std::optional<studio::Document>(std::move(first->value())) : std::nullopt);
  studio.offer_recovery();
  if (!sweep_table.empty()) studio.show_sweep(sweep_table);
  if (options.play) studio.play();
  if (options.through_shot) studio.look_through_shot();
  if (options.contacts) studio.show_contacts();
  if (options.collision_shapes) studio.show_collision_shapes();
  if (options.live) studio.start_live_when_ready();
  if (std::optional<view::GradientOverlay> overlay = view::gradient_overlay_for_parameter(options.gradient_overlay))
    studio.show_gradient(*overlay);
  for (const std::string& track : options.timeline_tracks) studio.show_timeline_track(track);
  if (options.mpc.size() == 3) {
    studio.start_mpc({options.mpc[0], options.mpc[1], options.mpc[2]});
    studio.play();
  }
  if (options.optimize) {
    studio.start_optimizing();
    studio.play();  // the iterates' motion loops while they improve
  }

  std::signal(SIGINT, on_stop_signal);
  std::signal(SIGTERM, on_stop_signal);
  using Clock = std::chrono::steady_clock;
  const Clock::time_point start = Clock::now();
  Clock::time_point last = start;
  bool ok = true;
  long frames = 0;
  while (!window.should_close() && !g_stop_requested) {
    // Sleep until input when nothing moves; the worker wakes us when a motion is ready.
    if (studio.animating()) {
      window.pace_frame();
      window.wait_events(0.0);
    } else {
      window.wait_events(0.25);
    }
    const Clock::time_point now = Clock::now();
    const double wall = std::chrono::duration<double>(now - last).count();
    last = now;
    if (!studio.frame(wall)) {
      ok = false;
      break;
    }
    ++frames;
    if (options.quit_after_seconds > 0 &&
        std::chrono::duration<double>(now - start).count() >= options.quit_after_seconds)
      window.request_close();
  }
  if (window.validation_message_count() > 0) {
    for (const std::string& m : window.validation_messages()) log.error("Vulkan validation: " + m);
    ok = false;
  }
  const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  char summary[160];
  std::snprintf(summary, sizeof summary, "closed after %ld frames in %.1f s (%.1f fps on average)", frames, seconds,
                seconds > 0 ? double(frames) / seconds : 0.0);
  log.info(summary);
  return ok ? kExitOk : kExitFailure;
}

}  // namespace nudge::gui
