// The scene's objective terms evaluated on rollout states. Each term reads the state at
// a few steps ("observed steps"); its loss and its gradient with respect to those states
// are computed on the host in double, whatever precision the rollout runs in. Each kind
// of objective is a class of its own in engine/src/objectives/, made by the registry
// there.
#pragma once

#include <memory>
#include <vector>

#include "kernels/state.h"
#include "nudge/scene.h"
#include "objectives/objective_term.h"

namespace nudge {

class Objectives {
public:
  explicit Objectives(const Scene& scene);  // the scene must pass check_scene

  int term_count() const { return static_cast<int>(terms_.size()); }
  // Steps at which some term reads the state, ascending and unique.
  const std::vector<int>& observed_steps() const { return observed_; }

  // Adds each term's loss from the state at step t (in host memory) to term_loss.
  template <class T>
  void add_state_loss(int t, StateView<const T> s, std::vector<double>& term_loss) const {
    for (size_t i = 0; i < terms_.size(); ++i) terms_[i]->add_state_loss(t, s, term_loss[i]);
  }
  // Adds dL/dstate_t into adj (host memory, the state's layout).
  template <class T>
  void add_state_grad(int t, StateView<const T> s, StateView<T> adj) const {
    for (const auto& term : terms_) term->add_state_grad(t, s, adj);
  }
  // Before each forward pass: the parameters, for terms that read some (ObjectiveTerm::prepare).
  void prepare(const ParameterSet& params) const {
    for (const auto& term : terms_) term->prepare(params);
  }
  // Terms on parameters alone (control effort): their loss, and gradients added to params.
  void add_param_loss(const ParameterSet& params, std::vector<double>& term_loss) const {
    for (size_t i = 0; i < terms_.size(); ++i) terms_[i]->add_param_loss(params, term_loss[i]);
  }
  void add_param_grad(ParameterSet& params) const {
    for (const auto& term : terms_) term->add_param_grad(params);
  }

private:
  std::vector<std::unique_ptr<ObjectiveTerm>> terms_;
  std::vector<int> observed_;
};

}  // namespace nudge
