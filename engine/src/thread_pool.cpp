#include "thread_pool.h"

#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#define NUDGE_PAUSE() _mm_pause()
#else
#define NUDGE_PAUSE() std::this_thread::yield()
#endif

namespace nudge {

namespace {
constexpr int kSpinIterations = 20000;  // about 10-50 us of spinning before sleeping
}

ThreadPool::ThreadPool(int threads) {
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  for (int i = 1; i < threads; ++i) workers_.emplace_back([this, i] { worker_loop(i); });
}

ThreadPool::~ThreadPool() {
  stop_.store(true);
  generation_.fetch_add(1);
  generation_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void ThreadPool::run_chunk(int chunk) const {
  const long long threads = size();
  const int begin = static_cast<int>(n_ * chunk / threads);
  const int end = static_cast<int>(n_ * (chunk + 1) / threads);
  if (begin < end) call_(ctx_, begin, end);
}

void ThreadPool::run(int n, const void* ctx, Call call) {
  ctx_ = ctx;
  call_ = call;
  n_ = n;
  pending_.store(static_cast<int>(workers_.size()), std::memory_order_relaxed);
  generation_.fetch_add(1, std::memory_order_release);
  generation_.notify_all();
  run_chunk(0);
  for (int spin = 0; pending_.load(std::memory_order_acquire) != 0; ++spin) {
    if (spin < kSpinIterations) NUDGE_PAUSE();
    else std::this_thread::yield();
  }
}

void ThreadPool::worker_loop(int index) {
  unsigned seen = 0;
  for (;;) {
    unsigned now = generation_.load(std::memory_order_acquire);
    for (int spin = 0; now == seen && spin < kSpinIterations; ++spin) {
      NUDGE_PAUSE();
      now = generation_.load(std::memory_order_acquire);
    }
    while (now == seen) {
      generation_.wait(seen, std::memory_order_acquire);
      now = generation_.load(std::memory_order_acquire);
    }
    seen = now;
    if (stop_.load()) return;
    run_chunk(index);
    pending_.fetch_sub(1, std::memory_order_acq_rel);
  }
}

}  // namespace nudge
