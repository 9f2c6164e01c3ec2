// The studio's plots, on ImPlot: axes with labels and units, zoom and pan with the mouse
// (double-click fits the data again), a legend, and the value under the cursor. One look
// for every panel: the same height rule, orange for the first curve (the tests look for
// it), blue for the second.
#pragma once

#include <implot.h>

namespace nudge::gui::plot {

inline constexpr ImVec4 kFirst{240 / 255.0f, 170 / 255.0f, 60 / 255.0f, 1};   // orange
inline constexpr ImVec4 kSecond{90 / 255.0f, 200 / 255.0f, 255 / 255.0f, 1};  // blue
inline constexpr ImVec4 kMarker{1, 1, 1, 1};

// Begins a plot `lines` text lines high across the panel, with its axes set up: a log10
// y axis when `log_y`. Call ImPlot::EndPlot() only when it returns true.
bool begin(const char* id, float lines, const char* x_label, const char* y_label, bool log_y);

// A line's spec: `colour`, `weight` pixels wide.
ImPlotSpec line(const ImVec4& colour, float weight = 2.0f);

// The render library's sequential colour map as an ImPlot colour map, for the scale beside
// a grid whose cells are coloured by render::map_value itself.
ImPlotColormap sequential_colormap();

}  // namespace nudge::gui::plot
