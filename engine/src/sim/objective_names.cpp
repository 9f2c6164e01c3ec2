#include "nudge/scene.h"

namespace nudge {

namespace {
constexpr std::string_view kObjectiveNames[] = {"target", "positions",   "markers",    "velocity", "effort",
                                                "travel", "orientation", "smoothness", "tracks"};
}

std::string_view objective_type_name(ObjectiveType type) { return kObjectiveNames[static_cast<int>(type)]; }

std::optional<ObjectiveType> objective_type_from_name(std::string_view name) {
  for (int i = 0; i < static_cast<int>(std::size(kObjectiveNames)); ++i)
    if (kObjectiveNames[i] == name) return static_cast<ObjectiveType>(i);
  return std::nullopt;
}

}  // namespace nudge
