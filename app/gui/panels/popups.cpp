// Modal windows: the Open and Save As dialogs (a folder listing with a path field), and
// Help's keys and about.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <filesystem>
#include <optional>
#include <string>
#include <system_error>

#include "gui/panels/panels.h"
#include "gui/theme.h"
#include "nudge/marker_csv.h"
#include "studio/scene_edits.h"
#include "nudge/robot_import.h"

namespace nudge::gui {

namespace fs = std::filesystem;

namespace {

// What the dialogs change: which are open, the banner, and the commands they queue; the
// rest of the state they read.
struct DialogContext {
  const StudioState& state;
  UiState& ui;
  CommandQueue& commands;
};

// The state of the file dialog between frames.
struct FileDialog {
  fs::path folder;
  std::string name;  // file name or a full path typed by the user
  // The folder's entries, read when the folder changes rather than every frame.
  fs::path listed;
  std::vector<fs::directory_entry> entries;
};

// Folders first, then files, each by name.
std::vector<fs::directory_entry> read_folder(const fs::path& folder) {
  std::error_code ec;
  std::vector<fs::directory_entry> entries;
  for (fs::directory_iterator it(folder, fs::directory_options::skip_permission_denied, ec), end; !ec && it != end;
       it.increment(ec))
    entries.push_back(*it);
  std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) {
    std::error_code e1, e2;
    const bool da = a.is_directory(e1), db = b.is_directory(e2);
    return da != db ? da : a.path().filename() < b.path().filename();
  });
  return entries;
}

FileDialog g_dialog;

// `suggested`: the file name offered (empty for Open).
void start_dialog(const StudioState& state, const std::string& suggested) {
  std::error_code ec;
  const fs::path current = state.document.has_path() ? state.document.path() : fs::path{};
  g_dialog.folder = !current.empty() ? current.parent_path() : fs::current_path(ec);
  if (g_dialog.folder.empty()) g_dialog.folder = ".";
  g_dialog.folder = fs::absolute(g_dialog.folder, ec);
  g_dialog.name = suggested;
  g_dialog.listed.clear();  // read the folder afresh each time the dialog opens
}

std::string stem(const StudioState& state) {
  const studio::Document& document = state.document;
  if (document.has_path()) return document.path().stem().string();
  return document.copy_of().empty() ? "untitled" : document.copy_of().stem().string();  // an example's copy
}

const char* export_title(command::ExportKind kind) {
  switch (kind) {
    case command::ExportKind::LossHistoryCsv: return "Export Loss History";
    case command::ExportKind::ParametersJson: return "Export Optimised Parameters";
    case command::ExportKind::OptimizedScene: return "Export Optimised Scene";
    case command::ExportKind::Frames: return "Export Frames (a folder of PNGs)";
    case command::ExportKind::MotionCsv: return "Export the Motion (CSV)";
    case command::ExportKind::MotionGltf: return "Export the Motion (glTF: .gltf or .glb)";
    case command::ExportKind::FramesOverShot: return "Export Frames over the Shot (a folder of PNGs)";
  }
  return "Export";
}

std::string export_name(const StudioState& state, command::ExportKind kind) {
  switch (kind) {
    case command::ExportKind::LossHistoryCsv: return stem(state) + "_loss.csv";
    case command::ExportKind::ParametersJson: return stem(state) + "_parameters.json";
    case command::ExportKind::OptimizedScene: return stem(state) + "_optimized.json";
    case command::ExportKind::Frames: return stem(state) + "_frames";
    case command::ExportKind::MotionCsv: return stem(state) + "_motion.csv";
    case command::ExportKind::MotionGltf: return stem(state) + "_motion.glb";
    case command::ExportKind::FramesOverShot: return stem(state) + "_over_shot";
  }
  return "export";
}

std::optional<command::ExportKind> g_export_kind;  // the kind the open Export dialog writes

// The chosen path when the user confirms, else empty.
// `extension`: the only files listed (".csv"); null: scenes and tables (.json, .csv).
fs::path file_dialog(const char* title, const char* action, const char* heading = nullptr,
                     const char* extension = nullptr) {
  fs::path chosen;
  ImGui::SetNextWindowSize(ImVec2(560, 420), ImGuiCond_Appearing);
  if (!ImGui::BeginPopupModal(title, nullptr)) return chosen;
  if (heading) ImGui::TextUnformatted(heading);
  ImGui::TextDisabled("%s", g_dialog.folder.string().c_str());
  const float footer = ImGui::GetFrameHeightWithSpacing() * 2.2f;
  ImGui::BeginChild("listing", ImVec2(0, -footer), true);
  if (g_dialog.listed != g_dialog.folder || g_dialog.listed.empty()) {
    g_dialog.entries = read_folder(g_dialog.folder);
    g_dialog.listed = g_dialog.folder;
  }
  const fs::path folder = g_dialog.folder;  // a click below may change it mid-listing
  if (folder.has_parent_path() && folder != folder.root_path() && ImGui::Selectable("../"))
    g_dialog.folder = folder.parent_path();
  ImGui::SetItemTooltip("the folder above");
  for (const fs::directory_entry& entry : g_dialog.entries) {
    std::error_code e;
    const std::string name = entry.path().filename().string();
    if (name.starts_with(".")) continue;
    if (entry.is_directory(e)) {
      if (ImGui::Selectable((name + "/").c_str())) g_dialog.folder = entry.path();
    } else if (extension ? entry.path().extension() == extension
                         : entry.path().extension() == ".json" || entry.path().extension() == ".csv" ||
                               is_robot_file(entry.path())) {
      if (ImGui::Selectable(name.c_str(), g_dialog.name == name, ImGuiSelectableFlags_AllowDoubleClick)) {
        g_dialog.name = name;
        if (ImGui::IsMouseDoubleClicked(0)) chosen = entry.path();
      }
    }
  }
  ImGui::EndChild();
  ImGui::SetNextItemWidth(-1);
  const bool entered = ImGui::InputText("##name", &g_dialog.name, ImGuiInputTextFlags_EnterReturnsTrue);
  ImGui::SetItemTooltip("a file name in the folder above, or a whole path; Enter does what %s does", action);
  const bool act = ImGui::Button(action, ImVec2(120, 0));
  ImGui::SetItemTooltip("%s the file named below the listing (or double-click a file)", action);
  if ((act || entered) && !g_dialog.name.empty()) {
    const fs::path typed(g_dialog.name);
    chosen = typed.is_absolute() ? typed : g_dialog.folder / typed;
  }
  ImGui::SameLine();
  const bool cancel = ImGui::Button("Cancel", ImVec2(120, 0));
  ImGui::SetItemTooltip("Close without choosing (Esc)");
  if (cancel || ImGui::IsKeyPressed(ImGuiKey_Escape)) ImGui::CloseCurrentPopup();
  if (!chosen.empty()) ImGui::CloseCurrentPopup();
  ImGui::EndPopup();
  return chosen;
}

void keys_window(bool* open) {
  if (!ImGui::Begin(
          "Keys and Mouse", open,
          ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::End();
    return;
  }
  static const char* const kRows[][2] = {
      {"Left drag (off the selection)", "rotate the camera around its target"},
      {"Middle drag, Shift + left drag", "pan"},
      {"Wheel", "zoom"},
      {"F", "frame the whole motion"},
      {"R", "reset the camera"},
      {"C", "look through the shot's camera (the footage behind the scene) or back"},
      {"Space", "play or pause"},
      {"Left, Right", "step one frame back or forward"},
      {"Home, End", "first or last frame"},
      {"L", "loop on or off"},
      {"Ctrl+N, Ctrl+O", "new scene, open a scene"},
      {"Ctrl+S, Ctrl+Shift+S", "save, save as"},
      {"Ctrl+Z, Ctrl+Shift+Z (Ctrl+Y)", "undo, redo (Edit > History: any step)"},
      {"Delete, P", "delete the selection, pin or free the selected particles"},
      {"W, E, S", "the gizmo moves, turns or scales the selected particles or bodies"},
      {"Ctrl+C, Ctrl+V", "copy the selected particles or bodies; paste (also in another scene)"},
      {"Ctrl+D", "duplicate the selected particles or bodies"},
      {"Esc", "clear the selection, or cancel binding a marker"},
      {"Click", "select a particle, body, collider or target"},
      {"Shift+click", "add to the selection (the same kind), or take away"},
      {"Ctrl+drag", "select the particles or bodies in a box"},
      {"Drag a gizmo arrow", "move the selection along that axis"},
      {"Drag the gizmo's square", "move the selection in the view plane"},
      {"Ctrl while dragging the gizmo", "the opposite of Edit > Snap to Grid"},
      {"Ctrl+right drag", "live play: pull a particle or body towards the cursor (the Live tab)"},
      {"Ctrl+Q", "quit"},
      {"F1", "this window"},
      {"Drop a file", "open it"},
  };
  if (ImGui::BeginTable("keys", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit)) {
    for (const auto& r : kRows) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextColored(theme::kAccent, "%s", r[0]);
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(r[1]);
    }
    ImGui::EndTable();
  }
  ImGui::End();
}

void about_window(const StudioState& state, bool* open) {
  ImGui::SetNextWindowSize(ImVec2(460, 0), ImGuiCond_Appearing);
  if (!ImGui::Begin("About Nudge", open, ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings)) {
    ImGui::End();
    return;
  }
  ImGui::TextUnformatted("Nudge: inverse design on a differentiable physics engine.");
  ImGui::TextWrapped(
      "Open a scene, watch its motion, and (from the command line for now) optimise "
      "its controls and materials: nudge optimize, gradcheck, render, bench.");
  ImGui::Separator();
  ImGui::TextDisabled("Vulkan device: %s", state.ui.device_name.c_str());
  ImGui::TextDisabled("Dear ImGui %s", IMGUI_VERSION);
  ImGui::End();
}

// Asks what to do with unsaved changes before a new scene, another scene or quitting
// replaces them: Save (then go on), Discard (go on), Cancel (stay).
void unsaved_changes_popup(const DialogContext& panel) {
  constexpr const char* kTitle = "Unsaved Changes";
  if (panel.ui.popups.unsaved && !ImGui::IsPopupOpen(kTitle)) ImGui::OpenPopup(kTitle);
  ImGui::SetNextWindowPos(ImGui::GetMainViewport()->GetCenter(), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  if (!ImGui::BeginPopupModal(kTitle, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
  // After a save the action asks again if the save failed (the document is still unsaved).
  const auto go_on = [&](bool confirmed) {
    std::visit(
        [&](auto action) {
          action.confirmed = confirmed;
          panel.commands.push(action);
        },
        *panel.ui.popups.unsaved);
    panel.ui.popups.unsaved.reset();
    ImGui::CloseCurrentPopup();
  };
  const OptimiseState& optimise = panel.state.optimise;
  if (panel.state.document.dirty())
    ImGui::Text("%s has changes that are not saved.", panel.state.document.display_name().c_str());
  if (optimise.unapplied())
    ImGui::Text("The optimiser's iteration %d (loss %.4g) is not in the scene yet.", optimise.iterate->iteration,
                optimise.iterate->loss);
  ImGui::TextDisabled(optimise.unapplied() ? "Save applies the iteration and saves; Discard drops both."
                                           : "Save them first, discard them, or cancel and stay.");
  ImGui::Separator();
  // The three buttons centred, so Discard sits under the middle of the window whatever
  // the text above (the GUI test clicks it there).
  const float row = 3 * 110 + 2 * ImGui::GetStyle().ItemSpacing.x;
  ImGui::SetCursorPosX(std::max(ImGui::GetCursorPosX(), 0.5f * (ImGui::GetWindowWidth() - row)));
  const bool has_file = panel.state.document.has_path();
  if (ImGui::Button(has_file ? "Save" : "Save As...", ImVec2(110, 0))) {
    if (optimise.unapplied()) panel.commands.push(command::ApplyIterate{});
    if (has_file) {
      panel.commands.push(command::Save{});
      go_on(false);
    } else {  // the action goes on once Save As has saved (studio_commands.cpp)
      panel.ui.popups.after_save_as = *panel.ui.popups.unsaved;
      panel.ui.popups.save_as = true;
      panel.ui.popups.unsaved.reset();
      ImGui::CloseCurrentPopup();
    }
  }
  if (!has_file && ImGui::IsItemHovered()) ImGui::SetTooltip("a new scene has no file yet: choose where to save it");
  ImGui::SameLine();
  if (ImGui::Button("Discard", ImVec2(110, 0))) go_on(true);
  ImGui::SetItemTooltip("Drop the unsaved changes and go on");
  ImGui::SameLine();
  const bool cancel = ImGui::Button("Cancel", ImVec2(110, 0));
  ImGui::SetItemTooltip("Keep working on this scene (Esc)");
  if (cancel || ImGui::IsKeyPressed(ImGuiKey_Escape)) {
    panel.ui.popups.unsaved.reset();
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
}

// Offers the unsaved changes an earlier session left behind (a crash, a kill).
void recovery_popup(const DialogContext& panel) {
  constexpr const char* kTitle = "Recover Unsaved Changes";
  if (panel.ui.popups.recovery && !ImGui::IsPopupOpen(kTitle)) ImGui::OpenPopup(kTitle);
  ImGui::SetNextWindowPos(ImGui::GetMainViewport()->GetCenter(), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
  if (!ImGui::BeginPopupModal(kTitle, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
  if (panel.ui.popups.recovery) {
    const studio::RecoveredScene& r = *panel.ui.popups.recovery;
    ImGui::Text("The last session ended with unsaved changes to %s,",
                r.original.empty() ? "a new scene" : r.original.filename().string().c_str());
    ImGui::Text("written at %s. Recover them?", r.written_at.c_str());
    ImGui::TextDisabled("Recover opens them unsaved; Discard deletes them.");
  }
  ImGui::Separator();
  if (ImGui::Button("Recover", ImVec2(120, 0))) {
    panel.commands.push(command::Recover{true});
    ImGui::CloseCurrentPopup();
  }
  ImGui::SetItemTooltip("Open the recovered scene, unsaved (Save keeps it)");
  ImGui::SameLine();
  const bool discard = ImGui::Button("Discard", ImVec2(120, 0));
  ImGui::SetItemTooltip("Delete the recovered changes for good");
  if (discard) {
    panel.commands.push(command::Recover{false});
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
}

// Edit > Add > Load Marker CSV: a markers objective on the chosen file, its first marker
// bound to the selected particle (the inspector binds the others).
void marker_csv_dialog(const DialogContext& panel) {
  constexpr const char* kTitle = "Load Marker CSV";
  if (panel.ui.popups.marker_csv) {
    start_dialog(panel.state, "");
    ImGui::OpenPopup(kTitle);
    panel.ui.popups.marker_csv = false;
  }
  const Selection sel = panel.state.editor.selection;
  const bool particle = sel.kind == Selection::Kind::Particle && selection_exists(panel.state.point_scene(), sel);
  const std::string heading =
      particle ? "Its first marker will follow particle " + std::to_string(sel.index) + " (rows frame,marker,x,y,z)."
               : "Select a particle first.";
  const fs::path path = file_dialog(kTitle, "Load", heading.c_str(), ".csv");
  if (path.empty()) return;
  if (!particle) {
    panel.ui.banner = "load marker CSV: select the particle that the file's first marker should follow first";
    panel.state.log.error(panel.ui.banner);
    return;
  }
  const int p = sel.index;
  queue_edit(
      panel.commands, "load markers " + path.filename().string(),
      [path, p](const Scene& s) -> Result<Scene> {
        Result<MarkerTrack> track = read_marker_csv(path);
        if (!track) return Error{"load marker CSV: " + track.error().message};
        if (track->samples.empty()) return Error{"load marker CSV: " + path.string() + " has no samples"};
        // Kept relative to the scene's folder when it lies in it, so that the two move together.
        fs::path kept = path;
        if (!s.source.empty()) {
          const fs::path relative = path.lexically_relative(fs::absolute(s.source).parent_path());
          if (!relative.empty() && *relative.begin() != "..") kept = relative;
        }
        return studio::edits::add_markers_objective(s, kept, track->samples.front().marker, p, 1);
      },
      [](const Scene& before, const Scene&) {
        return Selection{Selection::Kind::Objective, int(before.objectives.size()), {}};
      });
}

}  // namespace

void draw_popups(const StudioState& state, UiState& ui, CommandQueue& commands) {
  const DialogContext panel{state, ui, commands};
  recovery_popup(panel);
  unsaved_changes_popup(panel);
  if (panel.ui.popups.open_file) {
    start_dialog(panel.state, "");
    ImGui::OpenPopup("Open Scene");
    panel.ui.popups.open_file = false;
  }
  if (panel.ui.popups.save_as) {
    start_dialog(panel.state,
                 panel.state.document.has_path() ? panel.state.document.path().filename().string() : "untitled.json");
    ImGui::OpenPopup("Save Scene As");
    panel.ui.popups.save_as = false;
  }
  if (panel.ui.popups.export_file) {
    g_export_kind = panel.ui.popups.export_file;
    start_dialog(panel.state, export_name(panel.state, *g_export_kind));
    ImGui::OpenPopup("Export");
    panel.ui.popups.export_file.reset();
  }
  if (fs::path path = file_dialog("Open Scene", "Open"); !path.empty()) panel.commands.push(command::Open{path});
  if (g_export_kind) {
    // One popup for every kind; its heading says which.
    if (fs::path path = file_dialog("Export", "Export", export_title(*g_export_kind)); !path.empty())
      panel.commands.push(command::Export{*g_export_kind, path});
  }
  if (fs::path path = file_dialog("Save Scene As", "Save"); !path.empty())
    panel.commands.push(command::SaveAs{path});
  else if (!ImGui::IsPopupOpen("Save Scene As"))
    panel.ui.popups.after_save_as.reset();  // cancelled: what waited on it is dropped
  marker_csv_dialog(panel);
  draw_generator_dialogs(panel.state, panel.ui, panel.commands);
  if (panel.ui.popups.keys) keys_window(&panel.ui.popups.keys);
  if (panel.ui.popups.about) about_window(panel.state, &panel.ui.popups.about);
}

}  // namespace nudge::gui
