// What the scene edits share: index lists, renumbering, parameter rows, finishing.
#include "studio/scene_edits_support.h"
#include "studio/scene_edits_controller.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <limits>
#include <set>
#include <string>
#include <utility>

#include "nudge/objective_facts.h"
#include "nudge/quat.h"

namespace nudge::studio::edits::support {

std::string number_text(double x) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, x);
  return std::string(buffer, result.ptr);
}

std::string vec3_text(const Vec3& v) {
  return "[" + number_text(v[0]) + ", " + number_text(v[1]) + ", " + number_text(v[2]) + "]";
}

bool finite(const Vec3& v) { return std::isfinite(v[0]) && std::isfinite(v[1]) && std::isfinite(v[2]); }

bool normalise_direction(double* v) {
  const double scale = std::max({std::abs(v[0]), std::abs(v[1]), std::abs(v[2])});
  if (!(scale > 0) || !std::isfinite(scale)) return false;
  if (scale <= 1 && std::abs(std::hypot(v[0], v[1], v[2]) - 1) <= 4 * std::numeric_limits<double>::epsilon())
    return true;
  const double length = std::hypot(v[0] / scale, v[1] / scale, v[2] / scale);
  for (int k = 0; k < 3; ++k) v[k] = v[k] / scale / length;
  return true;
}

namespace {

Quat<double> unit_rotation(const Transform& t) {
  return normalize(Quat<double>{t.rotation[0], t.rotation[1], t.rotation[2], t.rotation[3]});
}

}  // namespace

std::optional<Error> check_transform(std::string_view action, const Transform& t) {
  const double q = std::hypot(std::hypot(t.rotation[0], t.rotation[1]), std::hypot(t.rotation[2], t.rotation[3]));
  if (!finite(t.pivot)) return fail(action, "found pivot " + vec3_text(t.pivot) + "; expected finite values (m)");
  if (!std::isfinite(q) || !(q > 0))
    return fail(action,
                "found a rotation quaternion of length " + number_text(q) + "; expected a finite, non-zero one");
  if (!std::isfinite(t.scale) || !(t.scale > 0))
    return fail(action, "found scale " + number_text(t.scale) + "; expected a finite scale > 0");
  return std::nullopt;
}

void transform_point(const Transform& t, double* p) {
  const nudge::Vec3<double> from{p[0] - t.pivot[0], p[1] - t.pivot[1], p[2] - t.pivot[2]};
  const nudge::Vec3<double> to = rotate(unit_rotation(t), from);
  p[0] = t.pivot[0] + t.scale * to.x;
  p[1] = t.pivot[1] + t.scale * to.y;
  p[2] = t.pivot[2] + t.scale * to.z;
}

void transform_orientation(const Transform& t, double* q) {
  const Quat<double> turned = normalize(unit_rotation(t) * Quat<double>{q[0], q[1], q[2], q[3]});
  q[0] = turned.x, q[1] = turned.y, q[2] = turned.z, q[3] = turned.w;
}

std::optional<Error> check_indices(std::string_view action, std::string_view element, const std::vector<int>& indices,
                                   int count) {
  for (int i : indices)
    if (i < 0 || i >= count)
      return fail(action, std::string(element) + " " + std::to_string(i) +
                              " does not exist; expected an index in [0, " + std::to_string(count) + ")");
  return std::nullopt;
}

IndexMap index_map(int count, const std::vector<int>& removed) {
  IndexMap map(size_t(count), 0);
  for (int i : removed) map[size_t(i)] = -1;
  int next = 0;
  for (int& entry : map)
    if (entry == 0) entry = next++;
  return map;
}

int kept_count(const IndexMap& map) {
  return static_cast<int>(std::count_if(map.begin(), map.end(), [](int i) { return i >= 0; }));
}

// ---- Parameter rows -----------------------------------------------------------------

namespace {

// Renumbers optimised rows (ascending stays ascending: the map keeps the order).
void renumber_optimized_rows(Parameter& p, const IndexMap& map) {
  if (p.optimize_rows.empty()) return;
  std::vector<int> rows;
  for (int row : p.optimize_rows)
    if (row < static_cast<int>(map.size()) && map[size_t(row)] >= 0) rows.push_back(map[size_t(row)]);
  // All its optimised rows gone: an empty list would mean every row, so nothing is.
  if (rows.empty()) p.optimize = false;
  p.optimize_rows = std::move(rows);
}

}  // namespace

void remove_rows(ParameterSet& params, ParamElement element, const IndexMap& map) {
  for (int i = 0; i < kParamCount; ++i) {
    const ParamFacts& facts = param_facts(static_cast<ParamId>(i));
    if (facts.element != element) continue;
    Parameter& p = params.items[size_t(i)];
    const auto cols = static_cast<size_t>(facts.cols);
    std::vector<double> kept;
    kept.reserve(p.value.size());
    for (size_t row = 0; row < map.size(); ++row)
      if (map[row] >= 0)
        kept.insert(kept.end(), p.value.begin() + std::ptrdiff_t(row * cols),
                    p.value.begin() + std::ptrdiff_t((row + 1) * cols));
    p.value = std::move(kept);
    renumber_optimized_rows(p, map);
  }
}

void append_rows(ParameterSet& params, ParamElement element, int count) {
  for (int i = 0; i < kParamCount; ++i) {
    const auto id = static_cast<ParamId>(i);
    const ParamFacts& facts = param_facts(id);
    if (facts.element != element) continue;
    std::vector<double>& value = params[id].value;
    // A body's size entries are 0 unless its shape uses them (set_body_shape_size).
    const std::vector<double> row =
        is_body_size(id) ? std::vector<double>(size_t(facts.cols), 0.0) : param_default_row(facts, facts.cols);
    for (int r = 0; r < count; ++r) value.insert(value.end(), row.begin(), row.end());
  }
}

void insert_rows(ParameterSet& params, ParamElement element, int at, int count) {
  for (int i = 0; i < kParamCount; ++i) {
    const auto id = static_cast<ParamId>(i);
    const ParamFacts& facts = param_facts(id);
    if (facts.element != element) continue;
    Parameter& p = params[id];
    const std::vector<double> row = param_default_row(facts, facts.cols);
    std::vector<double> rows;
    for (int r = 0; r < count; ++r) rows.insert(rows.end(), row.begin(), row.end());
    p.value.insert(p.value.begin() + std::ptrdiff_t(size_t(at) * size_t(facts.cols)), rows.begin(), rows.end());
    for (int& r : p.optimize_rows)
      if (r >= at) r += count;
  }
}

void remove_columns(Parameter& param, int steps, const IndexMap& columns) {
  const size_t old_cols = columns.size(), new_cols = size_t(kept_count(columns));
  std::vector<double> value(size_t(steps) * new_cols);
  for (size_t t = 0; t < size_t(steps); ++t)
    for (size_t c = 0; c < old_cols; ++c)
      if (columns[c] >= 0) value[t * new_cols + size_t(columns[c])] = param.value[t * old_cols + c];
  param.value = std::move(value);
}

void append_columns(Parameter& param, int steps, int count) {
  const size_t old_cols = steps > 0 ? param.value.size() / size_t(steps) : 0, new_cols = old_cols + size_t(count);
  std::vector<double> value(size_t(steps) * new_cols, 0.0);
  for (size_t t = 0; t < size_t(steps); ++t)
    std::copy_n(param.value.begin() + std::ptrdiff_t(t * old_cols), old_cols,
                value.begin() + std::ptrdiff_t(t * new_cols));
  param.value = std::move(value);
}

void resize_steps(Parameter& param, int steps) {
  const int old_steps = param.rows;
  param.value.resize(size_t(steps) * size_t(param.cols), 0.0);  // rows are steps: the first ones stay
  IndexMap map(static_cast<size_t>(old_steps));
  for (int t = 0; t < old_steps; ++t) map[size_t(t)] = t < steps ? t : -1;
  renumber_optimized_rows(param, map);
}

// ---- Appending particles and springs -----------------------------------------------

void append_particles(Scene& scene, const std::vector<Vec3>& positions, double mass, double radius) {
  pin_controller_observation(scene);  // new particles are not new inputs
  const size_t first = size_t(scene.particle_count()), count = positions.size();
  scene.pinned.resize(first + count, 0);
  append_rows(scene.params, ParamElement::Particle, static_cast<int>(count));
  std::vector<double>& x = scene.initial_positions();
  for (size_t k = 0; k < count; ++k) {
    std::copy(positions[k].begin(), positions[k].end(), x.begin() + std::ptrdiff_t(3 * (first + k)));
    scene.params[ParamId::Mass].value[first + k] = mass;
    scene.particle_radii()[first + k] = radius;
  }
}

void append_springs(Scene& scene, const std::vector<std::pair<int, int>>& pairs, double stiffness, double damping) {
  const size_t first = size_t(scene.spring_count());
  append_rows(scene.params, ParamElement::Spring, static_cast<int>(pairs.size()));
  const std::vector<double>& x = scene.initial_positions();
  for (size_t k = 0; k < pairs.size(); ++k) {
    const auto [a, b] = pairs[k];
    scene.spring_a.push_back(a);
    scene.spring_b.push_back(b);
    scene.spring_channel.push_back(-1);
    scene.actuation.push_back(0.0);
    const size_t i = first + k;
    scene.params[ParamId::Stiffness].value[i] = stiffness;
    scene.params[ParamId::Damping].value[i] = damping;
    scene.params[ParamId::RestLength].value[i] =
        std::hypot(x[3 * size_t(b)] - x[3 * size_t(a)], x[3 * size_t(b) + 1] - x[3 * size_t(a) + 1],
                   x[3 * size_t(b) + 2] - x[3 * size_t(a) + 2]);
  }
}

// ---- References -------------------------------------------------------------------

namespace {

template <class T>
void erase_removed(std::vector<T>& items, const IndexMap& map) {
  size_t next = 0;
  for (size_t i = 0; i < items.size(); ++i)
    if (map[i] >= 0) {
      if (next != i) items[next] = std::move(items[i]);  // not onto itself: a self-moved string is emptied
      ++next;
    }
  items.resize(next);
}

// Whether the objective still reads anything; one that does not is removed.
bool reads_something(const Objective& o) {
  const ObjectiveLayout& layout = objective_layout(o.type);
  if (layout.binding != ObjectiveBinding::None) return !o.bind.empty() || !o.bind_bodies.empty();
  switch (layout.elements) {
    case ObjectiveElements::None: return true;  // the controls alone
    case ObjectiveElements::Particles:
    case ObjectiveElements::ParticlesOrAll: return !o.particles.empty();
    case ObjectiveElements::ParticlesOrPoints: return !o.particles.empty() || !o.points.empty();
    case ObjectiveElements::ParticlesOrBodies: return !o.particles.empty() || !o.bodies.empty() || !o.points.empty();
    case ObjectiveElements::Bodies: return !o.bodies.empty();
    case ObjectiveElements::PointsOrAll: return !o.points.empty();
    case ObjectiveElements::LinksOrAll:
    case ObjectiveElements::Link: return !o.links.empty();
  }
  return true;
}

// Renumbers a list of indices, dropping the deleted ones; a positions objective's
// targets (3 per listed particle) follow their particles.
void renumber_list(std::vector<int>& list, const IndexMap& map, std::vector<double>* targets) {
  std::vector<int> kept;
  std::vector<double> kept_targets;
  for (size_t k = 0; k < list.size(); ++k) {
    if (map[size_t(list[k])] < 0) continue;
    kept.push_back(map[size_t(list[k])]);
    if (targets)
      kept_targets.insert(kept_targets.end(), targets->begin() + std::ptrdiff_t(3 * k),
                          targets->begin() + std::ptrdiff_t(3 * k + 3));
  }
  list = std::move(kept);
  if (targets) *targets = std::move(kept_targets);
}

void renumber_bindings(std::vector<std::pair<int, int>>& bind, const IndexMap& map) {
  std::vector<std::pair<int, int>> kept;
  for (const auto& [marker, index] : bind)
    if (map[size_t(index)] >= 0) kept.emplace_back(marker, map[size_t(index)]);
  bind = std::move(kept);
}

}  // namespace

void remove_springs(Scene& scene, const IndexMap& springs) {
  erase_removed(scene.spring_a, springs);
  erase_removed(scene.spring_b, springs);
  erase_removed(scene.spring_channel, springs);
  erase_removed(scene.actuation, springs);
  remove_rows(scene.params, ParamElement::Spring, springs);
}

namespace {

// Elements of `per` particles each (indices: per x count) keep those whose particles
// all stay, renumbered, and drop the parameter rows of the others. Returns the map of
// the elements kept, for the element's other per-element arrays.
IndexMap keep_elements_of(Scene& scene, std::vector<int>& indices, int per, ParamElement element,
                          const IndexMap& particles) {
  const int count = static_cast<int>(indices.size()) / per;
  std::vector<int> removed, kept;
  for (int e = 0; e < count; ++e) {
    const int* corner = &indices[size_t(e) * size_t(per)];
    if (std::any_of(corner, corner + per, [&](int i) { return particles[size_t(i)] < 0; })) {
      removed.push_back(e);
      continue;
    }
    for (int c = 0; c < per; ++c) kept.push_back(particles[size_t(corner[c])]);
  }
  indices = std::move(kept);
  const IndexMap elements = index_map(count, removed);
  remove_rows(scene.params, element, elements);
  return elements;
}

}  // namespace

namespace {

// Drops the elements of `per` corners whose map entry is -1, with their parameter rows.
void remove_corner_elements(Scene& scene, std::vector<int>& indices, int per, ParamElement element,
                            const IndexMap& map) {
  std::vector<int> kept;
  for (size_t e = 0; e < map.size(); ++e)
    if (map[e] >= 0) kept.insert(kept.end(), indices.begin() + long(e) * per, indices.begin() + long(e + 1) * per);
  indices = std::move(kept);
  remove_rows(scene.params, element, map);
}

}  // namespace

void remove_triangles(Scene& scene, const IndexMap& triangles) {
  remove_corner_elements(scene, scene.triangles, 3, ParamElement::Triangle, triangles);
}

void remove_bending_edges(Scene& scene, const IndexMap& edges) {
  remove_corner_elements(scene, scene.bending, 4, ParamElement::BendingEdge, edges);
}

void remove_tets(Scene& scene, const IndexMap& tets) {
  remove_corner_elements(scene, scene.tets, 4, ParamElement::Tet, tets);
  erase_removed(scene.tet_channel, tets);
  erase_removed(scene.tet_actuation, tets);
}

void keep_elements_of(Scene& scene, const IndexMap& particles) {
  keep_elements_of(scene, scene.triangles, 3, ParamElement::Triangle, particles);
  keep_elements_of(scene, scene.bending, 4, ParamElement::BendingEdge, particles);
  const IndexMap tets = keep_elements_of(scene, scene.tets, 4, ParamElement::Tet, particles);
  erase_removed(scene.tet_channel, tets);
  erase_removed(scene.tet_actuation, tets);
}

void remove_joints(Scene& scene, const IndexMap& joints) {
  erase_removed(scene.joints, joints);
  remove_rows(scene.params, ParamElement::Joint, joints);
  remove_columns(scene.params[ParamId::JointControl], scene.settings.steps, joints);
}

void renumber_actuators(Scene& scene, const IndexMap& particles, const IndexMap& bodies) {
  const auto gone = [](const IndexMap& map, int i) { return i >= 0 && !map.empty() && map[size_t(i)] < 0; };
  std::erase_if(scene.actuators,
                [&](const Actuator& a) { return gone(particles, a.particle) || gone(bodies, a.body); });
  for (Actuator& a : scene.actuators) {
    if (a.particle >= 0 && !particles.empty()) a.particle = particles[size_t(a.particle)];
    if (a.body >= 0 && !bodies.empty()) a.body = bodies[size_t(a.body)];
  }
}

void renumber_objectives(Scene& scene, const IndexMap& particles, const IndexMap& bodies) {
  std::vector<Objective> kept;
  for (Objective& o : scene.objectives) {
    if (!particles.empty()) {
      const bool per_particle = objective_layout(o.type).target == ObjectiveTarget::PerParticle;
      renumber_list(o.particles, particles, per_particle ? &o.target : nullptr);
      renumber_bindings(o.bind, particles);
    }
    if (!bodies.empty()) {
      renumber_list(o.bodies, bodies, nullptr);
      renumber_bindings(o.bind_bodies, bodies);
    }
    // A marker no longer bound has no samples to compare.
    if (objective_layout(o.type).binding == ObjectiveBinding::MarkerFile) {
      std::set<int> bound;
      for (const auto& pair : o.bind) bound.insert(pair.first);
      for (const auto& pair : o.bind_bodies) bound.insert(pair.first);
      std::erase_if(o.samples, [&](const MarkerSample& s) { return !bound.contains(s.marker); });
    }
    if (reads_something(o)) kept.push_back(std::move(o));
  }
  scene.objectives = std::move(kept);
}

namespace {

// Springs with an end that goes go; the rest are renumbered.
void drop_springs_of(Scene& scene, const IndexMap& particles, const IndexMap&) {
  if (particles.empty()) return;
  std::vector<int> springs;
  for (int s = 0; s < scene.spring_count(); ++s)
    if (particles[size_t(scene.spring_a[size_t(s)])] < 0 || particles[size_t(scene.spring_b[size_t(s)])] < 0)
      springs.push_back(s);
  remove_springs(scene, index_map(scene.spring_count(), springs));
  for (size_t s = 0; s < scene.spring_a.size(); ++s) {
    scene.spring_a[s] = particles[size_t(scene.spring_a[s])];
    scene.spring_b[s] = particles[size_t(scene.spring_b[s])];
  }
}

void drop_corner_elements_of(Scene& scene, const IndexMap& particles, const IndexMap&) {
  if (!particles.empty()) support::keep_elements_of(scene, particles);
}

// Joints that hold a body that goes go with it (the world, -1, stays the world).
void drop_joints_of(Scene& scene, const IndexMap&, const IndexMap& bodies) {
  if (bodies.empty()) return;
  const auto gone = [&](int body) { return body >= 0 && bodies[size_t(body)] < 0; };
  std::vector<int> joints;
  for (int j = 0; j < scene.joint_count(); ++j)
    if (gone(scene.joints[size_t(j)].parent) || gone(scene.joints[size_t(j)].child)) joints.push_back(j);
  remove_joints(scene, index_map(scene.joint_count(), joints));
  for (Joint& joint : scene.joints) {
    if (joint.parent >= 0) joint.parent = bodies[size_t(joint.parent)];
    joint.child = bodies[size_t(joint.child)];
  }
}

void drop_attachments_of(Scene& scene, const IndexMap& particles, const IndexMap& bodies) {
  const auto gone = [](const IndexMap& map, int i) { return !map.empty() && map[size_t(i)] < 0; };
  std::erase_if(scene.attachments,
                [&](const Attachment& a) { return gone(particles, a.particle) || gone(bodies, a.body); });
  for (Attachment& a : scene.attachments) {
    if (!particles.empty()) a.particle = particles[size_t(a.particle)];
    if (!bodies.empty()) a.body = bodies[size_t(a.body)];
  }
}

using DropReferences = void (*)(Scene& scene, const IndexMap& particles, const IndexMap& bodies);
constexpr DropReferences kReferences[] = {drop_springs_of,     drop_corner_elements_of, drop_joints_of,
                                          drop_attachments_of, renumber_actuators,      renumber_objectives};

}  // namespace

void drop_references(Scene& scene, const IndexMap& particles, const IndexMap& bodies) {
  for (DropReferences drop : kReferences) drop(scene, particles, bodies);
}

// ---- Starting and finishing --------------------------------------------------------

std::optional<Error> check_input(const Scene& scene, std::string_view action) {
  if (Status valid = check_scene(scene); !valid)
    return fail(action, "the scene to edit is invalid: " + valid.error().message);
  return std::nullopt;
}

double shared_particle_radius(const Scene& scene) {
  const std::vector<double>& radius = scene.particle_radii();
  if (radius.empty()) return 0.0;
  const bool shared = std::all_of(radius.begin(), radius.end(), [&](double r) { return r == radius.front(); });
  return shared ? radius.front() : 0.0;
}

Result<Scene> finish(Scene scene, std::string_view action) {
  shape_parameters(scene);
  if (Status valid = check_scene(scene); !valid) return fail(action, valid.error().message);
  return scene;
}

}  // namespace nudge::studio::edits::support
