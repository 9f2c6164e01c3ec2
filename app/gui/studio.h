// The studio: one frame of the window at a time. It takes dropped files and keys, adopts
// the newest motion from the rollout worker, advances the play head, lays out and draws
// the panels, moves the camera, renders the scene, then carries out the commands the
// panels queued (open, save, quit...).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "gui/studio_state.h"
#include "studio/disposer.h"
#include "studio/recovery.h"
#include "studio/panel_layout.h"
#include "gui/dock_layout.h"
#include "gui/example_thumbnails.h"
#include "gui/viewport_editor.h"
#include "gui/window.h"

namespace nudge::gui {

class Studio {
public:
  // `log` receives every message (and echoes it to stderr). Shows `first` (a document
  // already opened, e.g. from the command line) or else a new scene.
  Studio(Window& window, studio::AppLog& log, std::optional<studio::Document> first = std::nullopt);
  // Removes the recovery file when nothing unsaved is left or the user chose to discard
  // it; a close that did not ask (a signal, --quit-after) keeps it for the next start.
  ~Studio();

  // Offers to bring back the unsaved changes an earlier session left in its recovery
  // file (the window's start does this; benchmarks do not).
  void offer_recovery();

  // Opens a scene file (a shipped example as an untitled copy, so Save asks where); on
  // failure the current document stays, and the error goes to the log and the banner.
  // Returns whether it opened.
  bool open(const std::filesystem::path& path);
  bool import_robot_file(const std::filesystem::path& path);

  // Shows a scene built in code (benchmarks, demos) as a new, unsaved document.
  void show_scene(Scene scene);

  void play() { state_.shown.playback.play(); }
  // As the Optimise tab's Start button.
  void start_optimizing() { state_.queue(command::OptimizeStart{}); }
  void start_mpc(MpcSettings settings) {
    state_.optimise.mpc_settings = settings;
    state_.queue(command::RunMpc{settings});
    state_.ui.bring_panel = panel_name::kOptimise;
  }
  void show_gradient(view::GradientOverlay overlay) { state_.ui.view.gradient = overlay; }
  // Through the footage's camera, the shot behind the scene, the Footage tab in front.
  void look_through_shot() {
    state_.ui.view.through_shot = true;
    state_.ui.bring_panel = panel_name::kFootage;
  }
  void show_contacts() { state_.ui.view.contacts = true; }
  void show_collision_shapes() { state_.ui.view.collision_shapes = true; }
  // A sweep's table in the Sweep tab (`nudge TABLE.csv`), in front.
  void show_sweep(const std::filesystem::path& table) { open_sweep(table); }
  // Live play from frame 0 once the motion has come (`--live`), the Live tab in front.
  void start_live_when_ready() { live_when_ready_ = true; }
  // A track under the timeline, by its command-line name: controls, controller, adjoint.
  void show_timeline_track(const std::string& track) {
    if (track == "controls") state_.ui.view.control_gradients = true;
    if (track == "controller") state_.ui.view.controller_outputs = true;
    if (track == "adjoint") state_.ui.view.adjoint_track = true;
  }

  // Where the last frame's time went, in seconds (for `nudge bench render`).
  struct FrameTimings {
    double ui = 0;         // panels, input and layout (Dear ImGui)
    double draw_list = 0;  // turning the scene at this frame into the renderer's draw list
    double render = 0;     // recording, submitting and presenting (waits for the GPU's previous frame)
  };
  const FrameTimings& last_frame_timings() const { return timings_; }

  // Draws and presents one frame; `wall_seconds` is the time since the previous one.
  // Returns false when the window failed (its error is in the log).
  bool frame(double wall_seconds);

  // Whether the next frame differs without input: playing, or waiting for a rollout.
  bool animating() const;

  const StudioState& state() const { return state_; }

private:
  void start_rollout();
  // Bounds, sizes and the home camera for this motion; the camera goes home unless moved.
  void frame_motion(const Scene& scene, const Trajectory& traj);
  void adopt_newest_motion();
  void adopt_newest_iterate();
  studio::OptimizationSession& optimization_session();  // made on first use
  // Starts the state adjoint of the shown motion when a view needs it and it is stale.
  void update_state_adjoints();
  void handle_keys();
  void handle_viewport_mouse(const studio::Rect& viewport);
  // The camera looking into the viewport's rectangle of the window (picking, the gizmo).
  view::ViewportProjector viewport_projector(const studio::Rect& viewport) const;
  // The motion's draw options with the user's camera and the View menu's layers.
  view::SceneDrawOptions shown_draw_options() const;
  // `arrow_scale` receives the gradient arrows' world units per unit of gradient (0: none).
  render::DrawList viewport_draw_list(const studio::Rect& viewport, float* arrow_scale) const;
  // The panels' commands, one handler each (studio_commands.cpp). run_commands dispatches
  // them with std::visit, so a command added to Command without a handler does not compile.
  void run_commands();
  // File
  void handle(const command::NewScene& c);
  void handle(const command::Open& c);
  void handle(const command::Save& c);
  void handle(const command::SaveAs& c);
  void handle(const command::Quit& c);
  void handle(const command::Recover& c);
  void handle(const command::ClearRecent& c);
  // View
  void handle(const command::FrameAll& c);
  void handle(const command::ResetCamera& c);
  // Optimise
  void handle(const command::OptimizeStart& c);
  void handle(const command::OptimizePause& c);
  void handle(const command::OptimizeStep& c);
  void handle(const command::OptimizeReset& c);
  void handle(const command::ApplyIterate& c);
  void handle(const command::Export& c) { export_iterate(c); }
  void handle(const command::RunMpc& c);
  void handle(const command::ApplyMpc& c);
  // Trust
  void handle(command::ComputeLandscape& c);  // takes the request's scene
  void handle(const command::CompareMethods& c);
  void handle(const command::CheckGradients& c);
  // Edit and history
  void handle(const command::EditParameter& c) { edit_parameter(c); }
  void handle(const command::EditScene& c) { edit_scene_shown(c); }
  void handle(const command::Undo& c);
  void handle(const command::Redo& c);
  void handle(const command::GoToHistory& c);
  // Footage
  void handle(const command::TrackFeature& c);
  void handle(const command::Live& c);
  void export_iterate(const command::Export& request);
  void apply_mpc();
  // The shot's video and frame at the play head; a finished tracking run taken in.
  void update_footage();
  // The Sweep tab's table (gui/studio_sweep.cpp): opened, read again when its file
  // changes, and a point of it opened as the document.
  void open_sweep(const std::filesystem::path& path);
  void update_sweep();
  void open_sweep_point(int point);
  void start_tracking(int track);
  void replace_scene_in_place(Scene scene, const std::string& label);
  // set_document, keeping the camera and whether the motion plays (the same scene, changed).
  void set_document_keeping_view(studio::Document document);
  void export_frames(const std::filesystem::path& folder, bool over_shot = false);
  void report_frame_export();  // once, when an export has finished
  void edit_parameter(const command::EditParameter& edit);
  // Applies an editor action to the scene shown (the optimiser's iterate while it runs).
  void edit_scene_shown(const command::EditScene& edit);
  // After undo, redo or a jump in the history: show the document's scene as it now is,
  // keeping the view and, where it still exists, the selection.
  void show_history_step(const std::string& what);
  // Drops what was computed for the scene shown so far (the optimiser's session and its
  // iterates, landscapes, checks, adjoints): it belongs to another scene now.
  void drop_derived_state();
  // Whether `action` would lose unsaved changes; then it asks (the Unsaved Changes popup
  // holds the action until the user answers) and the action waits.
  bool would_lose_work(const std::variant<command::NewScene, command::Open, command::Quit>& action);
  // A finished run's result as a step of the document's history (the run stays shown).
  void commit_run(const std::shared_ptr<const studio::OptimizationSnapshot>& run);
  void show_error(const std::string& message);
  void set_document(studio::Document document);
  void adopt_opened(studio::Document document);  // set_document, plus the log and recent files
  void remember_recent(const std::filesystem::path& path);

  Window& window_;
  StudioState state_;
  studio::Disposer disposer_;  // ends the workers the studio no longer needs
  std::unique_ptr<studio::RolloutWorker> worker_;
  // Autosave: the document's scene goes to the recovery file once it has had unsaved
  // changes for kAutosaveDelay seconds without another change.
  static constexpr double kAutosaveDelay = 2.0;
  void autosave();
  studio::Recovery recovery_{studio::default_recovery_dir()};
  std::uint64_t seen_revision_ = 0;
  std::chrono::steady_clock::time_point changed_at_ = std::chrono::steady_clock::now();
  bool autosave_failed_ = false;                   // said once in the log
  bool camera_moved_ = false;                      // by the user since the document opened
  bool framed_empty_scene_ = false;                // the camera framed a scene with nothing in it
  bool dragging_ = false;                          // a right or middle drag that began in the viewport is going on
  ViewportEditor editor_;                          // the left button: select, box-select, move with the gizmo
  std::unique_ptr<ExampleThumbnails> thumbnails_;  // the welcome panel's pictures, once asked for
  // The document's file as last read or written, checked each second: reloaded when it
  // changes on disk and nothing here is unsaved.
  std::filesystem::file_time_type disk_time_{};
  std::chrono::steady_clock::time_point disk_checked_{};
  bool disk_change_reported_ = false;
  void note_file_on_disk();
  void reload_if_changed_on_disk();
  void update_example_pictures();
  // The action of the lesson step just reached (Help > Lessons), once (gui/lesson_actions.cpp).
  void act_on_lesson_step();
  // Live play (gui/studio_live.cpp): its steps for this frame's time, its end when its
  // motion is replaced, the contacts drawn, and the Ctrl+right drag that pulls an element
  // (returns whether the mouse was used for it).
  void advance_live(double wall_seconds);
  void end_live(const std::string& why);
  void update_contacts();
  bool handle_pull_mouse(const view::ViewportProjector& projector, bool mouse_in_viewport);
  DockLayout dock_{default_layout_file()};  // where the panels are, kept between sessions
  bool close_confirmed_ = false;            // Quit chosen with unsaved changes discarded: closing may go on
  bool live_when_ready_ = false;            // `--live`: start live play once the motion comes
  float viewport_aspect_ = 16.0f / 9.0f;
  FrameTimings timings_;
};

}  // namespace nudge::gui
