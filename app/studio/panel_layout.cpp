#include "studio/panel_layout.h"

#include <algorithm>

namespace nudge::studio {

namespace {

// A panel's size: a share of the window, kept within [lo, hi], and never more than
// `room` (what the viewport can give up).
float panel_size(float window, float share, float lo, float hi, float room) {
  return std::max(0.0f, std::min(std::clamp(window * share, lo, hi), room));
}

}  // namespace

PanelLayout compute_panel_layout(float width, float height, float top, float line, const PanelsShown& shown) {
  PanelLayout layout;
  width = std::max(width, 0.0f);
  height = std::max(height, top);

  // Bottom up: status bar, log, timeline. The viewport keeps at least half the height.
  const float status_height = std::min(line + 4, height - top);
  float bottom = height - status_height;
  layout.status_bar = {0, bottom, width, status_height};
  const float min_viewport_height = 0.5f * (bottom - top);
  float room = bottom - top - min_viewport_height;
  if (shown.log) {
    const float h = panel_size(height, 0.16f, 4 * line, 12 * line, room);
    room -= h;
    bottom -= h;
    layout.log = {0, bottom, width, h};
  }
  if (shown.timeline) {
    // One row of controls and the padding, and the tracks under it.
    const float h = std::min(line + 18 + float(shown.timeline_tracks) * 2 * line, room);
    bottom -= h;
    layout.timeline = {0, bottom, width, h};
  }

  // Sides: the viewport keeps at least 45 % of the width.
  const float middle_height = std::max(0.0f, bottom - top);
  float side_room = 0.55f * width;
  float left = 0, right = width;
  if (shown.outliner) {
    const float w = panel_size(width, 0.17f, 12 * line, 22 * line, side_room / (shown.inspector ? 2 : 1));
    side_room -= w;
    layout.outliner = {0, top, w, middle_height};
    left = w;
  }
  if (shown.inspector) {
    const float w = panel_size(width, 0.21f, 14 * line, 26 * line, side_room);
    layout.inspector = {width - w, top, w, middle_height};
    right = width - w;
  }
  layout.viewport = {left, top, std::max(0.0f, right - left), middle_height};
  return layout;
}

}  // namespace nudge::studio
