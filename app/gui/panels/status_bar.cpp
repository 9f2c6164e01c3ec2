// One line at the bottom: frame rate, simulated time, the rollout and the device.
#include <imgui.h>
#include <imgui_internal.h>  // BeginViewportSideBar

#include "gui/panels/panels.h"
#include "gui/theme.h"

namespace nudge::gui {

void draw_status_bar(const StudioState& state) {
  ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(8, 2));
  constexpr ImGuiWindowFlags kFlags = ImGuiWindowFlags_NoScrollbar | ImGuiWindowFlags_NoSavedSettings;
  ImGui::BeginViewportSideBar("##status", ImGui::GetMainViewport(), ImGuiDir_Down, ImGui::GetFrameHeight(), kFlags);
  const double fps = state.ui.frame_seconds > 0 ? 1.0 / state.ui.frame_seconds : 0;
  ImGui::Text("%.0f fps (%.1f ms)", fps, state.ui.frame_seconds * 1000);
  ImGui::SameLine(0, 24);
  const studio::Playback& play = state.shown.playback;
  if (state.live.play)
    // The real-time factor of live play: simulated seconds per second of play.
    ImGui::TextColored(theme::kWarningText, "LIVE t = %.3f s, %.2fx real time", state.live.play->time(),
                       state.live.play->real_time_factor());
  else
    ImGui::Text("t = %.3f / %.3f s", play.sim_time(), play.duration());
  ImGui::SameLine(0, 24);
  const studio::RolloutResult* current = state.shown.current();
  if (!current)
    ImGui::TextColored(theme::kWarningText, "computing motion...");
  else if (!current->ok())
    ImGui::TextColored(theme::kErrorText, "rollout failed (see log)");
  else if (state.optimise.iterate)
    ImGui::Text("loss %.6g   optimiser iteration %d", current->evaluation.loss, state.optimise.iterate->iteration);
  else if (current->seconds > 0)
    // The real-time factor, as MuJoCo's simulate shows it: simulated seconds per second of
    // computing the rollout.
    ImGui::Text(play.duration() / current->seconds >= 10 ? "loss %.6g   rollout %.0f ms, %.0fx real time"
                                                         : "loss %.6g   rollout %.0f ms, %.2gx real time",
                current->evaluation.loss, current->seconds * 1000, play.duration() / current->seconds);
  else
    ImGui::Text("loss %.6g   rollout %.0f ms", current->evaluation.loss, current->seconds * 1000);
  if (state.ui.frame_export && !state.ui.frame_export->job().finished()) {
    ImGui::SameLine(0, 24);
    ImGui::TextColored(theme::kWarningText, "exporting frames %d / %d", state.ui.frame_export->job().done(),
                       state.ui.frame_export->job().total());
  }
  ImGui::SameLine(0, 24);
  ImGui::TextDisabled("%s", state.ui.device_name.c_str());
  ImGui::End();
  ImGui::PopStyleVar();
}

}  // namespace nudge::gui
