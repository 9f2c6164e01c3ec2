// The triangle family's part of the model (cloth membranes, kernels/triangle_membrane.h),
// and its gradient accumulators.
//
// A step computes every triangle's forces on its three corners into `corner_force`
// (one thread per triangle), and the particle pass gathers them through the incidence
// list. The adjoint mirrors it: per triangle, dL/dF of its corners into the corner
// adjoints, then per particle the gather of dL/dx and dL/dv.
#pragma once

#include "nudge/config.h"
#include "nudge/vec3.h"

namespace nudge {

template <class T>
struct TriangleModel {
  int count = 0;                 // triangles, Tri
  const int* corner = nullptr;   // 3 x Tri: corner c of triangle t at corner[c * Tri + t]
  const T* pose = nullptr;       // 4 x Tri: the inverse rest pose (D00, D01, D10, D11)
  const T* area = nullptr;       // Tri: the rest area
  const T* ke = nullptr;         // Tri
  const T* ka = nullptr;         // Tri
  const T* kd = nullptr;         // Tri
  const T* drag = nullptr;       // Tri
  const T* lift = nullptr;       // Tri
  T wind[3] = {0, 0, 0};

  // Incidence, CSR by particle: the corners (slot c * Tri + t) at particle i are
  // inc_slot[inc_start[i] .. inc_start[i+1]), in triangle order.
  const int* inc_start = nullptr;  // n + 1
  const int* inc_slot = nullptr;   // 3 Tri

  // This step's forces on each corner, 3 x (3 Tri) by slot; written by the triangles'
  // force pass, read by the particle pass.
  const T* corner_force = nullptr;
};

// The sum of the values of the corners at particle i (3 x (3 Tri) by slot), added to sum.
template <class T>
NUDGE_HD Vec3<T> add_triangle_corners(const TriangleModel<T>& tm, int i, const T* values, Vec3<T> sum) {
  const int slots = 3 * tm.count;
  for (int j = tm.inc_start[i]; j < tm.inc_start[i + 1]; ++j) sum += load3(values, tm.inc_slot[j], slots);
  return sum;
}

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
