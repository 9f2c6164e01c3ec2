// Live play in the studio (studio/live_play.h): started from the play head by the Live tab
// or by a Ctrl+right drag on an element (MuJoCo's simulate's gesture), which pulls the
// element towards the cursor while the scene runs; ended when its motion is replaced.
#include <imgui.h>

#include <glm/gtc/quaternion.hpp>

#include "gui/dock_layout.h"
#include "gui/studio.h"
#include "view/contact_draw.h"

namespace nudge::gui {

namespace {

// Computing budget per frame: enough for small scenes to keep real time, and the window
// stays responsive for large ones (they play slower; the status bar says how much).
constexpr double kLiveBudgetSeconds = 0.012;

}  // namespace

void Studio::handle(const command::Live& c) {
  if (!c.on) {
    if (state_.live.play) end_live("back to the recorded motion");
    return;
  }
  if (state_.live.play) return;
  const studio::RolloutResult* current = state_.shown.current();
  if (!current || !current->ok()) {
    show_error("live play needs the scene's motion: wait for it to be computed, or fix the rollout's error");
    return;
  }
  const int frame = state_.shown.playback.frame();
  Result<std::unique_ptr<studio::LivePlay>> play = studio::LivePlay::start(state_.shown.motion, frame);
  if (!play) {
    show_error("live play: " + play.error().message);
    return;
  }
  state_.live.play = std::move(play.value());
  state_.shown.playback.play();
  state_.log.info("live play from frame " + std::to_string(frame) +
                  ": Ctrl+right drag pulls an element, the Live tab holds control channels");
}

void Studio::end_live(const std::string& why) {
  state_.live.play.reset();
  state_.live.drag_depth.reset();
  state_.log.info("live play ended: " + why);
}

void Studio::advance_live(double wall_seconds) {
  if (live_when_ready_ && state_.shown.current() && state_.shown.current()->ok()) {
    live_when_ready_ = false;
    handle(command::Live{true});
    state_.ui.bring_panel = panel_name::kLive;
  }
  studio::LivePlay* play = state_.live.play.get();
  if (!play) return;
  // An edit, an undo or another scene replaced the motion it runs from.
  if (state_.shown.motion.get() != &play->motion()) {
    end_live("the scene changed");
    return;
  }
  if (!state_.shown.playback.playing()) return;
  if (Status advanced = play->advance(wall_seconds, state_.shown.playback.speed(), kLiveBudgetSeconds); !advanced) {
    show_error("live play stopped: " + advanced.error().message);
    state_.shown.playback.pause();
  }
}

void Studio::update_contacts() {
  LiveState& live = state_.live;
  live.contacts.clear();
  if (!state_.ui.view.contacts) return;
  if (live.play) {
    live.contacts = live.play->contacts();
  } else if (state_.shown.current() && state_.shown.current()->ok()) {
    live.contacts = live.probe.at(state_.shown.motion, state_.shown_frame().step);
  }
  live.contact_scale = view::contact_arrow_scale(state_.scene(), shown_draw_options());
}

bool Studio::handle_pull_mouse(const view::ViewportProjector& projector, bool mouse_in_viewport) {
  const ImGuiIO& io = ImGui::GetIO();
  LiveState& live = state_.live;
  const glm::dvec2 mouse{io.MousePos.x, io.MousePos.y};
  // The drag goes on: the target follows the cursor in the plane facing the camera
  // through the point grabbed; releasing the button lets go.
  if (live.drag_depth) {
    if (!io.MouseDown[1] || !live.play) {
      live.drag_depth.reset();
      if (live.play) (void)live.play->pull(std::nullopt);
      return true;
    }
    std::optional<Pull> pull = live.play->pulled();
    if (pull) {
      const view::Ray ray = projector.ray(mouse);
      const double along = *live.drag_depth / std::max(1e-9, glm::dot(ray.direction, projector.forward()));
      const glm::dvec3 target = ray.at(along);
      pull->target = {target.x, target.y, target.z};
      (void)live.play->pull(pull);
    }
    return true;
  }
  if (!(io.KeyCtrl && ImGui::IsMouseClicked(1) && mouse_in_viewport && !io.WantCaptureMouse)) return false;
  const StudioState::Frame shown = state_.shown_frame();
  const std::optional<view::Pick> hit =
      view::pick(state_.scene(), shown.traj, shown.step, shown_draw_options(), projector, mouse);
  if (!hit || (hit->kind != view::Pick::Kind::Particle && hit->kind != view::Pick::Kind::Body)) {
    state_.log.info("Ctrl+right drag on a particle or a body to pull it");
    return true;
  }
  if (!live.play) {
    handle(command::Live{true});
    if (!live.play) return true;
  }
  // The point grabbed, in the body's frame for a body: the pull acts there as it turns.
  Pull pull;
  pull.index = hit->index;
  pull.target = {hit->point.x, hit->point.y, hit->point.z};
  if (hit->kind == view::Pick::Kind::Body) {
    pull.kind = Pull::Kind::Body;
    const view::BodyPlacement at = view::body_placement(state_.scene(), shown.traj, shown.step, hit->index);
    const glm::dquat q(at.orientation.w, at.orientation.x, at.orientation.y, at.orientation.z);
    const glm::dvec3 offset = glm::inverse(q) * (hit->point - at.position);
    pull.offset = {offset.x, offset.y, offset.z};
  }
  if (Status set = live.play->pull(pull); !set) {
    show_error(set.error().message);
    return true;
  }
  live.drag_depth = projector.depth(hit->point);
  state_.shown.playback.play();
  return true;
}

}  // namespace nudge::gui
