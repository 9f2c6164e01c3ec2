// A sweep's axes, its grid of points, its table's columns and its fingerprint.
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <string_view>
#include <system_error>

#include "nudge/parameter_facts.h"
#include "nudge/scene_text.h"
#include "nudge/sweep.h"

namespace nudge {

namespace {

std::string quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

bool parse_int(std::string_view text, int& out) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size();
}

bool parse_double(std::string_view text, double& out) {
  // std::from_chars for double is in g++ 12; strtod would accept leading spaces and hex.
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  return ec == std::errc() && end == text.data() + text.size() && std::isfinite(out);
}

// "name", "name[r]" or "name[r,c]" of an entry, a row or a whole parameter.
std::string entry_label(ParamId id, int row, int col) {
  std::string label(param_name(id));
  if (row >= 0) label += "[" + std::to_string(row) + (col >= 0 ? "," + std::to_string(col) : "") + "]";
  return label;
}

}  // namespace

double SweepAxis::value(int k) const {
  if (count <= 1) return from;
  if (k == count - 1) return to;  // exactly the end the user wrote
  return from + (to - from) * double(k) / double(count - 1);
}

Result<SweepAxis> parse_sweep_axis(std::string_view spec) {
  const std::string what = "sweep parameter " + quoted(spec) + ": ";
  const std::size_t equals = spec.find('=');
  if (equals == std::string_view::npos)
    return Error{what + "expected name=from:to:count (stiffness=10:100:20), name[row]=... or name=value"};
  std::string_view name = spec.substr(0, equals);
  const std::string_view range = spec.substr(equals + 1);
  SweepAxis axis;
  if (const std::size_t open = name.find('['); open != std::string_view::npos) {
    if (name.back() != ']') return Error{what + "expected ']' after the row (name[row] or name[row,col])"};
    const std::string_view index = name.substr(open + 1, name.size() - open - 2);
    const std::size_t comma = index.find(',');
    if (!parse_int(index.substr(0, comma), axis.row) || axis.row < 0 ||
        (comma != std::string_view::npos && (!parse_int(index.substr(comma + 1), axis.col) || axis.col < 0)))
      return Error{what + "expected a row (and a column) counted from 0 inside [ ], got [" + std::string(index) + "]"};
    name = name.substr(0, open);
  }
  const std::optional<ParamId> id = param_from_name(name);
  if (!id) return Error{what + "no parameter named " + quoted(name) + "; the parameters are " + param_names_listed()};
  axis.param = *id;
  axis.label = entry_label(axis.param, axis.row, axis.col);

  const std::size_t first = range.find(':');
  if (first == std::string_view::npos) {  // one value
    if (!parse_double(range, axis.from))
      return Error{what + "expected a finite number after '=', got " + quoted(range)};
    axis.to = axis.from;
    return axis;
  }
  const std::size_t second = range.find(':', first + 1);
  if (second == std::string_view::npos || !parse_double(range.substr(0, first), axis.from) ||
      !parse_double(range.substr(first + 1, second - first - 1), axis.to) ||
      !parse_int(range.substr(second + 1), axis.count))
    return Error{what + "expected from:to:count, two finite numbers and a whole count (10:100:20), got " +
                 quoted(range)};
  if (axis.count < 1) return Error{what + "the count " + std::to_string(axis.count) + " must be 1 or more"};
  if (axis.count == 1 && axis.from != axis.to)
    return Error{what + "one point cannot span " + quoted(range.substr(0, second)) + "; give a count of 2 or more"};
  return axis;
}

std::string_view sweep_mode_name(SweepMode mode) {
  switch (mode) {
    case SweepMode::Loss: return "loss";
    case SweepMode::Gradient: return "gradient";
    case SweepMode::Optimize: return "optimize";
  }
  return "loss";
}

std::optional<SweepMode> sweep_mode_from_name(std::string_view name) {
  for (SweepMode m : {SweepMode::Loss, SweepMode::Gradient, SweepMode::Optimize})
    if (sweep_mode_name(m) == name) return m;
  return std::nullopt;
}

int SweepPlan::point_count() const {
  long long n = 1;
  for (const SweepAxis& a : axes) n *= a.count;
  return int(n);
}

std::vector<double> SweepPlan::point(int index) const {
  std::vector<double> values(axes.size());
  for (std::size_t k = axes.size(); k-- > 0;) {  // the last axis fastest
    values[k] = axes[k].value(index % axes[k].count);
    index /= axes[k].count;
  }
  return values;
}

Result<SweepPlan> make_sweep_plan(const Scene& scene, std::vector<SweepAxis> axes, SweepMode mode) {
  if (axes.empty()) return Error{"a sweep needs at least one parameter (--param name=from:to:count)"};
  long long points = 1;
  for (std::size_t k = 0; k < axes.size(); ++k) {
    const SweepAxis& a = axes[k];
    const Parameter& p = scene.params[a.param];
    const std::string what = "sweep parameter " + a.label + ": ";
    if (p.size() == 0)
      return Error{what + "the scene has no " + std::string(param_name(a.param)) + " (it has no entries)"};
    if (a.row >= p.rows)
      return Error{what + "row " + std::to_string(a.row) + " does not exist; the scene has " + std::to_string(p.rows) +
                   " rows (0 to " + std::to_string(p.rows - 1) + ")"};
    if (a.col >= p.cols)
      return Error{what + "column " + std::to_string(a.col) + " does not exist; " + std::string(param_name(a.param)) +
                   " has " + std::to_string(p.cols) + " columns"};
    for (std::size_t j = 0; j < k; ++j)
      if (axes[j].label == a.label) return Error{what + "given twice"};
    points *= a.count;
    if (points > kMaxSweepPoints)
      return Error{"the sweep has more than " + std::to_string(kMaxSweepPoints) + " points; sweep fewer values"};
  }
  if (mode == SweepMode::Optimize && scene.params.optimized_size() == 0)
    return Error{
        "a sweep in optimize mode starts the scene's optimiser at each point, but the scene marks no "
        "parameter to optimise"};
  SweepPlan plan;
  plan.axes = std::move(axes);
  plan.mode = mode;
  return plan;
}

std::vector<std::string> sweep_columns(const Scene& scene, const SweepPlan& plan) {
  std::vector<std::string> columns = {"index"};
  for (const SweepAxis& a : plan.axes) columns.push_back(a.label);
  switch (plan.mode) {
    case SweepMode::Loss: columns.push_back("loss"); break;
    case SweepMode::Gradient:
      columns.push_back("loss");
      for (const SweepAxis& a : plan.axes) columns.push_back("dloss/d" + a.label);
      break;
    case SweepMode::Optimize: {
      columns.insert(columns.end(), {"start_loss", "loss", "iterations", "evaluations"});
      if (scene.params.optimized_size() <= kMaxSweepFoundColumns)
        for (const Parameter& p : scene.params.items)
          for (int k = 0; k < p.size(); ++k)
            if (p.optimize && p.optimized_entry(k))
              columns.push_back("found:" + entry_label(p.id, p.cols == 1 && p.rows == 1 ? -1 : k / p.cols,
                                                       p.cols == 1 ? -1 : k % p.cols));
      break;
    }
  }
  columns.push_back("status");
  return columns;
}

std::string sweep_fingerprint(const Scene& scene, const SweepPlan& plan) {
  std::string text;
  try {
    text = scene_json_text(scene);
  } catch (const std::exception&) {
    text = scene.name;  // a scene that cannot be written (not checked) is told apart by less
  }
  text += "\nmode=" + std::string(sweep_mode_name(plan.mode));
  char range[96];
  for (const SweepAxis& a : plan.axes) {
    std::snprintf(range, sizeof range, "=%.17g:%.17g:%d", a.from, a.to, a.count);
    text += "\n" + a.label + range;
  }
  std::uint64_t hash = 14695981039346656037ull;  // FNV-1a
  for (const char c : text) hash = (hash ^ std::uint8_t(c)) * 1099511628211ull;
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
  return hex;
}

}  // namespace nudge
