// nudge sweep SCENE --param k=10:100:20 [--param ...] [--mode loss|gradient|optimize]
// [--out TABLE.csv] [--threads N] [--ray ADDRESS]: a grid of points over the scene's
// parameters, each evaluated on its own and written as a row of a CSV table as it
// finishes; run again, it resumes where it stopped (nudge/sweep.h). With --ray the points
// run on a Ray cluster through the Python package (python -m nudge sweep), which writes
// the same table.
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/common.h"
#include "cli/progress.h"
#include "nudge/sweep.h"

namespace nudge {

namespace {

namespace fs = std::filesystem;

struct SweepArgs {
  std::string scene, out, mode = "loss", ray, precision = "float64";
  std::vector<std::string> params;
  int threads = 0;
};

std::string point_text(const SweepPlan& plan, const SweepRow& row) {
  std::string text;
  for (std::size_t a = 0; a < plan.axes.size(); ++a)
    text += (a > 0 ? ", " : "") + plan.axes[a].label + " " + format_number(row.values[a]);
  return text;
}

// The loss column's value (the found loss in optimize mode).
double row_loss(const SweepPlan& plan, const SweepRow& row) {
  return row.values[plan.axes.size() + (plan.mode == SweepMode::Optimize ? 1 : 0)];
}

// --ray: the Python package runs the sweep on the cluster. Its interpreter is $NUDGE_PYTHON
// (else python3); a build tree's package (<build>/python, beside <build>/app/nudge) is put
// first on its path, so that the package this binary was built with is the one used.
int run_on_ray(const SweepArgs& args) {
  std::vector<std::string> argv = {std::getenv("NUDGE_PYTHON") ? std::getenv("NUDGE_PYTHON") : "python3", "-m", "nudge",
                                   "sweep", args.scene};
  for (const std::string& p : args.params) argv.insert(argv.end(), {"--param", p});
  argv.insert(argv.end(), {"--mode", args.mode, "--out", args.out, "--ray", args.ray, "--precision", args.precision});
  std::error_code ec;
  const fs::path build_package = fs::read_symlink("/proc/self/exe", ec).parent_path().parent_path() / "python";
  if (!ec && fs::exists(build_package / "nudge" / "_sweep_worker.py")) {
    const char* old = std::getenv("PYTHONPATH");
    const std::string path = build_package.string() + (old && *old ? ":" + std::string(old) : "");
    setenv("PYTHONPATH", path.c_str(), 1);
  }
  std::vector<char*> c_argv;
  for (std::string& a : argv) c_argv.push_back(a.data());
  c_argv.push_back(nullptr);
  std::fflush(stdout);
  execvp(c_argv[0], c_argv.data());
  print_error("--ray: cannot run " + argv[0] +
              " (set NUDGE_PYTHON to a Python with the nudge package and ray): " + std::strerror(errno));
  return kExitFailure;
}

int run_sweep_command(SweepArgs args) {
  std::optional<Scene> scene = load_scene_or_report(args.scene);
  if (!scene) return kExitBadInput;
  std::vector<SweepAxis> axes;
  for (const std::string& spec : args.params) {
    Result<SweepAxis> axis = parse_sweep_axis(spec);
    if (!axis) {
      print_error(axis.error().message);
      return kExitBadInput;
    }
    axes.push_back(*axis);
  }
  Result<SweepPlan> plan = make_sweep_plan(*scene, std::move(axes), *sweep_mode_from_name(args.mode));
  if (!plan) {
    print_error(args.scene + ": " + plan.error().message);
    return kExitBadInput;
  }
  if (args.out.empty()) args.out = fs::path(args.scene).stem().string() + ".sweep.csv";
  if (!args.ray.empty()) return run_on_ray(args);
  if (fs::path(args.out).extension() == ".parquet") {
    print_error("--out " + args.out +
                ": this command writes CSV; a Parquet table (with its CSV journal beside it) is the Python "
                "package's: python -m nudge sweep ... --out " +
                args.out + ", or add --ray local");
    return kExitBadInput;
  }

  Result<std::unique_ptr<SweepTable>> table = SweepTable::open(args.out, *scene, *plan);
  if (!table) {
    print_error(table.error().message);
    return kExitBadInput;
  }
  const int total = plan->point_count(), resumed = (*table)->done_count();
  std::string grid;  // "20 x 10"
  for (const SweepAxis& a : plan->axes) grid += (grid.empty() ? "" : " x ") + std::to_string(a.count);
  std::printf("sweep of %s: %d points (%s), %s mode, into %s", args.scene.c_str(), total, grid.c_str(),
              args.mode.c_str(), args.out.c_str());
  if (resumed > 0) std::printf("; resuming: %d already there", resumed);
  std::printf("\n");

  SweepRunOptions options;
  options.threads = args.threads;
  options.simulator.device = Device::Cpu;
  options.simulator.precision = *precision_from_name(args.precision);
  ProgressLine progress(total);
  int errors = 0;
  const auto start = std::chrono::steady_clock::now();
  Result<int> added = run_sweep(*scene, *plan, **table, options, [&](const SweepRow& row) {
    if (!row.has_result()) ++errors;
    progress.update((*table)->done_count(),
                    point_text(*plan, row) + ": " +
                        (row.has_result() ? "loss " + format_number(row_loss(*plan, row)) : row.status));
    return true;
  });
  progress.finish();
  if (!added) {
    print_error(added.error().message);
    return kExitFailure;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%d points in %s (%.1f points/s)%s\n", *added, format_seconds(seconds).c_str(),
              seconds > 0 ? *added / seconds : 0.0,
              errors > 0 ? (", " + std::to_string(errors) + " without a result (status in the table)").c_str() : "");

  // The best point of the whole table, this run's and earlier ones'.
  Result<SweepTableContents> contents = read_sweep_table(args.out);
  if (!contents) {
    print_error(contents.error().message);
    return kExitFailure;
  }
  const SweepRow* best = nullptr;
  for (const SweepRow& row : contents->rows)
    if (row.has_result() && std::isfinite(row_loss(*plan, row)) &&
        (!best || row_loss(*plan, row) < row_loss(*plan, *best)))
      best = &row;
  if (best)
    std::printf("lowest loss %s at point %d: %s\n", format_number(row_loss(*plan, *best)).c_str(), best->index,
                point_text(*plan, *best).c_str());
  std::printf("table: %s (%d of %d points)\n", args.out.c_str(), int(contents->rows.size()), total);
  return kExitOk;
}

}  // namespace

void add_sweep_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<SweepArgs>();
  CLI::App* cmd = app.add_subcommand(
      "sweep", "Evaluate a grid of parameter values, one row per point in a CSV table; run again, it resumes");
  cmd->add_option("scene", args->scene, "Scene file (JSON)")->required();
  cmd->add_option("--param", args->params,
                  "A swept parameter: name=from:to:count (count values, both ends included), name[row]=... (one "
                  "row), name[row,col]=... (one entry), or name=value; repeat for a grid")
      ->required();
  cmd->add_option("--mode", args->mode,
                  "loss (a rollout per point), gradient (the loss and its derivative along each parameter), or "
                  "optimize (the scene's optimiser started at each point)")
      ->check(CLI::IsMember({"loss", "gradient", "optimize"}));
  cmd->add_option("--out", args->out,
                  "The table (CSV); default: SCENE's name with .sweep.csv, here (.parquet: through the Python "
                  "package, with --ray)");
  cmd->add_option("--threads", args->threads, "Points evaluated at once, one thread each; 0: every core")
      ->check(CLI::Range(0, 1024));
  cmd->add_option("--precision", args->precision, "float64 or float32")->check(CLI::IsMember({"float64", "float32"}));
  cmd->add_option("--ray", args->ray,
                  "Run the points on a Ray cluster (its address, host:port, or 'auto'; 'local' starts one here) "
                  "through the nudge Python package");
  cmd->callback([args, &exit_code] { exit_code = run_sweep_command(*args); });
}

}  // namespace nudge
