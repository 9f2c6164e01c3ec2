# Dear ImGui 1.93 with docking, its GLFW and Vulkan backends, ImPlot and ImGuizmo, compiled
# from the sources scripts/fetch_imgui unpacks into third_party/imgui_bundle (pinned by
# version and SHA-256). Defines the target nudge_imgui when the sources and GLFW are there.
set(NUDGE_IMGUI_BUNDLE_DIR "${PROJECT_SOURCE_DIR}/third_party/imgui_bundle" CACHE PATH
  "Where scripts/fetch_imgui unpacked imgui-bundle's Dear ImGui, ImPlot and ImGuizmo")
find_package(Vulkan QUIET)
if(TARGET glfw AND TARGET Vulkan::Vulkan AND EXISTS "${NUDGE_IMGUI_BUNDLE_DIR}/imgui/imgui.cpp")
  set(dir "${NUDGE_IMGUI_BUNDLE_DIR}")
  add_library(nudge_imgui STATIC
    ${dir}/imgui/imgui.cpp
    ${dir}/imgui/imgui_draw.cpp
    ${dir}/imgui/imgui_tables.cpp
    ${dir}/imgui/imgui_widgets.cpp
    ${dir}/imgui/imgui_stacklayout.cpp
    ${dir}/imgui/misc/cpp/imgui_stdlib.cpp
    ${dir}/imgui/backends/imgui_impl_glfw.cpp
    ${dir}/imgui/backends/imgui_impl_vulkan.cpp
    ${dir}/implot/implot.cpp
    ${dir}/implot/implot_items.cpp
    ${dir}/ImGuizmo/src/ImGuizmo.cpp)
  # SYSTEM: their headers' warnings are not ours to fix, and -Werror must not stop on them.
  target_include_directories(nudge_imgui SYSTEM PUBLIC ${dir}/imgui ${dir}/imgui/backends ${dir}/imgui/misc/cpp ${dir}/implot ${dir}/ImGuizmo/src)
  # Our code uses the current API only; obsolete names are compile errors.
  target_compile_definitions(nudge_imgui PUBLIC IMGUI_DISABLE_OBSOLETE_FUNCTIONS IMGUI_DISABLE_OBSOLETE_KEYIO)
  target_compile_options(nudge_imgui PRIVATE -w)
  # ImPlot's items for the types we plot (doubles; floats beside them) rather than its
  # twelve: implot_items.cpp's instantiations of every plot for every type were the
  # longest compile of a cold release build (146 s).
  target_compile_definitions(nudge_imgui PRIVATE "IMPLOT_CUSTOM_NUMERIC_TYPES=(float)(double)")
  set_target_properties(nudge_imgui PROPERTIES UNITY_BUILD OFF)  # their sources are not written to share one file
  target_link_libraries(nudge_imgui PUBLIC glfw Vulkan::Vulkan)
  set_target_properties(nudge_imgui PROPERTIES POSITION_INDEPENDENT_CODE ON)
endif()
