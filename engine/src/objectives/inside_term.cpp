// Inside: w (1 - (1/N) sum_q s(x_q)) over the objective's material points at its step,
// s(x) = prod_k sig((x_k - lo_k) / h) sig((hi_k - x_k) / h), a smooth indicator of the
// box [lo, hi] of softness h (sig the logistic function): the share of the points outside
// the region, to be brought to 0 (pour the liquid into the mug). The indicator's tails
// give a gradient to points up to a few h outside.
#include <cmath>
#include <memory>

#include "objectives/objective_registry.h"

namespace nudge {

namespace {

double logistic(double a) { return 1.0 / (1.0 + std::exp(-a)); }

class InsideTerm final : public StateTerm<InsideTerm> {
public:
  explicit InsideTerm(const ObjectiveSource& source)
      : weight_(source.objective.weight), step_(source.step), points_(source.objective.points), sizes_(source.sizes) {
    for (int k = 0; k < 3; ++k) lower_[k] = source.objective.target[size_t(k)];
    for (int k = 0; k < 3; ++k) upper_[k] = source.objective.target[size_t(k) + 3];
    softness_ = source.objective.target[6];
  }

  void observe(std::set<int>& steps) const override { steps.insert(step_); }

  template <class T>
  void state_loss(int t, StateView<const T> s, double& loss) const {
    if (t != step_) return;
    double inside = 0;
    for (int q : points_) inside += indicator(s, q, nullptr);
    loss += weight_ * (1.0 - inside / static_cast<double>(points_.size()));
  }

  template <class T>
  void state_grad(int t, StateView<const T> s, StateView<T> adj) const {
    if (t != step_) return;
    const double scale = -weight_ / static_cast<double>(points_.size());
    for (int q : points_) {
      double grad[3];
      indicator(s, q, grad);
      for (int k = 0; k < 3; ++k) adj.point_x[sizes_.point(q, k)] += static_cast<T>(scale * grad[k]);
    }
  }

private:
  // s(x_q), and ds/dx into grad where given.
  template <class T>
  double indicator(StateView<const T> s, int q, double* grad) const {
    double low[3], high[3], value = 1;
    for (int k = 0; k < 3; ++k) {
      const double x = static_cast<double>(s.point_x[sizes_.point(q, k)]);
      low[k] = logistic((x - lower_[k]) / softness_);
      high[k] = logistic((upper_[k] - x) / softness_);
      value *= low[k] * high[k];
    }
    if (grad)  // d/dx of sig(a) = sig (1 - sig) da/dx; the product's other factors stay
      for (int k = 0; k < 3; ++k) grad[k] = value * ((1 - low[k]) - (1 - high[k])) / softness_;
    return value;
  }

  double weight_;
  int step_;
  std::vector<int> points_;
  StateSizes sizes_;
  double lower_[3], upper_[3], softness_;
};

}  // namespace

std::unique_ptr<ObjectiveTerm> make_inside_term(const ObjectiveSource& source) {
  return std::make_unique<InsideTerm>(source);
}

}  // namespace nudge
