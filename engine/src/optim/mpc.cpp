#include "nudge/mpc.h"

#include <algorithm>
#include <iterator>
#include <string>

#include "nudge/objective_facts.h"
#include "nudge/parameter_facts.h"
#include "nudge/optimize_scene.h"

namespace nudge {

namespace {

bool is_step_control(ParamId id) { return is_per_step(param_facts(id).element); }

// A per-step parameter cut to its first `steps` rows.
void cut_steps(Parameter& p, int steps) {
  p.rows = steps;
  p.value.resize(size_t(steps) * size_t(p.cols));
  p.grad.assign(p.value.size(), 0.0);
}

// The step a state term reads (`steps` for the last), the first of its window for a
// running cost; -1 for terms on parameters and for markers and tracks, whose samples span
// many steps.
int term_step(const Objective& o, int steps) {
  if (!objective_has_step(o.type)) return -1;
  if (o.from_step >= 0) return o.from_step;
  return o.step < 0 ? steps : o.step;
}

// A running cost seen from the window (start, end]: the steps of its window inside it, each
// with the weight it has in the whole (the term is a mean over its window); nullopt when
// none of its steps falls inside.
std::optional<Objective> cut_window(const Objective& o, int steps, int start, int end) {
  const int last = o.step < 0 ? steps : o.step;
  const int every = o.every;
  int first = o.from_step;
  if (first <= start) first += ((start - first) / every + 1) * every;  // the first one after start
  int cut_last = std::min(last, end);
  if (first > cut_last) return std::nullopt;
  cut_last = first + (cut_last - first) / every * every;
  const auto length = [every](int a, int b) { return (b - a) / every + 1; };
  Objective w = o;
  w.from_step = first;
  w.step = cut_last;
  w.weight = o.weight * length(first, cut_last) / length(o.from_step, last);
  return w;
}

// The objectives seen from the window [start, end]: nullopt drops the term. `next` is
// the step of the goal the plan aims at: the first step after start that some term
// reads. Terms there apply (at the window's end if it lies past it); later ones wait for
// a window that comes nearer.
std::optional<Objective> window_objective(const Objective& o, int steps, int start, int end, int next) {
  Objective w = o;
  // A markers objective keeps the samples inside the window.
  if (objective_layout(o.type).binding == ObjectiveBinding::MarkerFile) {
    std::erase_if(w.samples, [&](const MarkerSample& s) {
      const long long step = static_cast<long long>(s.frame) * o.steps_per_frame;
      return step <= start || step > end;
    });
    if (w.samples.empty()) return std::nullopt;
    return w;
  }
  // Terms on the controls apply as they are; so do tracks: samples past the cut scene's
  // end are left out when it builds its objectives, and those before the window add a
  // constant the plan cannot change.
  if (!objective_has_step(o.type)) return w;
  if (o.from_step >= 0) {
    if (auto cut = cut_window(o, steps, start, end)) return cut;
    // Its window lies past this one: the plan aims at its first step from the window's end.
    if (o.from_step <= start || o.from_step > next) return std::nullopt;
    w.from_step = -1, w.every = 1;
    w.step = end;
    return w;
  }
  const int at = term_step(o, steps);
  if (at <= start || at > next) return std::nullopt;
  w.step = std::min(at, end);
  return w;
}

}  // namespace

Status check_mpc(const Scene& scene, const MpcSettings& settings) {
  if (settings.horizon < 1)
    return Error{"the MPC horizon is " + std::to_string(settings.horizon) + " steps; expected >= 1"};
  if (settings.replan_every < 1 || settings.replan_every > settings.horizon)
    return Error{"MPC re-plans every " + std::to_string(settings.replan_every) + " steps; expected 1 to the horizon (" +
                 std::to_string(settings.horizon) + ")"};
  if (settings.iterations < 1)
    return Error{"MPC runs " + std::to_string(settings.iterations) + " iterations per plan; expected >= 1"};
  bool planned = false;
  for (ParamId id : per_step_params()) planned = planned || (scene.params[id].optimize && scene.params[id].size() > 0);
  if (!planned)
    return Error{
        "MPC plans per-step controls, and this scene optimises none; set \"optimize\": true for controls or "
        "joint_control under \"parameters\""};
  return Ok{};
}

Scene mpc_window_scene(const Scene& scene, const ParameterSet& params, int start, int end) {
  Scene w = scene;
  w.params = params;
  w.settings.steps = end;
  for (ParamId id : per_step_params()) cut_steps(w.params[id], end);
  for (Parameter& p : w.params.items) {
    if (!is_step_control(p.id)) {
      p.optimize = false;  // MPC plans the controls; the rest is held
      continue;
    }
    if (!p.optimize) continue;
    p.optimize_rows.clear();
    for (int t = start; t < end; ++t) p.optimize_rows.push_back(t);
  }
  // The next goal: the window's own terms when it has some, else the first ones past it.
  int next = -1;
  for (const Objective& o : scene.objectives)
    if (const int at = term_step(o, scene.settings.steps); at > start && (next < 0 || at < next)) next = at;
  if (next >= 0 && next <= end) {  // every term inside the window counts, not only the first step's
    for (const Objective& o : scene.objectives)
      if (const int at = term_step(o, scene.settings.steps); at > start && at <= end) next = std::max(next, at);
  }
  w.objectives.clear();
  for (const Objective& o : scene.objectives)
    if (auto seen = window_objective(o, scene.settings.steps, start, end, next)) w.objectives.push_back(*seen);
  return w;
}

Result<MpcResult> run_mpc(const Scene& scene, const MpcSettings& settings, const SimulatorOptions& options,
                          const MpcCallback& on_plan) {
  if (Status ok = check_mpc(scene, settings); !ok) return ok.error();
  const int steps = scene.settings.steps;
  MpcResult result;
  result.params = scene.params;
  OptimizerSettings optimizer = scene.optimizer;
  optimizer.iterations = settings.iterations;
  for (int start = 0; start < steps; start += settings.replan_every) {
    const int end = std::min(start + settings.horizon, steps);
    const Scene window = mpc_window_scene(scene, result.params, start, end);
    Result<std::unique_ptr<Simulator>> sim = Simulator::create(window, options);
    if (!sim) return sim.error();
    ParameterSet params = window.params;
    GradientOptions gradient;
    gradient.horizon = end - start;
    Result<OptimizeResult> optimized = optimize_parameters(**sim, params, optimizer, {}, gradient);
    if (!optimized)
      return Error{"MPC's plan from step " + std::to_string(start) +
                   " does not evaluate: " + optimized.error().message};
    // The window's rows become the plan; the next plan re-plans from its rows on.
    for (ParamId id : per_step_params()) {
      const Parameter& planned = params[id];
      std::copy(planned.value.begin() + std::ptrdiff_t(start) * planned.cols, planned.value.end(),
                result.params[id].value.begin() + std::ptrdiff_t(start) * planned.cols);
    }
    MpcPlan plan{start, end - start, optimized->iterations, optimized->loss_history.front(), optimized->loss};
    result.plans.push_back(plan);
    if (on_plan) {
      Result<Trajectory> motion = (*sim)->trajectory(params);
      if (!motion) return motion.error();
      if (!on_plan(plan, *motion)) return Error{"MPC was cancelled at step " + std::to_string(start)};
    }
  }
  Result<std::unique_ptr<Simulator>> sim = Simulator::create(scene, options);
  if (!sim) return sim.error();
  Result<Evaluation> executed = (*sim)->evaluate(result.params);
  if (!executed) return Error{"the executed motion does not evaluate: " + executed.error().message};
  result.loss = executed->loss;
  return result;
}

}  // namespace nudge
