#include "gui/theme.h"

#include <cfloat>
#include <cstdlib>
#include <filesystem>

namespace nudge::gui {

void apply_dark_theme(float scale) {
  ImGuiStyle& style = ImGui::GetStyle();
  ImGui::StyleColorsDark(&style);
  style.WindowRounding = 0;
  style.ChildRounding = 2;
  style.FrameRounding = 3;
  style.PopupRounding = 3;
  style.ScrollbarRounding = 3;
  style.GrabRounding = 3;
  style.TabRounding = 3;
  style.WindowBorderSize = 1;
  style.FrameBorderSize = 0;
  style.WindowPadding = ImVec2(8, 8);
  style.FramePadding = ImVec2(6, 4);
  style.ItemSpacing = ImVec2(8, 5);
  style.ScrollbarSize = 12;

  // Greys a little bluer than the viewport's background (20, 22, 27), one accent blue.
  const auto rgb = [](int r, int g, int b, float a = 1.0f) {
    return ImVec4(float(r) / 255.0f, float(g) / 255.0f, float(b) / 255.0f, a);
  };
  ImVec4* c = style.Colors;
  c[ImGuiCol_Text] = rgb(222, 226, 233);
  c[ImGuiCol_TextDisabled] = rgb(128, 134, 146);
  c[ImGuiCol_WindowBg] = rgb(30, 33, 40);
  c[ImGuiCol_ChildBg] = rgb(30, 33, 40, 0);
  c[ImGuiCol_PopupBg] = rgb(36, 40, 48, 0.98f);
  c[ImGuiCol_Border] = rgb(52, 57, 68);
  c[ImGuiCol_FrameBg] = rgb(44, 48, 58);
  c[ImGuiCol_FrameBgHovered] = rgb(54, 60, 72);
  c[ImGuiCol_FrameBgActive] = rgb(62, 70, 86);
  c[ImGuiCol_TitleBg] = rgb(24, 26, 32);
  c[ImGuiCol_TitleBgActive] = rgb(28, 31, 38);
  c[ImGuiCol_MenuBarBg] = rgb(24, 26, 32);
  c[ImGuiCol_ScrollbarBg] = rgb(26, 28, 34);
  c[ImGuiCol_ScrollbarGrab] = rgb(60, 66, 78);
  c[ImGuiCol_CheckMark] = rgb(96, 160, 240);
  c[ImGuiCol_SliderGrab] = rgb(80, 140, 220);
  c[ImGuiCol_SliderGrabActive] = rgb(110, 170, 250);
  c[ImGuiCol_Button] = rgb(48, 54, 66);
  c[ImGuiCol_ButtonHovered] = rgb(62, 84, 118);
  c[ImGuiCol_ButtonActive] = rgb(74, 110, 160);
  c[ImGuiCol_Header] = rgb(50, 60, 78);
  c[ImGuiCol_HeaderHovered] = rgb(62, 84, 118);
  c[ImGuiCol_HeaderActive] = rgb(74, 110, 160);
  c[ImGuiCol_Separator] = rgb(52, 57, 68);
  c[ImGuiCol_Tab] = rgb(36, 40, 48);
  c[ImGuiCol_TabHovered] = rgb(62, 84, 118);
  c[ImGuiCol_TabSelected] = rgb(50, 60, 78);
  c[ImGuiCol_TabSelectedOverline] = rgb(96, 160, 240);
  c[ImGuiCol_TabDimmed] = rgb(30, 33, 40);
  c[ImGuiCol_TabDimmedSelected] = rgb(42, 48, 60);
  c[ImGuiCol_DockingPreview] = rgb(96, 160, 240, 0.5f);
  c[ImGuiCol_DockingEmptyBg] = rgb(20, 22, 27);
  c[ImGuiCol_PlotLines] = rgb(240, 170, 60);  // curves in orange: apart from the blue controls (tests look for it)
  c[ImGuiCol_TableHeaderBg] = rgb(38, 42, 51);
  c[ImGuiCol_TableRowBgAlt] = rgb(255, 255, 255, 0.03f);
  style.ScaleAllSizes(scale);
  // Docked tabs keep their whole names ("Landscape", "Footage") and scroll when a node is
  // narrow; a tab's close button shows on hover, so it takes no room from the name. Set
  // after ScaleAllSizes, which truncates TabMinWidthShrink to an int (FLT_MAX overflows).
  style.TabMinWidthShrink = FLT_MAX;
  style.TabCloseButtonMinWidthSelected = 0;
  style.TabCloseButtonMinWidthUnselected = FLT_MAX;
}

std::string load_fonts(const std::string& path, float size_pixels) {
  ImGuiIO& io = ImGui::GetIO();
  io.Fonts->Clear();
  std::error_code ec;
  std::string problem;
  if (path.empty())
    problem = "no font file given";
  else if (!std::filesystem::is_regular_file(path, ec))
    problem = "font file " + path + " not found";
  else if (io.Fonts->AddFontFromFileTTF(path.c_str(), size_pixels) == nullptr)
    problem = "font file " + path + " could not be read as TrueType";
  if (!problem.empty()) {
    ImFontConfig config;
    config.SizePixels = size_pixels;
    io.Fonts->AddFontDefault(&config);
    return problem + "; using Dear ImGui's built-in font";
  }
  return {};
}

std::string assets_directory() {
  if (const char* env = std::getenv("NUDGE_ASSETS_DIR"); env && *env) return env;
  return NUDGE_SOURCE_ASSETS_DIR;
}

}  // namespace nudge::gui
