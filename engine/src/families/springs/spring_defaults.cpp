// The springs' parameter defaults that depend on the scene (the facts table's
// scene_default): a spring's rest length is its length in the initial configuration.
#include <cmath>
#include <vector>

#include "nudge/parameter_facts.h"
#include "nudge/scene.h"

namespace nudge {

// Shaped after the initial positions (parameters are shaped in ParamId order); 0 where an
// end is out of range, which check_scene reports.
std::vector<double> default_rest_lengths(const Scene& scene, ParamId, int rows, int) {
  const std::vector<double>& x = scene.params[ParamId::InitialPosition].value;
  const int n = scene.particle_count();
  std::vector<double> rest(static_cast<std::size_t>(rows), 0.0);
  for (int s = 0; s < rows && s < scene.spring_count(); ++s) {
    const int a = scene.spring_a[size_t(s)], b = scene.spring_b[size_t(s)];
    if (a < 0 || a >= n || b < 0 || b >= n) continue;
    rest[size_t(s)] = std::hypot(x[3 * size_t(b)] - x[3 * size_t(a)], x[3 * size_t(b) + 1] - x[3 * size_t(a) + 1],
                                 x[3 * size_t(b) + 2] - x[3 * size_t(a) + 2]);
  }
  return rest;
}

}  // namespace nudge
