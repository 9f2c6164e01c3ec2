// File, Edit, View and Help.
#include <imgui.h>

#include <string>

#include "gui/panels/panels.h"
#include "studio/example_guide.h"
#include "studio/lessons.h"

namespace nudge::gui {

namespace {

// What the menus change: the view, dialogs and banner, the editor's clipboard and
// snapping (Edit), and the commands they queue; the rest of the state they read.
struct MenuBar {
  const StudioState& state;
  UiState& ui;
  EditorState& editor;
  CommandQueue& commands;
};

void file_menu(const MenuBar& panel) {
  if (!ImGui::BeginMenu("File")) return;
  if (ImGui::MenuItem("New", "Ctrl+N")) panel.commands.push(command::NewScene{});
  ImGui::SetItemTooltip("An empty scene: 1 s of time, gravity and a ground; add to it from Edit > Add");
  if (ImGui::MenuItem("Open...", "Ctrl+O")) panel.ui.popups.open_file = true;
  ImGui::SetItemTooltip(
      "Open a scene file (JSON), or a sweep's table (CSV, from nudge sweep) as a plot; a shipped example opens as a "
      "copy");
  if (ImGui::MenuItem("Import Robot...")) panel.ui.popups.open_file = true;
  ImGui::SetItemTooltip(
      "A robot's MJCF (.xml) or URDF (.urdf) file as a new scene in joint coordinates, as nudge import makes it");
  if (ImGui::BeginMenu("Open Recent", !panel.state.files.recent.paths().empty())) {
    for (const std::filesystem::path& path : panel.state.files.recent.paths())
      if (ImGui::MenuItem(path.filename().string().c_str(), path.parent_path().string().c_str()))
        panel.commands.push(command::Open{path});
    ImGui::Separator();
    if (ImGui::MenuItem("Clear List")) panel.commands.push(command::ClearRecent{});
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Examples", !panel.state.files.examples.empty())) {
    // Grouped as the welcome panel groups them, each with its line on what to try.
    for (studio::Audience audience : studio::audiences()) {
      ImGui::SeparatorText(std::string(studio::audience_title(audience)).c_str());
      for (const std::filesystem::path& path : panel.state.files.examples) {
        const studio::ExampleGuide* guide = studio::example_guide(path.stem().string());
        if (!guide || guide->audience != audience) continue;
        if (ImGui::MenuItem(path.stem().string().c_str())) panel.commands.push(command::Open{path});
        ImGui::SetItemTooltip("%s", std::string(guide->try_this).c_str());
      }
    }
    // A scene put in the examples folder without a guide line still opens from here.
    bool others = false;
    for (const std::filesystem::path& path : panel.state.files.examples) {
      if (studio::example_guide(path.stem().string())) continue;
      if (!others) ImGui::SeparatorText("Others");
      others = true;
      if (ImGui::MenuItem(path.stem().string().c_str())) panel.commands.push(command::Open{path});
    }
    ImGui::EndMenu();
  }
  ImGui::Separator();
  if (ImGui::MenuItem("Save", "Ctrl+S")) panel.commands.push(command::Save{});
  ImGui::SetItemTooltip("Save to the scene's file (a new scene or an example's copy asks where)");
  if (ImGui::MenuItem("Save As...", "Ctrl+Shift+S")) panel.ui.popups.save_as = true;
  ImGui::SetItemTooltip("Save to another file; its tracks' and meshes' paths are rewritten for its folder");
  const bool exporting = panel.ui.frame_export && !panel.ui.frame_export->job().finished();
  if (ImGui::MenuItem("Export Frames...", nullptr, false, panel.state.trajectory() != nullptr && !exporting))
    panel.ui.popups.export_file = command::ExportKind::Frames;
  ImGui::Separator();
  if (ImGui::MenuItem("Quit", "Ctrl+Q")) panel.commands.push(command::Quit{});
  ImGui::SetItemTooltip("Close the window (unsaved changes ask first)");
  ImGui::EndMenu();
}

void view_menu(const MenuBar& panel) {
  if (!ImGui::BeginMenu("View")) return;
  ViewFlags& v = panel.ui.view;
  if (ImGui::BeginMenu("Panels")) {
    ImGui::MenuItem("Scene (Outliner)", nullptr, &v.outliner);
    ImGui::MenuItem(panel_name::kInspector, nullptr, &v.inspector);
    ImGui::MenuItem(panel_name::kOptimise, nullptr, &v.optimise);
    ImGui::MenuItem(panel_name::kLandscape, nullptr, &v.landscape);
    ImGui::MenuItem("Check (Gradients)", nullptr, &v.check);
    ImGui::MenuItem(panel_name::kFootage, nullptr, &v.footage);
    ImGui::MenuItem(panel_name::kLive, nullptr, &v.live);
    ImGui::MenuItem(panel_name::kSweep, nullptr, &v.sweep);
    ImGui::MenuItem(panel_name::kPose, nullptr, &v.pose);
    ImGui::MenuItem(panel_name::kTimeline, nullptr, &v.timeline);
    ImGui::MenuItem(panel_name::kLog, nullptr, &v.log);
    ImGui::Separator();
    if (ImGui::MenuItem("Reset Layout")) panel.ui.reset_layout = true;
    ImGui::SetItemTooltip("Put every panel back where the first start had it");
    ImGui::EndMenu();
  }
  ImGui::Separator();
  ImGui::MenuItem("Particles", nullptr, &v.particles);
  ImGui::MenuItem("Springs", nullptr, &v.springs);
  if (panel.state.document.scene().triangle_count() > 0) ImGui::MenuItem("Cloth", nullptr, &v.triangles);
  if (panel.state.document.scene().tet_count() > 0) ImGui::MenuItem("Soft Bodies", nullptr, &v.tets);
  ImGui::MenuItem("Objectives", nullptr, &v.objectives);
  ImGui::MenuItem("Bodies", nullptr, &v.bodies);
  ImGui::MenuItem("Colliders", nullptr, &v.colliders);
  if (panel.state.document.scene().joint_count() > 0) ImGui::MenuItem("Joints", nullptr, &v.joints);
  if (!panel.state.document.scene().attachments.empty()) ImGui::MenuItem("Attachments", nullptr, &v.attachments);
  if (view::has_collision_shapes(panel.state.document.scene())) {
    ImGui::MenuItem("Collision Shapes", nullptr, &v.collision_shapes);
    ImGui::SetItemTooltip("The links' shapes that are felt but not drawn (a URDF's <collision> geoms), in red");
  }
  ImGui::MenuItem("Ground Grid", nullptr, &v.grid);
  ImGui::SetItemTooltip("The ground plane's grid: x red, z blue, 0.1 m or 1 m cells");
  ImGui::MenuItem("Through the Shot's Camera", "C", &v.through_shot,
                  panel.state.document.scene().footage.camera.has_value() || panel.state.shot.view.video() != nullptr);
  ImGui::MenuItem("Contacts", nullptr, &v.contacts);
  ImGui::SetItemTooltip("Where things touch and the force of each contact, at the play head or in live play");
  ImGui::MenuItem("Ghosts of Earlier Iterates", nullptr, &v.ghosts);
  ImGui::SetItemTooltip("While optimising: the start (grey) and the previous iterate (blue) drawn faintly");
  if (ImGui::BeginMenu("Gradient Overlay")) {
    // One for each parameter the facts table draws, offered where the scene has its elements.
    for (view::GradientOverlay overlay : view::gradient_overlays()) {
      const std::string label = view::gradient_overlay_label(overlay);
      const bool applies = view::gradient_overlay_applies(overlay, panel.state.document.scene());
      if (ImGui::MenuItem(label.c_str(), nullptr, v.gradient == overlay, applies) && v.gradient != overlay) {
        v.gradient = overlay;
        v.arrow_scale.metres_per_unit = 0;  // a fixed scale is set again from this gradient
      }
    }
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Colour Elements By")) {
    // Cloth triangles and soft bodies' tets: their stress at the frame shown, or the
    // gradient of one of their parameters.
    for (view::ElementColoring coloring : view::element_colorings()) {
      const std::string label = view::element_coloring_label(coloring);
      const bool applies = view::element_coloring_applies(coloring, panel.state.document.scene());
      if (ImGui::MenuItem(label.c_str(), nullptr, v.element_colors == coloring, applies)) v.element_colors = coloring;
    }
    ImGui::EndMenu();
  }
  ImGui::MenuItem("Control Gradients on the Timeline", nullptr, &v.control_gradients,
                  panel.state.document.scene().channels > 0);
  ImGui::SetItemTooltip(
      "dL/du, the loss's gradient for each control channel at each step, as a heat strip under the timeline");
  ImGui::MenuItem("Controller Outputs on the Timeline", nullptr, &v.controller_outputs,
                  panel.state.document.scene().controller.enabled());
  ImGui::SetItemTooltip("What the controller network adds to each channel, step by step");
  ImGui::MenuItem("Adjoint dL/dx at the Play Head", nullptr, &v.adjoint_arrows);
  ImGui::SetItemTooltip(
      "Arrows of dL/dx at the step shown: how the rest of the motion's loss depends on where each particle is then");
  ImGui::MenuItem("Adjoint |dL/dx| on the Timeline", nullptr, &v.adjoint_track);
  ImGui::SetItemTooltip(
      "The adjoint's size against time, log scale: where gradients grow or vanish going back in time");
  ImGui::Separator();
  if (ImGui::MenuItem("Frame All", "F")) panel.commands.push(command::FrameAll{});
  ImGui::SetItemTooltip("Turn the camera to show the whole motion and the objectives' targets");
  if (ImGui::MenuItem("Reset Camera", "R")) panel.commands.push(command::ResetCamera{});
  ImGui::SetItemTooltip("The scene's own camera, or a framing one");
  ImGui::EndMenu();
}

void help_menu(const MenuBar& panel) {
  if (!ImGui::BeginMenu("Help")) return;
  if (ImGui::MenuItem("Welcome and Examples")) panel.ui.welcome = true;
  if (ImGui::BeginMenu("Lessons")) {
    for (std::size_t i = 0; i < studio::lessons().size(); ++i) {
      const studio::Lesson& lesson = studio::lessons()[i];
      if (ImGui::MenuItem(std::string(lesson.title).c_str())) panel.ui.lesson = {int(i), 0, true};
      ImGui::SetItemTooltip("%s (%zu steps; it opens its example)", std::string(lesson.summary).c_str(),
                            lesson.steps.size());
    }
    ImGui::EndMenu();
  }
  ImGui::SetItemTooltip("What Nudge does, what to do first, and every example");
  if (ImGui::MenuItem("Keys and Mouse", "F1")) panel.ui.popups.keys = true;
  ImGui::SetItemTooltip("Every key and mouse action");
  if (ImGui::MenuItem("About Nudge")) panel.ui.popups.about = true;
  ImGui::EndMenu();
}

}  // namespace

float draw_menu_bar(const StudioState& state, UiState& ui, EditorState& editor, CommandQueue& commands) {
  const MenuBar panel{state, ui, editor, commands};
  float height = 0;
  if (ImGui::BeginMainMenuBar()) {
    file_menu(panel);
    edit_menu(panel.state, panel.ui, panel.editor, panel.commands);
    view_menu(panel);
    help_menu(panel);
    height = ImGui::GetWindowSize().y;
    ImGui::EndMainMenuBar();
  }
  return height;
}

}  // namespace nudge::gui
