// Adam (Kingma & Ba) with bias correction, on the clipped gradient:
//   m <- beta1 m + (1 - beta1) g,   v <- beta2 v + (1 - beta2) g^2
//   x <- P(x - learning_rate * m_hat / (sqrt(v_hat) + epsilon)),  m_hat = m / (1 - beta1^t), ...
// Each component moves by about learning_rate per step whatever the gradient's scale.
#include <cmath>
#include <utility>

#include "optim/optimizer_common.h"

namespace nudge::optimizer_internal {

namespace {

class Adam final : public Stepper {
public:
  Adam(const OptimizerSettings& settings, size_t size) : settings_(settings), m_(size, 0.0), v_(size, 0.0) {}

  std::optional<StepFailure> step(Problem& problem, Point& current) override {
    std::vector<double> g = current.grad;
    clip_to_norm(g, settings_.clip);

    ++t_;
    const double bias1 = 1.0 - std::pow(settings_.beta1, static_cast<double>(t_));
    const double bias2 = 1.0 - std::pow(settings_.beta2, static_cast<double>(t_));
    std::vector<double> x(g.size());
    for (size_t i = 0; i < x.size(); ++i) {
      m_[i] = settings_.beta1 * m_[i] + (1.0 - settings_.beta1) * g[i];
      v_[i] = settings_.beta2 * v_[i] + (1.0 - settings_.beta2) * g[i] * g[i];
      const double m_hat = m_[i] / bias1;
      const double v_hat = v_[i] / bias2;
      x[i] = current.x[i] - settings_.learning_rate * m_hat / (std::sqrt(v_hat) + settings_.epsilon);
    }
    problem.project(x);

    Result<Point> next = problem.evaluate(std::move(x));
    if (!next) return StepFailure{StopReason::EvaluationFailed, next.error().message};
    current = std::move(next).value();
    return std::nullopt;
  }

private:
  OptimizerSettings settings_;
  std::vector<double> m_, v_;  // first and second moment estimates
  int t_ = 0;                  // steps taken, for the bias correction
};

}  // namespace

std::unique_ptr<Stepper> make_adam(const OptimizerSettings& settings, size_t size) {
  return std::make_unique<Adam>(settings, size);
}

}  // namespace nudge::optimizer_internal
