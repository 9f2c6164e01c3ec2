// The window's panels: each draws itself from the StudioState as a dock window
// (gui/dock_layout.h) that the user can close through `open`, and queues Commands for anything beyond changing the view.
#pragma once

#include <array>
#include <functional>
#include <optional>
#include <string>

#include "gui/dock_layout.h"
#include "gui/example_thumbnails.h"
#include "gui/studio_state.h"
#include "nudge/joints.h"
#include "studio/panel_layout.h"

namespace nudge::gui {

// Returns the menu bar's height.
float draw_menu_bar(const StudioState& state, UiState& ui, EditorState& editor, CommandQueue& commands);
// Reads the state; changes the selection (and a marker waiting to be bound) and queues edits.
void draw_outliner(const StudioState& state, EditorState& editor, CommandQueue& commands, bool* open);
// The dock windows the default layout tabs together on the right: Inspector, Optimise,
// Landscape, Check and Footage, each shown while its View flag is set.
void draw_side_panels(StudioState& state);
// The Optimise tab: reads the document, changes the optimiser's state, asks for the
// Export dialog and queues the runs.
void draw_optimizer_contents(const studio::Document& document, OptimiseState& optimise, Popups& popups,
                             CommandQueue& commands);
// The Trust tabs read the studio's state and ask for their computations as commands.
void draw_landscape_contents(const StudioState& state, CommandQueue& commands);
void draw_gradient_check_contents(const StudioState& state, CommandQueue& commands);
void draw_footage_contents(const StudioState& state, ShotState& shot, UiState& ui, CommandQueue& commands);
// The Sweep tab: a sweep's table as a plot of the loss over one or two of its parameters;
// a point picked there opens as a scene (command::Open with its sweep_point).
void draw_sweep_contents(const StudioState& state, SweepView& sweep, CommandQueue& commands);
// The Pose tab: a slider per joint of the articulations (their initial coordinates).
void draw_pose_contents(const StudioState& state, CommandQueue& commands);
// The Live tab (live play: its clock, the control channels' sliders, contacts).
void draw_live_contents(const StudioState& state, LiveState& live, ViewFlags& view, CommandQueue& commands);
// Reads the state; changes only the play head and its cache of the controller's outputs.
void draw_timeline(const StudioState& state, studio::Playback& play,
                   OptimiseState::ControllerOutputs& controller_outputs, CommandQueue& commands, bool* open);
// The log and the window's copy of its entries.
void draw_log_panel(studio::AppLog& log, UiState& ui, bool* open);
// Reads only: the frame rate, the motion's state, the device; a strip along the window's
// bottom, outside the dock space (draw it before DockLayout::draw).
void draw_status_bar(const StudioState& state);
// The error banner over the top of the viewport, and the "computing" note.
void draw_viewport_overlay(UiState& ui, const studio::Rect& viewport);
// While gradient arrows are drawn: what they show (the direction of steepest increase),
// their scale, and the choice of fixed or normalised length; at the viewport's bottom left.
void draw_arrow_scale_legend(ViewFlags& view, const studio::Rect& viewport);
// View > Contacts: how many are drawn, their total force, and the arrows' scale.
void draw_contact_legend(const StudioState& state, const studio::Rect& viewport);
// While particles or bodies are selected: the gizmo's Move, Turn and Scale tools (W, E,
// S) as buttons at the viewport's top left.
void draw_gizmo_tools(const StudioState& state, EditorState& editor, const studio::Rect& viewport);
// The inspector's Transform section for selected particles or bodies: move, turn and
// scale typed in, about their centre (gui/panels/transform_section.cpp).
void draw_transform_section(const StudioState& state, const Selection& selection, CommandQueue& commands);
// Help > Lessons: the lesson's step, with Back and Next (gui/panels/lesson_panel.cpp);
// moving to a step asks for its action (ui.lesson.act), which the studio carries out.
void draw_lesson_panel(UiState& ui);
// Help > Welcome (gui/panels/welcome_panel.cpp): the examples as cards; a card queues its
// Open.
void draw_welcome(const StudioState& state, UiState& ui, CommandQueue& commands);
// Open and Save As dialogs, Help > Keys and About.
void draw_popups(const StudioState& state, UiState& ui, CommandQueue& commands);

// Queues an editor action on the document's scene: an undoable step named `label`;
// `then_select`, when given, selects what it made once it has applied.
inline void queue_edit(CommandQueue& commands, std::string label, std::function<Result<Scene>(const Scene&)> apply,
                       std::function<Selection(const Scene& before, const Scene& after)> then_select = {}) {
  commands.push(command::EditScene{std::move(label), std::move(apply), std::move(then_select)});
}
inline void queue_edit(StudioState& state, std::string label, std::function<Result<Scene>(const Scene&)> apply,
                       std::function<Selection(const Scene& before, const Scene& after)> then_select = {}) {
  queue_edit(state.commands, std::move(label), std::move(apply), std::move(then_select));
}

// The Edit menu (undo, redo, history; copy, paste, duplicate; add elements, generators
// and objectives, joints and attachments; delete or pin the selection; snapping). The builders below are its
// items' actions, shared with the studio's keys; each returns nothing when it does not
// apply to the selection (the item is then greyed).
void edit_menu(const StudioState& state, UiState& ui, EditorState& editor, CommandQueue& commands);
// Delete: every member of the selection (particles, springs, bodies, colliders, joints,
// attachments or objectives).
std::optional<command::EditScene> delete_selection(const StudioState& state);
// P: pins every selected particle, or frees them all when all are pinned.
std::optional<command::EditScene> toggle_pin_selection(const StudioState& state);
// Ctrl+C: the selected particles or bodies (with what joins them) to state.editor.clipboard;
// false (nothing copied) for any other selection.
bool copy_selection(const StudioState& state, EditorState& editor, std::string& banner);
// Ctrl+V: the clipboard merged into the scene beside where it was copied from (moved
// along +x by its own width and a gap), then selected.
std::optional<command::EditScene> paste_clipboard(const StudioState& state);
// Ctrl+D: copies of the selected particles or bodies beside them, then selected.
std::optional<command::EditScene> duplicate_selection(const StudioState& state);
// A spring between the two selected particles (exactly two), of the scene's median
// stiffness and damping (500 N/m and 0.1 N s/m in a scene without springs).
std::optional<command::EditScene> connect_with_spring(const StudioState& state);
// A target objective (weight 1, final step) on the selected particles or bodies, at
// their centroid at the end of the motion shown (their initial centroid before it has
// come), then selected so that its target can be dragged or typed in.
std::optional<command::EditScene> add_target_for_selection(const StudioState& state);
// Edit > Add > Objective Term: a term of `type` for the selection (velocity: come to rest;
// travel along +x; positions: hold where each particle ends; orientation: bodies' y axes
// up; effort: needs no selection), weight 1 at the final step, then selected.
std::optional<command::EditScene> add_objective_for_selection(const StudioState& state, ObjectiveType type);
// A joint of `type` (its axis `axis`, a world direction, for a hinge or prismatic joint)
// for the selected bodies, then selected: between exactly two (parent the first member,
// child the second, anchored at the midpoint of their initial centres), or from the world
// to exactly one, anchored above its initial centre by its reach (against gravity; +y
// when there is none), so that it hangs from there like a pendulum.
std::optional<command::EditScene> joint_for_selection(const StudioState& state, JointType type,
                                                      const std::array<double, 3>& axis);
// Attaches each selected particle to the body whose initial centre is nearest its
// initial position, in one step, then selects the new attachments; a pinned or already
// attached particle refuses the whole step with the edit's message.
std::optional<command::EditScene> attach_to_nearest_body(const StudioState& state);

// Edit > Add's generator dialogs (chain, cloth, soft block, walker robot), opened by
// state.ui.popups.generator; drawn by draw_popups.
void draw_generator_dialogs(const StudioState& state, UiState& ui, CommandQueue& commands);
// Where new elements go: above the middle of what is shown, so they are in view (m).
std::array<double, 3> drop_point(const StudioState& state);

// A dock window named `name` (gui/dock_layout.h's panel_name); its close button clears
// `open`. False when it is hidden behind another tab: draw nothing then, but call
// end_panel() either way.
bool begin_panel(const char* name, bool* open);
void end_panel();

// On the line of the button that started `job`: a Cancel button and a bar of
// "done / total unit". Returns whether Cancel was pressed.
bool job_progress(const studio::BackgroundJob& job, const char* unit);

}  // namespace nudge::gui
