// The bending family's part of the model (dihedral bending between two triangles,
// families/bending/dihedral_bending.h), and its gradient accumulators. Its forces reach the
// particles through corner slots (kernels/corner_model.h).
#pragma once

namespace nudge {

template <class T>
struct BendingModel {
  int count = 0;                // bending edges, E
  const int* corner = nullptr;  // 4 x E: particle c (o0, o1, v0, v1) of edge e at corner[c * E + e]
  const T* rest = nullptr;      // E: the rest angle, rad
  const T* ke = nullptr;        // E
  const T* kd = nullptr;        // E
};

template <class T>
struct BendingGrad {
  T* ke = nullptr;  // E
  T* kd = nullptr;  // E
};

}  // namespace nudge
