// Optimising a scene's parameters: the bridge between the Simulator (loss and gradient
// of every parameter) and minimize (a flat vector within bounds). The command line,
// the tests and (later) the app's worker all optimise through this.
#pragma once

#include "nudge/optimizer.h"
#include "nudge/simulator.h"

namespace nudge {

// Minimises the simulator's loss over the parameters marked `optimize`, within their
// bounds, starting from their values in `params`; on return `params` holds the best
// values found. Gradient methods run Simulator::gradient at every point; cmaes runs
// Simulator::evaluate, a forward rollout only, and leaves the gradients in `params` as they
// were. Fails only if the starting values do not evaluate (or, as minimize says, the
// settings are unusable). `gradient` is passed to every Simulator::gradient call (a
// truncated horizon).
Result<OptimizeResult> optimize_parameters(Simulator& sim, ParameterSet& params, const OptimizerSettings& settings,
                                           const IterationCallback& on_iteration = {},
                                           const GradientOptions& gradient = {});

}  // namespace nudge
