// A contact's damping from a coefficient of restitution. A linear spring-dashpot contact
// (damping both ways) of stiffness k on a mass m with damping c = 2 zeta sqrt(k m)
// rebounds with e = exp(-pi zeta / sqrt(1 - zeta^2)), so for a chosen e:
//   zeta = -ln e / sqrt(pi^2 + ln^2 e),  c = 2 zeta sqrt(k m)
// m is the contact's mass: a particle's, a body's (as if the contact were at its centre:
// exact for a push through the centre of mass), or the reduced mass m_a m_b / (m_a + m_b)
// of two. With the softplus switch (smoothing > 0) the rebound is close to, not exactly, e.
#pragma once

#include <cmath>

#include "families/colliders/collider_model.h"

namespace nudge {

template <class T>
NUDGE_HD T restitution_zeta(T e) {
  const T l = std::log(e);
  return -l / std::sqrt(T(9.8696044010893586) + l * l);  // pi^2
}

// The model one contact of mass m sees: the scene's, with the damping that gives its
// restitution when the scene asks for one.
template <class T>
NUDGE_HD ColliderModel<T> contact_model_for(const ColliderModel<T>& cm, T mass) {
  if (!cm.use_restitution) return cm;
  ColliderModel<T> local = cm;
  local.damping = T(2) * restitution_zeta(cm.restitution) * std::sqrt(cm.stiffness * mass);
  return local;
}

// Given dL/dc of that contact's damping: its share of the damping parameter, or with a
// restitution, of the restitution (in the same accumulator: the damping parameter is then
// unused), the stiffness and the mass.
template <class T>
NUDGE_HD void adj_contact_model_for(const ColliderModel<T>& cm, T mass, T adj_c, T& adj_damping_or_restitution,
                                    T& adj_stiffness, T* adj_mass) {
  if (!cm.use_restitution) {
    adj_damping_or_restitution += adj_c;
    return;
  }
  const T e = cm.restitution, l = std::log(e), s = T(9.8696044010893586) + l * l;
  const T root = std::sqrt(cm.stiffness * mass);
  const T zeta = -l / std::sqrt(s);
  // dzeta/de = -pi^2 / (e (pi^2 + ln^2 e)^(3/2));  c = 2 zeta sqrt(k m)
  adj_damping_or_restitution += adj_c * T(2) * root * (-T(9.8696044010893586) / (e * s * std::sqrt(s)));
  const T c = T(2) * zeta * root;
  adj_stiffness += adj_c * c / (T(2) * cm.stiffness);
  if (adj_mass) *adj_mass += adj_c * c / (T(2) * mass);
}

// The reduced mass of two, and its derivatives.
template <class T>
NUDGE_HD T reduced_mass(T a, T b) {
  return a * b / (a + b);
}

}  // namespace nudge
