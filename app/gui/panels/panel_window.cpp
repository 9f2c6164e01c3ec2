#include <imgui.h>

#include <cstdio>

#include "gui/panels/panels.h"

namespace nudge::gui {

bool begin_panel(const char* name, bool* open) { return ImGui::Begin(name, open, ImGuiWindowFlags_NoCollapse); }

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
