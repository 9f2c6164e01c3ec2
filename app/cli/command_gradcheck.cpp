// nudge gradcheck SCENE: the adjoint gradient against central finite differences in
// double, for the parameters the scene optimises (--all: every parameter; --params: those
// named); prints a table and exits 1 when an entry is over tolerance.
#include <cstdio>
#include <iostream>
#include <memory>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "nudge/gradcheck.h"

namespace nudge {

namespace {

struct GradcheckArgs {
  std::string scene;
  double tolerance = 1e-6;
  double step = 1e-3;
  double noise = kGradCheckNoise;
  int samples = 6;
  int threads = 0;
  std::string device = "cpu";
  bool all = false;
  std::string params;
};

// The parameters to check: those named, else every one with --all, else the optimised
// ones (every one when the scene optimises none, which is said).
std::optional<std::vector<ParamId>> parameters_to_check(const GradcheckArgs& args, const Scene& scene) {
  std::optional<std::vector<ParamId>> named = parse_parameter_list_or_report(args.params);
  if (!named || !named->empty()) return named;
  std::vector<ParamId> ids;
  for (int p = 0; p < kParamCount; ++p)
    if (args.all || scene.params.items[size_t(p)].optimize) ids.push_back(static_cast<ParamId>(p));
  if (ids.empty()) {
    std::printf("%s optimises no parameter: checking every one\n", args.scene.c_str());
    for (int p = 0; p < kParamCount; ++p) ids.push_back(static_cast<ParamId>(p));
  }
  return ids;
}

// What the table says beside an entry: failures, and passes that needed more than the tolerance.
std::string verdict_note(const GradCheckEntry& e, double tolerance) {
  if (!e.passed) return e.verifiable ? "  FAIL" : "  FAIL (finite difference too uncertain)";
  if (e.noise && e.measured_noise > 0)
    return "  (rounding noise: 4 ulp moves the adjoint by " + format_number(e.measured_noise) + ")";
  if (e.noise) return "  (rounding noise next to the parameter's gradient)";
  if (!e.resolved) return "  (below FD resolution)";
  return e.relative_error > tolerance ? "  (within FD uncertainty)" : "";
}

int run_gradcheck(const GradcheckArgs& args) {
  std::optional<Scene> scene = load_scene_or_report(args.scene);
  if (!scene) return kExitBadInput;
  std::optional<std::vector<ParamId>> ids = parameters_to_check(args, *scene);
  if (!ids) return kExitBadInput;
  GradCheckOptions options;
  options.parameters = *ids;
  options.noise = args.noise;
  options.samples_per_parameter = args.samples;
  options.threads = args.threads;
  options.device = *device_from_name(args.device);
  options.tolerance = args.tolerance;
  options.relative_step = args.step;
  Result<GradCheckReport> report = gradient_check(*scene, options);
  if (!report) {
    print_error(args.scene + ": " + report.error().message);
    return kExitBadInput;
  }
  std::printf(
      "gradient check of %s (loss %.10g): adjoint against central differences at the most\n"
      "self-consistent of four steps, on %s\n",
      args.scene.c_str(), report->loss, report->device.c_str());
  std::printf("%-18s %8s %14s %16s %16s %10s\n", "parameter", "index", "value", "adjoint", "finite diff", "rel error");
  for (const GradCheckEntry& e : report->entries) {
    std::printf("%-18s %8d %14.6g %16.8e %16.8e %10.2e%s\n", std::string(param_name(e.param)).c_str(), e.index, e.value,
                e.adjoint, e.finite_difference, e.relative_error, verdict_note(e, args.tolerance).c_str());
  }
  const int failed = report->failed();
  // Where the step is too coarse for a force, gradients blow up: say so beside the table.
  if (Result<std::unique_ptr<Simulator>> sim = Simulator::create(*scene); sim.ok())
    if (Result<Trajectory> traj = (*sim)->trajectory(scene->params); traj.ok()) {
      std::fflush(stdout);
      warn_of_unstable_steps(args.scene, *scene, *traj);
    }
  // What the sample left out, so that "ok" is not read as "every entry checked".
  if (const int unchecked = report->unchecked(); unchecked > 0) {
    std::printf("not checked: %d %s outside the sample of %d per parameter (--samples raises it):", unchecked,
                unchecked == 1 ? "entry" : "entries", options.samples_per_parameter);
    const char* separator = " ";
    for (const GradCheckCoverage& c : report->coverage)
      if (c.checked < c.entries) {
        std::printf("%s%s %d of %d", separator, std::string(param_name(c.param)).c_str(), c.entries - c.checked,
                    c.entries);
        separator = ", ";
      }
    std::printf("\n");
  }
  std::printf("%zu entries, %d over tolerance %.1e (max relative error %.2e), %d rounding noise: %s\n",
              report->entries.size(), failed, args.tolerance, report->max_relative_error(), report->rounding_noise(),
              failed ? "FAILED" : "ok");
  return failed ? kExitCheckFailed : kExitOk;
}

}  // namespace

void add_gradcheck_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<GradcheckArgs>();
  CLI::App* cmd =
      app.add_subcommand("gradcheck", "Check adjoint gradients against finite differences (exit 1 if over tolerance)");
  cmd->add_option("scene", args->scene, "Scene file (JSON)")->required();
  cmd->add_option("--tolerance", args->tolerance, "Largest relative error accepted")->check(CLI::PositiveNumber);
  cmd->add_option("--step", args->step,
                  "Largest finite-difference step, relative to the value where it must be positive, else to "
                  "max(|value|, 1) (three more, each 10x smaller, are tried)")
      ->check(CLI::Range(1e-12, 1.0));
  cmd->add_option("--samples", args->samples, "Entries checked per parameter array")->check(CLI::Range(1, 1000000));
  cmd->add_option("--threads", args->threads, "CPU threads, 0 for all cores")->check(CLI::Range(0, 1024));
  cmd->add_option("--device", args->device,
                  "Where the rollouts run, always in float64: cpu, or cuda to check the GPU's adjoints")
      ->check(CLI::IsMember({"cpu", "cuda"}));
  cmd->add_flag("--all", args->all, "Check every parameter (default: the ones the scene optimises)");
  cmd->add_option("--params", args->params, "Check these parameters, comma-separated");
  cmd->add_option("--noise", args->noise,
                  "Rounding noise accepted beside the tolerance, relative to the largest entry of the parameter's "
                  "gradient, besides 4x what 4 ulp of the values move each entry by (default: sqrt of float64's "
                  "epsilon; 0: neither)")
      ->check(CLI::Range(0.0, 1e-3));
  cmd->callback([args, &exit_code] { exit_code = run_gradcheck(*args); });
}

}  // namespace nudge
