// How edits of particles and channels keep a scene's controller (nudge/controller.h)
// meaningful: its inputs are the observed particles' states, so adding or deleting
// particles must not silently change what its trained weights multiply.
#pragma once

#include <optional>
#include <string>

#include "nudge/scene.h"
#include "studio/scene_edits_support.h"

namespace nudge::studio::edits::support {

// A controller that observes every particle is made to observe the particles there are
// now, by name, so that particles added next are not new inputs. Call before appending.
void pin_controller_observation(Scene& scene);

// After deleting particles (map: old index -> new, -1 deleted): the deleted observed
// particles leave the controller with their columns of the first layer's weights; the
// others are renumbered. An error when no observed particle would be left while it has
// state inputs.
std::optional<std::string> remove_controller_particles(Scene& scene, const IndexMap& particles);

}  // namespace nudge::studio::edits::support
