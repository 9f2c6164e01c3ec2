// What is known about each kind of objective, from the registry of kinds
// (engine/src/objectives/objective_registry.cpp), for the code that treats kinds alike:
// the scene file's "objectives" section reads, writes and checks an objective from its
// kind's layout, and the studio shows and edits it from the same.
#pragma once

#include <cstddef>
#include <string>

#include "nudge/scene.h"

namespace nudge {

// Which particles and bodies an objective reads.
enum class ObjectiveElements : unsigned char {
  None,               // neither (effort, smoothness; markers and tracks bind their own)
  Particles,          // "particles", required
  ParticlesOrPoints,  // "particles", material "points" or both: their centroid (travel)
  ParticlesOrAll,     // "particles", every particle when absent (positions)
  ParticlesOrBodies,  // "particles", "bodies" or both: their centroid (target, velocity)
  Bodies,             // "bodies", required (orientation)
  PointsOrAll,        // material "points", every point when absent (inside, shape)
  LinksOrAll,         // "links" by name, every hinge's and slide's link when absent (joints)
  Link,               // "link" by name, required: one link of the articulations (reach)
};

// What it compares them with.
enum class ObjectiveTarget : unsigned char {
  None,
  Position,     // "target": [x, y, z] (m)
  Velocity,     // "target": [x, y, z] (m/s)
  PerParticle,  // "targets": [x, y, z] per listed particle, or an "offset" from where they start
  Region,       // "region": {"lower": [x, y, z], "upper": [x, y, z], "softness": m}, a box
  PointSet,     // "shape": [[x, y, z], ...], any number of points (m)
  // "weights": (steps + 1) x weights_per_step numbers: at each step the particles'
  // positions, the bodies' centres and the material points' positions, x, y, z each,
  // weighed (the trajectory's layout), then optionally the motion's other arrays
  StateWeights,
  PerLink,  // "targets": one number per listed link, its hinge's or slide's q (rad or m)
};

// A weights objective's numbers per step: 3 per particle, body and material point (their
// positions) and the articulations' joint positions q (articulation_position_count);
// with `motion` also the particles' velocities (3 each), the bodies' orientations and
// linear and angular velocities (4 + 3 + 3 each) and the joints' rates qd, in that order.
inline std::size_t weights_per_step(const Scene& scene, bool motion) {
  const std::size_t n = std::size_t(scene.particle_count()), b = std::size_t(scene.body_count());
  const std::size_t q = std::size_t(articulation_position_count(scene.articulations));
  const std::size_t qd = std::size_t(articulation_coordinate_count(scene.articulations));
  return 3 * (n + b + std::size_t(scene.material_points.count())) + q + (motion ? 3 * n + 10 * b + qd : 0);
}

// Reference motion bound to particles and bodies ("bind", "bind_bodies").
enum class ObjectiveBinding : unsigned char {
  None,
  MarkerFile,     // "file" (a marker CSV) and "steps_per_frame" besides (markers)
  FootageTracks,  // the footage's 2D tracks (tracks)
};

struct ObjectiveLayout {
  ObjectiveElements elements = ObjectiveElements::None;
  ObjectiveTarget target = ObjectiveTarget::None;
  ObjectiveBinding binding = ObjectiveBinding::None;
  bool axis = false;                        // "axis" in each body's frame (orientation)
  bool direction = false;                   // "direction", a unit vector in the world (travel, orientation)
  double default_direction[3] = {1, 0, 0};  // where the file gives no "direction"
  bool step = false;                        // "step": reads the state at its own step
  bool point = false;                       // "point" in the link's frame (reach)

  // Whether it may list particles (target, positions, velocity, travel) or bodies
  // (target, velocity, orientation).
  constexpr bool lists_particles() const {
    return elements == ObjectiveElements::Particles || elements == ObjectiveElements::ParticlesOrAll ||
           elements == ObjectiveElements::ParticlesOrBodies || elements == ObjectiveElements::ParticlesOrPoints;
  }
  // Material points join the centroid of target, velocity and travel objectives, and are
  // what an inside objective counts.
  constexpr bool lists_points() const {
    return elements == ObjectiveElements::ParticlesOrBodies || elements == ObjectiveElements::ParticlesOrPoints ||
           elements == ObjectiveElements::PointsOrAll;
  }
  constexpr bool lists_links() const { return elements == ObjectiveElements::LinksOrAll; }
  constexpr bool lists_bodies() const {
    return elements == ObjectiveElements::ParticlesOrBodies || elements == ObjectiveElements::Bodies;
  }
  // Whether its target is one [x, y, z] ("target": a position or a velocity).
  constexpr bool one_target() const {
    return target == ObjectiveTarget::Position || target == ObjectiveTarget::Velocity;
  }
};

const ObjectiveLayout& objective_layout(ObjectiveType type);

// Whether it reads the state at its own step (Objective::step: target, positions,
// velocity, travel, orientation); the others read the controls alone (effort,
// smoothness) or the state at their samples' frames (markers, tracks).
bool objective_has_step(ObjectiveType type);

// objective_layout(type).lists_particles() and lists_bodies().
bool objective_reads_particles(ObjectiveType type);
bool objective_reads_bodies(ObjectiveType type);

// Whether this objective's particle list is read: always where its kind lists particles
// alone, and for a centroid unless it holds bodies alone.
bool objective_uses_particles(const Objective& o);

// The names of the kinds `pick` accepts, in ObjectiveType order: "target, velocity and
// orientation".
std::string objective_names_where(bool (*pick)(ObjectiveType));

}  // namespace nudge
