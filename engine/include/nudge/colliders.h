// Static colliders that particles meet, and the settings of that contact. The contact's
// stiffness, damping and friction and each particle's radius are parameters
// (contact_stiffness, contact_damping, contact_friction, particle_radius).
#pragma once

#include <array>
#include <optional>
#include <string_view>

#include "nudge/parameters.h"

namespace nudge {

enum class ColliderType { Plane, Box, Sphere, Capsule };

// The names used in scene files: "plane", "box", "sphere", "capsule".
std::string_view collider_type_name(ColliderType type);
std::optional<ColliderType> collider_type_from_name(std::string_view name);

struct ColliderShape {
  ColliderType type = ColliderType::Plane;
  // Plane: the points x with dot(normal, x) >= offset are outside.
  double normal[3] = {0, 1, 0};  // unit length
  double offset = 0.0;           // m
  // Box, sphere, capsule: placed at position, turned by orientation (a unit quaternion
  // x, y, z, w, from the shape's frame to the world).
  double position[3] = {0, 0, 0};
  double orientation[4] = {0, 0, 0, 1};
  double half_extents[3] = {0.5, 0.5, 0.5};  // box, m
  double radius = 0.5;                       // sphere and capsule, m
  double half_length = 0.5;                  // capsule: half its axis (the shape's y), m

  void position_from(const std::array<double, 3>& p) {
    for (int k = 0; k < 3; ++k) position[k] = p[k];
  }
};

struct ContactSettings {
  bool damp_approach_only = true;    // damping acts only on a particle moving into a collider
  double smoothing = 0.0;            // m: softplus width of the switch; 0 switches on at contact
  double friction_smoothing = 1e-2;  // m/s: slip speed below which friction is viscous
  // Rigid bodies collide with each other (not two bodies a joint joins, unless it says
  // so) and with particles (at each particle's radius).
  bool bodies = true;
  // Each contact's damping follows from the coefficient of restitution (the parameter
  // contact_restitution) and the contact's mass, instead of contact_damping; damping acts
  // both ways (families/colliders/contact_restitution.h).
  bool restitution = false;
};

// The parameter whose gradient the contacts' damping shares are: the damping's, or the
// restitution's when that sets the damping.
inline ParamId contact_damping_parameter(const ContactSettings& contact) {
  return contact.restitution ? ParamId::ContactRestitution : ParamId::ContactDamping;
}

}  // namespace nudge
