// The "objectives" section, the terms of the loss (target, positions, markers,
// velocity, effort, travel, orientation), with a markers objective's CSV file of
// reference tracks: how each is read from a scene file, written back and checked.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "io/marker_csv.h"
#include "nudge/objective_facts.h"
#include "objectives/objective_registry.h"
#include "io/scene_section.h"
#include "io/scene_sections.h"

namespace nudge::scene_io {

namespace {

// "target, positions, markers, velocity, effort, travel, orientation, smoothness"
std::string objective_type_names() {
  std::vector<std::string_view> names;
  for (const ObjectiveKind& kind : objective_kinds()) names.push_back(kind.name);
  return join(names);
}

// The keys of an objective of this layout, in the order they are written.
std::vector<std::string_view> objective_keys(const ObjectiveLayout& layout) {
  std::vector<std::string_view> keys{"type"};
  if (layout.binding == ObjectiveBinding::MarkerFile) keys.push_back("file");
  if (layout.lists_particles()) keys.push_back("particles");
  if (layout.lists_bodies()) keys.push_back("bodies");
  if (layout.lists_points()) keys.push_back("points");
  if (layout.lists_links()) keys.push_back("links");
  if (layout.elements == ObjectiveElements::Link) keys.push_back("link");
  if (layout.one_target()) keys.push_back("target");
  if (layout.target == ObjectiveTarget::PerParticle) keys.insert(keys.end(), {"targets", "offset"});
  if (layout.target == ObjectiveTarget::PerLink) keys.push_back("targets");
  if (layout.point) keys.push_back("point");
  if (layout.target == ObjectiveTarget::Region) keys.push_back("region");
  if (layout.target == ObjectiveTarget::PointSet) keys.push_back("shape");
  if (layout.target == ObjectiveTarget::StateWeights) keys.push_back("weights");
  if (layout.binding != ObjectiveBinding::None) keys.insert(keys.end(), {"bind", "bind_bodies"});
  if (layout.binding == ObjectiveBinding::MarkerFile) keys.push_back("steps_per_frame");
  if (layout.axis) keys.push_back("axis");
  if (layout.direction) keys.push_back("direction");
  if (layout.step) keys.insert(keys.end(), {"step", "from_step", "every"});
  keys.push_back("weight");
  return keys;
}

}  // namespace

// ---- Reading ----------------------------------------------------------------------

void SceneReader::read_objectives(const Node& node, Scene& scene) const {
  expect_array(node, "an array of objectives");
  for (std::size_t k = 0; k < node.size(); ++k) scene.objectives.push_back(read_objective(node.element(k), scene));
}

int SceneReader::step(const Node& objective, int steps) const {
  auto node = optional(objective, "step");
  if (!node) return -1;
  return static_cast<int>(
      integer(*node, -1, steps, "-1 (the final step) or a step in [0, " + std::to_string(steps) + "]"));
}

Objective SceneReader::read_objective(const Node& node, const Scene& scene) const {
  if (!node.json.is_object()) fail_found(node, "an objective object with a \"type\"");
  const Node type_node = required(node, "type", "one of: " + objective_type_names());
  const std::string type_name = string(type_node, "one of: " + objective_type_names());
  const std::optional<ObjectiveType> type = objective_type_from_name(type_name);
  if (!type) fail_found(type_node, "one of: " + objective_type_names());
  const bool vowel = std::string_view("aeiou").find(type_name.front()) != std::string_view::npos;
  const std::string context = context_of(node) + (vowel ? " (an " : " (a ") + type_name + " objective)";
  const ObjectiveLayout& layout = objective_layout(*type);
  expect_object(node, objective_keys(layout), context);

  Objective o;
  o.type = *type;
  switch (layout.elements) {
    case ObjectiveElements::None: break;
    case ObjectiveElements::Particles:
      o.particles = particle_list(required(node, "particles", "a non-empty array of particle indices"));
      break;
    case ObjectiveElements::ParticlesOrAll:
      if (auto particles = optional(node, "particles")) {
        o.particles = particle_list(*particles);
      } else {
        for (int i = 0; i < scene.particle_count(); ++i) o.particles.push_back(i);
      }
      break;
    case ObjectiveElements::ParticlesOrPoints:
      if (auto points = optional(node, "points")) o.points = point_list(*points, scene);
      if (auto particles = optional(node, "particles"))
        o.particles = particle_list(*particles);
      else if (o.points.empty())
        required(node, "particles", "a non-empty array of particle indices (or material \"points\")");
      break;
    case ObjectiveElements::ParticlesOrBodies:
      if (auto bodies = optional(node, "bodies")) o.bodies = body_list(*bodies, scene);
      if (auto points = optional(node, "points")) o.points = point_list(*points, scene);
      if (auto particles = optional(node, "particles"))
        o.particles = particle_list(*particles);
      else if (o.bodies.empty() && o.points.empty())
        required(node, "particles", "a non-empty array of particle indices (or \"bodies\", or \"points\")");
      break;
    case ObjectiveElements::Bodies:
      o.bodies = body_list(required(node, "bodies", "a non-empty array of body indices"), scene);
      break;
    case ObjectiveElements::PointsOrAll:
      if (auto points = optional(node, "points")) {
        o.points = point_list(*points, scene);
      } else {
        for (int i = 0; i < scene.material_points.count(); ++i) o.points.push_back(i);
      }
      break;
    case ObjectiveElements::LinksOrAll: o.links = link_list(optional(node, "links"), scene); break;
    case ObjectiveElements::Link: {
      const Node link = required(node, "link", "the name of a link of the articulations");
      const std::string name = string(link, "a link's name");
      const std::vector<ArticulationLink>& links = scene.articulations.links;
      const auto at =
          std::find_if(links.begin(), links.end(), [&](const ArticulationLink& l) { return l.name == name; });
      if (at == links.end()) fail_found(link, "the name of a link of the articulations");
      o.links = {static_cast<int>(at - links.begin())};
      break;
    }
  }
  if (layout.point)
    if (auto point = optional(node, "point")) {
      const std::array<double, 3> p = vec3(*point, "a point [x, y, z] in the link's frame (m)");
      std::copy(p.begin(), p.end(), o.point);
    }
  switch (layout.target) {
    case ObjectiveTarget::None: break;
    case ObjectiveTarget::Position:
    case ObjectiveTarget::Velocity: {
      const std::string_view expected = layout.target == ObjectiveTarget::Position
                                            ? "a target position [x, y, z] (m)"
                                            : "a target velocity [x, y, z] (m/s)";
      const std::array<double, 3> target = vec3(required(node, "target", expected), expected);
      o.target.assign(target.begin(), target.end());
      break;
    }
    case ObjectiveTarget::PerParticle: read_position_targets(node, scene, o); break;
    case ObjectiveTarget::PerLink: {
      const std::string expected =
          "an array of " + std::to_string(o.links.size()) + " joint coordinates (rad or m), one per link of \"links\"";
      const Node targets = required(node, "targets", expected);
      if (!targets.json.is_array() || targets.size() != o.links.size()) fail_found(targets, expected);
      for (std::size_t i = 0; i < targets.size(); ++i)
        o.target.push_back(number(targets.element(i), "a finite joint coordinate (rad or m)"));
      break;
    }
    case ObjectiveTarget::Region: {
      const Node region = required(node, "region", "a box: {\"lower\": [x, y, z], \"upper\": [x, y, z]}");
      if (!region.json.is_object()) fail_found(region, "a box: {\"lower\": [x, y, z], \"upper\": [x, y, z]}");
      expect_object(region, {"lower", "upper", "softness"});
      const std::array<double, 3> lower =
          vec3(required(region, "lower", "its lowest corner [x, y, z] (m)"), "its lowest corner [x, y, z] (m)");
      const Node upper_node = required(region, "upper", "its highest corner [x, y, z] (m)");
      const std::array<double, 3> upper = vec3(upper_node, "its highest corner [x, y, z] (m)");
      for (std::size_t k = 0; k < 3; ++k)
        if (!(upper[k] > lower[k])) fail_found(upper_node.element(k), "a coordinate above the lower corner's");
      double softness = 0.01 * std::min({upper[0] - lower[0], upper[1] - lower[1], upper[2] - lower[2]});
      if (auto soft = optional(region, "softness")) softness = number(*soft, "the indicator's width > 0 (m)", positive);
      o.target.assign(lower.begin(), lower.end());
      o.target.insert(o.target.end(), upper.begin(), upper.end());
      o.target.push_back(softness);
      break;
    }
    case ObjectiveTarget::StateWeights: {
      const std::string_view expected =
          "an array of (steps + 1) x 3 x (particles + bodies + material points) numbers, or (steps + 1) x (6 "
          "particles + 13 bodies + 3 material points) with the velocities and orientations";
      const Node weights = required(node, "weights", expected);
      expect_array(weights, expected);
      o.target.reserve(weights.size());
      for (std::size_t i = 0; i < weights.size(); ++i)
        o.target.push_back(number(weights.element(i), "a finite number"));
      break;
    }
    case ObjectiveTarget::PointSet: {
      const std::string_view expected = "an array of [x, y, z] points (m), at least one";
      const Node shape = required(node, "shape", expected);
      expect_array(shape, expected);
      if (shape.size() == 0) fail_found(shape, expected);
      for (std::size_t i = 0; i < shape.size(); ++i) {
        const std::array<double, 3> y = vec3(shape.element(i), "a point [x, y, z] (m)");
        o.target.insert(o.target.end(), y.begin(), y.end());
      }
      break;
    }
  }
  switch (layout.binding) {
    case ObjectiveBinding::None: break;
    case ObjectiveBinding::MarkerFile: read_markers(node, scene, o); break;
    case ObjectiveBinding::FootageTracks: read_tracks_objective(node, scene, o); break;
  }
  if (layout.direction)
    std::copy(std::begin(layout.default_direction), std::end(layout.default_direction), o.direction);
  if (auto axis = layout.axis ? optional(node, "axis") : std::nullopt)
    unit_vector(*axis, vec3(*axis, "an axis [x, y, z] in the body's frame"), o.axis);
  if (auto direction = layout.direction ? optional(node, "direction") : std::nullopt) read_direction(*direction, o);
  if (layout.step) {
    o.step = step(node, scene.settings.steps);
    const int last = o.step < 0 ? scene.settings.steps : o.step;
    if (auto from = optional(node, "from_step"))
      o.from_step = static_cast<int>(
          integer(*from, 0, last, "a first step in [0, " + std::to_string(last) + "] (the window ends at \"step\")"));
    if (auto every = optional(node, "every")) {
      if (o.from_step < 0) fail_found(*every, "\"every\" only beside a \"from_step\" (a window of steps)");
      o.every = static_cast<int>(integer(*every, 1, std::max(1, last), "a stride of 1 or more steps"));
    }
  }
  if (auto weight = optional(node, "weight")) o.weight = number(*weight, "a weight >= 0", non_negative);
  return o;
}

void SceneReader::read_position_targets(const Node& node, const Scene& scene, Objective& o) const {
  auto targets = optional(node, "targets");
  auto offset = optional(node, "offset");
  if (targets.has_value() == offset.has_value())
    fail(node.path, std::string(targets ? "found both" : "found neither") +
                        " \"targets\" and \"offset\"; expected exactly one of them");
  if (targets) {
    o.target =
        rows_of_3(*targets, o.particles.size(), "a target position [x, y, z] (m)",
                  "an array of " + std::to_string(o.particles.size()) + " [x, y, z] targets (one per listed particle)");
    return;
  }
  const std::array<double, 3> d = vec3(*offset, "an offset [dx, dy, dz] (m)");
  const std::vector<double>& x0 = scene.initial_positions();
  for (int i : o.particles)
    for (int k = 0; k < 3; ++k) {
      const double target = x0[3 * i + k] + d[k];
      if (!finite(target)) fail_found(*offset, "an offset whose targets stay finite");
      o.target.push_back(target);
    }
}

// Normalising a saved unit direction again could change a last digit and break
// load-save-load: unit_vector keeps it bit for bit.
void SceneReader::read_direction(const Node& node, Objective& o) const {
  unit_vector(node, vec3(node, "a direction [x, y, z]"), o.direction);
}

// Markers and tracks follow particles ("bind") or bodies' centres of mass
// ("bind_bodies"). Returns where each marker (or track) id is bound.
std::map<int, std::string> SceneReader::read_bindings(const Node& node, const Scene& scene, std::string_view what,
                                                      Objective& o) const {
  const std::string id_name(what);
  const std::optional<Node> bind_bodies = optional(node, "bind_bodies");
  const std::optional<Node> bind =
      bind_bodies ? optional(node, "bind")
                  : required(node, "bind", "a non-empty array of [" + id_name + ", particle] pairs");
  std::map<int, std::string> bound;  // id -> where it is bound
  const auto read_bind = [&](const Node& list, std::string_view element, auto index_of, auto& out) {
    const std::string expected = "a non-empty array of [" + id_name + ", " + std::string(element) + "] pairs";
    if (!list.json.is_array() || list.json.empty()) fail_found(list, expected);
    for (std::size_t k = 0; k < list.size(); ++k) {
      const Node pair = list.element(k);
      if (!pair.json.is_array() || pair.size() != 2)
        fail_found(pair, "a pair [" + id_name + ", " + std::string(element) + "]");
      const Node id_node = pair.element(0);
      const int id = int_in(id_node, std::numeric_limits<int>::min(), kIntMax, "a " + id_name + " id, an integer");
      if (const auto [it, inserted] = bound.emplace(id, pair.path); !inserted)
        fail_found(id_node, "each " + id_name + " bound once (" + id_name + " " + std::to_string(id) +
                                " is already at " + it->second + ")");
      out.emplace_back(id, index_of(pair.element(1)));
    }
  };
  if (bind)
    read_bind(
        *bind, "particle", [&](const Node& n) { return particle_index(n); }, o.bind);
  if (bind_bodies) {
    const int bodies = scene.body_count();
    const std::string body_range = "a body index in [0, " + std::to_string(bodies) + ")";
    read_bind(
        *bind_bodies, "body",
        [&](const Node& n) {
          if (bodies == 0) fail_found(n, "a body index (the scene has no bodies)");
          return static_cast<int>(integer(n, 0, bodies - 1, body_range));
        },
        o.bind_bodies);
  }
  return bound;
}

// A tracks objective compares the image of particles and bodies through the footage's
// camera with the footage's 2D tracks, frame by frame.
void SceneReader::read_tracks_objective(const Node& node, const Scene& scene, Objective& o) const {
  const Footage& footage = scene.footage;
  if (!footage.camera)
    fail(node.path,
         "found a tracks objective in a scene whose footage has no camera; expected a \"footage\" "
         "section with a \"camera\" (fit one from correspondences with nudge fit-camera)");
  if (!steps_per_frame(footage.fps, scene.settings.dt))
    fail(node.path, "found footage at " + number_text(footage.fps) + " frames per second and simulation.dt " +
                        number_text(scene.settings.dt) + " s, which give " +
                        number_text(1.0 / (footage.fps * scene.settings.dt)) +
                        " steps per frame; expected a whole number (set dt to 1 / (fps x steps per frame))");
  const std::map<int, std::string> bound = read_bindings(node, scene, "track", o);
  const int spf = *steps_per_frame(footage.fps, scene.settings.dt);
  for (const auto& [id, where] : bound) {
    const Track* track = footage.track(id);
    if (!track) fail(where + "[0]", "found " + std::to_string(id) + "; expected the id of one of footage.tracks");
    bool seen = false;
    for (const TrackSample& s : track->samples) {
      const long long at = step_of_frame(footage, spf, s.frame);
      seen = seen || (at >= 0 && at <= scene.settings.steps);
    }
    if (!seen)
      fail(where + "[0]", "found track " + std::to_string(id) + ", which has no sample within the simulation (frames " +
                              std::to_string(footage.first_frame) + " to " +
                              std::to_string(footage.first_frame + scene.settings.steps / spf) +
                              "); expected a track seen while the scene runs");
  }
}

void SceneReader::read_markers(const Node& node, const Scene& scene, Objective& o) const {
  const Node file = required(node, "file", "the path of a marker CSV file");
  const std::string written = string(file, "the path of a marker CSV file, relative to the scene's folder");
  if (written.empty()) fail_found(file, "the path of a marker CSV file");
  o.marker_file = fs::path(written);
  const fs::path resolved = o.marker_file.is_absolute() ? o.marker_file : folder_ / o.marker_file;

  if (auto spf = optional(node, "steps_per_frame"))
    o.steps_per_frame = int_in(*spf, 1, kIntMax, "an integer number of steps per frame");

  const std::map<int, std::string> bound = read_bindings(node, scene, "marker", o);

  Result<MarkerTrack> track = read_marker_csv(resolved);
  if (!track) fail(file.path, track.error().message);

  // Keep the samples of bound markers; others are ignored.
  std::set<int> observed;
  const long long steps = scene.settings.steps;
  for (std::size_t k = 0; k < track->samples.size(); ++k) {
    const MarkerSample& sample = track->samples[k];
    if (!bound.contains(sample.marker)) continue;
    const long long step_of_frame = static_cast<long long>(sample.frame) * o.steps_per_frame;
    if (step_of_frame < 0 || step_of_frame > steps)
      fail(file.path, resolved.string() + ":" + std::to_string(track->lines[k]) + ": found frame " +
                          std::to_string(sample.frame) + " (step " + std::to_string(step_of_frame) + " at " +
                          std::to_string(o.steps_per_frame) + " steps per frame); expected a frame in [0, " +
                          std::to_string(steps / o.steps_per_frame) + "] (simulation.steps is " +
                          std::to_string(steps) + ")");
    o.samples.push_back(sample);
    observed.insert(sample.marker);
  }
  for (const auto& [marker, where] : bound)
    if (!observed.contains(marker))
      fail(where + "[0]",
           "found " + std::to_string(marker) + "; expected a marker id that occurs in " + resolved.string());
}

// ---- Writing ----------------------------------------------------------------------

namespace {

OrderedJson pairs_json(const std::vector<std::pair<int, int>>& pairs) {
  OrderedJson list = OrderedJson::array();
  for (const auto& [id, index] : pairs) list.push_back({id, index});
  return list;
}

// The keys of objective_keys, those the objective holds.
OrderedJson objective_json(const Objective& o, const Scene& scene) {
  const ObjectiveLayout& layout = objective_layout(o.type);
  OrderedJson j;
  j["type"] = objective_type_name(o.type);
  if (layout.binding == ObjectiveBinding::MarkerFile) j["file"] = o.marker_file.generic_string();
  // A centroid of bodies alone leaves its particles out, one of particles alone its bodies.
  if (objective_uses_particles(o)) j["particles"] = o.particles;
  if (layout.elements == ObjectiveElements::Bodies || (layout.lists_bodies() && !o.bodies.empty()))
    j["bodies"] = o.bodies;
  if (!o.points.empty()) j["points"] = o.points;
  if (layout.elements == ObjectiveElements::Link && o.links.size() == 1 && o.links[0] >= 0 &&
      o.links[0] < scene.articulations.link_count())
    j["link"] = scene.articulations.links[size_t(o.links[0])].name;
  if (layout.point) j["point"] = {o.point[0], o.point[1], o.point[2]};
  if (layout.lists_links()) {
    OrderedJson names = OrderedJson::array();
    for (int k : o.links)
      names.push_back(k >= 0 && k < scene.articulations.link_count() ? scene.articulations.links[size_t(k)].name
                                                                     : std::to_string(k));
    j["links"] = names;
  }
  if (layout.one_target()) j["target"] = o.target;
  if (layout.target == ObjectiveTarget::PerParticle) j["targets"] = rows(o.target, 3);
  if (layout.target == ObjectiveTarget::PerLink) j["targets"] = o.target;
  if (layout.target == ObjectiveTarget::Region && o.target.size() == 7) {
    OrderedJson region;
    region["lower"] = {o.target[0], o.target[1], o.target[2]};
    region["upper"] = {o.target[3], o.target[4], o.target[5]};
    region["softness"] = o.target[6];
    j["region"] = region;
  }
  if (layout.target == ObjectiveTarget::PointSet) j["shape"] = rows(o.target, 3);
  if (layout.target == ObjectiveTarget::StateWeights) j["weights"] = o.target;
  if (layout.binding != ObjectiveBinding::None) {
    if (!o.bind.empty()) j["bind"] = pairs_json(o.bind);
    if (!o.bind_bodies.empty()) j["bind_bodies"] = pairs_json(o.bind_bodies);
  }
  if (layout.binding == ObjectiveBinding::MarkerFile) j["steps_per_frame"] = o.steps_per_frame;
  if (layout.axis) j["axis"] = vec3_json(o.axis);
  if (layout.direction) j["direction"] = vec3_json(o.direction);
  if (layout.step) j["step"] = o.step;
  if (layout.step && o.from_step >= 0) {
    j["from_step"] = o.from_step;
    if (o.every != 1) j["every"] = o.every;
  }
  j["weight"] = o.weight;
  return j;
}

}  // namespace

static OrderedJson objectives_json(const Scene& scene) {
  OrderedJson objectives = OrderedJson::array();
  for (const Objective& o : scene.objectives) objectives.push_back(objective_json(o, scene));
  return objectives;
}

// ---- Checking ---------------------------------------------------------------------

namespace {

Problem check_particle_list(const std::string& where, const std::vector<int>& particles, int n) {
  if (particles.empty()) return where + ": found no particles; expected at least one particle index";
  std::set<int> seen;
  for (std::size_t k = 0; k < particles.size(); ++k) {
    const int i = particles[k];
    if (i < 0 || i >= n)
      return found(index_path(where, static_cast<long long>(k)), i,
                   "a particle index in [0, " + std::to_string(n) + ")");
    if (!seen.insert(i).second)
      return found(index_path(where, static_cast<long long>(k)), i, "each particle at most once");
  }
  return std::nullopt;
}

Problem check_markers(const std::string& where, const Objective& o, int n, int bodies, int steps) {
  if (o.steps_per_frame < 1) return found(where + ".steps_per_frame", o.steps_per_frame, "an integer >= 1");
  if (o.bind.empty() && o.bind_bodies.empty())
    return where +
           ".bind: found no markers; expected at least one [marker, particle] (or bind_bodies [marker, body]) pair";
  std::set<int> bound;
  for (std::size_t k = 0; k < o.bind_bodies.size(); ++k) {
    const std::string pair = index_path(where + ".bind_bodies", static_cast<long long>(k));
    const auto [marker, body] = o.bind_bodies[k];
    if (!bound.insert(marker).second) return found(index_path(pair, 0), marker, "each marker bound once");
    if (body < 0 || body >= bodies)
      return found(index_path(pair, 1), body, "a body index in [0, " + std::to_string(bodies) + ")");
  }
  for (std::size_t k = 0; k < o.bind.size(); ++k) {
    const std::string pair = index_path(where + ".bind", static_cast<long long>(k));
    const auto [marker, particle] = o.bind[k];
    if (!bound.insert(marker).second) return found(index_path(pair, 0), marker, "each marker bound once");
    if (particle < 0 || particle >= n)
      return found(index_path(pair, 1), particle, "a particle index in [0, " + std::to_string(n) + ")");
  }
  std::set<int> observed;
  for (std::size_t k = 0; k < o.samples.size(); ++k) {
    const MarkerSample& sample = o.samples[k];
    const std::string at = index_path(where + ".samples", static_cast<long long>(k));
    if (!bound.contains(sample.marker)) return found(at + ".marker", sample.marker, "a marker listed in bind");
    const long long step = static_cast<long long>(sample.frame) * o.steps_per_frame;
    if (step < 0 || step > steps)
      return found(at + ".frame", sample.frame,
                   "a frame whose step (frame x " + std::to_string(o.steps_per_frame) + ") is in [0, " +
                       std::to_string(steps) + "]");
    for (double x : sample.position)
      if (!finite(x)) return found(at + ".position", x, "a finite position (m)");
    observed.insert(sample.marker);
  }
  for (std::size_t k = 0; k < o.bind.size(); ++k)
    if (!observed.contains(o.bind[k].first))
      return found(index_path(index_path(where + ".bind", static_cast<long long>(k)), 0), o.bind[k].first,
                   "a marker that has samples");
  for (std::size_t k = 0; k < o.bind_bodies.size(); ++k)
    if (!observed.contains(o.bind_bodies[k].first))
      return found(index_path(index_path(where + ".bind_bodies", static_cast<long long>(k)), 0), o.bind_bodies[k].first,
                   "a marker that has samples");
  return std::nullopt;
}

// The bindings of a tracks objective: each to an existing track, particle or body, once;
// and a camera and a whole number of steps per frame to map them with.
Problem check_tracks_objective(const std::string& where, const Objective& o, const Scene& scene) {
  if (!scene.footage.camera) return where + ": a tracks objective needs footage.camera; found none";
  if (!steps_per_frame(scene.footage.fps, scene.settings.dt))
    return where + ": footage.fps " + number_text(scene.footage.fps) + " and simulation.dt " +
           number_text(scene.settings.dt) + " give no whole number of steps per frame";
  if (o.bind.empty() && o.bind_bodies.empty())
    return where +
           ".bind: found no tracks; expected at least one [track, particle] (or bind_bodies [track, body]) pair";
  std::set<int> bound;
  const auto check_list = [&](const std::vector<std::pair<int, int>>& pairs, const std::string& key, int count,
                              std::string_view element) -> Problem {
    for (std::size_t k = 0; k < pairs.size(); ++k) {
      const std::string pair = index_path(where + "." + key, static_cast<long long>(k));
      const auto [track, index] = pairs[k];
      if (!bound.insert(track).second) return found(index_path(pair, 0), track, "each track bound once");
      if (!scene.footage.track(track)) return found(index_path(pair, 0), track, "the id of one of footage.tracks");
      if (index < 0 || index >= count)
        return found(index_path(pair, 1), index,
                     "a " + std::string(element) + " index in [0, " + std::to_string(count) + ")");
    }
    return std::nullopt;
  };
  if (Problem p = check_list(o.bind_bodies, "bind_bodies", scene.body_count(), "body")) return p;
  return check_list(o.bind, "bind", scene.particle_count(), "particle");
}

}  // namespace

static Problem check_objectives(const Scene& scene) {
  const int n = scene.particle_count(), steps = scene.settings.steps;
  for (std::size_t k = 0; k < scene.objectives.size(); ++k) {
    const Objective& o = scene.objectives[k];
    const std::string where = index_path("objectives", static_cast<long long>(k));
    if (!non_negative(o.weight)) return found(where + ".weight", o.weight, "a weight >= 0");
    if (o.step < -1 || o.step > steps)
      return found(where + ".step", o.step, "-1 (the final step) or a step in [0, " + std::to_string(steps) + "]");
    const int last = o.step < 0 ? steps : o.step;
    if (o.from_step < -1 || o.from_step > last)
      return found(where + ".from_step", o.from_step,
                   "-1 (no window) or a first step in [0, " + std::to_string(last) + "] (the window ends at step)");
    if (o.every < 1) return found(where + ".every", o.every, "a stride of 1 or more steps");
    if (o.from_step >= 0 && !objective_layout(o.type).step)
      return where + ".from_step: only objectives with a step take a window of steps";

    const ObjectiveLayout& layout = objective_layout(o.type);
    if (objective_uses_particles(o))
      if (Problem p = check_particle_list(where + ".particles", o.particles, n)) return p;
    if (layout.elements == ObjectiveElements::Bodies && o.bodies.empty())
      return where + ".bodies: found none; expected the bodies whose axis to turn";
    if (!objective_reads_bodies(o.type) && !o.bodies.empty())
      return where + ".bodies: only " + objective_names_where(objective_reads_bodies) + " objectives read bodies";
    if (!o.points.empty() && !layout.lists_points())
      return where + ".points: only " +
             objective_names_where([](ObjectiveType t) { return objective_layout(t).lists_points(); }) +
             " objectives read material points";
    if (layout.elements == ObjectiveElements::PointsOrAll && o.points.empty())
      return where + ".points: found none; expected the material points it counts";
    std::set<int> points;
    for (std::size_t i = 0; i < o.points.size(); ++i) {
      const std::string at = index_path(where + ".points", static_cast<long long>(i));
      const int count = scene.material_points.count();
      if (o.points[i] < 0 || o.points[i] >= count)
        return found(at, o.points[i], "a material point index in [0, " + std::to_string(count) + ")");
      if (!points.insert(o.points[i]).second) return found(at, o.points[i], "each material point once");
    }
    std::set<int> bodies;
    for (std::size_t i = 0; i < o.bodies.size(); ++i) {
      const std::string at = index_path(where + ".bodies", static_cast<long long>(i));
      if (o.bodies[i] < 0 || o.bodies[i] >= scene.body_count())
        return found(at, o.bodies[i], "a body index in [0, " + std::to_string(scene.body_count()) + ")");
      if (!bodies.insert(o.bodies[i]).second) return found(at, o.bodies[i], "each body once");
    }

    std::size_t target_size = 0;
    if (layout.one_target()) target_size = 3;
    if (layout.target == ObjectiveTarget::PerParticle) target_size = 3 * o.particles.size();
    if (layout.target == ObjectiveTarget::PerLink) target_size = o.links.size();
    if (layout.elements == ObjectiveElements::Link) {
      if (o.links.size() != 1 || o.links[0] < 0 || o.links[0] >= scene.articulations.link_count())
        return where + ".link: found no link of the articulations; expected one";
      for (double x : o.point)
        if (!finite(x)) return found(where + ".point", x, "a finite point in the link's frame (m)");
    } else if (!o.links.empty() && !layout.lists_links()) {
      return where + ".links: only joints and reach objectives read links";
    }
    if (layout.lists_links() && o.links.empty())
      return where + ".links: found none; expected the links whose joints it reads (the scene has no hinge or slide)";
    std::set<int> links;
    for (std::size_t i = 0; layout.lists_links() && i < o.links.size(); ++i) {
      const std::string at = index_path(where + ".links", static_cast<long long>(i));
      const int count = scene.articulations.link_count();
      if (o.links[i] < 0 || o.links[i] >= count)
        return found(at, o.links[i], "a link index in [0, " + std::to_string(count) + ")");
      const ArticulationLink& link = scene.articulations.links[size_t(o.links[i])];
      if (joint_velocity_count(link.joint) != 1)
        return at + ": found the link \"" + link.name + "\" with a " +
               std::string(articulation_joint_name(link.joint)) + "; expected a link with a hinge or a slide";
      if (!links.insert(o.links[i]).second) return found(at, o.links[i], "each link once");
    }
    if (layout.target == ObjectiveTarget::Region) target_size = 7;
    if (layout.target == ObjectiveTarget::StateWeights) {
      // The positions' weights, or theirs and the motion's (velocities, orientations).
      const std::size_t frames = std::size_t(scene.settings.steps + 1);
      target_size = frames * weights_per_step(scene, false);
      if (const std::size_t motion = frames * weights_per_step(scene, true); o.target.size() == motion)
        target_size = motion;
      else if (o.target.size() != target_size)
        return where + ".weights: found " + std::to_string(o.target.size()) + " values; expected " +
               std::to_string(target_size) + " (the positions') or " + std::to_string(motion) +
               " (with the velocities and orientations)";
    }
    if (layout.target == ObjectiveTarget::PointSet) {
      if (o.target.empty() || o.target.size() % 3 != 0)
        return where + ".shape: found " + std::to_string(o.target.size()) +
               " values; expected a positive multiple of 3 (points [x, y, z])";
      target_size = o.target.size();
    }
    if (o.target.size() != target_size)
      return where + (layout.target == ObjectiveTarget::StateWeights ? ".weights" : ".target") + ": found " +
             std::to_string(o.target.size()) + " values; expected " + std::to_string(target_size);
    for (std::size_t i = 0; i < o.target.size(); ++i)
      if (!finite(o.target[i]))
        return found(index_path(where + ".target", static_cast<long long>(i)), o.target[i], "a finite number");

    if (layout.target == ObjectiveTarget::Region) {
      for (int axis = 0; axis < 3; ++axis)
        if (!(o.target[size_t(axis) + 3] > o.target[size_t(axis)]))
          return found(index_path(where + ".region.upper", axis), o.target[size_t(axis) + 3],
                       "a coordinate above the lower corner's");
      if (!(o.target[6] > 0)) return found(where + ".region.softness", o.target[6], "a width > 0 (m)");
    }
    if (layout.direction) {
      const double length = std::hypot(o.direction[0], o.direction[1], o.direction[2]);
      if (!finite(length) || std::abs(length - 1.0) > 1e-9)
        return found(where + ".direction", length, "a unit vector (length 1)");
    }
    if (layout.axis) {
      const double length = std::hypot(o.axis[0], o.axis[1], o.axis[2]);
      if (!finite(length) || std::abs(length - 1.0) > 1e-9)
        return found(where + ".axis", length, "a unit vector (length 1)");
    }
    if (layout.binding == ObjectiveBinding::MarkerFile)
      if (Problem p = check_markers(where, o, n, scene.body_count(), steps)) return p;
    if (layout.binding == ObjectiveBinding::FootageTracks)
      if (Problem p = check_tracks_objective(where, o, scene)) return p;
  }
  return std::nullopt;
}

// ---- Its rows in the list of sections (scene_section.h) ---------------------------

extern const SceneSection kObjectivesSection{
    "objectives",
    ReadStage::Values,
    [](const SectionInput& in, Scene& scene) -> AfterShaping {
      if (in.node) in.reader.read_objectives(*in.node, scene);
      return {};
    },
    [](const Scene& scene) { return scene.objectives.empty() ? OrderedJson() : objectives_json(scene); },
    CheckStage::Elements,
    check_objectives};

}  // namespace nudge::scene_io
