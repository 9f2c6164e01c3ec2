// The Landscape tab: the loss along a line (one parameter entry, or the descent
// direction) or over a grid of two entries, around the point shown (the optimiser's
// iterate, or the scene's values before it has run), with that point and its gradient
// drawn on it. Computed in the background; the plot fills in as points arrive.
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

using studio::LandscapeAxis;
using studio::LandscapeResult;
using studio::ParamEntry;

constexpr ImU32 kPoint = IM_COL32(255, 255, 255, 255);
constexpr ImU32 kSlope = IM_COL32(90, 200, 255, 255);
constexpr ImU32 kStep = IM_COL32(190, 190, 190, 255);
constexpr ImU32 kNoResult = IM_COL32(60, 40, 40, 255);

// What the form edits between frames.
struct AxisForm {
  int parameter = -1;  // ParamId, or -1 for the descent direction (lines only)
  int index = 0;
  float from = -1, to = 1;
  ParamEntry shown{};  // the entry the range was last set for
  bool range_set = false;
};

struct LandscapeForm {
  bool grid = false;
  AxisForm a, b;
  int line_samples = 41, grid_samples = 21;
  bool log_scale = true;
  const void* shows = nullptr;  // the landscape the form was last set from or asked for
};

LandscapeForm& landscape_form() {
  static LandscapeForm f;  // one window, one form
  return f;
}

// The entry's default range when the user picks another entry.
void keep_range_current(AxisForm& axis, const Scene& scene) {
  if (axis.parameter < 0) {
    if (!axis.range_set || axis.shown.index != -1) {
      const double scale = std::max(1.0, std::sqrt([&] {
                                      double sum = 0;
                                      for (double v : scene.params.gather_optimized()) sum += v * v;
                                      return sum;
                                    }()));
      axis.from = float(-0.5 * scale);
      axis.to = float(0.5 * scale);
      axis.shown = {ParamId::InitialPosition, -1};
      axis.range_set = true;
    }
    return;
  }
  const ParamEntry entry{static_cast<ParamId>(axis.parameter), axis.index};
  if (axis.range_set && axis.shown == entry) return;
  const LandscapeAxis defaults = studio::parameter_axis(scene, entry, 2);
  axis.from = float(defaults.from);
  axis.to = float(defaults.to);
  axis.shown = entry;
  axis.range_set = true;
}

// Picks an axis: a parameter (with entries) and an entry, or the descent direction.
void axis_editor(const char* id, AxisForm& axis, const Scene& scene) {
  ImGui::PushID(id);
  std::string current_name = axis.parameter < 0 ? std::string("descent direction (-gradient)")
                                                : std::string(param_name(static_cast<ParamId>(axis.parameter)));
  ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 4);
  if (ImGui::BeginCombo(id, current_name.c_str())) {
    if (ImGui::Selectable("descent direction (-gradient)", axis.parameter < 0)) axis.parameter = -1;
    for (int p = 0; p < kParamCount; ++p) {
      const Parameter& param = scene.params.items[size_t(p)];
      if (param.size() == 0) continue;
      std::string label = std::string(param_name(param.id)) + (param.optimize ? "  (optimised)" : "");
      if (ImGui::Selectable(label.c_str(), axis.parameter == p)) {
        axis.parameter = p;
        axis.index = std::min(axis.index, param.size() - 1);
      }
    }
    ImGui::EndCombo();
  }
  if (axis.parameter >= 0) {
    const Parameter& param = scene.params.items[size_t(axis.parameter)];
    if (param.size() > 1) {
      ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 4);
      ImGui::InputInt("entry", &axis.index);
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("which of its %d values (row-major, 0-based)", param.size());
    }
    axis.index = std::clamp(axis.index, 0, std::max(0, param.size() - 1));
  }
  keep_range_current(axis, scene);
  ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 4);
  ImGui::DragFloatRange2("range", &axis.from, &axis.to, std::max(1e-4f, 0.01f * (axis.to - axis.from)), 0, 0, "%.4g",
                         "%.4g");
  ImGui::SetItemTooltip(
      "How far from the point the line or grid reaches each way, in the parameter's units (drag, or Ctrl+click to "
      "type)");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(axis.parameter < 0 ? "distance along the unit descent direction"
                                         : "offsets from the current value (kept within the bounds)");
  ImGui::PopID();
}

// A grid's first axes: the first two optimised entries (of one parameter or two), else
// the first two entries of any parameter.
void choose_grid_axes(LandscapeForm& f, const Scene& scene) {
  std::vector<ParamEntry> entries;
  for (bool optimised_only : {true, false})
    for (int p = 0; p < kParamCount && entries.size() < 2; ++p) {
      const Parameter& param = scene.params.items[size_t(p)];
      if (optimised_only && !param.optimize) continue;
      for (int i = 0; i < param.size() && entries.size() < 2; ++i)
        if (std::find(entries.begin(), entries.end(), ParamEntry{param.id, i}) == entries.end())
          entries.push_back({param.id, i});
    }
  if (entries.size() < 2) return;
  f.a.parameter = static_cast<int>(entries[0].id);
  f.a.index = entries[0].index;
  f.b.parameter = static_cast<int>(entries[1].id);
  f.b.index = entries[1].index;
}

// The form as a request made elsewhere (a lesson's step) asked, so that Compute asks again
// for what is shown.
void follow_axis(AxisForm& form, const LandscapeAxis& axis) {
  form.parameter = axis.kind == LandscapeAxis::Kind::Parameter ? static_cast<int>(axis.entry.id) : -1;
  form.index = axis.kind == LandscapeAxis::Kind::Parameter ? axis.entry.index : 0;
  form.from = float(axis.from);
  form.to = float(axis.to);
  form.shown = axis.kind == LandscapeAxis::Kind::Parameter ? axis.entry : ParamEntry{ParamId::InitialPosition, -1};
  form.range_set = true;
}

void follow_request(LandscapeForm& f, const studio::LandscapeRequest& request) {
  f.grid = request.b.has_value();
  follow_axis(f.a, request.a);
  if (request.b) follow_axis(f.b, *request.b);
  (f.grid ? f.grid_samples : f.line_samples) = request.a.samples;
}

LandscapeAxis to_axis(const AxisForm& form, int samples) {
  LandscapeAxis axis;
  axis.kind = form.parameter < 0 ? LandscapeAxis::Kind::NegativeGradient : LandscapeAxis::Kind::Parameter;
  if (form.parameter >= 0) axis.entry = {static_cast<ParamId>(form.parameter), form.index};
  axis.from = std::min(form.from, form.to);
  axis.to = std::max(form.from, form.to);
  axis.samples = samples;
  return axis;
}

// Where an axis offset sits for the reader: the parameter's value, or the distance.
double axis_value(const LandscapeResult& r, const LandscapeAxis& axis, double offset) {
  if (axis.kind == LandscapeAxis::Kind::NegativeGradient) return offset;
  return r.request.scene.params[axis.entry.id].value[size_t(axis.entry.index)] + offset;
}

struct Range {
  double lo = std::numeric_limits<double>::infinity(), hi = -std::numeric_limits<double>::infinity();
  void add(double v) {
    if (!std::isfinite(v)) return;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  bool empty() const { return !(lo <= hi); }
};

void draw_line_plot(const LandscapeResult& r, bool log_scale) {
  const LandscapeAxis& a = r.request.a;
  const std::string x_label = a.label();
  if (!plot::begin("##landscape line", 13, x_label.c_str(), "loss", log_scale)) return;
  // The curve, broken where a rollout failed or a point is not computed yet: each unbroken
  // run is drawn under the one legend entry.
  std::vector<double> xs, ys;
  const auto flush = [&] {
    if (!xs.empty()) ImPlot::PlotLine("loss", xs.data(), ys.data(), int(xs.size()), plot::line(plot::kFirst));
    xs.clear();
    ys.clear();
  };
  for (int i = 0; i < a.samples; ++i) {
    const double l = r.loss[size_t(i)];
    if (!std::isfinite(l) || (log_scale && !(l > 0))) {
      flush();
      continue;
    }
    xs.push_back(axis_value(r, a, a.offset(i)));
    ys.push_back(l);
  }
  flush();
  // The point and the tangent through it: the slope the gradient predicts. On a log axis
  // the tangent of log10(loss) is drawn, which is straight there too.
  if (a.from <= 0 && 0 <= a.to && std::isfinite(r.centre_loss) && (!log_scale || r.centre_loss > 0)) {
    const double span = 0.15 * (a.to - a.from);
    const double x0 = axis_value(r, a, 0);
    const double tx[2] = {axis_value(r, a, -span), axis_value(r, a, span)};
    double ty[2];
    if (log_scale) {
      const double dy = r.slope_a / (r.centre_loss * std::log(10.0));
      ty[0] = r.centre_loss * std::pow(10.0, -dy * span);
      ty[1] = r.centre_loss * std::pow(10.0, dy * span);
    } else {
      ty[0] = r.centre_loss - r.slope_a * span;
      ty[1] = r.centre_loss + r.slope_a * span;
    }
    ImPlot::PlotLine("slope the gradient predicts", tx, ty, 2, plot::line(plot::kSecond));
    ImPlotSpec point;
    point.Marker = ImPlotMarker_Circle;
    point.MarkerSize = 4.5f;
    point.MarkerFillColor = plot::kMarker;
    point.MarkerLineColor = plot::kMarker;
    ImPlot::PlotScatter("the point", &x0, &r.centre_loss, 1, point);
  }
  ImPlot::EndPlot();
  ImGui::PushStyleColor(ImGuiCol_Text, theme::kDimText);
  ImGui::TextWrapped("slope at the point %.4g per unit of %s. Drag to pan, scroll to zoom, double-click to fit.",
                     r.slope_a, x_label.c_str());
  ImGui::PopStyleColor();
}

void draw_grid_plot(const LandscapeResult& r, bool log_scale) {
  const LandscapeAxis& a = r.request.a;
  const LandscapeAxis& b = *r.request.b;
  const auto v_of = [&](double loss) { return log_scale ? std::log10(std::max(loss, 1e-300)) : loss; };
  Range v;
  for (double l : r.loss) v.add(v_of(l));
  const std::string a_label = a.label(), b_label = b.label();
  const double a_lo = axis_value(r, a, a.from), a_hi = axis_value(r, a, a.to);
  const double b_lo = axis_value(r, b, b.from), b_hi = axis_value(r, b, b.to);
  // A new grid (other parameters or ranges) is a new plot, fitted to its cells once; the
  // user's zoom holds while it fills in.
  char id[160];
  std::snprintf(id, sizeof id, "##grid %s %g %g %s %g %g", a_label.c_str(), a_lo, a_hi, b_label.c_str(), b_lo, b_hi);
  const float side = std::min(ImGui::GetContentRegionAvail().x - ImGui::GetFontSize() * 5, ImGui::GetFontSize() * 20);
  if (ImPlot::BeginPlot(id, ImVec2(side, side), ImPlotFlags_NoTitle | ImPlotFlags_NoLegend)) {
    ImPlot::SetupAxes(a_label.c_str(), b_label.c_str());
    ImPlot::SetupAxesLimits(a_lo, a_hi, b_lo, b_hi, ImPlotCond_Once);
    ImPlot::PushPlotClipRect();
    ImDrawList* dl = ImPlot::GetPlotDrawList();
    const int columns = r.columns(), rows = r.rows();
    const double cw = (a_hi - a_lo) / columns, ch = (b_hi - b_lo) / rows;
    for (int row = 0; row < rows; ++row)
      for (int column = 0; column < columns; ++column) {
        const double l = r.loss[size_t(row * columns + column)];
        ImU32 colour = kNoResult;
        if (std::isfinite(l)) {
          const render::Rgba c =
              render::map_value(render::ColorMap::Sequential, float(v_of(l)), float(v.lo), float(v.hi));
          colour = ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, 1));
        } else if (row * columns + column >= r.computed) {
          colour = IM_COL32(30, 32, 36, 255);  // not computed yet
        }
        const ImVec2 lo = ImPlot::PlotToPixels(a_lo + column * cw, b_lo + (row + 1) * ch);  // b grows upwards
        const ImVec2 hi = ImPlot::PlotToPixels(a_lo + (column + 1) * cw, b_lo + row * ch);
        dl->AddRectFilled(lo, ImVec2(hi.x + 0.5f, hi.y + 0.5f), colour);
      }
    // The point and two directions from it, at a fixed length: steepest descent of the
    // surface as plotted (across the contours: -g scaled by each axis's range), and the
    // direction a gradient-descent step moves the parameters (-g in their own units), which
    // differ when the two parameters have different scales: poor conditioning, made visible.
    const ImVec2 centre = ImPlot::PlotToPixels(axis_value(r, a, 0), axis_value(r, b, 0));
    const float reach = 0.22f * side;
    const auto arrow = [&](double dx, double dy, ImU32 colour, float thickness) {
      const double length = std::hypot(dx, dy);
      if (!(length > 0)) return;
      const ImVec2 dir(float(dx / length), float(-dy / length));  // screen y grows downwards
      const ImVec2 tip(centre.x + dir.x * reach, centre.y + dir.y * reach);
      dl->AddLine(centre, tip, colour, thickness);
      const ImVec2 across(-dir.y, dir.x);
      dl->AddTriangleFilled(tip, ImVec2(tip.x - dir.x * 9 + across.x * 5, tip.y - dir.y * 9 + across.y * 5),
                            ImVec2(tip.x - dir.x * 9 - across.x * 5, tip.y - dir.y * 9 - across.y * 5), colour);
    };
    const double wa = a.to - a.from, wb = b.to - b.from;
    arrow(-r.slope_a / wa, -r.slope_b / wb, kStep, 1.5f);
    arrow(-r.slope_a * wa, -r.slope_b * wb, kSlope, 2.5f);
    dl->AddCircleFilled(centre, 4.5f, kPoint);
    dl->AddCircle(centre, 5.5f, IM_COL32(0, 0, 0, 255));
    ImPlot::PopPlotClipRect();
    if (ImPlot::IsPlotHovered()) {
      const ImPlotPoint m = ImPlot::GetPlotMousePos();
      const int column = int(std::floor((m.x - a_lo) / cw)), row = int(std::floor((m.y - b_lo) / ch));
      if (column >= 0 && column < columns && row >= 0 && row < rows)
        ImGui::SetTooltip("%s = %.6g\n%s = %.6g\nloss %.6g", a_label.c_str(), a_lo + (column + 0.5) * cw,
                          b_label.c_str(), b_lo + (row + 0.5) * ch, r.loss[size_t(row * columns + column)]);
    }
    ImPlot::EndPlot();
  }
  if (!v.empty()) {
    ImGui::SameLine();
    ImPlot::ColormapScale(log_scale ? "log10 loss" : "loss", v.lo, v.hi, ImVec2(0, side), "%.3g", 0,
                          plot::sequential_colormap());
  }
  ImGui::PushStyleColor(ImGuiCol_Text, theme::kDimText);
  ImGui::TextWrapped(
      "white dot: the point. Blue arrow: steepest descent as plotted (across the contours). "
      "Grey arrow: where a gradient-descent step moves the parameters (-gradient in their units). "
      "Drag to pan, scroll to zoom, double-click to fit.");
  ImGui::PopStyleColor();
}

}  // namespace

void draw_landscape_contents(const StudioState& state, CommandQueue& commands) {
  LandscapeForm& f = landscape_form();
  const Scene& scene = state.point_scene();
  // A landscape this form did not ask for (a lesson's): the form shows what it asked.
  if (const studio::LossLandscape* shown = state.trust.landscape.get(); shown && shown != f.shows) {
    f.shows = shown;
    follow_request(f, shown->latest()->request);
  }
  ImGui::TextWrapped("The loss around %s.",
                     state.optimise.iterate ? "the optimiser's current point" : "the scene's values");
  int mode = f.grid ? 1 : 0;
  ImGui::RadioButton("line", &mode, 0);
  ImGui::SetItemTooltip("The loss along one parameter entry, or along the descent direction");
  ImGui::SameLine();
  ImGui::RadioButton("grid of two parameters", &mode, 1);
  ImGui::SetItemTooltip("The loss over a grid of two entries, coloured");
  if (mode == 1 && !f.grid) choose_grid_axes(f, scene);
  f.grid = mode == 1;
  axis_editor(f.grid ? "across" : "along", f.a, scene);
  if (f.grid) axis_editor("up", f.b, scene);
  int& samples = f.grid ? f.grid_samples : f.line_samples;
  ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 4);
  ImGui::InputInt(f.grid ? "per axis" : "samples", &samples);
  ImGui::SetItemTooltip("Rollouts along each axis: a grid costs this many squared");
  samples = std::clamp(samples, 3, f.grid ? 101 : 1001);

  const bool busy = state.trust.landscape && !state.trust.landscape->job().finished();
  ImGui::BeginDisabled(busy);
  if (ImGui::Button("Compute")) {
    studio::LandscapeRequest request;
    request.scene = scene;
    request.a = to_axis(f.a, samples);
    if (f.grid) request.b = to_axis(f.b, samples);
    commands.push(command::ComputeLandscape{std::move(request)});
    f.shows = nullptr;  // the next landscape is this form's own: following it changes nothing
  }
  ImGui::SetItemTooltip("Run the rollouts in the background; the plot fills in as they arrive");
  ImGui::EndDisabled();
  if (busy && job_progress(state.trust.landscape->job(), "rollouts")) state.trust.landscape->cancel();
  ImGui::SameLine();
  ImGui::Checkbox("log", &f.log_scale);
  ImGui::SetItemTooltip("Plot log10 of the loss (when it is positive everywhere)");
  if (!state.trust.landscape) return;
  const auto result = state.trust.landscape->latest();
  if (!result->error.empty() && result->error != "cancelled") {
    ImGui::PushStyleColor(ImGuiCol_Text, theme::kErrorText);
    ImGui::TextWrapped("%s", result->error.c_str());
    ImGui::PopStyleColor();
    return;
  }
  if (result->computed == 0 && !busy) return;
  const bool positive = std::all_of(result->loss.begin(), result->loss.end(), [](double l) { return !(l <= 0); }) &&
                        result->centre_loss > 0;
  const bool log_scale = f.log_scale && positive;
  ImGui::Text("loss at the point %.6g", result->centre_loss);
  if (result->failed > 0) {
    ImGui::SameLine();
    ImGui::TextColored(theme::kWarningText, "(%d rollouts blew up: gaps)", result->failed);
  }
  if (result->request.b)
    draw_grid_plot(*result, log_scale);
  else
    draw_line_plot(*result, log_scale);
  if (result->error == "cancelled") ImGui::TextDisabled("cancelled after %d points", result->computed);
}

}  // namespace nudge::gui
