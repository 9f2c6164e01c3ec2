// The Pose tab: a slider per hinge or slide of the scene's articulations, setting its
// initial coordinate (link_q, one step of the history each), so that the viewport draws
// the links where forward kinematics puts them before anything is simulated. A ball's or
// a free joint's initial rotation (link_rotation) is listed.
#include <imgui.h>

#include <numbers>
#include <string>
#include <vector>

#include "gui/panels/panels.h"

namespace nudge::gui {

void draw_pose_contents(const StudioState& state, CommandQueue& commands) {
  const Scene& scene = state.document.scene();
  const Articulations& a = scene.articulations;
  if (a.empty()) {
    ImGui::TextWrapped(
        "This scene has no articulated robot. File > Import Robot reads one from MJCF or URDF; its "
        "joints get a slider each here.");
    return;
  }
  const std::vector<double>& q = scene.params[ParamId::LinkJointPosition].value;
  if (ImGui::Button("Zero pose")) {
    command::EditParameter zero;
    zero.id = ParamId::LinkJointPosition;
    zero.values.assign(q.size(), 0.0);
    commands.push(zero);
  }
  ImGui::SameLine();
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("Each joint's coordinate at the start of the motion: a hinge's angle, a slide's offset.");
  ImGui::Separator();
  for (size_t k = 0; k < a.links.size(); ++k) {
    const ArticulationLink& link = a.links[k];
    if (link.joint == ArticulationJoint::Ball || link.joint == ArticulationJoint::Free) {
      const std::vector<double>& r = scene.params[ParamId::LinkRotation].value;
      if (4 * k + 3 < r.size())
        ImGui::TextDisabled("%s: %s, rotation [%.3f %.3f %.3f %.3f]", link.name.c_str(),
                            std::string(articulation_joint_name(link.joint)).c_str(), r[4 * k], r[4 * k + 1],
                            r[4 * k + 2], r[4 * k + 3]);
      continue;
    }
    if (link.joint == ArticulationJoint::Weld || k >= q.size()) continue;
    const std::string label = (link.joint_name.empty() ? link.name : link.joint_name) + "##pose" + std::to_string(k);
    float value = static_cast<float>(q[k]);
    const bool changed = link.joint == ArticulationJoint::Hinge
                             ? ImGui::SliderAngle(label.c_str(), &value, -180.0f, 180.0f)
                             : ImGui::SliderFloat(label.c_str(), &value, -1.0f, 1.0f, "%.3f m");
    if (!changed) continue;
    command::EditParameter edit;
    edit.id = ParamId::LinkJointPosition;
    edit.first = static_cast<int>(k);
    edit.values = {value};
    commands.push(edit);
  }
}

}  // namespace nudge::gui
