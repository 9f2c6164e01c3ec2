// Contact between rigid bodies as kernels see it: a list of items, each the contact
// points of one body against the shape of another (families/body_contacts/body_pair_contact.h). Two
// spheres, or a sphere and anything, make one item (the sphere's centre against the
// other shape); any other pair (boxes, capsules, meshes) makes two, one each way, so a
// corner, an end or a vertex meets the other's sides from either body. The contact law and its
// parameters are the colliders' (ColliderModel).
#pragma once

namespace nudge {

template <class T>
struct BodyContactModel {
  int count = 0;                    // I items
  const int* point_body = nullptr;  // I: whose contact points
  const int* shape_body = nullptr;  // I: against whose shape
  T reach = 0;  // m: beyond the bodies' bounding spheres plus this, an item's force is taken as zero
};

// Per-item shares of the contact parameters' gradients, summed in item order.
template <class T>
struct BodyContactGrad {
  T* stiffness = nullptr;   // I
  T* damping = nullptr;     // I
  T* friction = nullptr;    // I
  T* mass_point = nullptr;  // I: the point body's mass's share, through a restitution's damping
  T* mass_shape = nullptr;  // I: the shape body's
  T* size_point = nullptr;  // 3 x I: dL/d(shape size) of the point body, through its points
  T* size_shape = nullptr;  // 3 x I: of the shape body, through its shape
};

}  // namespace nudge
