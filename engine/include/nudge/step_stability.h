// Where the explicit step is too coarse for a force: a check of a simulated motion.
//
// Semi-implicit Euler multiplies a small change of a particle's velocity, each step, by
// about 1 - g for a force whose stiffness or viscosity gives it the gain g (dt sqrt(k / m)
// for a spring's stiffness, dt c / m for a damper, the same for a tet's stiffness and
// damping at each corner, summed over a particle's tets, dt mu N / (m eta) for friction in its
// viscous regime, below the slip speed eta). Above g = 2 that factor exceeds 1 in size:
// the forward motion may still look right (friction saturates at mu N), but the
// linearised step, which the adjoint runs backwards, grows every step, and over a run of
// such steps gradients blow up (a particle landing at the engine's default friction
// smoothing gave an adjoint of 1e20 where the finite difference said 1). A single step
// above the limit grows them a few times only, which the gradients survive.
//
// This finds, for each kind of force, the run of steps over which such growth compounds
// most, reports it when it reaches kReportedGrowth, and says what would bring the gain
// under the limit. The threshold is high on purpose: the walker's feet, stuck on the
// ground, reach a growth of 2e3 over ten steps and its gradients still check against
// finite differences; the landing above reaches 1e20.
#pragma once

#include <string>
#include <vector>

#include "nudge/scene.h"
#include "nudge/simulator.h"

namespace nudge {

inline constexpr double kUnstableGain = 2.0;    // the explicit step's limit
inline constexpr double kReportedGrowth = 1e6;  // growth over a run of steps worth a warning

struct StepStabilityIssue {
  std::string force;            // "ground friction", "spring stiffness", ...
  std::string where;            // "particle 3, steps 212 to 230 (t = 0.212 to 0.23 s)", "spring 7"
  double gain = 0;              // the largest over that run
  double growth = 0;            // how much a small change grows over that run (the linearised step's)
  std::string advice;           // what brings the gain under kUnstableGain
  std::string message() const;  // one line: force, where, gain, growth, advice
};

// The forces of particles, springs, tets and the ground whose growth reaches kReportedGrowth
// somewhere in `traj` (a motion of `scene`), the worst of each kind, worst first.
std::vector<StepStabilityIssue> step_stability_issues(const Scene& scene, const Trajectory& traj);

}  // namespace nudge
