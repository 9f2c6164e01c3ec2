// CMA-ES, the gradient-free baseline the gradient methods are measured against (loss
// against simulations run), after Hansen, "The CMA Evolution Strategy: A Tutorial"
// (arXiv:1604.00772), with the tutorial's default strategy parameters (Table 1) and
// positive recombination weights only (no active covariance update).
//
// - One step is one generation: lambda samples x_k = m + sigma B D z_k, z_k ~ N(0, I), each
//   evaluated once with the loss alone (one forward simulation, never a gradient). So a run
//   makes exactly 1 (x0) + lambda evaluations per generation, a generation that failed
//   entirely included.
// - The point minimize() sees is the best sample so far, so its loss never rises; the mean
//   m, which is never evaluated, only steers the search.
// - Covariance: full for n <= kCmaesMaxFullCovarianceSize, its eigendecomposition refreshed
//   lazily, every 1 / (10 n (c1 + cmu)) generations (at least every one), as the tutorial
//   suggests; diagonal above that (sep-CMA-ES, Ros & Hansen 2008: the learning rates c1 and
//   cmu multiplied by (n + 2) / 3), O(n) memory and time per sample.
// - Start: m = x0, C = diag(scale_i^2), sigma = settings.sigma, where scale_i is the bound
//   width where both bounds are finite, else max(|x0_i|, 1): the first generation spreads
//   each coordinate by sigma * scale_i, whatever its units.
// - Bounds: a sample is evaluated at its projection P(x) into the box and ranked by
//   f(P(x)) + penalty, penalty = sum_i gamma_i (x_i - P(x)_i)^2 / n, the penalty of Hansen
//   et al. (2009), "A method for handling uncertainty in evolutionary optimization with an
//   application to feedback control of combustion", its weights adapted as pycma's
//   BoundPenalty does (see BoundPenalty). The best sample reported is the projected point
//   with its own loss, so every point evaluated or reported lies in the box.
// - A sample whose evaluation fails (a NaN rollout) ranks below every sample that
//   evaluated; when a whole generation fails the run stops with EvaluationFailed.
// - Stop tests (converged()): Tolerance when the search has collapsed, every coordinate's
//   sigma sqrt(C_ii) and sigma |p_c,i| below 1e-12 of its initial sigma * scale_i (the
//   tutorial's TolX); LossTolerance when loss_tolerance > 0 and the best loss has improved
//   by at most loss_tolerance * max(1, |best|) over the last 10 + ceil(30 n / lambda)
//   generations (the window of Hansen's TolHistFun: single generations often find no new
//   best, so a per-generation test would stop at once).
// - Random numbers: std::mt19937_64 seeded with settings.seed, normal deviates by
//   Marsaglia's polar method written out here (std::normal_distribution's algorithm differs
//   between standard libraries), so a seed gives the same run bit for bit.
#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <memory>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "optim/optimizer_common.h"

namespace nudge::optimizer_internal {

namespace {

using Eigen::Index;
using Eigen::MatrixXd;
using Eigen::VectorXd;

constexpr double kCollapse = 1e-12;  // TolX, relative to each coordinate's initial step

// The tutorial's default strategy parameters for n parameters (Table 1).
struct Strategy {
  int lambda = 0;                // samples per generation
  int mu = 0;                    // best samples recombined into the next mean
  std::vector<double> weights;   // mu recombination weights, decreasing, summing to 1
  double mu_eff = 0.0;           // variance-effective selection mass, 1 / sum w_i^2
  double c_sigma = 0.0;          // learning rate of the step-size path
  double d_sigma = 0.0;          // damping of the step-size change
  double c_c = 0.0;              // learning rate of the rank-one path
  double c_1 = 0.0, c_mu = 0.0;  // rank-one and rank-mu covariance learning rates
  double chi_n = 0.0;            // E||N(0, I)||
  int history = 0;               // generations over which the best loss must improve (TolHistFun)
};

Strategy strategy(size_t size, int population, bool separable) {
  const double n = static_cast<double>(size);
  Strategy s;
  s.lambda = population > 0 ? population : 4 + static_cast<int>(std::floor(3.0 * std::log(n)));
  s.mu = s.lambda / 2;
  const double lambda = s.lambda;
  s.weights.resize(static_cast<size_t>(s.mu));
  for (size_t i = 0; i < s.weights.size(); ++i)
    s.weights[i] = std::log((lambda + 1.0) / 2.0) - std::log(static_cast<double>(i) + 1.0);
  const double sum = std::accumulate(s.weights.begin(), s.weights.end(), 0.0);
  double sum_of_squares = 0.0;
  for (double& w : s.weights) {
    w /= sum;
    sum_of_squares += w * w;
  }
  s.mu_eff = 1.0 / sum_of_squares;

  s.c_sigma = (s.mu_eff + 2.0) / (n + s.mu_eff + 5.0);
  s.d_sigma = 1.0 + 2.0 * std::max(0.0, std::sqrt((s.mu_eff - 1.0) / (n + 1.0)) - 1.0) + s.c_sigma;
  s.c_c = (4.0 + s.mu_eff / n) / (n + 4.0 + 2.0 * s.mu_eff / n);
  const double alpha_cov = 2.0;
  s.c_1 = alpha_cov / ((n + 1.3) * (n + 1.3) + s.mu_eff);
  s.c_mu = std::min(1.0 - s.c_1, alpha_cov * (s.mu_eff - 2.0 + 1.0 / s.mu_eff) /
                                     ((n + 2.0) * (n + 2.0) + alpha_cov * s.mu_eff / 2.0));
  if (separable) {  // a diagonal has n entries to learn, not n^2 / 2: it may learn faster
    const double faster = (n + 2.0) / 3.0;
    s.c_1 = std::min(1.0, s.c_1 * faster);
    s.c_mu = std::min(1.0 - s.c_1, s.c_mu * faster);
  }
  s.chi_n = std::sqrt(n) * (1.0 - 1.0 / (4.0 * n) + 1.0 / (21.0 * n * n));
  s.history = 10 + static_cast<int>(std::ceil(30.0 * n / lambda));
  return s;
}

// Standard normal deviates from a seeded std::mt19937_64, by Marsaglia's polar method.
class NormalSampler {
public:
  explicit NormalSampler(std::uint64_t seed) : engine_(seed) {}

  double operator()() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    double u = 0.0, v = 0.0, s = 0.0;
    do {
      u = 2.0 * uniform() - 1.0;
      v = 2.0 * uniform() - 1.0;
      s = u * u + v * v;
    } while (s >= 1.0 || s == 0.0);
    const double factor = std::sqrt(-2.0 * std::log(s) / s);
    spare_ = v * factor;
    has_spare_ = true;
    return u * factor;
  }

private:
  double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }  // in [0, 1)

  std::mt19937_64 engine_;
  double spare_ = 0.0;  // the second deviate of the last pair
  bool has_spare_ = false;
};

// The shape of the search distribution, C = B D^2 B^T.
class Covariance {
public:
  virtual ~Covariance() = default;
  // B D z: a N(0, C) deviate from a N(0, I) one.
  virtual VectorXd shape(const VectorXd& z) const = 0;
  // C^(-1/2) y = B D^-1 B^T y: y in the coordinates where the distribution is isotropic.
  virtual VectorXd whiten(const VectorXd& y) const = 0;
  // C <- keep C + c_1 p_c p_c^T + c_mu Y Y^T, Y's columns sqrt(w_i) y_i of the selected samples.
  virtual void update(double keep, double c_1, const VectorXd& p_c, double c_mu, const MatrixXd& y) = 0;
  virtual double variance(Index i) const = 0;  // C_ii
};

// A full n x n covariance whose eigendecomposition is refreshed every `gap` updates.
class FullCovariance final : public Covariance {
public:
  FullCovariance(const VectorXd& scale, int gap)
      : c_(scale.array().square().matrix().asDiagonal()), b_(MatrixXd::Identity(scale.size(), scale.size())), d_(scale),
        gap_(gap) {}

  VectorXd shape(const VectorXd& z) const override { return b_ * d_.cwiseProduct(z); }
  VectorXd whiten(const VectorXd& y) const override { return b_ * (b_.transpose() * y).cwiseQuotient(d_); }

  void update(double keep, double c_1, const VectorXd& p_c, double c_mu, const MatrixXd& y) override {
    c_ *= keep;
    c_.noalias() += c_1 * p_c * p_c.transpose();
    c_.noalias() += c_mu * y * y.transpose();
    if (++since_decomposition_ >= gap_) decompose();
  }

  double variance(Index i) const override { return c_(i, i); }

private:
  void decompose() {
    since_decomposition_ = 0;
    const Eigen::SelfAdjointEigenSolver<MatrixXd> solver(c_);
    if (solver.info() != Eigen::Success || !(solver.eigenvalues().maxCoeff() > 0.0)) return;  // keep the last B, D
    // Rounding can leave tiny negative eigenvalues: bound the condition number of C by 1e20.
    const double least = solver.eigenvalues().maxCoeff() * 1e-20;
    b_ = solver.eigenvectors();
    d_ = solver.eigenvalues().cwiseMax(least).cwiseSqrt();
  }

  MatrixXd c_;  // C (n x n)
  MatrixXd b_;  // eigenvectors of C as columns (n x n), as of the last decomposition
  VectorXd d_;  // square roots of C's eigenvalues (n), as of the last decomposition
  int gap_;
  int since_decomposition_ = 0;
};

// sep-CMA-ES: C kept diagonal, so that B = I and D = sqrt(diag C).
class DiagonalCovariance final : public Covariance {
public:
  explicit DiagonalCovariance(const VectorXd& scale) : c_(scale.array().square()), d_(scale) {}

  VectorXd shape(const VectorXd& z) const override { return d_.cwiseProduct(z); }
  VectorXd whiten(const VectorXd& y) const override { return y.cwiseQuotient(d_); }

  void update(double keep, double c_1, const VectorXd& p_c, double c_mu, const MatrixXd& y) override {
    c_ = keep * c_ + c_1 * p_c.cwiseAbs2() + c_mu * y.cwiseAbs2().rowwise().sum();
    d_ = c_.cwiseSqrt();
  }

  double variance(Index i) const override { return c_(i); }

private:
  VectorXd c_;  // diag C (n)
  VectorXd d_;  // sqrt(diag C) (n)
};

// Each coordinate's unit: its bound width where both bounds are finite, else max(|x0_i|, 1).
VectorXd coordinate_scales(const Problem& problem, const std::vector<double>& x0) {
  VectorXd scale(static_cast<Index>(x0.size()));
  for (size_t i = 0; i < x0.size(); ++i) {
    const double width = problem.upper()[i] - problem.lower()[i];
    scale[static_cast<Index>(i)] = std::isfinite(width) && width > 0.0 ? width : std::max(std::abs(x0[i]), 1.0);
  }
  return scale;
}

// One sample of a generation.
struct Sample {
  VectorXd y;                  // (x - m) / sigma, x before projection
  VectorXd outside;            // x - P(x): how far out of the box, per coordinate
  std::optional<Point> point;  // P(x) and its loss; empty when the evaluation failed
  double rank_value = 0.0;     // loss plus the bound penalty; meaningful only with a point
};

// The weights gamma_i of the bound penalty sum_i gamma_i (x_i - P(x)_i)^2 / n, adapted
// after Hansen et al. (2009) as pycma's BoundPenalty does. Their scale is the losses' own:
// dfit, the median over the last 20 + 3n / lambda generations of the interquartile range
// of a generation's losses divided by its mean variance sigma^2 C_ii; the weights start at
// 2 dfit, so one standard deviation outside costs about 2 / n of the spread of the losses.
// Where the optimum lies on a bound the mean may then sit a little outside it, and most
// samples project onto the bound. A weight grows while the mean strays more than
// 3 max(1, sqrt(n) / mu_eff) standard deviations out in its coordinate, and shrinks while
// above 5 dfit. Until two losses have differed every weight is 1: with equal losses any
// positive weight ranks by distance alone.
class BoundPenalty {
public:
  BoundPenalty(size_t size, const Strategy& s)
      : gamma_(VectorXd::Ones(static_cast<Index>(size))), history_limit_(20 + 3 * size / static_cast<size_t>(s.lambda)),
        rate_(std::min(1.0, s.mu_eff / (10.0 * static_cast<double>(size)))),
        stray_(3.0 * std::max(1.0, std::sqrt(static_cast<double>(size)) / s.mu_eff)) {}

  // After a generation is evaluated, before it is ranked: `losses` of its samples that
  // evaluated, `violation` the mean's distance outside the box in standard deviations,
  // (m_i - P(m)_i) / (sigma sqrt(C_ii)), and `mean_variance` the mean of sigma^2 C_ii.
  void update(std::vector<double> losses, const VectorXd& violation, double mean_variance) {
    std::sort(losses.begin(), losses.end());
    const size_t l = losses.size() + 1;  // pycma's quartile indices
    const double spread = (losses[std::min(3 * l / 4, losses.size() - 1)] - losses[l / 4]) / mean_variance;
    if (std::isfinite(spread) && spread > 0.0) spreads_.push_front(spread);
    if (spreads_.size() > history_limit_) spreads_.pop_back();
    if (spreads_.empty()) return;

    std::vector<double> sorted(spreads_.begin(), spreads_.end());
    const auto middle = sorted.begin() + static_cast<std::ptrdiff_t>(sorted.size() / 2);
    std::nth_element(sorted.begin(), middle, sorted.end());
    const double dfit = *middle;
    if (!initialised_) {
      gamma_.setConstant(2.0 * dfit);
      initialised_ = true;
    }
    for (Index i = 0; i < gamma_.size(); ++i) {
      const double excess = std::abs(violation[i]) - stray_;
      if (excess > 0.0) gamma_[i] *= std::exp(rate_ * std::tanh(excess / 3.0) / 2.0);
      if (gamma_[i] > 5.0 * dfit) gamma_[i] *= std::exp(-rate_ / 3.0);
    }
  }

  double operator()(const VectorXd& outside) const {
    return gamma_.dot(outside.cwiseAbs2()) / static_cast<double>(gamma_.size());
  }

private:
  VectorXd gamma_;              // weight per coordinate (n)
  std::deque<double> spreads_;  // interquartile range / mean variance per generation, newest first
  size_t history_limit_;
  double rate_;   // how fast the weights change: min(1, mu_eff / (10 n))
  double stray_;  // how far out, in standard deviations, the mean may go unchecked
  bool initialised_ = false;
};

class Cmaes final : public Stepper {
public:
  Cmaes(const OptimizerSettings& settings, const Problem& problem, const Point& start)
      : strategy_(strategy(start.x.size(), settings.population, start.x.size() > kCmaesMaxFullCovarianceSize)),
        penalty_(start.x.size(), strategy_), loss_tolerance_(settings.loss_tolerance), normal_(settings.seed),
        sigma_(settings.sigma), mean_(Eigen::Map<const VectorXd>(start.x.data(), static_cast<Index>(start.x.size()))),
        p_sigma_(VectorXd::Zero(mean_.size())), p_c_(VectorXd::Zero(mean_.size())) {
    const VectorXd scale = coordinate_scales(problem, start.x);
    initial_step_ = settings.sigma * scale;
    const double n = static_cast<double>(start.x.size());
    if (start.x.size() > kCmaesMaxFullCovarianceSize) {
      covariance_ = std::make_unique<DiagonalCovariance>(scale);
    } else {
      const double gap = 1.0 / (10.0 * n * (strategy_.c_1 + strategy_.c_mu));
      covariance_ = std::make_unique<FullCovariance>(scale, std::max(1, static_cast<int>(std::floor(gap))));
    }
    best_history_.push_back(start.loss);
  }

  std::optional<StepFailure> step(Problem& problem, Point& current) override {
    std::vector<Sample> samples = sample_generation(problem);
    std::optional<StepFailure> failure = all_failed(samples);
    if (failure) return failure;
    const std::vector<size_t> order = ranking(problem, samples);
    for (const Sample& s : samples)
      if (s.point && s.point->loss < current.loss) current = *s.point;
    adapt(samples, order);

    best_history_.push_back(current.loss);
    if (best_history_.size() > static_cast<size_t>(strategy_.history) + 1) best_history_.pop_front();
    return std::nullopt;
  }

  std::optional<StopReason> converged() const override {
    double largest_step = 0.0;  // relative to the initial one
    for (Index i = 0; i < mean_.size(); ++i) {
      const double step = sigma_ * std::max(std::sqrt(covariance_->variance(i)), std::abs(p_c_[i]));
      largest_step = std::max(largest_step, step / initial_step_[i]);
    }
    if (largest_step < kCollapse) return StopReason::Tolerance;

    if (loss_tolerance_ > 0.0 && best_history_.size() > static_cast<size_t>(strategy_.history)) {
      const double newest = best_history_.back();
      if (best_history_.front() - newest <= loss_tolerance_ * std::max(1.0, std::abs(newest)))
        return StopReason::LossTolerance;
    }
    return std::nullopt;
  }

private:
  // Draws lambda samples around the mean and evaluates each at its projection into the box.
  std::vector<Sample> sample_generation(Problem& problem) {
    const Index n = mean_.size();
    std::vector<Sample> samples(static_cast<size_t>(strategy_.lambda));
    last_error_.clear();
    for (Sample& s : samples) {
      VectorXd z(n);
      for (Index i = 0; i < n; ++i) z[i] = normal_();
      s.y = covariance_->shape(z);
      std::vector<double> x(static_cast<size_t>(n));
      for (Index i = 0; i < n; ++i) x[static_cast<size_t>(i)] = mean_[i] + sigma_ * s.y[i];
      std::vector<double> projected = x;
      problem.project(projected);
      s.outside.resize(n);
      for (Index i = 0; i < n; ++i) s.outside[i] = x[static_cast<size_t>(i)] - projected[static_cast<size_t>(i)];
      Result<Point> evaluated = problem.evaluate_loss(std::move(projected));
      if (evaluated)
        s.point = std::move(evaluated).value();
      else
        last_error_ = evaluated.error().message;
    }
    ++generation_;
    return samples;
  }

  std::optional<StepFailure> all_failed(const std::vector<Sample>& samples) const {
    if (std::any_of(samples.begin(), samples.end(), [](const Sample& s) { return s.point.has_value(); }))
      return std::nullopt;
    return StepFailure{StopReason::EvaluationFailed, "all " + std::to_string(samples.size()) +
                                                         " samples of generation " + std::to_string(generation_) +
                                                         " failed; the last: " + last_error_};
  }

  // Sample indices from best to worst: by loss plus the bound penalty, failed samples last
  // (in the order they were drawn, as are ties).
  std::vector<size_t> ranking(const Problem& problem, std::vector<Sample>& samples) {
    std::vector<double> losses;
    for (const Sample& s : samples)
      if (s.point) losses.push_back(s.point->loss);
    const Index n = mean_.size();
    VectorXd violation(n);
    double mean_variance = 0.0;
    for (Index i = 0; i < n; ++i) {
      const size_t k = static_cast<size_t>(i);
      const double inside = std::min(std::max(mean_[i], problem.lower()[k]), problem.upper()[k]);
      const double variance = sigma_ * sigma_ * covariance_->variance(i);
      violation[i] = (mean_[i] - inside) / std::sqrt(variance);
      mean_variance += variance / static_cast<double>(n);
    }
    penalty_.update(std::move(losses), violation, mean_variance);
    for (Sample& s : samples)
      if (s.point) s.rank_value = s.point->loss + penalty_(s.outside);
    std::vector<size_t> order(samples.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(), [&samples](size_t a, size_t b) {
      const Sample &sa = samples[a], &sb = samples[b];
      if (sa.point.has_value() != sb.point.has_value()) return sa.point.has_value();
      return sa.point && sa.rank_value < sb.rank_value;
    });
    return order;
  }

  // The tutorial's update of the mean, the evolution paths, the covariance and the step size.
  void adapt(const std::vector<Sample>& samples, const std::vector<size_t>& order) {
    const Strategy& s = strategy_;
    const Index n = mean_.size();
    VectorXd y_w = VectorXd::Zero(n);
    MatrixXd weighted(n, s.mu);  // columns sqrt(w_i) y_i:lambda, for the rank-mu update
    for (int i = 0; i < s.mu; ++i) {
      const double w = s.weights[static_cast<size_t>(i)];
      const VectorXd& y = samples[order[static_cast<size_t>(i)]].y;
      y_w += w * y;
      weighted.col(i) = std::sqrt(w) * y;
    }
    mean_ += sigma_ * y_w;

    p_sigma_ =
        (1.0 - s.c_sigma) * p_sigma_ + std::sqrt(s.c_sigma * (2.0 - s.c_sigma) * s.mu_eff) * covariance_->whiten(y_w);
    // h_sigma stalls the rank-one path while the step size is growing fast (p_sigma long),
    // so that C does not grow along with sigma.
    const double path_length = p_sigma_.norm() / std::sqrt(1.0 - std::pow(1.0 - s.c_sigma, 2.0 * generation_));
    const bool h_sigma = path_length < (1.4 + 2.0 / (static_cast<double>(n) + 1.0)) * s.chi_n;
    p_c_ = (1.0 - s.c_c) * p_c_;
    if (h_sigma) p_c_ += std::sqrt(s.c_c * (2.0 - s.c_c) * s.mu_eff) * y_w;
    const double keep = 1.0 - s.c_1 - s.c_mu + (h_sigma ? 0.0 : s.c_1 * s.c_c * (2.0 - s.c_c));
    covariance_->update(keep, s.c_1, p_c_, s.c_mu, weighted);

    sigma_ *= std::exp(s.c_sigma / s.d_sigma * (p_sigma_.norm() / s.chi_n - 1.0));
  }

  Strategy strategy_;
  BoundPenalty penalty_;
  double loss_tolerance_;
  NormalSampler normal_;
  double sigma_;           // overall step size
  VectorXd mean_;          // m (n)
  VectorXd p_sigma_;       // step-size evolution path (n)
  VectorXd p_c_;           // rank-one evolution path (n)
  VectorXd initial_step_;  // sigma_0 * scale_i (n), the unit of the collapse test
  std::unique_ptr<Covariance> covariance_;
  int generation_ = 0;               // generations sampled
  std::deque<double> best_history_;  // best loss at the start and after each generation, newest last
  std::string last_error_;           // of the last failed sample in the current generation
};

}  // namespace

std::unique_ptr<Stepper> make_cmaes(const OptimizerSettings& settings, const Problem& problem, const Point& start) {
  return std::make_unique<Cmaes>(settings, problem, start);
}

}  // namespace nudge::optimizer_internal
