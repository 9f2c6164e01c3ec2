#include "gui/panels/inspector_rows.h"

#include <imgui.h>

#include <cstdio>
#include <string>
#include <vector>

#include "nudge/parameter_facts.h"

namespace nudge::gui::inspector {

namespace {

// The rows of parameters that a selection of this kind indexes; Scene for kinds that have
// none of their own (colliders, attachments, objectives...).
ParamElement param_element_of(studio::ElementKind kind) {
  using K = studio::ElementKind;
  switch (kind) {
    case K::Particle: return ParamElement::Particle;
    case K::Spring: return ParamElement::Spring;
    case K::Body: return ParamElement::Body;
    case K::Joint: return ParamElement::Joint;
    case K::Triangle: return ParamElement::Triangle;
    case K::BendingEdge: return ParamElement::BendingEdge;
    case K::Tet: return ParamElement::Tet;
    case K::Link: return ParamElement::Link;
    case K::None:
    case K::Settings:
    case K::Collider:
    case K::Attachment:
    case K::Objective:
    case K::Parameter: return ParamElement::Scene;
  }
  return ParamElement::Scene;
}

}  // namespace

void row(const char* label, const std::string& value) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextDisabled("%s", label);
  ImGui::TableNextColumn();
  ImGui::TextWrapped("%s", value.c_str());
}

std::string number(double v) {
  char text[48];
  std::snprintf(text, sizeof text, "%.6g", v);
  return text;
}

std::string vec3(const double* v) {
  char text[96];
  std::snprintf(text, sizeof text, "%.4g, %.4g, %.4g", v[0], v[1], v[2]);
  return text;
}

// A row of `count` numbers typed in (at most 3); true, with the new values, when Enter
// applies them.
bool number_row(const char* label, double* values, int count, const char* unit, const std::string& tooltip) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextDisabled("%s", label);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s; Enter applies", tooltip.c_str());
  ImGui::TableNextColumn();
  ImGui::PushID(label);
  ImGui::SetNextItemWidth(-ImGui::CalcTextSize(unit).x - ImGui::GetStyle().ItemSpacing.x - 1);
  const bool entered = ImGui::InputScalarN("##value", ImGuiDataType_Double, values, count, nullptr, nullptr, "%.6g",
                                           ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::SameLine();
  ImGui::TextDisabled("%s", unit);
  ImGui::PopID();
  return entered;
}

// A row whose value is `count` entries of a parameter from `first`, typed in; Enter
// queues the edit (checked and applied by the studio after the panels are drawn).
void edit_param_row(const Page& page, ParamId id, int row, const char* unit) {
  const ParamFacts& facts = param_facts(id);
  const int count = facts.cols, first = row * count;
  const std::string label(facts.label), unit_text(unit ? std::string_view(unit) : facts.unit);
  const Parameter& p = page.state.point_scene().params[id];
  if (size_t(first + count) > p.value.size()) return;
  double values[3] = {0, 0, 0};
  for (int k = 0; k < count; ++k) values[k] = p.value[size_t(first + k)];
  // With several elements selected, the row shown is the first's and an edit applies to
  // every one: positions move together, other values are set alike.
  const std::vector<int> members =
      row == page.index && param_element_of(page.state.editor.selection.kind) == facts.element
          ? page.state.editor.selection.members()
          : std::vector<int>{};
  std::string tooltip = std::string(param_name(id)) + (p.optimize ? " (optimised)" : "");
  const bool relative = id == ParamId::InitialPosition || id == ParamId::BodyPosition;
  if (members.size() > 1)
    tooltip += relative ? "; the " + std::to_string(members.size()) + " selected move by the change"
                        : "; applies to all " + std::to_string(members.size()) + " selected";
  if (!number_row(label.c_str(), values, count, unit_text.c_str(), tooltip)) return;
  command::EditParameter edit{.id = id,
                              .first = first,
                              .values = std::vector<double>(values, values + count),
                              .also_firsts = {},
                              .relative = relative};
  for (int m : members)
    if (m != row && size_t((m + 1) * count) <= p.value.size()) edit.also_firsts.push_back(m * count);
  page.commands.push(std::move(edit));
}

// A label and, on its right, a small button; true when it is pressed.
bool button_row(const char* label, const std::string& value, const char* button, const char* tooltip) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  ImGui::TextDisabled("%s", label);
  ImGui::TableNextColumn();
  ImGui::TextUnformatted(value.c_str());
  ImGui::SameLine();
  const bool pressed = ImGui::SmallButton(button);
  if (tooltip && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tooltip);
  return pressed;
}

std::string body_label(const Scene& scene, int b) {
  if (b < 0) return "world";
  const std::string& name = scene.bodies[size_t(b)].name;
  return "body " + std::to_string(b) + (name.empty() ? "" : " (" + name + ")");
}

}  // namespace nudge::gui::inspector
