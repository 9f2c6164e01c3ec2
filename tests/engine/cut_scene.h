// An example cut to its first steps, for suites that run only an example's start: the
// objectives past the new end move to its last step, and the parameters take the new
// step count's shapes (a control per step).
#pragma once

#include <algorithm>

#include "nudge/scene.h"

namespace nudge::test {

inline void cut_to_steps(Scene& scene, int steps) {
  scene.settings.steps = std::min(scene.settings.steps, steps);
  for (Objective& o : scene.objectives) {
    if (o.step > scene.settings.steps) o.step = -1;
    if (o.from_step > scene.settings.steps) o.from_step = -1;
  }
  shape_parameters(scene);
}

}  // namespace nudge::test
