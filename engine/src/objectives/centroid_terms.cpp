// Target and Velocity: w |c_t - target|^2, c the centroid of the objective's particles and
// bodies at its step: of their positions (Target) or of their velocities (Velocity).
#include <algorithm>
#include <memory>

#include "objectives/objective_registry.h"

namespace nudge {

namespace {

class CentroidTerm final : public StateTerm<CentroidTerm> {
public:
  CentroidTerm(const ObjectiveSource& source, bool positions)
      : positions_(positions), weight_(source.objective.weight), step_(source.step),
        particles_(source.objective.particles), bodies_(source.objective.bodies), sizes_(source.sizes) {
    std::copy_n(source.objective.target.begin(), 3, target_);
  }

  void observe(std::set<int>& steps) const override { steps.insert(step_); }

  template <class T>
  void state_loss(int t, StateView<const T> s, double& loss) const {
    if (t != step_) return;
    double c[3];
    centroid_of(s, c);
    double l = 0.0;
    for (int k = 0; k < 3; ++k) l += (c[k] - target_[k]) * (c[k] - target_[k]);
    l *= weight_;
    loss += l;
  }

  template <class T>
  void state_grad(int t, StateView<const T> s, StateView<T> adj) const {
    if (t != step_) return;
    double c[3];
    centroid_of(s, c);
    const double share = 1.0 / static_cast<double>(std::max<size_t>(1, particles_.size() + bodies_.size()));
    T* a = positions_ ? adj.x : adj.v;
    T* b = positions_ ? adj.body_x : adj.body_v;
    for (int k = 0; k < 3; ++k) {
      const T g = static_cast<T>(2.0 * weight_ * (c[k] - target_[k]) * share);
      for (int p : particles_) a[sizes_.particle(p, k)] += g;
      for (int i : bodies_) b[sizes_.body(i, k)] += g;
    }
  }

private:
  template <class T>
  void centroid_of(StateView<const T> s, double c[3]) const {
    if (positions_)
      centroid(particles_, s.x, bodies_, s.body_x, sizes_, c);
    else
      centroid(particles_, s.v, bodies_, s.body_v, sizes_, c);
  }

  bool positions_;
  double weight_;
  int step_;
  std::vector<int> particles_, bodies_;
  StateSizes sizes_;
  double target_[3] = {0, 0, 0};
};

}  // namespace

std::unique_ptr<ObjectiveTerm> make_target_term(const ObjectiveSource& source) {
  return std::make_unique<CentroidTerm>(source, true);
}

std::unique_ptr<ObjectiveTerm> make_velocity_term(const ObjectiveSource& source) {
  return std::make_unique<CentroidTerm>(source, false);
}

}  // namespace nudge
