// The window's panels: each draws itself from the StudioState into the rectangle the
// layout gives it, and queues Commands for anything beyond changing the view.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "gui/studio_state.h"
#include "studio/panel_layout.h"

namespace nudge::gui {

// Returns the menu bar's height.
float draw_menu_bar(StudioState& state);
void draw_outliner(StudioState& state, const studio::Rect& area);
// The right column: the inspector and the optimiser, as tabs.
void draw_inspector(StudioState& state, const studio::Rect& area);
void draw_optimizer_contents(StudioState& state);
void draw_landscape_contents(StudioState& state);
void draw_gradient_check_contents(StudioState& state);
void draw_timeline(StudioState& state, const studio::Rect& area);
void draw_log_panel(StudioState& state, const studio::Rect& area);
void draw_status_bar(StudioState& state, const studio::Rect& area);
// The error banner over the top of the viewport, and the "computing" note.
void draw_viewport_overlay(StudioState& state, const studio::Rect& viewport);
// Open and Save As dialogs, Help > Keys and About.
void draw_popups(StudioState& state);

// Queues an editor action on the document's scene: an undoable step named `label`.
inline void queue_edit(StudioState& state, std::string label, std::function<Result<Scene>(const Scene&)> apply) {
  state.queue(command::EditScene{std::move(label), std::move(apply)});
}

// The Edit menu (undo, redo, history; add elements; delete or pin the selection), and
// the edit that deletes the selection (the Delete key's), if it can be deleted.
void edit_menu(StudioState& state);
std::optional<command::EditScene> delete_selection(const StudioState& state);
std::optional<command::EditScene> toggle_pin_selection(const StudioState& state);

// Fixed, undecorated window filling `area`, for panels laid out by the studio.
// `titled`: with a title bar naming the panel (side and bottom panels); the timeline and
// status bar go without.
bool begin_panel(const char* name, const studio::Rect& area, bool titled = true);
void end_panel();

// On the line of the button that started `job`: a Cancel button and a bar of
// "done / total unit". Returns whether Cancel was pressed.
bool job_progress(const studio::BackgroundJob& job, const char* unit);

}  // namespace nudge::gui
