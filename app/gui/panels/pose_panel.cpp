// The Pose tab: a slider per hinge or slide of the scene's articulations, setting its
// initial coordinate (link_q, one step of the history each), so that the viewport draws
// the links where forward kinematics puts them before anything is simulated. A ball's or
// a free joint's initial rotation (link_rotation) has three: the components of its
// rotation vector (about the link's x, y and z).
#include <imgui.h>

#include <array>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "gui/panels/panels.h"

namespace nudge::gui {

namespace {

// A rotation (x, y, z, w) as its rotation vector (the turn with w >= 0), and back.
std::array<double, 3> rotation_vector(const double* r) {
  const double n = std::sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2] + r[3] * r[3]);
  const double sign = r[3] < 0 ? -1.0 : 1.0, s = std::sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]) / n;
  if (!(n > 0) || s < 1e-12) return {0, 0, 0};
  const double angle = 2 * std::atan2(s, sign * r[3] / n), scale = sign * angle / (s * n);
  return {scale * r[0], scale * r[1], scale * r[2]};
}
std::array<double, 4> rotation_of(const std::array<double, 3>& v) {
  const double angle = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  if (angle < 1e-12) return {0, 0, 0, 1};
  const double k = std::sin(angle / 2) / angle;
  return {k * v[0], k * v[1], k * v[2], std::cos(angle / 2)};
}

}  // namespace

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
      if (4 * k + 3 >= r.size()) continue;
      ImGui::TextDisabled("%s: %s, its rotation vector", link.name.c_str(),
                          std::string(articulation_joint_name(link.joint)).c_str());
      std::array<double, 3> turn = rotation_vector(&r[4 * k]);
      bool changed = false;
      for (int c = 0; c < 3; ++c) {
        const std::string label = std::string(1, "xyz"[c]) + " " + link.name + "##turn" + std::to_string(k);
        float value = static_cast<float>(turn[size_t(c)]);
        if (ImGui::SliderAngle(label.c_str(), &value, -180.0f, 180.0f)) turn[size_t(c)] = value, changed = true;
      }
      if (!changed) continue;
      const std::array<double, 4> rotation = rotation_of(turn);
      command::EditParameter edit;
      edit.id = ParamId::LinkRotation;
      edit.first = static_cast<int>(4 * k);
      edit.values.assign(rotation.begin(), rotation.end());
      commands.push(edit);
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
