// What each lesson step does in the window (studio/lessons.h): carried out once, the frame
// after the step is reached, through the same commands and view flags the menus use.
#include <utility>

#include "gui/studio.h"
#include "studio/lessons.h"
#include "studio/loss_landscape.h"

namespace nudge::gui {

void Studio::act_on_lesson_step() {
  UiState& ui = state_.ui;
  if (!ui.lesson.act || ui.lesson.lesson < 0) return;
  ui.lesson.act = false;
  const studio::Lesson& lesson = studio::lessons()[size_t(ui.lesson.lesson)];
  const studio::LessonStep& step = lesson.steps[size_t(ui.lesson.step)];
  const std::string argument(step.argument);
  using A = studio::LessonAction;
  switch (step.action) {
    case A::None: return;
    case A::OpenExample:
      for (const std::filesystem::path& example : state_.files.examples)
        if (example.stem() == argument) state_.queue(command::Open{example});
      return;
    case A::ShowGradient:
      if (const std::optional<view::GradientOverlay> overlay = view::gradient_overlay_for_parameter(argument)) {
        ui.view.gradient = *overlay;
        ui.view.arrow_scale = {.fixed = true};  // set again from this gradient
      }
      return;
    case A::StartOptimiser:
      state_.queue(command::OptimizeStart{});
      ui.bring_panel = panel_name::kOptimise;
      return;
    case A::CheckGradients:
      state_.queue(command::CheckGradients{{}, 6});
      ui.bring_panel = panel_name::kCheck;
      return;
    case A::LandscapeOnEntry:
      if (const std::optional<ParamId> id = param_from_name(argument)) {
        const Scene& scene = state_.point_scene();
        if (step.number < scene.params[*id].size()) {
          studio::LandscapeRequest request;
          request.scene = scene;
          request.a = studio::parameter_axis(scene, {*id, step.number}, 41);
          state_.queue(command::ComputeLandscape{std::move(request)});
          ui.bring_panel = panel_name::kLandscape;
        }
      }
      return;
    case A::ShowAdjointTrack: ui.view.adjoint_track = true; return;
    case A::SetHorizon:
      state_.optimise.horizon = step.number;
      if (state_.optimise.session) state_.optimise.session->set_horizon(step.number);
      ui.bring_panel = panel_name::kOptimise;
      return;
    case A::CompareWithCmaes: {
      const OptimizerSettings& settings = state_.optimise.settings;
      state_.queue(command::CompareMethods::against_cmaes(settings,
                                                          command::CompareMethods::own_gradient_method(settings), 200));
      state_.optimise.open_comparison = true;
      ui.bring_panel = panel_name::kOptimise;
      return;
    }
    case A::Play: state_.shown.playback.play(); return;
  }
}

}  // namespace nudge::gui
