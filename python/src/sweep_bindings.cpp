// The sweeps (nudge/sweep.h) in Python: the plan, its table and its evaluator, which
// python/nudge/parameter_sweep.py drives on local threads or, batches at a time, on Ray's
// workers.
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <algorithm>
#include <optional>

#include "bindings.h"
#include "nudge/sweep.h"

namespace nudge::python {

namespace {

SweepPlan sweep_plan_of(const Scene& scene, const std::vector<std::string>& specs, const std::string& mode) {
  const std::optional<SweepMode> m = sweep_mode_from_name(mode);
  if (!m) throw EngineError("sweep mode '" + mode + "': expected loss, gradient or optimize");
  std::vector<SweepAxis> axes;
  for (const std::string& spec : specs) axes.push_back(value_or_raise(parse_sweep_axis(spec)));
  return value_or_raise(make_sweep_plan(scene, std::move(axes), *m));
}

SimulatorOptions cpu_options(const std::string& precision) {
  const std::optional<Precision> p = precision_from_name(precision);
  if (!p) throw EngineError("precision '" + precision + "': expected float32 or float64");
  SimulatorOptions options;
  options.device = Device::Cpu, options.precision = *p, options.threads = 1;
  return options;
}

// A row as Python sees it: (index, values, status), which pickles across Ray.
py::tuple row_tuple(const SweepRow& row) { return py::make_tuple(row.index, row.values, row.status); }

SweepRow row_of(int index, std::vector<double> values, std::string status) {
  SweepRow row;
  row.index = index, row.values = std::move(values), row.status = std::move(status);
  return row;
}

// A table read back: {column: array} ordered by point, with "status" a list of str, and
// the sweep's mode and scene.
py::dict table_dict(const SweepTableContents& contents) {
  std::vector<SweepRow> rows = contents.rows;
  std::sort(rows.begin(), rows.end(), [](const SweepRow& a, const SweepRow& b) { return a.index < b.index; });
  py::dict out;
  std::vector<double> index;
  for (const SweepRow& r : rows) index.push_back(r.index);
  out["index"] = array_of(std::move(index), {py::ssize_t(rows.size())});
  for (std::size_t c = 1; c + 1 < contents.columns.size(); ++c) {
    std::vector<double> column;
    for (const SweepRow& r : rows) column.push_back(r.values[c - 1]);
    out[py::str(contents.columns[c])] = array_of(std::move(column), {py::ssize_t(rows.size())});
  }
  py::list status;
  for (const SweepRow& r : rows) status.append(r.status);
  out["status"] = status;
  return out;
}

}  // namespace

void bind_sweeps(py::module_& m) {
  py::class_<SweepPlan>(m, "SweepPlan", "A grid of points over a scene's parameters (nudge sweep's --param)")
      .def(py::init(&sweep_plan_of), py::arg("scene"), py::arg("params"), py::arg("mode") = "loss")
      .def_property_readonly("point_count", &SweepPlan::point_count)
      .def_property_readonly("mode", [](const SweepPlan& p) { return std::string(sweep_mode_name(p.mode)); })
      .def("point", &SweepPlan::point, py::arg("index"), "the axes' values at a point")
      .def(
          "columns", [](const SweepPlan& p, const Scene& scene) { return sweep_columns(scene, p); }, py::arg("scene"),
          "the table's columns")
      .def(
          "fingerprint", [](const SweepPlan& p, const Scene& scene) { return sweep_fingerprint(scene, p); },
          py::arg("scene"), "what a table's first line names the sweep by");

  py::class_<SweepEvaluator>(m, "SweepEvaluator", "Evaluates a plan's points on one CPU thread")
      .def(py::init([](const Scene& scene, const SweepPlan& plan, const std::string& precision) {
             return value_or_raise(SweepEvaluator::create(scene, plan, cpu_options(precision)));
           }),
           py::arg("scene"), py::arg("plan"), py::arg("precision") = "float64")
      .def(
          "evaluate",
          [](SweepEvaluator& e, int index) {
            SweepRow row = [&] {
              py::gil_scoped_release unlocked;
              return e.evaluate(index);
            }();
            return row_tuple(row);
          },
          py::arg("index"), "(index, values, status) of one point");

  py::class_<SweepTable>(m, "SweepTable", "A sweep's CSV table, created or resumed")
      .def(py::init([](const std::filesystem::path& path, const Scene& scene, const SweepPlan& plan) {
             return value_or_raise(SweepTable::open(path, scene, plan));
           }),
           py::arg("path"), py::arg("scene"), py::arg("plan"))
      .def_property_readonly("point_count", &SweepTable::point_count)
      .def_property_readonly("done_count", &SweepTable::done_count)
      .def("pending", &SweepTable::pending, "the points not in the table yet")
      .def(
          "append",
          [](SweepTable& t, int index, std::vector<double> values, std::string status) {
            (void)value_or_raise(t.append(row_of(index, std::move(values), std::move(status))));
          },
          py::arg("index"), py::arg("values"), py::arg("status"), "write one row (flushed)");

  m.def(
      "run_sweep",
      [](const Scene& scene, const SweepPlan& plan, SweepTable& table, int threads, const std::string& precision,
         const py::object& on_row) {
        SweepRunOptions options;
        options.threads = threads, options.simulator = cpu_options(precision);
        std::optional<py::error_already_set> raised;
        const auto called = [&](const SweepRow& row) {
          if (on_row.is_none()) return true;
          py::gil_scoped_acquire locked;
          try {
            const py::object go_on = on_row(row_tuple(row));
            return go_on.is_none() || go_on.cast<bool>();
          } catch (py::error_already_set& e) {
            raised = std::move(e);
            return false;
          }
        };
        Result<int> added = [&] {
          py::gil_scoped_release unlocked;
          return run_sweep(scene, plan, table, options, called);
        }();
        if (raised) throw std::move(*raised);
        return value_or_raise(std::move(added));
      },
      py::arg("scene"), py::arg("plan"), py::arg("table"), py::arg("threads") = 0, py::arg("precision") = "float64",
      py::arg("on_row") = py::none(), "the table's pending points on local threads; returns how many it added");

  m.def(
      "read_sweep_table",
      [](const std::filesystem::path& path) {
        const SweepTableContents contents = value_or_raise(read_sweep_table(path));
        py::dict out;
        out["columns"] = table_dict(contents);
        out["mode"] = std::string(sweep_mode_name(contents.mode));
        out["scene"] = contents.scene;
        out["fingerprint"] = contents.fingerprint;
        return out;
      },
      py::arg("path"), "a sweep's table: {columns: {name: array by point}, mode, scene, fingerprint}");
}

}  // namespace nudge::python
