// A body actuator's wrench at a step from its control u, and its adjoint; written on
// values, so each is checked on its own against central differences.
//
//   d = R(q) direction in the body's frame, or direction in the world's
//   torque actuator:  force 0,      torque u d
//   force actuator:   force f = u d, torque r x f, r = R(q) point (about the centre of mass)
#pragma once

#include "families/bodies/body_step.h"
#include "nudge/quat.h"

namespace nudge {

template <class T>
struct ActuatorLaw {
  bool torque = false, body_frame = false;
  Vec3<T> direction{1, 0, 0}, point{0, 0, 0};
};

template <class T>
NUDGE_HD Vec3<T> actuator_direction(const ActuatorLaw<T>& a, Quat<T> q) {
  return a.body_frame ? rotate(q, a.direction) : a.direction;
}

template <class T>
NUDGE_HD Wrench<T> actuator_wrench(const ActuatorLaw<T>& a, Quat<T> q, T u) {
  const Vec3<T> d = actuator_direction(a, q);
  if (a.torque) return {{0, 0, 0}, u * d};
  const Vec3<T> f = u * d;
  return {f, cross(rotate(q, a.point), f)};
}

// Given dL/dwrench, adds dL/dq (of q as used, not normalised) and dL/du.
template <class T>
NUDGE_HD void adj_actuator_wrench(const ActuatorLaw<T>& a, Quat<T> q, T u, const Wrench<T>& adj, Quat<T>& adj_q,
                                  T& adj_u) {
  const Vec3<T> d = actuator_direction(a, q);
  Vec3<T> adj_d{0, 0, 0}, unused{0, 0, 0};
  if (a.torque) {
    adj_u += dot(adj.torque, d);
    adj_d = u * adj.torque;
  } else {
    const Vec3<T> r = rotate(q, a.point), f = u * d;
    Vec3<T> adj_f = adj.force, adj_r{0, 0, 0};
    adj_cross(r, f, adj.torque, adj_r, adj_f);
    adj_u += dot(adj_f, d);
    adj_d = u * adj_f;
    adj_rotate(q, a.point, adj_r, adj_q, unused);
  }
  if (a.body_frame) adj_rotate(q, a.direction, adj_d, adj_q, unused);
}

}  // namespace nudge
