#include "nudge/parameters.h"

#include <algorithm>

namespace nudge {

namespace {
constexpr std::string_view kNames[kParamCount] = {
    "initial_position", "initial_velocity", "mass",     "external_force",   "stiffness", "damping",
    "rest_length",      "gravity",          "drag",     "ground_stiffness", "friction",  "controls",
    "particle_radius",  "contact_stiffness", "contact_damping", "contact_friction",
    "body_position",    "body_orientation",  "body_velocity",   "body_angular_velocity", "body_density",
    "joint_anchor",     "joint_damping",     "joint_control",
};
}  // namespace

std::string_view param_name(ParamId id) { return kNames[static_cast<int>(id)]; }

std::optional<ParamId> param_from_name(std::string_view name) {
  for (int i = 0; i < kParamCount; ++i)
    if (kNames[i] == name) return static_cast<ParamId>(i);
  return std::nullopt;
}

int ParameterSet::optimized_size() const {
  int total = 0;
  for (const Parameter& p : items)
    if (p.optimize) total += p.size();
  return total;
}

std::vector<double> ParameterSet::gather_optimized() const {
  std::vector<double> flat;
  flat.reserve(optimized_size());
  for (const Parameter& p : items)
    if (p.optimize) flat.insert(flat.end(), p.value.begin(), p.value.end());
  return flat;
}

std::vector<double> ParameterSet::gather_optimized_grad() const {
  std::vector<double> flat;
  flat.reserve(optimized_size());
  for (const Parameter& p : items)
    if (p.optimize) flat.insert(flat.end(), p.grad.begin(), p.grad.end());
  return flat;
}

void ParameterSet::scatter_optimized(const std::vector<double>& flat) {
  size_t at = 0;
  for (Parameter& p : items) {
    if (!p.optimize) continue;
    std::copy_n(flat.begin() + static_cast<std::ptrdiff_t>(at), p.size(), p.value.begin());
    at += p.size();
  }
}

void ParameterSet::optimized_bounds(std::vector<double>& lower, std::vector<double>& upper) const {
  lower.clear();
  upper.clear();
  for (const Parameter& p : items) {
    if (!p.optimize) continue;
    lower.insert(lower.end(), p.size(), p.lower);
    upper.insert(upper.end(), p.size(), p.upper);
  }
}

void ParameterSet::zero_grad() {
  for (Parameter& p : items) p.grad.assign(p.value.size(), 0.0);
}

}  // namespace nudge
