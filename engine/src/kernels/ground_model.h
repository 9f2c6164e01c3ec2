// The ground contact family's part of the model, and its gradient accumulators.
#pragma once

namespace nudge {

template <class T>
struct GroundModel {
  bool enabled = false;
  T height = 0;     // plane y = height, normal +y
  T stiffness = 0;  // N/m of penetration
  T damping = 0;    // N s/m on the normal velocity while in contact
  T friction = 0;   // Coulomb coefficient
  T contact_smoothing = 1, friction_smoothing = 1;
};

// Per-particle shares of the ground's global parameters, summed at the end in a fixed
// order (no two threads add to one address).
template <class T>
struct GroundGrad {
  T* stiffness = nullptr;  // n
  T* friction = nullptr;   // n
};

}  // namespace nudge
