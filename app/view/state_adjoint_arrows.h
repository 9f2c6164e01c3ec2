// The adjoint of the state at one step drawn over the scene: at each particle's position
// at step t, an arrow of dL/dx_t (how the loss would change if the particle were nudged
// there and then: the future's consequence carried back to t), coloured by magnitude.
#pragma once

#include "nudge/render/draw_list.h"
#include "nudge/scene.h"
#include "nudge/simulator.h"

namespace nudge::view {

// Arrows scaled so that the longest at this step is `length` world units; the legend
// gives this step's range. Nothing when the adjoint at t is zero (before a truncated
// horizon) or the sizes do not match.
void add_state_adjoint_arrows(render::DrawList& list, const Scene& scene, const Trajectory& traj,
                              const StateAdjoints& adjoints, int step, float length);

}  // namespace nudge::view
