// What the subcommands share: loading a scene with its error reported, choosing a
// simulator from --device/--precision/--threads, and printing errors.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "nudge/scene.h"
#include "nudge/simulator.h"

namespace nudge {

struct DeviceOptions {
  std::string device = "auto";
  bool device_given = false;  // --device was on the command line (then a CPU fallback is said)
  std::string precision = "float64";
  int threads = 0;
};

// Adds --device, --precision and --threads to a subcommand.
void add_device_options(CLI::App& command, DeviceOptions& options);

// Six significant digits: "0.0147", "1.2e-05".
std::string format_number(double x);

void print_error(const std::string& message);
void print_warning(const std::string& message);
// Warns, one line each, of the forces the step is too coarse for in this motion (whose
// gradients then blow up; nudge/step_stability.h).
void warn_of_unstable_steps(const std::string& scene_name, const Scene& scene, const Trajectory& traj);

// Loads and validates; prints the error and returns nullopt on failure.
std::optional<Scene> load_scene_or_report(const std::string& path);

// "stiffness,mass" as parameter ids; prints an error naming the unknown one (and the
// valid names) and returns nullopt. An empty text is an empty list.
std::optional<std::vector<ParamId>> parse_parameter_list_or_report(const std::string& text);

// The simulator options --device, --precision and --threads chose (already validated).
SimulatorOptions simulator_options(const DeviceOptions& options);

// Prints a simulator's notice, and why it runs on the CPU when --device was given.
void report_notices(const std::string& notice, const std::string& cpu_fallback, const DeviceOptions& options);

// Creates the simulator; prints its notice, why it fell back to the CPU when --device
// was given (a machine without a GPU is not news otherwise), or the error.
std::unique_ptr<Simulator> create_simulator_or_report(const Scene& scene, const DeviceOptions& options);

}  // namespace nudge
