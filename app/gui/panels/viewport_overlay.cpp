// What is written over the 3D view: the error banner of the last failed action, and the
// gradient arrows' legend.
#include <imgui.h>

#include <cmath>

#include <string>

#include "gui/panels/panels.h"
#include "nudge/parameter_facts.h"
#include "gui/theme.h"

namespace nudge::gui {

void draw_viewport_overlay(UiState& ui, const studio::Rect& viewport) {
  if (ui.banner.empty() || viewport.empty()) return;
  const float margin = 8;
  ImGui::SetNextWindowPos(ImVec2(viewport.x + margin, viewport.y + margin));
  ImGui::SetNextWindowSize(ImVec2(viewport.width - 2 * margin, 0));
  ImGui::PushStyleColor(ImGuiCol_WindowBg, theme::kErrorBanner);
  ImGui::PushStyleColor(ImGuiCol_Border, theme::kErrorBanner);
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 1, 1, 1));
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(12, 10));
  constexpr ImGuiWindowFlags kFlags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                      ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_AlwaysAutoResize;
  if (ImGui::Begin("##error banner", nullptr, kFlags)) {
    ImGui::PushTextWrapPos(viewport.width - 2 * margin - 80);
    ImGui::TextUnformatted(ui.banner.c_str());
    ImGui::PopTextWrapPos();
    ImGui::SameLine(viewport.width - 2 * margin - 70);
    if (ImGui::Button("Dismiss")) ui.banner.clear();
  }
  ImGui::End();
  ImGui::PopStyleVar();
  ImGui::PopStyleColor(3);
}

void draw_arrow_scale_legend(ViewFlags& view, const studio::Rect& viewport) {
  if (view.arrow_scale_drawn <= 0 || viewport.empty()) return;
  const float margin = 8;
  ImGui::SetNextWindowPos(ImVec2(viewport.x + margin, viewport.bottom() - margin), ImGuiCond_Always, ImVec2(0, 1));
  ImGui::SetNextWindowBgAlpha(0.85f);
  constexpr ImGuiWindowFlags kFlags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                      ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_AlwaysAutoResize |
                                      ImGuiWindowFlags_NoDocking | ImGuiWindowFlags_NoFocusOnAppearing;
  if (ImGui::Begin("##arrow scale", nullptr, kFlags)) {
    const std::string label = view::gradient_overlay_label(view.gradient);
    const std::string_view unit = param_facts(view::gradient_overlay_parameter(view.gradient)).unit;
    ImGui::Text("%s: arrows point where the loss increases fastest", label.c_str());
    ImGui::Text("1 m of arrow = %.3g%s%s", 1.0 / double(view.arrow_scale_drawn), unit.empty() ? "" : " loss per ",
                std::string(unit).c_str());
    int mode = view.arrow_scale.fixed ? 0 : 1;
    if (ImGui::RadioButton("fixed scale", &mode, 0)) view.arrow_scale.fixed = true;
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip(
          "Lengths are the gradient's size times one scale, set from the first gradient shown:\n"
          "as the optimiser converges the arrows shrink with the gradient.");
    ImGui::SameLine();
    if (ImGui::RadioButton("longest normalised", &mode, 1)) view.arrow_scale.fixed = false;
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip(
          "The longest arrow is a third of the scene's size, however small the gradient:\n"
          "directions compare, sizes do not.");
    if (view.arrow_scale.fixed) {
      ImGui::SameLine();
      if (ImGui::SmallButton("Rescale")) view.arrow_scale.metres_per_unit = 0;  // set again from the next frame
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("Set the fixed scale from the gradient shown now.");
    }
  }
  ImGui::End();
}

void draw_contact_legend(const StudioState& state, const studio::Rect& viewport) {
  if (!state.ui.view.contacts || viewport.empty() || state.live.contact_scale <= 0) return;
  const float margin = 8;
  ImGui::SetNextWindowPos(ImVec2(viewport.right() - margin, viewport.bottom() - margin), ImGuiCond_Always,
                          ImVec2(1, 1));
  ImGui::SetNextWindowBgAlpha(0.85f);
  constexpr ImGuiWindowFlags kFlags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                      ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_AlwaysAutoResize |
                                      ImGuiWindowFlags_NoDocking | ImGuiWindowFlags_NoFocusOnAppearing |
                                      ImGuiWindowFlags_NoInputs;
  if (ImGui::Begin("##contact scale", nullptr, kFlags)) {
    double total = 0;
    for (const Contact& c : state.live.contacts)
      total += std::sqrt(c.force[0] * c.force[0] + c.force[1] * c.force[1] + c.force[2] * c.force[2]);
    ImGui::Text("%zu contact%s%s, %.3g N in all", state.live.contacts.size(),
                state.live.contacts.size() == 1 ? "" : "s", state.live.play ? " (live)" : "", total);
    ImGui::Text("force arrows: 1 m = %.3g N", 1.0 / state.live.contact_scale);
  }
  ImGui::End();
}

void draw_gizmo_tools(const StudioState& state, EditorState& editor, const studio::Rect& viewport) {
  const Selection::Kind kind = editor.selection.kind;
  if ((kind != Selection::Kind::Particle && kind != Selection::Kind::Body) ||
      !selection_exists(state.point_scene(), editor.selection) || viewport.empty())
    return;
  const float margin = 8;
  // Below the error banner's place when there is one.
  const float top = viewport.y + margin + (state.ui.banner.empty() ? 0 : 3 * ImGui::GetFrameHeight());
  ImGui::SetNextWindowPos(ImVec2(viewport.x + margin, top));
  ImGui::SetNextWindowBgAlpha(0.8f);
  constexpr ImGuiWindowFlags kFlags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                      ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_AlwaysAutoResize |
                                      ImGuiWindowFlags_NoDocking | ImGuiWindowFlags_NoFocusOnAppearing;
  if (ImGui::Begin("##gizmo tools", nullptr, kFlags)) {
    using Tool = EditorState::Tool;
    const struct {
      Tool tool;
      const char* label;
      const char* tip;
    } tools[] = {{Tool::Move, "Move", "W: arrows along x, y, z and a square in the view plane"},
                 {Tool::Turn, "Turn",
                  "E: rings about x, y, z and the view direction, about their centre (15 degree "
                  "steps with Snap to Grid)"},
                 {Tool::Scale, "Scale", "S: scale their distances from their centre"}};
    for (const auto& t : tools) {
      if (&t != tools) ImGui::SameLine();
      const bool on = editor.tool == t.tool;
      if (on) ImGui::PushStyleColor(ImGuiCol_Button, ImGui::GetStyle().Colors[ImGuiCol_ButtonActive]);
      if (ImGui::SmallButton(t.label)) editor.tool = t.tool;
      if (on) ImGui::PopStyleColor();
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", t.tip);
    }
  }
  ImGui::End();
}

}  // namespace nudge::gui
