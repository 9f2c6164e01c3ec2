#include "cli/common.h"

#include <iostream>

namespace nudge {

void add_device_options(CLI::App& command, DeviceOptions& options) {
  command.add_option("--device", options.device, "Where to run: auto (a CUDA GPU if present), cpu, cuda")
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}));
  command.add_option("--precision", options.precision, "Scalar type of the rollout: float32 or float64")
      ->check(CLI::IsMember({"float32", "float64"}));
  command.add_option("--threads", options.threads, "CPU threads, 0 for all cores")->check(CLI::Range(0, 1024));
}

void print_error(const std::string& message) { std::cerr << "nudge: error: " << message << "\n"; }

std::optional<Scene> load_scene_or_report(const std::string& path) {
  Result<Scene> scene = load_scene(path);
  if (!scene) {
    print_error(scene.error().message);
    return std::nullopt;
  }
  return std::move(scene).value();
}

std::unique_ptr<Simulator> create_simulator_or_report(const Scene& scene, const DeviceOptions& options) {
  SimulatorOptions sim;
  sim.device = *device_from_name(options.device);
  sim.precision = *precision_from_name(options.precision);
  sim.threads = options.threads;
  auto created = Simulator::create(scene, sim);
  if (!created) {
    print_error(created.error().message);
    return nullptr;
  }
  if (!(*created)->notice().empty()) std::cerr << "nudge: " << (*created)->notice() << "\n";
  return std::move(created).value();
}

}  // namespace nudge
