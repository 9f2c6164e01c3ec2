// The bodies' parameter defaults that depend on the scene (the facts table's
// scene_default): a size entry is the table's fill where the body's shape uses it, else 0.
#include <vector>

#include "nudge/bodies.h"
#include "nudge/parameter_facts.h"
#include "nudge/scene.h"

namespace nudge {

std::vector<double> default_body_sizes(const Scene& scene, ParamId id, int rows, int cols) {
  const std::vector<bool> used = used_size_entries(scene.bodies, id, cols);
  const std::size_t size = static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols);
  std::vector<double> sizes(size, 0.0);
  for (std::size_t k = 0; k < size && k < used.size(); ++k) sizes[k] = used[k] ? param_facts(id).fill : 0.0;
  return sizes;
}

}  // namespace nudge
