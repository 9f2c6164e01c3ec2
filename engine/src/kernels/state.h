// The dynamic state of a rollout at one step, as kernels see it: pointers into one
// state slot. T is const-qualified for a state a pass only reads (StateView<const T>).
// The adjoint state (dL/dstate) has the same shape and is passed as a StateView too.
//
// Arrays of 3-vectors are structures of arrays (3 x n: all x, then all y, then all z;
// see load3 in nudge/vec3.h). A family that has state of its own adds its arrays here
// (the kernels read them by name) and declares them with state_fields() (sim/state_layout.h
// lays out whatever the families declare).
#pragma once

#include <type_traits>

#include "nudge/config.h"

namespace nudge {

template <class T>
struct StateView {
  T* x = nullptr;  // particle positions, 3 x n
  T* v = nullptr;  // particle velocities, 3 x n
  // Rigid bodies (B): centre of mass, orientation (a unit quaternion x, y, z, w, body to
  // world), linear and angular velocity in world coordinates.
  T* body_x = nullptr;  // 3 x B
  T* body_q = nullptr;  // 4 x B
  T* body_v = nullptr;  // 3 x B
  T* body_w = nullptr;  // 3 x B
  // With the time-of-impact ground: each particle's velocity after the forces and before
  // the ground (3 x n), which the step's adjoint needs; else null.
  T* v_pre = nullptr;
  // Material points (P, families/material_points/): position and velocity (3 x P), affine
  // velocity C and deformation gradient F (9 x P, entry k of point p at k * P + p).
  T* point_x = nullptr;
  T* point_v = nullptr;
  T* point_c = nullptr;
  T* point_f = nullptr;
  // The material points' vessels (V): the angle each has turned about its hinge (rad).
  T* vessel_angle = nullptr;
  // Articulations (families/articulations/): every tree's joint coordinates and rates,
  // one value per hinge or slide.
  T* joint_q = nullptr;
  T* joint_qd = nullptr;

  // A writable view reads as a read-only one. (A template, so that the view of const T
  // declares no conversion to itself.)
  template <class U = T, class = std::enable_if_t<!std::is_const_v<U>>>
  NUDGE_HD operator StateView<const U>() const {
    return {x,       v,       body_x,  body_q,  body_v,       body_w,  v_pre,
            point_x, point_v, point_c, point_f, vessel_angle, joint_q, joint_qd};
  }
};

// The arrays of a StateView by name, for the host code that lays out and checks a slot
// whatever arrays its families declare.
enum class StateArray {
  X,
  V,
  BodyX,
  BodyQ,
  BodyV,
  BodyW,
  VPre,
  PointX,
  PointV,
  PointC,
  PointF,
  VesselAngle,
  JointQ,
  JointQd
};

template <class T>
T*& state_array(StateView<T>& s, StateArray array) {
  switch (array) {
    case StateArray::X: return s.x;
    case StateArray::V: return s.v;
    case StateArray::BodyX: return s.body_x;
    case StateArray::BodyQ: return s.body_q;
    case StateArray::BodyV: return s.body_v;
    case StateArray::BodyW: return s.body_w;
    case StateArray::PointX: return s.point_x;
    case StateArray::PointV: return s.point_v;
    case StateArray::PointC: return s.point_c;
    case StateArray::PointF: return s.point_f;
    case StateArray::VesselAngle: return s.vessel_angle;
    case StateArray::JointQ: return s.joint_q;
    case StateArray::JointQd: return s.joint_qd;
    case StateArray::VPre: break;
  }
  return s.v_pre;
}

}  // namespace nudge
