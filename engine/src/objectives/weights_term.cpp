// Weights: w * sum_t <W_t, positions_t>, a linear function of the whole trajectory's
// positions (particles, bodies' centres, material points; the trajectory's layout, xyz
// per element, step after step). Its gradient is W itself at every state, so a rollout's
// gradient with this objective is the vector-Jacobian product of the trajectory with W:
// what an autograd framework asks of the simulator when its own loss reads the
// trajectory (python/nudge/torch.py).
#include <memory>
#include <vector>

#include "objectives/objective_registry.h"

namespace nudge {

namespace {

class WeightsTerm final : public StateTerm<WeightsTerm> {
public:
  explicit WeightsTerm(const ObjectiveSource& source)
      : weight_(source.objective.weight), steps_(source.scene.settings.steps), weights_(source.objective.target),
        sizes_(source.sizes), per_step_(3 * std::size_t(sizes_.particles + sizes_.bodies + sizes_.points)) {}

  void observe(std::set<int>& steps) const override {
    for (int t = 0; t <= steps_; ++t) steps.insert(t);
  }

  template <class T>
  void state_loss(int t, StateView<const T> s, double& loss) const {
    double sum = 0;
    each(
        t, [&](const T* a, std::size_t at, double w) { sum += w * static_cast<double>(a[at]); }, s.x, s.body_x,
        s.point_x);
    loss += weight_ * sum;
  }

  template <class T>
  void state_grad(int t, StateView<const T>, StateView<T> adj) const {
    each(
        t, [&](T* a, std::size_t at, double w) { a[at] += static_cast<T>(weight_ * w); }, adj.x, adj.body_x,
        adj.point_x);
  }

private:
  // f(array, index in it, weight) for every position entry at step t.
  template <class A, class F>
  void each(int t, F f, A* x, A* body_x, A* point_x) const {
    const double* w = weights_.data() + std::size_t(t) * per_step_;
    for (int p = 0; p < sizes_.particles; ++p)
      for (int k = 0; k < 3; ++k) f(x, sizes_.particle(p, k), *w++);
    for (int b = 0; b < sizes_.bodies; ++b)
      for (int k = 0; k < 3; ++k) f(body_x, sizes_.body(b, k), *w++);
    for (int q = 0; q < sizes_.points; ++q)
      for (int k = 0; k < 3; ++k) f(point_x, sizes_.point(q, k), *w++);
  }

  double weight_;
  int steps_;
  std::vector<double> weights_;
  StateSizes sizes_;
  std::size_t per_step_;
};

}  // namespace

std::unique_ptr<ObjectiveTerm> make_weights_term(const ObjectiveSource& source) {
  return std::make_unique<WeightsTerm>(source);
}

}  // namespace nudge
