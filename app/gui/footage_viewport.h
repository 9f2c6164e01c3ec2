// The viewport while it looks through the shot's camera: the footage's tracks and
// correspondences drawn over the plate, and the left button's work on them (add a track,
// place a correspondence's image point, drag a track's point to correct its key).
#pragma once

#include "gui/studio_state.h"
#include "studio/panel_layout.h"

namespace nudge::gui {

// The camera the view looks through: the footage's, or before one is fitted (when there
// is a video) a provisional one at the orbit camera's place with the video's image size,
// enough to see the shot and click in it. Nothing when there is neither.
std::optional<PinholeCamera> shot_view_camera(const StudioState& state);

// Queues the edits a click or a finished drag makes. `inside`: the mouse is over the viewport.
void handle_shot_mouse(StudioState& state, const studio::Rect& viewport, bool inside);

// Tracks (their path near the play head, the point at it, the residual to the particle a
// tracks objective binds), correspondences (clicked and reprojected), and the tool's hint.
void draw_shot_overlay(StudioState& state, const studio::Rect& viewport);

}  // namespace nudge::gui
