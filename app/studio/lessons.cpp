#include "studio/lessons.h"

#include <array>

namespace nudge::studio {

namespace {

using Action = LessonAction;

constexpr std::array kGradient{
    LessonStep{"A ball is thrown from (0, 1, 0) and should land on the green target after 1 s. Its launch velocity "
               "is what may change. The loss is the squared distance from the ball's end to the target.",
               Action::OpenExample, "projectile"},
    LessonStep{"The arrow at the ball is the gradient of the loss with respect to the launch velocity: the "
               "direction in which changing the velocity raises the loss fastest. Its length is how fast (the "
               "legend gives the scale).",
               Action::ShowGradient, "initial_velocity"},
    LessonStep{"Along one entry of the velocity the loss is a curve, and the gradient's entry is its slope: the "
               "blue line is the slope the gradient predicts at the point. It is the tangent of the curve.",
               Action::LandscapeOnEntry, "initial_velocity", 0},
    LessonStep{"Optimising goes against the gradient. L-BFGS takes two steps here (the loss is quadratic in the "
               "velocity): watch the arrow shrink to nothing at the optimum, drawn at the start's scale.",
               Action::StartOptimiser},
};

constexpr std::array kAdjoint{
    LessonStep{"A ball bounces off the ground and a wall. Every parameter's gradient comes from one backward run "
               "through the simulation (the adjoint method), whatever the number of parameters.",
               Action::OpenExample, "bounce"},
    LessonStep{"Finite differences measure the same thing another way: nudge one entry up and down, run the "
               "simulation twice, divide. Check does this for a few entries of every parameter and compares.",
               Action::CheckGradients},
    LessonStep{"Read the verdicts: ok, or within the rounding noise of the loss, or FAIL. Contacts make the loss "
               "bend sharply; a nudge that crosses a bounce's timing disagrees with the slope at the point.",
               Action::None},
};

constexpr std::array kHorizon{
    LessonStep{"A double pendulum is chaotic: a tiny change at the start grows exponentially with time, and so "
               "does the gradient going back through the motion.",
               Action::OpenExample, "double_pendulum_sysid"},
    LessonStep{"Under the timeline: the size of dL/dx, the adjoint, against time on a log scale. Going back from "
               "the end it grows by orders of magnitude: the first steps dominate the gradient.",
               Action::ShowAdjointTrack},
    LessonStep{"A truncated horizon backpropagates through the last steps only: a gradient that no longer "
               "explodes, but is not the loss's exact gradient (the shaded steps are cut off). Here: the last 1000 "
               "steps, 0.2 s of the 1.2 s.",
               Action::SetHorizon, "", 1000},
    LessonStep{"Optimise with the truncated gradient and watch the loss curve in the Optimise panel.",
               Action::StartOptimiser},
};

constexpr std::array kBlackBox{
    LessonStep{"A cue ball must send the object ball to a pocket. Its launch velocity is optimised through a "
               "collision between the balls.",
               Action::OpenExample, "billiards"},
    LessonStep{"CMA-ES treats the simulation as a black box: it samples the loss and learns where to sample next, "
               "never using a gradient. The comparison gives both the same budget of simulations (a gradient "
               "costs a forward and a backward run) and plots the best loss each has found.",
               Action::CompareWithCmaes},
    LessonStep{"With few parameters and a smooth loss the gradient wins by far; with many local minima or "
               "discontinuities the black box can catch up. Try it on the walker or the drone.",
               Action::None},
};

constexpr std::array kLessons{
    Lesson{"What a gradient is", "the gradient of a throw's miss, drawn, plotted and followed", kGradient},
    Lesson{"Adjoint against finite differences", "one backward run against two forward runs per entry", kAdjoint},
    Lesson{"Horizon and chaos", "why gradients through chaotic motion explode, and truncating them", kHorizon},
    Lesson{"Gradient against black box", "gradient descent against CMA-ES for the same simulations", kBlackBox},
};

}  // namespace

std::span<const Lesson> lessons() { return kLessons; }

}  // namespace nudge::studio
