// The particle family's part of the model, and its gradient accumulators.
#pragma once

namespace nudge {

template <class T>
struct ParticleModel {
  int n = 0;                     // particles
  const T* mass = nullptr;       // n
  const T* free = nullptr;       // n: 0 for a pinned particle, 1 otherwise
  const T* ext_force = nullptr;  // 3 x n
  T gravity[3] = {0, 0, 0};
  T drag = 0;  // force -drag * v on every particle
};

// One slot per particle, so that no two threads ever add to the same address; the
// global drag is summed over particles once, at the end. Gravity has no slot: its force
// m g enters exactly where the external force does, so dL/dg is sum_i m_i dL/df_ext,i,
// formed from ext_force's at the end.
template <class T>
struct ParticleGrad {
  T* mass = nullptr;       // n
  T* ext_force = nullptr;  // 3 x n
  T* drag = nullptr;       // n, per-particle share
};

}  // namespace nudge
