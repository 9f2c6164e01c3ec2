// Rest: w / N sum_q |v_q|^2 / 2 over the objective's material points at its step (every
// point when none are listed): their kinetic energy per unit mass, brought to 0 when
// what was poured, tipped or dropped is to have settled by then (a heap that stops
// sliding, a liquid that stops sloshing). Per unit mass, so that it reads the same for
// a light liquid and a heavy sand.
#include <memory>

#include "objectives/objective_registry.h"

namespace nudge {

namespace {

class RestTerm final : public StateTerm<RestTerm> {
public:
  explicit RestTerm(const ObjectiveSource& source)
      : weight_(source.objective.weight), step_(source.step), points_(source.objective.points), sizes_(source.sizes) {}

  void observe(std::set<int>& steps) const override { steps.insert(step_); }

  template <class T>
  void state_loss(int t, StateView<const T> s, double& loss) const {
    if (t != step_) return;
    double sum = 0;
    for (int q : points_)
      for (int k = 0; k < 3; ++k) {
        const double v = static_cast<double>(s.point_v[sizes_.point(q, k)]);
        sum += v * v;
      }
    loss += weight_ * 0.5 * sum / static_cast<double>(points_.size());
  }

  template <class T>
  void state_grad(int t, StateView<const T> s, StateView<T> adj) const {
    if (t != step_) return;
    const double scale = weight_ / static_cast<double>(points_.size());
    for (int q : points_)
      for (int k = 0; k < 3; ++k)
        adj.point_v[sizes_.point(q, k)] += static_cast<T>(scale * s.point_v[sizes_.point(q, k)]);
  }

private:
  double weight_;
  int step_;
  std::vector<int> points_;
  StateSizes sizes_;
};

}  // namespace

std::unique_ptr<ObjectiveTerm> make_rest_term(const ObjectiveSource& source) {
  return std::make_unique<RestTerm>(source);
}

}  // namespace nudge
