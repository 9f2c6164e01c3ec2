// Where each panel of the window goes for a window size: side panels for the outliner
// and inspector, the timeline and log along the bottom, a status bar, and the viewport
// in what is left. Sizes follow the window within limits, and panels give way before the
// viewport does, so a small window still shows the scene and a large one is not mostly
// panels.
#pragma once

namespace nudge::studio {

struct Rect {
  float x = 0, y = 0, width = 0, height = 0;
  float right() const { return x + width; }
  float bottom() const { return y + height; }
  bool empty() const { return width <= 0 || height <= 0; }
};

struct PanelsShown {
  bool outliner = true;
  bool inspector = true;
  bool timeline = true;
  bool log = true;
  int timeline_tracks = 0;  // strips under the timeline's controls, two lines each
};

struct PanelLayout {
  Rect outliner, inspector, timeline, log, status_bar, viewport;  // empty when hidden
};

// `top` is the height of the menu bar; `line` the height of one line of text with its
// padding (the timeline and status bar are sized in lines). All in window units.
PanelLayout compute_panel_layout(float width, float height, float top, float line, const PanelsShown& shown);

}  // namespace nudge::studio
