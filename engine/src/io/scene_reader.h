// Pass 3 of reading a scene file, the walk over the DOM, in its generic parts: a JSON
// value with its path (Node), the failure that ends reading (LoadFailure), the tests
// that numbers pass (shared with check_scene), and NodeReader, the helpers every
// section's reader is made of (keys of an object, numbers, integers, strings, vectors,
// rows, per-item lists, particle and body indices, directions). Each failure names the
// file, the JSON path, what was found and what was expected.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <initializer_list>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "io/json_text.h"
#include "io/marker_csv.h"
#include "nudge/assert.h"
#include "nudge/parameter_facts.h"
#include "nudge/scene.h"

namespace nudge::scene_io {

namespace fs = std::filesystem;

constexpr long long kIntMax = std::numeric_limits<int>::max();
// The most Newton or Krylov iterations an implicit step may be given.
constexpr long long kMaxSolverIterations = 100000;

// Thrown only inside the scene reader; parse_scene turns it into an Error.
struct LoadFailure {
  std::string message;
};

// The tests a number passes, for reading (NodeReader::number) and for checking.
inline bool finite(double x) { return std::isfinite(x); }
inline bool positive(double x) { return std::isfinite(x) && x > 0; }
inline bool non_negative(double x) { return std::isfinite(x) && x >= 0; }
inline bool unit_interval_open_right(double x) { return std::isfinite(x) && x >= 0 && x < 1; }
inline bool time_step(double x) { return std::isfinite(x) && x > 0 && x <= 1; }
inline bool open_unit_interval(double x) { return std::isfinite(x) && x > 0 && x < 1; }

// A JSON value and where it is in the file.
struct Node {
  const Json& json;
  std::string path;

  Node element(std::size_t i) const { return {json[i], element_path(path, i)}; }
  std::size_t size() const { return json.size(); }
};

// The generic part of walking the DOM into a Scene: each helper checks a value as it
// reads it. SceneReader (scene_sections.h) adds the sections. The helpers are public so
// that a section's reading can be a free function over the reader (scene_section.h).
class NodeReader {
protected:
  explicit NodeReader(std::string file) : file_(std::move(file)) {}

public:
  [[noreturn]] void fail(const std::string& path, const std::string& message) const {
    throw LoadFailure{file_ + ": " + path + ": " + message};
  }
  [[noreturn]] void fail_found(const Node& node, std::string_view expected) const {
    fail(node.path, "found " + describe(node.json) + "; expected " + std::string(expected));
  }

  // ---- structure ----

  static std::string context_of(const Node& node) { return node.path == "$" ? "the scene" : node.path.substr(2); }

  void expect_object(const Node& node, std::initializer_list<std::string_view> keys,
                     const std::string& context = {}) const {
    expect_object(node, std::vector<std::string_view>(keys), context);
  }
  void expect_object(const Node& node, const std::vector<std::string_view>& keys,
                     const std::string& context = {}) const {
    if (!node.json.is_object()) fail_found(node, "an object with the keys: " + join(keys));
    for (const auto& [key, value] : node.json.items()) {
      if (std::find(keys.begin(), keys.end(), key) != keys.end()) continue;
      fail(member_path(node.path, key), "unknown key '" + printable_excerpt(key) + "' in " +
                                            (context.empty() ? context_of(node) : context) + did_you_mean(key, keys) +
                                            "; expected one of: " + join(keys));
    }
  }

  std::optional<Node> optional(const Node& object, std::string_view key) const {
    const auto it = object.json.find(key);
    if (it == object.json.end()) return std::nullopt;
    return Node{*it, member_path(object.path, key)};
  }

  Node required(const Node& object, std::string_view key, std::string_view expected) const {
    if (auto node = optional(object, key)) return *node;
    fail(object.path, "missing key '" + std::string(key) + "'; expected " + std::string(expected));
  }

  void expect_array(const Node& node, std::string_view expected) const {
    if (!node.json.is_array()) fail_found(node, expected);
  }

  // ---- values ----

  // ok: any predicate on the value (a function such as positive, or a lambda).
  template <class Ok = bool (*)(double)>
  double number(const Node& node, std::string_view expected, Ok ok = finite) const {
    if (!node.json.is_number() || !ok(node.json.get<double>())) fail_found(node, expected);
    return node.json.get<double>();
  }

  // Accepts integral numbers however written (500, 5e2); rejects 1.5.
  long long integer(const Node& node, long long lo, long long hi, std::string_view expected) const {
    const Json& j = node.json;
    long long value = 0;
    if (j.is_number_unsigned()) {
      if (j.get<std::uint64_t>() > static_cast<std::uint64_t>(hi)) fail_found(node, expected);
      value = static_cast<long long>(j.get<std::uint64_t>());
    } else if (j.is_number_integer()) {
      value = j.get<std::int64_t>();
    } else if (j.is_number_float()) {
      const double x = j.get<double>();
      if (x != std::floor(x) || x < static_cast<double>(lo) || x > static_cast<double>(hi)) fail_found(node, expected);
      value = static_cast<long long>(x);
    } else {
      fail_found(node, expected);
    }
    if (value < lo || value > hi) fail_found(node, expected);
    return value;
  }

  // Any integer that fits in 64 bits without a sign (a random seed), written as an integer.
  std::uint64_t unsigned_integer(const Node& node, std::string_view expected) const {
    if (!node.json.is_number_unsigned()) fail_found(node, expected);
    return node.json.get<std::uint64_t>();
  }

  int int_in(const Node& node, long long lo, long long hi, std::string_view what) const {
    return static_cast<int>(integer(node, lo, hi, std::string(what) + " in " + range_text(lo, hi)));
  }

  bool boolean(const Node& node) const {
    if (!node.json.is_boolean()) fail_found(node, "true or false");
    return node.json.get<bool>();
  }

  std::string string(const Node& node, std::string_view expected) const {
    if (!node.json.is_string()) fail_found(node, "a string (" + std::string(expected) + ")");
    return node.json.get<std::string>();
  }

  std::array<double, 3> vec3(const Node& node, std::string_view expected) const {
    if (!node.json.is_array() || node.size() != 3) fail_found(node, expected);
    std::array<double, 3> v{};
    for (std::size_t k = 0; k < 3; ++k) v[k] = number(node.element(k), "a finite number");
    return v;
  }

  // `rows` rows of [x, y, z], flattened; rows == 0 means any non-zero count.
  std::vector<double> rows_of_3(const Node& node, std::size_t rows, std::string_view row_expected,
                                std::string_view count_expected) const {
    if (!node.json.is_array() || node.json.empty() || (rows != 0 && node.size() != rows))
      fail_found(node, count_expected);
    std::vector<double> flat;
    flat.reserve(3 * node.size());
    for (std::size_t i = 0; i < node.size(); ++i) {
      const std::array<double, 3> v = vec3(node.element(i), row_expected);
      flat.insert(flat.end(), v.begin(), v.end());
    }
    return flat;
  }

  // One number for all `count` items, or exactly `count` numbers.
  template <class Ok>
  std::vector<double> per_item(const Node& node, std::size_t count, std::string_view item, std::string_view expected,
                               Ok ok, bool allow_single = true) const {
    const std::string counted = std::to_string(count) + " numbers (one per " + std::string(item) + ")";
    if (allow_single && node.json.is_number()) return std::vector<double>(count, number(node, expected, ok));
    if (!node.json.is_array() || node.size() != count)
      fail_found(node, allow_single ? "a number or an array of " + counted : "an array of " + counted);
    std::vector<double> values(count);
    for (std::size_t i = 0; i < count; ++i) values[i] = number(node.element(i), expected, ok);
    return values;
  }

  // A per-element parameter, if its key is in `section`: the key, the element's name, what
  // a value must be and its range all come from the parameter's facts row
  // (nudge/parameter_facts.h). Returns whether the key was there.
  bool read_param_rows(const Node& section, Scene& scene, ParamId id, std::size_t count,
                       bool allow_single = true) const {
    const ParamFacts& facts = param_facts(id);
    const std::optional<Node> node = optional(section, param_key(facts));
    if (!node) return false;
    const ParamRange range = facts.range;
    scene.params[id].value = per_item(
        *node, count, param_element_name(facts.element), facts.expected,
        [range](double x) { return in_param_range(range, x); }, allow_single);
    return true;
  }

  // Every column parameter of `section` (ParamFile::Column, ColumnWhenSet: "particles.mass")
  // whose key is there, for `count` elements: one number (or [x, y, z]) for all, or one
  // row per element. Messages and ranges come from the facts table.
  void read_param_columns(const Node& section, Scene& scene, std::string_view section_name, std::size_t count) const {
    for (int i = 0; i < kParamCount; ++i) {
      const ParamFacts& facts = param_facts(static_cast<ParamId>(i));
      if (!is_param_column(facts.file) || param_section(facts) != section_name) continue;
      if (facts.element == ParamElement::Scene)
        read_scene_param(section, scene, facts.id);
      else if (facts.cols == 1)
        read_param_rows(section, scene, facts.id, count);
      else
        read_param_vector_rows(section, scene, facts.id, count);
    }
  }

  // A global value: a number, or [x, y, z].
  void read_scene_param(const Node& section, Scene& scene, ParamId id) const {
    const ParamFacts& facts = param_facts(id);
    const std::optional<Node> node = optional(section, param_key(facts));
    if (!node) return;
    const ParamRange range = facts.range;
    const auto ok = [range](double x) { return in_param_range(range, x); };
    if (facts.cols == 1) {
      scene.params[id].value = {number(*node, facts.expected, ok)};
      return;
    }
    NUDGE_ASSERT(facts.cols == 3);
    const std::string expected = "[x, y, z]: " + std::string(facts.expected);
    const std::array<double, 3> v = vec3(*node, expected);
    for (std::size_t k = 0; k < 3; ++k)
      if (!ok(v[k])) fail_found(node->element(k), facts.expected);
    scene.params[id].value.assign(v.begin(), v.end());
  }

  // A column of [x, y, z] rows: one for all `count` elements, or one per element.
  void read_param_vector_rows(const Node& section, Scene& scene, ParamId id, std::size_t count) const {
    const ParamFacts& facts = param_facts(id);
    NUDGE_ASSERT(facts.cols == 3);
    const std::optional<Node> node = optional(section, param_key(facts));
    if (!node) return;
    const std::string row_expected = "[x, y, z]: " + std::string(facts.expected);
    const std::string element(param_element_name(facts.element));
    std::vector<double> values;
    if (node->json.is_array() && node->size() == 3 && !node->json[0].is_array()) {
      const std::array<double, 3> v = vec3(*node, row_expected);
      for (std::size_t k = 0; k < count; ++k) values.insert(values.end(), v.begin(), v.end());
    } else {
      values = rows_of_3(*node, count, row_expected,
                         "one [x, y, z] for all or an array of " + std::to_string(count) + " rows (one per " + element +
                             ") of [x, y, z]: " + std::string(facts.expected));
    }
    const ParamRange range = facts.range;
    for (std::size_t k = 0; k < values.size(); ++k)
      if (!in_param_range(range, values[k]))
        fail_found(node->json[0].is_array() ? node->element(k / 3).element(k % 3) : node->element(k % 3),
                   facts.expected);
    scene.params[id].value = std::move(values);
  }

  // One object's value of a field parameter (ParamFile::Field, RequiredField).
  struct FieldValue {
    ParamId id;
    std::vector<double> row;  // its cols values
  };

  // The fields of one object of an array section ("bodies[b].density", "joints[j].anchor"),
  // in the table's order: each a number, or an array of its cols numbers, with its message
  // and range from its facts row. An absent optional field is left out (it keeps its
  // default); an absent required one is an error.
  std::vector<FieldValue> read_param_fields(const Node& item, std::string_view section_name) const {
    std::vector<FieldValue> values;
    for (int i = 0; i < kParamCount; ++i) {
      const ParamFacts& facts = param_facts(static_cast<ParamId>(i));
      if (!is_param_field(facts.file) || param_section(facts) != section_name) continue;
      const std::string expected = field_expected(facts);
      const std::optional<Node> node = facts.file == ParamFile::RequiredField
                                           ? required(item, param_key(facts), expected)
                                           : optional(item, param_key(facts));
      if (!node) continue;
      const ParamRange range = facts.range;
      const auto ok = [range](double x) { return in_param_range(range, x); };
      std::vector<double> row;
      if (facts.cols == 1) {
        row = {number(*node, facts.expected, ok)};
      } else {
        if (!node->json.is_array() || node->size() != std::size_t(facts.cols)) fail_found(*node, expected);
        for (std::size_t k = 0; k < std::size_t(facts.cols); ++k)
          row.push_back(number(node->element(k), facts.expected, ok));
      }
      values.push_back({facts.id, std::move(row)});
    }
    return values;
  }

  // Object `index`'s fields into the scene's parameters (once they have their shapes).
  static void store_param_fields(const std::vector<FieldValue>& values, Scene& scene, std::size_t index) {
    for (const FieldValue& v : values) {
      std::vector<double>& value = scene.params[v.id].value;
      NUDGE_ASSERT(value.size() >= v.row.size() * (index + 1));
      std::copy(v.row.begin(), v.row.end(), value.begin() + std::ptrdiff_t(v.row.size() * index));
    }
  }

  // What a field's value must be: "a density > 0 (kg/m^3)", "[x, y, z]: a finite velocity (m/s)".
  static std::string field_expected(const ParamFacts& facts) {
    if (facts.cols == 1) return std::string(facts.expected);
    const std::string shape = facts.cols == 3   ? "[x, y, z]"
                              : facts.cols == 4 ? "[x, y, z, w]"
                                                : "an array of " + std::to_string(facts.cols) + " numbers";
    return shape + ": " + std::string(facts.expected);
  }

  int particle_index(const Node& node) const {
    return static_cast<int>(
        integer(node, 0, particle_count_ - 1, "a particle index in [0, " + std::to_string(particle_count_) + ")"));
  }

  // A non-empty list of distinct body indices.
  std::vector<int> point_list(const Node& node, const Scene& scene) const {
    const int count = scene.material_points.count();
    const std::string range = "a material point index in [0, " + std::to_string(count) + ")";
    if (!node.json.is_array() || node.json.empty()) fail_found(node, "a non-empty array of material point indices");
    std::vector<int> list;
    for (std::size_t k = 0; k < node.size(); ++k) {
      const Node element = node.element(k);
      if (count == 0) fail_found(element, "a material point index (the scene has no material points)");
      const int q = static_cast<int>(integer(element, 0, count - 1, range));
      if (std::find(list.begin(), list.end(), q) != list.end()) fail_found(element, "each material point once");
      list.push_back(q);
    }
    return list;
  }

  // Links named in `node` (a non-empty array of distinct names of links with a hinge or a
  // slide), or, without it, every such link in order.
  std::vector<int> link_list(const std::optional<Node>& node, const Scene& scene) const {
    const std::vector<ArticulationLink>& links = scene.articulations.links;
    std::vector<int> list;
    if (!node) {
      for (std::size_t k = 0; k < links.size(); ++k)
        if (joint_velocity_count(links[k].joint) == 1) list.push_back(static_cast<int>(k));
      return list;
    }
    const std::string expected = "a non-empty array of names of links with a hinge or a slide";
    if (!node->json.is_array() || node->json.empty()) fail_found(*node, expected);
    for (std::size_t i = 0; i < node->size(); ++i) {
      const Node element = node->element(i);
      const std::string name = string(element, "a link's name");
      const auto at =
          std::find_if(links.begin(), links.end(), [&](const ArticulationLink& l) { return l.name == name; });
      if (at == links.end() || joint_velocity_count(at->joint) != 1) fail_found(element, expected);
      const int k = static_cast<int>(at - links.begin());
      if (std::find(list.begin(), list.end(), k) != list.end()) fail_found(element, "each link once");
      list.push_back(k);
    }
    return list;
  }

  std::vector<int> body_list(const Node& node, const Scene& scene) const {
    const int count = scene.body_count();
    if (!node.json.is_array() || node.json.empty()) fail_found(node, "a non-empty array of body indices");
    std::vector<int> list;
    for (std::size_t k = 0; k < node.size(); ++k) {
      const Node element = node.element(k);
      const int b =
          static_cast<int>(integer(element, 0, count - 1, "a body index in [0, " + std::to_string(count) + ")"));
      if (std::find(list.begin(), list.end(), b) != list.end()) fail_found(element, "each body once");
      list.push_back(b);
    }
    return list;
  }

  // A non-empty list of distinct particle indices.
  std::vector<int> particle_list(const Node& node) const {
    if (!node.json.is_array() || node.json.empty()) fail_found(node, "a non-empty array of particle indices");
    std::vector<int> list;
    std::map<int, std::size_t> first_at;
    for (std::size_t k = 0; k < node.size(); ++k) {
      const Node element = node.element(k);
      const int i = particle_index(element);
      if (const auto [it, inserted] = first_at.emplace(i, k); !inserted)
        fail_found(element,
                   "each particle once (" + std::to_string(i) + " is already at [" + std::to_string(it->second) + "])");
      list.push_back(i);
    }
    return list;
  }

  // A direction kept bit for bit when it is unit length already (as saved), else normalised.
  void unit_vector(const Node& node, const std::array<double, 3>& d, double* out) const {
    const double scale = std::max({std::abs(d[0]), std::abs(d[1]), std::abs(d[2])});
    if (scale == 0) fail_found(node, "a non-zero direction");
    if (scale <= 1 && std::abs(std::hypot(d[0], d[1], d[2]) - 1) <= 4 * std::numeric_limits<double>::epsilon()) {
      std::copy(d.begin(), d.end(), out);
      return;
    }
    const double length = std::hypot(d[0] / scale, d[1] / scale, d[2] / scale);  // scaled: cannot overflow
    for (int k = 0; k < 3; ++k) out[k] = d[k] / scale / length;
  }

  std::string file_;
  int particle_count_ = 0;  // read_particles sets it; particle_index checks against it
};

}  // namespace nudge::scene_io
