#include "gui/plots.h"

#include <imgui.h>

#include "nudge/render/color_map.h"

namespace nudge::gui::plot {

bool begin(const char* id, float lines, const char* x_label, const char* y_label, bool log_y) {
  const ImVec2 size(-1, ImGui::GetFontSize() * lines);
  if (!ImPlot::BeginPlot(id, size, ImPlotFlags_NoTitle)) return false;
  // Fit the data while it grows (an optimiser's curve); zooming in turns that off until a
  // double-click.
  ImPlot::SetupAxes(x_label, y_label, ImPlotAxisFlags_AutoFit, ImPlotAxisFlags_AutoFit);
  if (log_y) ImPlot::SetupAxisScale(ImAxis_Y1, ImPlotScale_Log10);
  ImPlot::SetupLegend(ImPlotLocation_NorthEast);
  return true;
}

ImPlotSpec line(const ImVec4& colour, float weight) {
  ImPlotSpec spec;
  spec.LineColor = colour;
  spec.LineWeight = weight;
  return spec;
}

ImPlotColormap sequential_colormap() {
  static ImPlotColormap map = [] {
    ImVec4 colours[16];
    for (int i = 0; i < 16; ++i) {
      const render::Rgba c = render::map_value(render::ColorMap::Sequential, float(i) / 15.0f, 0.0f, 1.0f);
      colours[i] = ImVec4(c.r, c.g, c.b, 1);
    }
    return ImPlot::AddColormap("nudge sequential", colours, 16, false);
  }();
  return map;
}

}  // namespace nudge::gui::plot
