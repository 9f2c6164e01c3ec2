// Corner slots: how element families whose elements push on several particles at once
// (triangles, bending edges, tetrahedra) hand their forces to the particles without two
// threads adding to one address.
//
// Every element's corner has a slot of its own: a family with E elements of K corners
// owns the slots [first, first + K E), corner c of element e at first + c E. A step's
// element pass writes each corner's force into its slot; the particle pass gathers a
// particle's slots through the incidence list (CSR by particle, in slot order, so the
// sum's order is fixed). The adjoint mirrors it: each element writes its corners' dL/dx
// and dL/dv into their slots, and one pass over particles gathers them. A new element
// family only asks for slots (sim/corner_slots.h); the particle kernels do not change.
#pragma once

#include "nudge/config.h"
#include "nudge/vec3.h"

namespace nudge {

template <class T>
struct CornerModel {
  int slots = 0;                   // every family's corners together
  const int* inc_start = nullptr;  // n + 1: particle i's slots are inc_slot[inc_start[i] .. inc_start[i+1])
  const int* inc_slot = nullptr;   // slots
  const T* force = nullptr;        // 3 x slots: this step's force on each corner
};

// Where an element family writes per-corner values (forces, or adjoints): 3 x slots,
// its own slots starting at `first`.
template <class T>
struct CornerOut {
  T* values = nullptr;
  int slots = 0;  // the stride between components
  int first = 0;  // the family's first slot
  NUDGE_HD void store(int corner, int count, int element, Vec3<T> value) const {
    store3(values, first + corner * count + element, slots, value);
  }
};

// The sum of the values (3 x slots) of particle i's corners, added to sum.
template <class T>
NUDGE_HD Vec3<T> add_corners(const CornerModel<T>& cm, int i, const T* values, Vec3<T> sum) {
  for (int j = cm.inc_start[i]; j < cm.inc_start[i + 1]; ++j) sum += load3(values, cm.inc_slot[j], cm.slots);
  return sum;
}

}  // namespace nudge
