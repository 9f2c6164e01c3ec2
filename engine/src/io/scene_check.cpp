// Parameter shapes and defaults, and the invariants the engine relies on for any
// scene, loaded or built in code. Messages name the place as a scene file would
// ("springs.pairs[3]", "particles.mass[2]") so users and programmers read the same words.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <numbers>
#include <optional>
#include <set>
#include <string>

#include "nudge/parameter_facts.h"
#include "nudge/scene.h"

namespace nudge {

namespace {

struct Shape {
  int rows = 0, cols = 0;
};

// The counts a parameter's shape follows from.
struct Counts {
  int particles, springs, steps, channels, bodies, joints;
};

Counts counts_of(const Scene& scene) {
  return {scene.particle_count(), scene.spring_count(), std::max(scene.settings.steps, 0), std::max(scene.channels, 0),
          scene.body_count(), scene.joint_count()};
}

Shape shape_of(ParamId id, const Counts& n) {
  const ParamFacts& f = param_facts(id);
  const auto per_step = [&](int columns) -> Shape {
    // An impossible size is left empty for check_scene to report, rather than allocated.
    if (static_cast<long long>(n.steps) * columns > kMaxControlValues) return {0, 0};
    return {n.steps, columns};
  };
  switch (f.element) {
    case ParamElement::Particle: return {n.particles, f.cols};
    case ParamElement::Spring: return {n.springs, f.cols};
    case ParamElement::Scene: return {1, f.cols};
    case ParamElement::StepChannel: return per_step(n.channels);
    case ParamElement::Body: return {n.bodies, f.cols};
    case ParamElement::Joint: return {n.joints, f.cols};
    case ParamElement::StepJoint: return per_step(n.joints);
  }
  return {};
}

// The spring's length in the initial configuration, or 0 if an end is out of range
// (check_scene reports that).
double initial_distance(const Scene& scene, int spring) {
  const std::vector<double>& x = scene.params[ParamId::InitialPosition].value;
  const int a = scene.spring_a[spring], b = scene.spring_b[spring];
  const int n = scene.particle_count();
  if (a < 0 || a >= n || b < 0 || b >= n) return 0.0;
  return std::hypot(x[3 * b] - x[3 * a], x[3 * b + 1] - x[3 * a + 1], x[3 * b + 2] - x[3 * a + 2]);
}

// The table's fill, except where a default depends on more than one number.
std::vector<double> default_value(const Scene& scene, ParamId id, Shape shape) {
  const auto size = static_cast<std::size_t>(shape.rows) * static_cast<std::size_t>(shape.cols);
  switch (id) {
    case ParamId::Gravity: return {0.0, -9.81, 0.0};
    case ParamId::BodyOrientation: {
      std::vector<double> identity(size, 0.0);
      for (int i = 0; i < shape.rows; ++i) identity[4 * size_t(i) + 3] = 1.0;
      return identity;
    }
    case ParamId::RestLength: {
      std::vector<double> rest(size);
      for (int i = 0; i < shape.rows; ++i) rest[i] = initial_distance(scene, i);
      return rest;
    }
    default: return std::vector<double>(size, param_facts(id).fill);
  }
}

// ---- check_scene -------------------------------------------------------------

using Problem = std::optional<std::string>;  // the first violated invariant, if any

std::string number_text(double x) {
  char buffer[32];
  const auto result = std::to_chars(buffer, buffer + sizeof buffer, x);
  return std::string(buffer, result.ptr);
}
std::string number_text(int x) { return std::to_string(x); }

bool finite(double x) { return std::isfinite(x); }
bool positive(double x) { return std::isfinite(x) && x > 0; }
bool non_negative(double x) { return std::isfinite(x) && x >= 0; }
bool unit_interval_open_right(double x) { return std::isfinite(x) && x >= 0 && x < 1; }

std::string index_path(const std::string& path, long long i) { return path + "[" + std::to_string(i) + "]"; }

template <class Number>
std::string found(const std::string& where, Number value, std::string_view expected) {
  return where + ": found " + number_text(value) + "; expected " + std::string(expected);
}

// "particles.position[4][1]", "springs.stiffness[2]", "simulation.gravity[1]", "simulation.drag".
std::string element_path(std::string_view where, const Parameter& p, int flat_index) {
  // A body's or joint's values sit in its own object: "bodies[2].position[1]".
  for (std::string_view list : {"bodies", "joints"})
    if (where.starts_with(list) && where.size() > list.size() && where[list.size()] == '.') {
      const std::string element = index_path(std::string(list), flat_index / p.cols) + std::string(where.substr(list.size()));
      return p.cols == 1 ? element : index_path(element, flat_index % p.cols);
    }
  std::string path(where);
  if (p.rows == 1 && p.cols == 1) return path;
  if (p.rows == 1 || p.cols == 1) return index_path(path, flat_index);
  return index_path(index_path(path, flat_index / p.cols), flat_index % p.cols);
}

Problem check_settings(const Scene& scene) {
  const Settings& s = scene.settings;
  if (!(finite(s.dt) && s.dt > 0 && s.dt <= 1))
    return found("simulation.dt", s.dt, "a time step in (0, 1] (s)");
  if (s.steps < 1 || s.steps > kMaxSteps)
    return found("simulation.steps", s.steps, "a step count in [1, " + std::to_string(kMaxSteps) + "]");
  if (s.checkpoint_every < 0)
    return found("simulation.checkpoint_every", s.checkpoint_every, "an interval >= 0 (0 stores every state)");
  const Ground& g = s.ground;
  if (!finite(g.height)) return found("simulation.ground.height", g.height, "a finite height (m)");
  if (!non_negative(g.damping)) return found("simulation.ground.damping", g.damping, "a damping >= 0 (N s/m)");
  if (!positive(g.contact_smoothing))
    return found("simulation.ground.contact_smoothing", g.contact_smoothing, "a width > 0 (m)");
  if (!positive(g.friction_smoothing))
    return found("simulation.ground.friction_smoothing", g.friction_smoothing, "a speed > 0 (m/s)");
  return std::nullopt;
}

Problem check_topology(const Scene& scene) {
  const int n = scene.particle_count(), s = scene.spring_count(), c = scene.channels;
  if (n < 1 && scene.body_count() == 0)
    return std::string("particles.position: found no particles and no bodies; expected at least one of either");
  for (int i = 0; i < n; ++i)
    if (scene.pinned[i] > 1)
      return found(index_path("particles.pinned", i), int{scene.pinned[i]}, "0 (free) or 1 (pinned)");
  if (c < 0 || c > kMaxChannels)
    return found("controls.channels", c, "a channel count in [0, " + std::to_string(kMaxChannels) + "]");
  if (static_cast<long long>(scene.settings.steps) * c > kMaxControlValues)
    return "controls: found " + std::to_string(scene.settings.steps) + " steps x " + std::to_string(c) +
           " channels; expected at most " + std::to_string(kMaxControlValues) + " control values";
  if (static_cast<long long>(scene.settings.steps) * scene.joint_count() > kMaxControlValues)
    return "joint_controls: found " + std::to_string(scene.settings.steps) + " steps x " +
           std::to_string(scene.joint_count()) + " joints; expected at most " + std::to_string(kMaxControlValues) +
           " joint control values";

  const auto size_problem = [&](std::string_view what, std::size_t size) -> Problem {
    if (size == static_cast<std::size_t>(s)) return std::nullopt;
    return std::string(what) + ": found " + std::to_string(size) + " entries; expected " + std::to_string(s) +
           " (one per spring)";
  };
  if (Problem p = size_problem("spring_b", scene.spring_b.size())) return p;
  if (Problem p = size_problem("springs.channel", scene.spring_channel.size())) return p;
  if (Problem p = size_problem("springs.actuation", scene.actuation.size())) return p;

  const std::string particle_range = "a particle index in [0, " + std::to_string(n) + ")";
  for (int i = 0; i < s; ++i) {
    const std::string pair = index_path("springs.pairs", i);
    const int a = scene.spring_a[i], b = scene.spring_b[i];
    if (a < 0 || a >= n) return found(index_path(pair, 0), a, particle_range);
    if (b < 0 || b >= n) return found(index_path(pair, 1), b, particle_range);
    if (a == b) return pair + ": a spring joins particle " + std::to_string(a) + " to itself";
    const int channel = scene.spring_channel[i];
    if (channel < -1 || channel >= c)
      return found(index_path("springs.channel", i), channel,
                   "-1 (passive) or a channel in [0, " + std::to_string(c) + ")");
    if (!finite(scene.actuation[i]))
      return found(index_path("springs.actuation", i), scene.actuation[i], "a finite actuation");
  }
  return std::nullopt;
}

Problem check_parameters(const Scene& scene) {
  for (int i = 0; i < kParamCount; ++i) {
    const auto id = static_cast<ParamId>(i);
    const Parameter& p = scene.params[id];
    const ParamFacts& facts = param_facts(id);
    const std::string where(facts.where);
    if (p.id != id)
      return "params[" + std::to_string(i) + "]: found id " + std::to_string(static_cast<int>(p.id)) +
             "; expected " + std::to_string(i) + " ('" + std::string(param_name(id)) + "'; call shape_parameters)";
    const Shape shape = shape_of(id, counts_of(scene));
    if (p.rows != shape.rows || p.cols != shape.cols ||
        p.value.size() != static_cast<std::size_t>(shape.rows) * static_cast<std::size_t>(shape.cols) ||
        p.grad.size() != p.value.size())
      return where + ": found " + std::to_string(p.rows) + " x " + std::to_string(p.cols) + " with " +
             std::to_string(p.value.size()) + " values and " + std::to_string(p.grad.size()) +
             " gradients; expected " + std::to_string(shape.rows) + " x " + std::to_string(shape.cols) +
             " (call shape_parameters)";
    for (int k = 0; k < p.size(); ++k)
      if (!in_param_range(facts.range, p.value[k])) return found(element_path(facts.where, p, k), p.value[k], facts.expected);
    const std::string bounds = "parameters." + std::string(param_name(id));
    for (size_t k = 0; k < p.optimize_rows.size(); ++k)
      if (p.optimize_rows[k] < 0 || p.optimize_rows[k] >= p.rows || (k > 0 && p.optimize_rows[k] <= p.optimize_rows[k - 1]))
        return found(index_path(bounds + ".rows", static_cast<long long>(k)), p.optimize_rows[k],
                     "ascending distinct row indices in [0, " + std::to_string(p.rows) + ")");
    if (std::isnan(p.lower) || std::isnan(p.upper) || p.lower > p.upper)
      return bounds + ": found lower " + number_text(p.lower) + " and upper " + number_text(p.upper) +
             "; expected lower <= upper";
  }
  return std::nullopt;
}

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
  if (o.steps_per_frame < 1)
    return found(where + ".steps_per_frame", o.steps_per_frame, "an integer >= 1");
  if (o.bind.empty() && o.bind_bodies.empty())
    return where + ".bind: found no markers; expected at least one [marker, particle] (or bind_bodies [marker, body]) pair";
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

Problem check_objectives(const Scene& scene) {
  const int n = scene.particle_count(), steps = scene.settings.steps;
  for (std::size_t k = 0; k < scene.objectives.size(); ++k) {
    const Objective& o = scene.objectives[k];
    const std::string where = index_path("objectives", static_cast<long long>(k));
    if (!non_negative(o.weight)) return found(where + ".weight", o.weight, "a weight >= 0");
    if (o.step < -1 || o.step > steps)
      return found(where + ".step", o.step, "-1 (the final step) or a step in [0, " + std::to_string(steps) + "]");

    // A target or velocity term may read bodies instead of (or besides) particles.
    const bool centroid = o.type == ObjectiveType::Target || o.type == ObjectiveType::Velocity;
    const bool uses_particles = o.type == ObjectiveType::Positions || o.type == ObjectiveType::Travel ||
                                (centroid && (!o.particles.empty() || o.bodies.empty()));
    if (uses_particles)
      if (Problem p = check_particle_list(where + ".particles", o.particles, n)) return p;
    const bool orientation = o.type == ObjectiveType::Orientation;
    if (orientation && o.bodies.empty()) return where + ".bodies: found none; expected the bodies whose axis to turn";
    if (!centroid && !orientation && !o.bodies.empty())
      return where + ".bodies: only target, velocity and orientation objectives read bodies";
    std::set<int> bodies;
    for (std::size_t i = 0; i < o.bodies.size(); ++i) {
      const std::string at = index_path(where + ".bodies", static_cast<long long>(i));
      if (o.bodies[i] < 0 || o.bodies[i] >= scene.body_count())
        return found(at, o.bodies[i], "a body index in [0, " + std::to_string(scene.body_count()) + ")");
      if (!bodies.insert(o.bodies[i]).second) return found(at, o.bodies[i], "each body once");
    }

    std::size_t target_size = 0;
    if (o.type == ObjectiveType::Target || o.type == ObjectiveType::Velocity) target_size = 3;
    if (o.type == ObjectiveType::Positions) target_size = 3 * o.particles.size();
    if (o.target.size() != target_size)
      return where + ".target: found " + std::to_string(o.target.size()) + " values; expected " +
             std::to_string(target_size);
    for (std::size_t i = 0; i < o.target.size(); ++i)
      if (!finite(o.target[i]))
        return found(index_path(where + ".target", static_cast<long long>(i)), o.target[i], "a finite number");

    if (o.type == ObjectiveType::Travel || orientation) {
      const double length = std::hypot(o.direction[0], o.direction[1], o.direction[2]);
      if (!finite(length) || std::abs(length - 1.0) > 1e-9)
        return found(where + ".direction", length, "a unit vector (length 1)");
    }
    if (orientation) {
      const double length = std::hypot(o.axis[0], o.axis[1], o.axis[2]);
      if (!finite(length) || std::abs(length - 1.0) > 1e-9) return found(where + ".axis", length, "a unit vector (length 1)");
    }
    if (o.type == ObjectiveType::Markers)
      if (Problem p = check_markers(where, o, n, scene.body_count(), steps)) return p;
  }
  return std::nullopt;
}

Problem check_camera(const Scene& scene) {
  const SceneCamera& c = scene.camera;
  if (!c.set) return std::nullopt;
  for (int k = 0; k < 3; ++k) {
    if (!std::isfinite(c.eye[k])) return found("camera.eye[" + std::to_string(k) + "]", c.eye[k], "a finite number");
    if (!std::isfinite(c.target[k]))
      return found("camera.target[" + std::to_string(k) + "]", c.target[k], "a finite number");
  }
  if (c.eye[0] == c.target[0] && c.eye[1] == c.target[1] && c.eye[2] == c.target[2])
    return std::string("camera.target: the same point as camera.eye; expected a point other than the camera position");
  if (!(c.fov_degrees > 0 && c.fov_degrees < 180))
    return found("camera.fov_degrees", c.fov_degrees, "a vertical field of view in degrees, in (0, 180)");
  return std::nullopt;
}

// The shapes' numbers (their sizes > 0, directions and rotations of unit length) and
// the contact settings.
Problem check_colliders(const Scene& scene) {
  for (std::size_t i = 0; i < scene.colliders.size(); ++i) {
    const ColliderShape& c = scene.colliders[i];
    const std::string at = index_path("colliders", static_cast<long long>(i));
    const auto vector_problem = [&](std::string_view key, const double* v, int count) -> Problem {
      for (int k = 0; k < count; ++k)
        if (!finite(v[k])) return found(index_path(at + "." + std::string(key), k), v[k], "a finite number");
      return std::nullopt;
    };
    const auto unit = [](const double* v, int count) {
      double sum = 0;
      for (int k = 0; k < count; ++k) sum += v[k] * v[k];
      return std::abs(std::sqrt(sum) - 1) <= 1e-6;
    };
    if (c.type == ColliderType::Plane) {
      if (Problem p = vector_problem("normal", c.normal, 3)) return p;
      if (!unit(c.normal, 3)) return at + ".normal: not of unit length; expected a unit normal [x, y, z]";
      if (!finite(c.offset)) return found(at + ".offset", c.offset, "a finite offset (m)");
      continue;
    }
    if (Problem p = vector_problem("position", c.position, 3)) return p;
    if (Problem p = vector_problem("orientation", c.orientation, 4)) return p;
    if (!unit(c.orientation, 4)) return at + ".orientation: not of unit length; expected a unit quaternion [x, y, z, w]";
    if (c.type == ColliderType::Box)
      for (int k = 0; k < 3; ++k)
        if (!positive(c.half_extents[k]))
          return found(index_path(at + ".half_extents", k), c.half_extents[k], "a half extent > 0 (m)");
    if ((c.type == ColliderType::Sphere || c.type == ColliderType::Capsule) && !positive(c.radius))
      return found(at + ".radius", c.radius, "a radius > 0 (m)");
    if (c.type == ColliderType::Capsule && !positive(c.half_length))
      return found(at + ".half_length", c.half_length, "half the axis' length > 0 (m)");
  }
  if (!non_negative(scene.contact.smoothing))
    return found("contact.smoothing", scene.contact.smoothing, "a width >= 0 (m)");
  if (!positive(scene.contact.friction_smoothing))
    return found("contact.friction_smoothing", scene.contact.friction_smoothing, "a speed > 0 (m/s)");
  return std::nullopt;
}

// Each body's shape has positive sizes, and its orientation is a quaternion that can be
// normalised.
Problem check_bodies(const Scene& scene) {
  for (int b = 0; b < scene.body_count(); ++b) {
    const RigidBody& body = scene.bodies[size_t(b)];
    const std::string at = index_path("bodies", b);
    if (body.shape == BodyShape::Box)
      for (int k = 0; k < 3; ++k)
        if (!positive(body.half_extents[k]))
          return found(index_path(at + ".half_extents", k), body.half_extents[k], "a half extent > 0 (m)");
    if (body.shape != BodyShape::Box && !positive(body.radius)) return found(at + ".radius", body.radius, "a radius > 0 (m)");
    if (body.shape == BodyShape::Capsule && !positive(body.half_length))
      return found(at + ".half_length", body.half_length, "half the axis' length > 0 (m)");
    const std::vector<double>& q = scene.params[ParamId::BodyOrientation].value;
    if (q.size() == 4 * size_t(scene.body_count())) {
      const double* o = &q[4 * size_t(b)];
      if (!(o[0] * o[0] + o[1] * o[1] + o[2] * o[2] + o[3] * o[3] > 1e-12))
        return at + ".orientation: a zero quaternion; expected a rotation [x, y, z, w] of non-zero length";
    }
  }
  return std::nullopt;
}

// Each joint names bodies that exist (two different ones, or one and the world), a unit
// axis, limits in order, and the penalty settings are usable.
Problem check_joints(const Scene& scene) {
  const int b = scene.body_count();
  const std::string body_range = "a body index in [0, " + std::to_string(b) + ")";
  for (int j = 0; j < scene.joint_count(); ++j) {
    const Joint& joint = scene.joints[size_t(j)];
    const std::string at = index_path("joints", j);
    if (joint.parent < -1 || joint.parent >= b) return found(at + ".parent", joint.parent, "-1 (the world) or " + body_range);
    if (joint.child < 0 || joint.child >= b) return found(at + ".child", joint.child, body_range);
    if (joint.parent == joint.child) return found(at + ".child", joint.child, "a body other than the parent");
    const double length = std::hypot(joint.axis[0], joint.axis[1], joint.axis[2]);
    if (!finite(length) || std::abs(length - 1.0) > 1e-6) return found(at + ".axis", length, "a unit vector (length 1)");
    if (joint.limited) {
      if (joint.type != JointType::Hinge && joint.type != JointType::Prismatic)
        return at + ".limits: a " + std::string(joint_type_name(joint.type)) + " joint has no free direction to limit";
      if (!finite(joint.lower) || !finite(joint.upper) || joint.lower > joint.upper)
        return at + ".limits: found [" + number_text(joint.lower) + ", " + number_text(joint.upper) +
               "]; expected [lower, upper] with lower <= upper";
      if (joint.type == JointType::Hinge && (joint.lower < -std::numbers::pi || joint.upper > std::numbers::pi))
        return at + ".limits: found [" + number_text(joint.lower) + ", " + number_text(joint.upper) +
               "]; expected turns within [-pi, pi] (rad)";
    }
  }
  const JointSettings& js = scene.joint_settings;
  if (!positive(js.stiffness)) return found("joint_settings.stiffness", js.stiffness, "a stiffness > 0 (N/m)");
  if (!non_negative(js.damping)) return found("joint_settings.damping", js.damping, "a damping >= 0 (N s/m)");
  if (!positive(js.angular_stiffness))
    return found("joint_settings.angular_stiffness", js.angular_stiffness, "a stiffness > 0 (N m/rad)");
  if (!non_negative(js.angular_damping))
    return found("joint_settings.angular_damping", js.angular_damping, "a damping >= 0 (N m s/rad)");
  if (!non_negative(js.limit_stiffness))
    return found("joint_settings.limit_stiffness", js.limit_stiffness, "a stiffness >= 0");
  return std::nullopt;
}

// Each attachment names a particle (free, attached once) and a body that exist.
Problem check_attachments(const Scene& scene) {
  const int n = scene.particle_count(), b = scene.body_count();
  std::set<int> attached;
  for (std::size_t k = 0; k < scene.attachments.size(); ++k) {
    const Attachment& a = scene.attachments[k];
    const std::string at = index_path("attachments", static_cast<long long>(k));
    if (a.particle < 0 || a.particle >= n)
      return found(index_path(at, 0), a.particle, "a particle index in [0, " + std::to_string(n) + ")");
    if (a.body < 0 || a.body >= b) return found(index_path(at, 1), a.body, "a body index in [0, " + std::to_string(b) + ")");
    if (!attached.insert(a.particle).second) return found(index_path(at, 0), a.particle, "each particle attached once");
    if (scene.pinned[size_t(a.particle)])
      return found(index_path(at, 0), a.particle, "a particle that is not pinned (a pinned particle cannot follow a body)");
  }
  return std::nullopt;
}

Problem check_optimizer(const Scene& scene) {
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
  if (!non_negative(o.loss_tolerance))
    return found("optimizer.loss_tolerance", o.loss_tolerance, "a number >= 0");
  if (o.population < 0 || o.population == 1)
    return found("optimizer.population", o.population, "0 (the default) or an integer >= 2");
  if (!positive(o.sigma)) return found("optimizer.sigma", o.sigma, "a number > 0");
  return std::nullopt;
}

}  // namespace

void shape_parameters(Scene& scene) {
  const int s = scene.spring_count();
  if (scene.spring_channel.size() != static_cast<std::size_t>(s)) scene.spring_channel.assign(s, -1);
  if (scene.actuation.size() != static_cast<std::size_t>(s)) scene.actuation.assign(s, 0.0);

  const Counts counts = counts_of(scene);
  // In ParamId order, so initial positions are shaped before rest lengths default from them.
  for (int i = 0; i < kParamCount; ++i) {
    const auto id = static_cast<ParamId>(i);
    Parameter& p = scene.params[id];
    const Shape shape = shape_of(id, counts);
    p.id = id;
    if (p.value.size() != static_cast<std::size_t>(shape.rows) * static_cast<std::size_t>(shape.cols))
      p.value = default_value(scene, id, shape);
    p.rows = shape.rows;
    p.cols = shape.cols;
    p.grad.assign(p.value.size(), 0.0);
  }
}

Status check_scene(const Scene& scene) {
  // Topology first: parameter and objective checks index with it.
  for (const auto check :
       {check_settings, check_topology, check_parameters, check_bodies, check_joints, check_attachments, check_colliders, check_objectives,
        check_optimizer, check_camera})
    if (Problem problem = check(scene)) return Error{*problem};
  return Ok{};
}

}  // namespace nudge
