// Play, pause, step, scrub, speed and loop for the motion shown.
#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "gui/panels/panels.h"
#include "nudge/render/color_map.h"
#include "view/time_strip.h"

namespace nudge::gui {

namespace {

ImU32 diverging(float v) {  // v in [-1, 1]
  const render::Rgba c = render::map_color(render::ColorMap::Diverging, 0.5f + 0.5f * v);
  return ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, 1));
}

// A strip under the scrubber, aligned with it step for step: its label on the left, a
// dark background, and a click or drag on it seeks.
struct Track {
  ImVec2 origin;  // top left, screen pixels
  float width = 0, height = 0;
  int steps = 1;
  int step_at(float x) const { return std::clamp(int((x - origin.x) / width * float(steps) + 0.5f), 0, steps); }
  // Greyed text in place of the track's content (while it is computed, or why it is not).
  void show_message(const char* text) const {
    ImGui::GetWindowDrawList()->AddText(ImVec2(origin.x + 6, origin.y + 0.5f * (height - ImGui::GetFontSize())),
                                        ImGui::GetColorU32(ImGuiCol_TextDisabled), text);
  }
};

Track begin_track(studio::Playback& play, const char* label, float left, float right) {
  Track track;
  track.height = 2 * ImGui::GetFrameHeight() - ImGui::GetStyle().ItemSpacing.y;
  const ImVec2 label_pos = ImGui::GetCursorScreenPos();
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddText(ImVec2(label_pos.x, label_pos.y + 0.5f * (track.height - ImGui::GetFontSize())),
              ImGui::GetColorU32(ImGuiCol_TextDisabled), label);
  ImGui::SetCursorScreenPos(ImVec2(left, label_pos.y));
  track.origin = ImGui::GetCursorScreenPos();
  track.width = std::max(1.0f, right - left);
  track.steps = std::max(1, play.frame_count() - 1);
  ImGui::InvisibleButton(label, ImVec2(track.width, track.height));
  if (ImGui::IsItemActive()) play.seek(track.step_at(ImGui::GetIO().MousePos.x));
  dl->AddRectFilled(track.origin, ImVec2(track.origin.x + track.width, track.origin.y + track.height),
                    IM_COL32(24, 26, 30, 255));
  return track;
}

// The control gradients of the shown iterate under the scrubber, step for step, with the
// play head; a click or drag on it seeks. Its legend sits in the space right of it.
void control_gradient_track(const StudioState& state, studio::Playback& play, float left, float right) {
  const Track track = begin_track(play, "dL/d control", left, right);
  const ImVec2 p0 = track.origin;
  const float width = track.width, height = track.height;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const int steps = track.steps;
  const studio::OptimizationSnapshot* snap = state.optimise.iterate.get();
  const Parameter* controls = snap ? &snap->scene.params[ParamId::Controls] : nullptr;
  const view::HeatStrip strip = controls ? view::control_gradient_strip(*controls, int(width)) : view::HeatStrip{};
  if (strip.rows == 0) {
    track.show_message("evaluating the gradient...");
    return;
  }
  const float row_height = height / float(strip.rows);
  const float column_width = width / float(strip.columns);
  for (int row = 0; row < strip.rows; ++row)
    for (int column = 0; column < strip.columns; ++column) {
      const float x = p0.x + float(column) * column_width, y = p0.y + float(row) * row_height;
      dl->AddRectFilled(ImVec2(x, y), ImVec2(x + column_width + 0.5f, y + row_height - (strip.rows > 1 ? 1.0f : 0.0f)),
                        diverging(strip.at(row, column)));
    }
  const float head = p0.x + float(play.frame()) / float(steps) * width;
  // Dark under light, so the head shows on white (zero) cells too.
  dl->AddLine(ImVec2(head, p0.y), ImVec2(head, p0.y + height), IM_COL32(0, 0, 0, 255), 4.0f);
  dl->AddLine(ImVec2(head, p0.y), ImVec2(head, p0.y + height), IM_COL32(255, 220, 90, 255), 1.5f);
  if (ImGui::IsItemHovered()) {
    const int row = std::clamp(int((ImGui::GetIO().MousePos.y - p0.y) / row_height), 0, strip.rows - 1);
    const int step = std::min(track.step_at(ImGui::GetIO().MousePos.x), controls->rows - 1);
    ImGui::SetTooltip("channel %d, step %d\ndL/du = %.4g\n(red: raising this control raises the loss)", row, step,
                      controls->grad[size_t(step) * size_t(controls->cols) + size_t(row)]);
  }
  // Legend: the diverging scale and its end values.
  const float legend_x = right + ImGui::GetStyle().ItemSpacing.x, bar = 4 * ImGui::GetFrameHeight();
  for (int i = 0; i < 32; ++i) {
    const float x = legend_x + bar * float(i) / 32;
    dl->AddRectFilled(ImVec2(x, p0.y + 2), ImVec2(x + bar / 32 + 0.5f, p0.y + 0.45f * height),
                      diverging(-1.0f + 2.0f * float(i) / 31));
  }
  char text[64];
  std::snprintf(text, sizeof text, "+-%.3g", strip.scale);
  dl->AddText(ImVec2(legend_x, p0.y + 0.5f * height), ImGui::GetColorU32(ImGuiCol_Text), text);
}

// What the controller adds to each of its channels, step for step along the shown
// iterate's motion, under the scrubber (computed once per iterate).
void controller_output_track(const StudioState& state, studio::Playback& play, OptimiseState::ControllerOutputs& cache,
                             float left, float right) {
  const Track track = begin_track(play, "controller", left, right);
  const ImVec2 p0 = track.origin;
  const float width = track.width, height = track.height;
  const studio::OptimizationSnapshot* snap = state.optimise.iterate.get();
  if (!snap || !snap->scene.controller.enabled()) {
    track.show_message("evaluating the motion...");
    return;
  }
  const Controller& controller = snap->scene.controller;
  const int outputs = controller.layers.back().size;
  if (cache.of != snap || cache.columns != int(width)) {
    cache.of = snap;
    cache.columns = int(width);
    cache.values = controller_outputs(snap->scene, snap->trajectory);
    cache.strip = view::step_strip(cache.values, snap->trajectory.steps, outputs, int(width));
  }
  const view::HeatStrip& strip = cache.strip;
  if (strip.rows == 0) {
    track.show_message("the controller's outputs are all zero");
    return;
  }
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const float row_height = height / float(strip.rows), column_width = width / float(strip.columns);
  for (int row = 0; row < strip.rows; ++row)
    for (int column = 0; column < strip.columns; ++column) {
      const float x = p0.x + float(column) * column_width, y = p0.y + float(row) * row_height;
      dl->AddRectFilled(ImVec2(x, y), ImVec2(x + column_width + 0.5f, y + row_height - (strip.rows > 1 ? 1.0f : 0.0f)),
                        diverging(strip.at(row, column)));
    }
  const float head = p0.x + float(play.frame()) / float(track.steps) * width;
  dl->AddLine(ImVec2(head, p0.y), ImVec2(head, p0.y + height), IM_COL32(0, 0, 0, 255), 4.0f);
  dl->AddLine(ImVec2(head, p0.y), ImVec2(head, p0.y + height), IM_COL32(255, 220, 90, 255), 1.5f);
  if (ImGui::IsItemHovered()) {
    const int row = std::clamp(int((ImGui::GetIO().MousePos.y - p0.y) / row_height), 0, strip.rows - 1);
    const int step = std::clamp(track.step_at(ImGui::GetIO().MousePos.x), 0, snap->trajectory.steps - 1);
    ImGui::SetTooltip("output %d -> channel %d, step %d\nadds %.4g to the control", row,
                      controller.channels[size_t(row)], step,
                      cache.values[size_t(step) * size_t(outputs) + size_t(row)]);
  }
  char text[64];
  std::snprintf(text, sizeof text, "+-%.3g", strip.scale);
  dl->AddText(ImVec2(right + ImGui::GetStyle().ItemSpacing.x, p0.y + 0.5f * height), ImGui::GetColorU32(ImGuiCol_Text),
              text);
}

// |dL/dx_t| against t on a log scale under the scrubber: how much the loss depends on the
// state at each step, growing or fading as the adjoint flows back from the end. Steps
// before a truncated horizon are shaded: nothing flows back there.
void adjoint_track(const StudioState& state, studio::Playback& play, float left, float right) {
  const Track track = begin_track(play, "|dL/dx_t|", left, right);
  const ImVec2 p0 = track.origin;
  const float width = track.width, height = track.height;
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const int steps = track.steps;
  const auto& result = state.trust.adjoints;
  const char* waiting = nullptr;
  if (!result)
    waiting = "computing the adjoint...";
  else if (!result->error.empty())
    waiting = result->error.c_str();
  else if (int(result->x_norm.size()) != steps + 1)
    waiting = "computing the adjoint...";
  if (waiting) {
    track.show_message(waiting);
    return;
  }
  const std::vector<double>& norm = result->x_norm;
  double lo = INFINITY, hi = 0;
  for (double v : norm)
    if (v > 0) lo = std::min(lo, v), hi = std::max(hi, v);
  const float x_of_step = width / float(steps);
  if (result->horizon > 0 && result->horizon < steps)
    dl->AddRectFilled(p0, ImVec2(p0.x + float(steps - result->horizon) * x_of_step, p0.y + height),
                      IM_COL32(60, 45, 45, 255));
  if (hi > 0) {
    const double llo = std::log10(lo), lhi = std::max(std::log10(hi), llo + 1e-9);
    std::vector<ImVec2> run;
    const auto flush = [&] {
      if (run.size() > 1) dl->AddPolyline(run.data(), int(run.size()), IM_COL32(240, 170, 60, 255), 1.5f);
      run.clear();
    };
    const int stride = std::max(1, steps / int(width));  // about one point per pixel
    for (int t = 0; t <= steps; t += stride) {
      if (!(norm[size_t(t)] > 0)) {
        flush();
        continue;
      }
      const float y = float((std::log10(norm[size_t(t)]) - llo) / (lhi - llo));
      run.emplace_back(p0.x + float(t) * x_of_step, p0.y + height - 2 - y * (height - 4));
    }
    flush();
  }
  const float head = p0.x + float(play.frame()) * x_of_step;
  dl->AddLine(ImVec2(head, p0.y), ImVec2(head, p0.y + height), IM_COL32(255, 220, 90, 255), 1.5f);
  if (ImGui::IsItemHovered()) {
    const int t = track.step_at(ImGui::GetIO().MousePos.x);
    ImGui::SetTooltip("step %d\n|dL/dx| = %.4g\n|dL/dv| = %.4g", t, norm[size_t(t)], result->v_norm[size_t(t)]);
  }
  char text[64];
  std::snprintf(text, sizeof text, "%.2g .. %.2g", hi > 0 ? lo : 0.0, hi);
  const float legend_x = right + ImGui::GetStyle().ItemSpacing.x;
  dl->AddText(ImVec2(legend_x, p0.y), ImGui::GetColorU32(ImGuiCol_Text), "log scale");
  dl->AddText(ImVec2(legend_x, p0.y + 0.5f * height), ImGui::GetColorU32(ImGuiCol_TextDisabled), text);
}

// Simulated seconds per second of play, dragged on a log scale.
void speed_control(studio::Playback& play) {
  float speed = static_cast<float>(play.speed());
  ImGui::SetNextItemWidth(4.5f * ImGui::GetFrameHeight());
  if (ImGui::DragFloat("speed", &speed, 0.01f, float(studio::Playback::kMinSpeed), float(studio::Playback::kMaxSpeed),
                       "%.2fx", ImGuiSliderFlags_Logarithmic))
    play.set_speed(speed);
}

}  // namespace

void draw_timeline(const StudioState& state, studio::Playback& play,
                   OptimiseState::ControllerOutputs& controller_outputs, CommandQueue& commands, bool* open) {
  if (!begin_panel(panel_name::kTimeline, open)) {
    end_panel();
    return;
  }
  const float button = ImGui::GetFrameHeight() * 1.6f;
  // Live play has no frames to scrub: play or pause, the speed, and the way back.
  if (state.live.play) {
    if (ImGui::Button(play.playing() ? "Pause" : "Play", ImVec2(button * 1.8f, 0))) play.toggle();
    ImGui::SetItemTooltip("Play or pause live play (Space)");
    ImGui::SameLine();
    ImGui::TextColored(ImVec4(0.95f, 0.78f, 0.35f, 1), "LIVE  t = %.3f s  (step %d)", state.live.play->time(),
                       state.live.play->step_index());
    ImGui::SameLine();
    speed_control(play);
    ImGui::SameLine();
    if (ImGui::Button("Back to the recorded motion")) commands.push(command::Live{false});
    ImGui::SetItemTooltip("End live play (it changes nothing in the scene)");
    end_panel();
    return;
  }
  if (ImGui::Button("|<", ImVec2(button, 0))) play.seek(0);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("First frame (Home)");
  ImGui::SameLine();
  if (ImGui::Button("<", ImVec2(button, 0))) play.step_back();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Step back (Left)");
  ImGui::SameLine();
  if (ImGui::Button(play.playing() ? "Pause" : "Play", ImVec2(button * 1.8f, 0))) play.toggle();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Play or pause (Space)");
  ImGui::SameLine();
  if (ImGui::Button(">", ImVec2(button, 0))) play.step_forward();
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Step forward (Right)");
  ImGui::SameLine();
  if (ImGui::Button(">|", ImVec2(button, 0))) play.seek(play.frame_count() - 1);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Last frame (End)");
  ImGui::SameLine();

  // The scrubber takes what the speed and loop controls leave.
  const float controls = ImGui::CalcTextSize("speed").x + ImGui::CalcTextSize("Loop").x + 9 * ImGui::GetFrameHeight();
  ImGui::SetNextItemWidth(std::max(60.0f, ImGui::GetContentRegionAvail().x - controls));
  int frame = play.frame();
  char label[96];
  std::snprintf(label, sizeof label, "frame %d / %d   t = %.3f s", frame, play.frame_count() - 1, play.sim_time());
  if (ImGui::SliderInt("##frame", &frame, 0, std::max(0, play.frame_count() - 1), label)) play.seek(frame);
  // Tracks under the slider line up with its grab's centre, which ImGui keeps 2 px plus
  // half a grab from either end (the grab is GrabMinSize for more frames than pixels).
  const float grab = 2.0f + 0.5f * std::max(ImGui::GetStyle().GrabMinSize,
                                            (ImGui::GetItemRectSize().x - 4.0f) / float(play.frame_count()));
  const float track_left = ImGui::GetItemRectMin().x + grab, track_right = ImGui::GetItemRectMax().x - grab;
  ImGui::SameLine();
  speed_control(play);
  ImGui::SameLine();
  bool loop = play.loop();
  if (ImGui::Checkbox("Loop", &loop)) play.set_loop(loop);
  if (state.ui.view.control_gradients && state.scene().channels > 0)
    control_gradient_track(state, play, track_left, track_right);
  if (state.ui.view.controller_outputs && state.scene().controller.enabled())
    controller_output_track(state, play, controller_outputs, track_left, track_right);
  if (state.ui.view.adjoint_track) adjoint_track(state, play, track_left, track_right);
  end_panel();
}

}  // namespace nudge::gui
