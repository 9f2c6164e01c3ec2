// Gradients drawn over the scene: arrows of dL/d(initial position) or dL/d(initial
// velocity) at each particle's initial position, arrows of dL/d(a body's initial
// position, velocity or angular velocity) at its initial centre, and springs coloured by dL/d(stiffness),
// dL/d(rest length) or dL/d(damping) on the diverging map. Each comes with a legend that
// gives its scale. The gradients are those in the scene's parameters (a gradient
// evaluation wrote them).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nudge/render/draw_list.h"
#include "nudge/scene.h"
#include "nudge/simulator.h"
#include "view/scene_draw.h"

namespace nudge::view {

enum class GradientOverlay {
  None, InitialPosition, InitialVelocity, Stiffness, RestLength, Damping,
  BodyPosition, BodyVelocity, BodyAngularVelocity
};
inline constexpr GradientOverlay kGradientOverlays[] = {
    GradientOverlay::None,         GradientOverlay::InitialPosition, GradientOverlay::InitialVelocity,
    GradientOverlay::Stiffness,    GradientOverlay::RestLength,      GradientOverlay::Damping,
    GradientOverlay::BodyPosition, GradientOverlay::BodyVelocity,    GradientOverlay::BodyAngularVelocity};

std::string_view gradient_overlay_label(GradientOverlay overlay);  // "dL/d initial velocity", ...
ParamId gradient_overlay_parameter(GradientOverlay overlay);      // None: not to be called
bool is_spring_overlay(GradientOverlay overlay);
bool is_body_overlay(GradientOverlay overlay);
// The overlay of the parameter named as in scene files ("stiffness"), if there is one.
std::optional<GradientOverlay> gradient_overlay_for_parameter(std::string_view name);

// Arrows of `vectors` at `origins`, the longest `length` world units, coloured by
// magnitude on the sequential map, with a legend of that range; zero vectors draw
// nothing, and all-zero or non-finite ones nothing at all.
void add_magnitude_arrows(render::DrawList& list, const std::vector<glm::vec3>& origins,
                          const std::vector<glm::vec3>& vectors, float length, std::string legend);

// Arrows of the gradient (the direction in which the loss grows fastest) at the initial
// positions, coloured by magnitude on the sequential map. The longest is `length` world
// units; zero gradients draw nothing.
void add_particle_gradient_arrows(render::DrawList& list, const Scene& scene, ParamId which, float length);

// Arrows of a body parameter's gradient (3 per body) at each body's initial centre of
// mass, coloured by magnitude; the longest is `length` world units.
void add_body_gradient_arrows(render::DrawList& list, const Scene& scene, ParamId which, float length);

// Every spring at step `step` of traj (or at the initial positions when null), coloured
// by its gradient on the diverging map over [-max|g|, max|g|]: red where increasing the
// parameter increases the loss, blue where it decreases it.
void add_spring_gradient_colors(render::DrawList& list, const Scene& scene, const Trajectory* traj, int step,
                                ParamId which);

// The overlay for a scene drawn by scene_draw_list with `options`: arrows a third of the
// motion's size, or the coloured springs (then draw the scene without its own springs).
void add_gradient_overlay(render::DrawList& list, GradientOverlay overlay, const Scene& scene, const Trajectory* traj,
                          int step, const SceneDrawOptions& options);

}  // namespace nudge::view
