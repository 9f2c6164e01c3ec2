#include "nudge/scene.h"

namespace nudge {

namespace {
constexpr std::string_view kGroundContactNames[] = {"penalty", "projection", "time_of_impact"};
}

std::string_view ground_contact_name(GroundContact contact) { return kGroundContactNames[static_cast<int>(contact)]; }

std::optional<GroundContact> ground_contact_from_name(std::string_view name) {
  for (int i = 0; i < static_cast<int>(std::size(kGroundContactNames)); ++i)
    if (kGroundContactNames[i] == name) return static_cast<GroundContact>(i);
  return std::nullopt;
}

}  // namespace nudge
