// How one state slot is laid out in a rollout's memory: every family's state arrays
// back to back, so that storing, checkpointing and copying a state is one block of
// memory whatever families a scene has. The adjoint state uses the same layout.
#pragma once

#include <cstddef>

#include "kernels/state.h"

namespace nudge {

struct StateLayout {
  int particles = 0;
  int bodies = 0;
  bool pre_ground_velocity = false;  // the time-of-impact ground: v_pre, 3 x n

  size_t particle_values() const { return 3 * size_t(particles); }  // one 3 x n array
  size_t body_values() const { return 13 * size_t(bodies); }        // x, q, v, w of every body
  size_t size() const { return (pre_ground_velocity ? 3 : 2) * particle_values() + body_values(); }

  // x, v, then body_x, body_q, body_v, body_w, then v_pre.
  template <class T>
  StateView<T> view(T* slot) const {
    T* b = slot + 2 * particle_values();
    const size_t nb = size_t(bodies);
    T* pre = pre_ground_velocity ? b + body_values() : nullptr;
    return {slot, slot + particle_values(), b, b + 3 * nb, b + 7 * nb, b + 10 * nb, pre};
  }
};

}  // namespace nudge
