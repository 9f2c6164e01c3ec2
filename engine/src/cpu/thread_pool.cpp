#include "cpu/thread_pool.h"

#include <algorithm>
#include <bit>

#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#define NUDGE_PAUSE() _mm_pause()
#else
#define NUDGE_PAUSE() std::this_thread::yield()
#endif

namespace nudge {

namespace {
constexpr int kSpinIterations = 20000;  // about 10-50 us of spinning before sleeping
// One chunk per thread, the same share of every kernel each time: a thread's elements
// stay in its core's cache from one kernel to the next. Finer chunks rebalance better
// but hand elements to the other core at random; on the 2-core test machine B1's
// gradient took 2.2x as long with 8 chunks per thread, and 8 % longer with 2.
constexpr int kChunksPerThread = 1;
constexpr int kMaxChunks = 32;  // chunks are claimed as bits of one word

// The job's fields are ordered against the claim word by a pair of fences (run() and
// work() say why). ThreadSanitizer does not model fences, so under it the operations the
// fences order are sequentially consistent instead: the same guarantee, in a form it
// can check. Other builds keep the relaxed operations and the fences.
#if defined(__SANITIZE_THREAD__)
constexpr std::memory_order kFenced = std::memory_order_seq_cst;
void fence(std::memory_order) {}
#else
constexpr std::memory_order kFenced = std::memory_order_relaxed;
void fence(std::memory_order order) { std::atomic_thread_fence(order); }
#endif
}  // namespace

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

void ThreadPool::work(uint32_t generation, int thread) {
  for (;;) {
    uint64_t claim = claim_.load(std::memory_order_acquire);
    if (static_cast<uint32_t>(claim >> 32) != generation) return;  // a newer job, or none
    const int chunks = chunks_.load(kFenced);
    // Pairs with run()'s release fence: if `chunks` is already the next job's, the claim
    // word closed before it was written, so the compare-exchange below fails.
    fence(std::memory_order_acquire);
    const uint32_t all = chunks == 32 ? ~0u : (1u << chunks) - 1u;
    const uint32_t free_chunks = ~static_cast<uint32_t>(claim) & all;
    if (free_chunks == 0) return;
    // A thread's own share first: consecutive kernels then hand each thread the same
    // elements, whose cache lines stay in its core's cache instead of moving between cores.
    int chunk = thread * chunks / size();
    if (!(free_chunks >> chunk & 1u)) chunk = std::countr_zero(free_chunks);
    if (!claim_.compare_exchange_weak(claim, claim | (1u << chunk), std::memory_order_acq_rel)) continue;
    // Holding a claim of this generation: the job's fields cannot change until it is done.
    const long long n = n_.load(std::memory_order_relaxed);
    const int begin = static_cast<int>(n * chunk / chunks);
    const int end = static_cast<int>(n * (chunk + 1) / chunks);
    call_.load(std::memory_order_relaxed)(ctx_.load(std::memory_order_relaxed), begin, end);
    done_.fetch_add(1, std::memory_order_release);
  }
}

void ThreadPool::run(int n, int min_chunk, const void* ctx, Call call) {
  const int chunks = std::max(1, std::min({size() * kChunksPerThread, kMaxChunks, n / std::max(1, min_chunk)}));
  const uint32_t generation = generation_.load(std::memory_order_relaxed) + 1;
  // Close the claim word (every chunk taken) before changing the job's fields. A worker
  // still in work() for the previous job may read the new chunk count, see chunks free
  // that the old job never had, and claim one against the old claim word; with the word
  // closed first that claim fails. Without this, a chunk of the new job could run twice
  // or be counted done while running (rare: seen once in a thousand 8-thread rollouts).
  claim_.store((uint64_t(generation) << 32) | 0xFFFFFFFFu, kFenced);
  fence(std::memory_order_release);
  ctx_.store(ctx, kFenced);
  call_.store(call, kFenced);
  n_.store(n, kFenced);
  chunks_.store(chunks, kFenced);
  done_.store(0, kFenced);
  claim_.store(uint64_t(generation) << 32, std::memory_order_release);
  generation_.store(generation, std::memory_order_release);
  generation_.notify_all();
  work(generation, 0);
  for (int spin = 0; done_.load(std::memory_order_acquire) != chunks; ++spin) {
    if (spin < kSpinIterations)
      NUDGE_PAUSE();
    else
      std::this_thread::yield();
  }
}

void ThreadPool::worker_loop(int thread) {
  uint32_t seen = 0;
  for (;;) {
    uint32_t now = generation_.load(std::memory_order_acquire);
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
    work(seen, thread);
  }
}

}  // namespace nudge
