// The model as kernels see it: raw pointers into flat arrays (host or device memory)
// and scalars. Everything here is constant during a rollout.
//
// Arrays of 3-vectors, here and in the states, are structures of arrays: "3 x n" means
// all x components, then all y, then all z (see load3 in nudge/vec3.h).
#pragma once

#include "nudge/config.h"

namespace nudge {

template <class T>
struct ModelView {
  int n = 0;         // particles
  int s = 0;         // springs
  int channels = 0;  // actuation channels C
  T dt = 0;

  // Particles (n)
  const T* mass = nullptr;       // n
  const T* free = nullptr;       // n: 0 for a pinned particle, 1 otherwise
  const T* ext_force = nullptr;  // 3 x n

  // Springs (s)
  const int* a = nullptr;        // s
  const int* b = nullptr;        // s
  const int* channel = nullptr;  // s, -1 for passive
  const T* stiffness = nullptr;  // s
  const T* damping = nullptr;    // s
  const T* rest = nullptr;       // s
  const T* actuation = nullptr;  // s, 0 for a passive spring

  // Incidence, CSR by particle: springs touching particle i are
  // inc_spring[inc_start[i] .. inc_start[i+1]), with inc_sign +1 at end a, -1 at end b.
  const int* inc_start = nullptr;  // n + 1
  const int* inc_spring = nullptr; // 2s
  const T* inc_sign = nullptr;     // 2s

  // Globals
  T gravity[3] = {0, 0, 0};
  T drag = 0;
  bool ground = false;
  T ground_height = 0, ground_stiffness = 0, ground_damping = 0, friction = 0;
  T contact_smoothing = 1, friction_smoothing = 1;

  const T* controls = nullptr;   // steps x channels, at least one entry (padded with 0)
};

}  // namespace nudge
