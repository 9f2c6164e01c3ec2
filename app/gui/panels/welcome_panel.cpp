// Help > Welcome: what Nudge does in two lines, what to do first, and every shipped example
// as a card (its first frame, its name, one line on what to try), grouped by what the user
// came for. A card opens its example as a copy.
#include <imgui.h>

#include <string>

#include "gui/panels/panels.h"
#include "gui/theme.h"
#include "studio/example_guide.h"

namespace nudge::gui {

namespace {

// One example: its picture (or a blank of the same size while it is drawn), its name and
// its line; a click anywhere on the picture opens it.
void example_card(const std::filesystem::path& path, const ImTextureRef* picture, std::string_view try_this,
                  CommandQueue& commands, bool& close) {
  const ImVec2 size(ExampleThumbnails::kWidth, ExampleThumbnails::kHeight);
  const std::string stem = path.stem().string();
  ImGui::PushID(stem.c_str());
  const bool clicked = picture ? ImGui::ImageButton("##picture", *picture, size)
                               : ImGui::Button("drawing...", ImVec2(size.x + 2 * ImGui::GetStyle().FramePadding.x,
                                                                    size.y + 2 * ImGui::GetStyle().FramePadding.y));
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("Open %s (as a copy: Save asks where to keep it)", stem.c_str());
  ImGui::TextUnformatted(stem.c_str());
  ImGui::PushStyleColor(ImGuiCol_Text, theme::kDimText);
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + size.x + 2 * ImGui::GetStyle().FramePadding.x);
  ImGui::TextWrapped("%s", std::string(try_this).c_str());
  ImGui::PopTextWrapPos();
  ImGui::PopStyleColor();
  ImGui::PopID();
  if (clicked) {
    commands.push(command::Open{path});
    close = true;
  }
}

}  // namespace

void draw_welcome(const StudioState& state, UiState& ui, CommandQueue& commands) {
  if (!ui.welcome) return;
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(viewport->GetCenter(), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowSize(ImVec2(std::min(viewport->WorkSize.x * 0.9f, 940.0f), viewport->WorkSize.y * 0.85f),
                           ImGuiCond_Appearing);
  if (!ImGui::Begin("Welcome to Nudge", &ui.welcome, ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoDocking)) {
    ImGui::End();
    return;
  }
  ImGui::TextWrapped(
      "Nudge simulates a physical scene and tunes what you let it (launch velocities, muscle "
      "controls, stiffness, sizes) so that what happens is what you asked for: a target hit, "
      "footage matched, a load carried. The gradients that steer it are drawn over the scene.");
  ImGui::Spacing();
  ImGui::TextColored(theme::kWarningText, "First:");
  ImGui::SameLine();
  ImGui::TextWrapped(
      "open an example below, press Play (Space) to see its motion, then Optimise > Start. "
      "Drag with the right mouse button to orbit, the middle to pan; F frames everything; F1 lists the keys.");
  ImGui::Separator();
  ImGui::BeginChild("examples");
  bool close = false;
  const float card = ExampleThumbnails::kWidth + 2 * ImGui::GetStyle().FramePadding.x + ImGui::GetStyle().ItemSpacing.x;
  const int columns = std::max(1, int(ImGui::GetContentRegionAvail().x / card));
  for (studio::Audience audience : studio::audiences()) {
    ImGui::SeparatorText(std::string(studio::audience_title(audience)).c_str());
    if (!ImGui::BeginTable(std::string(studio::audience_title(audience)).c_str(), columns)) continue;
    for (std::size_t i = 0; i < state.files.examples.size(); ++i) {
      const std::filesystem::path& path = state.files.examples[i];
      const studio::ExampleGuide* guide = studio::example_guide(path.stem().string());
      if (!guide || guide->audience != audience) continue;
      ImGui::TableNextColumn();
      const auto picture = ui.example_pictures.find(int(i));
      example_card(path, picture == ui.example_pictures.end() ? nullptr : &picture->second, guide->try_this, commands,
                   close);
    }
    ImGui::EndTable();
  }
  ImGui::EndChild();
  ImGui::End();
  if (close) ui.welcome = false;
}

}  // namespace nudge::gui
