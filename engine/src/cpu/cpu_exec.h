// The CPU backend of Rollout: host memory and a deterministic thread pool.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <vector>

#include "cpu/thread_pool.h"

namespace nudge {

struct CpuExec {
  std::shared_ptr<ThreadPool> pool;

  // The rollout lays springs out in runs and launches the span and block kernels
  // (kernels/span_kernels.h): contiguous loops that vectorise. False: one spring and one
  // particle at a time, the reference span_kernels_test compares them with (a choice at
  // run time, so that the test needs no rollout compiled of its own).
  bool spring_runs = true;

  template <class U>
  using Array = std::vector<U>;

  template <class U>
  U* data(std::vector<U>& a) const {
    return a.data();
  }
  template <class U>
  const U* data(const std::vector<U>& a) const {
    return a.data();
  }
  template <class U>
  void resize(std::vector<U>& a, size_t n) const {
    a.resize(n);
  }
  template <class U>
  void zero(std::vector<U>& a) const {
    std::fill(a.begin(), a.end(), U(0));
  }
  template <class U>
  void upload(std::vector<U>& a, const std::vector<U>& host) const {
    a = host;
  }
  template <class U>
  void upload_to(U* dst, const std::vector<U>& host) const {
    std::copy(host.begin(), host.end(), dst);
  }
  template <class U>
  void download(const U* src, size_t n, U* host) const {
    std::copy_n(src, n, host);
  }
  template <class U>
  void copy(U* dst, const U* src, size_t n) const {
    std::copy_n(src, n, dst);
  }
  // Host memory already: no copies.
  template <class U>
  const U* host_view(const U* p, size_t, std::vector<U>&) const {
    return p;
  }
  template <class U, class F>
  void host_modify(U* a, size_t, std::vector<U>&, const F& f) const {
    f(a);
  }

  template <class U>
  long first_non_finite(const U* p, size_t n) const {
    for (size_t i = 0; i < n; ++i)
      if (!std::isfinite(p[i])) return static_cast<long>(i);
    return -1;
  }

  template <class F>
  void launch(int n, const F& kernel) const {
    pool->parallel_for(n, [&kernel](int begin, int end) {
      // A private copy: stores through the kernel's output pointers cannot alias it, so
      // the compiler keeps its fields in registers across iterations.
      const F local = kernel;
      // Iterations touch disjoint outputs (no element writes another's), which is what
      // lets this loop run as SIMD lanes.
#pragma omp simd
      for (int i = begin; i < end; ++i) local(i);
    });
  }

  // Runs kernel(k) for k in [0, n) where each k is a block of work with its own inner
  // loops (a span of springs, a block of particles): spread one block at a time.
  template <class F>
  void launch_blocks(int n, const F& kernel) const {
    pool->parallel_for(
        n,
        [&kernel](int begin, int end) {
          const F local = kernel;  // as in launch: fields stay in registers
          for (int k = begin; k < end; ++k) local(k);
        },
        2, 1);
  }
};

}  // namespace nudge
