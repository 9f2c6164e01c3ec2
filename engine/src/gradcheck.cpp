#include "nudge/gradcheck.h"

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

double gradient_relative_error(double adjoint, double finite_difference, double noise_floor) {
  const double scale = std::max({std::fabs(adjoint), std::fabs(finite_difference), noise_floor});
  return scale > 0.0 ? std::fabs(adjoint - finite_difference) / scale : 0.0;
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
  sim_options.device = Device::Cpu;
  sim_options.precision = Precision::Float64;
  sim_options.threads = options.threads;
  auto sim = Simulator::create(scene, sim_options);
  if (!sim) return sim.error();

  ParameterSet params = scene.params;
  auto eval = (*sim)->gradient(params);
  if (!eval) return eval.error();

  GradCheckReport report;
  report.loss = eval->loss;
  std::mt19937_64 rng(options.seed);
  constexpr double kEps = std::numeric_limits<double>::epsilon();
  for (int p = 0; p < kParamCount; ++p) {
    const ParamId id = static_cast<ParamId>(p);
    const Parameter& param = params[id];
    for (int i : sample_entries(param.size(), options.samples_per_parameter, rng)) {
      const double value = param.value[i];
      const double h = options.relative_step * std::max(std::fabs(value), 1.0);
      ParameterSet probe = scene.params;
      probe[id].value[i] = value + h;
      auto plus = (*sim)->evaluate(probe);
      probe[id].value[i] = value - h;
      auto minus = (*sim)->evaluate(probe);
      if (!plus || !minus)
        return Error{"finite difference of " + std::string(param_name(id)) + "[" + std::to_string(i) +
                     "]: " + (plus ? minus.error() : plus.error()).message};
      const double fd = (plus->loss - minus->loss) / (2.0 * h);
      // Rounding in the two losses limits what the difference can resolve.
      const double noise = 64.0 * kEps * std::max(std::fabs(plus->loss), std::fabs(minus->loss)) / h;
      report.entries.push_back(
          {id, i, value, param.grad[i], fd, gradient_relative_error(param.grad[i], fd, noise)});
    }
  }
  return report;
}

}  // namespace nudge
