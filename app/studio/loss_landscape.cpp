#include "studio/loss_landscape.h"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <utility>

#include "nudge/optimizer.h"
#include "studio/rollout_worker.h"

namespace nudge::studio {

std::string LandscapeAxis::label() const {
  if (kind == Kind::NegativeGradient) return "along -gradient";
  return std::string(param_name(entry.id)) + "[" + std::to_string(entry.index) + "]";
}

LandscapeAxis parameter_axis(const Scene& scene, ParamEntry entry, int samples) {
  const Parameter& p = scene.params[entry.id];
  const double value = p.value.at(size_t(entry.index));
  const double half = value != 0 ? 0.5 * std::fabs(value) : 0.5;
  LandscapeAxis axis;
  axis.kind = LandscapeAxis::Kind::Parameter;
  axis.entry = entry;
  axis.from = std::max(-half, p.lower - value);
  axis.to = std::min(half, p.upper - value);
  axis.samples = samples;
  return axis;
}

namespace {

// The unit vector along the negative projected gradient of the optimised entries, as a
// per-parameter array of the same shape as the values (zero elsewhere); all zero when the
// gradient is zero.
std::vector<std::vector<double>> descent_direction(const ParameterSet& params) {
  std::vector<double> lower, upper;
  params.optimized_bounds(lower, upper);
  const std::vector<double> g =
      projected_gradient(params.gather_optimized(), params.gather_optimized_grad(), lower, upper);
  double length = 0;
  for (double c : g) length += c * c;
  length = std::sqrt(length);
  std::vector<std::vector<double>> out(kParamCount);
  size_t k = 0;
  for (int p = 0; p < kParamCount; ++p) {
    const Parameter& param = params.items[size_t(p)];
    out[size_t(p)].assign(size_t(param.size()), 0.0);
    if (!param.optimize) continue;
    for (int i = 0; i < param.size(); ++i, ++k) out[size_t(p)][size_t(i)] = length > 0 ? -g[k] / length : 0.0;
  }
  return out;
}

// `descent` is descent_direction(centre), computed once per landscape rather than per point.
void move_along(const LandscapeAxis& axis, const std::vector<std::vector<double>>& descent, double offset,
                ParameterSet& point) {
  if (axis.kind == LandscapeAxis::Kind::Parameter) {
    Parameter& p = point[axis.entry.id];
    double& v = p.value.at(size_t(axis.entry.index));
    v = std::clamp(v + offset, p.lower, p.upper);
    return;
  }
  for (int p = 0; p < kParamCount; ++p) {
    Parameter& param = point.items[size_t(p)];
    for (int i = 0; i < param.size(); ++i)
      if (descent[size_t(p)][size_t(i)] != 0)
        param.value[size_t(i)] =
            std::clamp(param.value[size_t(i)] + offset * descent[size_t(p)][size_t(i)], param.lower, param.upper);
  }
}

// g . d at the centre for this axis.
double slope_along(const LandscapeAxis& axis, const ParameterSet& centre,
                   const std::vector<std::vector<double>>& descent) {
  if (axis.kind == LandscapeAxis::Kind::Parameter) return centre[axis.entry.id].grad.at(size_t(axis.entry.index));
  double slope = 0;
  for (int p = 0; p < kParamCount; ++p)
    for (size_t i = 0; i < descent[size_t(p)].size(); ++i)
      slope += centre.items[size_t(p)].grad[i] * descent[size_t(p)][i];
  return slope;
}

ParameterSet point_at(const LandscapeRequest& request, const std::vector<std::vector<double>>& descent, double offset_a,
                      double offset_b) {
  ParameterSet point = request.scene.params;
  move_along(request.a, descent, offset_a, point);
  if (request.b) move_along(*request.b, descent, offset_b, point);
  return point;
}

}  // namespace

ParameterSet landscape_point(const LandscapeRequest& request, double offset_a, double offset_b) {
  return point_at(request, descent_direction(request.scene.params), offset_a, offset_b);
}

LossLandscape::LossLandscape(LandscapeRequest request, std::function<void()> on_progress) {
  auto first = std::make_shared<LandscapeResult>();
  first->request = request;
  first->loss.assign(size_t(first->columns()) * size_t(first->rows()), std::numeric_limits<double>::quiet_NaN());
  latest_ = first;
  job_ = std::make_unique<BackgroundJob>(
      [this, r = std::move(request)](BackgroundJob::Control& control) mutable { compute(control, std::move(r)); },
      std::move(on_progress));
}

std::shared_ptr<const LandscapeResult> LossLandscape::latest() const {
  std::lock_guard lock(mutex_);
  return latest_;
}

void LossLandscape::publish(const LandscapeResult& result) {
  auto copy = std::make_shared<const LandscapeResult>(result);
  std::lock_guard lock(mutex_);
  latest_ = std::move(copy);
}

void LossLandscape::compute(BackgroundJob::Control& control, LandscapeRequest request) {
  LandscapeResult result;
  result.request = std::move(request);
  const int columns = result.columns(), rows = result.rows();
  result.loss.assign(size_t(columns) * size_t(rows), std::numeric_limits<double>::quiet_NaN());
  control.set_total(columns * rows + 1);
  const auto finish = [&](std::string error) {
    result.error = std::move(error);
    result.finished = true;
    publish(result);
  };
  // An exception must not escape the worker thread (it would end the app).
  try {
    auto sim = Simulator::create(result.request.scene, rollout_simulator_options());
    if (!sim) return finish(sim.error().message);
    ParameterSet& centre = result.request.scene.params;
    Result<Evaluation> at_centre = (*sim)->gradient(centre);
    if (!at_centre) return finish("the centre does not evaluate: " + at_centre.error().message);
    result.centre_loss = at_centre->loss;
    const std::vector<std::vector<double>> descent = descent_direction(centre);
    result.slope_a = slope_along(result.request.a, centre, descent);
    if (result.request.b) result.slope_b = slope_along(*result.request.b, centre, descent);
    publish(result);
    control.set_done(1);
    for (int row = 0; row < rows; ++row) {
      for (int column = 0; column < columns; ++column) {
        if (control.cancelled()) return finish("cancelled");
        const double b = result.request.b ? result.request.b->offset(row) : 0.0;
        const ParameterSet point = point_at(result.request, descent, result.request.a.offset(column), b);
        Result<Evaluation> eval = (*sim)->evaluate(point);
        if (eval)
          result.loss[size_t(row) * size_t(columns) + size_t(column)] = eval->loss;
        else
          ++result.failed;  // a blow-up: drawn as a gap
        ++result.computed;
        publish(result);
        control.set_done(result.computed + 1);
      }
    }
    finish("");
  } catch (const std::exception& e) {
    finish(std::string("the landscape failed: ") + e.what());
  }
}

}  // namespace nudge::studio
