// The side panels' dock windows, and the progress line of their background jobs.
#include <imgui.h>
#include <imgui_internal.h>  // the dock of a window, and whether a layout knows one

#include <cstdio>

#include "gui/panels/panels.h"

namespace nudge::gui {

bool begin_panel(const char* name, bool* open) {
  // A panel a saved layout does not know yet (one added since it was written) first docks
  // beside the Inspector, where the default layout puts the side panels.
  if (!ImGui::FindWindowSettingsByID(ImHashStr(name)))
    if (const ImGuiWindow* inspector = ImGui::FindWindowByName(panel_name::kInspector); inspector && inspector->DockId)
      ImGui::SetNextWindowDockID(inspector->DockId, ImGuiCond_FirstUseEver);
  return ImGui::Begin(name, open, ImGuiWindowFlags_NoCollapse);
}

void end_panel() { ImGui::End(); }

bool job_progress(const studio::BackgroundJob& job, const char* unit) {
  ImGui::PushID(unit);
  ImGui::SameLine();
  const bool cancel = ImGui::Button("Cancel");
  ImGui::SameLine();
  char overlay[64];
  std::snprintf(overlay, sizeof overlay, "%d / %d %s", job.done(), job.total(), unit);
  ImGui::ProgressBar(job.total() > 0 ? float(job.done()) / float(job.total()) : 0.0f, ImVec2(-1, 0), overlay);
  ImGui::PopID();
  return cancel;
}

}  // namespace nudge::gui
