// The studio's look: a dark theme whose colours match the viewport and renders, and
// the panel font from assets/.
#pragma once

#include <string>

#include <imgui.h>

namespace nudge::gui {

// Colours the panels draw with beyond ImGui's style (sRGB bytes, as ImGui takes them).
namespace theme {
inline constexpr ImU32 kErrorBanner = IM_COL32(170, 45, 45, 255);  // tests look for it
inline const ImVec4 kErrorText{1.0f, 0.45f, 0.42f, 1};
inline const ImVec4 kWarningText{0.95f, 0.78f, 0.35f, 1};
inline const ImVec4 kDimText{0.55f, 0.58f, 0.64f, 1};
inline const ImVec4 kAccent{0.35f, 0.62f, 0.95f, 1};
}  // namespace theme

// Sets ImGui's colours and spacing; `scale` is the monitor's content scale.
void apply_dark_theme(float scale);

// Loads the TTF at `path` at `size_pixels`. Returns an error message (and falls back to
// ImGui's built-in font) when the file cannot be used; empty on success.
std::string load_fonts(const std::string& path, float size_pixels);

// assets/ of this build: $NUDGE_ASSETS_DIR, else the source tree's (set at build time).
std::string assets_directory();

}  // namespace nudge::gui
