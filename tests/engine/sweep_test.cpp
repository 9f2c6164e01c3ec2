// Parameter sweeps (nudge/sweep.h): axes read from the command line's text, the grid's
// order, each mode's row against the simulator it stands for (the gradient mode's
// derivative against central differences), the table written, resumed after a kill that
// left half a row, refused to another sweep, and a threaded run equal to a serial one.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "../source_dir.h"
#include "central_difference.h"
#include "nudge/sweep.h"
#include "temp_dir.h"

using namespace nudge;

namespace {

// A rod's length fitted to a track (1500 steps of one particle: about a millisecond).
Scene pendulum() {
  Result<Scene> scene = load_scene(test::source_dir() / "scenes" / "pendulum_length.json");
  REQUIRE_MESSAGE(scene.ok(), (scene.ok() ? std::string() : scene.error().message));
  return std::move(scene).value();
}

SweepAxis axis(const std::string& spec) {
  Result<SweepAxis> a = parse_sweep_axis(spec);
  REQUIRE_MESSAGE(a.ok(), (a.ok() ? std::string() : a.error().message));
  return *a;
}

SweepPlan plan_of(const Scene& scene, std::vector<std::string> specs, SweepMode mode = SweepMode::Loss) {
  std::vector<SweepAxis> axes;
  for (const std::string& s : specs) axes.push_back(axis(s));
  Result<SweepPlan> plan = make_sweep_plan(scene, axes, mode);
  REQUIRE_MESSAGE(plan.ok(), (plan.ok() ? std::string() : plan.error().message));
  return *plan;
}

std::string error_of(const std::string& spec) {
  Result<SweepAxis> a = parse_sweep_axis(spec);
  REQUIRE_FALSE(a.ok());
  return a.error().message;
}

std::string text_of(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

std::vector<SweepRow> sorted_rows(const std::filesystem::path& table) {
  Result<SweepTableContents> contents = read_sweep_table(table);
  REQUIRE_MESSAGE(contents.ok(), (contents.ok() ? std::string() : contents.error().message));
  std::vector<SweepRow> rows = contents->rows;
  std::sort(rows.begin(), rows.end(), [](const SweepRow& a, const SweepRow& b) { return a.index < b.index; });
  return rows;
}

void require_same_rows(const std::vector<SweepRow>& a, const std::vector<SweepRow>& b) {
  REQUIRE(a.size() == b.size());
  for (std::size_t k = 0; k < a.size(); ++k) {
    CHECK(a[k].index == b[k].index);
    CHECK(a[k].status == b[k].status);
    REQUIRE(a[k].values.size() == b[k].values.size());
    for (std::size_t j = 0; j < a[k].values.size(); ++j) CHECK(a[k].values[j] == b[k].values[j]);  // same bits
  }
}

std::unique_ptr<SweepEvaluator> evaluator(const Scene& scene, const SweepPlan& plan) {
  SimulatorOptions options;
  options.device = Device::Cpu, options.threads = 1;
  Result<std::unique_ptr<SweepEvaluator>> e = SweepEvaluator::create(scene, plan, options);
  REQUIRE_MESSAGE(e.ok(), (e.ok() ? std::string() : e.error().message));
  return std::move(*e);
}

}  // namespace

TEST_CASE("sweep: axes read from their text, with what is wrong said") {
  const SweepAxis whole = axis("stiffness=10:100:20");
  CHECK(whole.param == ParamId::Stiffness);
  CHECK((whole.row == -1 && whole.col == -1 && whole.count == 20));
  CHECK(whole.value(0) == 10.0);
  CHECK(whole.value(19) == 100.0);  // both ends exactly
  CHECK(whole.value(1) == doctest::Approx(10.0 + 90.0 / 19));
  const SweepAxis entry = axis("initial_velocity[1,2]=-1:1:3");
  CHECK((entry.row == 1 && entry.col == 2 && entry.label == "initial_velocity[1,2]"));
  const SweepAxis one = axis("body_density[0]=500");
  CHECK((one.count == 1 && one.from == 500 && one.to == 500 && one.row == 0 && one.col == -1));

  CHECK(error_of("stiffness").find("expected name=from:to:count") != std::string::npos);
  CHECK(error_of("stifness=1:2:3").find("no parameter named 'stifness'") != std::string::npos);
  CHECK(error_of("stiffness=1:2").find("expected from:to:count") != std::string::npos);
  CHECK(error_of("stiffness=1:x:3").find("expected from:to:count") != std::string::npos);
  CHECK(error_of("stiffness=1:2:0").find("count 0 must be 1 or more") != std::string::npos);
  CHECK(error_of("stiffness=1:2:1").find("give a count of 2 or more") != std::string::npos);
  CHECK(error_of("stiffness=nan").find("finite number") != std::string::npos);
  CHECK(error_of("stiffness[a]=1").find("a row (and a column) counted from 0") != std::string::npos);
  CHECK(error_of("stiffness[1=1").find("expected ']'") != std::string::npos);
}

TEST_CASE("sweep: a plan is checked against its scene, and its grid runs the last axis fastest") {
  const Scene scene = pendulum();
  const SweepPlan plan = plan_of(scene, {"rest_length=0.5:1:3", "gravity[0,1]=-10:-9:2"});
  CHECK(plan.point_count() == 6);
  CHECK(plan.point(0) == std::vector<double>{0.5, -10});
  CHECK(plan.point(1) == std::vector<double>{0.5, -9});
  CHECK(plan.point(5) == std::vector<double>{1.0, -9});
  CHECK(sweep_columns(scene, plan) ==
        std::vector<std::string>{"index", "rest_length", "gravity[0,1]", "loss", "status"});

  const auto refused = [&](std::vector<std::string> specs, SweepMode mode = SweepMode::Loss) {
    std::vector<SweepAxis> axes;
    for (const std::string& s : specs) axes.push_back(axis(s));
    Result<SweepPlan> p = make_sweep_plan(scene, axes, mode);
    REQUIRE_FALSE(p.ok());
    return p.error().message;
  };
  CHECK(refused({"rest_length[1]=1:2:3"}).find("row 1 does not exist; the scene has 1 rows") != std::string::npos);
  CHECK(refused({"gravity[0,3]=1"}).find("column 3 does not exist") != std::string::npos);
  CHECK(refused({"body_density=1:2:3"}).find("the scene has no body_density") != std::string::npos);
  CHECK(refused({"rest_length=1:2:3", "rest_length=1:2:3"}).find("given twice") != std::string::npos);
  CHECK(refused({"rest_length=1:2:4000", "gravity[0,1]=1:2:4000"}).find("more than") != std::string::npos);
  Scene nothing_marked = scene;
  nothing_marked.params[ParamId::RestLength].optimize = false;
  Result<SweepPlan> p = make_sweep_plan(nothing_marked, {axis("rest_length=1:2:3")}, SweepMode::Optimize);
  REQUIRE_FALSE(p.ok());
  CHECK(p.error().message.find("marks no parameter to optimise") != std::string::npos);
}

TEST_CASE("sweep: each mode's row is what the simulator gives at the point") {
  const Scene scene = pendulum();
  SimulatorOptions options;
  options.device = Device::Cpu, options.threads = 1;
  auto sim = Simulator::create(scene, options);
  REQUIRE(sim.ok());

  SUBCASE("loss") {
    const SweepPlan plan = plan_of(scene, {"rest_length=0.6:0.9:4"});
    auto e = evaluator(scene, plan);
    const SweepRow row = e->evaluate(2);
    ParameterSet p = scene.params;
    p[ParamId::RestLength].value = {0.8};
    CHECK(row.status == "ok");
    CHECK(row.values == std::vector<double>{0.8, (*sim)->evaluate(p)->loss});
  }
  SUBCASE("gradient: the derivative along each axis against central differences") {
    const SweepPlan plan = plan_of(scene, {"rest_length=0.7", "gravity[0,1]=-9.5"}, SweepMode::Gradient);
    CHECK(sweep_columns(scene, plan).at(4) == "dloss/drest_length");
    auto e = evaluator(scene, plan);
    const SweepRow row = e->evaluate(0);
    REQUIRE(row.values.size() == 5);
    ParameterSet p = scene.params;
    p[ParamId::RestLength].value = {0.7};
    p[ParamId::Gravity].value[1] = -9.5;
    const auto loss = [&] { return (*sim)->evaluate(p)->loss; };
    CHECK(row.values[2] == loss());
    const double d_length = test::central_difference(p[ParamId::RestLength].value[0], loss, 1e-6);
    const double d_gravity = test::central_difference(p[ParamId::Gravity].value[1], loss, 1e-5);
    CHECK(row.values[3] == doctest::Approx(d_length).epsilon(1e-6));
    CHECK(row.values[4] == doctest::Approx(d_gravity).epsilon(1e-6));
  }
  SUBCASE("optimize: each start finds the length the track was made with") {
    const SweepPlan plan = plan_of(scene, {"rest_length=0.6:1.1:3"}, SweepMode::Optimize);
    const std::vector<std::string> columns = sweep_columns(scene, plan);
    CHECK(columns == std::vector<std::string>{"index", "rest_length", "start_loss", "loss", "iterations", "evaluations",
                                              "found:rest_length", "status"});
    auto e = evaluator(scene, plan);
    for (int k = 0; k < 3; ++k) {
      const SweepRow row = e->evaluate(k);
      INFO("start " << row.values[0] << ": " << row.status);
      CHECK(row.has_result());
      CHECK(row.values[2] < row.values[1]);
      CHECK(row.values[5] == doctest::Approx(0.8).epsilon(1e-5));
    }
  }
  SUBCASE("a value the scene cannot take is a row without a result, not a failed sweep") {
    const SweepPlan plan = plan_of(scene, {"mass[1]=-1:1:2"});
    auto e = evaluator(scene, plan);
    const SweepRow bad = e->evaluate(0);
    CHECK_FALSE(bad.has_result());
    CHECK(bad.status.find("error: ") == 0);
    CHECK(bad.status.find("mass") != std::string::npos);
    REQUIRE(bad.values.size() == 2);
    CHECK(bad.values[0] == -1);
    CHECK(std::isnan(bad.values[1]));
    CHECK(e->evaluate(1).status == "ok");  // the evaluator goes on
  }
}

TEST_CASE("sweep: a row of the table is a scene again, with the found values in optimize mode") {
  test::TempDir dir("sweep-row");
  const Scene scene = pendulum();
  const SweepPlan plan = plan_of(scene, {"rest_length=0.6:1.1:3", "gravity[0,1]=-9.81"}, SweepMode::Optimize);
  auto table = SweepTable::open(dir.path / "starts.csv", scene, plan);
  REQUIRE(table.ok());
  SweepRunOptions options;
  options.threads = 1;
  REQUIRE(run_sweep(scene, plan, **table, options).ok());
  Result<SweepTableContents> contents = read_sweep_table(dir.path / "starts.csv");
  REQUIRE(contents.ok());
  CHECK(sweep_axis_count(*contents) == 2);
  const SweepRow& row = contents->rows.at(0);
  Result<Scene> at = scene_at_sweep_row(scene, *contents, row);
  REQUIRE_MESSAGE(at.ok(), (at.ok() ? std::string() : at.error().message));
  CHECK(at->params[ParamId::RestLength].value[0] == row.values[6]);  // found:rest_length, not the start
  CHECK(at->params[ParamId::Gravity].value[1] == -9.81);
  // The scene the table was written from: its fingerprint's scene path, relative to the table.
  CHECK((dir.path / contents->scene).lexically_normal() ==
        (test::source_dir() / "scenes" / "pendulum_length.json").lexically_normal());

  Result<Scene> other = load_scene(test::source_dir() / "scenes" / "projectile.json");  // no springs
  REQUIRE(other.ok());
  Result<Scene> wrong = scene_at_sweep_row(*other, *contents, row);
  REQUIRE_FALSE(wrong.ok());
  CHECK(wrong.error().message.find("not this table's scene?") != std::string::npos);
}

TEST_CASE("sweep: the table is written as points finish, and a stopped sweep resumes to the serial run's table") {
  test::TempDir dir("sweep");
  const Scene scene = pendulum();
  const SweepPlan plan = plan_of(scene, {"rest_length=0.6:1:5", "damping=10:30:3"}, SweepMode::Gradient);
  SweepRunOptions serial;
  serial.threads = 1;

  auto open = [&](const std::filesystem::path& path) {
    Result<std::unique_ptr<SweepTable>> t = SweepTable::open(path, scene, plan);
    REQUIRE_MESSAGE(t.ok(), (t.ok() ? std::string() : t.error().message));
    return std::move(*t);
  };
  const auto serial_table = dir.path / "serial.csv";
  {
    auto table = open(serial_table);
    Result<int> added = run_sweep(scene, plan, *table, serial);
    REQUIRE(added.ok());
    CHECK(*added == 15);
  }
  const std::vector<SweepRow> expected = sorted_rows(serial_table);
  REQUIRE(expected.size() == 15);
  for (int k = 0; k < 15; ++k) CHECK(expected[std::size_t(k)].index == k);

  SUBCASE("on threads: the same rows, to the bit") {
    const auto threaded = dir.path / "threads.csv";
    auto table = open(threaded);
    SweepRunOptions options;
    options.threads = 3;
    REQUIRE(run_sweep(scene, plan, *table, options).ok());
    require_same_rows(sorted_rows(threaded), expected);
  }
  SUBCASE("stopped, killed mid-row, then resumed") {
    const auto stopped = dir.path / "stopped.csv";
    {
      auto table = open(stopped);
      int seen = 0;
      Result<int> added = run_sweep(scene, plan, *table, serial, [&](const SweepRow&) { return ++seen < 6; });
      REQUIRE(added.ok());
      CHECK(*added == 6);
    }
    // A kill in the middle of writing the next row leaves part of it.
    const std::string whole = text_of(stopped);
    std::ofstream(stopped, std::ios::app) << "7,0.80000000000000004,1";
    {
      auto table = open(stopped);
      CHECK(table->done_count() == 6);
      CHECK(table->pending().size() == 9);
      CHECK(text_of(stopped) == whole);  // the half row is cut off
      Result<int> added = run_sweep(scene, plan, *table, serial);
      REQUIRE(added.ok());
      CHECK(*added == 9);
    }
    require_same_rows(sorted_rows(stopped), expected);
    auto again = open(stopped);
    CHECK(again->pending().empty());
  }
  SUBCASE("another sweep's table is refused and left as it is") {
    const std::string before = text_of(serial_table);
    const SweepPlan other = plan_of(scene, {"rest_length=0.6:1:6", "damping=10:30:3"}, SweepMode::Gradient);
    Result<std::unique_ptr<SweepTable>> t = SweepTable::open(serial_table, scene, other);
    REQUIRE_FALSE(t.ok());
    CHECK(t.error().message.find("begun by another sweep") != std::string::npos);
    Scene stiffer = scene;
    stiffer.params[ParamId::Stiffness].value[0] *= 2;
    t = SweepTable::open(serial_table, stiffer, plan);
    REQUIRE_FALSE(t.ok());
    CHECK(text_of(serial_table) == before);
  }
  SUBCASE("a damaged table is an error naming its line") {
    const auto damaged = dir.path / "damaged.csv";
    std::string text = text_of(serial_table);
    const std::size_t third_row = text.find('\n', text.find('\n', text.find("\n0,") + 1) + 1);
    text.insert(third_row + 1, "3,abc,1,2,3,4,ok\n");
    std::ofstream(damaged, std::ios::binary) << text;
    Result<SweepTableContents> read = read_sweep_table(damaged);
    REQUIRE_FALSE(read.ok());
    CHECK(read.error().message.find("damaged.csv:5: column rest_length: 'abc' is not a number") != std::string::npos);
    std::ofstream(damaged, std::ios::binary) << "index,loss\n";
    read = read_sweep_table(damaged);
    REQUIRE_FALSE(read.ok());
    CHECK(read.error().message.find("not a sweep table") != std::string::npos);
  }
}
