// Actuators: per-step forces and torques on chosen particles and bodies, each driven by
// one control channel (the parameter "controls", the springs' and tets' channels, and the
// controller's outputs). Actuator a on channel c pushes with direction * controls[t][c]
// at step t, so its direction carries the units (N, or N m for a torque, per unit of
// control) and the control is a plain number the optimiser tunes within its bounds.
//
// On a particle: a force along a world direction. On a body: a force through a point
// fixed in the body (its centre of mass by default), or a torque; each along a world
// direction, or along a direction fixed in the body, which turns with it (a thruster).
// A 3D force on a particle is three actuators on three channels.
#pragma once

#include <optional>
#include <string_view>

namespace nudge {

enum class ActuatorType {
  Force,   // a particle's or a body's
  Torque,  // a body's
};

enum class ActuatorFrame {
  World,  // the direction is fixed in the world
  Body,   // the direction (and the point) turn with the body
};

struct Actuator {
  int particle = -1;  // exactly one of particle and body is >= 0
  int body = -1;
  int channel = 0;
  ActuatorType type = ActuatorType::Force;
  ActuatorFrame frame = ActuatorFrame::World;  // a particle's is the world's
  double direction[3] = {1, 0, 0};             // N (force) or N m (torque) per unit of control
  double point[3] = {0, 0, 0};                 // a body force's point, in the body's frame from its centre of mass
};

// The names used in scene files: "force", "torque"; "world", "body".
std::string_view actuator_type_name(ActuatorType type);
std::optional<ActuatorType> actuator_type_from_name(std::string_view name);
std::string_view actuator_frame_name(ActuatorFrame frame);
std::optional<ActuatorFrame> actuator_frame_from_name(std::string_view name);

}  // namespace nudge
