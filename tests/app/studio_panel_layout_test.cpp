// The window's layout at sizes from a small laptop window to a large monitor: the viewport
// always keeps a usable share, panels never overlap it or each other, and everything stays
// inside the window.
#include <doctest/doctest.h>

#include <cstddef>
#include <vector>

#include "studio/panel_layout.h"

using nudge::studio::compute_panel_layout;
using nudge::studio::PanelLayout;
using nudge::studio::PanelsShown;
using nudge::studio::Rect;

namespace {

bool overlap(const Rect& a, const Rect& b) {
  if (a.empty() || b.empty()) return false;
  return a.x < b.right() - 1e-3f && b.x < a.right() - 1e-3f && a.y < b.bottom() - 1e-3f && b.y < a.bottom() - 1e-3f;
}

bool inside(const Rect& r, float w, float h) {
  return r.empty() || (r.x >= -1e-3f && r.y >= -1e-3f && r.right() <= w + 1e-3f && r.bottom() <= h + 1e-3f);
}

}  // namespace

TEST_CASE("panel layout: the viewport keeps a usable share at every window size") {
  const float top = 22, line = 24;
  for (float w : {480.0f, 800.0f, 1280.0f, 1440.0f, 1920.0f, 3840.0f})
    for (float h : {320.0f, 600.0f, 800.0f, 1080.0f, 2160.0f}) {
      CAPTURE(w);
      CAPTURE(h);
      const PanelLayout l = compute_panel_layout(w, h, top, line, PanelsShown{});
      const std::vector<Rect> panels{l.outliner, l.inspector, l.timeline, l.log, l.status_bar, l.viewport};
      for (std::size_t i = 0; i < panels.size(); ++i) {
        CHECK(inside(panels[i], w, h));
        for (std::size_t j = i + 1; j < panels.size(); ++j) CHECK_FALSE(overlap(panels[i], panels[j]));
      }
      CHECK(l.viewport.width >= 0.45f * w - 1e-3f);
      CHECK(l.viewport.height >= 0.5f * (h - top - line - 4) - 1e-3f);
      CHECK(l.viewport.y == doctest::Approx(top));
      CHECK(l.status_bar.bottom() == doctest::Approx(h));
      // Panels stay readable when there is room: the side panels at least 12 lines wide.
      if (w >= 1280) CHECK(l.outliner.width >= 12 * line - 1e-3f);
      // And do not swallow a large screen.
      CHECK(l.outliner.width <= 22 * line + 1e-3f);
      CHECK(l.inspector.width <= 26 * line + 1e-3f);
    }
}

TEST_CASE("panel layout: hidden panels give their room to the viewport") {
  const PanelLayout all = compute_panel_layout(1440, 900, 22, 24, PanelsShown{});
  const PanelLayout bare = compute_panel_layout(1440, 900, 22, 24, PanelsShown{false, false, false, false});
  CHECK(bare.outliner.empty());
  CHECK(bare.inspector.empty());
  CHECK(bare.timeline.empty());
  CHECK(bare.log.empty());
  CHECK(bare.viewport.x == 0);
  CHECK(bare.viewport.width == doctest::Approx(1440));
  CHECK(bare.viewport.bottom() == doctest::Approx(bare.status_bar.y));
  CHECK(bare.viewport.width > all.viewport.width);
  CHECK(bare.viewport.height > all.viewport.height);
  // Only the inspector hidden: the viewport reaches the right edge.
  const PanelLayout no_inspector = compute_panel_layout(1440, 900, 22, 24, PanelsShown{true, false, true, true});
  CHECK(no_inspector.viewport.right() == doctest::Approx(1440));
  CHECK(no_inspector.viewport.x == doctest::Approx(all.outliner.width));
}
