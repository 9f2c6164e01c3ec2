// A running cost: one objective's term evaluated at every step of a window (from_step,
// from_step + every, ... up to its step) instead of at its step alone, the window's mean.
// Any kind that reads the state at one step takes a window; the inner term is made for
// the window's last step, with its weight divided by the window's length, and reads each
// step of the window as if it were that one.
#pragma once

#include <memory>
#include <set>
#include <utility>

#include "objectives/objective_term.h"

namespace nudge {

class WindowTerm final : public ObjectiveTerm {
public:
  // `inner` evaluates at `last`; the window is first, first + every, ..., <= last.
  WindowTerm(std::unique_ptr<ObjectiveTerm> inner, int first, int every, int last)
      : inner_(std::move(inner)), first_(first), every_(every), last_(last) {}

  // How many steps a window holds, to divide the weight by.
  static int length(int first, int every, int last) { return (last - first) / every + 1; }

  void observe(std::set<int>& steps) const override {
    for (int t = first_; t <= last_; t += every_) steps.insert(t);
  }
  void add_state_loss(int t, StateView<const float> s, double& loss) const override {
    if (in_window(t)) inner_->add_state_loss(last_, s, loss);
  }
  void add_state_loss(int t, StateView<const double> s, double& loss) const override {
    if (in_window(t)) inner_->add_state_loss(last_, s, loss);
  }
  void add_state_grad(int t, StateView<const float> s, StateView<float> adj) const override {
    if (in_window(t)) inner_->add_state_grad(last_, s, adj);
  }
  void add_state_grad(int t, StateView<const double> s, StateView<double> adj) const override {
    if (in_window(t)) inner_->add_state_grad(last_, s, adj);
  }
  void prepare(const ParameterSet& p) override { inner_->prepare(p); }
  // A term of both state and parameters (reach) gathers its parameters' share over the
  // steps its state_grad saw, and adds it once.
  void add_param_loss(const ParameterSet& p, double& loss) const override { inner_->add_param_loss(p, loss); }
  void add_param_grad(ParameterSet& p) const override { inner_->add_param_grad(p); }

private:
  bool in_window(int t) const { return t >= first_ && t <= last_ && (t - first_) % every_ == 0; }

  std::unique_ptr<ObjectiveTerm> inner_;
  int first_, every_, last_;
};

}  // namespace nudge
