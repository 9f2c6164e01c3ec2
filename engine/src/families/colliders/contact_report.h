// The contacts of one state as live play reports them (nudge/live_simulation.h): where a
// contact sphere touches a shape, how deep, and the force the contact law gives there.
// Host code over a host state; the families' contacts(m, state, out) members call these
// with the same functions their kernels use, so the force drawn is the force simulated.
#pragma once

#include <vector>

#include "families/body_contacts/body_pair_contact.h"
#include "families/colliders/collider_contact.h"
#include "nudge/live_simulation.h"

namespace nudge {

template <class T>
Contact make_contact(Contact::Kind kind, int a, int b, Vec3<T> point, Vec3<T> force, T depth) {
  Contact c;
  c.kind = kind;
  c.a = a;
  c.b = b;
  c.point = {double(point.x), double(point.y), double(point.z)};
  c.force = {double(force.x), double(force.y), double(force.z)};
  c.depth = double(depth);
  return c;
}

// How far from touching a smooth contact law (switch width `smoothing`) is reported: five
// widths, where its switch is under 1% on. A soft contact carries its load there, before
// the surfaces meet.
template <class T>
T smooth_reach(T smoothing) {
  return T(5) * smoothing;
}

// A sphere of `radius` at p against a static collider: its depth (radius - distance) and
// the point where it touches the surface, p - radius n.
template <class T>
struct SphereTouch {
  T depth;
  Vec3<T> point;
};

template <class T>
SphereTouch<T> sphere_touch(const Collider<T>& c, Vec3<T> p, T radius) {
  const SdfSample<T> sd = collider_sdf(c, p);
  return {radius - sd.distance, p - radius * sd.normal};
}

// The same against body b's shape (in state sb), as body_pair_contact places it.
template <class T>
SphereTouch<T> sphere_touch_body(const Collider<T>& shape_b, const BodyState<T>& sb, Vec3<T> p, T radius) {
  const SdfSample<T> sd = collider_sdf(shape_b, inverse_rotate(sb.q, p - sb.x));
  return {radius - sd.distance, p - radius * rotate(sb.q, sd.normal)};
}

}  // namespace nudge
