#include "cli/common.h"

#include "nudge/parameter_facts.h"
#include "nudge/step_stability.h"

#include <cstdio>
#include <algorithm>
#include <iostream>

namespace nudge {

void add_device_options(CLI::App& command, DeviceOptions& options) {
  command
      .add_option("--device", options.device,
                  "Where to run: auto (a CUDA GPU if present, except for articulations and material points, which run "
                  "faster on the CPU), cpu, cuda")
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}))
      ->each([&options](const std::string&) { options.device_given = true; });
  command.add_option("--precision", options.precision, "Scalar type of the rollout: float32 or float64")
      ->check(CLI::IsMember({"float32", "float64"}));
  command.add_option("--threads", options.threads, "CPU threads, 0 for all cores")->check(CLI::Range(0, 1024));
}

std::string format_number(double x) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", x);
  return text;
}

void print_error(const std::string& message) { std::cerr << "nudge: error: " << message << "\n"; }

void print_warning(const std::string& message) { std::cerr << "nudge: warning: " << message << "\n"; }

void warn_of_unstable_steps(const std::string& scene_name, const Scene& scene, const Trajectory& traj) {
  for (const StepStabilityIssue& issue : step_stability_issues(scene, traj))
    print_warning(scene_name + ": " + issue.message());
}

std::optional<Scene> load_scene_or_report(const std::string& path) {
  Result<Scene> scene = load_scene(path);
  if (!scene) {
    print_error(scene.error().message);
    return std::nullopt;
  }
  return std::move(scene).value();
}

std::optional<std::vector<ParamId>> parse_parameter_list_or_report(const std::string& text) {
  std::vector<ParamId> ids;
  size_t start = 0;
  while (start < text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const std::string name = text.substr(start, comma - start);
    const std::optional<ParamId> id = param_from_name(name);
    if (!id) {
      print_error("--params: unknown parameter '" + name +
                  "'; expected a comma-separated list of: " + param_names_listed());
      return std::nullopt;
    }
    if (std::find(ids.begin(), ids.end(), *id) == ids.end()) ids.push_back(*id);
    start = comma + 1;
  }
  return ids;
}

SimulatorOptions simulator_options(const DeviceOptions& options) {
  SimulatorOptions sim;
  sim.device = *device_from_name(options.device);
  sim.precision = *precision_from_name(options.precision);
  sim.threads = options.threads;
  return sim;
}

void report_notices(const std::string& notice, const std::string& cpu_fallback, const DeviceOptions& options) {
  if (!cpu_fallback.empty() && options.device_given) std::cerr << "nudge: " << cpu_fallback << "\n";
  if (!notice.empty()) std::cerr << "nudge: " << notice << "\n";
}

std::unique_ptr<Simulator> create_simulator_or_report(const Scene& scene, const DeviceOptions& options) {
  auto created = Simulator::create(scene, simulator_options(options));
  if (!created) {
    print_error(created.error().message);
    return nullptr;
  }
  report_notices((*created)->notice(), (*created)->cpu_fallback(), options);
  return std::move(created).value();
}

}  // namespace nudge
