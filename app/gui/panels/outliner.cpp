// The scene's elements in a tree: settings, particles, springs, triangles, bending edges,
// tets, bodies, colliders, joints, attachments, objectives, parameters.
// Clicking one selects it for the inspector and the viewport's highlight; Shift+click or
// Ctrl+click adds one of the same kind to the selection (or takes it away).
#include <imgui.h>

#include <algorithm>
#include <string>
#include <vector>

#include "gui/panels/panels.h"
#include "studio/element_kinds.h"
#include "studio/scene_edits.h"

namespace nudge::gui {

namespace {

// Whether `kind` may be selected several at a time (the scene's elements).
bool multiple(Selection::Kind kind) { return kind != Selection::Kind::None && studio::element_kind_facts(kind).many; }

// A click selects the item alone; Shift+click or Ctrl+click adds it to a selection of its
// kind, or takes it away when it is in it (the primary, shown in the inspector, is then
// the member added last).
// What the outliner changes: the selection, and the edits it queues.
struct OutlinerTarget {
  const Scene& scene;
  EditorState& editor;
  CommandQueue& commands;
};

bool selectable(const OutlinerTarget& out, Selection item, const char* label) {
  Selection& sel = out.editor.selection;
  const bool selected =
      sel.kind == item.kind && (multiple(item.kind) ? sel.contains(item.index) : sel.index == item.index);
  if (!ImGui::Selectable(label, selected)) return false;
  // A marker waiting to be bound (the inspector's Bind...) takes the particle clicked here
  // as it would one clicked in the viewport; the objective stays selected.
  if (out.editor.binding_marker && item.kind == Selection::Kind::Particle) {
    const EditorState::MarkerBinding bind = *out.editor.binding_marker;
    const int particle = item.index;
    out.editor.binding_marker.reset();
    queue_edit(out.commands, "bind marker " + std::to_string(bind.marker) + " to particle " + std::to_string(particle),
               [bind, particle](const Scene& sc) {
                 return studio::edits::bind_marker(sc, bind.objective, bind.marker, particle);
               });
    return true;
  }
  const ImGuiIO& io = ImGui::GetIO();
  const bool extend =
      (io.KeyShift || io.KeyCtrl) && multiple(item.kind) && sel.kind == item.kind && selection_exists(out.scene, sel);
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
void element_list(const OutlinerTarget& out, Selection::Kind kind, int count, Label label) {
  ImGuiListClipper clipper;
  clipper.Begin(count);
  while (clipper.Step())
    for (int i = clipper.DisplayStart; i < clipper.DisplayEnd; ++i) {
      ImGui::PushID(i);
      selectable(out, {kind, i}, label(i).c_str());
      ImGui::PopID();
    }
}

}  // namespace

void draw_outliner(const StudioState& state, EditorState& editor, CommandQueue& commands, bool* open) {
  if (!begin_panel(panel_name::kScene, open)) {
    end_panel();
    return;
  }
  const Scene& scene = state.scene();
  const OutlinerTarget out{scene, editor, commands};
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
  selectable(out, {Selection::Kind::Settings, 0}, "Settings");

  // The scene's elements, a heading per kind (studio/element_kinds.cpp), each listed by
  // its line; their values are in the inspector.
  for (const studio::ElementKindFacts& kind : studio::element_kinds()) {
    if (kind.outliner == studio::OutlinerList::Never) continue;
    const int count = kind.count(scene);
    if (count == 0 && kind.outliner == studio::OutlinerList::WhenPresent) continue;
    const std::string id(kind.plural), title(kind.title);
    if (!ImGui::TreeNodeEx(id.c_str(), kind.open ? ImGuiTreeNodeFlags_DefaultOpen : ImGuiTreeNodeFlags_None, "%s (%d)",
                           title.c_str(), count))
      continue;
    element_list(out, kind.kind, count, [&](int i) { return kind.label(scene, i); });
    ImGui::TreePop();
  }
  const ControllerReads reads = controller_reads(scene);
  if (const Controller& ctl = scene.controller;
      ctl.enabled() &&
      ImGui::TreeNodeEx("controller", ImGuiTreeNodeFlags_None, "Controller (%d weights)", ctl.weight_count(reads))) {
    std::string inputs;
    for (const ControllerInput& in : ctl.inputs)
      inputs += (inputs.empty() ? "" : ", ") + std::string(controller_input_name(in.type));
    ImGui::TextDisabled("inputs: %s (%d values)", inputs.c_str(), ctl.input_count(reads));
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
      selectable(out, {Selection::Kind::Parameter, p}, label.c_str());
      ImGui::PopID();
    }
    ImGui::TreePop();
  }
  ImGui::EndChild();
  end_panel();
}

}  // namespace nudge::gui
