#include "gui/viewport_editor.h"

#include <ImGuizmo.h>
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>
#include <glm/gtc/type_ptr.hpp>
#include <string>
#include <vector>

#include "gui/theme.h"
#include "nudge/link_poses.h"
#include "nudge/objective_facts.h"
#include "studio/scene_edits.h"

namespace nudge::gui {

namespace {

namespace edits = studio::edits;

// How far (pixels) the cursor may wander between press and release for a click.
constexpr double kClickSlop = 4;

glm::dvec3 row3(const std::vector<double>& values, int row) {
  const size_t at = size_t(row) * 3;
  return {values[at], values[at + 1], values[at + 2]};
}

edits::Vec3 vec3(glm::dvec3 v) { return {v.x, v.y, v.z}; }

glm::dvec3 collider_origin(const ColliderShape& c) {
  if (c.type == ColliderType::Plane) return glm::dvec3(c.normal[0], c.normal[1], c.normal[2]) * c.offset;
  return {c.position[0], c.position[1], c.position[2]};
}

std::string format_offset(glm::dvec3 d) {
  char text[96];
  std::snprintf(text, sizeof text, "(%.4g, %.4g, %.4g) m", d.x, d.y, d.z);
  return text;
}

std::string counted(size_t n, const char* one, const char* many) {
  return n == 1 ? std::string(one) : std::to_string(n) + " " + many;
}

Selection select_after_click(const Selection& current, Selection::Kind kind, int index, bool add) {
  if (!add || current.kind != kind) return {kind, index, {}};
  Selection next = current;
  if (!next.contains(index)) {
    next.others.push_back(next.index);
    next.index = index;
    return next;
  }
  // Shift+click on a selected element takes it out (the last one stays).
  std::vector<int> rest;
  for (const int i : next.members())
    if (i != index) rest.push_back(i);
  if (rest.empty()) return next;
  next.index = rest.back();
  rest.pop_back();
  next.others = rest;
  return next;
}

ImU32 imgui_color(render::Rgba c) { return ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, c.a)); }

}  // namespace

std::optional<glm::dvec3> movable_origin(const Scene& scene, const Selection& sel) {
  if (!selection_exists(scene, sel)) return std::nullopt;
  const std::vector<int> members = sel.members();
  glm::dvec3 sum{0, 0, 0};
  switch (sel.kind) {
    case Selection::Kind::Particle:
      for (const int i : members) sum += row3(scene.initial_positions(), i);
      return sum / double(members.size());
    case Selection::Kind::Body:
      for (const int i : members) sum += row3(scene.body_positions(), i);
      return sum / double(members.size());
    case Selection::Kind::Collider:
      for (const int i : members) sum += collider_origin(scene.colliders[size_t(i)]);
      return sum / double(members.size());
    case Selection::Kind::Link:  // one link, by its frame's origin at the start
      if (members.size() != 1) return std::nullopt;
      {
        const double* at = link_poses(scene)[size_t(sel.index)].pos;
        return glm::dvec3(at[0], at[1], at[2]);
      }
    case Selection::Kind::Objective: {
      if (members.size() != 1) return std::nullopt;
      const Objective& o = scene.objectives[size_t(sel.index)];
      if (objective_layout(o.type).target != ObjectiveTarget::Position || o.target.size() != 3) return std::nullopt;
      return row3(o.target, 0);
    }
    default: return std::nullopt;
  }
}

std::optional<command::EditScene> move_selection(const Scene& scene, const Selection& sel, glm::dvec3 offset) {
  const std::optional<glm::dvec3> origin = movable_origin(scene, sel);
  if (!origin) return std::nullopt;
  const std::vector<int> members = sel.members();
  const edits::Vec3 delta = vec3(offset);
  const std::string by = " by " + format_offset(offset);
  switch (sel.kind) {
    case Selection::Kind::Particle:
      return command::EditScene{"move " + counted(members.size(), "a particle", "particles") + by,
                                [members, delta](const Scene& s) { return edits::move_particles(s, members, delta); },
                                {}};
    case Selection::Kind::Body:
      return command::EditScene{"move " + counted(members.size(), "a body", "bodies") + by,
                                [members, delta](const Scene& s) { return edits::move_bodies(s, members, delta); },
                                {}};
    case Selection::Kind::Collider:
      return command::EditScene{"move " + counted(members.size(), "a collider", "colliders") + by,
                                [members, delta](const Scene& s) { return edits::move_colliders(s, members, delta); },
                                {}};
    case Selection::Kind::Link: {
      const int link = sel.index;
      return command::EditScene{"move link " + std::to_string(link) + by,
                                [link, delta](const Scene& s) { return edits::move_link(s, link, delta); },
                                {}};
    }
    case Selection::Kind::Objective: {
      const int objective = sel.index;
      const edits::Vec3 to = vec3(*origin + offset);
      return command::EditScene{
          "move the target of objective " + std::to_string(objective) + by,
          [objective, to](const Scene& s) { return edits::set_objective_target(s, objective, 0, to); },
          {}};
    }
    default: return std::nullopt;
  }
}

bool translate_tool(const StudioState& state) {
  const Selection::Kind kind = state.editor.selection.kind;
  return state.editor.tool == EditorState::Tool::Move ||
         (kind != Selection::Kind::Particle && kind != Selection::Kind::Body);
}

std::optional<command::EditScene> transform_selection(const Scene& scene, const Selection& sel,
                                                      const studio::edits::Transform& transform,
                                                      const std::string& what) {
  if (!selection_exists(scene, sel)) return std::nullopt;
  const std::vector<int> members = sel.members();
  switch (sel.kind) {
    case Selection::Kind::Particle:
      return command::EditScene{
          "turn and scale " + counted(members.size(), "a particle", "particles") + " " + what,
          [members, transform](const Scene& s) { return edits::transform_particles(s, members, transform); },
          {}};
    case Selection::Kind::Body:
      return command::EditScene{
          "turn and scale " + counted(members.size(), "a body", "bodies") + " " + what,
          [members, transform](const Scene& s) { return edits::transform_bodies(s, members, transform); },
          {}};
    default: return std::nullopt;
  }
}

glm::dvec3 snap_to_grid(glm::dvec3 origin, glm::dvec3 offset, double step) {
  if (!(step > 0)) return offset;
  for (int k = 0; k < 3; ++k)
    if (offset[k] != 0) offset[k] = std::round((origin[k] + offset[k]) / step) * step - origin[k];
  return offset;
}

void ViewportEditor::handle_turn_scale(StudioState& state, const view::ViewportProjector& projector,
                                       glm::dvec3 origin) {
  const render::Camera& camera = projector.camera();
  const view::PixelRect& rect = projector.viewport();
  // ImGuizmo takes OpenGL-style matrices (column-major, clip z in [-1, 1]).
  const glm::mat4 view = glm::lookAt(camera.eye, camera.target, glm::vec3(0, 1, 0));
  const glm::mat4 projection = glm::perspective(glm::radians(camera.fov_y_degrees), float(rect.width / rect.height),
                                                camera.near_plane, camera.far_plane);
  ImGuizmo::SetDrawlist(ImGui::GetBackgroundDrawList());  // under the panels, over the scene
  ImGuizmo::SetOrthographic(false);
  ImGuizmo::SetRect(float(rect.x), float(rect.y), float(rect.width), float(rect.height));
  if (!turn_scale_using_) {  // identity at the centre: the drag's matrix is the change itself
    const glm::mat4 at = glm::translate(glm::mat4(1.0f), glm::vec3(origin));
    std::memcpy(turn_scale_matrix_, glm::value_ptr(at), sizeof turn_scale_matrix_);
  }
  const bool turn = state.editor.tool == EditorState::Tool::Turn;
  // Snaps: 15 degrees, or a tenth of the size, with Snap to Grid (Ctrl inverts it).
  const bool snap = state.editor.snap != ImGui::GetIO().KeyCtrl;
  const float step[3] = {turn ? 15.0f : 0.1f, turn ? 15.0f : 0.1f, turn ? 15.0f : 0.1f};
  ImGuizmo::Manipulate(glm::value_ptr(view), glm::value_ptr(projection), turn ? ImGuizmo::ROTATE : ImGuizmo::SCALEU,
                       ImGuizmo::WORLD, turn_scale_matrix_, nullptr, snap ? step : nullptr);
  const bool was_using = turn_scale_using_;
  turn_scale_over_ = ImGuizmo::IsOver();
  turn_scale_using_ = ImGuizmo::IsUsingAny();
  if (turn_scale_using_ && !was_using) {  // edits are to the start: show it
    state.shown.playback.pause();
    state.shown.playback.seek(0);
  }
  if (!was_using || turn_scale_using_) return;
  // Released: the matrix is translate(origin) * rotation * scale.
  const std::optional<view::TurnScale> change = view::turn_scale_of(glm::make_mat4(turn_scale_matrix_));
  if (!change) return;
  const glm::dquat q = change->rotation;
  const double scale = change->scale, degrees = change->degrees();
  const studio::edits::Transform t{
      .pivot = {origin.x, origin.y, origin.z}, .rotation = {q.x, q.y, q.z, q.w}, .scale = scale};
  if (degrees < 1e-6 && std::abs(scale - 1) < 1e-9) return;  // a click: nothing changed
  char what[96];
  if (turn)
    std::snprintf(what, sizeof what, "by %.4g degrees", degrees);
  else
    std::snprintf(what, sizeof what, "by x%.4g", scale);
  if (std::optional<command::EditScene> e = transform_selection(state.point_scene(), state.editor.selection, t, what))
    state.queue(std::move(*e));
}

bool ViewportEditor::handle_mouse(StudioState& state, const view::ViewportProjector& projector,
                                  const view::SceneDrawOptions& options, bool mouse_in_viewport) {
  const ImGuiIO& io = ImGui::GetIO();
  mouse_ = {io.MousePos.x, io.MousePos.y};
  const std::optional<glm::dvec3> origin = movable_origin(state.point_scene(), state.editor.selection);
  const bool turnable = origin && !translate_tool(state);
  if (turnable && mode_ == Mode::Idle) {
    handle_turn_scale(state, projector, *origin);
    if (turn_scale_active()) return false;  // the handles have the mouse
  } else {
    turn_scale_over_ = turn_scale_using_ = false;
  }
  const bool free_to_start = mouse_in_viewport && !io.WantCaptureMouse;

  hovered_ = view::GizmoHandle::None;
  const bool translate = origin && translate_tool(state);
  if (mode_ == Mode::Idle && translate && free_to_start) hovered_ = view::gizmo_handle_at(projector, *origin, mouse_);

  if (mode_ == Mode::Idle && free_to_start && ImGui::IsMouseClicked(0)) {
    press_ = mouse_;
    if (hovered_ != view::GizmoHandle::None) {
      mode_ = Mode::Gizmo;
      dragged_ = hovered_;
      origin_at_press_ = *origin;
      // Moves edit the start: show it, so what moves is where the gizmo is.
      state.shown.playback.pause();
      state.shown.playback.seek(0);
    } else {
      mode_ = io.KeyCtrl ? Mode::Box : Mode::Pending;
    }
  }
  if (mode_ == Mode::Pending && glm::length(mouse_ - press_) > kClickSlop) mode_ = Mode::Orbit;
  if (mode_ == Mode::Gizmo) snap_inverted_ = io.KeyCtrl;

  if (mode_ != Mode::Idle && !io.MouseDown[0]) {  // released
    const Mode ended = mode_;
    const glm::dvec3 offset = current_offset(state, projector);
    mode_ = Mode::Idle;
    if (ended == Mode::Pending) click(state, projector, options, io.KeyShift);
    if (ended == Mode::Box) finish_box(state, projector, io.KeyShift);
    if (ended == Mode::Gizmo) {
      if (offset != glm::dvec3(0, 0, 0))
        if (std::optional<command::EditScene> move =
                move_selection(state.point_scene(), state.editor.selection, offset))
          state.queue(std::move(*move));
    }
    dragged_ = view::GizmoHandle::None;
  }
  return mode_ == Mode::Orbit;
}

bool ViewportEditor::cancel(StudioState& state) {
  const bool had = mode_ == Mode::Gizmo || mode_ == Mode::Box || state.editor.binding_marker.has_value();
  if (mode_ == Mode::Gizmo || mode_ == Mode::Box) mode_ = Mode::Idle;
  dragged_ = view::GizmoHandle::None;
  if (state.editor.binding_marker) {
    state.editor.binding_marker.reset();
    state.log.info("binding a marker: cancelled");
  }
  return had;
}

glm::dvec3 ViewportEditor::current_offset(const StudioState& state, const view::ViewportProjector& projector) const {
  if (mode_ != Mode::Gizmo) return {0, 0, 0};
  const glm::dvec3 offset = view::drag_offset(projector, origin_at_press_, dragged_, press_, mouse_);
  if (state.editor.snap == snap_inverted_) return offset;
  return snap_to_grid(origin_at_press_, offset, view::default_snap_step(state.shown.draw_options.bounds));
}

void ViewportEditor::click(StudioState& state, const view::ViewportProjector& projector,
                           const view::SceneDrawOptions& options, bool add) {
  const Scene& scene = state.scene();
  const StudioState::Frame shown = state.shown_frame();
  const std::optional<view::Pick> hit = view::pick(scene, shown.traj, shown.step, options, projector, mouse_);

  if (state.editor.binding_marker) {
    if (!hit || hit->kind != view::Pick::Kind::Particle) {
      state.log.info("click a particle to bind the marker to (Esc cancels)");
      return;
    }
    const EditorState::MarkerBinding b = *state.editor.binding_marker;
    const int particle = hit->index;
    state.editor.binding_marker.reset();
    state.queue(command::EditScene{
        "bind marker " + std::to_string(b.marker) + " to particle " + std::to_string(particle),
        [b, particle](const Scene& s) { return edits::bind_marker(s, b.objective, b.marker, particle); },
        {}});
    return;
  }

  if (!hit) {
    if (!add) state.editor.selection = {Selection::Kind::Settings, 0, {}};
    return;
  }
  state.editor.selection = select_after_click(state.editor.selection, hit->kind, hit->index, add);
}

void ViewportEditor::finish_box(StudioState& state, const view::ViewportProjector& projector, bool add) {
  const StudioState::Frame shown = state.shown_frame();
  const view::BoxSelection box = view::box_select(state.scene(), shown.traj, shown.step, projector, press_, mouse_);
  if (box.empty()) {
    if (!add) state.editor.selection = {Selection::Kind::Settings, 0, {}};
    return;
  }
  // One kind at a time: the particles when there are any.
  const Selection::Kind kind = box.particles.empty() ? Selection::Kind::Body : Selection::Kind::Particle;
  std::vector<int> chosen = box.particles.empty() ? box.bodies : box.particles;
  if (add && state.editor.selection.kind == kind)
    for (const int i : state.editor.selection.members()) chosen.push_back(i);
  std::sort(chosen.begin(), chosen.end());
  chosen.erase(std::unique(chosen.begin(), chosen.end()), chosen.end());
  Selection next{kind, chosen.back(), {}};
  next.others.assign(chosen.begin(), chosen.end() - 1);
  state.editor.selection = std::move(next);
  state.log.info("selected " + std::to_string(chosen.size()) +
                 (kind == Selection::Kind::Particle ? " particle(s)" : " body(ies)"));
}

void ViewportEditor::add_to_draw_list(render::DrawList& list, const StudioState& state,
                                      const view::ViewportProjector& projector, float particle_radius) const {
  const Scene& scene = state.point_scene();
  const std::optional<glm::dvec3> origin = movable_origin(scene, state.editor.selection);
  if (!origin || !translate_tool(state)) return;
  if (mode_ != Mode::Gizmo) {
    view::add_gizmo(list, projector, *origin, hovered_);
    return;
  }
  const glm::dvec3 offset = current_offset(state, projector);
  // Where the selection goes: particles each, anything else as a marker at its origin.
  const render::Rgba moved{1.0f, 0.85f, 0.3f, 0.9f};
  if (state.editor.selection.kind == Selection::Kind::Particle) {
    for (const int i : state.editor.selection.members())
      list.spheres.push_back({glm::vec3(row3(scene.initial_positions(), i) + offset), particle_radius * 1.3f, moved});
  } else {
    list.spheres.push_back({glm::vec3(*origin + offset), particle_radius * 1.3f, moved});
  }
  view::add_gizmo(list, projector, origin_at_press_ + offset, dragged_);
}

void ViewportEditor::draw_overlay(const StudioState& state, const view::ViewportProjector& projector) const {
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  const view::PixelRect& v = projector.viewport();
  draw->PushClipRect(ImVec2(float(v.x), float(v.y)), ImVec2(float(v.x + v.width), float(v.y + v.height)), true);
  if (mode_ == Mode::Box) {
    const ImVec2 a(float(std::min(press_.x, mouse_.x)), float(std::min(press_.y, mouse_.y)));
    const ImVec2 b(float(std::max(press_.x, mouse_.x)), float(std::max(press_.y, mouse_.y)));
    draw->AddRectFilled(a, b, IM_COL32(120, 170, 255, 40));
    draw->AddRect(a, b, IM_COL32(120, 170, 255, 200));
  }
  // The gizmo's outline over the scene: a body in front of it cannot hide it.
  const std::optional<glm::dvec3> origin =
      translate_tool(state) ? movable_origin(state.point_scene(), state.editor.selection) : std::nullopt;
  if (origin) {
    const glm::dvec3 at = mode_ == Mode::Gizmo ? origin_at_press_ + current_offset(state, projector) : *origin;
    if (const std::optional<view::GizmoScreen> g = view::gizmo_screen(projector, at)) {
      const ImVec2 o(float(g->origin.x), float(g->origin.y));
      const view::GizmoHandle axes[3] = {view::GizmoHandle::X, view::GizmoHandle::Y, view::GizmoHandle::Z};
      const view::GizmoHandle lit = mode_ == Mode::Gizmo ? dragged_ : hovered_;
      for (int k = 0; k < 3; ++k)
        if (g->tips[size_t(k)])
          draw->AddLine(o, ImVec2(float(g->tips[size_t(k)]->x), float(g->tips[size_t(k)]->y)),
                        imgui_color(view::gizmo_color(axes[k], axes[k] == lit)), axes[k] == lit ? 2.5f : 1.0f);
      const float h = float(g->square_half);
      draw->AddRect(ImVec2(o.x - h, o.y - h), ImVec2(o.x + h, o.y + h),
                    imgui_color(view::gizmo_color(view::GizmoHandle::ViewPlane, lit == view::GizmoHandle::ViewPlane)));
    }
    if (mode_ == Mode::Gizmo) {
      const glm::dvec3 offset = current_offset(state, projector);
      const std::string text = format_offset(offset) + ((state.editor.snap != snap_inverted_) ? "  (snapped)" : "");
      draw->AddText(ImVec2(float(mouse_.x) + 14, float(mouse_.y) + 10), IM_COL32(255, 255, 255, 230), text.c_str());
    }
  }
  if (state.editor.binding_marker)
    draw->AddText(
        ImVec2(float(v.x) + 12, float(v.y + v.height) - 24), IM_COL32(255, 220, 120, 255),
        ("click a particle to bind marker " + std::to_string(state.editor.binding_marker->marker) + " (Esc cancels)")
            .c_str());
  draw->PopClipRect();
}

}  // namespace nudge::gui
