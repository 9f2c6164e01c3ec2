#include "gui/footage_viewport.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "footage/scene_footage.h"
#include "studio/scene_edits.h"
#include "view/footage_plate.h"

namespace nudge::gui {

namespace {

constexpr float kGrabRadius = 9;  // px: how near a click must be to a track's point
constexpr int kPathFrames = 20;   // frames of a track's path drawn each side of the play head
const ImU32 kTrackColor = IM_COL32(90, 220, 255, 255);
const ImU32 kSelectedColor = IM_COL32(255, 220, 60, 255);
const ImU32 kResidualColor = IM_COL32(255, 90, 70, 230);
const ImU32 kParticleColor = IM_COL32(255, 150, 40, 255);
const ImU32 kPointColor = IM_COL32(255, 240, 120, 255);

int play_head_frame(const StudioState& state) {
  return studio::shot_frame_at_step(state.scene(), state.shown.playback.frame());
}

// The track's sample on `frame`, if it has one.
const TrackSample* sample_at(const Track& track, int frame) {
  for (const TrackSample& s : track.samples)
    if (s.frame == frame) return &s;
  return nullptr;
}

}  // namespace

std::optional<PinholeCamera> shot_view_camera(const StudioState& state) {
  const Scene& scene = state.scene();
  if (scene.footage.camera) return scene.footage.camera;
  const footage::VideoReader* video = state.shot.view.video();
  if (!video) return std::nullopt;
  const render::Camera orbit = state.ui.camera.camera();
  PinholeCamera camera;
  camera.width = video->width(), camera.height = video->height();
  camera.focal = 0.5 * camera.height / std::tan(0.5 * double(orbit.fov_y_degrees) * M_PI / 180.0);
  camera.principal[0] = 0.5 * (camera.width - 1), camera.principal[1] = 0.5 * (camera.height - 1);
  const double eye[3] = {orbit.eye.x, orbit.eye.y, orbit.eye.z},
               target[3] = {orbit.target.x, orbit.target.y, orbit.target.z};
  std::copy(eye, eye + 3, camera.position);
  look_at_orientation(eye, target, camera.orientation);
  return camera;
}

void handle_shot_mouse(StudioState& state, const studio::Rect& viewport, bool inside) {
  const Scene& scene = state.scene();
  const std::optional<PinholeCamera> camera = shot_view_camera(state);
  if (!camera) return;
  const view::PlateFraming framing = view::plate_framing(*camera, viewport.width, viewport.height);
  const ImGuiIO& io = ImGui::GetIO();
  const glm::dvec2 at = framing.to_image(io.MousePos.x - viewport.x, io.MousePos.y - viewport.y);
  const int frame = play_head_frame(state);
  using Mode = ShotState::FootageTool::Mode;
  ShotState::FootageTool& tool = state.shot.tool;

  if (state.shot.track_drag) {
    if (ImGui::IsMouseDown(0)) {
      state.shot.track_drag->u = at.x, state.shot.track_drag->v = at.y;
    } else {  // released: the key goes where the point was dropped
      const ShotState::TrackDrag drag = *state.shot.track_drag;
      state.shot.track_drag.reset();
      state.queue(command::EditScene(
          "move track " + std::to_string(drag.track) + "'s key on frame " + std::to_string(drag.frame),
          [drag](const Scene& sc) {
            return studio::edits::set_track_key(sc, drag.track, drag.frame, drag.u, drag.v);
          }));
    }
    return;
  }
  if (!inside || io.WantCaptureMouse || !ImGui::IsMouseClicked(0)) return;
  if (tool.mode == Mode::AddTrack) {
    const std::string name = tool.track_name;
    state.shot.selected_track = scene.footage.next_track_id();
    state.queue(command::EditScene("add track " + name, [name, frame, at](const Scene& sc) {
      return studio::edits::add_track(sc, name, frame, at.x, at.y);
    }));
    tool.mode = Mode::None;
  } else if (tool.mode == Mode::PlacePoint) {
    CameraCorrespondence c;
    std::copy(tool.world, tool.world + 3, c.world);
    c.image[0] = at.x, c.image[1] = at.y;
    c.frame = std::max(frame, 0);
    state.queue(command::EditScene("add correspondence",
                                   [c](const Scene& sc) { return studio::edits::add_correspondence(sc, c); }));
    tool.mode = Mode::None;
  } else {  // grab the nearest track point at the play head
    float best = kGrabRadius;
    for (const Track& t : scene.footage.tracks)
      if (const TrackSample* s = sample_at(t, frame)) {
        const glm::vec2 p = framing.to_viewport(s->uv[0], s->uv[1]);
        const float d = std::hypot(p.x - (io.MousePos.x - viewport.x), p.y - (io.MousePos.y - viewport.y));
        if (d < best) best = d, state.shot.track_drag = ShotState::TrackDrag{t.id, frame, s->uv[0], s->uv[1]};
      }
    if (state.shot.track_drag) state.shot.selected_track = state.shot.track_drag->track;
  }
}

void draw_shot_overlay(StudioState& state, const studio::Rect& viewport) {
  const Scene& scene = state.scene();
  const std::optional<PinholeCamera> viewing = shot_view_camera(state);
  if (!state.ui.view.through_shot || !viewing || viewport.empty()) return;
  const PinholeCamera& camera = *viewing;
  const bool fitted = scene.footage.camera.has_value();  // else the 3D scene does not line up yet
  const view::PlateFraming framing = view::plate_framing(camera, viewport.width, viewport.height);
  const auto screen = [&](double u, double v) {
    const glm::vec2 p = framing.to_viewport(u, v);
    return ImVec2(viewport.x + p.x, viewport.y + p.y);
  };
  ImDrawList* draw = ImGui::GetBackgroundDrawList();
  draw->PushClipRect(ImVec2(viewport.x, viewport.y), ImVec2(viewport.right(), viewport.bottom()), true);
  const int frame = play_head_frame(state);
  const Trajectory* traj = state.trajectory();

  for (const Track& track : scene.footage.tracks) {
    const ImU32 color = track.id == state.shot.selected_track ? kSelectedColor : kTrackColor;
    // The path near the play head, fading with distance in frames.
    for (size_t k = 1; k < track.samples.size(); ++k) {
      const TrackSample &a = track.samples[k - 1], &b = track.samples[k];
      if (b.frame - a.frame != 1 || std::abs(b.frame - frame) > kPathFrames) continue;
      const float fade = 1.0f - float(std::abs(b.frame - frame)) / float(kPathFrames + 1);
      draw->AddLine(screen(a.uv[0], a.uv[1]), screen(b.uv[0], b.uv[1]),
                    (color & 0x00FFFFFF) | (ImU32(200 * fade) << 24), 1.5f);
    }
    const TrackSample* s = sample_at(track, frame);
    const bool dragged = state.shot.track_drag && state.shot.track_drag->track == track.id;
    const TrackSample at_drag{
        frame, {dragged ? state.shot.track_drag->u : 0, dragged ? state.shot.track_drag->v : 0}, 1.0, true};
    if (dragged) s = &at_drag;
    if (!s) continue;
    const ImVec2 p = screen(s->uv[0], s->uv[1]);
    // The residual: from the track to where the bound particle is seen through the camera.
    const int particle = footage::bound_particle(scene, track.id);
    if (fitted && particle >= 0 && traj && particle < traj->particles) {
      const int step = std::clamp(state.shown.playback.frame(), 0, traj->steps);
      double uv[2];
      if (project_point(camera, &traj->x[(size_t(step) * traj->particles + particle) * 3], uv) >= kMinProjectionDepth) {
        const ImVec2 q = screen(uv[0], uv[1]);
        draw->AddLine(p, q, kResidualColor, 1.5f);
        draw->AddCircleFilled(q, 3.5f, kParticleColor);
      }
    }
    if (s->key)
      draw->AddRect(ImVec2(p.x - 6, p.y - 6), ImVec2(p.x + 6, p.y + 6), color, 0.0f, 2.0f);
    else
      draw->AddCircle(p, 6, (color & 0x00FFFFFF) | (ImU32(80 + 175 * s->confidence) << 24), 16, 2);
    const std::string label = track.name.empty() ? "track " + std::to_string(track.id) : track.name;
    draw->AddText(ImVec2(p.x + 9, p.y - 16), color, label.c_str());
  }

  // Correspondences: the clicked point (a cross) and its world point seen through the
  // camera (a ring): their gap is the camera's fit error there.
  for (const CameraCorrespondence& c : scene.footage.correspondences) {
    const ImVec2 p = screen(c.image[0], c.image[1]);
    draw->AddLine(ImVec2(p.x - 6, p.y), ImVec2(p.x + 6, p.y), kPointColor, 1.5f);
    draw->AddLine(ImVec2(p.x, p.y - 6), ImVec2(p.x, p.y + 6), kPointColor, 1.5f);
    double uv[2];
    if (fitted && project_point(camera, c.world, uv) >= kMinProjectionDepth)
      draw->AddCircle(screen(uv[0], uv[1]), 4, kPointColor, 12, 1);
  }

  // What the frame is, and what a click will do.
  using Mode = ShotState::FootageTool::Mode;
  std::string hint = "frame " + std::to_string(frame);
  if (const footage::VideoReader* video = state.shot.view.video())
    hint += " of " + std::to_string(video->frame_count());
  if (!state.shot.frame)
    hint += state.shot.view.error().empty() ? "  (no footage frame here)" : "  (" + state.shot.view.error() + ")";
  if (state.shot.tool.mode == Mode::AddTrack) hint += "  |  click the feature to track (Esc: cancel)";
  if (state.shot.tool.mode == Mode::PlacePoint) hint += "  |  click where the point shows (Esc: cancel)";
  draw->AddText(ImVec2(viewport.x + 10, viewport.bottom() - 24), IM_COL32(255, 255, 255, 230), hint.c_str());
  draw->PopClipRect();
}

}  // namespace nudge::gui
