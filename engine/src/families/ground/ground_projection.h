// DiffTaichi's grounds (mass_spring.py), velocity projections rather than forces: no
// stiffness to tune and no time-step limit.
//
// advance_no_toi (GroundContact::Projection): a particle whose position at the start of
// the step is below the plane and whose new velocity points down stops; its velocity for
// the step is 0, so its position does not change, and no gradient flows through it.
//
// advance_toi (GroundContact::TimeOfImpact): a particle whose step would end below the
// plane while it moves down (faster than 1e-4 m/s) moves along its velocity until its
// path meets the plane, at the time of impact toi = (height - y) / v_y (negative for one
// already below, which is lifted back onto it), and stops there. Its position then
// depends smoothly on where and how fast it arrived, so gradients flow through a landing
// (DiffTaichi's paper shows what this does for learning).
#pragma once

#include "families/ground/ground_model.h"
#include "nudge/config.h"
#include "nudge/vec3.h"

namespace nudge {

// Whether the ground pushes with a penalty force (else it projects, or is off).
template <class T>
NUDGE_HD bool ground_penalty(const GroundModel<T>& g) {
  return g.enabled && !g.projection && !g.time_of_impact;
}

// Whether the projection stops a particle at x whose unprojected new velocity is vn.
template <class T>
NUDGE_HD bool ground_stops(const GroundModel<T>& g, Vec3<T> x, Vec3<T> vn) {
  return g.enabled && g.projection && x.y < g.height && vn.y < T(0);
}

// The adjoint's test, from the velocity after the step: the projection stopped the
// particle iff it started below the plane and left with velocity exactly 0. (Not
// stopped, its velocity is the unprojected one, whose y is >= 0 below the plane; it is
// exactly 0 only if every component was, where stopping changes nothing.)
template <class T>
NUDGE_HD bool ground_stopped(const GroundModel<T>& g, Vec3<T> x, Vec3<T> v1) {
  return g.enabled && g.projection && x.y < g.height && v1.x == T(0) && v1.y == T(0) && v1.z == T(0);
}

// Whether the time-of-impact ground stops a particle at x whose velocity after the forces
// is vn (DiffTaichi's test, computed the same way forwards and backwards).
template <class T>
NUDGE_HD bool ground_impact(const GroundModel<T>& g, Vec3<T> x, Vec3<T> vn, T dt) {
  return g.enabled && g.time_of_impact && x.y + dt * vn.y < g.height && vn.y < T(-1e-4);
}

// The time of impact of a particle for which ground_impact holds.
template <class T>
NUDGE_HD T ground_impact_time(const GroundModel<T>& g, Vec3<T> x, Vec3<T> vn) {
  return -(x.y - g.height) / vn.y;
}

// The adjoint of x' = x + toi vn, toi = -(x.y - height) / vn.y (v' = 0 carries nothing):
// given dL/dx' (adj_x1), adds to dL/dx and returns dL/dvn.
template <class T>
NUDGE_HD Vec3<T> ground_impact_adjoint(const GroundModel<T>& g, Vec3<T> x, Vec3<T> vn, Vec3<T> adj_x1, Vec3<T>& adj_x) {
  const T toi = ground_impact_time(g, x, vn);
  const T along = dot(adj_x1, vn);  // dL/dtoi
  // dtoi/dx.y = -1 / vn.y, dtoi/dvn.y = -toi / vn.y
  adj_x += adj_x1;
  adj_x.y -= along / vn.y;
  Vec3<T> adj_vn = toi * adj_x1;
  adj_vn.y -= along * toi / vn.y;
  return adj_vn;
}

}  // namespace nudge
