// A family's per-element parameters as rows of one table: for each parameter (one value
// per element, in the scene's element order) the values on the backend and their
// gradient accumulators, uploaded, zeroed and downloaded by one loop each. A family
// names its parameters once, in the order of its enum of them, and reads
// value(exec, k) and grad(exec, k) where its model and gradient views need them.
#pragma once

#include <array>
#include <cstddef>
#include <vector>

#include "nudge/assert.h"
#include "nudge/parameters.h"
#include "sim/backend.h"
#include "sim/soa.h"

namespace nudge {

template <class T, Backend Exec, std::size_t N>
class ElementParams {
public:
  ElementParams(std::array<ParamId, N> ids, int elements) : ids_(ids), elements_(elements) {}

  void upload(const ParameterSet& p, const Exec& exec) {
    for (std::size_t k = 0; k < N; ++k) {
      const std::vector<double>& v = p[ids_[k]].value;
      NUDGE_ASSERT(v.size() == std::size_t(elements_));
      exec.upload(values_[k], std::vector<T>(v.begin(), v.end()));
    }
  }

  const T* value(const Exec& exec, std::size_t k) const { return exec.data(values_[k]); }
  T* grad(const Exec& exec, std::size_t k) { return exec.data(grads_[k]); }

  void zero_gradients(const Exec& exec) {
    for (Array& g : grads_) {
      exec.resize(g, std::size_t(elements_));
      exec.zero(g);
    }
  }

  void download_gradients(ParameterSet& p, const Exec& exec) const {
    for (std::size_t k = 0; k < N; ++k) p[ids_[k]].grad = fetch_values(exec, exec.data(grads_[k]), elements_);
  }

private:
  using Array = typename Exec::template Array<T>;
  std::array<ParamId, N> ids_;
  int elements_;
  std::array<Array, N> values_, grads_;
};

}  // namespace nudge
