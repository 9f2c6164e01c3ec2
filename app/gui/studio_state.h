// What the panels of the window read and change each frame: the document, the motion
// shown, the play head, the camera, the selection and which panels are open. Panels ask
// for anything beyond that (open a file, save, quit) by queueing a Command, which the
// studio carries out after the panels are drawn, so no panel half-applies an action.
#pragma once

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <imgui.h>  // ImTextureRef: the examples' pictures

#include "gui/frame_export.h"
#include "studio/app_log.h"
#include "studio/document.h"
#include "studio/element_kinds.h"
#include "studio/footage_view.h"
#include "studio/live_play.h"
#include "studio/gradient_check_run.h"
#include "studio/loss_landscape.h"
#include "studio/method_comparison.h"
#include "studio/mpc_run.h"
#include "studio/optimization_session.h"
#include "studio/orbit_camera.h"
#include "studio/playback.h"
#include "studio/recent_files.h"
#include "studio/recovery.h"
#include "studio/rollout_worker.h"
#include "view/time_strip.h"
#include "studio/state_adjoint_run.h"
#include "studio/tracking_run.h"
#include "nudge/sweep.h"
#include "view/element_colors.h"
#include "view/gradient_overlay.h"
#include "view/scene_draw.h"

namespace nudge::gui {

// The elements the outliner and inspector point at; the viewport highlights them. One
// kind at a time: `index` is the element clicked last (the inspector shows it) and
// `others` the rest of a box selection or Shift+click, of the same kind.
struct Selection {
  using Kind = studio::ElementKind;  // studio/element_kinds.h: what each kind is called, counts, ...

  Selection(Kind k = Kind::None, int i = -1, std::vector<int> rest = {}) : kind(k), index(i), others(std::move(rest)) {}
  Kind kind = Kind::None;
  int index = -1;
  std::vector<int> others;
  bool operator==(const Selection&) const = default;
  // index and others, ascending, each once.
  std::vector<int> members() const {
    std::vector<int> all = others;
    all.push_back(index);
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    return all;
  }
  bool contains(int i) const { return i == index || std::find(others.begin(), others.end(), i) != others.end(); }
};

// Whether the selection names elements the scene has (Settings always; None never).
inline bool selection_exists(const Scene& scene, const Selection& sel) {
  const auto below = [&](std::size_t n) {
    for (const int i : sel.members())
      if (i < 0 || std::size_t(i) >= n) return false;
    return true;
  };
  if (sel.kind == Selection::Kind::None) return false;
  return below(std::size_t(studio::element_kind_facts(sel.kind).count(scene)));
}

namespace command {
// `confirmed`: the user has said the unsaved changes may go (else the studio asks first).
struct NewScene {
  bool confirmed = false;
};
// A scene file; a sweep's table (.csv, nudge/sweep.h) opens in the Sweep tab instead,
// and with `sweep_point` the scene at that row of the table replaces the document.
struct Open {
  std::filesystem::path path;
  bool confirmed = false;
  int sweep_point = -1;  // a row of the table's rows
};
struct Save {};
struct SaveAs {
  std::filesystem::path path;
};
struct Quit {
  bool confirmed = false;
};
struct FrameAll {};
struct ResetCamera {};
struct ClearRecent {};
// The optimiser panel's buttons.
struct OptimizeStart {};
struct OptimizePause {};
struct OptimizeStep {};
struct OptimizeReset {};
// Copies the shown iterate's parameters into the document (then Save or Save As).
struct ApplyIterate {};
// Writes what the optimisation has found to a file (Frames: the shown motion as PNGs in
// a folder).
// MotionCsv and MotionGltf: the shown motion for other programs (footage/motion_export.h).
// FramesOverShot: the shot's frames with the motion drawn over them.
enum class ExportKind { LossHistoryCsv, ParametersJson, OptimizedScene, Frames, MotionCsv, MotionGltf, FramesOverShot };
struct Export {
  ExportKind kind = ExportKind::LossHistoryCsv;
  std::filesystem::path path;
};
// A parameter's entries [first, first + values.size()) typed in by hand.
struct EditParameter {
  ParamId id = ParamId::Mass;
  int first = 0;
  std::vector<double> values;
  // The other selected elements' first entries, which the same edit changes in one step:
  // with `relative` they move by the change typed (positions: a group keeps its shape),
  // else they take the values typed.
  std::vector<int> also_firsts;
  bool relative = false;
};
// An editor action on the document's scene (studio/scene_edits.h): a step of the history
// named `label`, or its error shown and nothing changed.
struct EditScene {
  using Apply = std::function<Result<Scene>(const Scene&)>;
  using ThenSelect = std::function<Selection(const Scene& before, const Scene& after)>;
  EditScene(std::string l, Apply a, ThenSelect then = {})
      : label(std::move(l)), apply(std::move(a)), then_select(std::move(then)) {}
  std::string label;
  std::function<Result<Scene>(const Scene&)> apply;
  // What to select once it has applied (the pasted elements, say), from the scenes before
  // and after; empty: the selection stays where it still exists.
  std::function<Selection(const Scene& before, const Scene& after)> then_select;
};
// The answer to "recover the unsaved changes of the last session?".
struct Recover {
  bool accept = false;
};
// Moves along the document's history (Edit > Undo, Redo, History).
struct Undo {};
struct Redo {};
struct GoToHistory {
  std::size_t position = 0;
};
// The Trust tabs: compute a loss landscape, or check the gradients, at the shown point.
struct ComputeLandscape {
  studio::LandscapeRequest request;
};
struct CompareMethods {
  std::vector<OptimizerSettings> methods;
  int budget = 200;  // simulations per method

  // The gradient method the scene's settings name, or Adam when they name CMA-ES itself.
  static OptimizerMethod own_gradient_method(const OptimizerSettings& settings) {
    return uses_gradient(settings.method) ? settings.method : OptimizerMethod::Adam;
  }
  // `gradient` against CMA-ES, both with the scene's settings (learning rate, clip,
  // sigma...) and the whole budget: no early stop.
  static CompareMethods against_cmaes(const OptimizerSettings& settings, OptimizerMethod gradient, int budget) {
    OptimizerSettings g = settings, cmaes = settings;
    g.method = gradient;
    cmaes.method = OptimizerMethod::CMAES;
    g.tolerance = g.loss_tolerance = cmaes.tolerance = cmaes.loss_tolerance = 0;
    return {{g, cmaes}, budget};
  }
};
struct CheckGradients {
  std::vector<ParamId> parameters;  // empty: all
  int samples_per_parameter = 6;
};
// The Optimise tab's model predictive control: run it on the document's scene, and take
// a finished run's executed controls into the document.
struct RunMpc {
  MpcSettings settings;
};
struct ApplyMpc {};
// The Footage tab: follow a track through the shot from its keys (a background job).
struct TrackFeature {
  int track = -1;
};
// Live play: start it from the play head (and play), or end it (the recorded motion again).
struct Live {
  bool on = true;
};
}  // namespace command

using Command =
    std::variant<command::NewScene, command::Open, command::Save, command::SaveAs, command::Quit, command::FrameAll,
                 command::ResetCamera, command::ClearRecent, command::OptimizeStart, command::OptimizePause,
                 command::OptimizeStep, command::OptimizeReset, command::ApplyIterate, command::Export,
                 command::ComputeLandscape, command::CheckGradients, command::EditParameter, command::CompareMethods,
                 command::Undo, command::Redo, command::GoToHistory, command::EditScene, command::Recover,
                 command::RunMpc, command::ApplyMpc, command::TrackFeature, command::Live>;

// Which panels and scene layers are shown (the View menu).
struct ViewFlags {
  // Panels (dock windows, gui/dock_layout.h)
  bool outliner = true;
  bool inspector = true;
  bool optimise = true;
  bool landscape = true;
  bool check = true;
  bool footage = true;
  bool live = true;
  bool sweep = false;  // shown when a sweep's table is opened
  bool pose = false;   // the articulations' joints' sliders: shown when a scene with joints opens
  bool pose_offered = false;
  bool timeline = true;
  bool log = true;
  // Scene layers
  bool particles = true;
  bool springs = true;
  bool triangles = true;
  bool tets = true;  // soft bodies: their surface
  bool objectives = true;
  bool colliders = true;
  bool bodies = true;
  bool joints = true;
  bool attachments = true;
  bool collision_shapes = false;  // links' felt-only shapes (a URDF's <collision> geoms)
  bool grid = true;
  bool ghosts = true;     // the initial and previous iterates while optimising
  bool contacts = false;  // contact points and forces, of live play or at the play head
  // Gradients of the shown iterate drawn over the scene (the optimiser's start when it
  // has not run: choosing an overlay evaluates it).
  view::GradientOverlay gradient = view::GradientOverlay::None;
  // The gradient arrows' length: fixed (set from the first gradient drawn, so arrows shrink
  // as the optimiser converges) or normalised; the legend in the viewport chooses.
  view::ArrowScale arrow_scale{.fixed = true};
  float arrow_scale_drawn = 0;  // world units per unit of gradient in the last frame; 0: none
  // The cloth's triangles and the soft bodies' tets coloured per element, by stress at
  // the frame shown or by a per-element gradient (evaluated as the overlays' are).
  view::ElementColoring element_colors;
  bool control_gradients = false;   // dL/du per step and channel, a heat strip under the timeline
  bool controller_outputs = false;  // what the controller adds to each channel per step, a heat strip
  bool adjoint_arrows = false;      // dL/dx_t at the play head, arrows on the particles
  bool adjoint_track = false;       // |dL/dx_t| against t, a curve under the timeline
  // Look through the footage's camera with the shot's frame behind the scene, and its
  // tracks and correspondences drawn over it (when the scene has a camera).
  bool through_shot = false;
};

// Dialogs and windows a menu item or key asks for. The file dialogs open on the next
// frame (the flag is then cleared); the Help windows stay while their flag is set.
struct Popups {
  bool open_file = false;                          // the Open dialog
  bool save_as = false;                            // the Save As dialog
  bool keys = false;                               // Help > Keys and Mouse
  bool about = false;                              // Help > About
  std::optional<command::ExportKind> export_file;  // the Export dialog, for this kind
  bool marker_csv = false;                         // Edit > Load Marker CSV: its file dialog
  // Edit > Add's generator dialogs: the one to open on the next frame (the request is
  // then cleared; the dialog remembers its values between openings).
  enum class Generator {
    None,
    Chain,
    Cloth,
    SoftBlock,
    Walker,
    SoftBox,
    SoftBall,
    ImportTetMesh,
    Liquid,
    Sand,
    SoftSolid
  };
  Generator generator = Generator::None;
  // "Unsaved changes": what the user asked for (new, open, quit) that would lose them,
  // held until they choose Save, Discard or Cancel.
  std::optional<std::variant<command::NewScene, command::Open, command::Quit>> unsaved;
  // Save chosen there for a scene with no file: the action goes on once Save As has
  // saved it (and is dropped if the dialog is cancelled or the save fails).
  std::optional<std::variant<command::NewScene, command::Open, command::Quit>> after_save_as;
  // A recovery file's scene, offered at start until the user answers.
  std::optional<studio::RecoveredScene> recovery;
};

// The state splits by owner: each group below is changed by the studio and the panels of
// one concern, and a panel that only reads a group takes it as const.

// File > Recent and File > Examples.
struct FileLists {
  studio::RecentFiles recent;
  std::filesystem::path recent_file;            // where `recent` is kept; empty: not kept
  std::vector<std::filesystem::path> examples;  // File > Examples, listed once at start
};

// The motion shown: the newest rollout of the current document (null until it comes),
// and where the play head is in it.
struct ShownMotion {
  std::shared_ptr<const studio::RolloutResult> motion;
  std::uint64_t serial = 0;             // bumped whenever `motion` is replaced
  std::uint64_t request = 0;            // generation asked for the current document
  view::SceneDrawOptions draw_options;  // bounds and sizes of `motion`
  studio::Playback playback;

  // The motion when it is the current document's (null while that one is computed).
  const studio::RolloutResult* current() const {
    return motion && motion->generation == request ? motion.get() : nullptr;
  }
};

// Optimising the document (the Optimise tab): the session (null until the first Start
// or Step), the settings the panel edits, the newest snapshot shown, and model predictive
// control and the comparison of methods beside it.
struct OptimiseState {
  std::unique_ptr<studio::OptimizationSession> session;
  OptimizerSettings settings;
  std::shared_ptr<const studio::OptimizationSnapshot> iterate;
  // The finished run whose result is the document's newest step of history (a run is
  // one step: Ctrl+Z takes the scene back to its start, Ctrl+Y brings the result again).
  std::shared_ptr<const studio::OptimizationSnapshot> committed;
  // Whether the iterate shown has moved from the document's scene and is not in its
  // history yet: opening, new or quit ask before dropping it.
  bool unapplied() const {
    return iterate && iterate != committed && iterate->iteration > 0 && iterate->trajectory.steps > 0;
  }
  // The controller's outputs along the shown iterate's motion, computed once per iterate
  // (and timeline width) for the timeline.
  struct ControllerOutputs {
    const studio::OptimizationSnapshot* of = nullptr;
    int columns = 0;
    std::vector<double> values;  // steps x outputs
    view::HeatStrip strip;
  } controller_outputs;
  // Drawn faintly behind the current iterate: the start (iteration 0) and the iterate
  // before the current one.
  std::shared_ptr<const studio::OptimizationSnapshot> initial_iterate, previous_iterate;
  bool loss_log_scale = true;
  std::unique_ptr<studio::MethodComparison> comparison;  // GD against CMA-ES
  bool open_comparison = false;                          // open its section next frame
  std::unique_ptr<studio::MpcRun> mpc;                   // model predictive control
  MpcSettings mpc_settings;                              // its settings, for the next run
  // Backpropagation through the last `horizon` steps only (0: all), for the optimiser and
  // the state adjoint.
  int horizon = 0;
};

// The Trust tabs' computations (null until asked for), at the point shown when asked,
// and the state adjoint of the motion shown (computing, and newest).
struct TrustState {
  std::unique_ptr<studio::LossLandscape> landscape;
  std::unique_ptr<studio::GradientCheckRun> gradient_check;
  std::unique_ptr<studio::StateAdjointRun> adjoint_run;
  std::shared_ptr<const studio::StateAdjointResult> adjoints;
};

// The shot behind the viewport and the Footage tab's work on it.
struct ShotState {
  // The document's video, and its frame at the play head when the view looks through the
  // shot's camera (set each frame before drawing).
  studio::FootageView view;
  const footage::Image* frame = nullptr;
  // Tracking a feature through the shot (null until asked for), and whether its result
  // has been taken into the document.
  std::unique_ptr<studio::TrackingRun> tracking;
  bool tracking_applied = false;
  // What a left click does in the viewport while it looks through the shot's camera:
  // add a track there, or place the image point of a correspondence whose world point
  // the Footage tab holds; with no tool, dragging a track's point at the play head moves
  // its key there (a correction).
  struct FootageTool {
    enum class Mode { None, AddTrack, PlacePoint };
    Mode mode = Mode::None;
    std::string track_name = "feature";
    double world[3] = {0, 0, 0};
  } tool;
  int selected_track = -1;  // the Footage tab's track (-1: none)
  struct TrackDrag {
    int track = -1, frame = 0;
    double u = 0, v = 0;  // image px, where the point is dragged to
  };
  std::optional<TrackDrag> track_drag;
};

// What the editor works on: the selection, a marker waiting to be bound, the clipboard.
struct EditorState {
  Selection selection;
  // A marker of a markers objective waiting to be bound to the next particle clicked in
  // the viewport (the inspector's "bind by picking"; Escape cancels).
  struct MarkerBinding {
    int objective = -1;
    int marker = -1;
  };
  std::optional<MarkerBinding> binding_marker;
  // What Edit > Copy took (studio/scene_edits.h's extract): particles and bodies with
  // what joins them, kept when another scene is opened so it can be pasted there.
  std::optional<Scene> clipboard;
  // Snap moves to the grid (Edit > Snap to Grid; holding Ctrl while dragging inverts it).
  bool snap = true;
  // The viewport gizmo's tool for selected particles or bodies: W moves (the translate
  // gizmo), E turns and S scales (ImGuizmo's rotate and uniform scale) about their centre.
  enum class Tool { Move, Turn, Scale };
  Tool tool = Tool::Move;
};

// The window itself: what is shown, the camera, dialogs, the banner, timing, the log's
// copy, and File > Export Frames.
struct UiState {
  ViewFlags view;
  studio::OrbitCamera camera;
  Popups popups;
  // The newest error of a user action (a file that did not open...), shown in a banner
  // over the viewport until dismissed or replaced. Also in the log.
  std::string banner;
  bool reset_layout = false;  // View > Panels > Reset Layout, done next frame
  // Frame timing for the status bar (seconds per frame, smoothed).
  double frame_seconds = 1.0 / 60.0;
  std::string device_name;
  // The log panel's copy of the log, taken when the log's generation changes (then it
  // scrolls to the bottom).
  std::uint64_t log_generation_shown = 0;
  std::vector<studio::LogEntry> log_entries;
  // File > Export Frames, running (null when none has been asked for).
  std::unique_ptr<FrameExport> frame_export;
  bool frame_export_reported = false;
  // Help > Welcome: shown at a start without a scene; it steps aside once the user opens,
  // creates or edits something. The examples' pictures, by index in files.examples, as
  // they are drawn.
  bool welcome = false;
  std::map<int, ImTextureRef> example_pictures;
  // Help > Lessons: the lesson shown (index into studio::lessons(); -1: none), its step,
  // and whether that step's action is still to be carried out (next frame).
  struct LessonPlace {
    int lesson = -1;
    int step = 0;
    bool act = false;
  } lesson;
  // A dock window to show and bring to the front next frame (its panel_name, from
  // gui/dock_layout.h), or null.
  const char* bring_panel = nullptr;
};

// Live play (the Live tab, or a Ctrl+right drag on the scene): the scene simulated as it
// is watched, from the play head on, pulled with the mouse and driven by hand.
struct LiveState {
  std::unique_ptr<studio::LivePlay> play;  // null: the recorded motion is shown
  studio::ContactProbe probe;              // the recorded motion's contacts at the play head
  // The Ctrl+right drag pulling an element: the depth (along the view) of the plane facing
  // the camera that the cursor moves the pull's target in.
  std::optional<double> drag_depth;
  // View > Contacts: those drawn this frame, and metres of arrow per newton.
  std::vector<Contact> contacts;
  double contact_scale = 0;
};

// A sweep's table opened in the Sweep tab (File > Open, or dropped on the window): read
// again whenever its file changes, so that a sweep still running fills the plot in.
struct SweepView {
  std::filesystem::path path;
  std::shared_ptr<const SweepTableContents> table;  // null until one opens
  std::filesystem::file_time_type written{};        // the file's time when it was read
  std::chrono::steady_clock::time_point checked{};  // when the file's time was last looked at
  int selected = -1;                                // a row of table->rows, or -1
  int plotted = -1;                                 // the column plotted, or -1 for "loss"
  int across = 0;                                   // with more than two axes: the one across
};

// What the panels ask the studio to do this frame, carried out after drawing
// (Studio::run_commands), so that no panel half-applies an action.
struct CommandQueue {
  std::vector<Command> items;
  void push(Command c) { items.push_back(std::move(c)); }
};

struct StudioState {
  explicit StudioState(studio::AppLog& log_sink) : log(log_sink) {}

  studio::AppLog& log;
  studio::Document document;
  FileLists files;
  ShownMotion shown;
  OptimiseState optimise;
  TrustState trust;
  ShotState shot;
  EditorState editor;
  UiState ui;
  LiveState live;
  SweepView sweep;

  CommandQueue commands;
  void queue(Command c) { commands.push(std::move(c)); }

  // The point the optimiser is at, or the document's parameters before it has run: where
  // landscapes and gradient checks are computed.
  const Scene& point_scene() const { return optimise.iterate ? optimise.iterate->scene : document.scene(); }
  // The scene being shown: the motion's when it belongs to the current document (it is
  // the exact scene that was simulated), else the document's.
  const Scene& scene() const { return shown.current() ? shown.current()->scene : document.scene(); }
  const Trajectory* trajectory() const {
    const studio::RolloutResult* current = shown.current();
    return current && current->ok() ? &current->trajectory : nullptr;
  }
  // The state drawn, picked and inspected: live play's, or the motion's at the play head.
  struct Frame {
    const Trajectory* traj = nullptr;  // null before the motion comes: the initial state
    int step = 0;                      // into traj
  };
  Frame shown_frame() const {
    if (live.play) return {&live.play->state(), 0};
    const Trajectory* traj = trajectory();
    return {traj, traj ? std::clamp(shown.playback.frame(), 0, traj->steps) : 0};
  }
};

}  // namespace nudge::gui
