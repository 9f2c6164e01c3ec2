// The ground's share of the step-stability check (sim/stability_hints.h): its penalty's
// stiffness and damping, and friction in its viscous regime, per particle over the run of
// steps where they compound most. The projection has no stiffness: nothing to check.
#include <algorithm>
#include <cmath>
#include <string>

#include "sim/stability_hints.h"

namespace nudge {

void ground_stability_hints(const StabilityContext& context, std::vector<StepStabilityIssue>& issues) {
  const Scene& scene = context.scene;
  const Ground& ground = scene.settings.ground;
  if (!ground.enabled || ground.contact != GroundContact::Penalty) return;
  const int n = context.particles;
  const double dt = context.dt;
  const double k = scene.params[ParamId::GroundStiffness].value[0];
  const double mu = scene.params[ParamId::Friction].value[0];
  const double eps = ground.contact_smoothing, eta = ground.friction_smoothing;
  Worst ground_stiffness, ground_damping, friction;
  for (int i = 0; i < n; ++i) {
    const double w = context.inverse_mass(i);
    if (w == 0) continue;
    WorstRun stiffness, damping, slip;
    for (int t = 0; t <= context.steps; ++t) {
      const double* x = &context.traj.x[(size_t(t) * size_t(n) + size_t(i)) * 3];
      const double* v = &context.traj.v[(size_t(t) * size_t(n) + size_t(i)) * 3];
      // The penalty switches on smoothly (ground_contact.h): depth eps softplus(z), its
      // slope in y the gate sigmoid(z).
      const double z = -(x[1] - ground.height) / eps;
      const double gate = z >= 0 ? 1 / (1 + std::exp(-z)) : std::exp(z) / (1 + std::exp(z));
      const double normal = k * eps * (std::max(z, 0.0) + std::log1p(std::exp(-std::fabs(z))));
      stiffness.step(t, dt * std::sqrt(k * gate * w), false);
      damping.step(t, dt * ground.damping * gate * w, true);
      // Friction -mu N v_t / q, q = sqrt(|v_t|^2 + eta^2), damps a change of the slip
      // velocity along the slip with viscosity mu N eta^2 / q^3 (across it, mu N / q, which
      // planar motions never excite): below the slip speed eta, a damper of mu N / eta.
      const double q = std::sqrt(v[0] * v[0] + v[2] * v[2] + eta * eta);
      const double gain = dt * mu * normal * w * eta * eta / (q * q * q);
      slip.step(t, gain, true);
    }
    const std::string particle = "particle " + std::to_string(i) + ", ";
    ground_stiffness.offer(stiffness.growth(), [&] {
      return StepStabilityIssue{"ground stiffness", particle + context.run_text(stiffness.first(), stiffness.last()),
                                stiffness.peak(), stiffness.growth(),
                                "lower dt below " + stability_number(kUnstableGain / std::sqrt(k * w)) +
                                    " s or the ground stiffness below " +
                                    stability_number(kUnstableGain * kUnstableGain / (dt * dt * w)) + " N/m"};
    });
    ground_damping.offer(damping.growth(), [&] {
      return StepStabilityIssue{
          "ground damping", particle + context.run_text(damping.first(), damping.last()), damping.peak(),
          damping.growth(),
          "lower dt or the ground damping below " + stability_number(kUnstableGain / (dt * w)) + " N s/m"};
    });
    friction.offer(slip.growth(), [&] {
      // The slip speed at which the peak gain would be at the limit.
      const double eta_needed = slip.peak() * eta / kUnstableGain;
      return StepStabilityIssue{
          "ground friction", particle + context.run_text(slip.first(), slip.last()), slip.peak(), slip.growth(),
          "raise simulation.ground.friction_smoothing above " + stability_number(eta_needed) +
              " m/s or lower dt below " + stability_number(dt * kUnstableGain / slip.peak()) + " s"};
    });
  }
  ground_stiffness.report(issues);
  ground_damping.report(issues);
  friction.report(issues);
}

}  // namespace nudge
