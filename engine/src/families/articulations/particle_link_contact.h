// Contact between particles (cloth among them) and the links' solid shapes, and its
// adjoint. A link's shape is a collider that moves with its link, so a particle meets it
// by the law it meets a body's shape with (families/attachments/particle_body.h):
//   d = x - centre,  q = R^T d,  (phi, n_s) = sdf(q),  n = R n_s
//   c = x - radius n  (where the particle's sphere touches the shape)
//   v_rel = v - (V.lin + V.ang x c)      (V: the link's spatial velocity, about the origin)
//   F = contact_law(phi, n, v_rel, radius)
// The particle feels F; the link feels -F at c, the wrench -(c x F, F) about the origin,
// which its tree's step takes as an external force. Both sides are explicit: the link
// is where the step's start puts it, and the particles are where they were.
//
// The particle's share of the adjoint is taken in the particles' pass, the link's in a
// pass over links after it (from every particle's dL/dF), each from both forces.
#pragma once

#include "families/articulations/link_shape_model.h"
#include "families/bodies/body_step.h"
#include "families/colliders/collider_contact.h"
#include "families/colliders/collider_sdf.h"
#include "families/colliders/contact_restitution.h"
#include "kernels/model.h"

namespace nudge {

template <class T>
NUDGE_HD bool particles_meet_links(const ModelView<T>& m) {
  return m.link_shapes.particles;
}

// Whether a particle at x of this radius is beyond shape j's reach.
template <class T>
NUDGE_HD bool particle_link_apart(const LinkShapeModel<T>& ls, int j, Vec3<T> x, T radius) {
  const T reach = ls.bound[j] + radius + ls.reach;
  return length_squared(x - ls.placement[j].centre) > reach * reach;
}

template <class T>
struct ParticleLinkTouch {
  Vec3<T> force;  // on the particle
  Vec3<T> point;  // c, where the link feels -force
};

// How the point that meets a shape moves: at c its velocity is v + w x (c - centre) (a
// rigid body's point: the body's velocity, spin and centre; a particle's: w = 0).
template <class T>
struct PointMotion {
  Vec3<T> v, w, centre;
};

// The contact of a point (its sphere's centre x, its motion, radius and mass) with shape j.
template <class T>
NUDGE_HD ParticleLinkTouch<T> point_link_contact(const ColliderModel<T>& cm, const LinkShapeModel<T>& ls, int j,
                                                 Vec3<T> x, const PointMotion<T>& pm, T radius, T mass) {
  const ShapePlacement<T>& at = ls.placement[j];
  const int k = ls.link[j];
  const SdfSample<T> sd = collider_sdf(ls.shape[j], mul_transpose(at.rot, x - at.centre));
  const Vec3<T> n = at.rot * sd.normal;
  const Vec3<T> c = x - radius * n;
  const Spatial<T>& lv = ls.motion[k].v;
  const Vec3<T> v_rel = (pm.v + cross(pm.w, c - pm.centre)) - (lv.lin + cross(lv.ang, c));
  const ColliderModel<T> law = contact_model_for(cm, reduced_mass(mass, ls.link_mass[k]));
  return {contact_law_force(law, sd.distance, n, v_rel, radius), c};
}

template <class T>
NUDGE_HD ParticleLinkTouch<T> particle_link_contact(const ColliderModel<T>& cm, const LinkShapeModel<T>& ls, int j,
                                                    Vec3<T> x, Vec3<T> v, T radius, T mass) {
  return point_link_contact(cm, ls, j, x, PointMotion<T>{v, {0, 0, 0}, x}, radius, mass);
}

// The link's side as a wrench about the origin (torque, force).
template <class T>
NUDGE_HD Spatial<T> link_side_wrench(const ParticleLinkTouch<T>& touch) {
  return {T(-1) * cross(touch.point, touch.force), T(-1) * touch.force};
}

// The adjoints of one contact's inputs, accumulated.
template <class T>
struct ParticleLinkAdjoint {
  // The point's: its centre and motion, radius and mass, and the contact parameters' shares.
  Vec3<T> x{0, 0, 0}, v{0, 0, 0}, w{0, 0, 0}, pivot{0, 0, 0};  // pivot: its motion's centre
  T radius = 0, mass = 0, stiffness = 0, damping = 0, friction = 0;
  // The link's: dL/d(its spatial velocity), dL per twist of its frame, dL/d(its mass).
  Spatial<T> velocity{{0, 0, 0}, {0, 0, 0}}, frame{{0, 0, 0}, {0, 0, 0}};
  T link_mass = 0;
  // The shape's, in its link's frame: dL/d(its centre), dL/d(a turn of it, as a rotation
  // vector), dL/d(its collider size); for a hull, dL/d(log of its scale along each of its
  // axes), as its mesh_scale scales it (link_solid_shapes.h).
  Vec3<T> centre{0, 0, 0}, turn{0, 0, 0};
  T size[3] = {0, 0, 0};
};

// Given dL/d(the wrench on the point's body, about its motion's centre: F and
// (c - centre) x F), pbar, and dL/d(the link's wrench), wbar.
template <class T>
NUDGE_HD void adj_point_link_contact(const ColliderModel<T>& cm, const LinkShapeModel<T>& ls, int j, Vec3<T> x,
                                     const PointMotion<T>& pm, T radius, T mass, const Wrench<T>& pbar, Spatial<T> wbar,
                                     ParticleLinkAdjoint<T>& out) {
  const ShapePlacement<T>& at = ls.placement[j];
  const int k = ls.link[j];
  const Vec3<T> d = x - at.centre, q = mul_transpose(at.rot, d);
  const SdfSample<T> sd = collider_sdf(ls.shape[j], q);
  if (radius - sd.distance <= T(0) && cm.smoothing <= T(0)) return;  // no contact, no gradient
  const Vec3<T> n = at.rot * sd.normal;
  const Vec3<T> c = x - radius * n, arm = c - pm.centre;
  const Spatial<T>& lv = ls.motion[k].v;
  const Vec3<T> v_rel = (pm.v + cross(pm.w, arm)) - (lv.lin + cross(lv.ang, c));
  const T link_mass = ls.link_mass[k], contact_mass = reduced_mass(mass, link_mass);
  const ColliderModel<T> law = contact_model_for(cm, contact_mass);
  const Vec3<T> f = contact_law_force(law, sd.distance, n, v_rel, radius);
  // point: (F, arm x F); link: -(c x F, F)
  const Vec3<T> adj_f = pbar.force + cross(pbar.torque, arm) - wbar.lin + cross(c, wbar.ang);
  Vec3<T> adj_c = T(-1) * cross(f, wbar.ang);
  Vec3<T> adj_arm = cross(f, pbar.torque);
  // F = contact_law(phi, n, v_rel, radius)
  T adj_phi = 0, adj_damping = 0, adj_contact_mass = 0;
  Vec3<T> adj_n{0, 0, 0}, adj_v_rel{0, 0, 0};
  adj_contact_law(law, sd.distance, n, v_rel, radius, adj_f, adj_phi, adj_n, adj_v_rel, out.stiffness, adj_damping,
                  out.friction, out.radius);
  adj_contact_model_for(cm, contact_mass, adj_damping, out.damping, out.stiffness, &adj_contact_mass);
  const T sum = mass + link_mass;
  out.mass += adj_contact_mass * link_mass * link_mass / (sum * sum);
  out.link_mass += adj_contact_mass * mass * mass / (sum * sum);
  // v_rel = v + w x arm - V.lin - V.ang x c, arm = c - centre
  out.v += adj_v_rel;
  out.w += cross(arm, adj_v_rel);
  adj_arm += cross(adj_v_rel, pm.w);
  out.velocity.lin += T(-1) * adj_v_rel;
  out.velocity.ang += T(-1) * cross(c, adj_v_rel);
  adj_c += adj_arm + T(-1) * cross(adj_v_rel, lv.ang);
  out.pivot += T(-1) * adj_arm;
  // c = x - radius n
  out.x += adj_c;
  adj_n += T(-1) * radius * adj_c;
  out.radius -= dot(n, adj_c);
  // n = R n_s, (phi, n_s) = sdf(q), q = R^T d. A turn delta of the shape (world) turns n
  // by delta x n and q by -R^T (delta x d).
  Vec3<T> turn = cross(n, adj_n);
  const Vec3<T> adj_ns = mul_transpose(at.rot, adj_n);
  const Vec3<T> adj_d = at.rot * collider_sdf_adjoint(ls.shape[j], q, adj_phi, adj_ns, out.size);
  if (ls.shape[j].type == ShapeType::Convex)
    add_hull_scale_adjoint(sd.distance, sd.normal, q, adj_phi, adj_ns, out.size);
  turn += T(-1) * cross(d, adj_d);
  out.x += adj_d;
  // d = x - centre; centre = origin + R_link pos, R = R_link R_shape: a twist (w, u) of the
  // link's frame moves the centre by u + w x centre and turns the shape by w.
  const Vec3<T> adj_centre = T(-1) * adj_d;
  out.frame.lin += adj_centre;
  out.frame.ang += cross(at.centre, adj_centre) + turn;
  const Mat33<T>& link_rot = ls.motion[k].rot;
  out.centre += mul_transpose(link_rot, adj_centre);
  out.turn += mul_transpose(link_rot, turn);
}

// Given dL/d(the force on the particle), fbar, and dL/d(the link's wrench), wbar.
template <class T>
NUDGE_HD void adj_particle_link_contact(const ColliderModel<T>& cm, const LinkShapeModel<T>& ls, int j, Vec3<T> x,
                                        Vec3<T> v, T radius, T mass, Vec3<T> fbar, Spatial<T> wbar,
                                        ParticleLinkAdjoint<T>& out) {
  adj_point_link_contact(cm, ls, j, x, PointMotion<T>{v, {0, 0, 0}, x}, radius, mass, Wrench<T>{fbar, {0, 0, 0}}, wbar,
                         out);
}

// The force of every link on particle i.
template <class T>
NUDGE_HD_NOINLINE Vec3<T> particle_link_force(const ModelView<T>& m, int i, Vec3<T> x, Vec3<T> v) {
  const LinkShapeModel<T>& ls = m.link_shapes;
  const T radius = m.colliders.radius[i], mass = m.particles.mass[i];
  Vec3<T> f{0, 0, 0};
  for (int j = 0; j < ls.count; ++j)
    if (!particle_link_apart(ls, j, x, radius))
      f += particle_link_contact(m.colliders, ls, j, x, v, radius, mass).force;
  return f;
}

// Particle i's share of its contacts' adjoint, given dL/dF on it (adj_f) and each link's
// dL/d(wrench) (ls.adj_wrench): adds to adj_x, adj_v and the particle's gradients.
template <class T>
NUDGE_HD_NOINLINE void adj_particle_link_force(const ModelView<T>& m, const GradView<T>& grad, int i, Vec3<T> x,
                                               Vec3<T> v, Vec3<T> adj_f, Vec3<T>& adj_x, Vec3<T>& adj_v) {
  const LinkShapeModel<T>& ls = m.link_shapes;
  const T radius = m.colliders.radius[i], mass = m.particles.mass[i];
  ParticleLinkAdjoint<T> a;
  for (int j = 0; j < ls.count; ++j)
    if (!particle_link_apart(ls, j, x, radius))
      adj_particle_link_contact(m.colliders, ls, j, x, v, radius, mass, adj_f, ls.adj_wrench[ls.link[j]], a);
  adj_x += a.x + a.pivot;  // the pivot is the particle itself
  adj_v += a.v;
  grad.colliders.radius[i] += a.radius;
  grad.colliders.stiffness[i] += a.stiffness;
  grad.colliders.damping[i] += a.damping;
  grad.colliders.friction[i] += a.friction;
  grad.particles.mass[i] += a.mass;
}

// The wrench of every particle on link k (about the origin), from state s.
template <class T>
NUDGE_HD Spatial<T> link_particle_wrench(const ModelView<T>& m, int k, StateView<const T> s) {
  const LinkShapeModel<T>& ls = m.link_shapes;
  const int n = m.particles.n;
  Spatial<T> w{{0, 0, 0}, {0, 0, 0}};
  for (int j = ls.shape_start[k]; j < ls.shape_start[k + 1]; ++j)
    for (int i = 0; i < n; ++i) {
      const Vec3<T> x = load3(s.x, i, n);
      const T radius = m.colliders.radius[i];
      if (particle_link_apart(ls, j, x, radius)) continue;
      w +=
          link_side_wrench(particle_link_contact(m.colliders, ls, j, x, load3(s.v, i, n), radius, m.particles.mass[i]));
    }
  return w;
}

// Link k's share of its contacts' adjoint, given every particle's dL/dF (adj_f, 3 x N)
// and its own dL/d(wrench): the link's fields of the result (its particles' fields are
// taken on their side). on_shape(j, a) receives each of its shapes' sums.
template <class T, class OnShape>
NUDGE_HD ParticleLinkAdjoint<T> adj_link_particle_wrench(const ModelView<T>& m, int k, StateView<const T> s,
                                                         const T* adj_f, OnShape on_shape) {
  const LinkShapeModel<T>& ls = m.link_shapes;
  const int n = m.particles.n;
  ParticleLinkAdjoint<T> link;
  for (int j = ls.shape_start[k]; j < ls.shape_start[k + 1]; ++j) {
    ParticleLinkAdjoint<T> a;
    for (int i = 0; i < n; ++i) {
      const Vec3<T> x = load3(s.x, i, n);
      const T radius = m.colliders.radius[i];
      if (particle_link_apart(ls, j, x, radius)) continue;
      adj_particle_link_contact(m.colliders, ls, j, x, load3(s.v, i, n), radius, m.particles.mass[i],
                                load3(adj_f, i, n), ls.adj_wrench[k], a);
    }
    link.velocity += a.velocity;
    link.frame += a.frame;
    link.link_mass += a.link_mass;
    on_shape(j, a);
  }
  return link;
}

}  // namespace nudge
