// The actuators drawn (nudge/actuators.h): at each step, what each pushes with, as an
// arrow from where it pushes (its particle, or its point on its body) along its force,
// or along its torque's axis from the body's centre; orange for forces, yellow for
// torques, scaled so that the largest at this step is a fixed share of the scene. And
// what each control channel carries at a step (the controls plus a controller's
// outputs), which the muscles' colours and these arrows show.
#pragma once

#include <vector>

#include "nudge/render/draw_list.h"
#include "nudge/scene.h"
#include "nudge/simulator.h"
#include "view/scene_draw.h"

namespace nudge::view {

// What each channel carries at step `step` (clamped to the controls' steps): the
// controls parameter plus, with a trajectory, the controller's outputs there.
std::vector<double> channel_values_at(const Scene& scene, const Trajectory* traj, int step);

// One arrow per actuator (a zero-length one where its control is 0); `carried` is
// channel_values_at(scene, traj, step).
void add_actuator_arrows(render::DrawList& list, const Scene& scene, const Trajectory* traj, int step,
                         const std::vector<double>& carried, const SceneDrawOptions& options);

namespace colors {
inline constexpr render::Rgba kActuatorForce{0.98f, 0.55f, 0.2f, 1};
inline constexpr render::Rgba kActuatorTorque{0.98f, 0.85f, 0.25f, 1};
}  // namespace colors

}  // namespace nudge::view
