// What Rollout and the element families need from a backend (CpuExec, CudaExec): memory
// of its own kind, copies to and from the host, and launching a kernel functor over an
// index range. Written down as a concept so that a backend that misses a piece fails to
// compile at the point of use with the missing requirement named.
#pragma once

#include <concepts>
#include <cstddef>
#include <vector>

namespace nudge {

namespace backend_detail {
struct IndexKernel {  // the shape of a kernel functor: called once per index
  void operator()(int) const {}
};
struct HostEdit {  // the shape of host_modify's callback
  void operator()(float*) const {}
};
}  // namespace backend_detail

template <class E>
concept Backend = requires(E exec, const E cexec, typename E::template Array<float> array,
                           const typename E::template Array<float> carray, std::vector<float> host, float* p,
                           const float* cp, size_t n) {
  { cexec.data(array) } -> std::same_as<float*>;
  { cexec.data(carray) } -> std::same_as<const float*>;
  cexec.resize(array, n);  // contents need not survive
  cexec.zero(array);
  cexec.upload(array, host);  // resizes to host.size()
  cexec.upload_to(p, host);
  cexec.download(cp, n, p);                                        // to host memory
  cexec.copy(p, cp, n);                                            // within the backend's memory
  { cexec.host_view(cp, n, host) } -> std::same_as<const float*>;  // readable on the host
  cexec.host_modify(p, n, host, backend_detail::HostEdit{});       // f on a host copy, written back
  { cexec.first_non_finite(cp, n) } -> std::convertible_to<long>;  // -1 if none
  cexec.launch(int{}, backend_detail::IndexKernel{});
};

}  // namespace nudge
