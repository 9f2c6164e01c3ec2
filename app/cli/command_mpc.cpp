// nudge mpc SCENE: model predictive control of the scene's per-step controls
// (nudge/mpc.h): re-plans the next H steps every K steps and executes the first K,
// printing each plan; writes the executed controls (as a scene, or a result JSON).
#include <chrono>
#include <cstdio>
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
#include "nudge/mpc.h"

namespace nudge {

namespace {

struct MpcArgs {
  std::string scene, out, write_scene;
  MpcSettings settings;
  std::optional<std::string> optimizer;
  std::optional<double> learning_rate;
  DeviceOptions device;
};

nlohmann::ordered_json result_json(const Scene& scene, const MpcArgs& args, const MpcResult& result, double open_loop,
                                   double seconds) {
  nlohmann::ordered_json j;
  j["scene"] = scene.source.string();
  j["horizon"] = args.settings.horizon;
  j["replan_every"] = args.settings.replan_every;
  j["iterations_per_plan"] = args.settings.iterations;
  j["optimizer"] = method_name(scene.optimizer.method);
  j["open_loop_loss"] = open_loop;
  j["executed_loss"] = result.loss;
  nlohmann::ordered_json plans = nlohmann::ordered_json::array();
  for (const MpcPlan& p : result.plans)
    plans.push_back({{"start", p.start},
                     {"steps", p.steps},
                     {"iterations", p.iterations},
                     {"initial_loss", p.initial_loss},
                     {"final_loss", p.final_loss}});
  j["plans"] = plans;
  j["parameters"] = optimized_parameters_json(result.params);
  j["timings"] = {{"total_s", seconds}};
  return j;
}

int run_mpc_command(const MpcArgs& args) {
  std::optional<Scene> scene = load_scene_or_report(args.scene);
  if (!scene) return kExitBadInput;
  if (args.optimizer) scene->optimizer.method = *method_from_name(*args.optimizer);
  if (args.learning_rate) scene->optimizer.learning_rate = *args.learning_rate;
  if (Status ok = check_mpc(*scene, args.settings); !ok) {
    print_error(args.scene + ": " + ok.error().message);
    return kExitBadInput;
  }
  // The scene's motion with its controls as given: what the loop is to beat.
  auto sim = create_simulator_or_report(*scene, args.device);
  if (!sim) return kExitBadInput;
  Result<Evaluation> open_loop = sim->evaluate(scene->params);
  if (!open_loop) {
    print_error(args.scene + ": the scene's controls do not evaluate: " + open_loop.error().message);
    return kExitBadInput;
  }
  const SimulatorOptions options = simulator_options(args.device);
  std::cerr << "model predictive control of " << scene->name << ": plans " << args.settings.horizon << " steps every "
            << args.settings.replan_every << " steps, " << args.settings.iterations << " "
            << method_name(scene->optimizer.method) << " iterations each, on " << sim->device_name() << "\n";
  const auto start = std::chrono::steady_clock::now();
  Result<MpcResult> result = run_mpc(*scene, args.settings, options, [&](const MpcPlan& plan, const Trajectory&) {
    std::cout << "plan at step " << plan.start << " (" << plan.steps << " steps): window loss "
              << format_number(plan.initial_loss) << " -> " << format_number(plan.final_loss) << "\n";
    return true;
  });
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!result) {
    print_error(args.scene + ": " + result.error().message);
    return kExitBadInput;
  }
  std::cout << "executed: loss " << format_number(result->loss)
            << " (the scene's controls as given: " << format_number(open_loop->loss) << "), " << result->plans.size()
            << " plans in " << format_seconds(seconds) << "\n";
  if (!args.out.empty()) {
    const std::string text = result_json(*scene, args, *result, open_loop->loss, seconds).dump(2) + "\n";
    if (Status s = write_file_atomically(args.out, text); !s) {
      print_error(s.error().message);
      return kExitBadInput;
    }
    std::cout << "wrote " << args.out << "\n";
  }
  if (!args.write_scene.empty()) {
    Scene executed = *scene;
    executed.params = result->params;
    if (Status s = save_scene(executed, args.write_scene); !s) {
      print_error(s.error().message);
      return kExitBadInput;
    }
    std::cout << "wrote " << args.write_scene << "\n";
  }
  return kExitOk;
}

}  // namespace

void add_mpc_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<MpcArgs>();
  CLI::App* cmd = app.add_subcommand(
      "mpc", "Model predictive control: re-plan the next steps' controls every few steps and execute the first");
  cmd->add_option("scene", args->scene, "Scene file (JSON) whose controls or joint_control are optimised")->required();
  cmd->add_option("--horizon", args->settings.horizon, "Steps planned each time (default 60)")
      ->check(CLI::Range(1, 100000000));
  cmd->add_option("--every", args->settings.replan_every,
                  "Steps executed between plans, at most the horizon (default 10)")
      ->check(CLI::Range(1, 100000000));
  cmd->add_option("--iterations", args->settings.iterations, "Optimiser iterations per plan (default 10)")
      ->check(CLI::Range(1, 100000000));
  cmd->add_option("--optimizer", args->optimizer, "adam, gd, lbfgs or cmaes (default: the scene's)")
      ->check(CLI::IsMember({"adam", "gd", "lbfgs", "cmaes"}));
  cmd->add_option("--lr", args->learning_rate, "Learning rate (default: the scene's)")->check(CLI::PositiveNumber);
  cmd->add_option("--out", args->out, "Result JSON: each plan's window loss, the executed loss and controls");
  cmd->add_option("--write-scene", args->write_scene, "Save the scene with the executed controls");
  add_device_options(*cmd, args->device);
  cmd->callback([args, &exit_code] { exit_code = run_mpc_command(*args); });
}

}  // namespace nudge
