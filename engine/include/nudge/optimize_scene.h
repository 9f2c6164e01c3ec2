// Optimising a scene's parameters: the bridge between the Simulator (loss and gradient
// of every parameter) and minimize (a flat vector within bounds). The command line,
// the tests and (later) the app's worker all optimise through this.
#pragma once

#include "nudge/optimizer.h"
#include "nudge/simulator.h"

namespace nudge {

// Minimises the simulator's loss over the parameters marked `optimize`, within their
// bounds, starting from their values in `params`; on return `params` holds the best
// values found. Fails only if the starting values do not evaluate.
Result<OptimizeResult> optimize_parameters(Simulator& sim, ParameterSet& params, const OptimizerSettings& settings,
                                           const IterationCallback& on_iteration = {});

}  // namespace nudge
