#include "sim/objectives.h"

#include <set>

#include "objectives/objective_registry.h"
#include "objectives/window_term.h"

namespace nudge {

Objectives::Objectives(const Scene& scene) {
  const StateSizes sizes{scene.particle_count(), scene.body_count(), scene.material_points.count(),
                         articulation_coordinate_count(scene.articulations),
                         articulation_position_count(scene.articulations)};
  std::set<int> observed;
  for (const Objective& o : scene.objectives) {
    const int step = o.step < 0 ? scene.settings.steps : o.step;
    if (o.from_step < 0) {
      terms_.push_back(objective_kind(o.type).make({o, scene, step, sizes}));
    } else {
      Objective each = o;
      each.weight /= WindowTerm::length(o.from_step, o.every, step);
      terms_.push_back(std::make_unique<WindowTerm>(objective_kind(o.type).make({each, scene, step, sizes}),
                                                    o.from_step, o.every, step));
    }
    terms_.back()->observe(observed);
  }
  observed_.assign(observed.begin(), observed.end());
}

}  // namespace nudge
