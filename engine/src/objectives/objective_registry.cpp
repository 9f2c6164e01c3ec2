#include "objectives/objective_registry.h"

#include <optional>

#include "nudge/assert.h"
#include "nudge/objective_facts.h"

namespace nudge {

namespace {

using T = ObjectiveType;

// In ObjectiveType order (checked below).
constexpr ObjectiveKind kKinds[] = {
    {T::Target, "target", true, make_target_term},
    {T::Positions, "positions", true, make_positions_term},
    {T::Markers, "markers", false, make_markers_term},
    {T::Velocity, "velocity", true, make_velocity_term},
    {T::Effort, "effort", false, make_effort_term},
    {T::Travel, "travel", true, make_travel_term},
    {T::Orientation, "orientation", true, make_orientation_term},
    {T::Smoothness, "smoothness", false, make_smoothness_term},
    {T::Tracks, "tracks", false, make_tracks_term},
};

constexpr bool in_type_order() {
  for (int i = 0; i < static_cast<int>(std::size(kKinds)); ++i)
    if (static_cast<int>(kKinds[i].type) != i) return false;
  return true;
}
static_assert(in_type_order(), "kKinds must list every objective type in ObjectiveType order");
static_assert(std::size(kKinds) == static_cast<std::size_t>(ObjectiveType::Tracks) + 1,  // the last type
              "kKinds must list every objective type");

}  // namespace

std::span<const ObjectiveKind> objective_kinds() { return kKinds; }

const ObjectiveKind& objective_kind(ObjectiveType type) {
  const int i = static_cast<int>(type);
  NUDGE_ASSERT(i >= 0 && i < static_cast<int>(std::size(kKinds)));
  return kKinds[i];
}

std::string_view objective_type_name(ObjectiveType type) { return objective_kind(type).name; }

bool objective_has_step(ObjectiveType type) { return objective_kind(type).has_step; }

std::optional<ObjectiveType> objective_type_from_name(std::string_view name) {
  for (const ObjectiveKind& kind : kKinds)
    if (kind.name == name) return kind.type;
  return std::nullopt;
}

}  // namespace nudge
