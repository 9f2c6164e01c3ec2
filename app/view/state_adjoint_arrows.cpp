#include "view/state_adjoint_arrows.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "view/scene_draw.h"

namespace nudge::view {

void add_state_adjoint_arrows(render::DrawList& list, const Scene& scene, const Trajectory& traj,
                              const StateAdjoints& adjoints, int step, float length) {
  const int n = scene.particle_count();
  if (adjoints.particles != n || traj.particles != n || step < 0 || step > adjoints.steps ||
      adjoints.x.size() != size_t(adjoints.steps + 1) * size_t(n) * 3)
    return;
  const double* a = adjoints.x.data() + size_t(step) * size_t(n) * 3;
  const auto at = [&](int i) { return glm::vec3(float(a[3 * i]), float(a[3 * i + 1]), float(a[3 * i + 2])); };
  float largest = 0;
  for (int i = 0; i < n; ++i) largest = std::max(largest, glm::length(at(i)));
  if (!(largest > 0) || !std::isfinite(largest)) return;
  render::ArrowBatch arrows;
  arrows.scale = length / largest;
  arrows.max_length = length;
  arrows.width_pixels = 3;
  for (int i = 0; i < n; ++i) {
    const glm::vec3 g = at(i);
    const float magnitude = glm::length(g);
    if (magnitude == 0) continue;
    arrows.origins.push_back(particle_position(scene, &traj, step, i));
    arrows.vectors.push_back(g);
    arrows.colors.push_back(render::map_value(render::ColorMap::Sequential, magnitude, 0, largest));
  }
  list.arrows.push_back(std::move(arrows));
  list.legends.push_back({render::ColorMap::Sequential, 0, largest, "|dL/dx| at step " + std::to_string(step)});
}

}  // namespace nudge::view
