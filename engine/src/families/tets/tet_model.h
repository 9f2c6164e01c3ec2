// The tet family's part of the model (stable Neo-Hookean solids,
// families/tets/tet_neohookean.h), and its gradient accumulators. Its forces reach the
// particles through corner slots (kernels/corner_model.h).
#pragma once

#include "nudge/config.h"

namespace nudge {

template <class T>
struct TetModel {
  int count = 0;                 // tetrahedra, Tet
  int channels = 0;              // actuation channels C (the springs' controls)
  const int* corner = nullptr;   // 4 x Tet: corner c of tet e at corner[c * Tet + e]
  const T* pose = nullptr;       // 9 x Tet: the rest inverse B = Dm^-1, row-major, entry k at pose[k * Tet + e]
  const T* volume = nullptr;     // Tet: the rest volume
  const T* k_mu = nullptr;       // Tet
  const T* k_lambda = nullptr;   // Tet
  const T* k_damp = nullptr;     // Tet
  const int* channel = nullptr;  // Tet, -1 for a passive tet
  const T* actuation = nullptr;  // Tet, 0 for a passive tet
  const T* controls = nullptr;   // steps x channels, at least one entry (padded with 0)
};

template <class T>
struct TetGrad {
  T* k_mu = nullptr;         // Tet
  T* k_lambda = nullptr;     // Tet
  T* k_damp = nullptr;       // Tet
  T* adj_control = nullptr;  // Tet: this step's dL/dcontrol through each tet, summed per channel after
  T* controls = nullptr;     // steps x channels: the tets' share of dL/dcontrols
};

}  // namespace nudge
