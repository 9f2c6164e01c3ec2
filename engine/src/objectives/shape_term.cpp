// Shape: w (1/P sum_p min_q |x_p - y_q|^2 + 1/Q sum_q min_p |x_p - y_q|^2), the
// symmetric Chamfer distance between the objective's material points at its step and a
// target point set (a scanned heap, a reference run's points, a shape to fill): the
// first sum pulls every point onto the shape, the second covers every part of the shape.
// The points need not correspond one to one, nor be as many. Each minimum's gradient
// goes to its nearest pair (ties, which are rare, to the first). The nearest pairs are
// found by brute force, P x Q distances once per evaluation.
#include <limits>
#include <memory>
#include <vector>

#include "objectives/objective_registry.h"

namespace nudge {

namespace {

class ShapeTerm final : public StateTerm<ShapeTerm> {
public:
  explicit ShapeTerm(const ObjectiveSource& source)
      : weight_(source.objective.weight), step_(source.step), points_(source.objective.points),
        shape_(source.objective.target), sizes_(source.sizes) {}

  void observe(std::set<int>& steps) const override { steps.insert(step_); }

  template <class T>
  void state_loss(int t, StateView<const T> s, double& loss) const {
    if (t != step_) return;
    const Pairs pairs = nearest(s);
    loss += weight_ * (pairs.to_shape + pairs.to_points);
  }

  template <class T>
  void state_grad(int t, StateView<const T> s, StateView<T> adj) const {
    if (t != step_) return;
    const Pairs pairs = nearest(s);
    const double to_shape = 2 * weight_ / double(points_.size()), to_points = 2 * weight_ / double(shapes());
    for (size_t i = 0; i < points_.size(); ++i) add(s, adj, i, pairs.shape_of_point[i], to_shape);
    for (int q = 0; q < shapes(); ++q) add(s, adj, size_t(pairs.point_of_shape[size_t(q)]), q, to_points);
  }

private:
  struct Pairs {
    std::vector<int> shape_of_point;  // per listed point: its nearest target point
    std::vector<int> point_of_shape;  // per target point: the nearest listed point (index into points_)
    double to_shape = 0, to_points = 0;
  };

  int shapes() const { return static_cast<int>(shape_.size() / 3); }

  template <class T>
  double distance2(StateView<const T> s, size_t i, int q) const {
    double d2 = 0;
    for (int k = 0; k < 3; ++k) {
      const double d = static_cast<double>(s.point_x[sizes_.point(points_[i], k)]) - shape_[3 * size_t(q) + size_t(k)];
      d2 += d * d;
    }
    return d2;
  }

  template <class T>
  Pairs nearest(StateView<const T> s) const {
    Pairs pairs;
    const int q_count = shapes();
    pairs.shape_of_point.assign(points_.size(), 0);
    pairs.point_of_shape.assign(size_t(q_count), 0);
    std::vector<double> best_point(size_t(q_count), std::numeric_limits<double>::infinity());
    for (size_t i = 0; i < points_.size(); ++i) {
      double best = std::numeric_limits<double>::infinity();
      for (int q = 0; q < q_count; ++q) {
        const double d2 = distance2(s, i, q);
        if (d2 < best) best = d2, pairs.shape_of_point[i] = q;
        if (d2 < best_point[size_t(q)]) best_point[size_t(q)] = d2, pairs.point_of_shape[size_t(q)] = int(i);
      }
      pairs.to_shape += best;
    }
    for (double d2 : best_point) pairs.to_points += d2;
    pairs.to_shape /= double(points_.size());
    pairs.to_points /= double(q_count);
    return pairs;
  }

  // d/dx_i of scale |x_i - y_q|^2 / 2.
  template <class T>
  void add(StateView<const T> s, StateView<T> adj, size_t i, int q, double scale) const {
    for (int k = 0; k < 3; ++k) {
      const size_t at = sizes_.point(points_[i], k);
      adj.point_x[at] +=
          static_cast<T>(scale * (static_cast<double>(s.point_x[at]) - shape_[3 * size_t(q) + size_t(k)]));
    }
  }

  double weight_;
  int step_;
  std::vector<int> points_;
  std::vector<double> shape_;  // Q x 3
  StateSizes sizes_;
};

}  // namespace

std::unique_ptr<ObjectiveTerm> make_shape_term(const ObjectiveSource& source) {
  return std::make_unique<ShapeTerm>(source);
}

}  // namespace nudge
