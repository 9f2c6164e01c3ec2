// The `nudge._nudge` extension: scenes, their parameters by name, and rollouts with their
// gradients as NumPy arrays. Parameters are found by iterating the parameter facts table
// (nudge/parameter_facts.h), so a parameter a family adds is reachable from Python with no
// binding of its own. Engine errors are raised as nudge.Error with the engine's message;
// rollouts release the GIL.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "bindings.h"
#include "nudge/gradcheck.h"
#include "nudge/objective_facts.h"
#include "nudge/optimize_scene.h"
#include "nudge/parameter_facts.h"
#include "nudge/scene.h"
#include "nudge/scene_text.h"
#include "nudge/simulator.h"
#include "nudge/robot_import.h"

namespace py = pybind11;
using namespace nudge;
using namespace nudge::python;

namespace {

// The trajectory's arrays that Python reads and differentiates, in the order a weights
// objective weighs them (nudge/objective_facts.h, weights_per_step): the positions, then
// the motion's. simulate, vjp and python/nudge/{torch,jax}.py all go by this one table.
struct TrajectoryArray {
  const char* name;
  std::vector<double> Trajectory::*values;
  int (*count)(const Scene&);
  int width;
  bool motion;  // a velocity or orientation: weighed only when a cotangent of one is given
};
int particles_of(const Scene& s) { return s.particle_count(); }
int bodies_of(const Scene& s) { return s.body_count(); }
int points_of(const Scene& s) { return s.material_points.count(); }
int coordinates_of(const Scene& s) { return articulation_coordinate_count(s.articulations); }
int positions_of(const Scene& s) { return articulation_position_count(s.articulations); }
// Per entry of q or qd (count: joint_position_count or joint_velocity_count), its link.
std::vector<int> links_per_entry(const Scene& s, int (*count)(ArticulationJoint)) {
  std::vector<int> links;
  for (size_t k = 0; k < s.articulations.links.size(); ++k)
    for (int c = 0; c < count(s.articulations.links[k].joint); ++c) links.push_back(static_cast<int>(k));
  return links;
}
const TrajectoryArray kTrajectoryArrays[] = {
    {"x", &Trajectory::x, particles_of, 3, false},
    {"body_x", &Trajectory::body_x, bodies_of, 3, false},
    {"point_x", &Trajectory::point_x, points_of, 3, false},
    {"joint_q", &Trajectory::joint_q, positions_of, 1, false},
    {"v", &Trajectory::v, particles_of, 3, true},
    {"body_q", &Trajectory::body_q, bodies_of, 4, true},
    {"body_v", &Trajectory::body_v, bodies_of, 3, true},
    {"body_w", &Trajectory::body_w, bodies_of, 3, true},
    {"joint_qd", &Trajectory::joint_qd, coordinates_of, 1, true},
};
constexpr std::size_t kTrajectoryArrayCount = std::size(kTrajectoryArrays);

std::string trajectory_array_names() {
  std::string names;
  for (std::size_t k = 0; k < kTrajectoryArrayCount; ++k)
    names += std::string(k == 0 ? "" : k + 1 == kTrajectoryArrayCount ? " or " : ", ") + kTrajectoryArrays[k].name;
  return names;
}

// A simulator built for one scene, which keeps a copy of it.
class PySimulator {
public:
  PySimulator(const Scene& scene, const std::string& device, const std::string& precision, int threads)
      : scene_(scene) {
    SimulatorOptions options;
    const std::optional<Device> d = device_from_name(device);
    if (!d) throw EngineError("device '" + device + "': expected auto, cpu or cuda");
    const std::optional<Precision> p = precision_from_name(precision);
    if (!p) throw EngineError("precision '" + precision + "': expected float32 or float64");
    if (threads < 0) throw EngineError("threads " + std::to_string(threads) + ": expected 0 (all cores) or more");
    options.device = *d, options.precision = *p, options.threads = threads;
    options_ = options;
    simulator_ = value_or_raise(Simulator::create(scene_, options));
  }

  std::string device() const { return simulator_->device_name(); }
  const Scene& scene() const { return scene_; }

  double loss(const py::dict& changes) {
    const ParameterSet p = parameters_with(scene_, changes);
    Result<Evaluation> e = [&] {
      py::gil_scoped_release unlocked;
      return simulator_->evaluate(p);
    }();
    return value_or_raise(std::move(e)).loss;
  }

  // (loss, {name: dL/dvalue}) for every parameter with values.
  py::tuple gradient(const py::dict& changes) {
    ParameterSet p = parameters_with(scene_, changes);
    Result<Evaluation> e = [&] {
      py::gil_scoped_release unlocked;
      return simulator_->gradient(p);
    }();
    const double loss = value_or_raise(std::move(e)).loss;
    return py::make_tuple(loss, gradients_of(p));
  }

  // The scene's optimiser (its settings, with `iterations`, `method` and `learning_rate`
  // where given) on the parameters marked to optimise. `callback(info)` runs after each
  // iteration with the GIL held; returning False stops (reason "cancelled"), and an
  // exception it raises stops and is raised here.
  py::dict optimize(const py::object& callback, std::optional<int> iterations, std::optional<std::string> method,
                    std::optional<double> learning_rate) {
    OptimizerSettings settings = scene_.optimizer;
    if (iterations) {
      if (*iterations < 1) throw EngineError("iterations " + std::to_string(*iterations) + ": expected 1 or more");
      settings.iterations = *iterations;
    }
    if (method) {
      const std::optional<OptimizerMethod> m = method_from_name(*method);
      if (!m) throw EngineError("method '" + *method + "': expected gd, adam, lbfgs or cmaes");
      settings.method = *m;
    }
    if (learning_rate) settings.learning_rate = *learning_rate;
    if (scene_.params.optimized_size() == 0)
      throw EngineError("nothing to optimise: mark a parameter with scene.set_optimized(name)");
    ParameterSet params = scene_.params;
    std::optional<py::error_already_set> raised;
    const IterationCallback on_iteration = [&](const IterationInfo& info) {
      if (callback.is_none()) return true;
      py::gil_scoped_acquire locked;
      try {
        py::dict d;
        d["iteration"] = info.iteration, d["loss"] = info.loss, d["grad_norm"] = info.grad_norm;
        d["evaluations"] = info.evaluations;
        const py::object go_on = callback(d);
        return go_on.is_none() || go_on.cast<bool>();
      } catch (py::error_already_set& e) {
        raised = std::move(e);
        return false;
      }
    };
    Result<OptimizeResult> r = [&] {
      py::gil_scoped_release unlocked;
      return optimize_parameters(*simulator_, params, settings, on_iteration);
    }();
    if (raised) throw std::move(*raised);
    const OptimizeResult result = value_or_raise(std::move(r));
    py::dict out, found;
    for (const Parameter& p : params.items)
      if (p.optimize && p.size() > 0) found[py::str(std::string(param_name(p.id)))] = parameter_values(p, p.value);
    out["parameters"] = found;
    out["loss"] = result.loss;
    out["loss_history"] = result.loss_history;
    out["grad_norm_history"] = result.grad_norm_history;
    out["iterations"] = result.iterations;
    out["evaluations"] = result.evaluations;
    out["reason"] = std::string(stop_reason_name(result.reason));
    return out;
  }

  // The vector-Jacobian product of the trajectory: {name: sum over steps of cotangent .
  // d(state)/d(value)} for every parameter with values, given cotangents of the arrays
  // simulate returns ("x", "v", "body_x", "body_q", "body_v", "body_w", "point_x"; a
  // missing one is 0). It is the gradient of a `weights` objective (engine/src/objectives/
  // weights_term.cpp) in place of the scene's objectives, run on a simulator made for it;
  // its weights cover the motion's arrays only when a cotangent of one is given.
  py::dict vjp(const py::dict& cotangents, const py::dict& changes) {
    const int frames = scene_.settings.steps + 1;
    std::optional<DoubleArray> given[kTrajectoryArrayCount];  // a missing cotangent is 0
    bool motion = false;
    for (const auto& [key, value] : cotangents) {
      const std::string name = py::cast<std::string>(key);
      std::size_t k = 0;
      while (k < kTrajectoryArrayCount && name != kTrajectoryArrays[k].name) ++k;
      if (k == kTrajectoryArrayCount)
        throw EngineError("cotangent '" + name + "': expected " + trajectory_array_names());
      const TrajectoryArray& array = kTrajectoryArrays[k];
      const int count = array.count(scene_);
      DoubleArray a = py::cast<DoubleArray>(value);
      if (a.ndim() != 3 || a.shape(0) != frames || a.shape(1) != count || a.shape(2) != array.width)
        throw EngineError("cotangent " + name + ": expected shape (" + std::to_string(frames) + ", " +
                          std::to_string(count) + ", " + std::to_string(array.width) + ")");
      motion = motion || array.motion;
      given[k] = std::move(a);
    }
    Objective weights;
    weights.type = ObjectiveType::Weights;
    const std::size_t per_step = weights_per_step(scene_, motion);
    weights.target.assign(std::size_t(frames) * per_step, 0.0);
    for (int t = 0; t < frames; ++t) {
      double* w = weights.target.data() + std::size_t(t) * per_step;
      for (std::size_t k = 0; k < kTrajectoryArrayCount; ++k) {
        const TrajectoryArray& array = kTrajectoryArrays[k];
        if (array.motion && !motion) break;
        const std::size_t size = std::size_t(array.count(scene_) * array.width);
        if (given[k]) std::copy_n(given[k]->data() + std::size_t(t) * size, size, w);
        w += size;
      }
    }
    Scene linear = scene_;
    linear.params = parameters_with(scene_, changes);
    linear.objectives = {std::move(weights)};
    ParameterSet params = linear.params;
    Result<Evaluation> e = [&] {
      py::gil_scoped_release unlocked;
      Result<std::unique_ptr<Simulator>> sim = Simulator::create(linear, options_);
      if (!sim.ok()) return Result<Evaluation>(sim.error());
      return (*sim)->gradient(params);
    }();
    (void)value_or_raise(std::move(e));
    return gradients_of(params);
  }

  // Every state of a rollout: arrays of (steps + 1) x count x width, by name.
  py::dict simulate(const py::dict& changes) {
    const ParameterSet p = parameters_with(scene_, changes);
    Result<Trajectory> r = [&] {
      py::gil_scoped_release unlocked;
      return simulator_->trajectory(p);
    }();
    Trajectory t = value_or_raise(std::move(r));
    const py::ssize_t frames = t.steps + 1;
    py::dict out;
    out["steps"] = t.steps;
    out["dt"] = t.dt;
    for (const TrajectoryArray& array : kTrajectoryArrays)
      out[array.name] = array_of(std::move(t.*array.values), {frames, array.count(scene_), array.width});
    out["vessel_angle"] = array_of(std::move(t.vessel_angle), {frames, t.vessels});
    return out;
  }

private:
  Scene scene_;
  SimulatorOptions options_;
  std::unique_ptr<Simulator> simulator_;
};

}  // namespace

PYBIND11_MODULE(_nudge, m) {
  m.doc() = "Nudge's differentiable physics engine (the compiled part of the nudge package)";
  py::register_exception<EngineError>(m, "Error");

  py::class_<Scene> scene_class(m, "Scene", "A scene: what is simulated, its parameters and its objectives");
  scene_class.def_readwrite("name", &Scene::name)
      .def_readwrite("description", &Scene::description)
      .def_property(
          "steps", [](const Scene& s) { return s.settings.steps; },
          [](Scene& s, int steps) {
            Scene changed = s;
            changed.settings.steps = steps;
            shape_parameters(changed);  // per-step parameters follow the length
            (void)value_or_raise(check_scene(changed));
            s = std::move(changed);
          },
          "the number of steps; per-step parameters (controls) are resized to it")
      .def_property_readonly("dt", [](const Scene& s) { return s.settings.dt; })
      .def_property_readonly("particle_count", &Scene::particle_count)
      .def_property_readonly("body_count", &Scene::body_count)
      .def_property_readonly("point_count", [](const Scene& s) { return s.material_points.count(); })
      .def(
          "parameter_names",
          [](const Scene&) {
            std::vector<std::string> names;
            for (int k = 0; k < kParamCount; ++k) names.emplace_back(param_name(ParamId(k)));
            return names;
          },
          "every parameter's name, as in scene files")
      .def(
          "parameter",
          [](const Scene& s, const std::string& name) {
            const Parameter& p = s.params[param_named(name)];
            return parameter_values(p, p.value);
          },
          py::arg("name"), "a copy of the parameter's values, rows x cols")
      .def(
          "set_parameter",
          [](Scene& s, const std::string& name, const DoubleArray& values) {
            Scene changed = s;
            set_values(changed.params[param_named(name)], values);
            (void)value_or_raise(check_scene(changed));  // a value the scene cannot take changes nothing
            s = std::move(changed);
          },
          py::arg("name"), py::arg("values"), "replace the parameter's values (same shape)")
      .def(
          "set_optimized",
          [](Scene& s, const std::string& name, bool optimize, std::optional<double> lower,
             std::optional<double> upper) {
            Parameter& p = s.params[param_named(name)];
            const double lo = lower.value_or(p.lower), hi = upper.value_or(p.upper);
            if (!(lo <= hi)) throw EngineError("parameter " + name + ": lower bound above the upper");
            p.optimize = optimize, p.lower = lo, p.upper = hi;
          },
          py::arg("name"), py::arg("optimize") = true, py::arg("lower") = py::none(), py::arg("upper") = py::none(),
          "mark a parameter (all its rows) to optimise, within bounds")
      .def(
          "optimized",
          [](const Scene& s) {
            std::vector<std::string> names;
            for (const Parameter& p : s.params.items)
              if (p.optimize) names.emplace_back(param_name(p.id));
            return names;
          },
          "the names of the parameters marked to optimise")
      .def(
          "save", [](const Scene& s, const std::filesystem::path& path) { (void)value_or_raise(save_scene(s, path)); },
          py::arg("path"), "write the scene file (atomically: a failed save leaves the old file)")
      .def_property_readonly(
          "source", [](const Scene& s) { return s.source; }, "the file it was loaded from (empty if built in code)")
      .def_property_readonly(
          "link_names",
          [](const Scene& s) {
            std::vector<std::string> names;
            for (const ArticulationLink& l : s.articulations.links) names.push_back(l.name);
            return names;
          },
          "the articulations' links, in order (the rows of the link_* parameters)")
      .def_property_readonly(
          "joint_links", [](const Scene& s) { return links_per_entry(s, joint_velocity_count); },
          "per entry of qd (simulate's joint_qd), the link whose joint it is")
      .def_property_readonly(
          "joint_position_links", [](const Scene& s) { return links_per_entry(s, joint_position_count); },
          "per entry of q (simulate's joint_q), the link whose joint it is: a hinge or slide has one, a ball 4 "
          "(its rotation x, y, z, w), a free joint 7 (translation, then rotation)")
      .def("to_json", &scene_json_text, "the scene file's JSON text (paths relative to its source's folder)")
      .def("__repr__", [](const Scene& s) {
        return "<nudge.Scene '" + s.name + "': " + std::to_string(s.particle_count()) + " particles, " +
               std::to_string(s.body_count()) + " bodies, " + std::to_string(s.material_points.count()) +
               " material points, " + std::to_string(s.settings.steps) + " steps>";
      });
  bind_scene_edits(scene_class);

  m.def(
      "load_scene", [](const std::filesystem::path& path) { return value_or_raise(load_scene(path)); }, py::arg("path"),
      "read a scene file (JSON); errors say where");
  m.def(
      "import_robot",
      [](const std::filesystem::path& path, int steps) {
        if (steps < 1 || steps > kMaxSteps)
          throw EngineError("steps " + std::to_string(steps) + ": expected 1 or more");
        ImportedRobot robot = value_or_raise(import_robot(path));
        return robot_scene(robot, path.string(), steps);
      },
      py::arg("path"), py::arg("steps") = 1000,
      "a scene of the robot in an MJCF or URDF file (its links, joints, actuators and time step; z up turned to y up)");
  m.def(
      "parse_scene",
      [](const std::string& text, const std::filesystem::path& source) {
        return value_or_raise(parse_scene(text, source));
      },
      py::arg("text"), py::arg("source") = std::filesystem::path(), "a scene from JSON text");

  m.def(
      "gradcheck",
      [](const Scene& scene, const std::vector<std::string>& parameters, int samples, int threads) {
        GradCheckOptions options;
        for (const std::string& name : parameters) options.parameters.push_back(param_named(name));
        if (samples < 1) throw EngineError("samples " + std::to_string(samples) + ": expected 1 or more");
        options.samples_per_parameter = samples;
        options.threads = threads;
        Result<GradCheckReport> r = [&] {
          py::gil_scoped_release unlocked;
          return gradient_check(scene, options);
        }();
        const GradCheckReport report = value_or_raise(std::move(r));
        py::list entries;
        for (const GradCheckEntry& e : report.entries) {
          py::dict d;
          d["parameter"] = std::string(param_name(e.param)), d["index"] = e.index, d["value"] = e.value;
          d["adjoint"] = e.adjoint, d["finite_difference"] = e.finite_difference;
          d["relative_error"] = e.relative_error, d["uncertainty"] = e.uncertainty;
          d["verifiable"] = e.verifiable, d["passed"] = e.passed;
          entries.append(d);
        }
        return entries;
      },
      py::arg("scene"), py::arg("parameters") = std::vector<std::string>{}, py::arg("samples") = 6,
      py::arg("threads") = 1,
      "the adjoint of sampled entries against central differences in double: one dict per entry");

  py::class_<PySimulator>(m, "Simulator", "Runs a scene forward and backward")
      .def(py::init<const Scene&, const std::string&, const std::string&, int>(), py::arg("scene"),
           py::arg("device") = "auto", py::arg("precision") = "float64", py::arg("threads") = 0)
      .def_property_readonly("device", &PySimulator::device)
      .def_property_readonly(
          "scene", [](const PySimulator& sim) { return Scene(sim.scene()); }, "a copy of the scene it was made for")
      .def("loss", &PySimulator::loss, py::arg("parameters") = py::dict(),
           "the loss of one rollout; `parameters` replaces some of the scene's values by name")
      .def("gradient", &PySimulator::gradient, py::arg("parameters") = py::dict(),
           "(loss, {name: dL/dvalue}) of one rollout and its adjoint")
      .def("optimize", &PySimulator::optimize, py::arg("callback") = py::none(), py::arg("iterations") = py::none(),
           py::arg("method") = py::none(), py::arg("learning_rate") = py::none(),
           "run the scene's optimiser; returns the parameters found, the loss history and why it stopped")
      .def("vjp", &PySimulator::vjp, py::arg("cotangents"), py::arg("parameters") = py::dict(),
           "{name: cotangent . d(trajectory)/d(value)}, given cotangents of simulate's arrays (x, v, body_x, "
           "body_q, body_v, body_w, point_x, joint_q, joint_qd; a missing one is 0)")
      .def(
          "trajectory_shapes",
          [](const PySimulator& sim) {
            const Scene& scene = sim.scene();
            py::dict shapes;  // in the table's order, which Python dicts keep
            for (const TrajectoryArray& array : kTrajectoryArrays)
              shapes[array.name] = py::make_tuple(scene.settings.steps + 1, array.count(scene), array.width);
            return shapes;
          },
          "{name: (steps + 1, count, width)} of the arrays simulate returns and vjp differentiates")
      .def("simulate", &PySimulator::simulate, py::arg("parameters") = py::dict(),
           "every state of one rollout as arrays of (steps + 1) x count x width");
  bind_sweeps(m);
}
