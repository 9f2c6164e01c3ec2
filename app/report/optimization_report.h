// What an optimisation writes for the user, shared by `nudge optimize` and the studio's
// Optimise tab: the loss history as CSV and the optimised parameters as JSON.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "nudge/parameters.h"

namespace nudge {

// "iteration,loss,grad_norm" and one row per entry of the histories.
std::string loss_history_csv(const std::vector<double>& loss, const std::vector<double>& grad_norm);

// {"<parameter name>": {"shape": [rows, cols], "value": [...]}, ...} for the optimised ones.
nlohmann::ordered_json optimized_parameters_json(const ParameterSet& params);

}  // namespace nudge
