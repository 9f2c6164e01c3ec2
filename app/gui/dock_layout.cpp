#include "gui/dock_layout.h"

#include <imgui.h>
#include <imgui_internal.h>  // DockBuilder: the default arrangement

#include <fstream>
#include <sstream>
#include <string>

#include "nudge/atomic_file.h"
#include "studio/recovery.h"

namespace nudge::gui {

namespace {

constexpr const char* kDockSpaceName = "Nudge panels";

}  // namespace

std::filesystem::path default_layout_file() {
  const std::filesystem::path dir = studio::default_recovery_dir();  // the state folder
  return dir.empty() ? dir : dir / "layout.ini";
}

DockLayout::DockLayout(std::filesystem::path file) : file_(std::move(file)) {
  ImGuiIO& io = ImGui::GetIO();
  io.ConfigFlags |= ImGuiConfigFlags_DockingEnable;
  io.IniFilename = nullptr;  // read and written here, atomically
  io.ConfigWindowsMoveFromTitleBarOnly = true;
  if (file_.empty()) return;
  std::ifstream in(file_, std::ios::binary);
  if (!in) return;
  std::ostringstream text;
  text << in.rdbuf();
  written_ = text.str();
  ImGui::LoadIniSettingsFromMemory(written_.c_str(), written_.size());
}

void DockLayout::save_if_changed(bool force) {
  ImGuiIO& io = ImGui::GetIO();
  if (!io.WantSaveIniSettings && !force) return;
  io.WantSaveIniSettings = false;
  if (file_.empty()) return;
  std::size_t size = 0;
  const char* data = ImGui::SaveIniSettingsToMemory(&size);
  std::string text(data, size);
  if (text == written_) return;
  std::error_code ec;
  std::filesystem::create_directories(file_.parent_path(), ec);
  // A layout that cannot be kept costs the user only its arrangement; not worth a banner.
  if (write_file_atomically(file_, text)) written_ = std::move(text);
}

void DockLayout::build_default(unsigned dockspace, float line_height, int timeline_tracks) {
  const ImGuiViewport* viewport = ImGui::GetMainViewport();
  const ImVec2 work = viewport->WorkSize;
  // The sizes studio/panel_layout.h gives this window; the status bar is already outside
  // the work area, so it is added back for the computation and then ignored.
  studio::PanelsShown shown;
  shown.timeline_tracks = timeline_tracks;
  const float status = line_height + 4;
  const studio::PanelLayout sizes = studio::compute_panel_layout(work.x, work.y + status, 0, line_height, shown);

  ImGui::DockBuilderRemoveNode(dockspace);
  ImGui::DockBuilderAddNode(dockspace, ImGuiDockNodeFlags_DockSpace);
  ImGui::DockBuilderSetNodeSize(dockspace, work);
  ImGuiID rest = dockspace;
  const ImGuiID log = ImGui::DockBuilderSplitNode(rest, ImGuiDir_Down, sizes.log.height / work.y, nullptr, &rest);
  const float above_log = work.y - sizes.log.height;
  const ImGuiID timeline =
      ImGui::DockBuilderSplitNode(rest, ImGuiDir_Down, sizes.timeline.height / above_log, nullptr, &rest);
  const ImGuiID outliner =
      ImGui::DockBuilderSplitNode(rest, ImGuiDir_Left, sizes.outliner.width / work.x, nullptr, &rest);
  const ImGuiID side = ImGui::DockBuilderSplitNode(
      rest, ImGuiDir_Right, sizes.inspector.width / (work.x - sizes.outliner.width), nullptr, &rest);
  ImGui::DockBuilderDockWindow(panel_name::kScene, outliner);
  for (const char* name : {panel_name::kInspector, panel_name::kOptimise, panel_name::kLandscape, panel_name::kCheck,
                           panel_name::kFootage, panel_name::kLive, panel_name::kSweep, panel_name::kPose})
    ImGui::DockBuilderDockWindow(name, side);
  ImGui::DockBuilderDockWindow(panel_name::kTimeline, timeline);
  ImGui::DockBuilderDockWindow(panel_name::kLog, log);
  if (ImGuiDockNode* node = ImGui::DockBuilderGetNode(timeline))
    node->SetLocalFlags(node->LocalFlags | ImGuiDockNodeFlags_AutoHideTabBar);
  ImGui::DockBuilderFinish(dockspace);
}

studio::Rect DockLayout::draw(float line_height, int timeline_tracks) {
  const ImGuiID id = ImHashStr(kDockSpaceName);
  if (reset_ || ImGui::DockBuilderGetNode(id) == nullptr) build_default(id, line_height, timeline_tracks);
  reset_ = false;
  // Passthrough: the central node draws nothing, so the scene behind it shows; and no
  // panel may be docked over it. Each tab has its own close button, so a node has none.
  ImGui::DockSpaceOverViewport(id, ImGui::GetMainViewport(),
                               ImGuiDockNodeFlags_PassthruCentralNode | ImGuiDockNodeFlags_NoDockingOverCentralNode |
                                   ImGuiDockNodeFlags_NoCloseButton);
  const ImGuiDockNode* central = ImGui::DockBuilderGetCentralNode(id);
  if (!central) return {};
  return {central->Pos.x, central->Pos.y, central->Size.x, central->Size.y};
}

}  // namespace nudge::gui
