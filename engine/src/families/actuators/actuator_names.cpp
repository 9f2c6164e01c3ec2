#include "nudge/actuators.h"

namespace nudge {

namespace {
constexpr std::string_view kTypeNames[] = {"force", "torque"};
constexpr std::string_view kFrameNames[] = {"world", "body"};
}  // namespace

std::string_view actuator_type_name(ActuatorType type) { return kTypeNames[static_cast<int>(type)]; }
std::string_view actuator_frame_name(ActuatorFrame frame) { return kFrameNames[static_cast<int>(frame)]; }

std::optional<ActuatorType> actuator_type_from_name(std::string_view name) {
  for (int i = 0; i < 2; ++i)
    if (kTypeNames[i] == name) return static_cast<ActuatorType>(i);
  return std::nullopt;
}

std::optional<ActuatorFrame> actuator_frame_from_name(std::string_view name) {
  for (int i = 0; i < 2; ++i)
    if (kFrameNames[i] == name) return static_cast<ActuatorFrame>(i);
  return std::nullopt;
}

}  // namespace nudge
