#include "gui/studio.h"

#include <imgui.h>

#include <glm/gtc/quaternion.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "report/optimization_report.h"
#include "gui/footage_viewport.h"
#include "gui/panels/panels.h"
#include "nudge/atomic_file.h"
#include "nudge/parameter_facts.h"
#include "footage/motion_export.h"
#include "studio/scene_edits.h"
#include "view/contact_draw.h"
#include "view/footage_plate.h"
#include "view/state_adjoint_arrows.h"
#include "nudge/robot_import.h"

namespace nudge::gui {

namespace {

constexpr render::Rgba kHighlight{1.0f, 0.85f, 0.25f, 1};
constexpr render::Rgba kInitialGhost{0.75f, 0.78f, 0.85f, 0.35f};
constexpr render::Rgba kPreviousGhost{0.45f, 0.7f, 1.0f, 0.5f};
constexpr render::Rgba kPlannedGhost{0.98f, 0.55f, 0.2f, 0.6f};    // MPC's planned horizon: the actuators' orange
constexpr render::Rgba kExecutedGhost{0.98f, 0.75f, 0.5f, 0.45f};  // and the motion it has executed
constexpr int kMaxPlannedParticles = 300;
// Ghosts are thin lines only; past these counts they would cost more than they show.
constexpr int kMaxGhostSprings = 20000;
constexpr int kMaxGhostParticles = 2000;

bool key_pressed(ImGuiKey key, bool repeat = false) { return ImGui::IsKeyPressed(key, repeat); }

// An earlier iterate at `frame`, faint: its springs, and a small cross at each particle
// (for scenes with few springs, such as a projectile).
void add_ghost(render::DrawList& list, const studio::OptimizationSnapshot* ghost, int frame, float particle_radius,
               render::Rgba color) {
  if (!ghost || ghost->trajectory.steps == 0) return;
  const Scene& scene = ghost->scene;
  const Trajectory& traj = ghost->trajectory;
  render::LineBatch lines;
  lines.colors = {color};
  lines.width_pixels = 1.5f;
  if (scene.spring_count() <= kMaxGhostSprings)
    for (int s = 0; s < scene.spring_count(); ++s) {
      lines.points.push_back(view::particle_position(scene, &traj, frame, scene.spring_a[size_t(s)]));
      lines.points.push_back(view::particle_position(scene, &traj, frame, scene.spring_b[size_t(s)]));
    }
  if (scene.particle_count() <= kMaxGhostParticles && scene.spring_count() < scene.particle_count()) {
    const float arm = 1.5f * particle_radius;
    for (int i = 0; i < scene.particle_count(); ++i) {
      const glm::vec3 p = view::particle_position(scene, &traj, frame, i);
      for (const glm::vec3 axis : {glm::vec3(arm, 0, 0), glm::vec3(0, arm, 0), glm::vec3(0, 0, arm)}) {
        lines.points.push_back(p - axis);
        lines.points.push_back(p + axis);
      }
    }
  }
  if (!lines.points.empty()) list.lines.push_back(std::move(lines));
}

// Model predictive control's newest plan: the path of the motion it has executed (faint)
// and of the window it plans (orange), for the bodies' centres and (a few hundred at
// most) the particles, and at the play head a cross on that motion: the planned horizon
// as a ghost.
void add_planned_horizon(render::DrawList& list, const Scene& scene, const studio::MpcSnapshot& run, int frame,
                         float particle_radius) {
  if (run.plans.empty() || run.planned.particles != scene.particle_count() || run.planned.bodies != scene.body_count())
    return;
  const MpcPlan& plan = run.plans.back();
  const Trajectory& traj = run.planned;
  const int start = plan.start, last = std::min(plan.start + plan.steps, traj.steps);
  render::LineBatch executed, planned, crosses;
  executed.colors = {kExecutedGhost};
  planned.colors = crosses.colors = {kPlannedGhost};
  executed.width_pixels = 1.5f;
  planned.width_pixels = 2.5f;
  crosses.width_pixels = 1.5f;
  const float arm = 1.5f * particle_radius;
  const auto add = [&](auto place) {
    for (int t = 0; t < last; ++t) {
      std::vector<glm::vec3>& points = (t < start ? executed : planned).points;
      points.insert(points.end(), {place(t), place(t + 1)});
    }
    if (frame > last) return;
    const glm::vec3 p = place(frame);
    for (const glm::vec3 axis : {glm::vec3(arm, 0, 0), glm::vec3(0, arm, 0), glm::vec3(0, 0, arm)})
      crosses.points.insert(crosses.points.end(), {p - axis, p + axis});
  };
  for (int b = 0; b < scene.body_count(); ++b)
    add([&](int t) {
      const Vec3<double> x = view::body_pose(scene, &traj, t, b).x;
      return glm::vec3(float(x.x), float(x.y), float(x.z));
    });
  if (scene.particle_count() <= kMaxPlannedParticles)
    for (int i = 0; i < scene.particle_count(); ++i)
      add([&](int t) { return view::particle_position(scene, &traj, t, i); });
  for (render::LineBatch* batch : {&executed, &planned, &crosses})
    if (!batch->points.empty()) list.lines.push_back(std::move(*batch));
}

}  // namespace

Studio::Studio(Window& window, studio::AppLog& log, std::optional<studio::Document> first)
    : window_(window), state_(log),
      worker_(std::make_unique<studio::RolloutWorker>([](const studio::RolloutResult&) { Window::wake(); })) {
  state_.ui.device_name = window.device_name();
  state_.files.examples = studio::list_example_scenes(studio::examples_directory(NUDGE_SOURCE_SCENES_DIR));
  state_.files.recent_file = studio::default_recent_files_path();
  if (!state_.files.recent_file.empty()) state_.files.recent = studio::RecentFiles::load(state_.files.recent_file);
  if (first) {
    adopt_opened(std::move(*first));
  } else {
    set_document(studio::Document{});
    state_.ui.welcome = true;  // a start without a scene: the examples, and what to do first
  }
}

void Studio::drop_derived_state() {
  // Workers stop at their next iteration boundary, on the disposer's thread: the UI does
  // not wait for them.
  disposer_.dispose(std::move(state_.optimise.session));
  disposer_.dispose(std::move(state_.trust.landscape));
  disposer_.dispose(std::move(state_.trust.adjoint_run));
  state_.trust.adjoints.reset();
  disposer_.dispose(std::move(state_.trust.gradient_check));
  disposer_.dispose(std::move(state_.optimise.comparison));
  disposer_.dispose(std::move(state_.optimise.mpc));
  state_.optimise.iterate.reset();
  state_.optimise.committed.reset();
  state_.optimise.initial_iterate.reset();
  state_.optimise.previous_iterate.reset();
}

void Studio::set_document(studio::Document document) {
  drop_derived_state();
  disposer_.dispose(std::move(state_.shot.tracking));  // its track belongs to the old document
  state_.ui.welcome = false;                           // the user has started: it steps aside
  state_.ui.view.arrow_scale.metres_per_unit = 0;      // a fixed arrow scale is the new scene's to set
  state_.shot.selected_track = -1;
  state_.shot.track_drag.reset();
  state_.shot.tool.mode = ShotState::FootageTool::Mode::None;
  state_.document = std::move(document);
  note_file_on_disk();
  state_.optimise.settings = state_.document.scene().optimizer;
  state_.editor.selection = {Selection::Kind::Settings, 0};
  state_.ui.banner.clear();
  state_.shown.draw_options = view::scene_draw_options(state_.document.scene(), nullptr, viewport_aspect_);
  state_.ui.camera = studio::OrbitCamera(state_.shown.draw_options.camera);
  camera_moved_ = false;
  const Scene& scene = state_.document.scene();
  state_.shown.playback = studio::Playback(scene.settings.steps + 1, scene.settings.dt);
  window_.set_title(state_.document.title());
  start_rollout();
}

Studio::~Studio() {
  dock_.save_if_changed(true);
  if (!state_.document.dirty() || close_confirmed_) recovery_.clear_own();
}

void Studio::offer_recovery() {
  std::optional<Result<studio::RecoveredScene>> found = recovery_.find();
  if (!found) return;
  if (!*found) {
    state_.log.error(found->error().message + " (it is kept in " + recovery_.dir().string() + ")");
    return;
  }
  const studio::RecoveredScene& r = **found;
  state_.log.info("found unsaved changes of " +
                  (r.original.empty() ? std::string("a new scene") : r.original.string()) + " from " + r.written_at +
                  " in " + recovery_.scene_file().string() + ": Recover or Discard");
  state_.ui.popups.recovery = std::move(**found);
}

void Studio::autosave() {
  const studio::Document& document = state_.document;
  const auto now = std::chrono::steady_clock::now();
  if (document.revision() != seen_revision_) seen_revision_ = document.revision(), changed_at_ = now;
  if (state_.ui.popups.recovery) return;  // the old session's file stays until the user answers
  if (!document.dirty()) {
    recovery_.clear_own();
    return;
  }
  if (std::chrono::duration<double>(now - changed_at_).count() < kAutosaveDelay) return;
  if (Status written = recovery_.write(document); !written && !autosave_failed_) {
    state_.log.error("autosave failed (unsaved changes are not kept for recovery): " + written.error().message);
    autosave_failed_ = true;
  }
}

void Studio::start_rollout() { state_.shown.request = worker_->request(state_.document.scene()); }

bool Studio::open(const std::filesystem::path& path) {
  if (is_robot_file(path)) return import_robot_file(path);
  Result<studio::Document> opened = studio::open_document(path, state_.files.examples);
  if (!opened) {
    show_error(opened.error().message);
    return false;
  }
  const bool was_playing = state_.shown.playback.playing();
  adopt_opened(std::move(*opened));
  if (was_playing) state_.shown.playback.play();
  return true;
}

// A robot's MJCF or URDF file opens as a new scene of it (nudge import's), not yet saved:
// Save asks where to keep it, and the scene names the robot's file.
bool Studio::import_robot_file(const std::filesystem::path& path) {
  std::vector<std::string> notes;
  Result<studio::Document> imported = studio::import_robot_document(path, &notes);
  if (!imported) {
    show_error(imported.error().message);
    return false;
  }
  const Articulations& a = imported->scene().articulations;
  const std::string summary = std::to_string(a.link_count()) + " links, " +
                              std::to_string(articulation_coordinate_count(a)) + " joint coordinates, " +
                              std::to_string(a.actuators.size()) + " actuators";
  set_document(std::move(*imported));
  state_.log.info("imported " + path.string() + ": " + summary + " (Save asks where to keep the scene)");
  for (const std::string& line : notes) state_.log.warning("not imported: " + line);
  return true;
}

void Studio::adopt_opened(studio::Document document) {
  if (!document.has_path() && document.copy_of().empty()) {  // a robot's file, imported on the command line
    const Articulations& a = document.scene().articulations;
    state_.log.info("imported " + document.scene().articulations.source + ": " + std::to_string(a.link_count()) +
                    " links, " + std::to_string(articulation_coordinate_count(a)) + " joint coordinates, " +
                    std::to_string(a.actuators.size()) + " actuators (Save asks where to keep the scene)");
    set_document(std::move(document));
    return;
  }
  const std::filesystem::path path = document.has_path() ? document.path() : document.copy_of();
  const bool copy = !document.has_path();
  set_document(std::move(document));
  remember_recent(path);
  state_.log.info(copy ? "opened a copy of the example " + path.string() + " (Save asks where to keep it)"
                       : "opened " + path.string());
}

void Studio::show_scene(Scene scene) { set_document(studio::Document(std::move(scene))); }

void Studio::remember_recent(const std::filesystem::path& path) {
  state_.files.recent.add(path);
  if (state_.files.recent_file.empty()) return;
  if (Status saved = state_.files.recent.save(state_.files.recent_file); !saved)
    state_.log.warning("could not keep the recent files list: " + saved.error().message);
}

void Studio::show_error(const std::string& message) {
  state_.log.error(message);
  state_.ui.banner = message;
}

void Studio::frame_motion(const Scene& scene, const Trajectory& traj) {
  state_.shown.draw_options = view::scene_draw_options(scene, &traj, viewport_aspect_);
  framed_empty_scene_ = scene.particle_count() == 0 && scene.bodies.empty() && scene.articulations.empty();
  // Frame the whole motion unless the user has already moved the camera.
  state_.ui.camera.set_home(state_.shown.draw_options.camera);
  if (!camera_moved_) state_.ui.camera.reset();
}

void Studio::adopt_newest_motion() {
  std::shared_ptr<const studio::RolloutResult> newest = worker_->latest();
  if (!newest || newest == state_.shown.motion || newest->generation != state_.shown.request) return;
  if (state_.optimise.iterate) return;  // an optimiser's iterate is shown instead
  state_.shown.motion = newest;
  ++state_.shown.serial;
  if (!newest->ok()) {
    show_error(state_.document.display_name() + ": the rollout failed: " + newest->error);
    return;
  }
  const Trajectory& traj = newest->trajectory;
  state_.shown.playback.set_motion(traj.steps + 1, traj.dt);
  frame_motion(newest->scene, traj);
  char line[200];
  std::snprintf(line, sizeof line, "%s: %d steps simulated in %.0f ms, loss %.6g",
                state_.document.display_name().c_str(), traj.steps, newest->seconds * 1000, newest->evaluation.loss);
  state_.log.info(line);
  for (const StepStabilityIssue& issue : newest->unstable)
    state_.log.warning(state_.document.display_name() + ": " + issue.message());
}

namespace {

std::string shortest(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.10g", v);
  return text;
}

}  // namespace

void Studio::adopt_newest_iterate() {
  if (!state_.optimise.session) return;
  std::shared_ptr<const studio::OptimizationSnapshot> newest = state_.optimise.session->latest();
  if (!newest || newest == state_.optimise.iterate) return;
  state_.optimise.initial_iterate = state_.optimise.session->initial();
  if (newest->iteration == 0)
    state_.optimise.previous_iterate.reset();  // back at the start (a reset)
  else if (state_.optimise.iterate && state_.optimise.iterate->iteration < newest->iteration)
    state_.optimise.previous_iterate = state_.optimise.iterate;  // the iterate shown before this one
  const bool just_finished = newest->state == studio::RunState::Finished && newest->iteration > 0 &&
                             !(state_.optimise.iterate && state_.optimise.iterate->state == studio::RunState::Finished);
  if (just_finished)
    state_.log.info("optimisation finished at iteration " + std::to_string(newest->iteration) + ": loss " +
                    shortest(newest->loss) + (newest->message.empty() ? "" : " (" + newest->message + ")"));
  state_.optimise.iterate = newest;
  if (just_finished && newest->trajectory.steps > 0) commit_run(newest);
  if (newest->trajectory.steps == 0) return;  // it failed: the message is in the panel
  // The viewport plays the iterate's motion, as it plays a rollout's.
  auto motion = std::make_shared<studio::RolloutResult>();
  motion->generation = state_.shown.request;
  motion->scene = newest->scene;
  motion->trajectory = newest->trajectory;
  motion->evaluation.loss = newest->loss;
  motion->evaluation.term_loss = newest->term_loss;
  // The first motion of this document (the iterate came before the plain rollout):
  // frame it, as adopt_newest_motion() does. Later iterates keep the view steady.
  // So is the result of a finished run, whose motion may reach far beyond the start's.
  const bool first_motion = !state_.shown.motion || state_.shown.motion->generation != state_.shown.request;
  state_.shown.motion = std::move(motion);
  ++state_.shown.serial;
  if (first_motion || newest->state == studio::RunState::Finished) frame_motion(newest->scene, newest->trajectory);
  state_.shown.playback.set_motion(newest->trajectory.steps + 1, newest->trajectory.dt);
}

void Studio::update_state_adjoints() {
  if (state_.trust.adjoint_run && state_.trust.adjoint_run->finished()) {
    state_.trust.adjoints = state_.trust.adjoint_run->result();
    state_.trust.adjoint_run.reset();
  }
  if (!state_.ui.view.adjoint_arrows && !state_.ui.view.adjoint_track) return;
  const Trajectory* traj = state_.trajectory();
  if (!traj || state_.trust.adjoint_run) return;  // one at a time: the newest motion is asked for next
  const bool current = state_.trust.adjoints && state_.trust.adjoints->key == state_.shown.serial &&
                       state_.trust.adjoints->horizon == state_.optimise.horizon;
  if (current) return;
  state_.trust.adjoint_run = std::make_unique<studio::StateAdjointRun>(state_.scene(), state_.optimise.horizon,
                                                                       state_.shown.serial, [] { Window::wake(); });
}

studio::OptimizationSession& Studio::optimization_session() {
  if (!state_.optimise.session) {
    state_.optimise.session =
        std::make_unique<studio::OptimizationSession>(state_.document.scene(), [] { Window::wake(); });
    state_.optimise.session->set_settings(state_.optimise.settings);
    state_.optimise.session->set_horizon(state_.optimise.horizon);
  }
  return *state_.optimise.session;
}

bool Studio::animating() const {
  const bool optimizing = state_.optimise.session &&
                          (!state_.optimise.iterate || state_.optimise.session->state() == studio::RunState::Running);
  return optimizing || state_.shown.playback.playing() ||
         state_.shown.request != (state_.shown.motion ? state_.shown.motion->generation : 0);
}

void Studio::handle_keys() {
  const ImGuiIO& io = ImGui::GetIO();
  if (io.WantTextInput) return;
  const bool ctrl = io.KeyCtrl, shift = io.KeyShift;
  studio::Playback& play = state_.shown.playback;
  if (ctrl) {
    if (key_pressed(ImGuiKey_N)) state_.queue(command::NewScene{});
    if (key_pressed(ImGuiKey_O)) state_.ui.popups.open_file = true;
    if (key_pressed(ImGuiKey_S)) {
      if (shift || !state_.document.has_path())
        state_.ui.popups.save_as = true;
      else
        state_.queue(command::Save{});
    }
    if (key_pressed(ImGuiKey_Q)) state_.queue(command::Quit{});
    if (key_pressed(ImGuiKey_Z, true)) state_.queue(shift ? Command{command::Redo{}} : Command{command::Undo{}});
    if (key_pressed(ImGuiKey_Y, true)) state_.queue(command::Redo{});
    if (ImGui::IsAnyItemActive()) return;  // a text field's own copy and paste
    if (key_pressed(ImGuiKey_C)) copy_selection(state_, state_.editor, state_.ui.banner);
    if (key_pressed(ImGuiKey_V))
      if (std::optional<command::EditScene> paste = paste_clipboard(state_)) state_.queue(std::move(*paste));
    if (key_pressed(ImGuiKey_D))
      if (std::optional<command::EditScene> copies = duplicate_selection(state_)) state_.queue(std::move(*copies));
    return;
  }
  if (ImGui::IsAnyItemActive()) return;
  if (key_pressed(ImGuiKey_Space)) play.toggle();
  if (key_pressed(ImGuiKey_RightArrow, true)) play.step_forward();
  if (key_pressed(ImGuiKey_LeftArrow, true)) play.step_back();
  if (key_pressed(ImGuiKey_Home)) play.seek(0);
  if (key_pressed(ImGuiKey_End)) play.seek(play.frame_count() - 1);
  if (key_pressed(ImGuiKey_F)) state_.queue(command::FrameAll{});
  if (key_pressed(ImGuiKey_C) && shot_view_camera(state_)) state_.ui.view.through_shot = !state_.ui.view.through_shot;
  if (key_pressed(ImGuiKey_R)) state_.queue(command::ResetCamera{});
  if (key_pressed(ImGuiKey_L)) play.set_loop(!play.loop());
  if (key_pressed(ImGuiKey_F1)) state_.ui.popups.keys = true;
  if (key_pressed(ImGuiKey_Escape) && state_.shot.tool.mode != ShotState::FootageTool::Mode::None)
    state_.shot.tool.mode = ShotState::FootageTool::Mode::None;
  else if (key_pressed(ImGuiKey_Escape) && !editor_.cancel(state_))
    state_.editor.selection = {Selection::Kind::Settings, 0, {}};
  if (key_pressed(ImGuiKey_Delete))
    if (std::optional<command::EditScene> deletion = delete_selection(state_)) state_.queue(std::move(*deletion));
  if (key_pressed(ImGuiKey_P))
    if (std::optional<command::EditScene> pin = toggle_pin_selection(state_)) state_.queue(std::move(*pin));
  // The gizmo's tool, as in Unity and Godot: W move, E turn; S scale.
  if (key_pressed(ImGuiKey_W)) state_.editor.tool = EditorState::Tool::Move;
  if (key_pressed(ImGuiKey_E)) state_.editor.tool = EditorState::Tool::Turn;
  if (key_pressed(ImGuiKey_S)) state_.editor.tool = EditorState::Tool::Scale;
}

view::ViewportProjector Studio::viewport_projector(const studio::Rect& viewport) const {
  return view::ViewportProjector(
      state_.ui.camera.camera(),
      view::PixelRect{viewport.x, viewport.y, std::max(viewport.width, 1.0f), std::max(viewport.height, 1.0f)});
}

void Studio::handle_viewport_mouse(const studio::Rect& viewport) {
  const ImGuiIO& io = ImGui::GetIO();
  const ImVec2 mouse = io.MousePos;
  const bool inside =
      mouse.x >= viewport.x && mouse.x < viewport.right() && mouse.y >= viewport.y && mouse.y < viewport.bottom();
  // Looking through the shot's camera, the left button works on the footage (tracks,
  // correspondences) and the camera stays where the shot was filmed from.
  if (state_.ui.view.through_shot && shot_view_camera(state_)) {
    handle_shot_mouse(state_, viewport, inside);
    // Before a camera is fitted the view is the orbit camera's: the right button turns it
    // and the wheel zooms, to line the scene up with the shot by eye.
    if (!state_.scene().footage.camera) {
      if (!io.MouseDown[1]) dragging_ = false;
      if (inside && !io.WantCaptureMouse && ImGui::IsMouseClicked(1)) dragging_ = true;
      if (dragging_ && (io.MouseDelta.x != 0 || io.MouseDelta.y != 0))
        state_.ui.camera.rotate(io.MouseDelta.x, io.MouseDelta.y);
      if (inside && !io.WantCaptureMouse && io.MouseWheel != 0) state_.ui.camera.zoom(io.MouseWheel);
    }
    return;
  }
  // Ctrl+right drag pulls a particle or body while the scene runs live.
  if (handle_pull_mouse(viewport_projector(viewport), inside)) {
    editor_.draw_overlay(state_, viewport_projector(viewport));
    return;
  }
  // The left button selects, box-selects and drags the gizmo; a plain left drag orbits
  // (with Shift, pans). The right and middle buttons pan.
  const bool orbit = editor_.handle_mouse(state_, viewport_projector(viewport), shown_draw_options(), inside);
  if (!io.MouseDown[1] && !io.MouseDown[2]) dragging_ = false;
  if (inside && !io.WantCaptureMouse && (ImGui::IsMouseClicked(1) || ImGui::IsMouseClicked(2))) dragging_ = true;
  const ImVec2 d = io.MouseDelta;
  if ((orbit || dragging_) && (d.x != 0 || d.y != 0)) {
    if (dragging_ || io.KeyShift)
      state_.ui.camera.pan(d.x, d.y, viewport.height);
    else
      state_.ui.camera.rotate(d.x, d.y);
    camera_moved_ = true;
  }
  if (inside && !io.WantCaptureMouse && io.MouseWheel != 0) {
    state_.ui.camera.zoom(io.MouseWheel);
    camera_moved_ = true;
  }
  editor_.draw_overlay(state_, viewport_projector(viewport));
}

view::SceneDrawOptions Studio::shown_draw_options() const {
  view::SceneDrawOptions options = state_.shown.draw_options;
  options.camera = state_.ui.camera.camera();
  options.particles = state_.ui.view.particles;
  options.springs = state_.ui.view.springs;
  options.triangles = state_.ui.view.triangles;
  options.tets = state_.ui.view.tets;
  options.objectives = state_.ui.view.objectives;
  options.colliders = state_.ui.view.colliders;
  options.bodies = state_.ui.view.bodies;
  options.joints = state_.ui.view.joints;
  options.attachments = state_.ui.view.attachments;
  options.collision_shapes = state_.ui.view.collision_shapes;
  options.grid = state_.ui.view.grid;
  return options;
}

render::DrawList Studio::viewport_draw_list(const studio::Rect& viewport, float* arrow_scale) const {
  view::SceneDrawOptions options = shown_draw_options();
  const Scene& scene = state_.scene();
  const StudioState::Frame shown = state_.shown_frame();
  const Trajectory* traj = shown.traj;
  const int frame = shown.step;
  const bool live = state_.live.play != nullptr;
  // Gradients come from the optimiser's snapshot, whose scene is the one shown; they are
  // of the recorded motion, so live play draws none.
  const view::GradientOverlay overlay =
      state_.optimise.iterate && !live ? state_.ui.view.gradient : view::GradientOverlay::None;
  if (view::is_spring_overlay(overlay)) options.springs = false;  // the overlay colours them instead
  // Through the shot's camera, with its frame behind the scene.
  const std::optional<PinholeCamera> shot = state_.ui.view.through_shot ? shot_view_camera(state_) : std::nullopt;
  const bool through_shot = shot.has_value();
  if (through_shot) {
    options.camera = view::render_camera_of(*shot);
    options.grid = false;  // the shot shows the real ground
  }
  render::DrawList list = view::scene_draw_list(scene, traj, frame, options);
  if (through_shot && state_.shot.frame)
    list.quads.push_back(
        view::footage_plate(*shot, state_.shot.frame->width, state_.shot.frame->height, state_.shot.view.frame_rgba()));
  // Per-element colours: stress from the motion shown, gradients from the snapshot's scene.
  view::add_element_colors(list, state_.ui.view.element_colors, scene, traj, frame, options,
                           state_.optimise.iterate ? &state_.optimise.iterate->scene : nullptr);
  *arrow_scale = overlay != view::GradientOverlay::None
                     ? view::add_gradient_overlay(list, overlay, state_.optimise.iterate->scene, traj, frame, options,
                                                  state_.ui.view.arrow_scale)
                     : 0;
  // dL/dx at the play head, from the newest state adjoint (it may lag the motion by one
  // computation; the arrows then sit at this motion's positions).
  if (state_.ui.view.adjoint_arrows && state_.trust.adjoints && state_.trust.adjoints->error.empty() && traj && !live)
    view::add_state_adjoint_arrows(list, scene, *traj, state_.trust.adjoints->adjoints, frame,
                                   options.bounds.radius() / 3);

  if (state_.ui.view.ghosts && state_.optimise.iterate && state_.optimise.iterate->iteration > 0 && !live) {
    add_ghost(list, state_.optimise.initial_iterate.get(), frame, options.particle_radius, kInitialGhost);
    if (state_.optimise.previous_iterate != state_.optimise.initial_iterate)
      add_ghost(list, state_.optimise.previous_iterate.get(), frame, options.particle_radius, kPreviousGhost);
  }

  if (state_.ui.view.ghosts && state_.optimise.mpc && !live)
    add_planned_horizon(list, scene, *state_.optimise.mpc->latest(), frame, options.particle_radius);

  view::add_contacts(list, state_.live.contacts, state_.live.contact_scale, 0.35f * options.particle_radius);
  // Live play's pull: a line from the point grabbed to the cursor's target.
  if (live && state_.live.play->pulled()) {
    const Pull& pull = *state_.live.play->pulled();
    glm::dvec3 from{0, 0, 0};
    if (pull.kind == Pull::Kind::Particle) {
      from = glm::dvec3(view::particle_position(scene, traj, frame, pull.index));
    } else {
      const view::BodyPlacement at = view::body_placement(scene, traj, frame, pull.index);
      const glm::dquat q(at.orientation.w, at.orientation.x, at.orientation.y, at.orientation.z);
      from = at.position + q * glm::dvec3(pull.offset[0], pull.offset[1], pull.offset[2]);
    }
    const glm::vec3 target(pull.target[0], pull.target[1], pull.target[2]);
    render::LineBatch line;
    line.points = {glm::vec3(from), target};
    line.colors = {view::colors::kContactForce};
    line.width_pixels = 3;
    list.lines.push_back(std::move(line));
    list.spheres.push_back({target, 0.5f * options.particle_radius, view::colors::kContactPoint});
  }

  // The selected elements, drawn over the scene in the highlight colour.
  const Selection& sel = state_.editor.selection;
  const std::vector<int> members = selection_exists(scene, sel) ? sel.members() : std::vector<int>{};
  const size_t first_body = options.colliders ? scene.colliders.size() : 0;
  // A corner element's edges as highlighted lines between its particles.
  const auto outline = [&](const std::vector<int>& corners, int per, int e,
                           std::initializer_list<std::pair<int, int>> edges) {
    render::LineBatch line;
    for (const auto& [a, b] : edges) {
      line.points.push_back(view::particle_position(scene, traj, frame, corners[size_t(e) * size_t(per) + size_t(a)]));
      line.points.push_back(view::particle_position(scene, traj, frame, corners[size_t(e) * size_t(per) + size_t(b)]));
    }
    line.colors = {kHighlight};
    line.width_pixels = 4;
    list.lines.push_back(std::move(line));
  };
  // A few selected particles stand out larger; many (a cloth's, a soft body's) are drawn at
  // their own size so that the cloth between them stays visible.
  const float highlight_radius = options.particle_radius * (members.size() > 8 ? 1.05f : 1.6f);
  for (const int i : members) {
    switch (sel.kind) {
      case Selection::Kind::Particle:
        list.spheres.push_back({view::particle_position(scene, traj, frame, i), highlight_radius, kHighlight});
        break;
      case Selection::Kind::Spring: {
        render::LineBatch line;
        line.points = {view::particle_position(scene, traj, frame, scene.spring_a[size_t(i)]),
                       view::particle_position(scene, traj, frame, scene.spring_b[size_t(i)])};
        line.colors = {kHighlight};
        line.width_pixels = 5;
        list.lines.push_back(std::move(line));
        break;
      }
      // A selected collider or body is recoloured where it is (a second mesh in the same
      // place would lose the depth test): colliders are the draw list's first meshes, in
      // scene order, then the bodies.
      case Selection::Kind::Collider:
        if (options.colliders && size_t(i) < list.meshes.size()) list.meshes[size_t(i)].colors = {kHighlight};
        break;
      case Selection::Kind::Body:
        if (options.bodies && first_body + size_t(i) < list.meshes.size())
          list.meshes[first_body + size_t(i)].colors = {kHighlight};
        break;
      // Larger over its usual drawing (shown even with the layer off, as a particle is).
      case Selection::Kind::Joint: view::add_joint(list, scene, traj, frame, i, options, kHighlight, 1.4f); break;
      case Selection::Kind::Attachment:
        view::add_attachment(list, scene, traj, frame, i, options, kHighlight, 1.4f);
        break;
      case Selection::Kind::Triangle: outline(scene.triangles, 3, i, {{0, 1}, {1, 2}, {2, 0}}); break;
      case Selection::Kind::BendingEdge: outline(scene.bending, 4, i, {{2, 3}, {0, 2}, {0, 3}, {1, 2}, {1, 3}}); break;
      case Selection::Kind::Tet: outline(scene.tets, 4, i, {{0, 1}, {1, 2}, {2, 0}, {0, 3}, {1, 3}, {2, 3}}); break;
      case Selection::Kind::Link: view::add_link_highlight(list, scene, traj, frame, i, options, kHighlight); break;
      default: break;
    }
  }
  editor_.add_to_draw_list(list, state_, viewport_projector(viewport), options.particle_radius);
  return list;
}

void Studio::export_frames(const std::filesystem::path& folder, bool over_shot) {
  if (state_.ui.frame_export && !state_.ui.frame_export->job().finished())
    return show_error("frames are being exported already; wait for them or cancel");
  // Never mixed with, or written over, other files: the folder must be new or empty.
  std::error_code error;
  if (std::filesystem::exists(folder, error) &&
      (!std::filesystem::is_directory(folder, error) || !std::filesystem::is_empty(folder, error)))
    return show_error("export frames: " + folder.string() + " is not an empty folder; choose a new or empty one");
  // The iterate shown, or the document's motion: what the viewport plays.
  const Scene* scene = state_.optimise.iterate ? &state_.optimise.iterate->scene : &state_.scene();
  const Trajectory* traj = state_.optimise.iterate ? &state_.optimise.iterate->trajectory : state_.trajectory();
  if (!traj || traj->steps == 0) return show_error("export frames: there is no motion to draw yet");
  view::FrameSequence sequence;
  sequence.folder = folder;
  sequence.options = shown_draw_options();
  if (view::is_spring_overlay(state_.ui.view.gradient)) sequence.options.springs = false;  // the overlay colours them
  sequence.overlay = state_.ui.view.gradient;
  sequence.element_colors = state_.ui.view.element_colors;
  if (over_shot && !scene->footage.camera)
    return show_error("export frames over the shot: the footage has no camera; fit one in the Footage tab");
  state_.ui.frame_export = std::make_unique<FrameExport>(*scene, *traj, std::move(sequence), over_shot);
  state_.ui.frame_export_reported = false;
  state_.log.info("exporting frames to " + folder.string());
}

void Studio::report_frame_export() {
  if (!state_.ui.frame_export || state_.ui.frame_export_reported || !state_.ui.frame_export->job().finished()) return;
  state_.ui.frame_export_reported = true;
  const std::string error = state_.ui.frame_export->outcome().value_or("");
  if (!error.empty()) return show_error("export frames: " + error);
  state_.log.info("wrote " + std::to_string(state_.ui.frame_export->frames()) + " frames to " +
                  state_.ui.frame_export->folder().string());
}

// The document's scene replaced by `scene` as one step of its history, as the same scene
// with new values: the view and the playback stay as they were.
void Studio::replace_scene_in_place(Scene scene, const std::string& label) {
  studio::Document document = state_.document;
  document.replace_scene(std::move(scene), label);
  set_document_keeping_view(std::move(document));
  window_.set_title(state_.document.title());
}

void Studio::set_document_keeping_view(studio::Document document) {
  const bool was_playing = state_.shown.playback.playing();
  const studio::OrbitCamera camera = state_.ui.camera;
  const bool camera_moved = camera_moved_;
  set_document(std::move(document));
  state_.ui.camera = camera;
  camera_moved_ = camera_moved;
  if (was_playing) state_.shown.playback.play();
}

// A finished model predictive control run's executed controls become the document's
// (one step of its history), if the scene still has the shape the run had.
void Studio::apply_mpc() {
  if (!state_.optimise.mpc) return;
  const auto run = state_.optimise.mpc->latest();
  if (!run->finished || !run->error.empty()) return;
  Scene applied = state_.document.scene();
  for (ParamId id : per_step_params())
    if (applied.params[id].value.size() != run->executed[id].value.size()) {
      state_.log.error("model predictive control: the scene's " + std::string(param_name(id)) +
                       " changed shape since the run; run it again");
      return;
    }
  for (ParamId id : per_step_params()) applied.params[id].value = run->executed[id].value;
  replace_scene_in_place(std::move(applied), "apply model predictive control's controls");
  state_.log.info("model predictive control's executed controls are now the scene's (unsaved)");
}

void Studio::export_iterate(const command::Export& request) {
  if (request.kind == command::ExportKind::Frames) return export_frames(request.path);
  if (request.kind == command::ExportKind::FramesOverShot) return export_frames(request.path, true);
  if (request.kind == command::ExportKind::MotionCsv || request.kind == command::ExportKind::MotionGltf) {
    // The motion shown: the iterate's, or the document's.
    const Scene& scene = state_.optimise.iterate ? state_.optimise.iterate->scene : state_.scene();
    const Trajectory* traj = state_.optimise.iterate ? &state_.optimise.iterate->trajectory : state_.trajectory();
    if (!traj) return show_error("export the motion: there is no motion yet");
    const footage::MotionSampling sampling = footage::shot_sampling(scene);
    const Status written = request.kind == command::ExportKind::MotionCsv
                               ? footage::write_motion_csv(request.path, scene, *traj, sampling)
                               : footage::write_motion_gltf(request.path, scene, *traj, sampling);
    if (!written) return show_error("export the motion: " + written.error().message);
    state_.log.info("exported the motion to " + request.path.string());
    return;
  }
  const std::shared_ptr<const studio::OptimizationSnapshot> snap = state_.optimise.iterate;
  if (!snap) {
    show_error("nothing to export yet: start the optimiser first");
    return;
  }
  Status written = Ok{};
  switch (request.kind) {
    case command::ExportKind::LossHistoryCsv:
      written = write_file_atomically(request.path, loss_history_csv(snap->loss_history, snap->grad_norm_history));
      break;
    case command::ExportKind::ParametersJson: {
      nlohmann::ordered_json j;
      j["scene"] = state_.document.has_path() ? state_.document.path().string() : "";
      j["iteration"] = snap->iteration;
      j["loss"] = snap->loss;
      j["parameters"] = optimized_parameters_json(snap->scene.params);
      written = write_file_atomically(request.path, j.dump(2) + "\n");
      break;
    }
    case command::ExportKind::Frames:
    case command::ExportKind::MotionCsv:
    case command::ExportKind::MotionGltf:
    case command::ExportKind::FramesOverShot: break;  // above
    case command::ExportKind::OptimizedScene: {
      Scene scene = snap->scene;
      scene.optimizer = state_.optimise.settings;
      // Through a copy of the document: Save As rewrites relative marker-file paths for
      // the new folder, so the exported scene loads from there.
      studio::Document copy = state_.document;
      copy.replace_scene(std::move(scene));
      written = copy.save_as(request.path);
      break;
    }
  }
  if (!written)
    show_error(written.error().message);
  else
    state_.log.info("exported iteration " + std::to_string(snap->iteration) + " to " + request.path.string());
}

void Studio::edit_parameter(const command::EditParameter& edit) {
  Scene edited = state_.point_scene();
  Parameter& p = edited.params[edit.id];
  const std::string name =
      std::string(param_name(edit.id)) + "[" + std::to_string(edit.first) + "]" +
      (edit.also_firsts.empty() ? "" : " and " + std::to_string(edit.also_firsts.size()) + " more");
  const auto fits = [&](int first) { return first >= 0 && size_t(first) + edit.values.size() <= p.value.size(); };
  if (!fits(edit.first)) return;  // the scene changed
  for (int first : edit.also_firsts)
    if (!fits(first)) return;
  // Every element the edit covers: the one shown, then the rest of the selection, each
  // set to the values typed or moved by the change typed.
  std::vector<double> change(edit.values.size());
  for (size_t k = 0; k < edit.values.size(); ++k) change[k] = edit.values[k] - p.value[size_t(edit.first) + k];
  std::vector<int> firsts{edit.first};
  firsts.insert(firsts.end(), edit.also_firsts.begin(), edit.also_firsts.end());
  for (int first : firsts)
    for (size_t k = 0; k < edit.values.size(); ++k) {
      double& value = p.value[size_t(first) + k];
      const double v = edit.relative ? value + change[k] : edit.values[k];
      if (p.optimize && (v < p.lower || v > p.upper))
        return show_error("edit of " + name + ": " + shortest(v) + " is outside the optimisation bounds [" +
                          shortest(p.lower) + ", " + shortest(p.upper) + "]; nothing changed");
      value = v;
    }
  // The engine's own checks (finite, positive masses...), so nothing it rejects gets in.
  if (Status ok = check_scene(edited); !ok)
    return show_error("edit of " + name + ": " + ok.error().message + "; nothing changed");
  if (state_.optimise.session) {
    state_.optimise.session->edit(edited.params);
    state_.log.info("edited " + name +
                    ": the optimiser stopped at its iterate and moved to the edit; Start runs from it");
    return;
  }
  state_.document.replace_scene(std::move(edited), "edit " + name);
  window_.set_title(state_.document.title());
  start_rollout();
  state_.log.info("edited " + name + " (unsaved; Ctrl+Z undoes it)");
}

void Studio::edit_scene_shown(const command::EditScene& edit) {
  // While the optimiser has moved, the scene shown is its iterate's, and the edit applies
  // to what the user sees: the iterate's parameters become a step of the history, then
  // the edit. The optimiser's session ends (on the disposer's thread), which pauses it;
  // Start resumes from the edited scene.
  const std::shared_ptr<const studio::OptimizationSnapshot> iterate = state_.optimise.iterate;
  const bool moved = state_.optimise.unapplied();
  Scene base = moved ? iterate->scene : state_.document.scene();
  if (moved) base.optimizer = state_.optimise.settings;
  Result<Scene> edited = edit.apply(base);
  if (!edited) return show_error(edited.error().message + "; nothing changed");
  const std::optional<Selection> select =
      edit.then_select ? std::optional(edit.then_select(base, *edited)) : std::nullopt;
  if (moved) state_.document.replace_scene(std::move(base), "apply iteration " + std::to_string(iterate->iteration));
  state_.document.replace_scene(std::move(*edited), edit.label);
  if (select && selection_exists(state_.document.scene(), *select)) state_.editor.selection = *select;
  show_history_step(edit.label + " (Ctrl+Z undoes it)");
  if (moved)
    state_.log.info("the optimiser paused at iteration " + std::to_string(iterate->iteration) +
                    " for the edit: its parameters are now the scene's; Start resumes from the edited scene");
}

void Studio::show_history_step(const std::string& what) {
  drop_derived_state();
  state_.ui.welcome = false;  // the user has started: it steps aside
  // The same scene, edited: the view stays where the user had it; but the first things
  // added to an empty scene are framed (unless the user has moved the camera).
  if (!framed_empty_scene_) camera_moved_ = true;
  const Scene& scene = state_.document.scene();
  state_.optimise.settings = scene.optimizer;
  if (!selection_exists(scene, state_.editor.selection)) state_.editor.selection = {Selection::Kind::Settings, 0};
  if (state_.shown.playback.frame_count() != scene.settings.steps + 1)
    state_.shown.playback = studio::Playback(scene.settings.steps + 1, scene.settings.dt);
  window_.set_title(state_.document.title());
  start_rollout();
  state_.log.info(what);
}

bool Studio::would_lose_work(const std::variant<command::NewScene, command::Open, command::Quit>& action) {
  if (!state_.document.dirty() && !state_.optimise.unapplied()) return false;
  state_.ui.popups.unsaved = action;
  state_.log.info(state_.document.display_name() +
                  (state_.document.dirty() ? " has unsaved changes" : " has an optimiser run not in the scene") +
                  ": Save, Discard or Cancel");
  return true;
}

void Studio::commit_run(const std::shared_ptr<const studio::OptimizationSnapshot>& run) {
  // The run's result becomes one step of the document's history; the session, its curves
  // and the motion shown stay (they are the document's scene now).
  Scene result = run->scene;
  result.optimizer = state_.optimise.settings;
  const double start_loss = state_.optimise.initial_iterate ? state_.optimise.initial_iterate->loss : run->loss;
  const std::string label = "optimise (" + std::string(method_name(state_.optimise.settings.method)) + ", " +
                            std::to_string(run->iteration) + " iterations): loss " + shortest(start_loss) + " -> " +
                            shortest(run->loss);
  state_.document.replace_scene(std::move(result), label);
  state_.optimise.committed = run;
  window_.set_title(state_.document.title());
  state_.log.info("iteration " + std::to_string(run->iteration) +
                  "'s parameters are now the scene's: one step of history (Ctrl+Z undoes it, unsaved)");
}

bool Studio::frame(double wall_seconds) {
  // Closing the window with unsaved changes asks first (Quit{confirmed} closes).
  if (window_.should_close() && !close_confirmed_ && (state_.document.dirty() || state_.optimise.unapplied())) {
    window_.cancel_close();
    would_lose_work(command::Quit{});
  }
  for (const std::string& path : window_.take_dropped_paths()) state_.queue(command::Open{path});
  // An overlay needs gradients: the optimiser's start has them.
  if (state_.ui.view.gradient != view::GradientOverlay::None || state_.ui.view.control_gradients ||
      (state_.ui.view.controller_outputs && state_.scene().controller.enabled()) ||
      state_.ui.view.element_colors.kind == view::ElementColoring::Kind::Gradient)
    optimization_session();
  adopt_newest_motion();
  adopt_newest_iterate();
  update_state_adjoints();
  update_footage();
  update_sweep();
  report_frame_export();
  advance_live(wall_seconds);
  if (!state_.live.play) state_.shown.playback.advance(wall_seconds);
  update_contacts();
  // Smoothed over about half a second of frames, for a readable number.
  const double blend = std::clamp(wall_seconds * 2.0, 0.02, 1.0);
  state_.ui.frame_seconds += (wall_seconds - state_.ui.frame_seconds) * blend;

  using Clock = std::chrono::steady_clock;
  const auto since = [](Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); };
  const Clock::time_point ui_start = Clock::now();
  window_.begin_ui_frame();
  handle_keys();
  draw_menu_bar(state_, state_.ui, state_.editor, state_.commands);
  draw_status_bar(state_);
  const int tracks = (state_.ui.view.control_gradients && state_.scene().channels > 0 ? 1 : 0) +
                     (state_.ui.view.controller_outputs && state_.scene().controller.enabled() ? 1 : 0) +
                     (state_.ui.view.adjoint_track ? 1 : 0);
  if (std::exchange(state_.ui.reset_layout, false)) dock_.reset();
  const studio::Rect viewport = dock_.draw(ImGui::GetFrameHeight(), tracks);
  ViewFlags& v = state_.ui.view;
  if (v.outliner) draw_outliner(state_, state_.editor, state_.commands, &v.outliner);
  draw_side_panels(state_);
  if (v.timeline)
    draw_timeline(state_, state_.shown.playback, state_.optimise.controller_outputs, state_.commands, &v.timeline);
  if (v.log) draw_log_panel(state_.log, state_.ui, &v.log);
  draw_viewport_overlay(state_.ui, viewport);
  draw_gizmo_tools(state_, state_.editor, viewport);
  draw_arrow_scale_legend(state_.ui.view, viewport);
  draw_contact_legend(state_, viewport);
  draw_shot_overlay(state_, viewport);
  update_example_pictures();
  reload_if_changed_on_disk();
  act_on_lesson_step();
  draw_welcome(state_, state_.ui, state_.commands);
  draw_lesson_panel(state_.ui);
  draw_popups(state_, state_.ui, state_.commands);
  handle_viewport_mouse(viewport);

  if (viewport.height > 0) viewport_aspect_ = viewport.width / viewport.height;
  timings_.ui = since(ui_start);
  const Clock::time_point list_start = Clock::now();
  ViewFlags& flags = state_.ui.view;
  const render::DrawList list = viewport_draw_list(viewport, &flags.arrow_scale_drawn);
  // A fixed scale not set yet (a new overlay, a new document) takes the first one drawn.
  if (flags.arrow_scale.fixed && !flags.arrow_scale.is_fixed() && flags.arrow_scale_drawn > 0)
    flags.arrow_scale.metres_per_unit = flags.arrow_scale_drawn;
  timings_.draw_list = since(list_start);
  // ImGui works in window units; the framebuffer may have more pixels (HiDPI).
  const ImGuiIO& io = ImGui::GetIO();
  const float sx = io.DisplayFramebufferScale.x, sy = io.DisplayFramebufferScale.y;
  const PixelRect pixels{int(std::lround(viewport.x * sx)), int(std::lround(viewport.y * sy)),
                         int(std::lround(viewport.width * sx)), int(std::lround(viewport.height * sy))};
  const Clock::time_point render_start = Clock::now();
  const render::Status rendered = window_.render(&list, pixels);
  timings_.render = since(render_start);
  run_commands();
  autosave();
  dock_.save_if_changed();
  if (!rendered) {
    state_.log.error("drawing failed: " + rendered.error().message);
    return false;
  }
  return true;
}

void Studio::note_file_on_disk() {
  std::error_code ec;
  disk_time_ = state_.document.has_path() ? std::filesystem::last_write_time(state_.document.path(), ec)
                                          : std::filesystem::file_time_type{};
  if (ec) disk_time_ = {};
  disk_change_reported_ = false;
}

void Studio::reload_if_changed_on_disk() {
  // As MuJoCo's simulate does: a scene edited in a text editor shows here once saved there.
  using Clock = std::chrono::steady_clock;
  if (!state_.document.has_path() || Clock::now() - disk_checked_ < std::chrono::seconds(1)) return;
  disk_checked_ = Clock::now();
  std::error_code ec;
  const std::filesystem::file_time_type now = std::filesystem::last_write_time(state_.document.path(), ec);
  if (ec || now == disk_time_) return;  // gone (a save elsewhere will say so) or unchanged
  const std::string name = state_.document.path().filename().string();
  if (state_.document.dirty() || state_.optimise.unapplied()) {
    if (!disk_change_reported_)
      show_error(name + " changed on disk; the window keeps your unsaved changes (File > Open loads the file's)");
    disk_change_reported_ = true;
    return;
  }
  Result<studio::Document> reloaded = studio::Document::open(state_.document.path());
  if (!reloaded) {  // half written by the editor, or broken: say so once, keep what is shown
    if (!disk_change_reported_) show_error(reloaded.error().message + " (changed on disk; not reloaded)");
    disk_change_reported_ = true;
    return;
  }
  set_document_keeping_view(std::move(*reloaded));  // the same scene, edited elsewhere
  state_.log.info("reloaded " + name + ": it changed on disk");
}

void Studio::update_example_pictures() {
  // Drawn in the background the first time the welcome panel shows, then kept.
  if (state_.ui.welcome && !thumbnails_) thumbnails_ = std::make_unique<ExampleThumbnails>(state_.files.examples);
  if (!thumbnails_) return;
  for (auto& [index, image] : thumbnails_->take_ready()) state_.ui.example_pictures[index] = window_.add_texture(image);
}

void Studio::update_footage() {
  const Scene& scene = state_.scene();
  state_.shot.view.follow(scene);
  const bool shot = state_.ui.view.through_shot && shot_view_camera(state_);
  state_.shot.frame =
      shot ? state_.shot.view.frame(studio::shot_frame_at_step(scene, state_.shown.playback.frame())) : nullptr;
  // A finished tracking run's track goes into the document once, as one step of history.
  if (!state_.shot.tracking || state_.shot.tracking_applied || !state_.shot.tracking->job().finished()) return;
  state_.shot.tracking_applied = true;
  const int id = state_.shot.tracking->track_id();
  std::optional<Result<Track>> result = state_.shot.tracking->result();
  if (!result || !*result) {
    state_.log.error("track " + std::to_string(id) + ": " +
                     (result ? result->error().message : std::string("cancelled")));
    return;
  }
  const std::vector<TrackSample> samples = (*result)->samples;
  state_.log.info("tracked track " + std::to_string(id) + " on " + std::to_string(samples.size()) + " frames");
  state_.queue(command::EditScene("track feature " + std::to_string(id), [id, samples](const Scene& sc) {
    return studio::edits::set_track_samples(sc, id, samples);
  }));
}

void Studio::start_tracking(int track) {
  const Scene& scene = state_.document.scene();
  if (!state_.shot.view.video())
    return show_error("track: " + (state_.shot.view.error().empty()
                                       ? std::string("the scene has no video; set one in the Footage tab")
                                       : state_.shot.view.error()));
  disposer_.dispose(std::move(state_.shot.tracking));
  state_.shot.tracking = std::make_unique<studio::TrackingRun>(
      scene, track, 0, state_.shot.view.video()->frame_count() - 1, [] { Window::wake(); });
  state_.shot.tracking_applied = false;
  state_.log.info("tracking track " + std::to_string(track) + " through " +
                  std::to_string(state_.shot.view.video()->frame_count()) + " frames");
}

}  // namespace nudge::gui
