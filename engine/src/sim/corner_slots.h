// The corner slots of every element family (kernels/corner_model.h): the forces the
// element passes write and the particle pass gathers, the corners' adjoints, and the
// incidence list by particle, built once from the particle at each slot.
#pragma once

#include <vector>

#include "nudge/assert.h"
#include "kernels/corner_model.h"
#include "kernels/model.h"
#include "sim/backend.h"

namespace nudge {

// The adjoint's gather: adds each particle's corners' dL/dx and dL/dv to the running
// adjoint, which completes the element families' share of dL/dstate_t.
template <class T>
struct CornerGatherKernel {  // over particles
  CornerModel<T> corners;
  int n;
  const T *adj_x, *adj_v;
  StateView<T> adj;
  NUDGE_HD void operator()(int i) const {
    store3(adj.x, i, n, add_corners(corners, i, adj_x, load3(adj.x, i, n)));
    store3(adj.v, i, n, add_corners(corners, i, adj_v, load3(adj.v, i, n)));
  }
};

template <class T, Backend Exec>
class CornerSlots {
public:
  // particle_at[slot]: the particle each slot belongs to.
  CornerSlots(int particles, const std::vector<int>& particle_at, const Exec& exec)
      : n_(particles), slots_(static_cast<int>(particle_at.size())) {
    std::vector<int> start(n_ + 1, 0), slot(particle_at.size());
    for (int i : particle_at) ++start[i + 1];
    for (int i = 0; i < n_; ++i) start[i + 1] += start[i];
    std::vector<int> fill(start.begin(), start.end() - 1);
    for (int s = 0; s < slots_; ++s) slot[fill[particle_at[s]]++] = s;  // slot order within a particle
    exec.upload(inc_start_, start);
    exec.upload(inc_slot_, slot);
    for (auto* a : {&force_, &adj_x_, &adj_v_}) exec.resize(*a, 3 * size_t(slots_));
  }

  int count() const { return slots_; }

  CornerModel<T> model(const Exec& exec) const {
    return CornerModel<T>{slots_, exec.data(inc_start_), exec.data(inc_slot_), exec.data(force_)};
  }

  // Where a family whose slots start at `first` writes forces, and its adjoints.
  CornerOut<T> force_out(const Exec& exec, int first) { return {exec.data(force_), slots_, checked(first)}; }
  CornerOut<T> adj_x_out(const Exec& exec, int first) { return {exec.data(adj_x_), slots_, checked(first)}; }
  CornerOut<T> adj_v_out(const Exec& exec, int first) { return {exec.data(adj_v_), slots_, checked(first)}; }

  void gather_adjoint(const Exec& exec, const CornerModel<T>& corners, StateView<T> adj) {
    if (slots_ == 0) return;
    exec.launch(n_, CornerGatherKernel<T>{corners, n_, exec.data(adj_x_), exec.data(adj_v_), adj});
  }

private:
  using Array = typename Exec::template Array<T>;
  using IntArray = typename Exec::template Array<int>;
  int checked(int first) const {
    NUDGE_ASSERT(first >= 0 && first <= slots_);  // a family's slots lie within the pool
    return first;
  }

  int n_, slots_;
  IntArray inc_start_, inc_slot_;
  Array force_, adj_x_, adj_v_;
};

}  // namespace nudge
