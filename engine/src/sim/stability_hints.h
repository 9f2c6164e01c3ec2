// What each family's share of the step-stability check (nudge/step_stability.h) works
// with: the scene and its motion, and the gains' bookkeeping. A family's share is one
// function, `<family>_stability_hints` in its folder, listed in sim/step_stability.cpp;
// it appends the worst issue of each kind of force it has, stiffness before damping.
#pragma once

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "nudge/scene.h"
#include "nudge/simulator.h"
#include "nudge/step_stability.h"
#include "nudge/vec3.h"

namespace nudge {

// "%.3g": the numbers of the messages.
std::string stability_number(double v);

// How much one step multiplies a small change, in logarithm: a damper's 1 - g both
// shrinks (g < 2) and grows (g > 2) it; a stiffness below the limit only turns it (an
// oscillation: |factor| 1), above it grows it by about g - 1.
inline double log_growth(double gain, bool damper) {
  if (gain >= kUnstableGain) return std::log(gain - 1);
  return damper ? std::log(std::max(std::fabs(1 - gain), 1e-300)) : 0.0;
}

// exp(steps * log_growth): a gain that is the same every step compounds over the motion.
inline double steady_growth(int steps, double gain, bool damper) {
  return std::exp(std::min(steps * log_growth(gain, damper), 700.0));
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
  // Appends the issue kept, if any.
  void report(std::vector<StepStabilityIssue>& issues) const {
    if (issue.growth > 0) issues.push_back(issue);
  }
};

// The scene and the motion being checked, with what every family's share reads.
struct StabilityContext {
  const Scene& scene;
  const Trajectory& traj;
  int particles = 0;
  double dt = 0;
  int steps = 0;
  // The implicit step (Integrator::ImplicitEuler) treats springs and the element
  // families implicitly: no limit there.
  bool implicit = false;

  double inverse_mass(int i) const;
  Vec3<double> initial_position(int i) const;
  std::string run_text(int first, int last) const;  // "steps 3 to 9, t = 0.003 to 0.009 s"
};

// Per particle: the stiffness and viscosity of the elements at it, summed.
struct ElementGains {
  explicit ElementGains(int n) : stiffness(size_t(n), 0.0), viscosity(size_t(n), 0.0), count(size_t(n), 0) {}
  void add(int i, double k, double c) {
    stiffness[size_t(i)] += k;
    viscosity[size_t(i)] += c;
    ++count[size_t(i)];
  }
  std::vector<double> stiffness, viscosity;
  std::vector<int> count;
};

// Elements on several particles pull a corner back with a stiffness and damp it with a
// viscosity that sum, at a particle, over its elements. `motion`: 2 where the sums are of
// a corner's own stiffness (relative motion doubles the gain's square), 1 where they
// already hold the coupled corners' shares. Appends the worst stiffness and damping
// issues ("tet stiffness", ... from `plural`, "tets").
void report_element_gains(const StabilityContext& context, const ElementGains& gains, const std::string& plural,
                          const std::string& stiffness_words, const std::string& damping_words,
                          std::vector<StepStabilityIssue>& issues, double motion = 2);

}  // namespace nudge
