// A small fork-join pool for the CPU backend. parallel_for splits an index range into
// chunks that threads claim one at a time; kernels touch only their own elements, so
// results do not depend on which thread runs a chunk, nor on the thread count.
//
// Claiming (rather than one fixed chunk per thread) matters on a busy machine: when a
// worker is descheduled, the caller takes the remaining chunks itself instead of
// waiting for it. Workers spin briefly before sleeping because a rollout dispatches
// thousands of short kernels and a sleep/wake per kernel would cost more than the kernel.
#pragma once

#include <atomic>
#include <cstdint>
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

  // Calls fn(begin, end) over [0, n) split into chunks of at least min_chunk indices;
  // returns when all are done. Ranges shorter than min_parallel run on the calling thread
  // alone. Cheap elements (a particle) want large chunks; heavy ones (a block of
  // particles) want min_chunk = 1.
  template <class F>
  void parallel_for(int n, const F& fn, int min_parallel = 1024, int min_chunk = 256) {
    if (n <= 0) return;
    if (workers_.empty() || n < min_parallel) {
      fn(0, n);
      return;
    }
    auto call = [](const void* ctx, int begin, int end) { (*static_cast<const F*>(ctx))(begin, end); };
    run(n, min_chunk, &fn, call);
  }

private:
  using Call = void (*)(const void*, int, int);
  void run(int n, int min_chunk, const void* ctx, Call call);
  void worker_loop(int thread);
  // Claims and runs chunks of job `generation` until none are left; `thread` is 0 for the
  // caller and 1.. for the workers.
  void work(uint32_t generation, int thread);

  std::vector<std::thread> workers_;
  std::atomic<uint32_t> generation_{0};  // bumped once per job; sleeping workers wait on it
  std::atomic<uint64_t> claim_{0};       // (generation << 32) | one bit per claimed chunk
  std::atomic<int> done_{0};             // chunks finished in the current job
  std::atomic<bool> stop_{false};
  // The current job; stable while any of its chunks is claimed and unfinished.
  std::atomic<const void*> ctx_{nullptr};
  std::atomic<Call> call_{nullptr};
  std::atomic<int> n_{0}, chunks_{0};
};

}  // namespace nudge
