// nudge bench cloth, cloth_throw and diffmpm: benchmarks B1, B3 (../shared/bench/SPEC.md)
// and B4 (DiffTaichi's diffmpm robot, the README's); the last line of standard output is
// one JSON object, so that one script can line up the peers.
#include <iostream>
#include <memory>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "cloth_benchmark.h"
#include "cloth_throw_benchmark.h"
#include "diffmpm_benchmark.h"

namespace nudge {

namespace {

struct BenchArgs {
  int n = 32, steps = 500, runs = 5, checkpoint = 0;
  std::string dtype = "float32";
  std::string write_scene;
  DeviceOptions device;
};

int run_bench_cloth(const BenchArgs& args) {
  ClothBenchOptions options;
  options.n = args.n;
  options.steps = args.steps;
  options.runs = args.runs;
  options.checkpoint_every = args.checkpoint;
  options.precision = *precision_from_name(args.dtype);
  options.device = *device_from_name(args.device.device);
  options.threads = args.device.threads;
  if (!args.write_scene.empty()) {
    if (Status s = save_scene(make_cloth_scene(args.n, args.steps), args.write_scene); !s) {
      print_error(s.error().message);
      return kExitBadInput;
    }
    std::cerr << "wrote " << args.write_scene << "\n";
    return kExitOk;
  }
  Result<ClothBenchResult> result = run_cloth_benchmark(options);
  if (!result) {
    print_error(result.error().message);
    return kExitBadInput;
  }
  report_notices(result->notice, result->cpu_fallback, args.device);
  std::cout << result->to_json() << std::endl;
  return kExitOk;
}

struct ThrowArgs {
  int steps = 1920, runs = 5, checkpoint = 0;
  std::string dtype = "float32";
  std::string write_scene;
  DeviceOptions device;
};

int run_bench_cloth_throw(const ThrowArgs& args) {
  if (!args.write_scene.empty()) {
    if (Status s = save_scene(make_cloth_throw_scene(args.steps), args.write_scene); !s) {
      print_error(s.error().message);
      return kExitBadInput;
    }
    std::cerr << "wrote " << args.write_scene << "\n";
    return kExitOk;
  }
  ClothThrowBenchOptions options;
  options.steps = args.steps;
  options.runs = args.runs;
  options.checkpoint_every = args.checkpoint;
  options.precision = *precision_from_name(args.dtype);
  options.device = *device_from_name(args.device.device);
  options.threads = args.device.threads;
  Result<ClothThrowBenchResult> result = run_cloth_throw_benchmark(options);
  if (!result) {
    print_error(result.error().message);
    return kExitBadInput;
  }
  report_notices(result->notice, result->cpu_fallback, args.device);
  std::cout << result->to_json() << std::endl;
  return kExitOk;
}

void add_cloth_throw(CLI::App& bench, int& exit_code) {
  auto args = std::make_shared<ThrowArgs>();
  CLI::App* cmd = bench.add_subcommand(
      "cloth_throw",
      "B3: gradient of Warp's example_cloth_throw (17 x 17 triangle cloth, no bending) w.r.t. its initial velocities");
  cmd->add_option("--steps", args->steps, "Time steps (1920: the benchmark)")->check(CLI::Range(1, 10000000));
  cmd->add_option("--dtype", args->dtype, "float32 or float64")->check(CLI::IsMember({"float32", "float64"}));
  cmd->add_option("--runs", args->runs, "Timed runs (median reported)")->check(CLI::Range(1, 1000));
  cmd->add_option("--checkpoint", args->checkpoint, "Store every K-th state and recompute (0: store all)")
      ->check(CLI::Range(0, 10000000));
  cmd->add_option("--device", args->device.device, "auto, cpu or cuda")
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}))
      ->each([args](const std::string&) { args->device.device_given = true; });
  cmd->add_option("--threads", args->device.threads, "CPU threads, 0 for all cores")->check(CLI::Range(0, 1024));
  cmd->add_option("--write-scene", args->write_scene, "Write the B3 scene to this file instead of running");
  cmd->callback([args, &exit_code] { exit_code = run_bench_cloth_throw(*args); });
}

struct DiffmpmArgs {
  DiffmpmBenchOptions options;
  std::string dtype = "float32";
  DeviceOptions device;
};

int run_bench_diffmpm(DiffmpmArgs args) {
  args.options.precision = *precision_from_name(args.dtype);
  args.options.device = *device_from_name(args.device.device);
  args.options.threads = args.device.threads;
  Result<DiffmpmBenchResult> result = run_diffmpm_benchmark(args.options);
  if (!result) {
    print_error(result.error().message);
    return kExitBadInput;
  }
  report_notices(result->notice, result->cpu_fallback, args.device);
  std::cout << result->to_json() << std::endl;
  return kExitOk;
}

void add_diffmpm(CLI::App& bench, int& exit_code) {
  auto args = std::make_shared<DiffmpmArgs>();
  CLI::App* cmd = bench.add_subcommand(
      "diffmpm", "B4: gradient of DiffTaichi's diffmpm robot (scenes/diffmpm.json) w.r.t. its controller weights");
  cmd->add_option("--scene", args->options.scene, "The robot's scene file (default scenes/diffmpm.json)");
  cmd->add_option("--dtype", args->dtype, "float32 or float64")->check(CLI::IsMember({"float32", "float64"}));
  cmd->add_option("--runs", args->options.runs, "Timed runs (median reported)")->check(CLI::Range(1, 1000));
  cmd->add_option("--checkpoint", args->options.checkpoint_every, "Store every K-th state and recompute (0: store all)")
      ->check(CLI::Range(0, 10000000));
  cmd->add_option("--device", args->device.device, "auto, cpu or cuda")
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}))
      ->each([args](const std::string&) { args->device.device_given = true; });
  cmd->add_option("--threads", args->device.threads, "CPU threads, 0 for all cores")->check(CLI::Range(0, 1024));
  cmd->callback([args, &exit_code] { exit_code = run_bench_diffmpm(*args); });
}

}  // namespace

void add_bench_command(CLI::App& app, int& exit_code) {
  CLI::App* bench = app.add_subcommand("bench",
                                       "Benchmarks: B1 and B3 (the cloth problems the README's Speed section compares "
                                       "with the peers), B4 (DiffTaichi's diffmpm robot), and the window's frame time");
  bench->require_subcommand(1);
  auto args = std::make_shared<BenchArgs>();
  CLI::App* cloth = bench->add_subcommand("cloth", "B1: gradient of a hanging mass-spring sheet");
  cloth->add_option("--n", args->n, "Sheet is n x n particles")->check(CLI::Range(2, 4096));
  cloth->add_option("--steps", args->steps, "Time steps")->check(CLI::Range(1, 10000000));
  cloth->add_option("--dtype", args->dtype, "float32 or float64")->check(CLI::IsMember({"float32", "float64"}));
  cloth->add_option("--runs", args->runs, "Timed runs (median reported)")->check(CLI::Range(1, 1000));
  cloth->add_option("--checkpoint", args->checkpoint, "Store every K-th state and recompute (0: store all)")
      ->check(CLI::Range(0, 10000000));
  cloth->add_option("--device", args->device.device, "auto, cpu or cuda")
      ->check(CLI::IsMember({"auto", "cpu", "cuda"}))
      ->each([args](const std::string&) { args->device.device_given = true; });
  cloth->add_option("--threads", args->device.threads, "CPU threads, 0 for all cores")->check(CLI::Range(0, 1024));
  cloth->add_option("--write-scene", args->write_scene, "Write the B1 scene to this file instead of running");
  cloth->callback([args, &exit_code] { exit_code = run_bench_cloth(*args); });
  add_cloth_throw(*bench, exit_code);
  add_diffmpm(*bench, exit_code);
}

}  // namespace nudge
