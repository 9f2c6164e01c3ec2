// Weights: w * sum_t <W_t, state_t>, a linear function of the whole trajectory's
// positions (particles, bodies' centres, material points; the trajectory's layout, xyz
// per element, step after step; then the joints' coordinates), and, when W is long enough
// for them, of the particles' velocities, the bodies' orientations and velocities and the
// joints' rates (weights_per_step in
// nudge/objective_facts.h). Its gradient is W itself at every state, so a rollout's
// gradient with this objective is the vector-Jacobian product of the trajectory with W:
// what an autograd framework asks of the simulator when its own loss reads the
// trajectory (python/nudge/torch.py).
#include <memory>
#include <vector>

#include "nudge/objective_facts.h"
#include "objectives/objective_registry.h"

namespace nudge {

namespace {

class WeightsTerm final : public StateTerm<WeightsTerm> {
public:
  explicit WeightsTerm(const ObjectiveSource& source)
      : weight_(source.objective.weight), steps_(source.scene.settings.steps), weights_(source.objective.target),
        sizes_(source.sizes),
        motion_(weights_.size() == std::size_t(steps_ + 1) * weights_per_step(source.scene, true)),
        per_step_(weights_per_step(source.scene, motion_)) {}

  void observe(std::set<int>& steps) const override {
    for (int t = 0; t <= steps_; ++t) steps.insert(t);
  }

  template <class T>
  void state_loss(int t, StateView<const T> s, double& loss) const {
    double sum = 0;
    each(
        t, [&](const T* a, std::size_t at, double w) { sum += w * static_cast<double>(a[at]); }, s);
    loss += weight_ * sum;
  }

  template <class T>
  void state_grad(int t, StateView<const T>, StateView<T> adj) const {
    each(
        t, [&](T* a, std::size_t at, double w) { a[at] += static_cast<T>(weight_ * w); }, adj);
  }

private:
  // f(array, index in it, weight) for every weighed entry at step t, in W's order.
  template <class T, class F>
  void each(int t, F f, StateView<T> s) const {
    const double* w = weights_.data() + std::size_t(t) * per_step_;
    const auto particles = [&](T* a) {
      for (int p = 0; p < sizes_.particles; ++p)
        for (int k = 0; k < 3; ++k) f(a, sizes_.particle(p, k), *w++);
    };
    const auto bodies = [&](T* a, int width) {
      for (int b = 0; b < sizes_.bodies; ++b)
        for (int k = 0; k < width; ++k) f(a, sizes_.body(b, k), *w++);
    };
    particles(s.x);
    bodies(s.body_x, 3);
    for (int q = 0; q < sizes_.points; ++q)
      for (int k = 0; k < 3; ++k) f(s.point_x, sizes_.point(q, k), *w++);
    for (int i = 0; i < sizes_.positions; ++i) f(s.joint_q, std::size_t(i), *w++);
    if (!motion_) return;
    particles(s.v);
    bodies(s.body_q, 4);
    bodies(s.body_v, 3);
    bodies(s.body_w, 3);
    for (int i = 0; i < sizes_.coordinates; ++i) f(s.joint_qd, std::size_t(i), *w++);
  }

  double weight_;
  int steps_;
  std::vector<double> weights_;
  StateSizes sizes_;
  bool motion_;  // W weighs the velocities and orientations too
  std::size_t per_step_;
};

}  // namespace

std::unique_ptr<ObjectiveTerm> make_weights_term(const ObjectiveSource& source) {
  return std::make_unique<WeightsTerm>(source);
}

}  // namespace nudge
