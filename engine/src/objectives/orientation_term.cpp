// Orientation: w / |B| * sum_b |R_b,t axis - direction|^2: the objective's bodies' own
// axis pointing along a direction of the world at its step.
#include <memory>

#include "objectives/objective_registry.h"

namespace nudge {

namespace {

class OrientationTerm final : public StateTerm<OrientationTerm> {
public:
  explicit OrientationTerm(const ObjectiveSource& source)
      : weight_(source.objective.weight), step_(source.step),
        bodies_(source.objective.bodies), axis_{source.objective.axis[0], source.objective.axis[1],
                                                source.objective.axis[2]},
        direction_{source.objective.direction[0], source.objective.direction[1], source.objective.direction[2]},
        sizes_(source.sizes) {}

  void observe(std::set<int>& steps) const override { steps.insert(step_); }

  template <class T>
  void state_loss(int t, StateView<const T> s, double& loss) const {
    if (t != step_) return;
    double l = 0.0;
    for (int b : bodies_) {
      const Vec3<double> e = rotate(body_orientation(s.body_q, b, sizes_), axis_) - direction_;
      l += dot(e, e);
    }
    l *= weight_ / static_cast<double>(bodies_.size());
    loss += l;
  }

  template <class T>
  void state_grad(int t, StateView<const T> s, StateView<T> adj) const {
    if (t != step_) return;
    for (int b : bodies_) {
      const Quat<double> q = body_orientation(s.body_q, b, sizes_);
      const Vec3<double> e = rotate(q, axis_) - direction_;
      Quat<double> adj_q{0, 0, 0, 0};
      Vec3<double> unused{0, 0, 0};
      adj_rotate(q, axis_, (2.0 * weight_ / static_cast<double>(bodies_.size())) * e, adj_q, unused);
      const double parts[4] = {adj_q.x, adj_q.y, adj_q.z, adj_q.w};
      for (int k = 0; k < 4; ++k) adj.body_q[sizes_.body(b, k)] += static_cast<T>(parts[k]);
    }
  }

private:
  double weight_;
  int step_;
  std::vector<int> bodies_;
  Vec3<double> axis_, direction_;
  StateSizes sizes_;
};

}  // namespace

std::unique_ptr<ObjectiveTerm> make_orientation_term(const ObjectiveSource& source) {
  return std::make_unique<OrientationTerm>(source);
}

}  // namespace nudge
