// The spring layout behind the CPU kernels: runs found where they exist, every spring
// kept exactly once, and the run segments plus the loose incidence list reproducing
// each particle's plain sum over its springs.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "families/springs/spring_layout.h"

using namespace nudge;

namespace {

// A grid of rows x cols particles with the cloth's four spring families, plus a few
// random springs that cannot form runs.
void grid_springs(int rows, int cols, std::vector<int>& a, std::vector<int>& b, std::vector<int>& channel) {
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      const int i = r * cols + c;
      auto add = [&](int p, int q) {
        a.push_back(p);
        b.push_back(q);
        channel.push_back(static_cast<int>(a.size()) % 5 == 0 ? 0 : -1);
      };
      if (r + 1 < rows) add(i, i + cols);
      if (c + 1 < cols) add(i, i + 1);
      if (r + 1 < rows && c + 1 < cols) add(i, i + cols + 1);
      if (r + 1 < rows && c + 1 < cols) add(i + cols, i + 1);
    }
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> pick(0, rows * cols - 1);
  for (int k = 0; k < 9; ++k) {
    const int p = pick(rng);
    int q = pick(rng);
    if (q == p) q = (p + 1) % (rows * cols);
    a.push_back(p);
    b.push_back(q);
    channel.push_back(-1);
  }
}

}  // namespace

TEST_CASE("spring layout: runs, spans and segments describe every spring exactly once") {
  const int rows = 9, cols = 23, n = rows * cols;
  std::vector<int> a, b, channel;
  grid_springs(rows, cols, a, b, channel);
  const int s = static_cast<int>(a.size());
  for (int min_run : {8, 1 << 30}) {
    CAPTURE(min_run);
    const SpringLayout layout = make_spring_layout(a, b, channel, n, min_run, 16, 32);

    // A permutation, with the ends carried along.
    std::vector<int> sorted = layout.order;
    std::sort(sorted.begin(), sorted.end());
    for (int k = 0; k < s; ++k) REQUIRE(sorted[k] == k);
    for (int k = 0; k < s; ++k) {
      CHECK(layout.a[k] == a[layout.order[k]]);
      CHECK(layout.b[k] == b[layout.order[k]]);
    }
    if (min_run > s)
      CHECK(layout.run_springs == 0);
    else
      CHECK(layout.run_springs > s / 2);  // the grid's families form long runs

    // Spans cover [0, s) once; a run span's ends advance by one per spring.
    std::vector<int> covered(s, 0);
    for (const SpringSpan& span : layout.spans) {
      CHECK(span.count <= 16);
      bool actuated = false;
      for (int t = 0; t < span.count; ++t) {
        const int k = span.first + t;
        ++covered[k];
        actuated = actuated || channel[layout.order[k]] >= 0;
        if (span.a0 >= 0) {
          CHECK(layout.a[k] == span.a0 + t);
          CHECK(layout.b[k] == span.b0 + t);
        } else {
          CHECK(k >= layout.run_springs);
        }
      }
      CHECK(span.actuated == actuated);
    }
    CHECK(std::count(covered.begin(), covered.end(), 1) == s);

    // Segments and loose incidence give the same per-particle sums as a direct scatter.
    std::vector<double> value(s), expected(n, 0.0), got(n, 0.0);
    for (int k = 0; k < s; ++k) value[k] = 1.0 + k * 0.001;  // distinct per spring
    for (int k = 0; k < s; ++k) {
      expected[layout.a[k]] += value[k];
      expected[layout.b[k]] -= value[k];
    }
    for (int block = 0; block < layout.blocks(); ++block)
      for (int j = layout.block_start[block]; j < layout.block_start[block + 1]; ++j) {
        const IncidenceSegment& g = layout.segments[j];
        CHECK(g.particle / layout.particle_block == block);
        CHECK((g.particle + g.count - 1) / layout.particle_block == block);
        for (int t = 0; t < g.count; ++t) got[g.particle + t] += g.sign * value[g.spring + t];
      }
    for (int i = 0; i < n; ++i)
      for (int j = layout.inc_start[i]; j < layout.inc_start[i + 1]; ++j)
        got[i] += layout.inc_sign[j] * value[layout.inc_spring[j]];
    for (int i = 0; i < n; ++i) CHECK(got[i] == doctest::Approx(expected[i]).epsilon(1e-12));
  }
}
