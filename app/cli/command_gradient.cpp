// nudge gradient SCENE [--out r.json]: one forward and backward pass; the loss, each
// objective term's loss, and the full gradient of every parameter (or of those named by
// --params), entry by entry, so results can be compared with other tools.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "nudge/gradient_growth.h"
#include "nudge/atomic_file.h"

namespace nudge {

namespace {

struct GradientArgs {
  std::string scene, out, params;
  DeviceOptions device;
};

using OrderedJson = nlohmann::ordered_json;

// A rows x cols array as rows (a list of numbers when it has one column).
OrderedJson matrix_json(const std::vector<double>& flat, int rows, int cols) {
  if (cols == 1) return flat;
  OrderedJson out = OrderedJson::array();
  for (int r = 0; r < rows; ++r)
    out.push_back(
        std::vector<double>(flat.begin() + std::ptrdiff_t(r) * cols, flat.begin() + std::ptrdiff_t(r + 1) * cols));
  return out;
}

int run_gradient(const GradientArgs& args) {
  std::optional<Scene> scene = load_scene_or_report(args.scene);
  if (!scene) return kExitBadInput;
  std::optional<std::vector<ParamId>> chosen = parse_parameter_list_or_report(args.params);
  if (!chosen) return kExitBadInput;
  // By default the scene's own parameters: those with entries, as the studio's Scene panel
  // lists them (a scene without bodies has no body_density, one without springs no stiffness).
  if (chosen->empty())
    for (int p = 0; p < kParamCount; ++p)
      if (scene->params[static_cast<ParamId>(p)].size() > 0) chosen->push_back(static_cast<ParamId>(p));
  auto sim = create_simulator_or_report(*scene, args.device);
  if (!sim) return kExitBadInput;
  ParameterSet params = scene->params;
  GradientOptions options;
  options.record_adjoint_norms = true;  // for the growth warning: a norm per step
  StateAdjoints norms;
  Result<Evaluation> eval = sim->gradient(params, options, &norms);
  if (!eval) {
    print_error(args.scene + ": " + eval.error().message);
    return kExitBadInput;
  }
  if (const std::optional<GradientGrowth> growth = find_gradient_growth(norms.norm)) {
    char text[320];
    std::snprintf(text, sizeof text,
                  "the gradient grows exponentially with the horizon: going back from step %d, |dL/dstate| grows "
                  "%.3gx per 100 steps, %.3gx by step 0; the first steps dominate it (a truncated horizon of %d "
                  "steps or fewer stays clear of it)",
                  growth->onset, std::pow(growth->per_step, 100.0), growth->factor,
                  scene->settings.steps - growth->onset);
    print_warning(args.scene + ": " + text);
  }

  std::printf("gradient of %s on %s: loss %.10g\n", args.scene.c_str(), sim->device_name().c_str(), eval->loss);
  int name_width = 9;  // "parameter"
  for (ParamId id : *chosen) name_width = std::max(name_width, int(param_name(id).size()));
  std::printf("%-*s %10s %16s %16s %8s\n", name_width, "parameter", "shape", "|gradient|", "largest |entry|", "at");
  for (ParamId id : *chosen) {
    const Parameter& p = params[id];
    double norm = 0, largest = 0;
    int at = -1;
    for (int i = 0; i < p.size(); ++i) {
      norm += p.grad[i] * p.grad[i];
      if (std::fabs(p.grad[i]) > largest) largest = std::fabs(p.grad[i]), at = i;
    }
    const std::string shape = std::to_string(p.rows) + " x " + std::to_string(p.cols);
    std::printf("%-*s %10s %16.8e %16.8e %8s%s\n", name_width, std::string(param_name(id)).c_str(), shape.c_str(),
                std::sqrt(norm), largest, at < 0 ? "-" : std::to_string(at).c_str(), p.optimize ? "  (optimised)" : "");
  }
  if (args.out.empty()) return kExitOk;

  OrderedJson j;
  j["scene"] = args.scene;
  j["device"] = sim->device_name();
  j["loss"] = eval->loss;
  j["term_loss"] = eval->term_loss;
  OrderedJson& out = j["parameters"] = OrderedJson::object();
  for (ParamId id : *chosen) {
    const Parameter& p = params[id];
    OrderedJson& entry = out[std::string(param_name(id))];
    entry["shape"] = {p.rows, p.cols};
    entry["optimized"] = p.optimize;
    entry["value"] = matrix_json(p.value, p.rows, p.cols);
    entry["gradient"] = matrix_json(p.grad, p.rows, p.cols);
  }
  if (Status written = write_file_atomically(args.out, j.dump(2) + "\n"); !written) {
    print_error(written.error().message);
    return kExitBadInput;
  }
  std::printf("wrote %s\n", args.out.c_str());
  return kExitOk;
}

}  // namespace

void add_gradient_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<GradientArgs>();
  CLI::App* cmd = app.add_subcommand("gradient", "The loss and the full gradient of every parameter, entry by entry");
  cmd->add_option("scene", args->scene, "Scene file (JSON)")->required();
  cmd->add_option("--out", args->out, "Result JSON: loss, term losses, each parameter's shape, value and gradient");
  cmd->add_option("--params", args->params,
                  "Only these parameters, comma-separated (default: every parameter the scene has entries of)");
  add_device_options(*cmd, args->device);
  cmd->callback([args, &exit_code] { exit_code = run_gradient(*args); });
}

}  // namespace nudge
