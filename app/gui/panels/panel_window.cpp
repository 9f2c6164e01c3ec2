#include <imgui.h>

#include "gui/panels/panels.h"

namespace nudge::gui {

bool begin_panel(const char* name, const studio::Rect& area, bool titled) {
  ImGui::SetNextWindowPos(ImVec2(area.x, area.y));
  ImGui::SetNextWindowSize(ImVec2(area.width, area.height));
  constexpr ImGuiWindowFlags kFlags = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                                      ImGuiWindowFlags_NoCollapse |
                                      ImGuiWindowFlags_NoBringToFrontOnFocus |
                                      ImGuiWindowFlags_NoSavedSettings;
  return ImGui::Begin(name, nullptr, titled ? kFlags : kFlags | ImGuiWindowFlags_NoTitleBar);
}

void end_panel() { ImGui::End(); }

}  // namespace nudge::gui
