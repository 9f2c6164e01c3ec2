// Parameter shapes and defaults, and the invariants the engine relies on for any
// scene, loaded or built in code. Messages name the place as a scene file would
// ("springs.pairs[3]", "particles.mass[2]") so users and programmers read the same words.
//
// The checks of each section sit with its reading and writing, in its row
// (scene_section.h); check_scene runs them by stage, in the list's order.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "io/scene_section.h"
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
          scene.controller.weight_count(controller_reads(scene)),
          scene.material_points.count(),
          static_cast<int>(scene.material_points.materials.size()),
          scene.articulations.link_count(),
          static_cast<int>(scene.articulations.actuators.size())};
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
    case ParamElement::MaterialPoint: return {n.points, f.cols};
    case ParamElement::Material: return {n.materials, f.cols};
    case ParamElement::Link: return {n.links, f.cols};
    case ParamElement::LinkActuator: return {n.actuators, f.cols};
  }
  return {};
}

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
      p.value = param_default(param_facts(id), scene, shape.rows, shape.cols);
    p.rows = shape.rows;
    p.cols = shape.cols;
    p.grad.assign(p.value.size(), 0.0);
    p.unused.clear();
    if (is_body_size(id) && p.value.size() == size_t(counts.bodies) * size_t(shape.cols)) {
      p.unused = used_size_entries(scene.bodies, id, shape.cols);
      p.unused.flip();
    }
  }
}

Status check_scene(const Scene& scene) {
  // The counts first, then the parameters' shapes: later checks index with both.
  for (CheckStage stage : {CheckStage::Counts, CheckStage::Parameters, CheckStage::Elements})
    for (const SceneSection* section : scene_sections())
      if (section->check_stage == stage && section->check)
        if (Problem problem = section->check(scene)) return Error{*problem};
  return Ok{};
}

}  // namespace nudge
