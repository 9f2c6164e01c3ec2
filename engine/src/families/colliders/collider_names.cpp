#include "nudge/colliders.h"

namespace nudge {

namespace {
constexpr std::string_view kColliderNames[] = {"plane", "box", "sphere", "capsule"};
}  // namespace

std::string_view collider_type_name(ColliderType type) { return kColliderNames[static_cast<int>(type)]; }

std::optional<ColliderType> collider_type_from_name(std::string_view name) {
  for (int i = 0; i < 4; ++i)
    if (kColliderNames[i] == name) return static_cast<ColliderType>(i);
  return std::nullopt;
}

}  // namespace nudge
