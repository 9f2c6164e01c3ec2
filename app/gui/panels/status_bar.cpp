// One line at the bottom: frame rate, simulated time, the rollout and the device.
#include <imgui.h>

#include "gui/panels/panels.h"
#include "gui/theme.h"

namespace nudge::gui {

void draw_status_bar(const StudioState& state, const studio::Rect& area) {
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(8, 2));
  begin_panel("##status", area, false);
  const double fps = state.frame_seconds > 0 ? 1.0 / state.frame_seconds : 0;
  ImGui::Text("%.0f fps (%.1f ms)", fps, state.frame_seconds * 1000);
  ImGui::SameLine(0, 24);
  const studio::Playback& play = state.playback;
  ImGui::Text("t = %.3f / %.3f s", play.sim_time(), play.duration());
  ImGui::SameLine(0, 24);
  const bool current = state.motion && state.motion->generation == state.motion_request;
  if (!current)
    ImGui::TextColored(theme::kWarningText, "computing motion...");
  else if (!state.motion->ok())
    ImGui::TextColored(theme::kErrorText, "rollout failed (see log)");
  else if (state.iterate)
    ImGui::Text("loss %.6g   optimiser iteration %d", state.motion->evaluation.loss, state.iterate->iteration);
  else
    ImGui::Text("loss %.6g   rollout %.0f ms", state.motion->evaluation.loss, state.motion->seconds * 1000);
  if (state.frame_export && !state.frame_export->job().finished()) {
    ImGui::SameLine(0, 24);
    ImGui::TextColored(theme::kWarningText, "exporting frames %d / %d", state.frame_export->job().done(),
                       state.frame_export->job().total());
  }
  ImGui::SameLine(0, 24);
  ImGui::TextDisabled("%s", state.device_name.c_str());
  end_panel();
  ImGui::PopStyleVar();
}

}  // namespace nudge::gui
