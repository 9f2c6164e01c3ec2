// Contact between free rigid bodies and the links, both ways, and its adjoint:
//  - a body's contact points against a link's solids, as a particle meets them
//    (particle_link_contact.h), the point moving with its body;
//  - a link's contact points against a body's shape, as two bodies meet
//    (body_pair_contact.h), the link's point standing for a body that does not turn
//    (articulation_contact.h: contact_point_state).
// The body feels its side in its step (families/bodies/body_kernels.h: body_wrench); the
// link its side as the external wrench its tree's step takes, summed per link over the
// bodies. Both are explicit, from the step's start. The adjoint is taken on both sides,
// each from both wrenches' adjoints: the body's in a pass over bodies, the link's in the
// pass over links after the particles' adjoint.
#pragma once

#include "families/articulations/articulation_contact.h"
#include "families/articulations/particle_link_contact.h"
#include "families/bodies/body_state_io.h"
#include "families/body_contacts/body_pair_contact.h"
#include "kernels/body_coupling.h"

namespace nudge {

template <class T>
NUDGE_HD bool bodies_meet_links(const ModelView<T>& m) {
  return m.link_shapes.bodies;
}

// Whether body b (at x) is beyond link k's reach.
template <class T>
NUDGE_HD bool body_link_apart(const ModelView<T>& m, int b, Vec3<T> x, int k) {
  const LinkShapeModel<T>& ls = m.link_shapes;
  const T reach = m.bodies.bound[b] + ls.link_bound[k] + ls.reach;
  return length_squared(x - ls.motion[k].origin) > reach * reach;
}

// A body's contact point j: its sphere's centre in the world and how it moves.
template <class T>
NUDGE_HD Vec3<T> body_point_at(const BodyModel<T>& bm, const BodyState<T>& s, int j) {
  return s.x + rotate(s.q, load3(bm.point_offset, j, bm.points));
}

// Link k's contact point j in the world.
template <class T>
NUDGE_HD Vec3<T> link_point_at(const LinkShapeModel<T>& ls, int k, int j) {
  const LinkMotion<T>& lm = ls.motion[k];
  return lm.origin + lm.rot * ls.point_offset[j];
}

// Calls each(wrench on the body about its centre, wrench on the link about the origin)
// for every contact of body b (state s) with link k.
template <class T, class Each>
NUDGE_HD void each_body_link_contact(const ModelView<T>& m, int b, const BodyState<T>& s, int k, Each each) {
  const LinkShapeModel<T>& ls = m.link_shapes;
  const BodyModel<T>& bm = m.bodies;
  if (body_link_apart(m, b, s.x, k)) return;
  const PointMotion<T> pm{s.v, s.w, s.x};
  for (int j = bm.point_start[b]; j < bm.point_start[b + 1]; ++j) {  // the body's points, the link's solids
    const Vec3<T> x = body_point_at(bm, s, j);
    const T radius = bm.point_radius[j];
    for (int e = ls.shape_start[k]; e < ls.shape_start[k + 1]; ++e) {
      if (particle_link_apart(ls, e, x, radius)) continue;
      const ParticleLinkTouch<T> touch = point_link_contact(m.colliders, ls, e, x, pm, radius, bm.mass[b]);
      each(Wrench<T>{touch.force, cross(touch.point - s.x, touch.force)}, link_side_wrench(touch));
    }
  }
  const Spatial<T>& lv = ls.motion[k].v;
  for (int j = ls.point_start[k]; j < ls.point_start[k + 1]; ++j) {  // the link's points, the body's shape
    const Vec3<T> p = link_point_at(ls, k, j);
    const T reach = bm.bound[b] + ls.point_radius[j] + ls.reach;
    if (length_squared(p - s.x) > reach * reach) continue;
    const PairWrench<T> w = body_pair_contact(m.colliders, bm.shape[b], contact_point_state(p, lv), s, Vec3<T>{0, 0, 0},
                                              ls.point_radius[j], ls.link_mass[k], bm.mass[b]);
    each(w.b, Spatial<T>{w.a.torque + cross(p, w.a.force), w.a.force});
  }
}

// The wrench of every link on body b, about its centre.
template <class T>
NUDGE_HD Wrench<T> body_link_wrench(const ModelView<T>& m, int b, const BodyState<T>& s) {
  Wrench<T> sum{{0, 0, 0}, {0, 0, 0}};
  for (int k = 0; k < m.link_shapes.links; ++k)
    each_body_link_contact(m, b, s, k, [&](const Wrench<T>& on_body, const Spatial<T>&) { sum += on_body; });
  return sum;
}

// The wrench of every body on link k, about the origin.
template <class T>
NUDGE_HD Spatial<T> link_body_wrench(const ModelView<T>& m, int k, StateView<const T> state) {
  Spatial<T> sum{{0, 0, 0}, {0, 0, 0}};
  const int nb = m.bodies.count;
  for (int b = 0; b < nb; ++b)
    each_body_link_contact(m, b, load_body(state, b, nb), k,
                           [&](const Wrench<T>&, const Spatial<T>& on_link) { sum += on_link; });
  return sum;
}

// The adjoints of one body's contacts with one link, both sides.
template <class T>
struct BodyLinkAdjoint {
  BodyState<T> body = zero_body_state<T>();
  T body_mass = 0, stiffness = 0, damping = 0, friction = 0;
  Vec3<T> body_size{0, 0, 0};   // its shape's size, through its points and its shape
  ParticleLinkAdjoint<T> link;  // the link's fields: velocity, frame, link_mass
};

// Body b's contacts with link k, given dL/d(the body's wrench), bbar, and dL/d(the
// link's), wbar. on_shape(e, a) receives each of the link's solids' own shares, and
// on_point(j, offset, radius) each of its points' (in its frame).
template <class T, class OnShape, class OnPoint>
NUDGE_HD void adj_body_link_contacts(const ModelView<T>& m, int b, const BodyState<T>& s, int k, const Wrench<T>& bbar,
                                     Spatial<T> wbar, BodyLinkAdjoint<T>& out, OnShape on_shape, OnPoint on_point) {
  const LinkShapeModel<T>& ls = m.link_shapes;
  const BodyModel<T>& bm = m.bodies;
  if (body_link_apart(m, b, s.x, k)) return;
  const PointMotion<T> pm{s.v, s.w, s.x};
  for (int j = bm.point_start[b]; j < bm.point_start[b + 1]; ++j) {
    const Vec3<T> offset = load3(bm.point_offset, j, bm.points);
    const Vec3<T> x = s.x + rotate(s.q, offset);
    const T radius = bm.point_radius[j];
    for (int e = ls.shape_start[k]; e < ls.shape_start[k + 1]; ++e) {
      if (particle_link_apart(ls, e, x, radius)) continue;
      ParticleLinkAdjoint<T> a;
      adj_point_link_contact(m.colliders, ls, e, x, pm, radius, bm.mass[b], bbar, wbar, a);
      // x = x_b + R(q) offset; the motion (v, w, x_b)
      out.body.x += a.x + a.pivot;
      out.body.v += a.v;
      out.body.w += a.w;
      Vec3<T> adj_offset{0, 0, 0};
      adj_rotate(s.q, offset, a.x, out.body.q, adj_offset);
      out.body_size += point_size_gradient(bm, j, adj_offset, a.radius);
      out.body_mass += a.mass;
      out.stiffness += a.stiffness, out.damping += a.damping, out.friction += a.friction;
      out.link.velocity += a.velocity;
      out.link.frame += a.frame;
      out.link.link_mass += a.link_mass;
      on_shape(e, a);
    }
  }
  const Spatial<T>& lv = ls.motion[k].v;
  for (int j = ls.point_start[k]; j < ls.point_start[k + 1]; ++j) {
    const Vec3<T> p = link_point_at(ls, k, j);
    const T reach = bm.bound[b] + ls.point_radius[j] + ls.reach;
    if (length_squared(p - s.x) > reach * reach) continue;
    const BodyState<T> sp = contact_point_state(p, lv);
    const PairWrench<T> w = body_pair_contact(m.colliders, bm.shape[b], sp, s, Vec3<T>{0, 0, 0}, ls.point_radius[j],
                                              ls.link_mass[k], bm.mass[b]);
    // the link's side about the origin: (torque + p x F, F)
    const PairWrench<T> adj_ret{{wbar.lin + cross(wbar.ang, p), wbar.ang}, bbar};
    BodyState<T> adj_sp = zero_body_state<T>();
    Vec3<T> adj_offset{0, 0, 0}, adj_p = cross(w.a.force, wbar.ang);
    T adj_radius = 0, adj_size[3] = {0, 0, 0};
    adj_body_pair_contact(m.colliders, bm.shape[b], sp, s, Vec3<T>{0, 0, 0}, ls.point_radius[j], adj_ret, adj_sp,
                          out.body, adj_offset, adj_radius, out.stiffness, out.damping, out.friction, ls.link_mass[k],
                          bm.mass[b], &out.link.link_mass, &out.body_mass, adj_size);
    out.body_size += Vec3<T>{adj_size[0], adj_size[1], adj_size[2]};
    // sp = (p, 1, V.lin + V.ang x p, V.ang)
    adj_p += adj_sp.x + cross(adj_sp.v, lv.ang);
    out.link.velocity.lin += adj_sp.v;
    out.link.velocity.ang += cross(p, adj_sp.v) + adj_sp.w;
    out.link.frame.ang += cross(p, adj_p);
    out.link.frame.lin += adj_p;
    on_point(j, mul_transpose(ls.motion[k].rot, adj_p), adj_radius);
  }
}

}  // namespace nudge
