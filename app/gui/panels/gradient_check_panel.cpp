// The Check tab: one click checks the adjoint gradients of the chosen parameters against
// central finite differences in double, at the point shown, and lists every entry with
// its relative error.
#include <imgui.h>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "gui/panels/panels.h"
#include "gui/theme.h"

namespace nudge::gui {

namespace {

struct CheckForm {
  std::array<bool, kParamCount> chosen{};
  bool initialised = false;
  int samples = 6;
};

CheckForm& check_form() {
  static CheckForm f;  // one window, one form
  return f;
}

const ImVec4 kPass{0.45f, 0.85f, 0.5f, 1};

void report_table(const GradCheckReport& report) {
  const int failed = report.failed();
  ImGui::PushStyleColor(ImGuiCol_Text, failed == 0 ? kPass : theme::kErrorText);
  ImGui::TextWrapped("%zu entries checked, %d failed, %d rounding noise; largest relative error %.2e",
                     report.entries.size(), failed, report.rounding_noise(), report.max_relative_error());
  ImGui::PopStyleColor();
  ImGui::TextDisabled("loss %.10g", report.loss);
  const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | ImGuiTableFlags_ScrollX |
                                ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_BordersInnerV;
  if (!ImGui::BeginTable("entries", 5, flags, ImVec2(0, std::max(ImGui::GetContentRegionAvail().y, 120.0f)))) return;
  ImGui::TableSetupScrollFreeze(0, 1);
  ImGui::TableSetupColumn("entry");
  ImGui::TableSetupColumn("adjoint");
  ImGui::TableSetupColumn("finite diff.");
  ImGui::TableSetupColumn("rel. error");
  ImGui::TableSetupColumn("");
  ImGui::TableHeadersRow();
  for (const GradCheckEntry& e : report.entries) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::Text("%s[%d]", std::string(param_name(e.param)).c_str(), e.index);
    ImGui::TableNextColumn();
    ImGui::Text("%.6g", e.adjoint);
    ImGui::TableNextColumn();
    ImGui::Text("%.6g", e.finite_difference);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("uncertainty of the difference %.2e%s", e.uncertainty,
                        e.resolved ? "" : "\nbelow what differences of the loss resolve: both must be ~0");
    ImGui::TableNextColumn();
    ImGui::Text("%.2e", e.relative_error);
    ImGui::TableNextColumn();
    if (e.noise) {
      ImGui::TextColored(kPass, "noise");
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip(
            "adjoint and difference differ by more than the tolerance allows, but by no more than\n"
            "rounding: %.1e of the parameter's largest gradient entry, or 4x what this entry moves\n"
            "by when the values move by 4 units in the last place (measured: %.2e; 0: not needed). Near an\n"
            "optimum the gradient is the difference of nearly equal states, and rounding is\n"
            "most of it.",
            kGradCheckNoise, e.measured_noise);
    } else if (e.passed)
      ImGui::TextColored(kPass, "ok");
    else
      ImGui::TextColored(theme::kErrorText, e.verifiable ? "FAIL" : "unverifiable");
  }
  ImGui::EndTable();
}

}  // namespace

void draw_gradient_check_contents(const StudioState& state, CommandQueue& commands) {
  CheckForm& f = check_form();
  const Scene& scene = state.point_scene();
  if (!f.initialised) {  // the optimised parameters, or everything when none is
    const bool any = scene.params.optimized_size() > 0;
    for (int p = 0; p < kParamCount; ++p)
      f.chosen[size_t(p)] =
          scene.params.items[size_t(p)].size() > 0 && (!any || scene.params.items[size_t(p)].optimize);
    f.initialised = true;
  }
  ImGui::TextWrapped("Adjoint gradients against central finite differences (float64, CPU) at %s.",
                     state.optimise.iterate ? "the optimiser's current point" : "the scene's values");
  if (ImGui::BeginTable("choose", 2)) {
    for (int p = 0; p < kParamCount; ++p) {
      const Parameter& param = scene.params.items[size_t(p)];
      if (param.size() == 0) continue;
      ImGui::TableNextColumn();
      ImGui::Checkbox(std::string(param_name(param.id)).c_str(), &f.chosen[size_t(p)]);
    }
    ImGui::EndTable();
  }
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
  ImGui::InputInt("entries per parameter", &f.samples);
  ImGui::SetItemTooltip("How many entries of each chosen parameter to check (spread over it); each costs two rollouts");
  f.samples = std::clamp(f.samples, 1, 1000);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("larger arrays are sampled (always their first and last entries)");

  std::vector<ParamId> chosen;
  for (int p = 0; p < kParamCount; ++p)
    if (f.chosen[size_t(p)] && scene.params.items[size_t(p)].size() > 0) chosen.push_back(static_cast<ParamId>(p));
  const bool busy = state.trust.gradient_check && !state.trust.gradient_check->job().finished();
  ImGui::BeginDisabled(busy || chosen.empty());
  if (ImGui::Button("Check gradients")) commands.push(command::CheckGradients{chosen, f.samples});
  ImGui::SetItemTooltip("Compare the adjoint gradient with central finite differences in float64, in the background");
  ImGui::EndDisabled();
  if (busy) {
    if (job_progress(state.trust.gradient_check->job(), "entries")) state.trust.gradient_check->cancel();
    return;
  }
  if (!state.trust.gradient_check) return;
  const auto outcome = state.trust.gradient_check->outcome();
  if (!outcome->error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, theme::kErrorText);
    ImGui::TextWrapped("%s", outcome->error.c_str());
    ImGui::PopStyleColor();
  } else if (outcome->report) {
    report_table(*outcome->report);
  }
}

}  // namespace nudge::gui
