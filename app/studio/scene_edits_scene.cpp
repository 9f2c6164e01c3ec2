// Edits of what concerns the whole scene: the objectives (with a markers objective's
// bindings), the time stepping, gravity, the ground, and which parameters are optimised
// within which bounds (scene_edits.h).
#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "nudge/marker_csv.h"
#include "nudge/objective_facts.h"
#include "nudge/parameter_facts.h"
#include "studio/scene_edits.h"
#include "studio/scene_edits_support.h"

namespace nudge::studio::edits {

using namespace support;
namespace fs = std::filesystem;

namespace {

Objective objective_of(ObjectiveType type) {
  Objective o;
  o.type = type;
  return o;
}

// "objectives[2] (a target objective)"
std::string objective_text(const Scene& scene, int k) {
  const std::string_view type = objective_type_name(scene.objectives[size_t(k)].type);
  const bool vowel = std::string_view("aeiou").find(type.front()) != std::string_view::npos;
  return "objectives[" + std::to_string(k) + "] (" + (vowel ? "an " : "a ") + std::string(type) + " objective)";
}

// The objective as a scene file keeps it: the fields its type reads, the others at
// their defaults (a saved and loaded scene has nothing else).
std::optional<Error> canonical_objective(std::string_view action, const Objective& in, Objective& out) {
  out = Objective{};
  out.type = in.type;
  out.weight = in.weight;
  const auto direction = [&](const char* what, const double* from, double* to) -> std::optional<Error> {
    std::copy_n(from, 3, to);
    if (normalise_direction(to)) return std::nullopt;
    return fail(action, std::string("found ") + what + " " + vec3_text({from[0], from[1], from[2]}) +
                            "; expected a non-zero finite direction");
  };
  const ObjectiveLayout& layout = objective_layout(in.type);
  if (layout.binding == ObjectiveBinding::MarkerFile && in.marker_file.empty())
    return fail(
        action,
        "a markers objective needs its marker_file, the CSV file its samples come from (saving writes its path)");
  if (objective_reads_particles(in.type)) out.particles = in.particles;
  if (objective_reads_bodies(in.type)) out.bodies = in.bodies;
  if (layout.lists_points()) out.points = in.points;
  if (layout.target != ObjectiveTarget::None) out.target = in.target;
  if (layout.step) out.step = in.step;
  if (layout.binding != ObjectiveBinding::None) out.bind = in.bind, out.bind_bodies = in.bind_bodies;
  if (layout.binding == ObjectiveBinding::MarkerFile)
    out.marker_file = in.marker_file, out.steps_per_frame = in.steps_per_frame, out.samples = in.samples;
  if (layout.direction)
    if (auto error = direction("direction", in.direction, out.direction)) return error;
  if (layout.axis)
    if (auto error = direction("axis", in.axis, out.axis)) return error;
  return std::nullopt;
}

// The markers objective `k`, or an error naming what it is instead.
std::optional<Error> check_markers_objective(std::string_view action, const Scene& scene, int k) {
  if (auto error = check_indices(action, "objective", {k}, static_cast<int>(scene.objectives.size()))) return error;
  if (objective_layout(scene.objectives[size_t(k)].type).binding == ObjectiveBinding::MarkerFile) return std::nullopt;
  return fail(action, objective_text(scene, k) + " has no markers; expected a markers objective");
}

// The samples a scene loaded from a file keeps for the objective's bound markers: the
// file's rows of those markers, in its order. Read again at each binding, so that the
// edited scene is what loading it back gives; a bound marker the file lacks, or a frame
// past the scene's end, is an error (as loading would be).
std::optional<Error> read_bound_samples(std::string_view action, const Scene& scene, Objective& o) {
  const fs::path resolved =
      o.marker_file.is_absolute() || scene.source.empty() ? o.marker_file : scene.source.parent_path() / o.marker_file;
  Result<MarkerTrack> track = read_marker_csv(resolved);
  if (!track) return fail(action, track.error().message);
  std::set<int> bound, observed;
  for (const auto& pair : o.bind) bound.insert(pair.first);
  for (const auto& pair : o.bind_bodies) bound.insert(pair.first);
  const long long steps = scene.settings.steps;
  o.samples.clear();
  for (size_t k = 0; k < track->samples.size(); ++k) {
    const MarkerSample& sample = track->samples[k];
    if (!bound.contains(sample.marker)) continue;
    const long long step = static_cast<long long>(sample.frame) * o.steps_per_frame;
    if (step < 0 || step > steps)
      return fail(action, resolved.string() + ":" + std::to_string(track->lines[k]) + ": marker " +
                              std::to_string(sample.marker) + " has frame " + std::to_string(sample.frame) + " (step " +
                              std::to_string(step) + " at " + std::to_string(o.steps_per_frame) +
                              " steps per frame); expected a frame in [0, " +
                              std::to_string(steps / o.steps_per_frame) + "] (the scene has " + std::to_string(steps) +
                              " steps)");
    o.samples.push_back(sample);
    observed.insert(sample.marker);
  }
  for (int marker : bound)
    if (!observed.contains(marker))
      return fail(action, "marker " + std::to_string(marker) + " does not occur in " + resolved.string() +
                              "; expected a marker id that it has rows for");
  return std::nullopt;
}

std::optional<Error> check_param_id(std::string_view action, ParamId id) {
  const int i = static_cast<int>(id);
  if (i >= 0 && i < kParamCount) return std::nullopt;
  return fail(action,
              "found parameter id " + std::to_string(i) + "; expected one in [0, " + std::to_string(kParamCount) + ")");
}

}  // namespace

// ---- Objectives ---------------------------------------------------------------------

Result<Scene> add_objective(const Scene& scene, const Objective& objective) {
  constexpr std::string_view action = "add objective";
  if (auto error = check_input(scene, action)) return *error;
  Objective added;
  if (auto error = canonical_objective(action, objective, added)) return *error;
  Scene edited = scene;
  edited.objectives.push_back(std::move(added));
  return finish(std::move(edited), action);  // check_scene's message names objectives[k] and what is wrong
}

Result<Scene> delete_objectives(const Scene& scene, const std::vector<int>& objectives) {
  constexpr std::string_view action = "delete objectives";
  if (auto error = check_input(scene, action)) return *error;
  if (auto error = check_indices(action, "objective", objectives, static_cast<int>(scene.objectives.size())))
    return *error;
  const IndexMap map = index_map(static_cast<int>(scene.objectives.size()), objectives);
  Scene edited = scene;
  edited.objectives.clear();
  for (size_t k = 0; k < map.size(); ++k)
    if (map[k] >= 0) edited.objectives.push_back(scene.objectives[k]);
  return finish(std::move(edited), action);
}

Result<Scene> set_objective_weight(const Scene& scene, int objective, double weight) {
  constexpr std::string_view action = "set objective weight";
  if (auto error = check_input(scene, action)) return *error;
  if (auto error = check_indices(action, "objective", {objective}, static_cast<int>(scene.objectives.size())))
    return *error;
  if (!(std::isfinite(weight) && weight >= 0))
    return fail(action, "found weight " + number_text(weight) + "; expected a weight >= 0");
  Scene edited = scene;
  edited.objectives[size_t(objective)].weight = weight;
  return finish(std::move(edited), action);
}

Result<Scene> set_objective_target(const Scene& scene, int objective, int row, const Vec3& position) {
  constexpr std::string_view action = "set objective target";
  if (auto error = check_input(scene, action)) return *error;
  if (auto error = check_indices(action, "objective", {objective}, static_cast<int>(scene.objectives.size())))
    return *error;
  const Objective& o = scene.objectives[size_t(objective)];
  const ObjectiveTarget target = objective_layout(o.type).target;
  if (target != ObjectiveTarget::Position && target != ObjectiveTarget::PerParticle)
    return fail(action, objective_text(scene, objective) +
                            " has no target position; expected a target objective or a positions objective");
  // A target objective has one target; a positions objective one per particle.
  const int rows = target == ObjectiveTarget::Position ? 1 : static_cast<int>(o.particles.size());
  if (row < 0 || row >= rows)
    return fail(action, "found row " + std::to_string(row) + " of " + objective_text(scene, objective) + "; expected " +
                            (rows == 1 ? "row 0 (its only target)" : "a row in [0, " + std::to_string(rows) + ")"));
  if (!finite(position)) return fail(action, "found target " + vec3_text(position) + "; expected a finite point (m)");
  Scene edited = scene;
  std::copy(position.begin(), position.end(), edited.objectives[size_t(objective)].target.begin() + 3 * row);
  return finish(std::move(edited), action);
}

// ---- Markers objectives -------------------------------------------------------------

Result<Scene> add_markers_objective(const Scene& scene, const fs::path& marker_file, int marker, int particle,
                                    int steps_per_frame) {
  constexpr std::string_view action = "add markers objective";
  if (auto error = check_input(scene, action)) return *error;
  if (marker_file.empty()) return fail(action, "found no marker file; expected the path of a marker CSV file");
  if (auto error = check_indices(action, "particle", {particle}, scene.particle_count())) return *error;
  if (steps_per_frame < 1)
    return fail(action, "found " + std::to_string(steps_per_frame) + " steps per frame; expected an integer >= 1");
  Objective added = objective_of(ObjectiveType::Markers);
  added.marker_file = marker_file;
  added.steps_per_frame = steps_per_frame;
  added.bind = {{marker, particle}};
  if (auto error = read_bound_samples(action, scene, added)) return *error;
  Scene edited = scene;
  edited.objectives.push_back(std::move(added));
  return finish(std::move(edited), action);
}

Result<Scene> bind_marker(const Scene& scene, int objective, int marker, int particle) {
  constexpr std::string_view action = "bind marker";
  if (auto error = check_input(scene, action)) return *error;
  if (auto error = check_markers_objective(action, scene, objective)) return *error;
  if (auto error = check_indices(action, "particle", {particle}, scene.particle_count())) return *error;
  Scene edited = scene;
  Objective& o = edited.objectives[size_t(objective)];
  std::erase_if(o.bind_bodies, [&](const auto& pair) { return pair.first == marker; });
  const auto bound = std::find_if(o.bind.begin(), o.bind.end(), [&](const auto& pair) { return pair.first == marker; });
  if (bound != o.bind.end())
    bound->second = particle;  // rebound where it was listed
  else
    o.bind.emplace_back(marker, particle);
  if (auto error = read_bound_samples(action, scene, o)) return *error;
  return finish(std::move(edited), action);
}

Result<Scene> unbind_marker(const Scene& scene, int objective, int marker) {
  constexpr std::string_view action = "unbind marker";
  if (auto error = check_input(scene, action)) return *error;
  if (auto error = check_markers_objective(action, scene, objective)) return *error;
  const Objective& o = scene.objectives[size_t(objective)];
  const auto is_marker = [&](const auto& pair) { return pair.first == marker; };
  if (std::none_of(o.bind.begin(), o.bind.end(), is_marker) &&
      std::none_of(o.bind_bodies.begin(), o.bind_bodies.end(), is_marker))
    return fail(action, "marker " + std::to_string(marker) + " is not bound in " + objective_text(scene, objective) +
                            "; expected one of its bound markers");
  if (o.bind.size() + o.bind_bodies.size() == 1)
    return fail(action, "marker " + std::to_string(marker) + " is the only bound marker of " +
                            objective_text(scene, objective) +
                            ", which would compare nothing; delete the objective instead");
  Scene edited = scene;
  Objective& changed = edited.objectives[size_t(objective)];
  std::erase_if(changed.bind, is_marker);
  std::erase_if(changed.bind_bodies, is_marker);
  std::erase_if(changed.samples, [&](const MarkerSample& s) { return s.marker == marker; });
  return finish(std::move(edited), action);
}

// ---- Simulation settings ------------------------------------------------------------

Result<Scene> set_time(const Scene& scene, double dt, int steps) {
  constexpr std::string_view action = "set time";
  if (auto error = check_input(scene, action)) return *error;
  if (!(std::isfinite(dt) && dt > 0 && dt <= 1))
    return fail(action, "found dt " + number_text(dt) + "; expected a time step in (0, 1] (s)");
  if (steps < 1 || steps > kMaxSteps)
    return fail(action, "found " + std::to_string(steps) + " steps; expected a step count in [1, " +
                            std::to_string(kMaxSteps) + "]");
  for (const auto& [count, what] : {std::pair{scene.channels, "channels"}, std::pair{scene.joint_count(), "joints"}})
    if (static_cast<long long>(count) * steps > kMaxControlValues)
      return fail(action, "found " + std::to_string(steps) + " steps x " + std::to_string(count) + " " + what +
                              "; expected at most " + std::to_string(kMaxControlValues) + " control values");
  // An objective past the new end is an error rather than moved to it: a target at
  // mid-flight is a different problem at the end, and only the user knows which is meant.
  for (int k = 0; k < static_cast<int>(scene.objectives.size()); ++k) {
    const Objective& o = scene.objectives[size_t(k)];
    if (o.step > steps)
      return fail(action, objective_text(scene, k) + " is evaluated at step " + std::to_string(o.step) +
                              ", after the new end (step " + std::to_string(steps) +
                              "); change its step or delete it first");
    if (objective_layout(o.type).binding != ObjectiveBinding::MarkerFile) continue;
    int last_frame = 0;
    for (const MarkerSample& sample : o.samples) last_frame = std::max(last_frame, sample.frame);
    const long long last_step = static_cast<long long>(last_frame) * o.steps_per_frame;
    if (last_step > steps)
      return fail(action, objective_text(scene, k) + " has samples up to step " + std::to_string(last_step) +
                              " (frame " + std::to_string(last_frame) + " at " + std::to_string(o.steps_per_frame) +
                              " steps per frame), after the new end (step " + std::to_string(steps) +
                              "); delete it first");
  }
  Scene edited = scene;
  edited.settings.dt = dt;
  edited.settings.steps = steps;
  for (ParamId id : per_step_params()) resize_steps(edited.params[id], steps);
  return finish(std::move(edited), action);
}

Result<Scene> set_gravity(const Scene& scene, const Vec3& gravity) {
  constexpr std::string_view action = "set gravity";
  if (auto error = check_input(scene, action)) return *error;
  if (!finite(gravity))
    return fail(action, "found gravity " + vec3_text(gravity) + "; expected a finite acceleration (m/s^2)");
  Scene edited = scene;
  edited.params[ParamId::Gravity].value.assign(gravity.begin(), gravity.end());
  return finish(std::move(edited), action);
}

Result<Scene> set_ground(const Scene& scene, bool enabled, double height) {
  constexpr std::string_view action = "set ground";
  if (auto error = check_input(scene, action)) return *error;
  if (!std::isfinite(height))
    return fail(action, "found height " + number_text(height) + "; expected a finite height (m)");
  Scene edited = scene;
  edited.settings.ground.enabled = enabled;
  edited.settings.ground.height = height;
  return finish(std::move(edited), action);
}

// ---- What is optimised --------------------------------------------------------------

Result<Scene> set_optimized(const Scene& scene, ParamId id, bool optimize, double lower, double upper) {
  constexpr std::string_view action = "set optimized";
  if (auto error = check_input(scene, action)) return *error;
  if (auto error = check_param_id(action, id)) return *error;
  const std::string name(param_name(id));
  // A file gives finite bounds or none: +infinity cannot be a lower bound, nor -infinity an upper one.
  if (std::isnan(lower) || lower == std::numeric_limits<double>::infinity())
    return fail(action, "found lower bound " + number_text(lower) + " for " + name +
                            "; expected a finite number or -infinity (no lower bound)");
  if (std::isnan(upper) || upper == -std::numeric_limits<double>::infinity())
    return fail(action, "found upper bound " + number_text(upper) + " for " + name +
                            "; expected a finite number or infinity (no upper bound)");
  if (lower > upper)
    return fail(action, "found lower bound " + number_text(lower) + " > upper bound " + number_text(upper) + " for " +
                            name + "; expected lower <= upper");
  Scene edited = scene;
  Parameter& p = edited.params[id];
  p.optimize = optimize;
  p.lower = lower;
  p.upper = upper;
  // A file keeps no rows for a parameter neither optimised nor bounded.
  if (!optimize && std::isinf(lower) && std::isinf(upper)) p.optimize_rows.clear();
  return finish(std::move(edited), action);
}

Result<Scene> set_optimized_rows(const Scene& scene, ParamId id, const std::vector<int>& rows) {
  constexpr std::string_view action = "set optimized rows";
  if (auto error = check_input(scene, action)) return *error;
  if (auto error = check_param_id(action, id)) return *error;
  const Parameter& p = scene.params[id];
  for (int row : rows)
    if (row < 0 || row >= p.rows)
      return fail(action, "row " + std::to_string(row) + " of " + std::string(param_name(id)) +
                              " does not exist; expected a row in [0, " + std::to_string(p.rows) + ")");
  std::vector<int> sorted = rows;
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  Scene edited = scene;
  edited.params[id].optimize = true;
  edited.params[id].optimize_rows = std::move(sorted);
  return finish(std::move(edited), action);
}

}  // namespace nudge::studio::edits
