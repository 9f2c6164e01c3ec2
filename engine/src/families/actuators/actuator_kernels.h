// The launchable units of the actuators (families/actuators/actuator_model.h): one actuator per
// index. A particle force writes its corner slot (kernels/corner_model.h); a body
// actuator writes its coupling slots (kernels/body_coupling.h), its second side the
// world's. Backwards each writes its dL/du into a per-actuator value that
// ChannelSumKernel then sums per channel, and its dL/dstate into its slots.
#pragma once

#include "families/actuators/actuator_wrench.h"
#include "kernels/body_pair_kernels.h"
#include "kernels/corner_model.h"
#include "kernels/model.h"

namespace nudge {

template <class T>
NUDGE_HD T actuator_control(const ActuatorModel<T>& am, int t, int channel) {
  return am.controls[size_t(t) * am.channels + channel];
}

template <class T>
NUDGE_HD ActuatorLaw<T> body_actuator_law(const ActuatorModel<T>& am, int a) {
  ActuatorLaw<T> law;
  law.torque = (am.body_kind[a] & kActuatorTorque) != 0;
  law.body_frame = (am.body_kind[a] & kActuatorBodyFrame) != 0;
  law.direction = load3(am.body_direction, a, am.body_count);
  law.point = load3(am.body_point, a, am.body_count);
  return law;
}

template <class T>
struct ParticleForceKernel {  // over particle forces
  ModelView<T> m;
  int t;
  CornerOut<T> force;
  NUDGE_HD void operator()(int a) const {
    const ActuatorModel<T>& am = m.actuators;
    const T u = actuator_control(am, t, am.particle_channel[a]);
    force.store(0, am.particle_count, a, u * load3(am.particle_direction, a, am.particle_count));
  }
};

// dL/du = direction . dL/dF of its particle; the force does not depend on the state.
template <class T>
struct ParticleForceAdjointKernel {  // over particle forces
  ModelView<T> m;
  const T* adj_f;  // 3 x n
  CornerOut<T> adj_x, adj_v;
  T* adj_u;  // P
  NUDGE_HD void operator()(int a) const {
    const ActuatorModel<T>& am = m.actuators;
    const int count = am.particle_count;
    adj_u[a] = dot(load3(am.particle_direction, a, count), load3(adj_f, am.particle[a], m.particles.n));
    adj_x.store(0, count, a, Vec3<T>{0, 0, 0});
    adj_v.store(0, count, a, Vec3<T>{0, 0, 0});
  }
};

template <class T>
struct BodyActuatorKernel {  // over body actuators
  ModelView<T> m;
  StateView<const T> state;
  int t, first;
  NUDGE_HD void operator()(int a) const {
    const ActuatorModel<T>& am = m.actuators;
    const BodyState<T> s = load_body(state, am.body[a], m.bodies.count);
    const Wrench<T> w = actuator_wrench(body_actuator_law(am, a), s.q, actuator_control(am, t, am.body_channel[a]));
    store_pair_wrench(m.coupling, first + a, PairWrench<T>{w, Wrench<T>{{0, 0, 0}, {0, 0, 0}}});
  }
};

template <class T>
struct BodyActuatorAdjointKernel {  // over body actuators
  ModelView<T> m;
  StateView<const T> state;
  int t, first;
  T* adj_u;  // B
  NUDGE_HD void operator()(int a) const {
    const ActuatorModel<T>& am = m.actuators;
    const int nb = m.bodies.count;
    const BodyState<T> s = load_body(state, am.body[a], nb);
    BodyState<T> adj_s = zero_body_state<T>();
    T adj = 0;
    adj_actuator_wrench(body_actuator_law(am, a), s.q, actuator_control(am, t, am.body_channel[a]),
                        load_wrench(m.coupling.adj_wrench, am.body[a], nb), adj_s.q, adj);
    store_pair_adjoint(m.coupling, first + a, adj_s, zero_body_state<T>());
    adj_u[a] = adj;
  }
};

}  // namespace nudge
