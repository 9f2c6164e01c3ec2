// The links' contacts in one state as live play reports them (nudge/live_simulation.h),
// on the host, with the functions the kernels use: their points against the colliders,
// particles against their solids, free bodies against them both ways, and links against the
// other links' solids.
#pragma once

#include <vector>

#include "families/articulations/link_link_contact.h"
#include "families/colliders/contact_report.h"

namespace nudge {

// ls: the links' model with their motion and placements at state s (tree_link_motion);
// its contact points there even when nothing else meets the links.
template <class T>
void report_link_contacts(const ModelView<T>& m, StateView<const T> s, const LinkShapeModel<T>& ls,
                          std::vector<Contact>& out) {
  const ColliderModel<T>& cm = m.colliders;
  const T reach = -smooth_reach(cm.smoothing);
  for (int k = 0; k < ls.links; ++k)  // their points against the colliders
    for (int j = ls.point_start[k]; j < ls.point_start[k + 1]; ++j) {
      const Vec3<T> p = link_point_at(ls, k, j);
      for (int c = 0; c < cm.count; ++c) {
        const SphereTouch<T> touch = sphere_touch(cm.shapes[c], p, ls.point_radius[j]);
        if (touch.depth <= reach) continue;
        const Wrench<T> w = body_point_contact(cm, cm.shapes[c], contact_point_state(p, ls.motion[k].v),
                                               Vec3<T>{0, 0, 0}, ls.point_radius[j], ls.link_mass[k]);
        out.push_back(make_contact(Contact::Kind::LinkCollider, k, c, touch.point, w.force, touch.depth));
      }
    }
  // A point against solid e (within its bound): the contact with the force on the point.
  const auto touch_solid = [&](Contact::Kind kind, int a, int e, Vec3<T> x, const PointMotion<T>& pm, T radius,
                               T mass) {
    const ShapePlacement<T>& at = ls.placement[e];
    const T depth = radius - collider_sdf(ls.shape[e], mul_transpose(at.rot, x - at.centre)).distance;
    if (depth <= reach) return;
    const ParticleLinkTouch<T> t = point_link_contact(cm, ls, e, x, pm, radius, mass);
    out.push_back(make_contact(kind, a, ls.link[e], t.point, t.force, depth));
  };
  // ... against every solid
  const auto touch_solids = [&](Contact::Kind kind, int a, Vec3<T> x, const PointMotion<T>& pm, T radius, T mass) {
    for (int e = 0; e < ls.count; ++e)
      if (!particle_link_apart(ls, e, x, radius)) touch_solid(kind, a, e, x, pm, radius, mass);
  };
  if (ls.particles) {
    const int n = m.particles.n;
    for (int i = 0; i < n; ++i) {
      const Vec3<T> x = load3(s.x, i, n);
      touch_solids(Contact::Kind::ParticleLink, i, x, {load3(s.v, i, n), {0, 0, 0}, x}, cm.radius[i],
                   m.particles.mass[i]);
    }
  }
  if (ls.each_other)  // the links' points against the other links' solids
    for (int k = 0; k < ls.links; ++k)
      for (int e = 0; e < ls.links; ++e)
        each_link_pair_touch(ls, k, e, [&](int, int solid, Vec3<T> x, T radius) {
          touch_solid(Contact::Kind::LinkLink, k, solid, x, link_point_motion(ls, k), radius, ls.link_mass[k]);
        });
  if (!ls.bodies) return;
  const BodyModel<T>& bm = m.bodies;
  for (int b = 0; b < bm.count; ++b) {
    const BodyState<T> sb = load_body(s, b, bm.count);
    for (int j = bm.point_start[b]; j < bm.point_start[b + 1]; ++j)  // its points, the links' solids
      touch_solids(Contact::Kind::BodyLink, b, body_point_at(bm, sb, j), {sb.v, sb.w, sb.x}, bm.point_radius[j],
                   bm.mass[b]);
    for (int k = 0; k < ls.links; ++k)  // the links' points, its shape: the force on the body
      for (int j = ls.point_start[k]; j < ls.point_start[k + 1]; ++j) {
        const Vec3<T> p = link_point_at(ls, k, j);
        const SphereTouch<T> touch = sphere_touch_body(bm.shape[b], sb, p, ls.point_radius[j]);
        if (touch.depth <= reach) continue;
        const PairWrench<T> w = body_pair_contact(cm, bm.shape[b], contact_point_state(p, ls.motion[k].v), sb,
                                                  Vec3<T>{0, 0, 0}, ls.point_radius[j], ls.link_mass[k], bm.mass[b]);
        out.push_back(make_contact(Contact::Kind::BodyLink, b, k, touch.point, w.b.force, touch.depth));
      }
  }
}

}  // namespace nudge
