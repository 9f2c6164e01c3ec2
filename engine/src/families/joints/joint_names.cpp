#include "nudge/joints.h"

namespace nudge {

namespace {
constexpr std::string_view kJointNames[] = {"ball", "hinge", "prismatic", "fixed"};
}  // namespace

std::string_view joint_type_name(JointType type) { return kJointNames[static_cast<int>(type)]; }

std::optional<JointType> joint_type_from_name(std::string_view name) {
  for (int i = 0; i < 4; ++i)
    if (kJointNames[i] == name) return static_cast<JointType>(i);
  return std::nullopt;
}

}  // namespace nudge
