// The slots through which the families that act between two bodies (joints, body-body
// contact) reach the bodies (kernels/body_coupling.h): two per interaction, and each
// body's incidence list of its slots in interaction order, fixed when the rollout is
// built, so sums never depend on threads. Families are given consecutive ranges of
// interactions; `first` is where a family's range starts.
#pragma once

#include <utility>
#include <vector>

#include "kernels/body_coupling.h"
#include "sim/backend.h"
#include "sim/by_body_lists.h"

namespace nudge {

template <class T, Backend Exec>
class BodyCoupling {
public:
  // pairs: the two bodies of every interaction, in order; -1 is the world.
  BodyCoupling(int bodies, const std::vector<std::pair<int, int>>& pairs, const Exec& exec)
      : bodies_(bodies), slots_(2 * static_cast<int>(pairs.size())) {
    std::vector<std::pair<int, int>> body_slot;  // each side's slot, for its body
    for (size_t i = 0; i < pairs.size(); ++i) {
      body_slot.emplace_back(pairs[i].first, 2 * static_cast<int>(i));
      body_slot.emplace_back(pairs[i].second, 2 * static_cast<int>(i) + 1);
    }
    const ByBodyLists lists = group_by_body(bodies, body_slot);
    exec.upload(start_, lists.start);
    exec.upload(list_, lists.items);
    exec.resize(wrench_, 6 * size_t(slots_ > 0 ? slots_ : 1));
    exec.resize(adj_state_, 13 * size_t(slots_ > 0 ? slots_ : 1));
    exec.resize(adj_wrench_, 6 * size_t(bodies_ > 0 ? bodies_ : 1));
  }

  int slots() const { return slots_; }

  // The slots' buffers are scratch that every step overwrites before reading.
  BodyCouplingView<T> view(const Exec& exec) const {
    BodyCouplingView<T> v;
    v.slots = slots_;
    v.body_start = exec.data(start_);
    v.body_slots = exec.data(list_);
    v.wrench = exec.data(wrench_);
    v.adj_state = exec.data(adj_state_);
    v.adj_wrench = exec.data(adj_wrench_);
    return v;
  }

private:
  int bodies_, slots_;
  typename Exec::template Array<int> start_, list_;
  mutable typename Exec::template Array<T> wrench_, adj_state_, adj_wrench_;
};

}  // namespace nudge
