// Help > Lessons: the current lesson's step in a window of its own, with Back, Next and
// Close. Moving to a step asks for its action; the studio carries it out next frame
// (Studio::act_on_lesson_step), so what the text describes is on screen as it is read.
#include <imgui.h>

#include <string>

#include "gui/panels/panels.h"
#include "gui/theme.h"
#include "studio/lessons.h"

namespace nudge::gui {

void draw_lesson_panel(UiState& ui) {
  const auto lessons = studio::lessons();
  if (ui.lesson.lesson < 0 || ui.lesson.lesson >= int(lessons.size())) return;
  const studio::Lesson& lesson = lessons[size_t(ui.lesson.lesson)];
  const int steps = int(lesson.steps.size());
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  ImGui::SetNextWindowPos(ImVec2(viewport->WorkPos.x + viewport->WorkSize.x * 0.5f, viewport->WorkPos.y + 40),
                          ImGuiCond_Appearing, ImVec2(0.5f, 0));
  ImGui::SetNextWindowSize(ImVec2(std::min(560.0f, viewport->WorkSize.x * 0.6f), 0), ImGuiCond_Appearing);
  bool open = true;
  const std::string title = "Lesson: " + std::string(lesson.title) + "###lesson";
  if (ImGui::Begin(title.c_str(), &open, ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::TextDisabled("step %d of %d", ui.lesson.step + 1, steps);
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + std::min(540.0f, viewport->WorkSize.x * 0.58f));
    ImGui::TextUnformatted(std::string(lesson.steps[size_t(ui.lesson.step)].text).c_str());
    ImGui::PopTextWrapPos();
    ImGui::Separator();
    ImGui::BeginDisabled(ui.lesson.step == 0);
    if (ImGui::Button("Back")) ui.lesson = {ui.lesson.lesson, ui.lesson.step - 1, true};
    ImGui::SetItemTooltip("The step before, done again");
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (ui.lesson.step + 1 < steps) {
      if (ImGui::Button("Next")) ui.lesson = {ui.lesson.lesson, ui.lesson.step + 1, true};
      ImGui::SetItemTooltip("Read on: the window does the next step");
    } else if (ImGui::Button("Done")) {
      open = false;
    }
  }
  ImGui::End();
  if (!open) ui.lesson = {};
}

}  // namespace nudge::gui
