#include "diffmpm_benchmark.h"

#include <sys/resource.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "bench_timing.h"
#include "nudge/scene.h"

namespace nudge {

namespace {

// The process's resident memory now (VmRSS of /proc/self/status), MiB; 0 where unknown.
double resident_mib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind("VmRSS:", 0) == 0) {
      std::istringstream fields(line.substr(6));
      double kib = 0;
      fields >> kib;
      return kib / 1024.0;
    }
  return 0;
}

// The process's peak resident memory so far, MiB (Linux reports ru_maxrss in KiB).
double peak_resident_mib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;
}

}  // namespace

std::string DiffmpmBenchResult::to_json() const {
  nlohmann::ordered_json j;
  j["impl"] = "nudge-" + device;
  j["bench"] = "diffmpm";
  j["points"] = points;
  j["steps"] = steps;
  j["dtype"] = precision_name(options.precision);
  j["loss"] = loss;
  j["grad_norm"] = grad_norm;
  j["forward_s"] = forward_s;
  j["gradient_s"] = gradient_s;
  j["runs"] = options.runs;
  j["threads"] = threads;
  j["checkpoint_every"] = options.checkpoint_every;
  j["base_rss_mib"] = base_rss_mib;
  j["peak_rss_mib"] = peak_rss_mib;
  return j.dump();
}

Result<DiffmpmBenchResult> run_diffmpm_benchmark(const DiffmpmBenchOptions& options) {
  if (options.runs < 1 || options.threads < 0 || options.checkpoint_every < 0)
    return Error{"diffmpm benchmark: need runs >= 1, threads >= 0 and checkpoint >= 0"};
  Result<Scene> scene = load_scene(options.scene);
  if (!scene) return Error{"diffmpm benchmark: " + scene.error().message};
  if (scene->material_points.count() == 0)
    return Error{"diffmpm benchmark: " + options.scene + " has no material points (expected scenes/diffmpm.json)"};
  DiffmpmBenchResult result;
  result.options = options;
  result.points = scene->material_points.count();
  result.steps = scene->settings.steps;
  result.base_rss_mib = resident_mib();

  SimulatorOptions sim_options;
  sim_options.device = options.device;
  sim_options.precision = options.precision;
  sim_options.threads = options.threads;
  sim_options.checkpoint_every = options.checkpoint_every;
  auto sim = Simulator::create(*scene, sim_options);
  if (!sim) return sim.error();
  result.device = (*sim)->device_name();
  result.notice = (*sim)->notice();
  result.cpu_fallback = (*sim)->cpu_fallback();
  result.threads = options.threads > 0 ? options.threads : static_cast<int>(std::thread::hardware_concurrency());
  ParameterSet params = scene->params;
  Result<Evaluation> eval = (*sim)->gradient(params);
  if (!eval) return eval.error();
  result.loss = eval->loss;
  result.grad_norm = norm2(params.gather_optimized_grad());
  result.forward_s = median_seconds(options.runs, [&] { (void)(*sim)->evaluate(params); });
  result.gradient_s = median_seconds(options.runs, [&] { (void)(*sim)->gradient(params); });
  result.peak_rss_mib = peak_resident_mib();
  return result;
}

}  // namespace nudge
