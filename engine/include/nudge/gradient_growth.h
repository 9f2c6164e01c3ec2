// Whether a gradient grows exponentially with the horizon: the backward pass carries the
// adjoint of the state from the last step back to the first, and in a chaotic or
// unstable motion (a tumbling body, stiff contact, a long rollout of a bouncing robot)
// its size grows by a roughly constant factor per step back. The gradient is then
// dominated by the earliest steps, its size by how far back it reaches; longer horizons
// make it worse, and a truncated horizon (GradientOptions::horizon) is the usual cure.
//
// Given |dL/dstate_t| for t = 0..T (StateAdjoints::norm), this fits ln|dL/dstate_t| with
// a hinge, flat from a step s on and a line rising from s back to step 0, and reports s
// (where the growth starts) when the line rises at least `min_factor` in all and the
// hinge explains most of the variation (gradient_growth.cpp).
#pragma once

#include <optional>
#include <vector>

namespace nudge {

struct GradientGrowth {
  int onset = 0;        // the step where the growth starts, going back from the end
  double per_step = 1;  // the factor |dL/dstate| grows by per step back, on average
  double factor = 1;    // |dL/dstate_0| over |dL/dstate_onset| along the fitted line
};

inline constexpr double kGradientGrowthFactor = 1e3;  // growth worth a warning
inline constexpr int kGradientGrowthMinSteps = 20;    // fewer steps do not make a trend

std::optional<GradientGrowth> find_gradient_growth(const std::vector<double>& norms,
                                                   double min_factor = kGradientGrowthFactor);

}  // namespace nudge
