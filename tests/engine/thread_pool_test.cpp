// The CPU backend's thread pool: every index of every job runs exactly once, also when
// consecutive jobs split into different numbers of chunks (a worker still looking at the
// previous job must not claim a chunk of the next one).
#include <doctest/doctest.h>

#include <atomic>
#include <vector>

#include "cpu/thread_pool.h"

using namespace nudge;

TEST_CASE("thread pool: each index runs exactly once, across jobs of different chunk counts") {
  for (int threads : {2, 3, 8}) {
    CAPTURE(threads);
    ThreadPool pool(threads);
    std::vector<int> counts(4096, 0);  // written without atomics, as kernels write their elements
    long long mismatches = 0;
    for (int job = 0; job < 20000; ++job) {
      // Alternate a job of one chunk with jobs of many: the chunk count changes every job.
      const int n = job % 3 == 0 ? 3 : (job % 3 == 1 ? 4096 : 700);
      const int min_chunk = job % 3 == 0 ? 1 : 16;
      std::fill(counts.begin(), counts.begin() + n, 0);
      pool.parallel_for(
          n,
          [&](int begin, int end) {
            for (int i = begin; i < end; ++i) ++counts[size_t(i)];
          },
          1, min_chunk);
      for (int i = 0; i < n; ++i) mismatches += counts[size_t(i)] != 1;
    }
    CHECK(mismatches == 0);
  }
}
