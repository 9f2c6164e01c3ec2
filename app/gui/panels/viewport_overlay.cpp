// What is written over the 3D view: the error banner of the last failed action.
#include <imgui.h>

#include "gui/panels/panels.h"
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

}  // namespace nudge::gui
