// Contacts drawn over the scene (nudge/live_simulation.h): a small sphere where each one
// touches, and an arrow along its force, all to one stated scale, so that what rests on
// the ground shows its weight and a hard hit shows as a long arrow.
#pragma once

#include <vector>

#include "nudge/live_simulation.h"
#include "nudge/render/draw_list.h"
#include "nudge/scene.h"
#include "view/scene_draw.h"

namespace nudge::view {

// Metres of arrow per newton: the weight of one element (particle or body) on average,
// m |g| with m the scene's mass over its element count, draws as a tenth of the scene's
// radius, so that what rests on one contact shows; without gravity, 1 N does.
double contact_arrow_scale(const Scene& scene, const SceneDrawOptions& options);

void add_contacts(render::DrawList& list, const std::vector<Contact>& contacts, double metres_per_newton,
                  float point_radius);

namespace colors {
inline constexpr render::Rgba kContactPoint{0.95f, 0.3f, 0.85f, 1};
inline constexpr render::Rgba kContactForce{0.95f, 0.45f, 0.9f, 1};
}  // namespace colors

}  // namespace nudge::view
