// Parameter sweeps: a grid of points over a scene's parameters, each point evaluated on
// its own (a loss, a gradient, or an optimisation started there) and written as one row
// of a CSV table. A sweep that is stopped resumes from its table: the points already in it
// are not run again. The command line (nudge sweep), Python (nudge.sweep, on local threads
// or across a Ray cluster) and the studio's sweep plot all share this table.
#pragma once

#include <cstdio>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nudge/parameters.h"
#include "nudge/result.h"
#include "nudge/scene.h"
#include "nudge/simulator.h"

namespace nudge {

// One swept quantity: every used entry of a parameter, one row of it, or one entry,
// taking `count` values evenly from `from` to `to` (both included).
struct SweepAxis {
  std::string label;  // as on the command line: "stiffness", "body_density[1]", "initial_velocity[0,2]"
  ParamId param{};
  int row = -1, col = -1;  // -1: every row, every column
  double from = 0.0, to = 0.0;
  int count = 1;

  double value(int k) const;
};

// "name=from:to:count", "name[row]=...", "name[row,col]=..." or "name=value" (one point).
Result<SweepAxis> parse_sweep_axis(std::string_view spec);

enum class SweepMode {
  Loss,      // one forward rollout per point
  Gradient,  // the loss and its derivative along each axis
  Optimize,  // the scene's optimiser started at each point (multi-start)
};
std::string_view sweep_mode_name(SweepMode mode);
std::optional<SweepMode> sweep_mode_from_name(std::string_view name);

inline constexpr long long kMaxSweepPoints = 10'000'000;
// An optimisation's found values get a column each when there are at most this many.
inline constexpr int kMaxSweepFoundColumns = 64;

// The points of a sweep: the grid of its axes, the last axis varying fastest.
struct SweepPlan {
  std::vector<SweepAxis> axes;
  SweepMode mode = SweepMode::Loss;

  int point_count() const;
  std::vector<double> point(int index) const;  // one value per axis
};

// Checks the axes against the scene (each names a parameter the scene has, its row and
// column exist, the grid has at most kMaxSweepPoints points; in optimize mode something
// is marked to optimise) and returns the plan.
Result<SweepPlan> make_sweep_plan(const Scene& scene, std::vector<SweepAxis> axes, SweepMode mode);

// The table's columns: "index", the axes, the results of the mode, "status".
std::vector<std::string> sweep_columns(const Scene& scene, const SweepPlan& plan);

// Identifies a sweep, so that a table is only ever resumed by the sweep that began it:
// a hash of the scene's contents, the mode and the axes.
std::string sweep_fingerprint(const Scene& scene, const SweepPlan& plan);

// One point's result: the values between "index" and "status" in column order (the axes'
// values first), and a status: "ok", in optimize mode why the optimiser stopped
// ("converged", ...), or "error: ..." when the point has no result (its values NaN).
struct SweepRow {
  int index = 0;
  std::vector<double> values;
  std::string status;

  bool has_result() const { return status.rfind("error", 0) != 0; }
};

// Evaluates the points of one plan; it owns a simulator, so each thread or worker makes
// its own.
class SweepEvaluator {
public:
  static Result<std::unique_ptr<SweepEvaluator>> create(const Scene& scene, const SweepPlan& plan,
                                                        const SimulatorOptions& options);
  SweepRow evaluate(int index);

private:
  SweepEvaluator(const Scene& scene, const SweepPlan& plan, std::unique_ptr<Simulator> simulator);
  Scene scene_;  // its parameters are each point's, checked before the rollout
  ParameterSet base_;
  SweepPlan plan_;
  std::size_t value_count_;
  std::unique_ptr<Simulator> simulator_;
};

// What a table file holds; the first line says which sweep wrote it:
//   # nudge sweep: mode=loss fingerprint=0123456789abcdef scene=../scenes/pendulum.json
// then the columns' names, then one row per point done, in the order they finished.
struct SweepTableContents {
  SweepMode mode = SweepMode::Loss;
  std::string fingerprint;
  std::filesystem::path scene;  // as written: relative to the table's folder; empty when the scene had no file
  std::vector<std::string> columns;
  std::vector<SweepRow> rows;
};

// Reads a table (complete or not). A last line left half-written by a sweep that was
// killed is ignored; anything else malformed is an error naming the line.
Result<SweepTableContents> read_sweep_table(const std::filesystem::path& path);

// The columns of a table that are the sweep's axes: those between "index" and the first
// result ("loss", or "start_loss" in optimize mode).
int sweep_axis_count(const SweepTableContents& table);

// The scene at one row of its table: the axes' values, and in optimize mode the values the
// optimiser found, written into `scene` (the table's scene), then checked.
Result<Scene> scene_at_sweep_row(const Scene& scene, const SweepTableContents& table, const SweepRow& row);

// A table being written. Each row is written whole and flushed as it is appended, so a
// sweep killed at any moment leaves every finished point in the file.
class SweepTable {
public:
  // Creates the table, or resumes it: an existing file must have been begun by the same
  // sweep (same fingerprint and columns, else an error and the file is left as it is);
  // a half-written last line is cut off and the points it holds are not run again.
  static Result<std::unique_ptr<SweepTable>> open(const std::filesystem::path& path, const Scene& scene,
                                                  const SweepPlan& plan);
  ~SweepTable();
  SweepTable(const SweepTable&) = delete;
  SweepTable& operator=(const SweepTable&) = delete;

  const std::filesystem::path& path() const { return path_; }
  int point_count() const { return point_count_; }
  int done_count() const { return done_count_; }
  std::vector<int> pending() const;  // the points not in the table, ascending
  Status append(const SweepRow& row);

private:
  SweepTable() = default;
  std::filesystem::path path_;
  std::FILE* file_ = nullptr;
  std::vector<bool> done_;
  int point_count_ = 0, done_count_ = 0, column_count_ = 0;
};

struct SweepRunOptions {
  int threads = 0;             // points evaluated at once, each on one thread; 0: every core
  SimulatorOptions simulator;  // its threads are ignored: one per point
};

// Evaluates the table's pending points on local threads, appending each row as it
// finishes; on_row (called one at a time) returns false to stop early. Returns how many
// points it added. Only a simulator that cannot be made, or a table that cannot be
// written, is an error: a point that fails is a row with an error status.
Result<int> run_sweep(const Scene& scene, const SweepPlan& plan, SweepTable& table, const SweepRunOptions& options,
                      const std::function<bool(const SweepRow&)>& on_row = {});

}  // namespace nudge
