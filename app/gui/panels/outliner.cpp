// The scene's elements in a tree: settings, particles, springs, triangles, bending edges,
// tets, bodies, colliders, joints, attachments, objectives, parameters.
// Clicking one selects it for the inspector and the viewport's highlight; Shift+click or
// Ctrl+click adds one of the same kind to the selection (or takes it away).
#include <imgui.h>

#include <algorithm>
#include <string>
#include <vector>

#include "gui/panels/panels.h"
#include "studio/scene_edits.h"

namespace nudge::gui {

namespace {

// Whether `kind` may be selected several at a time (the scene's elements).
bool multiple(Selection::Kind kind) {
  return kind != Selection::Kind::None && kind != Selection::Kind::Settings && kind != Selection::Kind::Parameter;
}

// A click selects the item alone; Shift+click or Ctrl+click adds it to a selection of its
// kind, or takes it away when it is in it (the primary, shown in the inspector, is then
// the member added last).
bool selectable(StudioState& state, Selection item, const char* label) {
  Selection& sel = state.selection;
  const bool selected =
      sel.kind == item.kind && (multiple(item.kind) ? sel.contains(item.index) : sel.index == item.index);
  if (!ImGui::Selectable(label, selected)) return false;
  // A marker waiting to be bound (the inspector's Bind...) takes the particle clicked here
  // as it would one clicked in the viewport; the objective stays selected.
  if (state.binding_marker && item.kind == Selection::Kind::Particle) {
    const StudioState::MarkerBinding bind = *state.binding_marker;
    const int particle = item.index;
    state.binding_marker.reset();
    queue_edit(state, "bind marker " + std::to_string(bind.marker) + " to particle " + std::to_string(particle),
               [bind, particle](const Scene& sc) {
                 return studio::edits::bind_marker(sc, bind.objective, bind.marker, particle);
               });
    return true;
  }
  const ImGuiIO& io = ImGui::GetIO();
  const bool extend = (io.KeyShift || io.KeyCtrl) && multiple(item.kind) && sel.kind == item.kind &&
                      selection_exists(state.scene(), sel);
  if (!extend) {
    sel = item;
  } else if (selected) {
    std::vector<int> rest = sel.members();
    rest.erase(std::find(rest.begin(), rest.end(), item.index));
    if (rest.empty()) {
      sel = {};
    } else {
      // The primary stays unless it was taken away; then the newest of the others.
      int primary = sel.index;
      if (item.index == sel.index) {
        primary = rest.back();
        for (auto it = sel.others.rbegin(); it != sel.others.rend(); ++it)
          if (*it != item.index) {
            primary = *it;
            break;
          }
      }
      std::erase(sel.others, item.index);
      std::erase(sel.others, primary);
      sel.index = primary;
    }
  } else {
    sel.others.push_back(sel.index);
    sel.index = item.index;
  }
  return true;
}

// A long list drawn row by row as it scrolls into view.
template <class Label>
void element_list(StudioState& state, Selection::Kind kind, int count, Label label) {
  ImGuiListClipper clipper;
  clipper.Begin(count);
  while (clipper.Step())
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      ImGui::PushID(i);
      selectable(state, {kind, i}, label(i).c_str());
      ImGui::PopID();
    }
}

}  // namespace

void draw_outliner(StudioState& state, const studio::Rect& area) {
  begin_panel("Scene", area);
  const Scene& scene = state.scene();
  ImGui::TextUnformatted(scene.name.empty() ? state.document.display_name().c_str() : scene.name.c_str());
  if (!scene.description.empty() && ImGui::IsItemHovered()) {  // the whole text is in the inspector
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30);
    ImGui::TextUnformatted(scene.description.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
  ImGui::Separator();
  ImGui::BeginChild("tree");
  selectable(state, {Selection::Kind::Settings, 0}, "Settings");

  const int n = scene.particle_count();
  if (ImGui::TreeNodeEx("particles", ImGuiTreeNodeFlags_None, "Particles (%d)", n)) {
    element_list(state, Selection::Kind::Particle, n, [&](int i) {
      return "particle " + std::to_string(i) + (scene.pinned[size_t(i)] ? "  (pinned)" : "");
    });
    ImGui::TreePop();
  }
  const int s = scene.spring_count();
  if (ImGui::TreeNodeEx("springs", ImGuiTreeNodeFlags_None, "Springs (%d)", s)) {
    element_list(state, Selection::Kind::Spring, s, [&](int j) {
      std::string label = "spring " + std::to_string(j) + ": " + std::to_string(scene.spring_a[size_t(j)]) + " - " +
                          std::to_string(scene.spring_b[size_t(j)]);
      if (scene.spring_channel[size_t(j)] >= 0)
        label += "  (muscle " + std::to_string(scene.spring_channel[size_t(j)]) + ")";
      return label;
    });
    ImGui::TreePop();
  }
  // The corner families': each element by its corners (their values are in the inspector).
  const auto corner_list = [&](const char* id, const char* title, Selection::Kind kind, const char* noun,
                               const std::vector<int>& corners, int per) {
    const int count = static_cast<int>(corners.size()) / per;
    if (count == 0 || !ImGui::TreeNodeEx(id, ImGuiTreeNodeFlags_None, "%s (%d)", title, count)) return;
    element_list(state, kind, count, [&](int e) {
      std::string label = std::string(noun) + " " + std::to_string(e) + ":";
      for (int c = 0; c < per; ++c) label += " " + std::to_string(corners[size_t(e) * size_t(per) + size_t(c)]);
      return label;
    });
    ImGui::TreePop();
  };
  corner_list("triangles", "Triangles", Selection::Kind::Triangle, "triangle", scene.triangles, 3);
  corner_list("bending", "Bending edges", Selection::Kind::BendingEdge, "edge", scene.bending, 4);
  corner_list("tets", "Tets", Selection::Kind::Tet, "tet", scene.tets, 4);
  const int b = scene.body_count();
  if (b > 0 && ImGui::TreeNodeEx("bodies", ImGuiTreeNodeFlags_DefaultOpen, "Bodies (%d)", b)) {
    element_list(state, Selection::Kind::Body, b, [&](int i) {
      const RigidBody& body = scene.bodies[size_t(i)];
      return std::to_string(i) + ": " + (body.name.empty() ? "" : body.name + ", ") +
             std::string(body_shape_name(body.shape));
    });
    ImGui::TreePop();
  }
  const int c = static_cast<int>(scene.colliders.size());
  if (c > 0 && ImGui::TreeNodeEx("colliders", ImGuiTreeNodeFlags_DefaultOpen, "Colliders (%d)", c)) {
    element_list(state, Selection::Kind::Collider, c, [&](int i) {
      return std::to_string(i) + ": " + std::string(collider_type_name(scene.colliders[size_t(i)].type));
    });
    ImGui::TreePop();
  }
  const int j = scene.joint_count();
  if (j > 0 && ImGui::TreeNodeEx("joints", ImGuiTreeNodeFlags_DefaultOpen, "Joints (%d)", j)) {
    element_list(state, Selection::Kind::Joint, j, [&](int i) {
      const Joint& joint = scene.joints[size_t(i)];
      return (joint.name.empty() ? "joint " + std::to_string(i) : joint.name) + ", " +
             std::string(joint_type_name(joint.type)) + ": " +
             (joint.parent < 0 ? std::string("world") : std::to_string(joint.parent)) + " -> " +
             std::to_string(joint.child);
    });
    ImGui::TreePop();
  }
  const int a = static_cast<int>(scene.attachments.size());
  if (a > 0 && ImGui::TreeNodeEx("attachments", ImGuiTreeNodeFlags_DefaultOpen, "Attachments (%d)", a)) {
    element_list(state, Selection::Kind::Attachment, a, [&](int i) {
      const Attachment& attachment = scene.attachments[size_t(i)];
      const std::string& name = scene.bodies[size_t(attachment.body)].name;
      return "particle " + std::to_string(attachment.particle) + " -> body " + std::to_string(attachment.body) +
             (name.empty() ? "" : " (" + name + ")");
    });
    ImGui::TreePop();
  }
  const int k = static_cast<int>(scene.objectives.size());
  if (ImGui::TreeNodeEx("objectives", ImGuiTreeNodeFlags_DefaultOpen, "Objectives (%d)", k)) {
    for (int i = 0; i < k; ++i) {
      ImGui::PushID(i);
      const std::string label =
          std::to_string(i) + ": " + std::string(objective_type_name(scene.objectives[size_t(i)].type));
      selectable(state, {Selection::Kind::Objective, i}, label.c_str());
      ImGui::PopID();
    }
    ImGui::TreePop();
  }
  if (const Controller& ctl = scene.controller;
      ctl.enabled() &&
      ImGui::TreeNodeEx("controller", ImGuiTreeNodeFlags_None, "Controller (%d weights)", ctl.weight_count(n))) {
    std::string inputs;
    for (const ControllerInput& in : ctl.inputs)
      inputs += (inputs.empty() ? "" : ", ") + std::string(controller_input_name(in.type));
    ImGui::TextDisabled("inputs: %s (%d values)", inputs.c_str(), ctl.input_count(n));
    for (size_t l = 0; l < ctl.layers.size(); ++l)
      ImGui::TextDisabled("layer %zu: %d %s units", l + 1, ctl.layers[l].size,
                          std::string(activation_name(ctl.layers[l].activation)).c_str());
    std::string channels;
    for (int ch : ctl.channels) channels += (channels.empty() ? "" : " ") + std::to_string(ch);
    ImGui::TextDisabled("drives channels %s", channels.c_str());
    ImGui::TreePop();
  }
  if (const int actuators = scene.actuator_count();
      actuators > 0 && ImGui::TreeNodeEx("actuators", ImGuiTreeNodeFlags_None, "Actuators (%d)", actuators)) {
    for (const Actuator& act : scene.actuators) {
      const std::string on =
          act.particle >= 0 ? "particle " + std::to_string(act.particle) : "body " + std::to_string(act.body);
      ImGui::TextDisabled("%s %s on channel %d, [%.3g, %.3g, %.3g] per unit%s", on.c_str(),
                          std::string(actuator_type_name(act.type)).c_str(), act.channel, act.direction[0],
                          act.direction[1], act.direction[2],
                          act.body >= 0 && act.frame == ActuatorFrame::Body ? " (turns with the body)" : "");
    }
    ImGui::TreePop();
  }
  if (ImGui::TreeNodeEx("parameters", ImGuiTreeNodeFlags_None, "Parameters")) {
    for (int p = 0; p < kParamCount; ++p) {
      const Parameter& param = scene.params.items[size_t(p)];
      if (param.size() == 0) continue;
      ImGui::PushID(p);
      const std::string label = std::string(param_name(param.id)) + "  " + std::to_string(param.rows) + " x " +
                                std::to_string(param.cols) + (param.optimize ? "  (optimised)" : "");
      selectable(state, {Selection::Kind::Parameter, p}, label.c_str());
      ImGui::PopID();
    }
    ImGui::TreePop();
  }
  ImGui::EndChild();
  end_panel();
}

}  // namespace nudge::gui
