// The actuators' part of the model (nudge/actuators.h): particle forces, and body forces
// and torques, each on a control channel; and their gradient tables.
#pragma once

namespace nudge {

// A body actuator's kind, as bits.
inline constexpr int kActuatorTorque = 1;     // a torque, not a force through a point
inline constexpr int kActuatorBodyFrame = 2;  // its direction (and point) turn with the body

template <class T>
struct ActuatorModel {
  int channels = 0;             // C
  const T* controls = nullptr;  // steps x C: the table every actuator reads (ControlChannels)
  // Particle forces: P of them.
  int particle_count = 0;
  const int* particle = nullptr;          // P
  const int* particle_channel = nullptr;  // P
  const T* particle_direction = nullptr;  // 3 x P, N per unit of control
  // Body forces and torques: B of them.
  int body_count = 0;
  const int* body = nullptr;          // B
  const int* body_channel = nullptr;  // B
  const int* body_kind = nullptr;     // B, kActuator* bits
  const T* body_direction = nullptr;  // 3 x B
  const T* body_point = nullptr;      // 3 x B, in the body's frame from its centre of mass
};

template <class T>
struct ActuatorGrad {
  T* controls = nullptr;  // steps x C: the particle forces' share of dL/dcontrols
};

}  // namespace nudge
