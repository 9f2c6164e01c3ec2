// Gradients drawn over the scene, one overlay for each parameter that the table of
// parameter facts (nudge/parameter_facts.h) marks Arrows or Colors: arrows of the gradient
// at each element's initial position (particles' initial positions, bodies' initial
// centres, joints' initial anchors, links' initial frames), or springs, bodies and links
// coloured by their gradient on the diverging map. Each comes with a legend that gives its scale. The gradients are those
// in the scene's parameters (a gradient evaluation wrote them).
#pragma once

#include <cmath>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nudge/render/draw_list.h"
#include "nudge/scene.h"
#include "nudge/simulator.h"
#include "view/scene_draw.h"

namespace nudge::view {

// The overlay of one parameter, or none. A parameter gets one when its facts' overlay is
// Arrows or Colors; how it is drawn follows from its facts' element and overlay.
struct GradientOverlay {
  ParamId param = ParamId::Count;  // ParamId::Count: no overlay
  static const GradientOverlay None;
  friend bool operator==(GradientOverlay, GradientOverlay) = default;
};
inline constexpr GradientOverlay GradientOverlay::None{};

// None, then every parameter whose facts' overlay is not None, in ParamId order.
const std::vector<GradientOverlay>& gradient_overlays();

// "none", or "dL/d " and the parameter's name in words: "dL/d initial velocity",
// "dL/d body position", "dL/d joint anchor" (the facts' short labels repeat across
// elements: particles and bodies both have a "position").
std::string gradient_overlay_label(GradientOverlay overlay);
ParamId gradient_overlay_parameter(GradientOverlay overlay);  // ParamId::Count for None
// Whether the overlay colours the springs (then draw the scene without its own).
bool is_spring_overlay(GradientOverlay overlay);
// Whether the scene has elements for the overlay to be drawn on (None always applies).
bool gradient_overlay_applies(GradientOverlay overlay, const Scene& scene);
// The overlay of the parameter named as in scene files ("stiffness"), if there is one.
std::optional<GradientOverlay> gradient_overlay_for_parameter(std::string_view name);

// How long an arrow is for its vector. Normalised: the longest arrow is the length the
// caller gives, whatever the vectors' size (shapes compare, sizes do not). Fixed: a vector
// of size 1 is `metres_per_unit` world units long, so a gradient that shrinks as the
// optimiser converges draws shorter; arrows longer than kFixedScaleReach times the given
// length are cut there (their colour still gives their size).
struct ArrowScale {
  static constexpr float kFixedScaleReach = 4;
  bool fixed = false;
  float metres_per_unit = 0;  // with fixed; 0 or less draws normalised
  bool is_fixed() const { return fixed && metres_per_unit > 0 && std::isfinite(metres_per_unit); }
};

// The legend's text: what is drawn and at what scale, e.g. "dL/d initial velocity:
// steepest ascent; 1 m = 0.25 (loss per m/s); fixed scale".
std::string arrow_legend(std::string_view what, std::string_view unit, float metres_per_unit, bool fixed);

// Arrows of `vectors` at `origins`, scaled as `scale` says (normalised: the longest
// `length` world units), coloured by magnitude on the sequential map, with a legend of
// that range labelled `what` and the scale; zero vectors draw nothing, and all-zero or
// non-finite ones nothing at all. Returns the world units per unit of vector used (0 when
// nothing was drawn).
float add_magnitude_arrows(render::DrawList& list, const std::vector<glm::vec3>& origins,
                           const std::vector<glm::vec3>& vectors, float length, std::string_view what,
                           std::string_view unit = {}, ArrowScale scale = {});

// Arrows of the gradient (the direction in which the loss grows fastest) at the initial
// positions, coloured by magnitude on the sequential map; `length` and `scale` as for
// add_magnitude_arrows, whose return value they pass on. Zero gradients draw nothing.
float add_particle_gradient_arrows(render::DrawList& list, const Scene& scene, ParamId which, float length,
                                   ArrowScale scale = {});

// Arrows of a body parameter's gradient (3 per body) at each body's initial centre of
// mass, coloured by magnitude.
float add_body_gradient_arrows(render::DrawList& list, const Scene& scene, ParamId which, float length,
                               ArrowScale scale = {});

// Arrows of a joint parameter's gradient (3 per joint) at each joint's initial anchor
// (joint_anchor), coloured by magnitude.
float add_joint_gradient_arrows(render::DrawList& list, const Scene& scene, ParamId which, float length,
                                ArrowScale scale = {});

// Arrows of a link parameter's gradient (3 per link) at each link's initial frame origin
// (link_com's at the centre of mass), turned into the world's axes, for the links whose
// joint has the value (link_uses); coloured by magnitude.
float add_link_gradient_arrows(render::DrawList& list, const Scene& scene, ParamId which, float length,
                               ArrowScale scale = {});

// Each link's shapes in list (drawn by scene_draw_list) tinted by its entry of a
// one-value-per-link parameter's gradient (mass, damping, q, size...) on the diverging
// map; links whose joint has no such value keep their colour.
void add_link_gradient_colors(render::DrawList& list, const Scene& scene, ParamId which);

// Whether link k has a use for a link parameter: a hinge's or slide's q, qd and spring, a ball's
// or free joint's rotation and angular velocity, a free joint's translation and velocity,
// a length with a length_axis, damping and armature but on a weld; the others always.
bool link_uses(const Articulations& a, ParamId which, int k);

// Every spring at step `step` of traj (or at the initial positions when null), coloured
// by its gradient on the diverging map over [-max|g|, max|g|]: red where increasing the
// parameter increases the loss, blue where it decreases it.
void add_spring_gradient_colors(render::DrawList& list, const Scene& scene, const Trajectory* traj, int step,
                                ParamId which);

// Every body of list (drawn by scene_draw_list) tinted by its entry of a one-value-per-body
// parameter's gradient (density, radius, half length) on the same diverging map; bodies
// whose shape has no such value keep their colour.
void add_body_gradient_colors(render::DrawList& list, const Scene& scene, ParamId which);

// The overlay for a scene drawn by scene_draw_list with `options`, by the parameter's
// element and overlay: arrows (Particle, Body, Joint or Link with Arrows; normalised, the
// longest a third of the motion's size, or at the fixed `scale`), the coloured springs
// (Spring with Colors; then draw the scene without its own springs), or tinted bodies or
// links (Body or Link with Colors). Other pairs draw nothing. Returns the arrows' world units per unit of gradient (0: no arrows drawn).
float add_gradient_overlay(render::DrawList& list, GradientOverlay overlay, const Scene& scene, const Trajectory* traj,
                           int step, const SceneDrawOptions& options, ArrowScale scale = {});

}  // namespace nudge::view
