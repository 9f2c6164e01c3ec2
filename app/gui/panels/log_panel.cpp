// The log: what the studio did and what went wrong, newest at the bottom.
#include <imgui.h>

#include "gui/panels/panels.h"
#include "gui/theme.h"

namespace nudge::gui {

void draw_log_panel(studio::AppLog& log, UiState& ui, bool* open) {
  if (!begin_panel(panel_name::kLog, open)) {
    end_panel();
    return;
  }
  const std::uint64_t generation = log.generation();
  if (ImGui::SmallButton("Clear")) log.clear();
  ImGui::SetItemTooltip("Empty the log (it is also written to stderr)");
  ImGui::SameLine();
  ImGui::TextDisabled("%d error(s)", log.error_count());
  ImGui::BeginChild("entries", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
  const bool changed = generation != ui.log_generation_shown;
  if (changed) ui.log_entries = log.entries();
  const std::vector<studio::LogEntry>& entries = ui.log_entries;
  ImGuiListClipper clipper;
  clipper.Begin(static_cast<int>(entries.size()));
  while (clipper.Step())
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      const studio::LogEntry& e = entries[size_t(i)];
      ImGui::TextDisabled("%8.2f", e.seconds);
      ImGui::SameLine();
      if (e.level == studio::LogLevel::Error)
        ImGui::TextColored(theme::kErrorText, "error: %s", e.message.c_str());
      else if (e.level == studio::LogLevel::Warning)
        ImGui::TextColored(theme::kWarningText, "warning: %s", e.message.c_str());
      else
        ImGui::TextUnformatted(e.message.c_str());
    }
  if (changed) {  // something new: show it
    ImGui::SetScrollHereY(1.0f);
    ui.log_generation_shown = generation;
  }
  ImGui::EndChild();
  end_panel();
}

}  // namespace nudge::gui
