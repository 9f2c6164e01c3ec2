// The window's panels as Dear ImGui dock windows around the scene: the user drags them
// into tabs, splits and sizes, and the arrangement is kept in the state folder for the
// next start (layout.ini). The scene is drawn behind the dock space's central node, which
// no panel may cover. The first start, and View > Reset Layout, arrange them as
// studio/panel_layout.h says for the window's size.
#pragma once

#include <filesystem>
#include <string>

#include "studio/panel_layout.h"

namespace nudge::gui {

// The dock windows' names: their titles, and their keys in layout.ini.
namespace panel_name {
inline constexpr const char* kScene = "Scene";
inline constexpr const char* kInspector = "Inspector";
inline constexpr const char* kOptimise = "Optimise";
inline constexpr const char* kLandscape = "Landscape";
inline constexpr const char* kCheck = "Check";
inline constexpr const char* kFootage = "Footage";
inline constexpr const char* kLive = "Live";
inline constexpr const char* kSweep = "Sweep";
inline constexpr const char* kPose = "Pose";
inline constexpr const char* kTimeline = "Timeline";
inline constexpr const char* kLog = "Log";
}  // namespace panel_name

// $XDG_STATE_HOME/nudge/layout.ini (else ~/.local/state/nudge/layout.ini); empty when
// neither is set, and then the layout is not kept.
std::filesystem::path default_layout_file();

class DockLayout {
public:
  // Reads the saved arrangement, if any: call once after ImGui's context is made. An
  // unreadable or foreign file is ignored (the default layout is built instead).
  explicit DockLayout(std::filesystem::path file);

  // Draws the dock space over the window, between the menu bar and the status bar (drawn
  // before it). Builds the default arrangement on the first frame without a saved one,
  // or after reset(). Returns the central node's rectangle: where the scene is drawn.
  studio::Rect draw(float line_height, int timeline_tracks);
  void reset() { reset_ = true; }
  // Writes the arrangement when ImGui says it changed (a few seconds after a drag), and
  // at exit; atomically, so a crash cannot leave half a file.
  void save_if_changed(bool force = false);

private:
  void build_default(unsigned dockspace, float line_height, int timeline_tracks);

  std::filesystem::path file_;
  std::string written_;  // what layout.ini held when read or last written
  bool reset_ = false;
};

}  // namespace nudge::gui
