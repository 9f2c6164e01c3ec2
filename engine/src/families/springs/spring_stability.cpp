// The springs' share of the step-stability check (sim/stability_hints.h): a spring's
// gains dt sqrt(k w) and dt c w, w the sum of its ends' inverse masses, are the same
// every step, so they compound over the whole motion.
#include <cmath>
#include <string>

#include "sim/stability_hints.h"

namespace nudge {

void spring_stability_hints(const StabilityContext& context, std::vector<StepStabilityIssue>& issues) {
  if (context.implicit) return;
  const Scene& scene = context.scene;
  const double dt = context.dt;
  const std::vector<double>& stiffness = scene.params[ParamId::Stiffness].value;
  const std::vector<double>& damping = scene.params[ParamId::Damping].value;
  Worst worst_stiffness, worst_damping;
  for (int s = 0; s < scene.spring_count(); ++s) {
    const double w = context.inverse_mass(scene.spring_a[size_t(s)]) + context.inverse_mass(scene.spring_b[size_t(s)]);
    const double k = stiffness[size_t(s)], c = damping[size_t(s)];
    const double stiff = dt * std::sqrt(k * w), damp = dt * c * w;
    const double growth_k = steady_growth(context.steps, stiff, false);
    const double growth_c = steady_growth(context.steps, damp, true);
    const std::string name = "spring " + std::to_string(s);
    worst_stiffness.offer(growth_k, [&] {
      return StepStabilityIssue{"spring stiffness", name, stiff, growth_k,
                                "lower dt below " + stability_number(kUnstableGain / std::sqrt(k * w)) +
                                    " s or the stiffness below " +
                                    stability_number(kUnstableGain * kUnstableGain / (dt * dt * w)) + " N/m"};
    });
    worst_damping.offer(growth_c, [&] {
      return StepStabilityIssue{"spring damping", name, damp, growth_c,
                                "lower dt below " + stability_number(kUnstableGain / (c * w)) +
                                    " s or the damping below " + stability_number(kUnstableGain / (dt * w)) + " N s/m"};
    });
  }
  worst_stiffness.report(issues);
  worst_damping.report(issues);
}

}  // namespace nudge
