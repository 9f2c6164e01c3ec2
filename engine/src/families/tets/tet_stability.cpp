// The tets' share of the step-stability check (sim/stability_hints.h): a tet pulls
// corner j back with a stiffness of about V (k_mu + k_lambda) |b_j|^2 and damps it with
// about 2 V k_damp |b_j|^2, b_j the gradient of the corner's barycentric coordinate (a
// row of the rest inverse B, or minus their sum for corner 0).
#include "families/tets/tet_neohookean.h"
#include "sim/stability_hints.h"

namespace nudge {

void tet_stability_hints(const StabilityContext& context, std::vector<StepStabilityIssue>& issues) {
  const Scene& scene = context.scene;
  if (scene.tet_count() == 0 || context.implicit) return;
  const std::vector<double>& mu = scene.params[ParamId::TetMu].value;
  const std::vector<double>& lambda = scene.params[ParamId::TetLambda].value;
  const std::vector<double>& damping = scene.params[ParamId::TetDamping].value;
  ElementGains gains(context.particles);
  for (int t = 0; t < scene.tet_count(); ++t) {
    const int* c = &scene.tets[4 * size_t(t)];
    const TetRest<double> rest = tet_rest(context.initial_position(c[0]), context.initial_position(c[1]),
                                          context.initial_position(c[2]), context.initial_position(c[3]));
    if (rest.status != TetRestStatus::ok) continue;
    const Mat33<double>& b = rest.rest_inverse;
    Vec3<double> row[4];
    for (int j = 0; j < 3; ++j) row[j + 1] = Vec3<double>{b(j, 0), b(j, 1), b(j, 2)};
    row[0] = -(row[1] + row[2] + row[3]);
    const double k = mu[size_t(t)] + lambda[size_t(t)], kd = damping[size_t(t)];
    for (int j = 0; j < 4; ++j)
      gains.add(c[j], rest.volume * k * dot(row[j], row[j]), 2 * rest.volume * kd * dot(row[j], row[j]));
  }
  report_element_gains(context, gains, "tets", "k_mu + k_lambda", "k_damp", issues);
}

}  // namespace nudge
