// The Edit menu: undo, redo and the history; adding particles, generated chains, cloth
// and soft blocks, bodies and colliders; deleting or pinning the selection. Every change
// is a command::EditScene, so it is a step of the document's history.
#include <imgui.h>

#include <string>

#include "gui/panels/panels.h"
#include "studio/scene_edits.h"

namespace nudge::gui {

namespace {

namespace edits = studio::edits;
using edits::Vec3;

// Where new elements go: above the middle of what is shown, so they are in view.
Vec3 drop_point(const StudioState& state) {
  const glm::vec3 c = state.draw_options.bounds.center();
  return {c.x, c.y + 0.5, c.z};
}

void history_items(StudioState& state) {
  const studio::Document& document = state.document;
  const auto& history = document.history();
  const std::string undo = document.can_undo() ? "Undo " + history[document.position()].label : "Undo";
  const std::string redo = document.can_redo() ? "Redo " + history[document.position() + 1].label : "Redo";
  if (ImGui::MenuItem(undo.c_str(), "Ctrl+Z", false, document.can_undo())) state.queue(command::Undo{});
  if (ImGui::MenuItem(redo.c_str(), "Ctrl+Shift+Z", false, document.can_redo())) state.queue(command::Redo{});
  // Every step, newest last; the current one checked, those after it (undone) greyed.
  if (ImGui::BeginMenu("History", history.size() > 1)) {
    for (std::size_t k = 0; k < history.size(); ++k) {
      ImGui::PushID(static_cast<int>(k));
      const bool undone = k > document.position();
      if (undone) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
      if (ImGui::MenuItem(history[k].label.c_str(), nullptr, k == document.position()))
        state.queue(command::GoToHistory{k});
      if (undone) ImGui::PopStyleColor();
      ImGui::PopID();
    }
    ImGui::EndMenu();
  }
}

void add_items(StudioState& state) {
  if (!ImGui::BeginMenu("Add")) return;
  const Vec3 at = drop_point(state);
  if (ImGui::MenuItem("Particle"))
    queue_edit(state, "add a particle", [at](const Scene& s) { return edits::add_particle(s, at, 0.1); });
  if (ImGui::MenuItem("Chain (10 links, pinned end)"))
    queue_edit(state, "add a chain", [at](const Scene& s) {
      return edits::add_chain(s, at, {at[0] + 1.0, at[1], at[2]}, 10, {0.05, 500, 0.05}, true);
    });
  if (ImGui::MenuItem("Cloth (1 m, 12 x 12, pinned top)"))
    queue_edit(state, "add a cloth sheet", [at](const Scene& s) {
      return edits::add_cloth(s, {at[0] - 0.5, at[1] - 0.5, at[2]}, 1.0, 1.0, 12, 12, {0.01, 400, 0.05}, true);
    });
  if (ImGui::MenuItem("Soft block (30 cm, 4 x 4 x 4)"))
    queue_edit(state, "add a soft block", [at](const Scene& s) {
      return edits::add_lattice(s, {at[0] - 0.15, at[1], at[2] - 0.15}, {0.3, 0.3, 0.3}, 4, 4, 4, {0.05, 2000, 0.5});
    });
  ImGui::Separator();
  const auto body = [&](const char* name, BodyShape shape, ShapeSize size) {
    if (!ImGui::MenuItem(name)) return;
    RigidBody b;
    b.shape = shape;
    queue_edit(state, std::string("add a ") + name, [b, size, at](const Scene& s) {
      return edits::add_body(s, b, size, at, 1000);
    });
  };
  body("sphere", BodyShape::Sphere, {0.1, 0, 0});
  body("box", BodyShape::Box, {0.1, 0.1, 0.1});
  body("capsule", BodyShape::Capsule, {0.05, 0.15, 0});
  ImGui::Separator();
  if (ImGui::MenuItem("Ground plane (collider)"))
    queue_edit(state, "add a ground plane", [](const Scene& s) { return edits::add_collider(s, ColliderShape{}); });
  if (ImGui::MenuItem("Box obstacle (collider)"))
    queue_edit(state, "add a box obstacle", [at](const Scene& s) {
      ColliderShape box;
      box.type = ColliderType::Box;
      box.position_from({at[0] + 0.6, 0.25, at[2]});
      box.half_extents[0] = box.half_extents[1] = box.half_extents[2] = 0.25;
      return edits::add_collider(s, box);
    });
  ImGui::EndMenu();
}

}  // namespace

std::optional<command::EditScene> delete_selection(const StudioState& state) {
  const Selection sel = state.selection;
  const std::vector<int> one{sel.index};
  const std::string n = std::to_string(sel.index);
  using K = Selection::Kind;
  switch (sel.kind) {
    case K::Particle: return command::EditScene{"delete particle " + n, [one](const Scene& s) { return edits::delete_particles(s, one); }};
    case K::Spring: return command::EditScene{"delete spring " + n, [one](const Scene& s) { return edits::delete_springs(s, one); }};
    case K::Body: return command::EditScene{"delete body " + n, [one](const Scene& s) { return edits::delete_bodies(s, one); }};
    case K::Collider: return command::EditScene{"delete collider " + n, [one](const Scene& s) { return edits::delete_colliders(s, one); }};
    case K::Joint: return command::EditScene{"delete joint " + n, [one](const Scene& s) { return edits::delete_joints(s, one); }};
    case K::Attachment:
      return command::EditScene{"delete attachment " + n, [one](const Scene& s) { return edits::delete_attachments(s, one); }};
    case K::Objective:
      return command::EditScene{"delete objective " + n, [one](const Scene& s) { return edits::delete_objectives(s, one); }};
    case K::None:
    case K::Settings:
    case K::Parameter: break;
  }
  return std::nullopt;
}

std::optional<command::EditScene> toggle_pin_selection(const StudioState& state) {
  const Selection sel = state.selection;
  const Scene& scene = state.document.scene();
  if (sel.kind != Selection::Kind::Particle || sel.index < 0 || sel.index >= scene.particle_count()) return std::nullopt;
  const bool pin = !scene.pinned[size_t(sel.index)];
  const std::vector<int> one{sel.index};
  return command::EditScene{(pin ? "pin particle " : "free particle ") + std::to_string(sel.index),
                            [one, pin](const Scene& s) { return edits::set_pinned(s, one, pin); }};
}

void edit_menu(StudioState& state) {
  if (!ImGui::BeginMenu("Edit")) return;
  history_items(state);
  ImGui::Separator();
  add_items(state);
  const std::optional<command::EditScene> deletion = delete_selection(state);
  if (ImGui::MenuItem("Delete Selected", "Delete", false, deletion.has_value())) state.queue(*deletion);
  const std::optional<command::EditScene> pin = toggle_pin_selection(state);
  if (ImGui::MenuItem("Pin or Free Particle", "P", false, pin.has_value())) state.queue(*pin);
  ImGui::EndMenu();
}

}  // namespace nudge::gui
