// The ground contact family's part of the model, and its gradient accumulators.
#pragma once

namespace nudge {

template <class T>
struct GroundModel {
  bool enabled = false;
  // GroundContact::Projection: no force; a particle below the plane whose new velocity
  // points down gets velocity 0 for the step (ground_projection.h). Else a penalty force.
  bool projection = false;
  // GroundContact::TimeOfImpact: no force; a particle whose step would take it below the
  // plane while moving down stops where its path meets the plane (ground_projection.h).
  bool time_of_impact = false;
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
