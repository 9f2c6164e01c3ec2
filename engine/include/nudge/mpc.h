// Model predictive control: a receding-horizon loop over a scene's per-step controls.
// Every K steps it re-plans the next H steps' controls (the optimised rows of `controls`
// and `joint_controls`) from where the motion has got to, with the scene's optimiser for
// a few iterations warm-started from the previous plan, and executes the first K steps
// of the plan. Warp's example_drone runs this loop.
//
// The plan from step t0 is optimised on the scene cut at t0 + H steps, whose motion up to
// t0 replays the controls already executed: the same kernels on the same inputs, so the
// state it plans from is, to the bit, the one the executed motion reaches, and every
// rest shape and joint frame stays the scene's (they are taken at step 0). The backward
// pass runs through the window only (a truncated horizon of H steps), so a plan's
// gradient costs H steps back and t0 + H forward.
//
// The objectives are the scene's, seen from the window, which aims at the next goal: the
// terms inside the window when it has some, else those at the first step past it that a
// term reads, applied at the window's last step; terms further on wait until a window
// comes near them (a path of goals is flown goal by goal); a term at or before t0 is
// dropped (the plan cannot change it); marker samples past the window are left out.
// Control effort and smoothness count over the rows as they stand.
#pragma once

#include <functional>
#include <vector>

#include "nudge/result.h"
#include "nudge/scene.h"
#include "nudge/simulator.h"

namespace nudge {

struct MpcSettings {
  int horizon = 60;       // H, steps planned each time
  int replan_every = 10;  // K, steps executed between plans, 1 <= K <= H
  int iterations = 10;    // optimiser iterations per plan (the scene's optimiser otherwise)
};

struct MpcPlan {
  int start = 0;  // t0: the plan covers steps [start, start + steps)
  int steps = 0;
  int iterations = 0;
  double initial_loss = 0, final_loss = 0;  // the window's loss, before and after
};

struct MpcResult {
  ParameterSet params;  // the scene's parameters with the executed controls
  double loss = 0;      // the scene's own loss of the executed motion
  std::vector<MpcPlan> plans;
};

// Called after each plan with the plan and its motion (steps 0 .. start + steps: the
// executed prefix, then the planned window); returning false cancels the loop.
using MpcCallback = std::function<bool(const MpcPlan& plan, const Trajectory& planned)>;

// The scene's problems for MPC, or nothing: the settings' ranges, and some per-step
// control being optimised.
Status check_mpc(const Scene& scene, const MpcSettings& settings);

// The scene MPC optimises from step `start`: cut at `end` steps, its objectives seen from
// the window [start, end], only the controls' rows in it optimised (other parameters
// held), from the parameter values in `params`.
Scene mpc_window_scene(const Scene& scene, const ParameterSet& params, int start, int end);

Result<MpcResult> run_mpc(const Scene& scene, const MpcSettings& settings, const SimulatorOptions& options,
                          const MpcCallback& on_plan = {});

}  // namespace nudge
