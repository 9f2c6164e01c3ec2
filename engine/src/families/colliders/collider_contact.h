// Penalty contact of a particle of radius r with a static collider, and its adjoint.
//   phi, n   = signed distance and outward normal at x (collider_sdf.h)
//   pen      = r - phi                            (> 0: penetrating)
//   depth    = s softplus(pen / s), gate = sigmoid(pen / s)     (smoothing s > 0)
//            = max(pen, 0),         gate = [pen > 0]            (s = 0: Warp's switch)
//   v_n      = n . v;   damped v_n' = min(v_n, 0) (approach only) or v_n
//   N        = k depth - c gate v_n'
//   F_t      = -mu max(N, 0) v_t / sqrt(|v_t|^2 + eta^2),  v_t = v - n v_n
//   F        = N n + F_t
// With smoothing the force and its gradient exist before contact is made (a particle
// within a few s of the surface feels it): that is what lets a gradient see a contact
// that did not happen. With s = 0 the force switches on at phi = r exactly, as in Warp.
#pragma once

#include <cmath>

#include "families/colliders/collider_sdf.h"
#include "families/colliders/contact_restitution.h"

namespace nudge {

template <class T>
struct ContactSwitch {
  T depth, gate, d_depth, d_gate;  // and their derivatives with respect to pen
};

template <class T>
NUDGE_HD ContactSwitch<T> contact_switch(T pen, T s) {
  if (s > T(0)) {
    const T z = pen / s;
    const T e = std::exp(-std::fabs(z));
    const T softplus = (z > T(0) ? z : T(0)) + std::log1p(e);
    const T gate = z >= T(0) ? T(1) / (T(1) + e) : e / (T(1) + e);
    return {s * softplus, gate, gate, gate * (T(1) - gate) / s};
  }
  const bool on = pen > T(0);
  return {on ? pen : T(0), on ? T(1) : T(0), on ? T(1) : T(0), T(0)};
}

// Beyond this many smoothing widths past touching, the softplus switch's force is below
// 4e-18 of its stiffness times the width: bodies, links and particles that far apart are
// skipped. A shorter reach was not exact enough: at 20 widths (2e-9) the cut moved with
// a particle's radius and central differences of a radius gradient of 3e-7 saw it.
inline constexpr double kBodyContactReachWidths = 40.0;

// The contact law on a signed distance phi and an outward normal n: the force on a
// point of radius r moving at v relative to what it touches. Shared by particles and
// bodies against colliders and by bodies against bodies.
template <class T>
NUDGE_HD Vec3<T> contact_law_force(const ColliderModel<T>& cm, T phi, Vec3<T> n, Vec3<T> v, T radius) {
  const ContactSwitch<T> sw = contact_switch(radius - phi, cm.smoothing);
  if (sw.depth == T(0) && sw.gate == T(0)) return {0, 0, 0};
  const T vn = dot(n, v);
  const T vn_damped = cm.damp_approach_only ? (vn < T(0) ? vn : T(0)) : vn;
  const T normal = cm.stiffness * sw.depth - cm.damping * sw.gate * vn_damped;
  const Vec3<T> vt = v - n * vn;
  const T q = std::sqrt(dot(vt, vt) + cm.friction_smoothing * cm.friction_smoothing);
  const T slip = -cm.friction * (normal > T(0) ? normal : T(0)) / q;
  return normal * n + slip * vt;
}

// Accumulates the adjoint of contact_law_force given adj_f = dL/dF into adj_phi, adj_n,
// adj_v, the radius and the contact parameters' shares.
template <class T>
NUDGE_HD void adj_contact_law(const ColliderModel<T>& cm, T phi, Vec3<T> n, Vec3<T> v, T radius, Vec3<T> adj_f,
                              T& adj_phi, Vec3<T>& adj_n, Vec3<T>& adj_v, T& adj_stiffness, T& adj_damping,
                              T& adj_friction, T& adj_radius) {
  const ContactSwitch<T> sw = contact_switch(radius - phi, cm.smoothing);
  if (sw.depth == T(0) && sw.gate == T(0)) return;
  const T vn = dot(n, v);
  const bool damped = !cm.damp_approach_only || vn < T(0);
  const T vn_damped = damped ? vn : T(0);
  const T normal = cm.stiffness * sw.depth - cm.damping * sw.gate * vn_damped;
  const Vec3<T> vt = v - n * vn;
  const T eta = cm.friction_smoothing;
  const T q = std::sqrt(dot(vt, vt) + eta * eta);
  const Vec3<T> w = vt * (T(1) / q);
  const bool pushing = normal > T(0);
  const T normal_f = pushing ? normal : T(0);

  // F = N n - mu N_f w
  T adj_normal = dot(adj_f, n);
  adj_n += normal * adj_f;
  const T adj_w_dot = dot(adj_f, w);
  adj_friction += -normal_f * adj_w_dot;
  if (pushing) adj_normal += -cm.friction * adj_w_dot;
  // w = v_t / sqrt(|v_t|^2 + eta^2):  dL/dv_t = (dL/dw - w (w . dL/dw)) / q
  const Vec3<T> adj_w = (-cm.friction * normal_f) * adj_f;
  const Vec3<T> adj_vt = (adj_w - w * dot(w, adj_w)) * (T(1) / q);
  // v_t = v - n (n . v)
  const T n_adj_vt = dot(n, adj_vt);
  adj_v += adj_vt - n * n_adj_vt;
  adj_n += -vn * adj_vt - n_adj_vt * v;
  // N = k depth - c gate v_n'
  adj_stiffness += adj_normal * sw.depth;
  adj_damping += -adj_normal * sw.gate * vn_damped;
  const T adj_vn = damped ? -adj_normal * cm.damping * sw.gate : T(0);
  adj_v += adj_vn * n;
  adj_n += adj_vn * v;
  const T adj_pen = adj_normal * (cm.stiffness * sw.d_depth - cm.damping * vn_damped * sw.d_gate);
  // pen = r - phi
  adj_radius += adj_pen;
  adj_phi += -adj_pen;
}

// mass: the particle's (for a restitution).
template <class T>
NUDGE_HD Vec3<T> collider_contact_force(const ColliderModel<T>& cm, const Collider<T>& c, Vec3<T> x, Vec3<T> v,
                                        T radius, T mass = T(1)) {
  const SdfSample<T> sd = collider_sdf(c, x);
  return contact_law_force(contact_model_for(cm, mass), sd.distance, sd.normal, v, radius);
}

// Accumulates the adjoint of collider_contact_force given adj_f = dL/dF into adj_x,
// adj_v, the particle's shares of the contact parameters' gradients and (with a
// restitution) its mass's.
template <class T>
NUDGE_HD void collider_contact_adjoint(const ColliderModel<T>& cm, const Collider<T>& c, Vec3<T> x, Vec3<T> v, T radius,
                                       Vec3<T> adj_f, Vec3<T>& adj_x, Vec3<T>& adj_v, T& adj_stiffness, T& adj_damping,
                                       T& adj_friction, T& adj_radius, T mass = T(1), T* adj_mass = nullptr) {
  const SdfSample<T> sd = collider_sdf(c, x);
  if (radius - sd.distance <= T(0) && cm.smoothing <= T(0)) return;  // no contact, no gradient
  T adj_phi = 0, adj_c = 0;
  Vec3<T> adj_n{0, 0, 0};
  adj_contact_law(contact_model_for(cm, mass), sd.distance, sd.normal, v, radius, adj_f, adj_phi, adj_n, adj_v,
                  adj_stiffness, adj_c, adj_friction, adj_radius);
  adj_contact_model_for(cm, mass, adj_c, adj_damping, adj_stiffness, adj_mass);
  adj_x += collider_sdf_adjoint(c, x, adj_phi, adj_n);
}

// The sum over every collider, for particle i of mass `mass`.
template <class T>
NUDGE_HD Vec3<T> colliders_force(const ColliderModel<T>& cm, int i, Vec3<T> x, Vec3<T> v, T mass) {
  Vec3<T> f{0, 0, 0};
  for (int k = 0; k < cm.count; ++k) f += collider_contact_force(cm, cm.shapes[k], x, v, cm.radius[i], mass);
  return f;
}

template <class T>
NUDGE_HD void colliders_adjoint(const ColliderModel<T>& cm, const ColliderGrad<T>& grad, int i, Vec3<T> x, Vec3<T> v,
                                T mass, Vec3<T> adj_f, Vec3<T>& adj_x, Vec3<T>& adj_v, T& adj_mass) {
  for (int k = 0; k < cm.count; ++k)
    collider_contact_adjoint(cm, cm.shapes[k], x, v, cm.radius[i], adj_f, adj_x, adj_v, grad.stiffness[i],
                             grad.damping[i], grad.friction[i], grad.radius[i], mass, &adj_mass);
}

}  // namespace nudge
