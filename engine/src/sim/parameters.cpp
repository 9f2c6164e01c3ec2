#include "nudge/parameters.h"

#include "nudge/parameter_facts.h"

#include <algorithm>

namespace nudge {

std::string_view param_name(ParamId id) { return param_facts(id).name; }

std::optional<ParamId> param_from_name(std::string_view name) {
  for (int i = 0; i < kParamCount; ++i)
    if (param_facts(static_cast<ParamId>(i)).name == name) return static_cast<ParamId>(i);
  return std::nullopt;
}

bool Parameter::optimized_entry(int k) const {
  if (!optimize) return false;
  if (size_t(k) < unused.size() && unused[size_t(k)]) return false;
  if (optimize_rows.empty()) return true;
  return std::binary_search(optimize_rows.begin(), optimize_rows.end(), k / std::max(cols, 1));
}

namespace {
// Calls f(parameter, entry) for every optimised entry, in the flat order.
template <class Params, class F>
void for_each_optimized(Params& items, F f) {
  for (auto& p : items) {
    if (!p.optimize) continue;
    for (int k = 0; k < p.size(); ++k)
      if (p.optimized_entry(k)) f(p, k);
  }
}
}  // namespace

int ParameterSet::optimized_size() const {
  int total = 0;
  for_each_optimized(items, [&](const Parameter&, int) { ++total; });
  return total;
}

std::vector<double> ParameterSet::gather_optimized() const {
  std::vector<double> flat;
  flat.reserve(optimized_size());
  for_each_optimized(items, [&](const Parameter& p, int k) { flat.push_back(p.value[k]); });
  return flat;
}

std::vector<double> ParameterSet::gather_optimized_grad() const {
  std::vector<double> flat;
  flat.reserve(optimized_size());
  for_each_optimized(items, [&](const Parameter& p, int k) { flat.push_back(p.grad[k]); });
  return flat;
}

void ParameterSet::scatter_optimized(const std::vector<double>& flat) {
  size_t at = 0;
  for_each_optimized(items, [&](Parameter& p, int k) { p.value[k] = flat[at++]; });
}

void ParameterSet::optimized_bounds(std::vector<double>& lower, std::vector<double>& upper) const {
  lower.clear();
  upper.clear();
  for_each_optimized(items, [&](const Parameter& p, int) {
    lower.push_back(p.lower);
    upper.push_back(p.upper);
  });
}

void ParameterSet::zero_grad() {
  for (Parameter& p : items) p.grad.assign(p.value.size(), 0.0);
}

}  // namespace nudge
