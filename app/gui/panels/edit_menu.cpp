// The Edit menu: undo, redo and the history; copy, paste and duplicate; adding particles,
// springs, generated chains, cloth, soft blocks and walkers (their dialogs are in
// generator_dialogs.cpp), bodies, colliders, objectives, joints between the selected
// bodies and attachments of the selected particles; deleting or pinning the
// selection; snapping. Every change is a command::EditScene, so it is a step of the
// document's history; what the items do to the selection is in selection_edits.cpp.
#include <imgui.h>

#include <array>
#include <string>

#include "gui/panels/selection_edits.h"
#include "studio/scene_edits.h"

namespace nudge::gui {

namespace {

// What the Edit menu changes: the dialogs and banner, the clipboard and snapping, and the
// commands it queues; the rest of the state it reads.
struct EditMenu {
  const StudioState& state;
  UiState& ui;
  EditorState& editor;
  CommandQueue& commands;
};

namespace edits = studio::edits;
using edits::Vec3;
using K = Selection::Kind;

void history_items(const EditMenu& panel) {
  const studio::Document& document = panel.state.document;
  const auto& history = document.history();
  const std::string undo = document.can_undo() ? "Undo " + history[document.position()].label : "Undo";
  const std::string redo = document.can_redo() ? "Redo " + history[document.position() + 1].label : "Redo";
  if (ImGui::MenuItem(undo.c_str(), "Ctrl+Z", false, document.can_undo())) panel.commands.push(command::Undo{});
  if (ImGui::MenuItem(redo.c_str(), "Ctrl+Shift+Z", false, document.can_redo())) panel.commands.push(command::Redo{});
  // Every step, newest last; the current one checked, those after it (undone) greyed.
  if (ImGui::BeginMenu("History", history.size() > 1)) {
    for (std::size_t k = 0; k < history.size(); ++k) {
      ImGui::PushID(static_cast<int>(k));
      const bool undone = k > document.position();
      if (undone) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
      if (ImGui::MenuItem(history[k].label.c_str(), nullptr, k == document.position()))
        panel.commands.push(command::GoToHistory{k});
      if (undone) ImGui::PopStyleColor();
      ImGui::PopID();
    }
    ImGui::EndMenu();
  }
}

// A menu item for a builder: greyed when it does not apply, with `why` as its tooltip.
void builder_item(const EditMenu& panel, const char* label, const char* shortcut,
                  const std::optional<command::EditScene>& edit, const char* why) {
  if (ImGui::MenuItem(label, shortcut, false, edit.has_value())) panel.commands.push(*edit);
  if (!edit && why && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", why);
}

// A joint submenu's last line: the axis its joints take, typed in (kept by the caller).
void axis_field(const char* id, std::array<double, 3>& axis, const char* tooltip) {
  ImGui::Separator();
  ImGui::AlignTextToFramePadding();
  ImGui::TextUnformatted("axis");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tooltip);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9);
  ImGui::InputScalarN(id, ImGuiDataType_Double, axis.data(), 3, nullptr, nullptr, "%.3g");
}

// Edit > Add > Joint Between the Selected Bodies: a submenu of the four types, and the
// axis hinges and prismatic joints take (remembered between openings).
void joint_items(const EditMenu& panel) {
  static std::array<double, 3> axis{0, 0, 1};
  const bool applies = joint_for_selection(panel.state, JointType::Ball, axis).has_value();
  const bool open = ImGui::BeginMenu("Joint Between the Selected Bodies", applies);
  if (!applies && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("select two bodies (Shift+click the second) to join them, or one to hang it from the world");
  if (!open) return;
  const std::vector<int> bodies = panel.editor.selection.members();
  if (bodies.size() == 1)
    ImGui::TextDisabled("body %d hung from the world above it", bodies[0]);
  else
    ImGui::TextDisabled("body %d (parent) to body %d (child)", bodies[0], bodies[1]);
  ImGui::Separator();
  struct Choice {
    const char* label;
    JointType type;
    const char* tooltip;
  };
  static constexpr Choice kChoices[] = {
      {"Ball", JointType::Ball, "the anchors stay together; turns freely"},
      {"Hinge", JointType::Hinge, "turns about the axis only"},
      {"Prismatic", JointType::Prismatic, "slides along the axis only; no turning"},
      {"Fixed", JointType::Fixed, "no turning, no sliding: the two move as one"},
  };
  for (const Choice& choice : kChoices) {
    if (ImGui::MenuItem(choice.label))
      if (std::optional<command::EditScene> edit = joint_for_selection(panel.state, choice.type, axis))
        panel.commands.push(std::move(*edit));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", choice.tooltip);
  }
  axis_field("##joint axis", axis, "a hinge's or prismatic joint's axis, a world direction (normalised)");
  ImGui::EndMenu();
}

// The link an edit added: the first whose name differs from the one before at its index.
Selection added_link(const Scene& before, const Scene& after) {
  const std::vector<ArticulationLink>& was = before.articulations.links;
  const std::vector<ArticulationLink>& now = after.articulations.links;
  if (now.size() != was.size() + 1) return {Selection::Kind::Settings, 0, {}};
  int k = 0;
  while (size_t(k) < was.size() && was[size_t(k)].name == now[size_t(k)].name) ++k;
  return {Selection::Kind::Link, k, {}};
}

// Edit > Add > Link on the Selected Link: a submenu of the joints, and the axis hinges
// and slides take (the new link's frame, which starts turned as its parent's;
// remembered between openings).
void link_items(const EditMenu& panel) {
  static std::array<double, 3> axis{0, 0, 1};
  const Selection& sel = panel.editor.selection;
  const bool applies = sel.kind == Selection::Kind::Link && sel.members().size() == 1 &&
                       selection_exists(edited_scene(panel.state), sel);
  const bool open = ImGui::BeginMenu("Link on the Selected Link", applies);
  if (!applies && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("select one link (in the Scene panel or the viewport) to add a link onto it");
  if (!open) return;
  const int parent = sel.index;
  ImGui::TextDisabled("onto %s, at its tip",
                      edited_scene(panel.state).articulations.links[size_t(parent)].name.c_str());
  ImGui::Separator();
  struct Choice {
    const char* label;
    ArticulationJoint joint;
    const char* tooltip;
  };
  static constexpr Choice kChoices[] = {
      {"Hinge", ArticulationJoint::Hinge, "turns about the axis"},
      {"Slide", ArticulationJoint::Slide, "slides along the axis"},
      {"Ball", ArticulationJoint::Ball, "turns every way about the joint"},
      {"Weld", ArticulationJoint::Weld, "fixed to the parent: no joint coordinate"},
  };
  for (const Choice& choice : kChoices) {
    if (ImGui::MenuItem(choice.label)) {
      const ArticulationJoint joint = choice.joint;
      const edits::Vec3 along{axis[0], axis[1], axis[2]};
      queue_edit(
          panel.commands, std::string("add a ") + std::string(articulation_joint_name(joint)) + " link",
          [parent, joint, along](const Scene& s) { return edits::add_link(s, parent, joint, along); }, added_link);
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", choice.tooltip);
  }
  axis_field("##link axis", axis, "a hinge's or slide's axis, in the link's frame (normalised)");
  ImGui::EndMenu();
}

void add_items(const EditMenu& panel) {
  if (!ImGui::BeginMenu("Add")) return;
  const Vec3 at = drop_point(panel.state);
  if (ImGui::MenuItem("Particle"))
    queue_edit(
        panel.commands, "add a particle", [at](const Scene& s) { return edits::add_particle(s, at, 0.1); },
        [](const Scene& before, const Scene& after) {
          return appended(K::Particle, before.particle_count(), after.particle_count());
        });
  ImGui::SetItemTooltip("A free particle of 0.1 kg above the middle of the view");
  builder_item(panel, "Spring Between the Two Selected Particles", nullptr, connect_with_spring(panel.state),
               "select exactly two particles (Shift+click the second)");
  ImGui::Separator();
  using G = Popups::Generator;
  if (ImGui::MenuItem("Chain...")) panel.ui.popups.generator = G::Chain;
  ImGui::SetItemTooltip(
      "A chain of particles joined by springs, its first pinned: place, links, spacing, mass, stiffness");
  if (ImGui::MenuItem("Cloth...")) panel.ui.popups.generator = G::Cloth;
  ImGui::SetItemTooltip(
      "A sheet of particles with springs or triangles (and bending), pinned along an edge or at corners");
  if (ImGui::MenuItem("Soft Block...")) panel.ui.popups.generator = G::SoftBlock;
  ImGui::SetItemTooltip("A block of particles and springs on a lattice");
  if (ImGui::MenuItem("Walker Robot...")) panel.ui.popups.generator = G::Walker;
  ImGui::SetItemTooltip("A DiffTaichi-style legged robot: muscles on their own control channels, ready to optimise");
  if (ImGui::MenuItem("Soft Box...")) panel.ui.popups.generator = G::SoftBox;
  ImGui::SetItemTooltip("A box of Neo-Hookean tetrahedra");
  if (ImGui::MenuItem("Soft Ball...")) panel.ui.popups.generator = G::SoftBall;
  ImGui::SetItemTooltip("A ball of Neo-Hookean tetrahedra");
  if (ImGui::MenuItem("Import Tet Mesh...")) panel.ui.popups.generator = G::ImportTetMesh;
  ImGui::SetItemTooltip("A tetrahedral mesh from TetGen .node/.ele files or a Gmsh .msh 2.2 file");
  ImGui::Separator();
  if (ImGui::MenuItem("Liquid...")) panel.ui.popups.generator = G::Liquid;
  ImGui::SetItemTooltip("A box of liquid material points (MLS-MPM): bulk modulus, viscosity");
  if (ImGui::MenuItem("Sand...")) panel.ui.popups.generator = G::Sand;
  ImGui::SetItemTooltip("A box of sand material points (Drucker-Prager): stiffness, friction angle");
  if (ImGui::MenuItem("Soft Solid...")) panel.ui.popups.generator = G::SoftSolid;
  ImGui::SetItemTooltip("A box of elastic material points (jelly): Young's modulus, Poisson's ratio");
  ImGui::Separator();
  // Bodies meet material points on a 3D grid only (a 2D grid's masses are per unit depth),
  // and the implicit step does not cover them (the scene check refuses both).
  const Scene& shown = panel.state.document.scene();
  const MaterialPoints& points = shown.material_points;
  const char* no_bodies = points.enabled() && points.dims == 2
                              ? "this scene's material points are on a 2D grid: bodies meet them in 3D only"
                          : shown.settings.integrator == Integrator::ImplicitEuler
                              ? "this scene steps with implicit_euler, which covers particles, springs, triangles "
                                "and tets, not bodies: switch to semi_implicit_euler first"
                          : shown.settings.integrator == Integrator::RungeKutta4
                              ? "this scene steps with rk4, which steps articulations only: switch to "
                                "semi_implicit_euler first"
                              : nullptr;
  const bool bodies_fit = no_bodies == nullptr;
  const auto body = [&](const char* item, const char* name, BodyShape shape, ShapeSize size) {
    const bool chosen = ImGui::MenuItem(item, nullptr, false, bodies_fit);
    if (!bodies_fit && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", no_bodies);
    if (!chosen) return;
    RigidBody b;
    b.shape = shape;
    queue_edit(
        panel.commands, std::string("add a ") + name,
        [b, size, at](const Scene& s) { return edits::add_body(s, b, size, at, 1000); },
        [](const Scene& before, const Scene& after) {
          return appended(K::Body, before.body_count(), after.body_count());
        });
  };
  body("Sphere (body)", "sphere", BodyShape::Sphere, {0.1, 0, 0});
  body("Box (body)", "box", BodyShape::Box, {0.1, 0.1, 0.1});
  body("Capsule (body)", "capsule", BodyShape::Capsule, {0.05, 0.15, 0});
  ImGui::Separator();
  const auto new_collider = [](const Scene& before, const Scene& after) {
    return appended(K::Collider, int(before.colliders.size()), int(after.colliders.size()));
  };
  if (ImGui::MenuItem("Ground plane (collider)"))
    queue_edit(
        panel.commands, "add a ground plane", [](const Scene& s) { return edits::add_collider(s, ColliderShape{}); },
        new_collider);
  ImGui::SetItemTooltip("A static plane at y = 0 that particles and bodies land on");
  if (ImGui::MenuItem("Box obstacle (collider)"))
    queue_edit(
        panel.commands, "add a box obstacle",
        [at](const Scene& s) {
          ColliderShape box;
          box.type = ColliderType::Box;
          box.position_from({at[0] + 0.6, 0.25, at[2]});
          box.half_extents[0] = box.half_extents[1] = box.half_extents[2] = 0.25;
          return edits::add_collider(s, box);
        },
        new_collider);
  ImGui::SetItemTooltip("A static box in front of the view");
  ImGui::Separator();
  builder_item(panel, "Target for the Selection", nullptr, add_target_for_selection(panel.state),
               "select particles or bodies: the target pulls their centroid");
  if (ImGui::MenuItem("Load Marker CSV...")) {
    if (panel.editor.selection.kind == K::Particle &&
        selection_exists(edited_scene(panel.state), panel.editor.selection)) {
      panel.ui.popups.marker_csv = true;
    } else {
      panel.ui.banner = "load marker CSV: select the particle that the file's first marker should follow first";
      panel.state.log.error(panel.ui.banner);
    }
  }
  ImGui::SetItemTooltip(
      "A markers objective from a CSV track (frame, marker, x, y, z), its first marker bound to the selected particle");
  if (ImGui::BeginMenu("Objective Term")) {
    builder_item(panel, "Come to Rest", nullptr, add_objective_for_selection(panel.state, ObjectiveType::Velocity),
                 "select particles or bodies: their centroid's velocity at the end, pulled to zero");
    builder_item(panel, "Material Points Come to Rest", nullptr,
                 add_objective_for_selection(panel.state, ObjectiveType::Rest),
                 "the scene has no material points (Edit > Add > Liquid, Sand or Soft Solid)");
    builder_item(panel, "Travel Along +x", nullptr, add_objective_for_selection(panel.state, ObjectiveType::Travel),
                 "select particles: rewards how far their centroid moves along +x");
    builder_item(panel, "Hold Final Positions", nullptr,
                 add_objective_for_selection(panel.state, ObjectiveType::Positions),
                 "select particles: each pulled to where it ends in the motion shown");
    builder_item(panel, "Point Up", nullptr, add_objective_for_selection(panel.state, ObjectiveType::Orientation),
                 "select bodies: each body's y axis pulled to point up at the end");
    builder_item(panel, "Control Effort", nullptr, add_objective_for_selection(panel.state, ObjectiveType::Effort),
                 "the scene has no muscles or joint motors to spend effort");
    builder_item(panel, "Control Smoothness", nullptr,
                 add_objective_for_selection(panel.state, ObjectiveType::Smoothness),
                 "the scene has no control channels or joint motors to smooth");
    ImGui::EndMenu();
  }
  ImGui::Separator();
  joint_items(panel);
  builder_item(panel, "Attach Selected Particles to Nearest Body", nullptr, attach_to_nearest_body(panel.state),
               edited_scene(panel.state).body_count() == 0
                   ? "the scene has no bodies to attach particles to (add a sphere, box or capsule first)"
                   : "select particles: each is held to the body whose centre is nearest");
  // Robots in joint coordinates, last (the scripted GUI test clicks the items above by place).
  ImGui::Separator();
  if (ImGui::MenuItem("Robot Base (link)"))
    queue_edit(
        panel.commands, "add a robot base", [at](const Scene& s) { return edits::add_link_base(s, at); }, added_link);
  ImGui::SetItemTooltip("A link welded to the world above the middle of the view, to add links onto");
  link_items(panel);
  ImGui::EndMenu();
}

}  // namespace

void edit_menu(const StudioState& state, UiState& ui, EditorState& editor, CommandQueue& commands) {
  const EditMenu panel{state, ui, editor, commands};
  if (!ImGui::BeginMenu("Edit")) return;
  history_items(panel);
  ImGui::Separator();
  const Selection& sel = panel.editor.selection;
  const bool copyable =
      (sel.kind == K::Particle || sel.kind == K::Body) && selection_exists(edited_scene(panel.state), sel);
  if (ImGui::MenuItem("Copy", "Ctrl+C", false, copyable)) copy_selection(panel.state, panel.editor, panel.ui.banner);
  if (!copyable && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("select particles or bodies to copy");
  // Built only when chosen: it copies the clipboard.
  if (ImGui::MenuItem("Paste", "Ctrl+V", false, panel.editor.clipboard.has_value()))
    if (std::optional<command::EditScene> paste = paste_clipboard(panel.state)) panel.commands.push(std::move(*paste));
  if (!panel.editor.clipboard && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("nothing copied yet: select particles or bodies, then Ctrl+C");
  builder_item(panel, "Duplicate", "Ctrl+D", duplicate_selection(panel.state), "select particles or bodies");
  ImGui::Separator();
  add_items(panel);
  builder_item(panel, "Delete Selected", "Delete", delete_selection(panel.state), "select elements to delete");
  builder_item(panel, "Pin or Free Particles", "P", toggle_pin_selection(panel.state), "select particles");
  ImGui::Separator();
  ImGui::MenuItem("Snap to Grid", nullptr, &panel.editor.snap);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("moves by the gizmo land on the grid; hold Ctrl while dragging to invert");
  // The Optimise tab's "Apply to the scene", here too: it is a step of the history (a
  // finished run is one by itself).
  ImGui::Separator();
  const bool moved = panel.state.optimise.unapplied();
  if (ImGui::MenuItem("Apply Iterate", nullptr, false, moved)) panel.commands.push(command::ApplyIterate{});
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip(moved ? "make iteration %d's parameters the scene's (an undoable step)"
                            : "the optimiser has not moved from the scene's values, or its result already is them",
                      moved ? panel.state.optimise.iterate->iteration : 0);
  ImGui::EndMenu();
}

}  // namespace nudge::gui
