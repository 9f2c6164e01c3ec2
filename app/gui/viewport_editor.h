// The viewport's editing with the mouse: a click selects what is under the cursor
// (Shift+click adds or removes an element of the same kind), Ctrl+drag selects the
// particles (else the bodies) inside a box, and a translate gizmo on a movable selection
// (particles, bodies, a collider, one link, a target) moves it along an axis or in the view plane,
// snapped to the grid (Edit > Snap to Grid; Ctrl inverts it while dragging). A move is
// one undoable step, queued when the button is released. A plain drag that does none of
// this orbits the camera, as before.
#pragma once

#include <optional>

#include <glm/glm.hpp>

#include "gui/studio_state.h"
#include "studio/scene_edits.h"
#include "view/gizmo.h"
#include "view/picking.h"

namespace nudge::gui {

// Where the gizmo of this selection sits: the centroid of what it moves at the start of
// the motion (moves edit initial positions), or empty when the selection cannot be moved.
std::optional<glm::dvec3> movable_origin(const Scene& scene, const Selection& selection);

// The edit that moves the selection by `offset` (m), or empty when it cannot be moved.
std::optional<command::EditScene> move_selection(const Scene& scene, const Selection& selection, glm::dvec3 offset);

// Whether the selection's gizmo is the translate one: the Move tool, or a selection the
// Turn and Scale tools do not apply to (colliders, a target).
bool translate_tool(const StudioState& state);

// The edit that turns and scales the selection (particles or bodies) about `pivot` by
// `rotation` (a quaternion x, y, z, w) and `scale`, or empty when it cannot be turned.
// `what` names the change in the edit's label ("by 90 degrees about y").
std::optional<command::EditScene> transform_selection(const Scene& scene, const Selection& selection,
                                                      const studio::edits::Transform& transform,
                                                      const std::string& what);

// The offset that brings `origin + offset` onto the grid of `step`, in the components the
// offset changes (an axis drag stays on its axis).
glm::dvec3 snap_to_grid(glm::dvec3 origin, glm::dvec3 offset, double step);

class ViewportEditor {
public:
  // What the left button does this frame.
  enum class Mode { Idle, Pending, Orbit, Box, Gizmo };

  // Reads the mouse over the viewport and acts: selects, binds a marker waiting in
  // state.editor.binding_marker to a clicked particle, or queues a move. Returns whether the
  // left button now drags the camera round (Orbit).
  bool handle_mouse(StudioState& state, const view::ViewportProjector& projector, const view::SceneDrawOptions& options,
                    bool mouse_in_viewport);
  // Escape: drops a drag in progress (nothing is moved) and a marker waiting to be bound.
  // Returns whether there was one.
  bool cancel(StudioState& state);

  Mode mode() const { return mode_; }
  // Whether ImGuizmo's turn or scale handles are under the cursor or being dragged (the
  // viewport's own mouse handling then leaves the mouse to them).
  bool turn_scale_active() const { return turn_scale_over_ || turn_scale_using_; }

  // The selection moved as far as the drag has gone, and the gizmo: into the scene's draw
  // list (depth-tested, as the scene) ...
  void add_to_draw_list(render::DrawList& list, const StudioState& state, const view::ViewportProjector& projector,
                        float particle_radius) const;
  // ... and over it with ImGui (the gizmo's outline, so a body in front cannot hide it,
  // and the box being dragged).
  void draw_overlay(const StudioState& state, const view::ViewportProjector& projector) const;

private:
  glm::dvec3 current_offset(const StudioState& state, const view::ViewportProjector& projector) const;
  // The Turn and Scale tools: ImGuizmo's handles at the selection's centre; a drag queues
  // the turn or scale when it ends.
  void handle_turn_scale(StudioState& state, const view::ViewportProjector& projector, glm::dvec3 origin);
  void click(StudioState& state, const view::ViewportProjector& projector, const view::SceneDrawOptions& options,
             bool add);
  void finish_box(StudioState& state, const view::ViewportProjector& projector, bool add);

  Mode mode_ = Mode::Idle;
  glm::dvec2 press_{0, 0};  // where the left button went down
  glm::dvec2 mouse_{0, 0};  // where the cursor is
  view::GizmoHandle hovered_ = view::GizmoHandle::None;
  view::GizmoHandle dragged_ = view::GizmoHandle::None;
  glm::dvec3 origin_at_press_{0, 0, 0};
  bool snap_inverted_ = false;  // Ctrl held during the gizmo drag
  bool turn_scale_over_ = false, turn_scale_using_ = false;
  float turn_scale_matrix_[16] = {};  // the handles' matrix during a drag, from identity at its centre
};

}  // namespace nudge::gui
