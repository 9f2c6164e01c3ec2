// Terms on the controls alone, over the spring controls' and the joint motors' tables
// (each mean over its own values; a scene usually has one kind):
// Effort: w * the mean square of the controls.
// Smoothness (a rate penalty): w * the mean square of each control's change from one step
// to the next, u[t+1][c] - u[t][c].
#include <memory>

#include "nudge/parameter_facts.h"
#include "objectives/objective_registry.h"

namespace nudge {

namespace {

// The number of (step, column) changes in a steps x cols table.
size_t change_count(const Parameter& p) {
  return p.cols > 0 && p.value.size() > size_t(p.cols) ? p.value.size() - size_t(p.cols) : 0;
}

class EffortTerm final : public ParamTerm {
public:
  explicit EffortTerm(double weight) : weight_(weight) {}

  void add_param_loss(const ParameterSet& params, double& loss) const override {
    for (ParamId id : per_step_params()) {
      const std::vector<double>& u = params[id].value;
      if (u.empty()) continue;
      double sum = 0.0;
      for (double x : u) sum += x * x;
      loss += weight_ * sum / static_cast<double>(u.size());
    }
  }

  void add_param_grad(ParameterSet& params) const override {
    for (ParamId id : per_step_params()) {
      Parameter& controls = params[id];
      const std::vector<double>& u = controls.value;
      if (u.empty()) continue;
      const double scale = 2.0 * weight_ / static_cast<double>(u.size());
      for (size_t j = 0; j < u.size(); ++j) controls.grad[j] += scale * u[j];
    }
  }

private:
  double weight_;
};

class SmoothnessTerm final : public ParamTerm {
public:
  explicit SmoothnessTerm(double weight) : weight_(weight) {}

  void add_param_loss(const ParameterSet& params, double& loss) const override {
    for (ParamId id : per_step_params()) {
      const Parameter& controls = params[id];
      const std::vector<double>& u = controls.value;
      const size_t changes = change_count(controls), cols = size_t(controls.cols);
      if (changes == 0) continue;
      double sum = 0.0;
      for (size_t j = 0; j < changes; ++j) sum += (u[j + cols] - u[j]) * (u[j + cols] - u[j]);
      loss += weight_ * sum / static_cast<double>(changes);
    }
  }

  void add_param_grad(ParameterSet& params) const override {
    for (ParamId id : per_step_params()) {
      Parameter& controls = params[id];
      const std::vector<double>& u = controls.value;
      const size_t changes = change_count(controls), cols = size_t(controls.cols);
      if (changes == 0) continue;
      const double scale = 2.0 * weight_ / static_cast<double>(changes);
      for (size_t j = 0; j < changes; ++j) {
        const double d = scale * (u[j + cols] - u[j]);
        controls.grad[j + cols] += d;
        controls.grad[j] -= d;
      }
    }
  }

private:
  double weight_;
};

}  // namespace

std::unique_ptr<ObjectiveTerm> make_effort_term(const ObjectiveSource& source) {
  return std::make_unique<EffortTerm>(source.objective.weight);
}

std::unique_ptr<ObjectiveTerm> make_smoothness_term(const ObjectiveSource& source) {
  return std::make_unique<SmoothnessTerm>(source.objective.weight);
}

}  // namespace nudge
