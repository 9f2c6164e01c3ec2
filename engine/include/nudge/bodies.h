// Rigid bodies: solid shapes that move and turn, collide with the static colliders, and
// whose mass and inertia follow from their shape and density. A body's initial pose and
// velocities and its density are parameters (ParamId::BodyPosition, BodyOrientation,
// BodyVelocity, BodyAngularVelocity, BodyDensity), one row per body.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace nudge {

enum class BodyShape { Sphere, Box, Capsule };

// The names used in scene files: "sphere", "box", "capsule".
std::string_view body_shape_name(BodyShape shape);
std::optional<BodyShape> body_shape_from_name(std::string_view name);

struct RigidBody {
  std::string name;  // for the viewer and messages; may be empty
  BodyShape shape = BodyShape::Sphere;
  double half_extents[3] = {0.5, 0.5, 0.5};  // box, m
  double radius = 0.5;                       // sphere and capsule, m
  double half_length = 0.5;                  // capsule: half its axis (the body's own y), m
};

// A particle held to a point of a body: the point where the particle starts, in the
// body's starting frame, moves with the body, and a stiff spring (the joints' positional
// lock, JointSettings) holds the particle to it.
struct Attachment {
  int particle = 0;
  int body = 0;
};

// Mass properties of a body of unit density, in its own frame, about its centre: volume
// (the mass per unit density) and the principal moments (the inertia per unit density;
// the body's axes are principal for every shape here).
struct UnitMassProperties {
  double volume = 0;
  double moments[3] = {0, 0, 0};
};
UnitMassProperties unit_mass_properties(const RigidBody& body);

}  // namespace nudge
