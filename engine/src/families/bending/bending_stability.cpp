// The bending edges' share of the step-stability check (sim/stability_hints.h): an edge
// pulls along d = dtheta/dx (dihedral_bending.h) with a stiffness l ke d d^T and a
// damping l kd d d^T over its four corners: a corner's row of them sums to
// l k |d_i| sum_j |d_j| (a Gershgorin bound of the coupled gain, pinned corners left
// out), summed over the particle's edges. The drape blows up at a row sum of 4 (its
// bending damping 0.002) and runs at 1 (0.0005).
#include "families/bending/dihedral_bending.h"
#include "sim/stability_hints.h"

namespace nudge {

void bending_stability_hints(const StabilityContext& context, std::vector<StepStabilityIssue>& issues) {
  const Scene& scene = context.scene;
  if (scene.bending_count() == 0 || context.implicit) return;
  const std::vector<double>& stiffness = scene.params[ParamId::BendingStiffness].value;
  const std::vector<double>& damping = scene.params[ParamId::BendingDamping].value;
  ElementGains gains(context.particles);
  for (int e = 0; e < scene.bending_count(); ++e) {
    const int* c = &scene.bending[4 * size_t(e)];
    const Vec3<double> corners[4] = {context.initial_position(c[0]), context.initial_position(c[1]),
                                     context.initial_position(c[2]), context.initial_position(c[3])};
    const BendingGeometry<double> geometry = bending_geometry(corners);
    if (!geometry.valid) continue;
    double moving = 0;
    for (int j = 0; j < 4; ++j) moving += scene.pinned[size_t(c[j])] ? 0.0 : length(geometry.d[j]);
    const double ke = stiffness[size_t(e)], kd = damping[size_t(e)];
    for (int j = 0; j < 4; ++j) {
      const double row = geometry.e_len * length(geometry.d[j]) * moving;
      gains.add(c[j], ke * row, kd * row);
    }
  }
  report_element_gains(context, gains, "bending edges", "bending stiffness", "bending damping", issues, 1);
}

}  // namespace nudge
