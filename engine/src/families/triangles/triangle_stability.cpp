// The triangles' share of the step-stability check (sim/stability_hints.h): as a tet's,
// in the triangle's plane: about A (ke + ka) |b_j|^2 and 2 A kd |b_j|^2, b_j a row of the
// inverse rest pose D (or minus their sum for corner 0).
#include "families/triangles/triangle_membrane.h"
#include "sim/stability_hints.h"

namespace nudge {

void triangle_stability_hints(const StabilityContext& context, std::vector<StepStabilityIssue>& issues) {
  const Scene& scene = context.scene;
  if (scene.triangle_count() == 0 || context.implicit) return;
  const std::vector<double>& stiffness = scene.params[ParamId::TriangleStiffness].value;
  const std::vector<double>& area_stiffness = scene.params[ParamId::TriangleAreaStiffness].value;
  const std::vector<double>& damping = scene.params[ParamId::TriangleDamping].value;
  ElementGains gains(context.particles);
  for (int t = 0; t < scene.triangle_count(); ++t) {
    const int* c = &scene.triangles[3 * size_t(t)];
    const TriangleRest<double> rest =
        triangle_rest(context.initial_position(c[0]), context.initial_position(c[1]), context.initial_position(c[2]));
    if (!(rest.area > 0)) continue;
    double row[3][2] = {{0, 0}, {rest.pose[0], rest.pose[1]}, {rest.pose[2], rest.pose[3]}};
    row[0][0] = -(row[1][0] + row[2][0]), row[0][1] = -(row[1][1] + row[2][1]);
    const double k = stiffness[size_t(t)] + area_stiffness[size_t(t)], kd = damping[size_t(t)];
    for (int j = 0; j < 3; ++j) {
      const double b2 = row[j][0] * row[j][0] + row[j][1] * row[j][1];
      gains.add(c[j], rest.area * k * b2, 2 * rest.area * kd * b2);
    }
  }
  report_element_gains(context, gains, "triangles", "stiffness + area stiffness", "damping", issues);
}

}  // namespace nudge
