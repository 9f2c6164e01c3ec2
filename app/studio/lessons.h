// Guided lessons for teaching with the studio: each is a few steps of text, and each step
// does one thing in the window (opens an example, draws a gradient, starts the optimiser,
// runs a check...) so that what the text says is on the screen as it is read. Help >
// Lessons starts one; the Lesson panel steps through it. Data only: the window carries
// out the actions (gui/lesson_actions.cpp).
#pragma once

#include <span>
#include <string_view>

namespace nudge::studio {

enum class LessonAction {
  None,
  OpenExample,       // argument: the example's file stem
  ShowGradient,      // argument: the parameter whose gradient is drawn as arrows
  StartOptimiser,    // Optimise > Start
  CheckGradients,    // Check > Check gradients, every parameter, six entries each
  LandscapeOnEntry,  // argument: a parameter; number: its entry; the loss along it
  ShowAdjointTrack,  // View > Adjoint |dL/dx| on the Timeline
  SetHorizon,        // number: the optimiser's backpropagation horizon (steps; 0: all)
  CompareWithCmaes,  // Optimise > Compare with CMA-ES, 200 simulations
  Play,              // Play the motion
};

struct LessonStep {
  std::string_view text;
  LessonAction action = LessonAction::None;
  std::string_view argument{};
  int number = 0;
};

struct Lesson {
  std::string_view title;
  std::string_view summary;  // one line, for the menu's tooltip
  std::span<const LessonStep> steps;
};

std::span<const Lesson> lessons();

}  // namespace nudge::studio
