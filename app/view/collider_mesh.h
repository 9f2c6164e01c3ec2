// What a static collider, a rigid body or a link's shape looks like: a lit triangle mesh
// of its shape (a plane as a square patch around the motion, a box, a sphere, a capsule,
// a cylinder, a convex hull), placed and turned as the scene or the motion says. Shared
// by the window and `nudge render`.
#pragma once

#include "nudge/bodies.h"
#include "nudge/colliders.h"
#include "nudge/render/draw_list.h"

namespace nudge::view {

// patch_center, patch_half_size: where a plane's square patch is drawn (planes are
// infinite; the patch covers the motion).
render::Mesh collider_mesh(const ColliderShape& shape, glm::vec3 patch_center, float patch_half_size,
                           render::Rgba color);

// A body's shape, at the size given, at its centre of mass `position` and orientation
// (x, y, z, w).
render::Mesh body_mesh(const RigidBody& body, const ShapeSize& size, const double* position, const double* orientation,
                       render::Rgba color);

// A cylinder (a link's) of this radius and half length along its y, with flat caps, placed
// likewise.
render::Mesh cylinder_mesh(double radius, double half_length, const double* position, const double* orientation,
                           render::Rgba color);

// A convex hull (a mesh body's, in its own frame), flat-shaded, placed likewise; scale,
// when given, stretches its vertices along its axes first (a link's mesh_scale).
render::Mesh hull_mesh(const ConvexMesh& hull, const double* position, const double* orientation, render::Rgba color,
                       const double* scale = nullptr);

}  // namespace nudge::view
