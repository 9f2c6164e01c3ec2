#include "report/optimization_report.h"

#include <cmath>
#include <cstdio>

namespace nudge {

namespace {

std::string format_number(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.17g", x);  // exact: a CSV is read back by scripts
  return text;
}

}  // namespace

std::string loss_history_csv(const std::vector<double>& loss, const std::vector<double>& grad_norm) {
  std::string csv = "iteration,loss,grad_norm\n";
  for (size_t i = 0; i < loss.size(); ++i)
    csv += std::to_string(i) + "," + format_number(loss[i]) + "," +
           format_number(i < grad_norm.size() ? grad_norm[i] : NAN) + "\n";
  return csv;
}

nlohmann::ordered_json optimized_parameters_json(const ParameterSet& params) {
  nlohmann::ordered_json values = nlohmann::ordered_json::object();
  for (const Parameter& p : params.items)
    if (p.optimize) values[std::string(param_name(p.id))] = {{"shape", {p.rows, p.cols}}, {"value", p.value}};
  return values;
}

}  // namespace nudge
