// Joints: w / |K| * sum_k (q_k,t - target_k)^2 over the objective's links at its step: an
// articulation's pose in its own coordinates (a hinge's angle in rad, a slide's offset in
// m), what a robot's controller is asked to reach or hold. Balls and free joints have no
// single coordinate; the objective's check refuses them.
#include <memory>
#include <vector>

#include "objectives/objective_registry.h"

namespace nudge {

namespace {

class JointsTerm final : public StateTerm<JointsTerm> {
public:
  explicit JointsTerm(const ObjectiveSource& source)
      : weight_(source.objective.weight), step_(source.step), targets_(source.objective.target) {
    const std::vector<int> position = articulation_positions(source.scene.articulations);
    for (int k : source.objective.links) coordinates_.push_back(position[size_t(k)]);
  }

  void observe(std::set<int>& steps) const override { steps.insert(step_); }

  template <class T>
  void state_loss(int t, StateView<const T> s, double& loss) const {
    if (t != step_ || coordinates_.empty()) return;
    double sum = 0;
    for (size_t k = 0; k < coordinates_.size(); ++k) {
      const double d = static_cast<double>(s.joint_q[coordinates_[k]]) - targets_[k];
      sum += d * d;
    }
    loss += weight_ * sum / static_cast<double>(coordinates_.size());
  }

  template <class T>
  void state_grad(int t, StateView<const T> s, StateView<T> adj) const {
    if (t != step_ || coordinates_.empty()) return;
    const double scale = 2 * weight_ / static_cast<double>(coordinates_.size());
    for (size_t k = 0; k < coordinates_.size(); ++k)
      adj.joint_q[coordinates_[k]] +=
          static_cast<T>(scale * (static_cast<double>(s.joint_q[coordinates_[k]]) - targets_[k]));
  }

private:
  double weight_;
  int step_;
  std::vector<double> targets_;
  std::vector<int> coordinates_;  // of the objective's links, in its order
};

}  // namespace

std::unique_ptr<ObjectiveTerm> make_joints_term(const ObjectiveSource& source) {
  return std::make_unique<JointsTerm>(source);
}

}  // namespace nudge
