#include "nudge/step_stability.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>

namespace nudge {

namespace {

std::string number(double v) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g", v);
  return text;
}

// How much one step multiplies a small change, in logarithm: a damper's 1 - g both
// shrinks (g < 2) and grows (g > 2) it; a stiffness below the limit only turns it (an
// oscillation: |factor| 1), above it grows it by about g - 1.
double log_growth(double gain, bool damper) {
  if (gain >= kUnstableGain) return std::log(gain - 1);
  return damper ? std::log(std::max(std::fabs(1 - gain), 1e-300)) : 0.0;
}

// The run of steps over which the growth of one force on one particle compounds most
// (a largest-sum run of the logarithms), with its peak gain.
class WorstRun {
public:
  void step(int t, double gain, bool damper) {
    const double g = log_growth(gain, damper);
    if (sum_ <= 0) sum_ = 0, first_ = t, peak_ = 0;
    sum_ += g;
    peak_ = std::max(peak_, gain);
    if (sum_ > best_sum_) best_sum_ = sum_, best_first_ = first_, best_last_ = t, best_peak_ = peak_;
  }
  double growth() const { return std::exp(std::min(best_sum_, 700.0)); }
  double peak() const { return best_peak_; }
  int first() const { return best_first_; }
  int last() const { return best_last_; }

private:
  double sum_ = 0, peak_ = 0, best_sum_ = 0, best_peak_ = 0;
  int first_ = 0, best_first_ = 0, best_last_ = 0;
};

// Keeps the worst issue of one kind of force.
struct Worst {
  StepStabilityIssue issue;
  void offer(double growth, const std::function<StepStabilityIssue()>& describe) {
    if (growth >= kReportedGrowth && growth > issue.growth) issue = describe();
  }
};

}  // namespace

std::string StepStabilityIssue::message() const {
  return force + " (" + where + "): a gain of up to " + number(gain) + " per step, above the explicit step's limit " +
         number(kUnstableGain) + ", so gradients through it grow about " + number(growth) + "x; " + advice;
}

std::vector<StepStabilityIssue> step_stability_issues(const Scene& scene, const Trajectory& traj) {
  const int n = scene.particle_count();
  if (traj.particles != n || n == 0) return {};
  const double dt = scene.settings.dt;
  const int steps = traj.steps;
  const std::vector<double>& mass = scene.params[ParamId::Mass].value;
  const auto inverse_mass = [&](int i) { return scene.pinned[size_t(i)] ? 0.0 : 1.0 / mass[size_t(i)]; };
  const auto run_text = [&](int first, int last) {
    return "steps " + std::to_string(first) + " to " + std::to_string(last) + ", t = " + number(first * dt) + " to " +
           number(last * dt) + " s";
  };

  Worst spring_stiffness, spring_damping, ground_stiffness, ground_damping, friction;
  // A spring's gains are the same every step: they compound over the whole motion. The
  // implicit step (Integrator::ImplicitEuler) treats springs implicitly: no limit there.
  const int explicit_springs = scene.settings.integrator == Integrator::ImplicitEuler ? 0 : scene.spring_count();
  for (int s = 0; s < explicit_springs; ++s) {
    const double w = inverse_mass(scene.spring_a[size_t(s)]) + inverse_mass(scene.spring_b[size_t(s)]);
    const double k = scene.params[ParamId::Stiffness].value[size_t(s)];
    const double c = scene.params[ParamId::Damping].value[size_t(s)];
    const double stiff = dt * std::sqrt(k * w), damp = dt * c * w;
    const std::string name = "spring " + std::to_string(s);
    spring_stiffness.offer(std::exp(std::min(steps * log_growth(stiff, false), 700.0)), [&] {
      return StepStabilityIssue{"spring stiffness", name, stiff, std::exp(std::min(steps * log_growth(stiff, false), 700.0)),
                                "lower dt below " + number(kUnstableGain / std::sqrt(k * w)) +
                                    " s or the stiffness below " + number(kUnstableGain * kUnstableGain / (dt * dt * w)) +
                                    " N/m"};
    });
    spring_damping.offer(std::exp(std::min(steps * log_growth(damp, true), 700.0)), [&] {
      return StepStabilityIssue{"spring damping", name, damp, std::exp(std::min(steps * log_growth(damp, true), 700.0)),
                                "lower dt below " + number(kUnstableGain / (c * w)) + " s or the damping below " +
                                    number(kUnstableGain / (dt * w)) + " N s/m"};
    });
  }

  const Ground& ground = scene.settings.ground;
  if (ground.enabled) {
    const double k = scene.params[ParamId::GroundStiffness].value[0];
    const double mu = scene.params[ParamId::Friction].value[0];
    const double eps = ground.contact_smoothing, eta = ground.friction_smoothing;
    for (int i = 0; i < n; ++i) {
      const double w = inverse_mass(i);
      if (w == 0) continue;
      WorstRun stiffness, damping, slip;
      for (int t = 0; t <= steps; ++t) {
        const double* x = &traj.x[(size_t(t) * size_t(n) + size_t(i)) * 3];
        const double* v = &traj.v[(size_t(t) * size_t(n) + size_t(i)) * 3];
        // The penalty switches on smoothly (kernels/ground_contact.h): depth eps softplus(z),
        // its slope in y the gate sigmoid(z).
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
        return StepStabilityIssue{"ground stiffness", particle + run_text(stiffness.first(), stiffness.last()),
                                  stiffness.peak(), stiffness.growth(),
                                  "lower dt below " + number(kUnstableGain / std::sqrt(k * w)) +
                                      " s or the ground stiffness below " +
                                      number(kUnstableGain * kUnstableGain / (dt * dt * w)) + " N/m"};
      });
      ground_damping.offer(damping.growth(), [&] {
        return StepStabilityIssue{"ground damping", particle + run_text(damping.first(), damping.last()), damping.peak(),
                                  damping.growth(),
                                  "lower dt or the ground damping below " + number(kUnstableGain / (dt * w)) + " N s/m"};
      });
      friction.offer(slip.growth(), [&] {
        // The slip speed at which the peak gain would be at the limit.
        const double eta_needed = slip.peak() * eta / kUnstableGain;
        return StepStabilityIssue{"ground friction", particle + run_text(slip.first(), slip.last()), slip.peak(),
                                  slip.growth(),
                                  "raise simulation.ground.friction_smoothing above " + number(eta_needed) +
                                      " m/s or lower dt below " + number(dt * kUnstableGain / slip.peak()) + " s"};
      });
    }
  }

  std::vector<StepStabilityIssue> issues;
  for (Worst* worst : {&spring_stiffness, &spring_damping, &ground_stiffness, &ground_damping, &friction})
    if (worst->issue.growth > 0) issues.push_back(worst->issue);
  std::sort(issues.begin(), issues.end(), [](const auto& a, const auto& b) { return a.growth > b.growth; });
  return issues;
}

}  // namespace nudge
