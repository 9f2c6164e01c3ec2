// How one state slot is laid out in a rollout's memory: every family's state arrays
// back to back, so that storing, checkpointing and copying a state is one block of
// memory whatever families a scene has. The adjoint state uses the same layout.
#pragma once

#include <cstddef>

#include "kernels/state.h"

namespace nudge {

struct StateLayout {
  int particles = 0;

  size_t particle_values() const { return 3 * size_t(particles); }  // one 3 x n array
  size_t size() const { return 2 * particle_values(); }               // x, then v

  template <class T>
  StateView<T> view(T* slot) const {
    return {slot, slot + particle_values()};
  }
};

}  // namespace nudge
