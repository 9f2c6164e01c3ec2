// Gradient descent with heavy-ball momentum:
//   v <- momentum * v - learning_rate * clip(g),   x <- P(x + v)
// With `normalize` the step uses clip(g) / (|clip(g)| + epsilon) instead: a step of fixed
// length learning_rate (DiffTaichi's mass_spring update, whose gradient norms span decades).
// momentum = 0 gives plain projected gradient descent. After the projection the velocity
// is set to the move actually made, so it does not keep building up against a bound.
#include <cmath>
#include <utility>

#include "optim/optimizer_common.h"

namespace nudge::optimizer_internal {

namespace {

class GradientDescent final : public Stepper {
public:
  GradientDescent(const OptimizerSettings& settings, size_t size) : settings_(settings), velocity_(size, 0.0) {}

  std::optional<StepFailure> step(Problem& problem, Point& current) override {
    std::vector<double> g = current.grad;
    clip_to_norm(g, settings_.clip);
    if (settings_.normalize) {
      double norm2 = 0.0;
      for (double gi : g) norm2 += gi * gi;
      const double scale = 1.0 / (std::sqrt(norm2) + settings_.epsilon);
      for (double& gi : g) gi *= scale;
    }

    std::vector<double> x(g.size());
    for (size_t i = 0; i < x.size(); ++i)
      x[i] = current.x[i] + settings_.momentum * velocity_[i] - settings_.learning_rate * g[i];
    problem.project(x);

    Result<Point> next = problem.evaluate(std::move(x));
    if (!next) return StepFailure{StopReason::EvaluationFailed, next.error().message};
    for (size_t i = 0; i < velocity_.size(); ++i) velocity_[i] = next->x[i] - current.x[i];
    current = std::move(next).value();
    return std::nullopt;
  }

private:
  OptimizerSettings settings_;
  std::vector<double> velocity_;
};

}  // namespace

std::unique_ptr<Stepper> make_gradient_descent(const OptimizerSettings& settings, size_t size) {
  return std::make_unique<GradientDescent>(settings, size);
}

}  // namespace nudge::optimizer_internal
