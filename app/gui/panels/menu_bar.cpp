// File, Edit, View and Help.
#include <imgui.h>

#include <string>

#include "gui/panels/panels.h"

namespace nudge::gui {

namespace {

void file_menu(StudioState& state) {
  if (!ImGui::BeginMenu("File")) return;
  if (ImGui::MenuItem("New", "Ctrl+N")) state.queue(command::NewScene{});
  if (ImGui::MenuItem("Open...", "Ctrl+O")) state.ui.popups.open_file = true;
  if (ImGui::BeginMenu("Open Recent", !state.files.recent.paths().empty())) {
    for (const std::filesystem::path& path : state.files.recent.paths())
      if (ImGui::MenuItem(path.filename().string().c_str(), path.parent_path().string().c_str()))
        state.queue(command::Open{path});
    ImGui::Separator();
    if (ImGui::MenuItem("Clear List")) state.queue(command::ClearRecent{});
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Examples", !state.files.examples.empty())) {
    for (const std::filesystem::path& path : state.files.examples)
      if (ImGui::MenuItem(path.stem().string().c_str())) state.queue(command::Open{path});
    ImGui::EndMenu();
  }
  ImGui::Separator();
  if (ImGui::MenuItem("Save", "Ctrl+S")) state.queue(command::Save{});
  if (ImGui::MenuItem("Save As...", "Ctrl+Shift+S")) state.ui.popups.save_as = true;
  const bool exporting = state.ui.frame_export && !state.ui.frame_export->job().finished();
  if (ImGui::MenuItem("Export Frames...", nullptr, false, state.trajectory() != nullptr && !exporting))
    state.ui.popups.export_file = command::ExportKind::Frames;
  ImGui::Separator();
  if (ImGui::MenuItem("Quit", "Ctrl+Q")) state.queue(command::Quit{});
  ImGui::EndMenu();
}

void view_menu(StudioState& state) {
  if (!ImGui::BeginMenu("View")) return;
  ViewFlags& v = state.ui.view;
  ImGui::MenuItem("Outliner", nullptr, &v.outliner);
  ImGui::MenuItem("Inspector", nullptr, &v.inspector);
  ImGui::MenuItem("Timeline", nullptr, &v.timeline);
  ImGui::MenuItem("Log", nullptr, &v.log);
  ImGui::Separator();
  ImGui::MenuItem("Particles", nullptr, &v.particles);
  ImGui::MenuItem("Springs", nullptr, &v.springs);
  if (state.document.scene().triangle_count() > 0) ImGui::MenuItem("Cloth", nullptr, &v.triangles);
  if (state.document.scene().tet_count() > 0) ImGui::MenuItem("Soft Bodies", nullptr, &v.tets);
  ImGui::MenuItem("Objectives", nullptr, &v.objectives);
  ImGui::MenuItem("Bodies", nullptr, &v.bodies);
  ImGui::MenuItem("Colliders", nullptr, &v.colliders);
  if (state.document.scene().joint_count() > 0) ImGui::MenuItem("Joints", nullptr, &v.joints);
  if (!state.document.scene().attachments.empty()) ImGui::MenuItem("Attachments", nullptr, &v.attachments);
  ImGui::MenuItem("Ground Grid", nullptr, &v.grid);
  ImGui::MenuItem("Through the Shot's Camera", "C", &v.through_shot,
                  state.document.scene().footage.camera.has_value() || state.shot.view.video() != nullptr);
  ImGui::MenuItem("Ghosts of Earlier Iterates", nullptr, &v.ghosts);
  if (ImGui::BeginMenu("Gradient Overlay")) {
    // One for each parameter the facts table draws, offered where the scene has its elements.
    for (view::GradientOverlay overlay : view::gradient_overlays()) {
      const std::string label = view::gradient_overlay_label(overlay);
      const bool applies = view::gradient_overlay_applies(overlay, state.document.scene());
      if (ImGui::MenuItem(label.c_str(), nullptr, v.gradient == overlay, applies)) v.gradient = overlay;
    }
    ImGui::EndMenu();
  }
  if (ImGui::BeginMenu("Colour Elements By")) {
    // Cloth triangles and soft bodies' tets: their stress at the frame shown, or the
    // gradient of one of their parameters.
    for (view::ElementColoring coloring : view::element_colorings()) {
      const std::string label = view::element_coloring_label(coloring);
      const bool applies = view::element_coloring_applies(coloring, state.document.scene());
      if (ImGui::MenuItem(label.c_str(), nullptr, v.element_colors == coloring, applies)) v.element_colors = coloring;
    }
    ImGui::EndMenu();
  }
  ImGui::MenuItem("Control Gradients on the Timeline", nullptr, &v.control_gradients,
                  state.document.scene().channels > 0);
  ImGui::MenuItem("Controller Outputs on the Timeline", nullptr, &v.controller_outputs,
                  state.document.scene().controller.enabled());
  ImGui::MenuItem("Adjoint dL/dx at the Play Head", nullptr, &v.adjoint_arrows);
  ImGui::MenuItem("Adjoint |dL/dx| on the Timeline", nullptr, &v.adjoint_track);
  ImGui::Separator();
  if (ImGui::MenuItem("Frame All", "F")) state.queue(command::FrameAll{});
  if (ImGui::MenuItem("Reset Camera", "R")) state.queue(command::ResetCamera{});
  ImGui::EndMenu();
}

void help_menu(StudioState& state) {
  if (!ImGui::BeginMenu("Help")) return;
  if (ImGui::MenuItem("Keys and Mouse", "F1")) state.ui.popups.keys = true;
  if (ImGui::MenuItem("About Nudge")) state.ui.popups.about = true;
  ImGui::EndMenu();
}

}  // namespace

float draw_menu_bar(StudioState& state) {
  float height = 0;
  if (ImGui::BeginMainMenuBar()) {
    file_menu(state);
    edit_menu(state);
    view_menu(state);
    help_menu(state);
    height = ImGui::GetWindowSize().y;
    ImGui::EndMainMenuBar();
  }
  return height;
}

}  // namespace nudge::gui
