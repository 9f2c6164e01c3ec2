#include "nudge/gradcheck.h"
#include "nudge/parameter_facts.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "nudge/simulator.h"

namespace nudge {

double GradCheckReport::max_relative_error() const {
  double worst = 0.0;
  for (const GradCheckEntry& e : entries) worst = std::max(worst, e.relative_error);
  return worst;
}

int GradCheckReport::failed() const {
  int count = 0;
  for (const GradCheckEntry& e : entries) count += e.passed ? 0 : 1;
  return count;
}

int GradCheckReport::unchecked() const {
  int count = 0;
  for (const GradCheckCoverage& c : coverage) count += c.entries - c.checked;
  return count;
}

int GradCheckReport::rounding_noise() const {
  return static_cast<int>(
      std::count_if(entries.begin(), entries.end(), [](const GradCheckEntry& e) { return e.noise; }));
}

double gradient_relative_error(double adjoint, double finite_difference, double noise_floor) {
  const double scale = std::max({std::fabs(adjoint), std::fabs(finite_difference), noise_floor});
  return scale > 0.0 ? std::fabs(adjoint - finite_difference) / scale : 0.0;
}

namespace {

// What a step is relative to: the value of a parameter that must be positive (a size, a
// mass, a density) sets its own scale, so a 3 cm radius is not stepped by a millimetre;
// values that may be 0 or change sign are stepped relative to max(|value|, 1).
double step_scale(ParamId id, double value) {
  if (param_facts(id).range == ParamRange::Positive && value > 0) return value;
  return std::max(std::fabs(value), 1.0);
}

constexpr double kMaxUncertainty = 1e-2;  // a difference less certain than this checks nothing

struct Verdict {
  bool verifiable = false, passed = false;
};

// The rule of judge_gradient_entry with an absolute allowance `floor` beside the relative
// tolerance and the difference's own uncertainty.
Verdict judge(const GradCheckEntry& e, bool resolved, double tolerance, double floor) {
  const double scale = std::max(std::fabs(e.adjoint), std::fabs(e.finite_difference));
  const double gap = std::fabs(e.adjoint - e.finite_difference);
  if (!resolved) return {true, gap <= e.uncertainty + floor};  // both must be ~0
  const bool verifiable = e.uncertainty <= std::max(kMaxUncertainty * scale, floor);
  return {verifiable, verifiable && gap <= tolerance * scale + e.uncertainty + floor};
}

}  // namespace

void judge_gradient_entry(GradCheckEntry& entry, double rounding, double tolerance, double noise_floor) {
  entry.relative_error = gradient_relative_error(entry.adjoint, entry.finite_difference, 0.0);
  entry.resolved = std::max(std::fabs(entry.adjoint), std::fabs(entry.finite_difference)) > rounding;
  const Verdict strict = judge(entry, entry.resolved, tolerance, 0.0);
  const Verdict with_noise = judge(entry, entry.resolved, tolerance, noise_floor);
  entry.verifiable = with_noise.verifiable;
  entry.passed = with_noise.passed;
  entry.noise = with_noise.passed && !strict.passed;
}

namespace {

// Entries to check: all of a small array, else a deterministic sample that always
// includes the first and last entries.
std::vector<int> sample_entries(int size, int samples, std::mt19937_64& rng) {
  std::vector<int> picked;
  if (size <= samples) {
    for (int i = 0; i < size; ++i) picked.push_back(i);
    return picked;
  }
  picked = {0, size - 1};
  std::uniform_int_distribution<int> pick(1, size - 2);
  while (static_cast<int>(picked.size()) < samples) {
    const int i = pick(rng);
    if (std::find(picked.begin(), picked.end(), i) == picked.end()) picked.push_back(i);
  }
  std::sort(picked.begin(), picked.end());
  return picked;
}

}  // namespace

Result<GradCheckReport> gradient_check(const Scene& scene, const GradCheckOptions& options) {
  SimulatorOptions sim_options;
  sim_options.device = options.device;
  sim_options.precision = Precision::Float64;
  sim_options.threads = options.threads;
  // A parameter under check is a design variable: built from a scene where it is marked
  // optimised, a family present only where its parameters are set or optimised (quadratic
  // drag) is there to be differentiated.
  const auto is_checked = [&](ParamId id) {
    const auto& only = options.parameters;
    return only.empty() || std::find(only.begin(), only.end(), id) != only.end();
  };
  Scene checked = scene;
  for (int p = 0; p < kParamCount; ++p)
    if (is_checked(static_cast<ParamId>(p))) checked.params[static_cast<ParamId>(p)].optimize = true;
  auto sim = Simulator::create(checked, sim_options);
  if (!sim) return sim.error();

  ParameterSet params = scene.params;
  auto eval = (*sim)->gradient(params);
  if (!eval) return eval.error();

  GradCheckReport report;
  report.loss = eval->loss;
  report.device = (*sim)->device_name();
  // Each parameter's noise floor: options.noise times its largest |gradient entry|.
  std::vector<double> noise_floor(kParamCount, 0.0);
  for (int p = 0; p < kParamCount; ++p)
    for (double g : params.items[size_t(p)].grad)
      noise_floor[size_t(p)] = std::max(noise_floor[size_t(p)], options.noise * std::fabs(g));
  // The rounding in each entry, measured when an entry needs it (once per check): the
  // gradient again with every value of the checked parameters moved by 4 ulp, up and then
  // down.
  std::vector<std::vector<double>> measured_noise;
  const auto measure_rounding = [&]() -> Status {
    measured_noise.assign(kParamCount, {});
    for (int p = 0; p < kParamCount; ++p) measured_noise[size_t(p)].assign(params.items[size_t(p)].grad.size(), 0.0);
    for (const double ulps : {4.0, -4.0}) {
      ParameterSet nudged = scene.params;
      for (int p = 0; p < kParamCount; ++p) {
        const auto id = static_cast<ParamId>(p);
        if (!is_checked(id)) continue;
        for (double& v : nudged[id].value) v += ulps * std::numeric_limits<double>::epsilon() * step_scale(id, v);
      }
      auto again = (*sim)->gradient(nudged);
      if (!again) return Error{"the gradient with the values moved by 4 ulp: " + again.error().message};
      for (int p = 0; p < kParamCount; ++p) {
        const std::vector<double>& g = params.items[size_t(p)].grad;
        const std::vector<double>& h = nudged.items[size_t(p)].grad;
        for (size_t i = 0; i < g.size() && i < h.size(); ++i)
          measured_noise[size_t(p)][i] = std::max(measured_noise[size_t(p)][i], std::fabs(h[i] - g[i]));
      }
    }
    return Ok{};
  };
  std::mt19937_64 rng(options.seed);
  constexpr int kSteps = 4;
  // Every entry to check, chosen before any is checked so progress knows the total. The
  // sample of a parameter does not depend on which others are checked.
  std::vector<std::pair<ParamId, int>> todo;
  for (int p = 0; p < kParamCount; ++p) {
    const ParamId id = static_cast<ParamId>(p);
    const std::vector<int> picked = sample_entries(params[id].size(), options.samples_per_parameter, rng);
    if (is_checked(id)) {
      for (int i : picked) todo.emplace_back(id, i);
      if (params[id].size() > 0) report.coverage.push_back({id, params[id].size(), static_cast<int>(picked.size())});
    }
  }
  const int total = static_cast<int>(todo.size());
  const auto keep_going = [&](int done) { return !options.progress || options.progress(done, total); };
  if (!keep_going(0)) return Error{"the gradient check was cancelled"};
  for (const auto& [id, i] : todo) {
    const Parameter& param = params[id];
    {
      const double value = param.value[i];
      ParameterSet probe = scene.params;
      // Central differences at four steps a decade apart. A step whose rollouts fail (a
      // value moved past what the scene can run: an inertia made indefinite) is left out;
      // the check needs two adjacent steps that run.
      double d[kSteps] = {}, rounding[kSteps] = {};
      bool ran[kSteps] = {};
      std::string failure;
      for (int k = 0; k < kSteps; ++k) {
        const double h = options.relative_step * std::pow(10.0, -k) * step_scale(id, value);
        probe[id].value[i] = value + h;
        auto plus = (*sim)->evaluate(probe);
        probe[id].value[i] = value - h;
        auto minus = (*sim)->evaluate(probe);
        probe[id].value[i] = value;
        if (!plus || !minus) {
          failure = (plus ? minus.error() : plus.error()).message;
          continue;
        }
        ran[k] = true;
        d[k] = (plus->loss - minus->loss) / (2.0 * h);
        // A few ulp of the losses, divided by the step: what no difference can resolve.
        rounding[k] =
            8.0 * std::numeric_limits<double>::epsilon() * std::max(std::fabs(plus->loss), std::fabs(minus->loss)) / h;
      }
      // The most self-consistent adjacent pair: large steps suffer truncation, small
      // steps rounding (amplified by long, contact-rich rollouts); where two decades
      // agree, the finer one is trusted and their disagreement is its uncertainty. Two
      // differences can agree by coincidence, so that is never less than the finer one's
      // rounding, and the pair is chosen by it: two tiny steps agreeing within their
      // rounding are no better than two larger ones agreeing as closely.
      const auto uncertainty_of = [&](int k) { return std::max(std::fabs(d[k] - d[k + 1]), rounding[k + 1]); };
      int best = -1;
      for (int k = 0; k + 1 < kSteps; ++k)
        if (ran[k] && ran[k + 1] && (best < 0 || uncertainty_of(k) < uncertainty_of(best))) best = k;
      if (best < 0)
        return Error{"finite difference of " + std::string(param_name(id)) + "[" + std::to_string(i) +
                     "]: no two adjacent steps ran: " + failure};
      const double fd = d[best + 1];
      const double uncertainty = uncertainty_of(best);
      GradCheckEntry entry{id, i, value, param.grad[i], fd, 0.0, uncertainty};
      const double param_floor = noise_floor[static_cast<size_t>(id)];
      judge_gradient_entry(entry, rounding[best + 1], options.tolerance, param_floor);
      // An entry that fails is judged again beside its measured rounding, which counts
      // only while it is smaller than the gradient the differences see: larger, the
      // adjoint is rounding amplified by the rollout (a step too coarse for a stiff
      // force), and the entry must fail. noise = 0 asks for the check without any
      // allowance for rounding.
      if (!entry.passed && options.noise > 0) {
        if (measured_noise.empty())
          if (Status measured = measure_rounding(); !measured) return measured.error();
        entry.measured_noise = measured_noise[static_cast<size_t>(id)][size_t(i)];
        const bool benign = entry.measured_noise <= std::max(std::fabs(fd), uncertainty);
        judge_gradient_entry(entry, rounding[best + 1], options.tolerance,
                             std::max(param_floor, benign ? 4.0 * entry.measured_noise : 0.0));
      }
      report.entries.push_back(entry);
    }
    if (!keep_going(static_cast<int>(report.entries.size()))) return Error{"the gradient check was cancelled"};
  }
  return report;
}

}  // namespace nudge
