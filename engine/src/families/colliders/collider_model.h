// Static colliders (planes, boxes, spheres, capsules; convex hulls for bodies' shapes) as kernels see them, the contact
// settings particles meet them with, and the gradient accumulators of the contact
// parameters. A collider is a shape in its own frame, placed by a rotation R (world
// from local) and a position p: a world point x is q = R^T (x - p) in the shape's frame.
#pragma once

#include "nudge/vec3.h"

namespace nudge {

enum class ShapeType : int { Plane = 0, Box = 1, Sphere = 2, Capsule = 3, Convex = 4 };

template <class T>
struct Collider {
  ShapeType type;
  T position[3];  // p: the shape's centre (a point on a plane)
  T rotation[9];  // R, row-major, world from local; a plane's normal is R's second column
  // Box: half extents; sphere: radius in size[0]; capsule: radius in size[0], half the
  // length of its axis (local y) in size[1]; plane, convex: unused.
  T size[3];
  // Convex: its face planes in its own frame, 4 values each (outward unit normal n,
  // offset d; inside is n . q <= d), in memory the kernels can read (a device pointer
  // on the GPU).
  const T* planes = nullptr;
  int plane_count = 0;
};

template <class T>
struct ColliderModel {
  int count = 0;
  const Collider<T>* shapes = nullptr;  // count
  const T* radius = nullptr;            // n: each particle's radius
  T stiffness = 0;                      // N/m of penetration
  T damping = 0;                        // N s/m on the normal velocity
  T friction = 0;                       // Coulomb coefficient
  T smoothing = 0;                      // m: width of the softplus switch; 0 switches on at contact exactly
  T friction_smoothing = 1;             // m/s: slip speed below which friction is viscous
  bool damp_approach_only = true;       // damp only a particle moving into the collider (Warp's model)
  // With use_restitution, each contact's damping follows from this coefficient of
  // restitution and the contact's mass (families/colliders/contact_restitution.h), not `damping`.
  bool use_restitution = false;
  T restitution = 1;
};

// Per-particle shares of the contact parameters' gradients, summed at the end in a
// fixed order; the radius is per particle. `damping` holds the restitution's shares when
// the scene gives one (the damping parameter is then unused).
template <class T>
struct ColliderGrad {
  T* stiffness = nullptr;  // n
  T* damping = nullptr;    // n
  T* friction = nullptr;   // n
  T* radius = nullptr;     // n
};

// R^T a and R a for a collider's rotation.
template <class T>
NUDGE_HD Vec3<T> to_local(const Collider<T>& c, Vec3<T> a) {
  const T* r = c.rotation;
  return {r[0] * a.x + r[3] * a.y + r[6] * a.z, r[1] * a.x + r[4] * a.y + r[7] * a.z,
          r[2] * a.x + r[5] * a.y + r[8] * a.z};
}
template <class T>
NUDGE_HD Vec3<T> to_world(const Collider<T>& c, Vec3<T> a) {
  const T* r = c.rotation;
  return {r[0] * a.x + r[1] * a.y + r[2] * a.z, r[3] * a.x + r[4] * a.y + r[5] * a.z,
          r[6] * a.x + r[7] * a.y + r[8] * a.z};
}

}  // namespace nudge
