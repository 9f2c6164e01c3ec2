// Smooth penalty contact with the ground plane y = h, and regularised Coulomb friction.
//   z = -(y - h) / eps,  depth = eps * softplus(z),  gate = sigmoid(z)
//   normal  N = k_g * depth                (elastic, >= 0)
//   F_y = N - c_g * v_y * gate             (damped while in contact)
//   F_t = -mu * N * v_t / sqrt(|v_t|^2 + eta^2),  v_t = (v_x, 0, v_z)
// Smooth everywhere, so gradients exist through making and breaking contact.
#pragma once

#include <cmath>

#include "families/ground/ground_model.h"
#include "nudge/vec3.h"

namespace nudge {

template <class T>
struct ContactTerms {
  T depth, gate, normal, q;  // q = sqrt(|v_t|^2 + eta^2)
};

template <class T>
NUDGE_HD ContactTerms<T> contact_terms(const GroundModel<T>& g, Vec3<T> x, Vec3<T> v) {
  const T eps = g.contact_smoothing;
  const T z = -(x.y - g.height) / eps;
  // Numerically stable softplus and sigmoid.
  const T e = std::exp(-std::fabs(z));
  const T softplus = (z > T(0) ? z : T(0)) + std::log1p(e);
  const T gate = z >= T(0) ? T(1) / (T(1) + e) : e / (T(1) + e);
  const T depth = eps * softplus;
  const T eta = g.friction_smoothing;
  const T q = std::sqrt(v.x * v.x + v.z * v.z + eta * eta);
  return {depth, gate, g.stiffness * depth, q};
}

template <class T>
NUDGE_HD Vec3<T> contact_force(const GroundModel<T>& g, Vec3<T> x, Vec3<T> v) {
  const ContactTerms<T> c = contact_terms(g, x, v);
  const T slip = -g.friction * c.normal / c.q;
  return {slip * v.x, c.normal - g.damping * v.y * c.gate, slip * v.z};
}

// Adjoint of contact_force given adj_f. Accumulates into adj_x, adj_v and the
// particle's share of the ground stiffness and friction gradients.
template <class T>
NUDGE_HD void contact_force_adjoint(const GroundModel<T>& g, Vec3<T> x, Vec3<T> v, Vec3<T> adj_f, Vec3<T>& adj_x,
                                    Vec3<T>& adj_v, T& adj_ground_stiffness, T& adj_friction) {
  const ContactTerms<T> c = contact_terms(g, x, v);
  const T mu = g.friction;
  const T inv_q = T(1) / c.q;
  // Tangential: F_t = -mu N w, w = v_t / q
  const T wx = v.x * inv_q, wz = v.z * inv_q;
  const T adj_w_dot = adj_f.x * wx + adj_f.z * wz;
  T adj_normal = adj_f.y - mu * adj_w_dot;
  adj_friction += -c.normal * adj_w_dot;
  // d(v_t / q)/dv_t = (I - w w^T) / q, scaled by -mu N
  const T scale = -mu * c.normal * inv_q;
  adj_v.x += scale * (adj_f.x - wx * adj_w_dot);
  adj_v.z += scale * (adj_f.z - wz * adj_w_dot);
  // Damping: -c_g v_y gate
  adj_v.y += -g.damping * c.gate * adj_f.y;
  const T adj_gate = -g.damping * v.y * adj_f.y;
  // N = k_g depth; d depth/dy = -gate; d gate/dy = -gate (1 - gate) / eps
  adj_ground_stiffness += adj_normal * c.depth;
  adj_x.y += -adj_normal * g.stiffness * c.gate - adj_gate * c.gate * (T(1) - c.gate) / g.contact_smoothing;
}

}  // namespace nudge
