// The Sweep tab: a sweep's table (nudge sweep, nudge.sweep from Python) as a plot of one of
// its results (the loss by default) over its parameters: a curve over one, a coloured grid
// over two, points over the one chosen when there are more. Clicking a point selects it;
// its row is listed, and Open as Scene makes it the document.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "gui/panels/panels.h"
#include "gui/plots.h"
#include "gui/theme.h"
#include "nudge/render/color_map.h"

namespace nudge::gui {

namespace {

constexpr ImU32 kEmptyCell = IM_COL32(60, 40, 40, 255);  // a point without a result
constexpr ImU32 kMissing = IM_COL32(30, 32, 36, 255);    // a point not in the table yet
constexpr ImU32 kPicked = IM_COL32(255, 255, 255, 255);

bool log_scale_setting = true;

// The values of column `c` (1-based among the table's, as in columns), by row.
double value_at(const SweepRow& row, int column) { return row.values[std::size_t(column - 1)]; }

int column_named(const SweepTableContents& t, const std::string& name) {
  const auto at = std::find(t.columns.begin(), t.columns.end(), name);
  return at == t.columns.end() ? -1 : int(at - t.columns.begin());
}

// The distinct values of an axis, ascending.
std::vector<double> distinct(const SweepTableContents& t, int column) {
  std::vector<double> v;
  for (const SweepRow& r : t.rows) v.push_back(value_at(r, column));
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

// The value plotted, or NaN where the point has none (or cannot be drawn on a log scale).
double plotted_value(const SweepRow& r, int column, bool log_scale) {
  const double y = r.has_result() ? value_at(r, column) : std::numeric_limits<double>::quiet_NaN();
  return log_scale && !(y > 0) ? std::numeric_limits<double>::quiet_NaN() : y;
}

// One axis (or the one across, with more than two): the results as points joined in the
// axis's order, a marker on each; a click picks the nearest.
void draw_curve(const SweepTableContents& t, SweepView& sweep, int x_column, int y_column, bool log_scale) {
  std::vector<int> order;
  for (int k = 0; k < int(t.rows.size()); ++k) order.push_back(k);
  std::sort(order.begin(), order.end(), [&](int a, int b) {
    return value_at(t.rows[std::size_t(a)], x_column) < value_at(t.rows[std::size_t(b)], x_column);
  });
  const bool several_axes = sweep_axis_count(t) > 1;
  if (!plot::begin("##sweep curve", 14, t.columns[std::size_t(x_column)].c_str(),
                   t.columns[std::size_t(y_column)].c_str(), log_scale))
    return;
  std::vector<double> xs, ys;
  for (int k : order) {
    const double y = plotted_value(t.rows[std::size_t(k)], y_column, log_scale);
    if (!std::isfinite(y)) continue;
    xs.push_back(value_at(t.rows[std::size_t(k)], x_column));
    ys.push_back(y);
  }
  ImPlotSpec spec = plot::line(plot::kFirst, several_axes ? 0.0f : 2.0f);  // points only over several axes
  spec.Marker = ImPlotMarker_Circle;
  spec.MarkerSize = 3.5f;
  spec.MarkerFillColor = plot::kFirst;
  spec.MarkerLineColor = plot::kFirst;
  if (!xs.empty())
    ImPlot::PlotLine(t.columns[std::size_t(y_column)].c_str(), xs.data(), ys.data(), int(xs.size()), spec);
  if (sweep.selected >= 0) {
    const SweepRow& r = t.rows[std::size_t(sweep.selected)];
    const double x = value_at(r, x_column), y = plotted_value(r, y_column, log_scale);
    if (std::isfinite(y)) {
      ImPlotSpec picked;
      picked.Marker = ImPlotMarker_Circle;
      picked.MarkerSize = 6;
      picked.MarkerFillColor = plot::kMarker;
      picked.MarkerLineColor = ImVec4(0, 0, 0, 1);
      picked.Flags = ImPlotItemFlags_NoLegend;
      ImPlot::PlotScatter("picked", &x, &y, 1, picked);
    }
  }
  if (ImPlot::IsPlotHovered()) {
    // The nearest point on screen: its row in a tooltip, and a click picks it.
    const ImVec2 mouse = ImGui::GetMousePos();
    int nearest = -1;
    float best = 12 * 12;  // pixels, squared
    for (int k = 0; k < int(t.rows.size()); ++k) {
      const double y = plotted_value(t.rows[std::size_t(k)], y_column, log_scale);
      if (!std::isfinite(y)) continue;
      const ImVec2 p = ImPlot::PlotToPixels(value_at(t.rows[std::size_t(k)], x_column), y);
      const float d = (p.x - mouse.x) * (p.x - mouse.x) + (p.y - mouse.y) * (p.y - mouse.y);
      if (d < best) best = d, nearest = k;
    }
    if (nearest >= 0) {
      const SweepRow& r = t.rows[std::size_t(nearest)];
      ImGui::SetTooltip("point %d\n%s = %.6g\n%s = %.6g", r.index, t.columns[std::size_t(x_column)].c_str(),
                        value_at(r, x_column), t.columns[std::size_t(y_column)].c_str(), value_at(r, y_column));
      if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) sweep.selected = nearest;
    }
  }
  ImPlot::EndPlot();
}

// Two axes: a cell per point, coloured by its result, on the axes' values; a click picks a cell.
void draw_grid(const SweepTableContents& t, SweepView& sweep, int y_column, bool log_scale) {
  const std::vector<double> across = distinct(t, 1), up = distinct(t, 2);
  const int columns = int(across.size()), rows = int(up.size());
  std::vector<int> cell(std::size_t(columns * rows), -1);  // row of the table at each cell
  const auto index_of = [](const std::vector<double>& v, double x) {
    return int(std::lower_bound(v.begin(), v.end(), x) - v.begin());
  };
  float lo = std::numeric_limits<float>::infinity(), hi = -lo;
  const auto shade = [&](double y) { return float(log_scale ? std::log10(y) : y); };
  for (int k = 0; k < int(t.rows.size()); ++k) {
    const SweepRow& r = t.rows[std::size_t(k)];
    cell[std::size_t(index_of(up, value_at(r, 2)) * columns + index_of(across, value_at(r, 1)))] = k;
    const double y = plotted_value(r, y_column, log_scale);
    if (std::isfinite(y)) lo = std::min(lo, shade(y)), hi = std::max(hi, shade(y));
  }
  // A cell spans half-way to its neighbours (the grid's spacing at its ends).
  const auto edges = [](const std::vector<double>& v) {
    std::vector<double> e(v.size() + 1);
    const double step = v.size() > 1 ? v[1] - v[0] : 1.0;
    e.front() = v.front() - 0.5 * step;
    e.back() = v.back() + 0.5 * (v.size() > 1 ? v.back() - v[v.size() - 2] : 1.0);
    for (std::size_t k = 1; k < v.size(); ++k) e[k] = 0.5 * (v[k - 1] + v[k]);
    return e;
  };
  const std::vector<double> ex = edges(across), ey = edges(up);
  const float side = std::min(ImGui::GetContentRegionAvail().x - ImGui::GetFontSize() * 5, ImGui::GetFontSize() * 20);
  char id[200];
  std::snprintf(id, sizeof id, "##sweep grid %s", sweep.path.string().c_str());
  if (ImPlot::BeginPlot(id, ImVec2(side, side), ImPlotFlags_NoTitle | ImPlotFlags_NoLegend)) {
    ImPlot::SetupAxes(t.columns[1].c_str(), t.columns[2].c_str());
    ImPlot::SetupAxesLimits(ex.front(), ex.back(), ey.front(), ey.back(), ImPlotCond_Once);
    ImPlot::PushPlotClipRect();
    ImDrawList* dl = ImPlot::GetPlotDrawList();
    for (int j = 0; j < rows; ++j)
      for (int i = 0; i < columns; ++i) {
        const int k = cell[std::size_t(j * columns + i)];
        ImU32 colour = k < 0 ? kMissing : kEmptyCell;
        if (k >= 0) {
          const double y = plotted_value(t.rows[std::size_t(k)], y_column, log_scale);
          if (std::isfinite(y)) {
            const render::Rgba c = render::map_value(render::ColorMap::Sequential, shade(y), lo, hi);
            colour = ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, 1));
          }
        }
        const ImVec2 a = ImPlot::PlotToPixels(ex[std::size_t(i)], ey[std::size_t(j + 1)]);
        const ImVec2 b = ImPlot::PlotToPixels(ex[std::size_t(i + 1)], ey[std::size_t(j)]);
        dl->AddRectFilled(a, ImVec2(b.x + 0.5f, b.y + 0.5f), colour);
        if (k >= 0 && k == sweep.selected) dl->AddRect(a, b, kPicked, 0.0f, 2.0f);
      }
    ImPlot::PopPlotClipRect();
    if (ImPlot::IsPlotHovered()) {
      const ImPlotPoint m = ImPlot::GetPlotMousePos();
      const int i = int(std::upper_bound(ex.begin(), ex.end(), m.x) - ex.begin()) - 1;
      const int j = int(std::upper_bound(ey.begin(), ey.end(), m.y) - ey.begin()) - 1;
      if (i >= 0 && i < columns && j >= 0 && j < rows) {
        const int k = cell[std::size_t(j * columns + i)];
        if (k < 0) {
          ImGui::SetTooltip("%s = %.6g\n%s = %.6g\nnot in the table yet", t.columns[1].c_str(), across[std::size_t(i)],
                            t.columns[2].c_str(), up[std::size_t(j)]);
        } else {
          const SweepRow& r = t.rows[std::size_t(k)];
          ImGui::SetTooltip("point %d\n%s = %.6g\n%s = %.6g\n%s = %.6g", r.index, t.columns[1].c_str(), value_at(r, 1),
                            t.columns[2].c_str(), value_at(r, 2), t.columns[std::size_t(y_column)].c_str(),
                            value_at(r, y_column));
          if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) sweep.selected = k;
        }
      }
    }
    ImPlot::EndPlot();
  }
  if (lo <= hi) {
    ImGui::SameLine();
    const std::string scale = (log_scale ? "log10 " : "") + t.columns[std::size_t(y_column)];
    ImPlot::ColormapScale(scale.c_str(), lo, hi, ImVec2(0, side), "%.3g", 0, plot::sequential_colormap());
  }
}

void draw_picked(const SweepTableContents& t, SweepView& sweep, CommandQueue& commands) {
  if (sweep.selected < 0) return;
  const SweepRow& r = t.rows[std::size_t(sweep.selected)];
  ImGui::SeparatorText(("point " + std::to_string(r.index)).c_str());
  if (ImGui::BeginTable("##picked", 2, ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_RowBg)) {
    for (std::size_t c = 1; c + 1 < t.columns.size(); ++c) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(t.columns[c].c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%.8g", r.values[c - 1]);
    }
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted("status");
    ImGui::TableNextColumn();
    if (r.has_result())
      ImGui::TextUnformatted(r.status.c_str());
    else
      ImGui::TextColored(theme::kErrorText, "%s", r.status.c_str());
    ImGui::EndTable();
  }
  ImGui::BeginDisabled(t.scene.empty());
  if (ImGui::Button("Open as Scene")) commands.push(command::Open{sweep.path, false, sweep.selected});
  ImGui::EndDisabled();
  ImGui::SetItemTooltip(t.scene.empty() ? "The sweep's scene was built in code: it has no file to open"
                        : t.mode == SweepMode::Optimize
                            ? "The sweep's scene with the values the optimiser found from this start, unsaved"
                            : "The sweep's scene with this point's values, unsaved");
}

}  // namespace

void draw_sweep_contents(const StudioState&, SweepView& sweep, CommandQueue& commands) {
  if (!sweep.table) {
    ImGui::TextWrapped(
        "No sweep open. File > Open a table that nudge sweep wrote (.csv), or drop one on the window. A sweep "
        "evaluates a grid of parameter values:");
    ImGui::TextDisabled("nudge sweep SCENE --param name=from:to:count");
    return;
  }
  const SweepTableContents& t = *sweep.table;
  const int axes = sweep_axis_count(t);
  ImGui::TextWrapped("%s: %zu points, %s mode", sweep.path.filename().string().c_str(), t.rows.size(),
                     std::string(sweep_mode_name(t.mode)).c_str());
  if (!t.scene.empty()) ImGui::TextDisabled("scene %s", t.scene.string().c_str());
  if (t.rows.empty()) {
    ImGui::TextDisabled("no point has finished yet; the plot fills in as the table grows");
    return;
  }

  // What is plotted: any result column (the loss first), and with three or more axes the
  // one across.
  if (sweep.plotted < axes + 1 || sweep.plotted + 1 >= int(t.columns.size())) sweep.plotted = column_named(t, "loss");
  ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 5);
  if (ImGui::BeginCombo("plotted", t.columns[std::size_t(sweep.plotted)].c_str())) {
    for (int c = axes + 1; c + 1 < int(t.columns.size()); ++c)
      if (ImGui::Selectable(t.columns[std::size_t(c)].c_str(), c == sweep.plotted)) sweep.plotted = c;
    ImGui::EndCombo();
  }
  if (axes > 2) {
    sweep.across = std::clamp(sweep.across, 0, axes - 1);
    ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 5);
    if (ImGui::BeginCombo("across", t.columns[std::size_t(sweep.across + 1)].c_str())) {
      for (int a = 0; a < axes; ++a)
        if (ImGui::Selectable(t.columns[std::size_t(a + 1)].c_str(), a == sweep.across)) sweep.across = a;
      ImGui::EndCombo();
    }
    ImGui::SetItemTooltip("The parameter along the plot; every point is drawn over it");
  }
  bool positive = true;
  int without = 0;
  for (const SweepRow& r : t.rows) {
    if (!r.has_result()) ++without;
    if (r.has_result() && !(value_at(r, sweep.plotted) > 0)) positive = false;
  }
  ImGui::Checkbox("log", &log_scale_setting);
  ImGui::SetItemTooltip("log10 of the value plotted (when it is positive everywhere)");
  ImGui::SameLine();
  if (ImGui::Button("Pick the Lowest")) {
    double lowest = std::numeric_limits<double>::infinity();
    for (int k = 0; k < int(t.rows.size()); ++k)
      if (const double y = plotted_value(t.rows[std::size_t(k)], sweep.plotted, false); y < lowest)
        lowest = y, sweep.selected = k;
  }
  ImGui::SetItemTooltip("Select the point where the value plotted is lowest");
  if (without > 0) {
    ImGui::SameLine();
    ImGui::TextColored(theme::kWarningText, "%d without a result", without);
  }
  const bool log_scale = log_scale_setting && positive;
  if (axes == 2)
    draw_grid(t, sweep, sweep.plotted, log_scale);
  else
    draw_curve(t, sweep, axes == 1 ? 1 : sweep.across + 1, sweep.plotted, log_scale);
  ImGui::PushStyleColor(ImGuiCol_Text, theme::kDimText);
  ImGui::TextWrapped("Click a point to pick it. Drag to pan, scroll to zoom, double-click to fit.");
  ImGui::PopStyleColor();
  draw_picked(t, sweep, commands);
}

}  // namespace nudge::gui
