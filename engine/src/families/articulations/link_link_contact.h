// Contact between links (articulations.self_contact): each link's contact points against
// the other links' solids, a point moving with its link as a body's point moves with its
// body (body_link_contact.h). A link does not meet its parent or its children, as MuJoCo
// filters a body and its parent. Both links feel the contact as external wrenches in
// their trees' steps, explicit from the step's start. Each link sums its own share in its
// own pass, so each contact is computed once per side, and the adjoint likewise.
#pragma once

#include "families/articulations/body_link_contact.h"

namespace nudge {

template <class T>
NUDGE_HD bool links_meet_links(const ModelView<T>& m) {
  return m.link_shapes.each_other;
}

// Whether link a's points may meet link e's solids: other links, not parent and child,
// within their reach.
template <class T>
NUDGE_HD bool link_pair_near(const LinkShapeModel<T>& ls, int a, int e) {
  if (a == e || ls.parent[a] == e || ls.parent[e] == a) return false;
  const T reach = ls.link_bound[a] + ls.link_bound[e] + ls.reach;
  return length_squared(ls.motion[a].origin - ls.motion[e].origin) <= reach * reach;
}

// How link a's points move: v + w x (p - 0), its spatial velocity about the origin.
template <class T>
NUDGE_HD PointMotion<T> link_point_motion(const LinkShapeModel<T>& ls, int a) {
  const Spatial<T>& v = ls.motion[a].v;
  return {v.lin, v.ang, {0, 0, 0}};
}

// Calls each(j, s, x, radius) for each of link a's points j (its centre x in the world,
// its radius) within reach of link e's solid s.
template <class T, class Each>
NUDGE_HD void each_link_pair_touch(const LinkShapeModel<T>& ls, int a, int e, Each each) {
  if (!link_pair_near(ls, a, e)) return;
  for (int j = ls.point_start[a]; j < ls.point_start[a + 1]; ++j) {
    const Vec3<T> x = link_point_at(ls, a, j);
    const T radius = ls.point_radius[j];
    for (int s = ls.shape_start[e]; s < ls.shape_start[e + 1]; ++s)
      if (!particle_link_apart(ls, s, x, radius)) each(j, s, x, radius);
  }
}

// Calls each(wrench on link a, wrench on link e, both about the origin) for every contact
// of link a's points with link e's solids.
template <class T, class Each>
NUDGE_HD void each_link_pair_contact(const ModelView<T>& m, int a, int e, Each each) {
  const LinkShapeModel<T>& ls = m.link_shapes;
  const PointMotion<T> pm = link_point_motion(ls, a);
  each_link_pair_touch(ls, a, e, [&](int, int s, Vec3<T> x, T radius) {
    const ParticleLinkTouch<T> touch = point_link_contact(m.colliders, ls, s, x, pm, radius, ls.link_mass[a]);
    each(Spatial<T>{cross(touch.point, touch.force), touch.force}, link_side_wrench(touch));
  });
}

// Calls each(j, s, x, adjoint) with the adjoint of every contact of link a's points with
// link e's solids, from both links' dL/d(external wrench) (ls.adj_wrench).
template <class T, class Each>
NUDGE_HD void each_link_pair_adjoint(const ModelView<T>& m, int a, int e, Each each) {
  const LinkShapeModel<T>& ls = m.link_shapes;
  const PointMotion<T> pm = link_point_motion(ls, a);
  const Spatial<T>& abar = ls.adj_wrench[a];
  const Wrench<T> pbar{abar.lin, abar.ang};  // the points' side: (F, c x F)
  each_link_pair_touch(ls, a, e, [&](int j, int s, Vec3<T> x, T radius) {
    ParticleLinkAdjoint<T> adj;
    adj_point_link_contact(m.colliders, ls, s, x, pm, radius, ls.link_mass[a], pbar, ls.adj_wrench[e], adj);
    each(j, s, x, adj);
  });
}

// The wrench of every other link on link k, about the origin: at its points and on its
// solids.
template <class T>
NUDGE_HD Spatial<T> link_link_wrench(const ModelView<T>& m, int k) {
  Spatial<T> sum{{0, 0, 0}, {0, 0, 0}};
  for (int e = 0; e < m.link_shapes.links; ++e) {
    each_link_pair_contact(m, k, e, [&](const Spatial<T>& on_points, const Spatial<T>&) { sum += on_points; });
    each_link_pair_contact(m, e, k, [&](const Spatial<T>&, const Spatial<T>& on_solids) { sum += on_solids; });
  }
  return sum;
}

// Link k's share of the adjoint of its contacts with the other links, given each link's
// dL/d(its external wrench) (ls.adj_wrench).
template <class T>
struct LinkLinkAdjoint {
  Spatial<T> velocity{{0, 0, 0}, {0, 0, 0}}, frame{{0, 0, 0}, {0, 0, 0}};
  T link_mass = 0;
  T stiffness = 0, damping = 0, friction = 0;  // taken on the points' side, once per contact
};

// on_shape(s, a) receives each contact's share of k's solid s, on_point(j, offset,
// radius) each of k's point j's (its offset in k's frame).
template <class T, class OnShape, class OnPoint>
NUDGE_HD void adj_link_link_contacts(const ModelView<T>& m, int k, LinkLinkAdjoint<T>& out, OnShape on_shape,
                                     OnPoint on_point) {
  const Mat33<T>& rot = m.link_shapes.motion[k].rot;
  for (int e = 0; e < m.link_shapes.links; ++e) {
    // k's points, e's solids: k's share is the points'
    each_link_pair_adjoint(m, k, e, [&](int j, int, Vec3<T> x, const ParticleLinkAdjoint<T>& a) {
      out.velocity.lin += a.v;  // the motion's centre is the fixed origin
      out.velocity.ang += a.w;
      out.frame.lin += a.x;  // x = origin + R offset
      out.frame.ang += cross(x, a.x);
      out.link_mass += a.mass;
      out.stiffness += a.stiffness, out.damping += a.damping, out.friction += a.friction;
      on_point(j, mul_transpose(rot, a.x), a.radius);
    });
    // e's points, k's solids: k's share is the solids'
    each_link_pair_adjoint(m, e, k, [&](int, int s, Vec3<T>, const ParticleLinkAdjoint<T>& a) {
      out.velocity += a.velocity;
      out.frame += a.frame;
      out.link_mass += a.link_mass;
      on_shape(s, a);
    });
  }
}

}  // namespace nudge
