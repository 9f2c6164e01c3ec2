#include "objectives/objective_registry.h"

#include <optional>
#include <string>
#include <vector>

#include "nudge/assert.h"
#include "nudge/objective_facts.h"

namespace nudge {

namespace {

using T = ObjectiveType;
using Elements = ObjectiveElements;
using Target = ObjectiveTarget;
using B = ObjectiveBinding;

// Layouts: elements, target, binding, axis, direction, default direction, step.
constexpr ObjectiveLayout kCentroidPosition{
    Elements::ParticlesOrBodies, Target::Position, B::None, false, false, {1, 0, 0}, true};
constexpr ObjectiveLayout kCentroidVelocity{
    Elements::ParticlesOrBodies, Target::Velocity, B::None, false, false, {1, 0, 0}, true};
constexpr ObjectiveLayout kPointTargets{
    Elements::ParticlesOrAll, Target::PerParticle, B::None, false, false, {1, 0, 0}, true};
constexpr ObjectiveLayout kMarkerFile{Elements::None, Target::None, B::MarkerFile, false, false, {1, 0, 0}, false};
constexpr ObjectiveLayout kControlsOnly{};
constexpr ObjectiveLayout kTravel{Elements::ParticlesOrPoints, Target::None, B::None, false, true, {1, 0, 0}, true};
// By default the body's axis is to point up.
constexpr ObjectiveLayout kOrientation{Elements::Bodies, Target::None, B::None, true, true, {0, 1, 0}, true};
constexpr ObjectiveLayout kFootageTracks{Elements::None, Target::None, B::FootageTracks, false, false,
                                         {1, 0, 0},      false};
constexpr ObjectiveLayout kInside{Elements::PointsOrAll, Target::Region, B::None, false, false, {1, 0, 0}, true};
constexpr ObjectiveLayout kShape{Elements::PointsOrAll, Target::PointSet, B::None, false, false, {1, 0, 0}, true};
constexpr ObjectiveLayout kRest{Elements::PointsOrAll, Target::None, B::None, false, false, {1, 0, 0}, true};
constexpr ObjectiveLayout kWeights{Elements::None, Target::StateWeights, B::None, false, false, {1, 0, 0}, false};
constexpr ObjectiveLayout kJoints{Elements::LinksOrAll, Target::PerLink, B::None, false, false, {1, 0, 0}, true};
constexpr ObjectiveLayout kReach{Elements::Link, Target::Position, B::None, false, false, {1, 0, 0}, true, true};
// By default the link's axis is to point up, as a body's.
constexpr ObjectiveLayout kLinkOrientation{Elements::Link, Target::None, B::None, true, true, {0, 1, 0}, true};

// In ObjectiveType order (checked below).
constexpr ObjectiveKind kKinds[] = {
    {T::Target, "target", kCentroidPosition, make_target_term},
    {T::Positions, "positions", kPointTargets, make_positions_term},
    {T::Markers, "markers", kMarkerFile, make_markers_term},
    {T::Velocity, "velocity", kCentroidVelocity, make_velocity_term},
    {T::Effort, "effort", kControlsOnly, make_effort_term},
    {T::Travel, "travel", kTravel, make_travel_term},
    {T::Orientation, "orientation", kOrientation, make_orientation_term},
    {T::Smoothness, "smoothness", kControlsOnly, make_smoothness_term},
    {T::Tracks, "tracks", kFootageTracks, make_tracks_term},
    {T::Inside, "inside", kInside, make_inside_term},
    {T::Shape, "shape", kShape, make_shape_term},
    {T::Rest, "rest", kRest, make_rest_term},
    {T::Weights, "weights", kWeights, make_weights_term},
    {T::Joints, "joints", kJoints, make_joints_term},
    {T::Reach, "reach", kReach, make_reach_term},
    {T::LinkOrientation, "link_orientation", kLinkOrientation, make_link_orientation_term},
};

constexpr bool in_type_order() {
  for (int i = 0; i < static_cast<int>(std::size(kKinds)); ++i)
    if (static_cast<int>(kKinds[i].type) != i) return false;
  return true;
}
static_assert(in_type_order(), "kKinds must list every objective type in ObjectiveType order");
static_assert(std::size(kKinds) == static_cast<std::size_t>(ObjectiveType::LinkOrientation) + 1,  // the last type
              "kKinds must list every objective type");

}  // namespace

std::span<const ObjectiveKind> objective_kinds() { return kKinds; }

const ObjectiveKind& objective_kind(ObjectiveType type) {
  const int i = static_cast<int>(type);
  NUDGE_ASSERT(i >= 0 && i < static_cast<int>(std::size(kKinds)));
  return kKinds[i];
}

std::string_view objective_type_name(ObjectiveType type) { return objective_kind(type).name; }

const ObjectiveLayout& objective_layout(ObjectiveType type) { return objective_kind(type).layout; }

bool objective_has_step(ObjectiveType type) { return objective_kind(type).layout.step; }

bool objective_reads_particles(ObjectiveType type) { return objective_kind(type).layout.lists_particles(); }

bool objective_reads_bodies(ObjectiveType type) { return objective_kind(type).layout.lists_bodies(); }

bool objective_uses_particles(const Objective& o) {
  const ObjectiveElements e = objective_kind(o.type).layout.elements;
  if (e == ObjectiveElements::ParticlesOrBodies) return !o.particles.empty() || (o.bodies.empty() && o.points.empty());
  if (e == ObjectiveElements::ParticlesOrPoints) return !o.particles.empty() || o.points.empty();
  return e == ObjectiveElements::Particles || e == ObjectiveElements::ParticlesOrAll;
}

std::string objective_names_where(bool (*pick)(ObjectiveType)) {
  std::vector<std::string_view> names;
  for (const ObjectiveKind& kind : kKinds)
    if (pick(kind.type)) names.push_back(kind.name);
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i)
    text += std::string(i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + std::string(names[i]);
  return text;
}

std::optional<ObjectiveType> objective_type_from_name(std::string_view name) {
  for (const ObjectiveKind& kind : kKinds)
    if (kind.name == name) return kind.type;
  return std::nullopt;
}

}  // namespace nudge
