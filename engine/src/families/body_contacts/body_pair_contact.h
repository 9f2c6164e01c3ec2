// Contact between two rigid bodies: a contact point of body A (a sphere's centre, a
// capsule's end centres, a box's corners, each with its radius) against the shape of
// body B, which is a collider that moves. B's shape is a Collider in B's own frame (at
// the origin, unturned); the point is taken into that frame, its signed distance and
// normal found there and the normal turned back:
//   r_a = R_A offset,  p = x_A + r_a,  d = p - x_B,  q = R_B^T d
//   (phi, n_B) = sdf_B(q),  n = R_B n_B
//   c = p - radius n  (where the point's sphere touches B),  r_A = c - x_A,  r_B = c - x_B
//   v_rel = (v_A + w_A x r_A) - (v_B + w_B x r_B)
//   F = contact_law(phi, n, v_rel, radius)
//   A feels (F, r_A x F), B feels (-F, -(r_B x F))
// Both forces act at the same point c, so the pair's momentum and angular momentum are
// kept exactly (up to rounding).
#pragma once

#include "families/bodies/body_step.h"

namespace nudge {

template <class T>
struct PairWrench {
  Wrench<T> a, b;
};

// mass_a, mass_b: the two bodies' masses (for a restitution, of their reduced mass).
template <class T>
NUDGE_HD PairWrench<T> body_pair_contact(const ColliderModel<T>& cm, const Collider<T>& shape_b, const BodyState<T>& sa,
                                         const BodyState<T>& sb, Vec3<T> offset, T radius, T mass_a = T(1),
                                         T mass_b = T(1)) {
  const Vec3<T> ra = rotate(sa.q, offset);
  const Vec3<T> d = sa.x + ra - sb.x;
  const SdfSample<T> sd = collider_sdf(shape_b, inverse_rotate(sb.q, d));
  const Vec3<T> n = rotate(sb.q, sd.normal);
  const Vec3<T> r_a = ra - radius * n, r_b = d - radius * n;
  const Vec3<T> v_rel = (sa.v + cross(sa.w, r_a)) - (sb.v + cross(sb.w, r_b));
  const Vec3<T> f =
      contact_law_force(contact_model_for(cm, reduced_mass(mass_a, mass_b)), sd.distance, n, v_rel, radius);
  return {{f, cross(r_a, f)}, {-f, -cross(r_b, f)}};
}

// Adds the adjoints of body_pair_contact's inputs (both bodies' states, the point's
// offset and radius, the contact parameters' shares, with adj_shape_size B's shape's
// size) given those of both wrenches.
template <class T>
NUDGE_HD void adj_body_pair_contact(const ColliderModel<T>& cm, const Collider<T>& shape_b, const BodyState<T>& sa,
                                    const BodyState<T>& sb, Vec3<T> offset, T radius, const PairWrench<T>& adj_ret,
                                    BodyState<T>& adj_sa, BodyState<T>& adj_sb, Vec3<T>& adj_offset, T& adj_radius,
                                    T& adj_stiffness, T& adj_damping, T& adj_friction, T mass_a = T(1), T mass_b = T(1),
                                    T* adj_mass_a = nullptr, T* adj_mass_b = nullptr, T* adj_shape_size = nullptr) {
  const Vec3<T> ra = rotate(sa.q, offset);
  const Vec3<T> d = sa.x + ra - sb.x;
  const Vec3<T> q = inverse_rotate(sb.q, d);
  const SdfSample<T> sd = collider_sdf(shape_b, q);
  if (radius - sd.distance <= T(0) && cm.smoothing <= T(0)) return;  // no contact, no gradient
  const Vec3<T> n = rotate(sb.q, sd.normal);
  const Vec3<T> r_a = ra - radius * n, r_b = d - radius * n;
  const Vec3<T> v_rel = (sa.v + cross(sa.w, r_a)) - (sb.v + cross(sb.w, r_b));
  const T mass = reduced_mass(mass_a, mass_b);
  const ColliderModel<T> contact = contact_model_for(cm, mass);
  const Vec3<T> f = contact_law_force(contact, sd.distance, n, v_rel, radius);

  // A: (F, r_A x F); B: (-F, -(r_B x F))
  Vec3<T> adj_f = adj_ret.a.force - adj_ret.b.force;
  Vec3<T> adj_r_a{0, 0, 0}, adj_r_b{0, 0, 0};
  adj_cross(r_a, f, adj_ret.a.torque, adj_r_a, adj_f);
  adj_cross(r_b, f, -adj_ret.b.torque, adj_r_b, adj_f);
  // F = contact_law(phi, n, v_rel)
  T adj_phi = 0, adj_c = 0, adj_mass = 0;
  Vec3<T> adj_n{0, 0, 0}, adj_v{0, 0, 0};
  adj_contact_law(contact, sd.distance, n, v_rel, radius, adj_f, adj_phi, adj_n, adj_v, adj_stiffness, adj_c,
                  adj_friction, adj_radius);
  adj_contact_model_for(cm, mass, adj_c, adj_damping, adj_stiffness, &adj_mass);
  // mass = m_a m_b / (m_a + m_b)
  const T sum = mass_a + mass_b;
  if (adj_mass_a) *adj_mass_a += adj_mass * mass_b * mass_b / (sum * sum);
  if (adj_mass_b) *adj_mass_b += adj_mass * mass_a * mass_a / (sum * sum);
  // v_rel = v_A + w_A x r_A - v_B - w_B x r_B
  adj_sa.v += adj_v;
  adj_cross(sa.w, r_a, adj_v, adj_sa.w, adj_r_a);
  adj_sb.v += -adj_v;
  adj_cross(sb.w, r_b, -adj_v, adj_sb.w, adj_r_b);
  // r_A = r_a - radius n, r_B = d - radius n
  const Vec3<T> adj_r = adj_r_a + adj_r_b;
  adj_n += -radius * adj_r;
  adj_radius += -dot(n, adj_r);
  // n = R_B n_B, (phi, n_B) = sdf_B(q), q = R_B^T d
  Vec3<T> adj_nb{0, 0, 0};
  adj_rotate(sb.q, sd.normal, adj_n, adj_sb.q, adj_nb);
  const Vec3<T> adj_q = collider_sdf_adjoint(shape_b, q, adj_phi, adj_nb, adj_shape_size);
  Vec3<T> adj_d = adj_r_b;
  adj_inverse_rotate(sb.q, d, adj_q, adj_sb.q, adj_d);
  // d = x_A + r_a - x_B, r_a = R_A offset
  adj_sa.x += adj_d;
  adj_sb.x += -adj_d;
  adj_rotate(sa.q, offset, adj_r_a + adj_d, adj_sa.q, adj_offset);
}

}  // namespace nudge
