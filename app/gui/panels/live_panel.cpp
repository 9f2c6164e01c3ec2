// The Live tab: live play's clock and real-time factor, a slider per control channel to
// hold it by hand (as MuJoCo's simulate's Control section), and the contacts view.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "gui/panels/panels.h"
#include "gui/theme.h"
#include "view/actuator_arrows.h"

namespace nudge::gui {

namespace {

// The range of channel c's slider: what the controls parameter spans, and at least [-1, 1].
std::pair<float, float> channel_range(const Scene& scene, int c) {
  const std::vector<double>& u = scene.params[ParamId::Controls].value;
  double lo = -1, hi = 1;
  for (size_t k = size_t(c); k < u.size(); k += size_t(scene.channels))
    lo = std::min(lo, u[k]), hi = std::max(hi, u[k]);
  return {float(lo), float(hi)};
}

void control_sliders(const StudioState& state, studio::LivePlay& play) {
  const Scene& scene = play.scene();
  if (scene.channels <= 0) {
    ImGui::TextDisabled("This scene has no control channels.");
    return;
  }
  ImGui::SeparatorText("Controls");
  ImGui::TextWrapped("Tick a channel, or drag its slider, to hold it at a value; untick to give it back to the scene.");
  const int row = std::min(play.step_index(), std::max(scene.settings.steps - 1, 0));
  const std::vector<double> scene_values = view::channel_values_at(scene, nullptr, row);
  for (int c = 0; c < scene.channels; ++c) {
    ImGui::PushID(c);
    const std::optional<double> held = play.held()[size_t(c)];
    bool holding = held.has_value();
    if (ImGui::Checkbox("##hold", &holding)) {
      const Status set = play.hold(c, holding ? std::optional<double>(scene_values[size_t(c)]) : std::nullopt);
      (void)set;  // the channel exists: it cannot fail
    }
    if (ImGui::IsItemHovered())
      ImGui::SetItemTooltip(holding ? "held by hand: untick to give channel %d back to the scene's controls"
                                    : "channel %d follows the scene's controls: tick to hold it",
                            c);
    ImGui::SameLine();
    const auto [lo, hi] = channel_range(scene, c);
    float value = float(held ? *held : scene_values[size_t(c)]);
    char label[32];
    std::snprintf(label, sizeof label, "channel %d", c);
    ImGui::SetNextItemWidth(-ImGui::CalcTextSize("channel 00").x - ImGui::GetStyle().ItemSpacing.x);
    if (!holding) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    if (ImGui::SliderFloat(label, &value, lo, hi, "%.3f")) (void)play.hold(c, double(value));
    if (!holding) ImGui::PopStyleColor();
    ImGui::SetItemTooltip("what channel %d carries (the scene's controls at this step, before a controller's part)", c);
    ImGui::PopID();
  }
  (void)state;
}

}  // namespace

void draw_live_contents(const StudioState& state, LiveState& live, ViewFlags& view, CommandQueue& commands) {
  ImGui::Checkbox("Show contacts", &view.contacts);
  ImGui::SetItemTooltip(
      "Where things touch (dots) and the force of each contact (arrows, to the scale in the viewport's corner):\n"
      "live play's, or the recorded motion's at the play head.");
  if (!live.play) {
    ImGui::SeparatorText("Live play");
    ImGui::TextWrapped(
        "Run the scene from the play head on as you watch: pull a particle or a body with Ctrl+right drag in "
        "the scene, hold control channels by hand, see the contacts. The recorded motion stays as it is.");
    const bool ready = state.shown.current() && state.shown.current()->ok();
    if (!ready) ImGui::BeginDisabled();
    char label[64];
    std::snprintf(label, sizeof label, "Start live play at frame %d", state.shown.playback.frame());
    if (ImGui::Button(label)) commands.push(command::Live{true});
    if (!ready) ImGui::EndDisabled();
    ImGui::SetItemTooltip(ready ? "Simulate on from the state shown; Space pauses" : "waiting for the motion");
    return;
  }
  studio::LivePlay& play = *live.play;
  ImGui::SeparatorText("Live play");
  ImGui::Text("t = %.3f s (step %d)", play.time(), play.step_index());
  ImGui::SameLine(0, 16);
  ImGui::TextDisabled("%.2fx real time", play.real_time_factor());
  ImGui::SetItemTooltip(
      "simulated seconds per second of play: below the speed asked, the scene costs more than the "
      "window's frame allows");
  if (!play.failure().empty()) ImGui::TextColored(theme::kErrorText, "stopped: %s", play.failure().c_str());
  if (play.pulled()) {
    const Pull& pull = *play.pulled();
    ImGui::Text("pulling %s %d", pull.kind == Pull::Kind::Particle ? "particle" : "body", pull.index);
  } else {
    ImGui::TextDisabled("Ctrl+right drag on a particle or body pulls it");
  }
  if (ImGui::Button("Stop: back to the recorded motion")) commands.push(command::Live{false});
  ImGui::SetItemTooltip("live play changes nothing in the scene; its motion is dropped");
  control_sliders(state, play);
}

}  // namespace nudge::gui
