#include "view/state_adjoint_arrows.h"

#include <string>
#include <vector>

#include "view/gradient_overlay.h"
#include "view/scene_draw.h"

namespace nudge::view {

void add_state_adjoint_arrows(render::DrawList& list, const Scene& scene, const Trajectory& traj,
                              const StateAdjoints& adjoints, int step, float length) {
  const int n = scene.particle_count();
  if (adjoints.particles != n || traj.particles != n || step < 0 || step > adjoints.steps ||
      adjoints.x.size() != size_t(adjoints.steps + 1) * size_t(n) * 3)
    return;
  const double* a = adjoints.x.data() + size_t(step) * size_t(n) * 3;
  std::vector<glm::vec3> origins, vectors;
  for (int i = 0; i < n; ++i) {
    origins.push_back(particle_position(scene, &traj, step, i));
    vectors.emplace_back(float(a[3 * i]), float(a[3 * i + 1]), float(a[3 * i + 2]));
  }
  add_magnitude_arrows(list, origins, vectors, length, "dL/dx at step " + std::to_string(step), "m");
}

}  // namespace nudge::view
