// The inspector's typed transform for selected particles or bodies: move by an offset,
// turn by angles about the world's axes, scale by a factor, about the selection's centre,
// as one undoable step (the gizmo does the same by dragging).
#include <imgui.h>

#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>

#include "gui/panels/panels.h"
#include "gui/theme.h"
#include "gui/viewport_editor.h"
#include "nudge/quat.h"

namespace nudge::gui {

namespace {

struct TransformForm {
  double move[3] = {0, 0, 0};  // m
  double turn[3] = {0, 0, 0};  // degrees about x, then y, then z
  double scale = 1;
};

TransformForm& transform_form() {
  static TransformForm f;  // kept between frames and selections, as a dialog's values
  return f;
}

// About x first, then y, then z (the order the fields are read in), as a quaternion.
std::array<double, 4> rotation_of(const double degrees[3]) {
  const double r = std::numbers::pi / 180;
  const Quat<double> q = quat_from_axis_angle(nudge::Vec3<double>{0, 0, 1}, degrees[2] * r) *
                         quat_from_axis_angle(nudge::Vec3<double>{0, 1, 0}, degrees[1] * r) *
                         quat_from_axis_angle(nudge::Vec3<double>{1, 0, 0}, degrees[0] * r);
  return {q.x, q.y, q.z, q.w};
}

}  // namespace

void draw_transform_section(const StudioState& state, const Selection& selection, CommandQueue& commands) {
  if (selection.kind != Selection::Kind::Particle && selection.kind != Selection::Kind::Body) return;
  const std::optional<glm::dvec3> centre = movable_origin(state.point_scene(), selection);
  if (!centre || !ImGui::CollapsingHeader("Transform")) return;
  TransformForm& f = transform_form();
  const float width = -ImGui::GetFontSize() * 6;
  ImGui::SetNextItemWidth(width);
  ImGui::InputScalarN("move by (m)", ImGuiDataType_Double, f.move, 3, nullptr, nullptr, "%.4g");
  ImGui::SetNextItemWidth(width);
  ImGui::InputScalarN("turn by (deg)", ImGuiDataType_Double, f.turn, 3, nullptr, nullptr, "%.4g");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("degrees about the world's x, then y, then z axis");
  ImGui::SetNextItemWidth(width);
  ImGui::InputDouble("scale by", &f.scale, 0, 0, "%.4g");
  ImGui::PushStyleColor(ImGuiCol_Text, theme::kDimText);
  // Rounding leaves 1e-17 where a coordinate is 0: shown as 0.
  const auto shown = [](double v) { return std::abs(v) < 1e-12 ? 0.0 : v; };
  ImGui::TextWrapped("about their centre (%.4g, %.4g, %.4g); initial positions%s only", shown(centre->x),
                     shown(centre->y), shown(centre->z),
                     selection.kind == Selection::Kind::Body ? " and orientations" : "");
  ImGui::PopStyleColor();
  if (ImGui::Button("Apply")) {
    const bool moves = f.move[0] != 0 || f.move[1] != 0 || f.move[2] != 0;
    const bool turns = f.turn[0] != 0 || f.turn[1] != 0 || f.turn[2] != 0 || f.scale != 1;
    // The turn first, about where the selection is; then the move. One step each.
    if (turns) {
      char turn[96] = "", scale[32] = "";
      if (f.turn[0] != 0 || f.turn[1] != 0 || f.turn[2] != 0)
        std::snprintf(turn, sizeof turn, "by (%.4g, %.4g, %.4g) degrees", f.turn[0], f.turn[1], f.turn[2]);
      if (f.scale != 1) std::snprintf(scale, sizeof scale, "%sx%.4g", turn[0] ? " and " : "", f.scale);
      const std::string what = std::string(turn) + scale;
      const studio::edits::Transform t{
          .pivot = {centre->x, centre->y, centre->z}, .rotation = rotation_of(f.turn), .scale = f.scale};
      if (std::optional<command::EditScene> e = transform_selection(state.point_scene(), selection, t, what))
        commands.push(std::move(*e));
    }
    if (moves)
      if (std::optional<command::EditScene> e =
              move_selection(state.point_scene(), selection, glm::dvec3(f.move[0], f.move[1], f.move[2])))
        commands.push(std::move(*e));
  }
  ImGui::SameLine();
  if (ImGui::Button("Clear")) f = TransformForm{};
}

}  // namespace nudge::gui
