// One point of a sweep: the scene's parameters with the axes' values written in, checked
// as a scene file's would be, then a rollout (with its adjoint, or an optimisation).
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <utility>

#include "nudge/optimize_scene.h"
#include "nudge/sweep.h"

namespace nudge {

namespace {

// Calls f(k) for each flat entry of p the axis sets: every used entry of its rows and
// columns (an unused entry, a box's radius, stays 0).
template <class F>
void for_each_swept_entry(const Parameter& p, const SweepAxis& axis, F&& f) {
  for (int r = axis.row < 0 ? 0 : axis.row; r < (axis.row < 0 ? p.rows : axis.row + 1); ++r)
    for (int c = axis.col < 0 ? 0 : axis.col; c < (axis.col < 0 ? p.cols : axis.col + 1); ++c) {
      const int k = r * p.cols + c;
      if (std::size_t(k) < p.unused.size() && p.unused[std::size_t(k)]) continue;
      f(k);
    }
}

}  // namespace

Result<std::unique_ptr<SweepEvaluator>> SweepEvaluator::create(const Scene& scene, const SweepPlan& plan,
                                                               const SimulatorOptions& options) {
  // A swept parameter is a design variable, so a family present only where its
  // parameters are set or optimised (quadratic drag) is built even where the scene's
  // value is 0. The points' parameters keep the scene's marks (what optimize mode tunes).
  Scene built = scene;
  for (const SweepAxis& a : plan.axes) built.params[a.param].optimize = true;
  Result<std::unique_ptr<Simulator>> sim = Simulator::create(built, options);
  if (!sim) return sim.error();
  return std::unique_ptr<SweepEvaluator>(new SweepEvaluator(scene, plan, std::move(*sim)));
}

SweepEvaluator::SweepEvaluator(const Scene& scene, const SweepPlan& plan, std::unique_ptr<Simulator> simulator)
    : scene_(scene), base_(scene.params), plan_(plan),
      value_count_(sweep_columns(scene, plan).size() - 2),  // all but index and status
      simulator_(std::move(simulator)) {}

SweepRow SweepEvaluator::evaluate(int index) {
  SweepRow row;
  row.index = index;
  row.values = plan_.point(index);
  const std::size_t axes = plan_.axes.size();
  const auto fail = [&](const std::string& message) {
    row.values.resize(axes);  // the axes' values, then NaN in every result column
    row.values.resize(value_count_, std::numeric_limits<double>::quiet_NaN());
    row.status = "error: " + message;
    return row;
  };

  // The point's parameters, in the scene that checks them (reset from the base each time).
  ParameterSet& params = scene_.params;
  params = base_;
  for (std::size_t a = 0; a < axes; ++a) {
    Parameter& p = params[plan_.axes[a].param];
    for_each_swept_entry(p, plan_.axes[a], [&](int k) { p.value[std::size_t(k)] = row.values[a]; });
  }
  if (Status valid = check_scene(scene_); !valid) return fail(valid.error().message);

  switch (plan_.mode) {
    case SweepMode::Loss: {
      Result<Evaluation> e = simulator_->evaluate(params);
      if (!e) return fail(e.error().message);
      row.values.push_back(e->loss);
      break;
    }
    case SweepMode::Gradient: {
      Result<Evaluation> e = simulator_->gradient(params);
      if (!e) return fail(e.error().message);
      row.values.push_back(e->loss);
      // Every entry an axis sets moves with it, so its derivative is their gradients' sum.
      for (const SweepAxis& axis : plan_.axes) {
        const Parameter& p = params[axis.param];
        double sum = 0.0;
        for_each_swept_entry(p, axis, [&](int k) { sum += p.grad[std::size_t(k)]; });
        row.values.push_back(sum);
      }
      break;
    }
    case SweepMode::Optimize: {
      Result<Evaluation> start = simulator_->evaluate(params);
      if (!start) return fail(start.error().message);
      Result<OptimizeResult> r = optimize_parameters(*simulator_, params, scene_.optimizer);
      if (!r) return fail(r.error().message);
      row.values.insert(row.values.end(), {start->loss, r->loss, double(r->iterations), double(r->evaluations)});
      if (params.optimized_size() <= kMaxSweepFoundColumns)
        for (const double x : params.gather_optimized()) row.values.push_back(x);
      row.status = std::string(stop_reason_name(r->reason));
      return row;
    }
  }
  row.status = "ok";
  return row;
}

int sweep_axis_count(const SweepTableContents& table) {
  int k = 1;
  while (k + 1 < int(table.columns.size()) && table.columns[std::size_t(k)] != "loss" &&
         table.columns[std::size_t(k)] != "start_loss")
    ++k;
  return k - 1;
}

Result<Scene> scene_at_sweep_row(const Scene& scene, const SweepTableContents& table, const SweepRow& row) {
  Scene at = scene;
  const auto set = [&](const std::string& label, double value) -> Status {
    // A column's name is the axis's text, so it reads back as one.
    Result<SweepAxis> axis = parse_sweep_axis(label + "=0");
    if (!axis) return Error{"column '" + label + "': " + axis.error().message};
    Parameter& p = at.params[axis->param];
    if ((axis->row >= 0 && axis->row >= p.rows) || (axis->col >= 0 && axis->col >= p.cols) || p.size() == 0)
      return Error{"column '" + label + "' names an entry the scene does not have (not this table's scene?)"};
    for_each_swept_entry(p, *axis, [&](int k) { p.value[std::size_t(k)] = value; });
    return Ok{};
  };
  const int axes = sweep_axis_count(table);
  for (std::size_t c = 1; c + 1 < table.columns.size(); ++c) {
    const std::string& name = table.columns[c];
    const bool axis = int(c) <= axes, found = name.rfind("found:", 0) == 0;
    if (!axis && !found) continue;
    if (c - 1 >= row.values.size()) return Error{"point " + std::to_string(row.index) + ": its row is short"};
    if (Status s = set(found ? name.substr(6) : name, row.values[c - 1]); !s)
      return Error{"point " + std::to_string(row.index) + ": " + s.error().message};
  }
  if (Status valid = check_scene(at); !valid)
    return Error{"point " + std::to_string(row.index) + ": " + valid.error().message};
  return at;
}

}  // namespace nudge
