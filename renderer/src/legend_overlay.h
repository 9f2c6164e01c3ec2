// The triangles that draw legends on screen: backing panel, colour bar (one flat row of
// pixels per colour, so that each row shows exactly map_color), ticks and text.
#pragma once

#include <vector>

#include "nudge/render/draw_list.h"
#include "shared_types.h"

namespace nudge::render {

void append_legend_overlay(const std::vector<Legend>& legends, int width, int height,
                           std::vector<gpu::OverlayVertex>& out);

}  // namespace nudge::render
