// The controller's parameter defaults that depend on the scene (the facts table's
// scene_default): seeded random weights, since a network of zeros learns nothing.
#include <vector>

#include "nudge/controller.h"
#include "nudge/parameter_facts.h"
#include "nudge/scene.h"

namespace nudge {

std::vector<double> default_network_weights(const Scene& scene, ParamId, int rows, int cols) {
  const std::size_t size = static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
  std::vector<double> w = default_controller_weights(scene.controller, controller_reads(scene));
  return w.size() == size ? w : std::vector<double>(size, 0.0);
}

}  // namespace nudge
