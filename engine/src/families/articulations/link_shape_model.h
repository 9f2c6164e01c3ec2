// The links' solid shapes and contact points as other elements meet them (particles,
// cloth, free bodies and other links), and where each link is at the start of the step. A link's
// sphere, capsule, box or mesh is a collider that moves with its link: a shape in its own
// frame (colliders' conventions), placed in its link's frame, which the kinematics phase
// places in the world.
#pragma once

#include "families/articulations/articulation_model.h"
#include "families/colliders/collider_model.h"

namespace nudge {

// A link's frame and spatial velocity (about the world's origin) at the step's q and qd.
template <class T>
struct LinkMotion {
  Mat33<T> rot;
  Vec3<T> origin;
  Spatial<T> v;
};

// A shape's axes and centre in the world at the step's start.
template <class T>
struct ShapePlacement {
  Mat33<T> rot;
  Vec3<T> centre;
};

template <class T>
struct LinkShapeModel {
  bool particles = false;   // particles meet the shapes
  bool bodies = false;      // free bodies meet the links (body_link_contact.h)
  bool each_other = false;  // links meet links (link_link_contact.h)
  int links = 0;
  int count = 0;                       // S shapes
  const Collider<T>* shape = nullptr;  // S: each in its own frame (at the origin, unturned)
  const int* link = nullptr;           // S: the link it moves with
  const int* shape_start = nullptr;    // per link, and one past the last: its shapes' range
  const Vec3<T>* pos = nullptr;        // S: its centre in its link's frame
  const Mat33<T>* rot = nullptr;       // S: its axes in its link's frame
  const T* bound = nullptr;            // S: the radius about its centre that holds it
  const T* link_mass = nullptr;        // per link (a restitution's contact mass)
  const T* link_bound = nullptr;       // per link: the radius about its origin that holds its solids and points
  const int* parent = nullptr;         // per link: its parent, or -1 (each_other)
  // The links' contact points (articulation_links.h), which bodies' shapes meet.
  const int* point_start = nullptr;       // per link, and one past the last
  const Vec3<T>* point_offset = nullptr;  // in its link's frame
  const T* point_radius = nullptr;
  // At the step's start (the kinematics phase): per link, and per shape.
  const LinkMotion<T>* motion = nullptr;
  const ShapePlacement<T>* placement = nullptr;
  // Per link, dL/d(the wrench particles put on it), from the trees' adjoint (a motion).
  const Spatial<T>* adj_wrench = nullptr;
  T reach = 0;  // m: beyond a shape's bound, a particle's radius and this, no force
  // Material points' grid meets the solids (material_points/mpm_link_boundary.h): it adds
  // its wrench on each link to external (the trees' step reads it) after the kinematics
  // phase wrote the others'; its adjoint writes each link's dL/d(velocity) and dL per
  // twist of its frame into grid_adj_velocity and grid_adj_frame, and adds its shapes'
  // shares to grad_centre, grad_turn and grad_size (in their links' frames).
  bool material_points = false;
  Spatial<T>* external = nullptr;           // per link
  Spatial<T>* grid_adj_velocity = nullptr;  // per link
  Spatial<T>* grid_adj_frame = nullptr;     // per link
  Vec3<T>* grad_centre = nullptr;           // S
  Vec3<T>* grad_turn = nullptr;             // S
  T* grad_size = nullptr;                   // 3 x S
};

}  // namespace nudge
