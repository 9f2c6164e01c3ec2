// Target and Velocity: w |c_t - target|^2, c the centroid of the objective's particles,
// bodies and material points at its step: of their positions (Target) or of their
// velocities (Velocity).
#include <algorithm>
#include <memory>

#include "objectives/objective_registry.h"

namespace nudge {

namespace {

class CentroidTerm final : public StateTerm<CentroidTerm> {
public:
  CentroidTerm(const ObjectiveSource& source, bool positions)
      : positions_(positions), weight_(source.objective.weight), step_(source.step),
        particles_(source.objective.particles), bodies_(source.objective.bodies), points_(source.objective.points),
        sizes_(source.sizes) {
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
    const double share = 1.0 / static_cast<double>(count());
    T* a = positions_ ? adj.x : adj.v;
    T* b = positions_ ? adj.body_x : adj.body_v;
    T* q = positions_ ? adj.point_x : adj.point_v;
    for (int k = 0; k < 3; ++k) {
      const T g = static_cast<T>(2.0 * weight_ * (c[k] - target_[k]) * share);
      for (int p : particles_) a[sizes_.particle(p, k)] += g;
      for (int i : bodies_) b[sizes_.body(i, k)] += g;
      for (int i : points_) q[sizes_.point(i, k)] += g;
    }
  }

private:
  size_t count() const { return std::max<size_t>(1, particles_.size() + bodies_.size() + points_.size()); }

  template <class T>
  void centroid_of(StateView<const T> s, double c[3]) const {
    const T* a = positions_ ? s.x : s.v;
    const T* b = positions_ ? s.body_x : s.body_v;
    const T* q = positions_ ? s.point_x : s.point_v;
    c[0] = c[1] = c[2] = 0.0;
    for (int k = 0; k < 3; ++k) {
      for (int p : particles_) c[k] += static_cast<double>(a[sizes_.particle(p, k)]);
      for (int i : bodies_) c[k] += static_cast<double>(b[sizes_.body(i, k)]);
      for (int i : points_) c[k] += static_cast<double>(q[sizes_.point(i, k)]);
      c[k] /= static_cast<double>(count());
    }
  }

  bool positions_;
  double weight_;
  int step_;
  std::vector<int> particles_, bodies_, points_;
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
