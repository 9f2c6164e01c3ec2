// Parameter shapes and defaults, and the invariants the engine relies on for any
// scene, loaded or built in code. Messages name the place as a scene file would
// ("springs.pairs[3]", "particles.mass[2]") so users and programmers read the same words.
//
// The checks of each section sit with its reading and writing, in scene_section_*.cpp
// (scene_sections.h); check_scene runs them in order.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "io/scene_sections.h"
#include "nudge/parameter_facts.h"
#include "nudge/scene.h"

namespace nudge {

namespace scene_io {

Counts counts_of(const Scene& scene) {
  return {scene.particle_count(),
          scene.spring_count(),
          std::max(scene.settings.steps, 0),
          std::max(scene.channels, 0),
          scene.body_count(),
          scene.joint_count(),
          scene.triangle_count(),
          scene.bending_count(),
          scene.tet_count(),
          scene.controller.weight_count(scene.particle_count())};
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
    case ParamElement::Triangle: return {n.triangles, f.cols};
    case ParamElement::BendingEdge: return {n.bending_edges, f.cols};
    case ParamElement::Tet: return {n.tets, f.cols};
    case ParamElement::ControllerWeight: return {n.controller_weights, f.cols};
  }
  return {};
}

namespace {

// The spring's length in the initial configuration, or 0 if an end is out of range
// (check_scene reports that).
double initial_distance(const Scene& scene, int spring) {
  const std::vector<double>& x = scene.params[ParamId::InitialPosition].value;
  const int a = scene.spring_a[spring], b = scene.spring_b[spring];
  const int n = scene.particle_count();
  if (a < 0 || a >= n || b < 0 || b >= n) return 0.0;
  return std::hypot(x[3 * b] - x[3 * a], x[3 * b + 1] - x[3 * a + 1], x[3 * b + 2] - x[3 * a + 2]);
}

// For the body sizes: whether each entry is one its body's shape uses.
std::vector<bool> used_size_entries(const Scene& scene, ParamId id, int cols) {
  std::vector<bool> used(size_t(scene.body_count()) * size_t(cols), false);
  for (int b = 0; b < scene.body_count(); ++b)
    for (const ShapeSizeEntry& e : shape_size_entries(scene.bodies[size_t(b)].shape))
      if (e.param == id) used[size_t(b) * size_t(cols) + size_t(e.col)] = true;
  return used;
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
    case ParamId::BodyRadius:
    case ParamId::BodyHalfExtents:
    case ParamId::BodyHalfLength: {  // the fill where the shape has the size, else 0
      const std::vector<bool> used = used_size_entries(scene, id, shape.cols);
      std::vector<double> sizes(size, 0.0);
      for (size_t k = 0; k < size && k < used.size(); ++k) sizes[k] = used[k] ? param_facts(id).fill : 0.0;
      return sizes;
    }
    case ParamId::ControllerWeights: {  // seeded random weights: a zero network learns nothing
      std::vector<double> w = default_controller_weights(scene.controller, scene.particle_count());
      return w.size() == size ? w : std::vector<double>(size, 0.0);
    }
    default: return std::vector<double>(size, param_facts(id).fill);
  }
}

}  // namespace

}  // namespace scene_io

using namespace scene_io;  // the parameter shapes and the sections' checks

void shape_parameters(Scene& scene) {
  const int s = scene.spring_count();
  if (scene.spring_channel.size() != static_cast<std::size_t>(s)) scene.spring_channel.assign(s, -1);
  if (scene.actuation.size() != static_cast<std::size_t>(s)) scene.actuation.assign(s, 0.0);
  const auto tets = static_cast<std::size_t>(scene.tet_count());
  if (scene.tet_channel.size() != tets) scene.tet_channel.assign(tets, -1);
  if (scene.tet_actuation.size() != tets) scene.tet_actuation.assign(tets, 0.0);

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
    p.unused.clear();
    if (is_body_size(id) && p.value.size() == size_t(counts.bodies) * size_t(shape.cols)) {
      p.unused = used_size_entries(scene, id, shape.cols);
      p.unused.flip();
    }
  }
}

Status check_scene(const Scene& scene) {
  // Topology first: parameter and objective checks index with it.
  for (const auto check :
       {check_settings, check_topology, check_tets, check_controller, check_actuators, check_parameters,
        check_triangles, check_bending, check_bodies, check_joints, check_attachments, check_colliders, check_footage,
        check_objectives, check_optimizer, check_camera})
    if (Problem problem = check(scene)) return Error{*problem};
  return Ok{};
}

}  // namespace nudge
