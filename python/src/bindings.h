// What the extension's files share: the engine's errors as nudge.Error, NumPy arrays in
// and out, and parameters by name.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "nudge/parameter_facts.h"
#include "nudge/parameters.h"
#include "nudge/result.h"
#include "nudge/scene.h"

namespace nudge::python {

namespace py = pybind11;

// What the engine reads from Python: a C-ordered array of double, converted if need be.
using DoubleArray = py::array_t<double, py::array::c_style | py::array::forcecast>;

// What the engine reports, raised in Python as nudge.Error.
struct EngineError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

template <class T>
T value_or_raise(Result<T> result) {
  if (!result.ok()) throw EngineError(result.error().message);
  return std::move(*result);
}

// A NumPy array over `values` without a copy: the array owns the vector.
inline py::array_t<double> array_of(std::vector<double> values, std::vector<py::ssize_t> shape) {
  auto* owned = new std::vector<double>(std::move(values));
  py::capsule owner(owned, [](void* p) { delete static_cast<std::vector<double>*>(p); });
  return py::array_t<double>(shape, owned->data(), owner);
}

inline ParamId param_named(const std::string& name) {
  if (std::optional<ParamId> id = param_from_name(name)) return *id;
  throw EngineError("no parameter named '" + name + "'; the parameters are " + param_names_listed());
}

inline py::array_t<double> parameter_values(const Parameter& p, const std::vector<double>& values) {
  return array_of(values, {p.rows, p.cols});
}

// Writes `array` into parameter p's values, whose shape it must have (a flat array of
// rows x cols values is taken too). Nothing changes when it does not fit.
inline void set_values(Parameter& p, const DoubleArray& array) {
  const std::string name(param_name(p.id));
  const bool same_shape = array.ndim() == 2 && array.shape(0) == p.rows && array.shape(1) == p.cols;
  const bool flat = array.ndim() == 1 && array.shape(0) == p.size();
  if (!same_shape && !flat) {
    std::string got = "(";
    for (py::ssize_t k = 0; k < array.ndim(); ++k) {
      if (k > 0) got += ", ";
      got += std::to_string(array.shape(k));
    }
    throw EngineError("parameter " + name + ": expected an array of shape (" + std::to_string(p.rows) + ", " +
                      std::to_string(p.cols) + ") or " + std::to_string(p.size()) + " values, got shape " + got + ")");
  }
  p.value.assign(array.data(), array.data() + p.size());
}

// The parameters of one call: the scene's, with the given ones replaced.
inline ParameterSet parameters_with(const Scene& scene, const py::dict& changes) {
  ParameterSet p = scene.params;
  for (const auto& [key, value] : changes)
    set_values(p[param_named(py::cast<std::string>(key))], py::cast<DoubleArray>(value));
  return p;
}

// {name: dL/dvalue} of every parameter with values.
inline py::dict gradients_of(const ParameterSet& p) {
  py::dict grads;
  for (const Parameter& param : p.items)
    if (param.size() > 0) grads[py::str(std::string(param_name(param.id)))] = parameter_values(param, param.grad);
  return grads;
}

// Adds the sweeps (sweep_bindings.cpp) and the scene editor's actions (scene_edit_bindings.cpp).
void bind_sweeps(py::module_& m);
void bind_scene_edits(py::class_<Scene>& scene);

}  // namespace nudge::python
