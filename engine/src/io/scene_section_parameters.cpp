// The "parameters" section (which parameters, and which of their rows, are optimised,
// within which bounds) and the "optimizer" settings: how each is read from a scene
// file, written back and checked. check_parameters also checks every parameter's shape
// and values, wherever in the file they are written.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "io/scene_section.h"
#include "io/scene_sections.h"
#include "nudge/parameter_facts.h"

namespace nudge::scene_io {

// ---- Reading ----------------------------------------------------------------------

void SceneReader::read_parameters(const Node& node, Scene& scene) const {
  if (!node.json.is_object()) fail_found(node, "an object of parameter names");
  for (const auto& [name, value] : node.json.items()) {
    const Node entry{value, member_path(node.path, name)};
    const std::optional<ParamId> id = param_from_name(name);
    if (!id) {
      std::vector<std::string_view> names;
      for (int i = 0; i < kParamCount; ++i) names.push_back(param_name(static_cast<ParamId>(i)));
      fail(entry.path, "unknown parameter '" + printable_excerpt(name) + "'" + did_you_mean(name, names) +
                           "; expected one of: " + join(names));
    }
    expect_object(entry, {"optimize", "rows", "lower", "upper"});
    Parameter& p = scene.params[*id];
    if (auto optimize = optional(entry, "optimize")) p.optimize = boolean(*optimize);
    if (auto rows = optional(entry, "rows")) {
      const std::string expected = "an array of distinct row indices in [0, " + std::to_string(p.rows) +
                                   ") (the bodies, particles or joints to optimise)";
      if (!rows->json.is_array() || rows->json.empty()) fail_found(*rows, expected);
      for (std::size_t k = 0; k < rows->size(); ++k) {
        if (p.rows == 0) fail_found(rows->element(k), expected);
        const int row = static_cast<int>(integer(rows->element(k), 0, p.rows - 1, expected));
        if (std::find(p.optimize_rows.begin(), p.optimize_rows.end(), row) != p.optimize_rows.end())
          fail_found(rows->element(k), expected);
        p.optimize_rows.push_back(row);
      }
      std::sort(p.optimize_rows.begin(), p.optimize_rows.end());
    }
    if (auto lower = optional(entry, "lower")) p.lower = number(*lower, "a finite lower bound");
    if (auto upper = optional(entry, "upper")) p.upper = number(*upper, "a finite upper bound");
    if (p.lower > p.upper)
      fail(entry.path,
           "found lower " + number_text(p.lower) + " > upper " + number_text(p.upper) + "; expected lower <= upper");
  }
}

void SceneReader::read_optimizer(const Node& node, OptimizerSettings& o) const {
  expect_object(node, {"method", "iterations", "learning_rate", "momentum", "beta1", "beta2", "epsilon", "history",
                       "clip", "normalize", "tolerance", "loss_tolerance", "population", "sigma", "seed"});
  if (auto method = optional(node, "method")) {
    const std::string name = string(*method, "gd, adam, lbfgs or cmaes");
    const std::optional<OptimizerMethod> m = method_from_name(name);
    if (!m) fail_found(*method, "one of: gd, adam, lbfgs, cmaes");
    o.method = *m;
  }
  const auto read_number = [&](std::string_view key, double& field, std::string_view expected, bool (*ok)(double)) {
    if (auto value = optional(node, key)) field = number(*value, expected, ok);
  };
  if (auto iterations = optional(node, "iterations")) o.iterations = int_in(*iterations, 0, kIntMax, "an integer");
  if (auto history = optional(node, "history")) o.history = int_in(*history, 1, 1000, "an integer");
  read_number("learning_rate", o.learning_rate, "a number > 0", positive);
  read_number("momentum", o.momentum, "a number in [0, 1)", unit_interval_open_right);
  read_number("beta1", o.beta1, "a number in [0, 1)", unit_interval_open_right);
  read_number("beta2", o.beta2, "a number in [0, 1)", unit_interval_open_right);
  read_number("epsilon", o.epsilon, "a number > 0", positive);
  read_number("clip", o.clip, "a number >= 0 (0: no clipping)", non_negative);
  if (auto normalize = optional(node, "normalize")) o.normalize = boolean(*normalize);
  read_number("tolerance", o.tolerance, "a number >= 0", non_negative);
  read_number("loss_tolerance", o.loss_tolerance, "a number >= 0", non_negative);
  if (auto population = optional(node, "population")) {
    constexpr std::string_view expected = "0 (the default) or an integer >= 2";
    o.population = static_cast<int>(integer(*population, 0, kIntMax, expected));
    if (o.population == 1) fail_found(*population, expected);
  }
  read_number("sigma", o.sigma, "a number > 0", positive);
  if (auto seed = optional(node, "seed")) o.seed = unsigned_integer(*seed, "an integer in [0, 2^64 - 1]");
}

// ---- Writing ----------------------------------------------------------------------

static OrderedJson parameters_json(const ParameterSet& p) {
  OrderedJson parameters = OrderedJson::object();
  for (const Parameter& param : p.items) {
    const bool lower = std::isfinite(param.lower), upper = std::isfinite(param.upper);
    if (!param.optimize && !lower && !upper) continue;
    OrderedJson& entry = parameters[std::string(param_name(param.id))];
    entry["optimize"] = param.optimize;
    if (!param.optimize_rows.empty()) entry["rows"] = param.optimize_rows;
    if (lower) entry["lower"] = param.lower;
    if (upper) entry["upper"] = param.upper;
  }
  return parameters;
}

static OrderedJson optimizer_json(const OptimizerSettings& o) {
  OrderedJson j = {{"method", method_name(o.method)},
                   {"iterations", o.iterations},
                   {"learning_rate", o.learning_rate},
                   {"momentum", o.momentum},
                   {"beta1", o.beta1},
                   {"beta2", o.beta2},
                   {"epsilon", o.epsilon},
                   {"history", o.history},
                   {"clip", o.clip},
                   {"tolerance", o.tolerance},
                   {"loss_tolerance", o.loss_tolerance},
                   {"population", o.population},
                   {"sigma", o.sigma},
                   {"seed", o.seed}};
  // Only when set, so that scenes written before it existed save unchanged.
  if (o.normalize) j["normalize"] = true;
  return j;
}

// ---- Checking ---------------------------------------------------------------------

namespace {

// "particles.position[4][1]", "springs.stiffness[2]", "simulation.gravity[1]", "simulation.drag".
std::string element_path(std::string_view where, const Parameter& p, int flat_index) {
  // A body's or joint's values sit in its own object: "bodies[2].position[1]".
  for (std::string_view list : {"bodies", "joints"})
    if (where.starts_with(list) && where.size() > list.size() && where[list.size()] == '.') {
      const std::string element =
          index_path(std::string(list), flat_index / p.cols) + std::string(where.substr(list.size()));
      return p.cols == 1 ? element : index_path(element, flat_index % p.cols);
    }
  std::string path(where);
  if (p.rows == 1 && p.cols == 1) return path;
  if (p.rows == 1 || p.cols == 1) return index_path(path, flat_index);
  return index_path(index_path(path, flat_index / p.cols), flat_index % p.cols);
}

}  // namespace

static Problem check_parameters(const Scene& scene) {
  for (int i = 0; i < kParamCount; ++i) {
    const auto id = static_cast<ParamId>(i);
    const Parameter& p = scene.params[id];
    const ParamFacts& facts = param_facts(id);
    const std::string where(facts.where);
    if (p.id != id)
      return "params[" + std::to_string(i) + "]: found id " + std::to_string(static_cast<int>(p.id)) + "; expected " +
             std::to_string(i) + " ('" + std::string(param_name(id)) + "'; call shape_parameters)";
    const Shape shape = shape_of(id, counts_of(scene));
    if (p.rows != shape.rows || p.cols != shape.cols ||
        p.value.size() != static_cast<std::size_t>(shape.rows) * static_cast<std::size_t>(shape.cols) ||
        p.grad.size() != p.value.size())
      return where + ": found " + std::to_string(p.rows) + " x " + std::to_string(p.cols) + " with " +
             std::to_string(p.value.size()) + " values and " + std::to_string(p.grad.size()) + " gradients; expected " +
             std::to_string(shape.rows) + " x " + std::to_string(shape.cols) + " (call shape_parameters)";
    for (int k = 0; k < p.size(); ++k)  // unused entries: check_bodies
      if (!(size_t(k) < p.unused.size() && p.unused[size_t(k)]) && !in_param_range(facts.range, p.value[k]))
        return found(element_path(facts.where, p, k), p.value[k], facts.expected);
    const std::string bounds = "parameters." + std::string(param_name(id));
    for (size_t k = 0; k < p.optimize_rows.size(); ++k)
      if (p.optimize_rows[k] < 0 || p.optimize_rows[k] >= p.rows ||
          (k > 0 && p.optimize_rows[k] <= p.optimize_rows[k - 1]))
        return found(index_path(bounds + ".rows", static_cast<long long>(k)), p.optimize_rows[k],
                     "ascending distinct row indices in [0, " + std::to_string(p.rows) + ")");
    if (std::isnan(p.lower) || std::isnan(p.upper) || p.lower > p.upper)
      return bounds + ": found lower " + number_text(p.lower) + " and upper " + number_text(p.upper) +
             "; expected lower <= upper";
  }
  return std::nullopt;
}

static Problem check_optimizer(const Scene& scene) {
  const OptimizerSettings& o = scene.optimizer;
  if (o.method != OptimizerMethod::GradientDescent && o.method != OptimizerMethod::Adam &&
      o.method != OptimizerMethod::LBFGS && o.method != OptimizerMethod::CMAES)
    return found("optimizer.method", static_cast<int>(o.method), "gd, adam, lbfgs or cmaes");
  if (o.iterations < 0) return found("optimizer.iterations", o.iterations, "an integer >= 0");
  if (!positive(o.learning_rate)) return found("optimizer.learning_rate", o.learning_rate, "a number > 0");
  if (!unit_interval_open_right(o.momentum)) return found("optimizer.momentum", o.momentum, "a number in [0, 1)");
  if (!unit_interval_open_right(o.beta1)) return found("optimizer.beta1", o.beta1, "a number in [0, 1)");
  if (!unit_interval_open_right(o.beta2)) return found("optimizer.beta2", o.beta2, "a number in [0, 1)");
  if (!positive(o.epsilon)) return found("optimizer.epsilon", o.epsilon, "a number > 0");
  if (o.history < 1 || o.history > 1000) return found("optimizer.history", o.history, "an integer in [1, 1000]");
  if (!non_negative(o.clip)) return found("optimizer.clip", o.clip, "a number >= 0 (0: no clipping)");
  if (!non_negative(o.tolerance)) return found("optimizer.tolerance", o.tolerance, "a number >= 0");
  if (!non_negative(o.loss_tolerance)) return found("optimizer.loss_tolerance", o.loss_tolerance, "a number >= 0");
  if (o.population < 0 || o.population == 1)
    return found("optimizer.population", o.population, "0 (the default) or an integer >= 2");
  if (!positive(o.sigma)) return found("optimizer.sigma", o.sigma, "a number > 0");
  return std::nullopt;
}

// ---- Its rows in the list of sections (scene_section.h) ---------------------------

extern const SceneSection kParametersSection{"parameters",
                                             ReadStage::Values,
                                             [](const SectionInput& in, Scene& scene) -> AfterShaping {
                                               if (in.node) in.reader.read_parameters(*in.node, scene);
                                               return {};
                                             },
                                             [](const Scene& scene) { return parameters_json(scene.params); },
                                             CheckStage::Parameters,
                                             check_parameters};

extern const SceneSection kOptimizerSection{"optimizer",
                                            ReadStage::Values,
                                            [](const SectionInput& in, Scene& scene) -> AfterShaping {
                                              if (in.node) in.reader.read_optimizer(*in.node, scene.optimizer);
                                              return {};
                                            },
                                            [](const Scene& scene) { return optimizer_json(scene.optimizer); },
                                            CheckStage::Elements,
                                            check_optimizer};

}  // namespace nudge::scene_io
