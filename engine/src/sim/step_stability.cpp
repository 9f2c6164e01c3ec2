// The step-stability check (nudge/step_stability.h): each family's share, in its folder,
// run in a fixed order and the issues sorted, worst first.
#include "nudge/step_stability.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "sim/stability_hints.h"

namespace nudge {

// Each family's share (families/<name>/<name>_stability.cpp). The order is the one in
// which issues of equal growth are listed.
void spring_stability_hints(const StabilityContext& context, std::vector<StepStabilityIssue>& issues);
void tet_stability_hints(const StabilityContext& context, std::vector<StepStabilityIssue>& issues);
void triangle_stability_hints(const StabilityContext& context, std::vector<StepStabilityIssue>& issues);
void bending_stability_hints(const StabilityContext& context, std::vector<StepStabilityIssue>& issues);
void ground_stability_hints(const StabilityContext& context, std::vector<StepStabilityIssue>& issues);

namespace {

using StabilityHints = void (*)(const StabilityContext&, std::vector<StepStabilityIssue>&);
constexpr StabilityHints kFamilyHints[] = {spring_stability_hints, tet_stability_hints, triangle_stability_hints,
                                           bending_stability_hints, ground_stability_hints};

}  // namespace

std::string stability_number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", v);
  return text;
}

double StabilityContext::inverse_mass(int i) const {
  return scene.pinned[size_t(i)] ? 0.0 : 1.0 / scene.params[ParamId::Mass].value[size_t(i)];
}

Vec3<double> StabilityContext::initial_position(int i) const {
  const std::vector<double>& x0 = scene.initial_positions();
  return {x0[3 * size_t(i)], x0[3 * size_t(i) + 1], x0[3 * size_t(i) + 2]};
}

std::string StabilityContext::run_text(int first, int last) const {
  return "steps " + std::to_string(first) + " to " + std::to_string(last) + ", t = " + stability_number(first * dt) +
         " to " + stability_number(last * dt) + " s";
}

void report_element_gains(const StabilityContext& context, const ElementGains& gains, const std::string& plural,
                          const std::string& stiffness_words, const std::string& damping_words,
                          std::vector<StepStabilityIssue>& issues, double motion) {
  const double dt = context.dt;
  const std::string singular = plural.substr(0, plural.size() - 1);
  Worst worst_stiffness, worst_damping;
  for (int i = 0; i < context.particles; ++i) {
    const double w = motion * context.inverse_mass(i), k = gains.stiffness[size_t(i)], c = gains.viscosity[size_t(i)];
    if (gains.count[size_t(i)] == 0 || w == 0) continue;
    const double stiff = dt * std::sqrt(k * w), damp = dt * c * w;
    const double growth_k = steady_growth(context.steps, stiff, false);
    const double growth_c = steady_growth(context.steps, damp, true);
    const std::string name =
        "particle " + std::to_string(i) + ", in " + std::to_string(gains.count[size_t(i)]) + " " + plural;
    worst_stiffness.offer(growth_k, [&] {
      return StepStabilityIssue{singular + " stiffness", name, stiff, growth_k,
                                "lower dt below " + stability_number(kUnstableGain / std::sqrt(k * w)) + " s or its " +
                                    plural + "' " + stiffness_words + " by a factor " +
                                    stability_number(stiff * stiff / (kUnstableGain * kUnstableGain))};
    });
    worst_damping.offer(growth_c, [&] {
      return StepStabilityIssue{singular + " damping", name, damp, growth_c,
                                "lower dt below " + stability_number(kUnstableGain / (c * w)) + " s or its " + plural +
                                    "' " + damping_words + " by a factor " + stability_number(damp / kUnstableGain)};
    });
  }
  worst_stiffness.report(issues);
  worst_damping.report(issues);
}

std::string StepStabilityIssue::message() const {
  return force + " (" + where + "): a gain of up to " + stability_number(gain) +
         " per step, above the explicit step's limit " + stability_number(kUnstableGain) +
         ", so gradients through it grow about " + stability_number(growth) + "x; " + advice;
}

std::vector<StepStabilityIssue> step_stability_issues(const Scene& scene, const Trajectory& traj) {
  const int n = scene.particle_count();
  if (traj.particles != n || n == 0) return {};
  const StabilityContext context{
      scene, traj, n, scene.settings.dt, traj.steps, scene.settings.integrator == Integrator::ImplicitEuler};
  std::vector<StepStabilityIssue> issues;
  for (StabilityHints hints : kFamilyHints) hints(context, issues);
  std::sort(issues.begin(), issues.end(), [](const auto& a, const auto& b) { return a.growth > b.growth; });
  return issues;
}

}  // namespace nudge
