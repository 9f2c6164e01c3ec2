// Joints between rigid bodies, or between a body and the world: ball, hinge, prismatic
// and fixed. A joint is described where it is at the start: its anchor (a world point,
// the parameter joint_anchor) and its axis (a world direction); each side keeps
// them in its own frame from then on. The locks are stiff penalty springs
// (JointSettings); the free direction has damping (joint_damping), optional
// limits, and a motor driven by a per-step control (joint_control: a torque in
// N m for a hinge, a force in N for a prismatic joint).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace nudge {

enum class JointType {
  Ball,       // the anchors stay together; turns freely (damped)
  Hinge,      // and the axes stay aligned; turns about the axis
  Prismatic,  // no turning; slides along the axis
  Fixed,      // no turning, no sliding
};

// The names used in scene files: "ball", "hinge", "prismatic", "fixed".
std::string_view joint_type_name(JointType type);
std::optional<JointType> joint_type_from_name(std::string_view name);

struct Joint {
  std::string name;  // for the viewer and messages; may be empty
  JointType type = JointType::Hinge;
  int parent = -1;                  // a body index, or -1 for the world
  int child = 0;                    // a body index, != parent
  double axis[3] = {0, 0, 1};       // world, at the start; unit length (hinge, prismatic)
  bool limited = false;             // hinge: the turn about the axis in [lower, upper] (rad);
  double lower = 0.0, upper = 0.0;  // prismatic: the slide along it (m), both from the start
  bool collide = false;             // whether the two bodies also collide with each other
  // The motor also carries gain * controls[t][channel] when the joint is on a control
  // channel (>= 0), added to its own per-step control: so springs, actuators, motors and
  // a controller's outputs can share channels.
  int channel = -1;
  double gain = 1.0;  // N m (hinge) or N (prismatic) per unit of control
};

// The penalty springs that hold joints together. Stiffer holds better but needs a
// smaller time step: semi-implicit Euler needs dt times every ringing rate below 2, and
// a lock rings at sqrt(k / m) on a body of mass m, at sqrt(k_a / I) for its turns, and,
// for an anchor at a distance r from the body's centre, at sqrt(k r^2 / I), I the body's
// own inertia about its centre. That last one is the fastest for a small bob on a long
// massless link (4 cm, 1.3 kg, r = 0.5 m: k = 2e4 N/m rings at 2400 rad/s, dt <= 0.8 ms).
// Explicit damping has the same limit: c r^2 / I times dt below 2.
struct JointSettings {
  double stiffness = 1e4;          // N/m, the anchors apart
  double damping = 10.0;           // N s/m, their relative velocity
  double angular_stiffness = 500;  // N m/rad, the locked turns
  double angular_damping = 1.0;    // N m s/rad
  double limit_stiffness = 500;    // N m/rad (hinge) or N/m (prismatic), past a limit
};

}  // namespace nudge
