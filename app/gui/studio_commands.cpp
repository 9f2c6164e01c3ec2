// The studio's commands: what the panels asked for this frame, run in order after the
// UI. One handler per command type, grouped by area; run_commands dispatches with
// std::visit, so a new command type without a handler is a compile error, not a
// silently ignored click.
#include <string>
#include <utility>
#include <vector>

#include "gui/studio.h"
#include "gui/window.h"

namespace nudge::gui {

void Studio::run_commands() {
  std::vector<Command> commands = std::exchange(state_.commands.items, {});
  // Non-const, so a handler may take what its command carries (a landscape's scene).
  for (Command& c : commands) std::visit([this](auto& command) { handle(command); }, c);
}

// File

void Studio::handle(const command::NewScene& c) {
  if (!c.confirmed && would_lose_work(c)) return;
  set_document(studio::Document{});
  state_.log.info("new scene");
}

void Studio::handle(const command::Open& c) {
  if (c.sweep_point < 0 && c.path.extension() == ".csv") {  // a table replaces no document
    open_sweep(c.path);
    return;
  }
  if (!c.confirmed && would_lose_work(c)) return;
  if (c.sweep_point >= 0)
    open_sweep_point(c.sweep_point);
  else
    open(c.path);
}

void Studio::handle(const command::Save&) {
  if (!state_.document.has_path()) {
    state_.ui.popups.save_as = true;
  } else if (Status saved = state_.document.save(); !saved) {
    show_error(saved.error().message);
  } else {
    note_file_on_disk();  // our own write is not a change to reload
    state_.log.info("saved " + state_.document.path().string());
    state_.ui.banner.clear();  // an error shown before is no longer the news
    window_.set_title(state_.document.title());
  }
}

void Studio::handle(const command::SaveAs& c) {
  if (Status saved = state_.document.save_as(c.path); !saved) {
    show_error(saved.error().message);
  } else {
    note_file_on_disk();
    state_.log.info("saved " + c.path.string());
    state_.ui.banner.clear();
    window_.set_title(state_.document.title());
    remember_recent(c.path);
    // Save chosen in the Unsaved Changes prompt for a scene with no file: go on.
    if (auto next = std::exchange(state_.ui.popups.after_save_as, std::nullopt))
      std::visit([&](auto action) { state_.queue(action); }, *next);
  }
  state_.ui.popups.after_save_as.reset();  // a failed save drops the action: nothing is lost
}

void Studio::handle(const command::Quit& c) {
  if (!c.confirmed && would_lose_work(c)) return;
  window_.request_close();
  close_confirmed_ = true;
}

void Studio::handle(const command::Recover& c) {
  if (!state_.ui.popups.recovery) return;
  studio::RecoveredScene r = std::move(*state_.ui.popups.recovery);
  state_.ui.popups.recovery.reset();
  if (c.accept) {
    set_document(studio::Document::recovered(std::move(r.scene), r.original, r.copy));
    state_.log.info("recovered the unsaved changes of " +
                    (r.original.empty() ? std::string("a new scene") : r.original.filename().string()) + " from " +
                    r.written_at + " (save them to keep them)");
  } else {
    recovery_.clear();
    state_.log.info("discarded the unsaved changes of the last session");
  }
}

void Studio::handle(const command::ClearRecent&) {
  state_.files.recent.clear();
  if (!state_.files.recent_file.empty()) (void)state_.files.recent.save(state_.files.recent_file);
}

// View

void Studio::handle(const command::FrameAll&) {
  state_.ui.camera.frame(state_.shown.draw_options.bounds, viewport_aspect_);
  camera_moved_ = true;
}

void Studio::handle(const command::ResetCamera&) {
  state_.ui.camera.reset();
  camera_moved_ = false;
}

// Optimise

void Studio::handle(const command::OptimizeStart&) {
  optimization_session().start();
  state_.ui.bring_panel = panel_name::kOptimise;
  state_.log.info("optimising with " + std::string(method_name(state_.optimise.settings.method)));
}

void Studio::handle(const command::OptimizePause&) {
  if (state_.optimise.session) state_.optimise.session->pause();
}

void Studio::handle(const command::OptimizeStep&) {
  optimization_session().step();
  state_.ui.bring_panel = panel_name::kOptimise;
}

void Studio::handle(const command::OptimizeReset&) {
  // A committed run's start is a step back in the history (Ctrl+Z); Reset after it starts
  // the next run from the scene as it is now, the result.
  if (state_.optimise.committed && state_.optimise.iterate == state_.optimise.committed) {
    disposer_.dispose(std::move(state_.optimise.session));
    state_.optimise.iterate.reset();
    state_.optimise.committed.reset();
    state_.optimise.initial_iterate.reset();
    state_.optimise.previous_iterate.reset();
    start_rollout();
    return;
  }
  if (state_.optimise.session) state_.optimise.session->reset();
}

void Studio::handle(const command::ApplyIterate&) {
  if (!state_.optimise.unapplied()) return;  // nothing moved, or the run is already a step
  const int iteration = state_.optimise.iterate->iteration;
  Scene applied = state_.optimise.iterate->scene;
  applied.optimizer = state_.optimise.settings;
  replace_scene_in_place(std::move(applied), "apply iteration " + std::to_string(iteration));
  state_.log.info("iteration " + std::to_string(iteration) + "'s parameters are now the scene's (unsaved)");
}

void Studio::handle(const command::RunMpc& c) {
  disposer_.dispose(std::move(state_.optimise.mpc));
  if (Status ok = check_mpc(state_.document.scene(), c.settings); !ok) {
    state_.log.error("model predictive control: " + ok.error().message);
    return;
  }
  state_.optimise.mpc = std::make_unique<studio::MpcRun>(state_.document.scene(), c.settings, [] { Window::wake(); });
  state_.log.info("model predictive control: planning " + std::to_string(c.settings.horizon) + " steps every " +
                  std::to_string(c.settings.replan_every));
}

void Studio::handle(const command::ApplyMpc&) { apply_mpc(); }

// Trust

void Studio::handle(command::ComputeLandscape& c) {
  disposer_.dispose(std::move(state_.trust.landscape));  // cancels the previous one
  state_.trust.landscape = std::make_unique<studio::LossLandscape>(std::move(c.request), [] { Window::wake(); });
}

void Studio::handle(const command::CompareMethods& c) {
  disposer_.dispose(std::move(state_.optimise.comparison));
  state_.optimise.comparison =
      std::make_unique<studio::MethodComparison>(state_.document.scene(), c.methods, c.budget, [] { Window::wake(); });
}

void Studio::handle(const command::CheckGradients& c) {
  disposer_.dispose(std::move(state_.trust.gradient_check));
  state_.trust.gradient_check = std::make_unique<studio::GradientCheckRun>(
      state_.point_scene(), c.parameters, c.samples_per_parameter, [] { Window::wake(); });
}

// Edit and history

void Studio::handle(const command::Undo&) {
  const std::string label = state_.document.history()[state_.document.position()].label;
  if (state_.document.undo()) show_history_step("undid " + label);
}

void Studio::handle(const command::Redo&) {
  if (state_.document.redo()) show_history_step("redid " + state_.document.history()[state_.document.position()].label);
}

void Studio::handle(const command::GoToHistory& c) {
  if (c.position == state_.document.position() || c.position >= state_.document.history().size()) return;
  state_.document.go_to(c.position);
  show_history_step("went back in the history to: " + state_.document.history()[c.position].label);
}

// Footage

void Studio::handle(const command::TrackFeature& c) { start_tracking(c.track); }

}  // namespace nudge::gui
