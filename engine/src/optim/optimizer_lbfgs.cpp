// Projected L-BFGS with a backtracking (Armijo) line search along the projected path.
//
// - Direction: the two-loop recursion applied to the projected gradient, on the free
//   variables only (those not held at a bound by the gradient), then zeroed wherever it
//   points out of the box from a bound, so that short enough steps are never clipped. If
//   that is not a descent direction, the history is dropped and the projected
//   steepest-descent direction is used instead.
// - Line search: trial points x(t) = P(x + t d), accepted when
//   f(x(t)) <= f(x) + c1 g.(x(t) - x); otherwise t is halved. A failed evaluation counts as
//   an infinite loss, so it backtracks too. After kMaxTrials trials, or once the trial no
//   longer moves x, the run stops with LineSearchFailed at the current (best) point.
// - Without usable history (first step, after a reset): t starts at min(1, 1/|d|), a move
//   of length at most 1. Otherwise t starts at 1, the quasi-Newton step scaled by s.y / y.y.
// - Clipping: steps are not multiples of the gradient here, so `clip` bounds the length of
//   every trial move instead (as it does for gradient descent with learning rate 1).
// - A correction pair is kept only if the curvature condition s.y > 0 holds; otherwise the
//   whole history is reset. (Pairs whose s.y over the current free variables is not
//   positive are skipped when computing a direction.)
#include <algorithm>
#include <deque>
#include <string>
#include <utility>

#include "optim/optimizer_common.h"

namespace nudge::optimizer_internal {

namespace {

constexpr int kMaxTrials = 20;
constexpr double kArmijo = 1e-4;  // c1: fraction of the predicted decrease that must be achieved

struct SearchDirection {
  std::vector<double> d;
  bool quasi_newton = false;  // false: (projected) steepest descent, not scaled by curvature
};

struct CorrectionPair {
  std::vector<double> s;  // x_{k+1} - x_k
  std::vector<double> y;  // g_{k+1} - g_k
};

class Lbfgs final : public Stepper {
public:
  explicit Lbfgs(const OptimizerSettings& settings)
      : capacity_(static_cast<size_t>(std::max(1, settings.history))), clip_(settings.clip) {}

  std::optional<StepFailure> step(Problem& problem, Point& current) override {
    const SearchDirection search = search_direction(problem, current);
    const std::vector<double>& direction = search.d;
    const double length = norm(direction);
    if (length == 0.0) return StepFailure{StopReason::LineSearchFailed, "no descent direction within the bounds"};

    double t = search.quasi_newton ? 1.0 : std::min(1.0, 1.0 / length);
    if (clip_ > 0.0) t = std::min(t, clip_ / length);

    std::string last_error;
    for (int trial = 0; trial < kMaxTrials; ++trial, t *= 0.5) {
      std::vector<double> x(direction.size());
      for (size_t i = 0; i < x.size(); ++i) x[i] = current.x[i] + t * direction[i];
      problem.project(x);
      if (x == current.x) break;  // the step has shrunk below the resolution of x

      double predicted = 0.0;  // g.(x(t) - x): first-order change along the projected path
      for (size_t i = 0; i < x.size(); ++i) predicted += current.grad[i] * (x[i] - current.x[i]);
      if (!(predicted < 0.0)) continue;  // clipping spoilt the descent; shorter steps restore it

      Result<Point> next = problem.evaluate(std::move(x));
      if (!next) {
        last_error = next.error().message;
        continue;
      }
      if (next->loss <= current.loss + kArmijo * predicted) {
        remember(current, *next);
        current = std::move(next).value();
        return std::nullopt;
      }
    }
    std::string message = "the line search found no sufficient decrease";
    if (!last_error.empty()) message += "; last failed evaluation: " + last_error;
    return StepFailure{StopReason::LineSearchFailed, std::move(message)};
  }

private:
  SearchDirection search_direction(const Problem& problem, const Point& current) {
    std::vector<bool> free(current.x.size());
    for (size_t i = 0; i < free.size(); ++i) free[i] = !problem.blocked(current.x, i, -current.grad[i]);
    const std::vector<double> pg = problem.projected_gradient(current);

    SearchDirection search;
    search.d = pg;
    search.quasi_newton = apply_inverse_hessian(search.d, free);
    std::vector<double>& d = search.d;
    for (size_t i = 0; i < d.size(); ++i) {
      d[i] = -d[i];
      if (!free[i] || problem.blocked(current.x, i, d[i])) d[i] = 0.0;
    }
    if (dot(pg, d) < 0.0) return search;

    pairs_.clear();  // the curvature model disagrees with the gradient: start again
    for (size_t i = 0; i < d.size(); ++i) d[i] = -pg[i];
    search.quasi_newton = false;
    return search;
  }

  // The two-loop recursion: q <- H q with H the L-BFGS inverse-Hessian estimate, built on
  // the free components only so that gradient changes in variables held at a bound (where
  // s is zero) do not distort the curvature. Pairs without positive curvature there are
  // skipped. Returns false when no pair was usable and q is left as it was.
  bool apply_inverse_hessian(std::vector<double>& q, const std::vector<bool>& free) const {
    auto free_dot = [&free](const std::vector<double>& a, const std::vector<double>& b) {
      double sum = 0.0;
      for (size_t i = 0; i < a.size(); ++i)
        if (free[i]) sum += a[i] * b[i];
      return sum;
    };
    std::vector<double> rho(pairs_.size(), 0.0), alpha(pairs_.size(), 0.0);
    double gamma = 0.0;  // initial scaling s.y / y.y from the newest usable pair
    for (size_t k = pairs_.size(); k-- > 0;) {
      const CorrectionPair& p = pairs_[k];
      const double sy = free_dot(p.s, p.y);
      if (!(sy > 0.0)) continue;
      rho[k] = 1.0 / sy;
      if (gamma == 0.0) gamma = sy / free_dot(p.y, p.y);
      alpha[k] = rho[k] * free_dot(p.s, q);
      for (size_t i = 0; i < q.size(); ++i)
        if (free[i]) q[i] -= alpha[k] * p.y[i];
    }
    if (gamma == 0.0) return false;
    for (double& c : q) c *= gamma;
    for (size_t k = 0; k < pairs_.size(); ++k) {
      if (rho[k] == 0.0) continue;
      const CorrectionPair& p = pairs_[k];
      const double beta = rho[k] * free_dot(p.y, q);
      for (size_t i = 0; i < q.size(); ++i)
        if (free[i]) q[i] += (alpha[k] - beta) * p.s[i];
    }
    return true;
  }

  void remember(const Point& from, const Point& to) {
    CorrectionPair pair{std::vector<double>(from.x.size()), std::vector<double>(from.x.size())};
    for (size_t i = 0; i < from.x.size(); ++i) {
      pair.s[i] = to.x[i] - from.x[i];
      pair.y[i] = to.grad[i] - from.grad[i];
    }
    if (!(dot(pair.s, pair.y) > 0.0)) {
      pairs_.clear();
      return;
    }
    pairs_.push_back(std::move(pair));
    if (pairs_.size() > capacity_) pairs_.pop_front();
  }

  size_t capacity_;
  double clip_;
  std::deque<CorrectionPair> pairs_;  // oldest first
};

}  // namespace

std::unique_ptr<Stepper> make_lbfgs(const OptimizerSettings& settings) { return std::make_unique<Lbfgs>(settings); }

}  // namespace nudge::optimizer_internal
