// Rigid bodies: solid shapes that move and turn, collide with the static colliders, and
// whose mass and inertia follow from their shape, size and density. A body's initial
// pose and velocities, its density and its sizes are parameters (body_position,
// body_orientation, body_velocity, body_angular_velocity, body_density, body_radius,
// body_half_extents, body_half_length), one row per body.
#pragma once

#include <array>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nudge/convex_mesh.h"
#include "nudge/parameters.h"
#include "nudge/result.h"

namespace nudge {

enum class BodyShape { Sphere, Box, Capsule, Mesh };

struct BodyMesh;

// The names used in scene files: "sphere", "box", "capsule", "mesh".
std::string_view body_shape_name(BodyShape shape);
std::optional<BodyShape> body_shape_from_name(std::string_view name);

struct RigidBody {
  std::string name;  // for the viewer and messages; may be empty
  BodyShape shape = BodyShape::Sphere;
  // Mesh: the convex hull of an OBJ file's vertices, scaled, in the body's frame: the
  // file's frame moved so that the centre of mass is at the origin (BodyMesh). The other
  // shapes' sizes are parameters (body_radius, body_half_extents, body_half_length).
  std::shared_ptr<const BodyMesh> mesh;
};

// Mass properties of a body of unit density, in its own frame, about its centre: volume
// (the mass per unit density) and the inertia tensor per unit density (row-major; the
// body's axes are principal for the sphere, box and capsule, not for a mesh in general).
struct UnitMassProperties {
  double volume = 0;
  double inertia[9] = {0, 0, 0, 0, 0, 0, 0, 0, 0};
};

// A mesh body's shape: where it came from and its hull in the body's frame.
struct BodyMesh {
  std::filesystem::path file;    // as the scene file gives it (relative to the scene's folder)
  double scale[3] = {1, 1, 1};   // applied to the file's coordinates, along its axes
  ConvexMesh hull;               // in the body's frame: centre of mass at the origin
  double centre[3] = {0, 0, 0};  // the centre of mass in the (scaled) file's frame, m
  UnitMassProperties unit;       // of the hull, about its centre: computed once, at load
};

// Reads an OBJ file and makes the body shape: the hull of its vertices times scale,
// moved to its centre of mass. Errors say which file, line and what was wrong.
Result<std::shared_ptr<const BodyMesh>> load_body_mesh(const std::filesystem::path& file,
                                                       const std::filesystem::path& resolved, const double scale[3]);

// A particle held to a point of a body: the point where the particle starts, in the
// body's starting frame, moves with the body, and a stiff spring (the joints' positional
// lock, JointSettings) holds the particle to it.
struct Attachment {
  int particle = 0;
  int body = 0;
};

// The sizes a body's shape uses, in the order the kernels keep them (a collider's
// size): a sphere's radius; a capsule's radius and half length; a box's half extents.
// A mesh has none (its scale is fixed). Unused entries are 0.
using ShapeSize = std::array<double, 3>;

// Where entry k of a shape's size lives among the parameters: column `col` of `param`.
struct ShapeSizeEntry {
  ParamId param;
  int col;
};
// The shape's size entries, in order (0 to 3 of them).
std::vector<ShapeSizeEntry> shape_size_entries(BodyShape shape);
// Whether the parameter holds a size of some shape (radius, half extents, half length),
// and whether this shape uses it.
bool is_body_size(ParamId id);
bool shape_uses_size(BodyShape shape, ParamId id);
// For a size parameter with `cols` columns: whether each entry (body after body) is one
// its body's shape uses; the others are 0 and unused.
std::vector<bool> used_size_entries(const std::vector<RigidBody>& bodies, ParamId id, int cols);

// Body b's shape size, read from the parameters, and written to them.
ShapeSize body_shape_size(const RigidBody& body, const ParameterSet& p, int b);
void set_body_shape_size(ParameterSet& p, const RigidBody& body, int b, const ShapeSize& size);

// The radius of the smallest sphere about the body's centre that holds its shape.
double body_reach(const RigidBody& body, const ShapeSize& size);

UnitMassProperties unit_mass_properties(const RigidBody& body, const ShapeSize& size);
// Their derivatives with respect to each entry of the shape's size (zero for a mesh).
std::array<UnitMassProperties, 3> unit_mass_derivatives(const RigidBody& body, const ShapeSize& size);

}  // namespace nudge
