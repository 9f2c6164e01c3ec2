// How one state slot is laid out in a rollout's memory: the arrays the families declare
// (their state_fields(), sim/family_list.h), back to back in the list's order,
// so that storing, checkpointing and copying a state is one block of memory whatever
// families a scene has. The adjoint state uses the same layout. A family with state of
// its own declares its fields; the layout, the NaN search and the recorded adjoint's norm
// follow from them.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "kernels/state.h"

namespace nudge {

// One array of a slot: components x count values, as a structure of arrays.
struct StateField {
  StateArray array;
  int components = 3;    // 3 for a position or velocity, 4 for a quaternion
  int count = 0;         // elements: particles, bodies
  std::string element;   // "particle", "body": what an index counts, in messages
  std::string quantity;  // "position", "body orientation", ...: what it holds, in messages

  size_t values() const { return size_t(components) * size_t(count); }
};

class StateLayout {
public:
  explicit StateLayout(std::vector<StateField> fields) : fields_(std::move(fields)) {
    for (const StateField& f : fields_) {
      offsets_.push_back(size_);
      size_ += f.values();
    }
  }

  size_t size() const { return size_; }  // values in one slot
  const std::vector<StateField>& fields() const { return fields_; }
  size_t offset(size_t field) const { return offsets_[field]; }

  // The slot at `slot` as kernels see it; arrays no family declared stay null.
  template <class T>
  StateView<T> view(T* slot) const {
    StateView<T> v;
    for (size_t k = 0; k < fields_.size(); ++k) state_array(v, fields_[k].array) = slot + offsets_[k];
    return v;
  }

private:
  std::vector<StateField> fields_;
  std::vector<size_t> offsets_;
  size_t size_ = 0;
};

}  // namespace nudge
