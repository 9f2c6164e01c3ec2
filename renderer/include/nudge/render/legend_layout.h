// Where legends go on screen, in pixels (x right, y down). Public so that tests and the
// app (hit-testing, screenshots) agree with what the renderer draws.
#pragma once

#include <vector>

#include "nudge/render/draw_list.h"

namespace nudge::render {

struct PixelRect {
  int x = 0, y = 0, width = 0, height = 0;
};

struct LegendLayout {
  PixelRect panel;     // the translucent backing panel
  PixelRect bar;       // the colour bar: max at the top row, min at the bottom row
  int text_scale = 1;  // stb_easy_font glyphs are drawn this many pixels per font unit
};

// One layout per legend, in order: the first legend in the top-right corner, the others
// to its left.
std::vector<LegendLayout> layout_legends(const std::vector<Legend>& legends, int width, int height);

// The colour-map parameter t in [0, 1] that row `y` of `bar` shows (every row is one flat
// colour: map_color(map, t), i.e. map_value at min + t * (max - min)).
float legend_bar_t(const PixelRect& bar, int y);

}  // namespace nudge::render
