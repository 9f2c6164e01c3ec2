// A small fork-join pool for the CPU backend. parallel_for splits an index range into
// one contiguous chunk per thread; kernels touch only their own elements, so results
// do not depend on the thread count. Workers spin briefly before sleeping because a
// rollout dispatches thousands of short kernels and a sleep/wake per kernel would cost
// more than the kernel.
#pragma once

#include <atomic>
#include <thread>
#include <vector>

namespace nudge {

class ThreadPool {
public:
  explicit ThreadPool(int threads);  // total threads, the caller included; <= 0: all cores
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const { return static_cast<int>(workers_.size()) + 1; }

  // Calls fn(begin, end) over [0, n) split into chunks; returns when all are done.
  // Ranges shorter than min_parallel run on the calling thread alone.
  template <class F>
  void parallel_for(int n, const F& fn, int min_parallel = 1024) {
    if (n <= 0) return;
    if (workers_.empty() || n < min_parallel) {
      fn(0, n);
      return;
    }
    auto call = [](const void* ctx, int begin, int end) { (*static_cast<const F*>(ctx))(begin, end); };
    run(n, &fn, call);
  }

private:
  using Call = void (*)(const void*, int, int);
  void run(int n, const void* ctx, Call call);
  void worker_loop(int index);
  void run_chunk(int chunk) const;

  std::vector<std::thread> workers_;
  std::atomic<unsigned> generation_{0};  // bumped once per job; workers wait on it
  std::atomic<int> pending_{0};          // workers still running the current job
  std::atomic<bool> stop_{false};
  // The current job, published before generation_ is bumped.
  const void* ctx_ = nullptr;
  Call call_ = nullptr;
  int n_ = 0;
};

}  // namespace nudge
