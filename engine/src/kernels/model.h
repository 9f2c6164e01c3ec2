// The model as kernels see it: raw pointers into flat arrays (host or device memory)
// and scalars, one part per element family. Everything here is constant during a
// rollout. GradView is the matching set of gradient accumulators.
//
// Arrays of 3-vectors, here and in the states, are structures of arrays: "3 x n" means
// all x components, then all y, then all z (see load3 in nudge/vec3.h).
#pragma once

#include "families/actuators/actuator_model.h"
#include "families/articulations/link_shape_model.h"
#include "families/bending/bending_model.h"
#include "families/body_contacts/body_contact_model.h"
#include "kernels/body_coupling.h"
#include "families/bodies/body_model.h"
#include "families/colliders/collider_model.h"
#include "kernels/corner_model.h"
#include "families/ground/ground_model.h"
#include "families/joints/joint_model.h"
#include "families/attachments/particle_body_model.h"
#include "families/particles/particle_model.h"
#include "families/springs/spring_model.h"
#include "kernels/state.h"
#include "families/tets/tet_model.h"
#include "families/triangles/triangle_model.h"
#include "nudge/config.h"

namespace nudge {

template <class T>
struct ModelView {
  T dt = 0;
  ParticleModel<T> particles;
  SpringModel<T> springs;
  TriangleModel<T> triangles;
  BendingModel<T> bending;
  TetModel<T> tets;
  CornerModel<T> corners;  // where the element families' forces reach the particles
  GroundModel<T> ground;
  ColliderModel<T> colliders;
  BodyModel<T> bodies;
  JointModel<T> joints;
  BodyContactModel<T> body_contacts;
  BodyCouplingView<T> coupling;  // the slots through which joints and body contacts reach bodies
  ParticleBodyModel<T> particle_bodies;
  ActuatorModel<T> actuators;
  LinkShapeModel<T> link_shapes;  // the articulations' links as particles meet them
};

// Whether particles meet anything local to them (the ground, colliders, bodies, links): without, the
// particle passes run a branch-free body that vectorises.
template <class T>
NUDGE_HD bool has_local_contact(const ModelView<T>& m) {
  return m.ground.enabled || m.colliders.count > 0 || m.particle_bodies.contact || m.particle_bodies.attachments ||
         m.link_shapes.particles;
}

template <class T>
struct GradView {
  ParticleGrad<T> particles;
  SpringGrad<T> springs;
  TriangleGrad<T> triangles;
  BendingGrad<T> bending;
  TetGrad<T> tets;
  GroundGrad<T> ground;
  ColliderGrad<T> colliders;
  BodyGrad<T> bodies;
  JointGrad<T> joints;
  BodyContactGrad<T> body_contacts;
  ParticleBodyGrad<T> particle_bodies;
  ActuatorGrad<T> actuators;
  // Set for the implicit step's operator products (sim/implicit_euler.h), which want a
  // family's dL/dstate and not its parameters' gradients: a family that keeps its
  // gradients to itself (not in a member above) skips them then.
  bool operator_product = false;
};

}  // namespace nudge
