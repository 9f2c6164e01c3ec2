// Play, pause, step, scrub, speed and loop for the motion shown.
#include <imgui.h>

#include <cstdio>

#include "gui/panels/panels.h"

namespace nudge::gui {

void draw_timeline(StudioState& state, const studio::Rect& area) {
  begin_panel("Timeline", area, false);
  studio::Playback& play = state.playback;
  const float button = ImGui::GetFrameHeight() * 1.6f;
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
  ImGui::SameLine();
  float speed = static_cast<float>(play.speed());
  ImGui::SetNextItemWidth(4.5f * ImGui::GetFrameHeight());
  if (ImGui::DragFloat("speed", &speed, 0.01f, float(studio::Playback::kMinSpeed),
                       float(studio::Playback::kMaxSpeed), "%.2fx", ImGuiSliderFlags_Logarithmic))
    play.set_speed(speed);
  ImGui::SameLine();
  bool loop = play.loop();
  if (ImGui::Checkbox("Loop", &loop)) play.set_loop(loop);
  end_panel();
}

}  // namespace nudge::gui
