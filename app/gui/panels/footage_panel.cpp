// The Footage tab: the shot a scene is matched to. Its video and timing, looking through
// its camera, the points the camera is fitted to (and the fit), and the 2D tracks: add
// one by clicking a feature, follow it through the shot, bind it to a particle so a
// tracks objective compares them through the camera.
#include <imgui.h>
#include <imgui_stdlib.h>

#include <cmath>
#include <string>

#include "footage/camera_fit.h"
#include "footage/scene_footage.h"
#include "gui/footage_viewport.h"
#include "gui/panels/inspector_rows.h"
#include "gui/panels/panels.h"
#include "studio/scene_edits.h"

namespace nudge::gui {

namespace {

// What the Footage tab changes: the shot's tools and track, the view, dialogs and banner,
// and the commands it queues; the rest of the state it reads.
struct FootagePanel {
  const StudioState& state;
  ShotState& shot;
  UiState& ui;
  CommandQueue& commands;
};

using inspector::number;
using Mode = ShotState::FootageTool::Mode;

void heading(const char* text) {
  ImGui::Spacing();
  ImGui::TextDisabled("%s", text);
  ImGui::Separator();
}

// The video row: the path as the scene writes it (relative to its folder), frame rate
// and first frame, applied together.
void video_section(const FootagePanel& panel, const Scene& scene) {
  // The fields hold what is typed until the scene's own values change (an edit, undo,
  // another scene), which they then show.
  static std::string path, shown_path;
  static double fps = 0, first = 0, shown_fps = -1, shown_first = -1;
  const std::string scene_path = scene.footage.video.generic_string();
  if (scene_path != shown_path || scene.footage.fps != shown_fps || scene.footage.first_frame != shown_first) {
    path = shown_path = scene_path;
    fps = shown_fps = scene.footage.fps;
    first = shown_first = scene.footage.first_frame;
  }
  ImGui::SetNextItemWidth(-1);
  ImGui::InputTextWithHint("##video", "video file or image folder, relative to the scene", &path);
  ImGui::SetItemTooltip(
      "The shot: a video file (FFmpeg reads it) or a folder of numbered images, relative to the scene file");
  ImGui::SetNextItemWidth(90);
  ImGui::InputDouble("fps", &fps, 0, 0, "%.6g");
  ImGui::SetItemTooltip("The shot's frames per second");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(70);
  ImGui::InputDouble("first frame", &first, 0, 0, "%.0f");
  ImGui::SetItemTooltip("The shot's frame that is the simulation's step 0");
  ImGui::SameLine();
  if (ImGui::Button("Apply")) {
    const std::filesystem::path video = path;
    const double rate = fps;
    const int start = int(std::lround(first));
    panel.commands.push(command::EditScene("set footage", [video, rate, start](const Scene& sc) {
      return studio::edits::set_footage(sc, video, rate, start);
    }));
  }
  ImGui::SetItemTooltip("Use this video, rate and first frame for the scene (one step of history)");
  if (const footage::VideoReader* video = panel.shot.view.video()) {
    std::string info = std::to_string(video->width()) + " x " + std::to_string(video->height()) + ", " +
                       std::to_string(video->frame_count()) + " frames at " + number(video->fps()) + " fps";
    if (std::abs(video->fps() - scene.footage.fps) > 1e-6 * scene.footage.fps)
      info += " (the scene says " + number(scene.footage.fps) + ")";
    ImGui::TextWrapped("%s", info.c_str());
  } else if (!panel.shot.view.error().empty()) {
    ImGui::TextColored(ImVec4(1, 0.45f, 0.4f, 1), "%s", panel.shot.view.error().c_str());
  }
  if (const std::optional<int> spf = steps_per_frame(scene.footage.fps, scene.settings.dt))
    ImGui::TextDisabled("%d simulation steps per frame", *spf);
  else
    ImGui::TextColored(ImVec4(1, 0.8f, 0.3f, 1), "%s steps per frame: tracks objectives need a whole number (set dt)",
                       number(1.0 / (scene.footage.fps * scene.settings.dt)).c_str());
}

void camera_section(const FootagePanel& panel, const Scene& scene) {
  const bool can_look = scene.footage.camera || panel.shot.view.video();
  ImGui::BeginDisabled(!can_look);
  ImGui::Checkbox("Look through the shot's camera (C)", &panel.ui.view.through_shot);
  ImGui::SetItemTooltip("See the scene through the fitted camera with the shot's frame behind it");
  ImGui::EndDisabled();
  if (const std::optional<PinholeCamera>& c = scene.footage.camera)
    ImGui::TextWrapped("Camera: focal %s px (%s deg vertical), at %s m", number(c->focal).c_str(),
                       number(vertical_fov_degrees(*c)).c_str(), inspector::vec3(c->position).c_str());
  else
    ImGui::TextDisabled("No camera yet: place 4 or more points of known place, then Fit Camera.");

  // The correspondences, with each one's error through the camera.
  const std::vector<CameraCorrespondence>& points = scene.footage.correspondences;
  if (!points.empty() && ImGui::BeginTable("points", 4, ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_RowBg)) {
    for (size_t k = 0; k < points.size(); ++k) {
      ImGui::PushID(int(k));
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(inspector::vec3(points[k].world).c_str());
      ImGui::TableNextColumn();
      ImGui::Text("(%.1f, %.1f)", points[k].image[0], points[k].image[1]);
      ImGui::TableNextColumn();
      double uv[2];
      if (scene.footage.camera && project_point(*scene.footage.camera, points[k].world, uv) >= kMinProjectionDepth)
        ImGui::Text("%.2f px", std::hypot(uv[0] - points[k].image[0], uv[1] - points[k].image[1]));
      ImGui::TableNextColumn();
      if (ImGui::SmallButton("x")) {
        const int index = int(k);
        panel.commands.push(command::EditScene("delete correspondence", [index](const Scene& sc) {
          return studio::edits::delete_correspondence(sc, index);
        }));
      }
      ImGui::SetItemTooltip("Delete this correspondence");
      ImGui::PopID();
    }
    ImGui::EndTable();
  }
  ImGui::SetNextItemWidth(180);
  ImGui::InputScalarN("##world", ImGuiDataType_Double, panel.shot.tool.world, 3, nullptr, nullptr, "%.4g");
  ImGui::SetItemTooltip("The world point (m) of the next correspondence; then click where it is in the shot");
  ImGui::SameLine();
  ImGui::BeginDisabled(!can_look);
  if (ImGui::Button("Place Point in View")) {
    panel.shot.tool.mode = Mode::PlacePoint;
    panel.ui.view.through_shot = true;
  }
  ImGui::SetItemTooltip("Click in the viewport where the world point above appears in the shot");
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("A point whose place in the world (m) you know: type it, then click where it shows in the shot");
  // Without points to fit to: the view the user has lined up by orbiting, taken as it is.
  ImGui::BeginDisabled(!panel.shot.view.video() || scene.footage.camera.has_value());
  if (ImGui::Button("Camera from the View")) {
    if (const std::optional<PinholeCamera> camera = shot_view_camera(panel.state)) {
      const PinholeCamera taken = *camera;
      panel.commands.push(command::EditScene(
          "camera from the view", [taken](const Scene& sc) { return studio::edits::set_footage_camera(sc, taken); }));
    }
  }
  ImGui::SetItemTooltip("Start the shot's camera from the viewport's current camera");
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("Orbit until the scene lines up with the shot, then take that view as the shot's camera");
  ImGui::SameLine();
  ImGui::BeginDisabled(points.size() < 4);
  if (ImGui::Button("Fit Camera")) {
    const footage::VideoReader* video = panel.shot.view.video();
    const int width = video ? video->width() : scene.footage.camera ? scene.footage.camera->width : 0;
    const int height = video ? video->height() : scene.footage.camera ? scene.footage.camera->height : 0;
    Result<footage::CameraFit> fit = footage::fit_camera(points, width, height);
    if (!fit) {
      panel.state.log.error(fit.error().message);
      panel.ui.banner = fit.error().message;
    } else {
      panel.state.log.info("fitted the shot's camera: focal " + number(fit->camera.focal) +
                           " px, reprojection error rms " + number(fit->rms_error) + " px, max " +
                           number(fit->max_error) + " px");
      const PinholeCamera camera = fit->camera;
      panel.commands.push(command::EditScene(
          "fit camera", [camera](const Scene& sc) { return studio::edits::set_footage_camera(sc, camera); }));
    }
  }
  ImGui::SetItemTooltip("Fit the camera's pose and focal length to the correspondences (at least 4)");
  ImGui::EndDisabled();
}

void tracks_section(const FootagePanel& panel, const Scene& scene) {
  const std::vector<Track>& tracks = scene.footage.tracks;
  if (!tracks.empty() && ImGui::BeginTable("tracks", 4, ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_RowBg)) {
    for (const Track& t : tracks) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      const std::string label = std::to_string(t.id) + " " + t.name;
      if (ImGui::Selectable(label.c_str(), panel.shot.selected_track == t.id, ImGuiSelectableFlags_SpanAllColumns))
        panel.shot.selected_track = t.id;
      ImGui::TableNextColumn();
      ImGui::Text("%zu frames", t.samples.size());
      ImGui::TableNextColumn();
      ImGui::Text("conf %.2f", t.mean_confidence());
      ImGui::TableNextColumn();
      if (const int bound = footage::bound_particle(scene, t.id); bound >= 0)
        ImGui::Text("particle %d", bound);
      else
        ImGui::TextDisabled("unbound");
    }
    ImGui::EndTable();
  }
  ImGui::SetNextItemWidth(120);
  ImGui::InputText("##name", &panel.shot.tool.track_name);
  ImGui::SetItemTooltip("The new track's name");
  ImGui::SameLine();
  ImGui::BeginDisabled(!scene.footage.camera && !panel.shot.view.video());
  if (ImGui::Button("Add Track in View")) {
    panel.shot.tool.mode = Mode::AddTrack;
    panel.ui.view.through_shot = true;
  }
  ImGui::SetItemTooltip("Click a feature in the shot at the frame shown to start a 2D track there");
  ImGui::EndDisabled();

  const Track* selected = scene.footage.track(panel.shot.selected_track);
  if (!selected) return;
  const int id = selected->id;
  const bool tracking = panel.shot.tracking && !panel.shot.tracking->job().finished();
  ImGui::BeginDisabled(tracking || !panel.shot.view.video());
  if (ImGui::Button("Track Through the Shot")) panel.commands.push(command::TrackFeature{id});
  ImGui::SetItemTooltip("Follow the selected track's feature through every frame (optical flow), in the background");
  ImGui::EndDisabled();
  if (tracking) {
    ImGui::SameLine();
    ImGui::TextDisabled("tracking...");
  }
  const bool particle = panel.state.editor.selection.kind == Selection::Kind::Particle;
  ImGui::BeginDisabled(!particle || !scene.footage.camera);
  if (ImGui::Button("Bind to Selected Particle")) {
    const int p = panel.state.editor.selection.index;
    panel.commands.push(command::EditScene("bind track " + std::to_string(id) + " to particle " + std::to_string(p),
                                           [id, p](const Scene& sc) { return studio::edits::bind_track(sc, id, p); }));
  }
  ImGui::SetItemTooltip("The selected particle should follow this track: a markers objective through the camera");
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("A tracks objective then compares the particle, seen through the camera, with this track");
  ImGui::SameLine();
  if (ImGui::Button("Delete Track")) {
    panel.commands.push(command::EditScene("delete track " + std::to_string(id),
                                           [id](const Scene& sc) { return studio::edits::delete_track(sc, id); }));
    panel.shot.selected_track = -1;
  }
  ImGui::SetItemTooltip("Delete the selected track and the objectives that use it");
  ImGui::TextDisabled("Drag its point in the view to correct it on a frame; tracking again keeps the corrections.");
}

}  // namespace

void draw_footage_contents(const StudioState& state, ShotState& shot, UiState& ui, CommandQueue& commands) {
  const FootagePanel panel{state, shot, ui, commands};
  const Scene& scene = panel.state.document.scene();
  heading("Video");
  video_section(panel, scene);
  heading("Camera");
  camera_section(panel, scene);
  heading("Tracks");
  tracks_section(panel, scene);
  heading("Export the motion shown");
  if (ImGui::Button("CSV...")) panel.ui.popups.export_file = command::ExportKind::MotionCsv;
  ImGui::SetItemTooltip(
      "Save every particle's and body's position at the shot's frames as CSV, with their pixel positions");
  ImGui::SameLine();
  if (ImGui::Button("glTF...")) panel.ui.popups.export_file = command::ExportKind::MotionGltf;
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("An animated node per particle and body, and the shot's camera");
  ImGui::SameLine();
  const bool exporting = panel.ui.frame_export && !panel.ui.frame_export->job().finished();
  ImGui::BeginDisabled(!scene.footage.camera || !panel.shot.view.video() || exporting);
  if (ImGui::Button("Frames over the Shot...")) panel.ui.popups.export_file = command::ExportKind::FramesOverShot;
  ImGui::SetItemTooltip("Draw the motion over the shot's frames as PNGs into a folder");
  ImGui::EndDisabled();
}

}  // namespace nudge::gui
