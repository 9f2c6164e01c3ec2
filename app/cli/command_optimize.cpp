// nudge optimize SCENE: tunes the scene's optimised parameters to minimise its
// objectives, showing progress, and writes the loss history, the final parameter
// values and timings.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "report/optimization_report.h"
#include "cli/progress.h"
#include "nudge/atomic_file.h"
#include "nudge/optimize_scene.h"

namespace nudge {

namespace {

struct OptimizeArgs {
  std::string scene, out, log, write_scene;
  std::optional<int> iterations;
  std::optional<std::string> optimizer;
  std::optional<double> learning_rate;
  std::optional<int> population;
  std::optional<double> sigma;
  std::optional<std::uint64_t> seed;
  bool no_out = false;
  DeviceOptions device;
};

// What the optimiser found, one line per optimised parameter: its values (the first few
// of a long one, with its range), and where they started.
void print_values_found(const ParameterSet& start, const ParameterSet& found) {
  constexpr size_t kShown = 6;
  const auto listed = [&](const std::vector<double>& v) {
    std::string text;
    for (size_t i = 0; i < std::min(v.size(), kShown); ++i) text += (i ? ", " : "") + format_number(v[i]);
    if (v.size() > kShown) {
      const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
      text +=
          ", ... (" + std::to_string(v.size()) + " values in [" + format_number(*lo) + ", " + format_number(*hi) + "])";
    }
    return text;
  };
  for (const Parameter& p : found.items) {
    if (!p.optimize || p.value.empty()) continue;
    std::cout << "  " << param_name(p.id) << ": " << listed(p.value) << "  (from " << listed(start[p.id].value)
              << ")\n";
  }
}

// JSON has no NaN: a gradient norm that does not exist (cmaes has none) is written as null.
nlohmann::ordered_json numbers_or_null(const std::vector<double>& values) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (double v : values) out.push_back(std::isfinite(v) ? nlohmann::ordered_json(v) : nlohmann::ordered_json());
  return out;
}

// "loss 0.25  |grad| 3.1", or with a gradient-free method "loss 0.25  evaluations 61".
std::string progress_message(const IterationInfo& info) {
  const std::string loss = "loss " + format_number(info.loss);
  if (std::isnan(info.grad_norm)) return loss + "  evaluations " + std::to_string(info.evaluations);
  return loss + "  |grad| " + format_number(info.grad_norm);
}

std::string result_json(const Scene& scene, const ParameterSet& params, const OptimizeResult& result,
                        const std::string& device, double seconds) {
  nlohmann::ordered_json j;
  j["scene"] = scene.source.string();
  j["device"] = device;
  j["optimizer"] = method_name(scene.optimizer.method);
  j["iterations"] = result.iterations;
  j["evaluations"] = result.evaluations;
  j["stop_reason"] = stop_reason_name(result.reason);
  if (!result.message.empty()) j["message"] = result.message;
  j["initial_loss"] = result.loss_history.front();
  j["final_loss"] = result.loss;
  j["loss_history"] = result.loss_history;
  j["grad_norm_history"] = numbers_or_null(result.grad_norm_history);
  j["parameters"] = optimized_parameters_json(params);
  j["timings"] = {{"total_s", seconds},
                  {"per_evaluation_s", result.evaluations > 0 ? seconds / result.evaluations : 0.0}};
  return j.dump(2) + "\n";
}

int run_optimize(const OptimizeArgs& args) {
  std::optional<Scene> scene = load_scene_or_report(args.scene);
  if (!scene) return kExitBadInput;
  OptimizerSettings& settings = scene->optimizer;
  if (args.iterations) settings.iterations = *args.iterations;
  if (args.optimizer) settings.method = *method_from_name(*args.optimizer);
  if (args.learning_rate) settings.learning_rate = *args.learning_rate;
  if (args.population) settings.population = *args.population;
  if (args.sigma) settings.sigma = *args.sigma;
  if (args.seed) settings.seed = *args.seed;
  if (scene->params.optimized_size() == 0) {
    print_error(args.scene + ": no parameter is optimised; set \"optimize\": true for one under \"parameters\"");
    return kExitBadInput;
  }
  auto sim = create_simulator_or_report(*scene, args.device);
  if (!sim) return kExitBadInput;

  ParameterSet params = scene->params;
  std::cerr << "optimising " << params.optimized_size() << " values of " << scene->name << " with "
            << method_name(settings.method) << " on " << sim->device_name() << "\n";
  ProgressLine progress(settings.iterations);
  const auto start = std::chrono::steady_clock::now();
  Result<OptimizeResult> result = optimize_parameters(*sim, params, settings, [&](const IterationInfo& info) {
    progress.update(info.iteration, progress_message(info));
    return true;
  });
  progress.finish();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!result) {
    print_error(args.scene + ": the initial parameters do not evaluate: " + result.error().message);
    return kExitBadInput;
  }

  std::cout << "loss " << format_number(result->loss_history.front()) << " -> " << format_number(result->loss)
            << " after " << result->iterations << " iterations (" << stop_reason_name(result->reason) << ", "
            << format_seconds(seconds) << ")\n";
  if (!result->message.empty())
    std::cout << "stopped early, keeping the last good parameters: " << result->message << "\n";

  std::cout << "values found:\n";
  print_values_found(scene->params, params);

  const std::string device = sim->device_name();
  // The result is written unless --no-out: by default beside where the command runs.
  const std::string out =
      !args.out.empty() || args.no_out ? args.out : std::filesystem::path(args.scene).stem().string() + ".result.json";
  if (!args.no_out) {
    const std::string& path = out;
    if (Status s = write_file_atomically(path, result_json(*scene, params, *result, device, seconds)); !s) {
      print_error(s.error().message);
      return kExitBadInput;
    }
    std::cout << "wrote " << path << " (the loss history and every optimised value)\n";
  }
  if (!args.log.empty()) {
    if (Status s = write_file_atomically(args.log, loss_history_csv(result->loss_history, result->grad_norm_history));
        !s) {
      print_error(s.error().message);
      return kExitBadInput;
    }
    std::cout << "wrote " << args.log << "\n";
  }
  if (!args.write_scene.empty()) {
    Scene optimised = *scene;
    for (Parameter& p : optimised.params.items) p.value = params[p.id].value;
    if (Status s = save_scene(optimised, args.write_scene); !s) {
      print_error(s.error().message);
      return kExitBadInput;
    }
    std::cout << "wrote " << args.write_scene << "\n";
  }
  return kExitOk;
}

}  // namespace

void add_optimize_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<OptimizeArgs>();
  CLI::App* cmd = app.add_subcommand("optimize", "Tune the scene's optimised parameters to minimise its objectives");
  cmd->add_option("scene", args->scene, "Scene file (JSON)")->required();
  cmd->add_option("--iterations", args->iterations, "Number of iterations (default: the scene's)")
      ->check(CLI::Range(0, 100000000));
  cmd->add_option("--optimizer", args->optimizer, "adam, gd, lbfgs or cmaes (default: the scene's)")
      ->check(CLI::IsMember({"adam", "gd", "lbfgs", "cmaes"}));
  cmd->add_option("--lr", args->learning_rate, "Learning rate (default: the scene's)")->check(CLI::PositiveNumber);
  cmd->add_option("--population", args->population,
                  "cmaes: samples per generation, >= 2 (default: the scene's; 0 there: 4 + 3 ln n)")
      ->check(CLI::Range(2, 100000000));
  cmd->add_option("--sigma", args->sigma,
                  "cmaes: initial step size relative to each value's range (default: the scene's)")
      ->check(CLI::PositiveNumber);
  cmd->add_option("--seed", args->seed, "cmaes: random seed (default: the scene's)");
  cmd->add_option("--out", args->out,
                  "Result JSON: loss_history, parameter values, timings (default: SCENE_STEM.result.json here)");
  cmd->add_flag("--no-out", args->no_out, "Write no result JSON");
  cmd->add_option("--log", args->log, "Loss history CSV: iteration,loss,grad_norm");
  cmd->add_option("--write-scene", args->write_scene, "Save the scene with the optimised parameter values");
  add_device_options(*cmd, args->device);
  cmd->callback([args, &exit_code] { exit_code = run_optimize(*args); });
}

}  // namespace nudge
