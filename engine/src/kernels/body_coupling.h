// How families that act between two rigid bodies (joints, body-body contact) hand
// their wrenches to the bodies and take back the bodies' adjoints, without two threads
// ever adding to one address. Each such interaction owns two slots, one per side
// (2i: its first body, 2i + 1: its second; a side that is the world has a slot that no
// body reads). Forward: the interaction writes each side's wrench into its slot, and a
// body sums the slots of its incidence list, in a fixed order. Backward: a body's
// adjoint leaves dL/dwrench in adj_wrench; the interaction reads both of its bodies'
// and writes each side's dL/dstate into its slot; a body then adds up its slots.
#pragma once

#include "families/bodies/body_state_io.h"
#include "families/bodies/body_step.h"

namespace nudge {

template <class T>
struct BodyCouplingView {
  int slots = 0;                    // S = 2 x interactions
  const int* body_start = nullptr;  // B + 1: body b's slots are body_slots[body_start[b] .. body_start[b + 1])
  const int* body_slots = nullptr;
  T* wrench = nullptr;      // 6 x S: force, then torque, per slot
  T* adj_state = nullptr;   // 13 x S: dL/d(x, q, v, w) of the slot's body, from the interaction
  T* adj_wrench = nullptr;  // 6 x B: dL/d(force, torque) of each body at this step
};

template <class T>
NUDGE_HD void store_wrench(T* a, int i, int count, const Wrench<T>& w) {
  store3(a, i, count, w.force);
  store3(a + 3 * count, i, count, w.torque);
}

template <class T>
NUDGE_HD Wrench<T> load_wrench(const T* a, int i, int count) {
  return {load3(a, i, count), load3(a + 3 * count, i, count)};
}

// The 13 x S dL/dstate slots seen as the body part of a state, so that load_body and
// store_body read and write them (x, q, v, w back to back, as in a state slot).
template <class T>
NUDGE_HD StateView<T> slot_view(T* a, int count) {
  return {nullptr, nullptr, a, a + 3 * count, a + 7 * count, a + 10 * count};
}

// The sum of body b's slot wrenches, in its list's order.
template <class T>
NUDGE_HD Wrench<T> gathered_wrench(const BodyCouplingView<T>& c, int b) {
  Wrench<T> sum{{0, 0, 0}, {0, 0, 0}};
  for (int k = c.body_start[b]; k < c.body_start[b + 1]; ++k) sum += load_wrench(c.wrench, c.body_slots[k], c.slots);
  return sum;
}

}  // namespace nudge
