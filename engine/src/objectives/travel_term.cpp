// Travel: -w dot(c_t - c_0, direction), c the centroid of the objective's particles and
// material points: maximise the distance travelled along a direction by the objective's
// step.
#include <algorithm>
#include <memory>

#include "objectives/objective_registry.h"

namespace nudge {

namespace {

class TravelTerm final : public StateTerm<TravelTerm> {
public:
  explicit TravelTerm(const ObjectiveSource& source)
      : weight_(source.objective.weight), step_(source.step), particles_(source.objective.particles),
        points_(source.objective.points),
        share_(1.0 / static_cast<double>(std::max<size_t>(1, particles_.size() + points_.size()))),
        sizes_(source.sizes) {
    std::copy_n(source.objective.direction, 3, direction_);
  }

  void observe(std::set<int>& steps) const override {
    steps.insert(0);
    steps.insert(step_);
  }

  template <class T>
  void state_loss(int t, StateView<const T> s, double& loss) const {
    if (!reads(t)) return;
    double c[3] = {0, 0, 0};
    for (int k = 0; k < 3; ++k) {
      for (int p : particles_) c[k] += static_cast<double>(s.x[sizes_.particle(p, k)]);
      for (int q : points_) c[k] += static_cast<double>(s.point_x[sizes_.point(q, k)]);
      c[k] /= static_cast<double>(std::max<size_t>(1, particles_.size() + points_.size()));
    }
    const double sign = t == 0 ? 1.0 : -1.0;  // L = -w dir . (c_t - c_0)
    double l = 0.0;
    for (int k = 0; k < 3; ++k) l += sign * weight_ * direction_[k] * c[k];
    loss += l;
  }

  template <class T>
  void state_grad(int t, StateView<const T>, StateView<T> adj) const {
    if (!reads(t)) return;
    const double sign = t == 0 ? 1.0 : -1.0;
    for (int k = 0; k < 3; ++k) {
      const T g = static_cast<T>(sign * weight_ * direction_[k] * share_);
      for (int p : particles_) adj.x[sizes_.particle(p, k)] += g;
      for (int q : points_) adj.point_x[sizes_.point(q, k)] += g;
    }
  }

private:
  // The first and the objective's step; none when that is step 0 (it travelled nowhere).
  bool reads(int t) const { return (t == 0 || t == step_) && step_ != 0; }

  double weight_;
  int step_;
  std::vector<int> particles_, points_;
  double share_;
  StateSizes sizes_;
  double direction_[3] = {1, 0, 0};
};

}  // namespace

std::unique_ptr<ObjectiveTerm> make_travel_term(const ObjectiveSource& source) {
  return std::make_unique<TravelTerm>(source);
}

}  // namespace nudge
