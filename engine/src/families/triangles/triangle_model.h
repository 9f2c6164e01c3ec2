// The triangle family's part of the model (cloth membranes, families/triangles/triangle_membrane.h),
// and its gradient accumulators. Its forces reach the particles through corner slots
// (kernels/corner_model.h).
#pragma once

#include "nudge/config.h"
#include "nudge/vec3.h"

namespace nudge {

template <class T>
struct TriangleModel {
  int count = 0;                // triangles, Tri
  const int* corner = nullptr;  // 3 x Tri: corner c of triangle t at corner[c * Tri + t]
  const T* pose = nullptr;      // 4 x Tri: the inverse rest pose (D00, D01, D10, D11)
  const T* area = nullptr;      // Tri: the rest area
  const T* ke = nullptr;        // Tri
  const T* ka = nullptr;        // Tri
  const T* kd = nullptr;        // Tri
  const T* drag = nullptr;      // Tri
  const T* lift = nullptr;      // Tri
  T wind[3] = {0, 0, 0};
};

template <class T>
struct TriangleGrad {
  T* ke = nullptr;    // Tri
  T* ka = nullptr;    // Tri
  T* kd = nullptr;    // Tri
  T* drag = nullptr;  // Tri
  T* lift = nullptr;  // Tri
  T* wind = nullptr;  // 3 x Tri: each triangle's share, summed in order at the end
};

}  // namespace nudge
