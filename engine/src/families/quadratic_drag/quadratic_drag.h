// Quadratic drag in a wind: each particle i with a drag coefficient c_i (kg/m) feels
//
//   F = -c |u| u,   u = v - w,
//
// with w the scene's wind (simulation.wind, the same air the triangles' drag and lift
// act in). It is the drag of a body at high Reynolds number, 0.5 rho C_d A folded into
// c: for a 1 cm sphere in air, c is about 0.5 * 1.2 * 0.47 * 3.1e-4 = 9e-5 kg/m.
//
// Its adjoint: dF/dv = -c (|u| I + u u^T / |u|), symmetric, continuous at u = 0 where it
// is 0 (the second term is bounded by |u|), so u = 0 takes that limit rather than 0/0.
// dF/dw = -dF/dv, dF/dc = -|u| u, dF/dx = 0.
#pragma once

#include "nudge/config.h"
#include "nudge/vec3.h"

namespace nudge {

template <class T>
NUDGE_HD Vec3<T> quadratic_drag_force(T c, Vec3<T> v, Vec3<T> wind) {
  const Vec3<T> u = v - wind;
  return u * (-c * length(u));
}

template <class T>
struct QuadraticDragAdjoint {
  Vec3<T> v;  // dL/dv = (dF/dv)^T adj_f; dL/dwind is its negation
  T c;        // dL/dc
};

template <class T>
NUDGE_HD QuadraticDragAdjoint<T> quadratic_drag_adjoint(T c, Vec3<T> v, Vec3<T> wind, Vec3<T> adj_f) {
  const Vec3<T> u = v - wind;
  const T speed = length(u);
  QuadraticDragAdjoint<T> out{Vec3<T>{0, 0, 0}, T(0)};
  if (!(speed > T(0))) return out;  // the limit at u = 0: F and its derivatives are 0
  const T along = dot(u, adj_f);
  out.v = (adj_f * speed + u * (along / speed)) * (-c);
  out.c = -speed * along;
  return out;
}

}  // namespace nudge
