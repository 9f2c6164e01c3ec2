#include "families/springs/spring_layout.h"

#include <algorithm>
#include <numeric>

namespace nudge {

namespace {

struct Run {
  int first, count, a0, b0;
};

// Springs in sorted order (by offset b - a, then a) and the runs found in it.
std::vector<Run> find_runs(const std::vector<int>& a, const std::vector<int>& b, std::vector<int>& sorted) {
  const int s = static_cast<int>(a.size());
  sorted.resize(s);
  std::iota(sorted.begin(), sorted.end(), 0);
  std::stable_sort(sorted.begin(), sorted.end(), [&](int p, int q) {
    const long long op = static_cast<long long>(b[p]) - a[p], oq = static_cast<long long>(b[q]) - a[q];
    return op != oq ? op < oq : a[p] < a[q];
  });
  std::vector<Run> runs;
  for (int k = 0; k < s;) {
    int len = 1;
    while (k + len < s && a[sorted[k + len]] == a[sorted[k]] + len && b[sorted[k + len]] == b[sorted[k]] + len) ++len;
    runs.push_back({k, len, a[sorted[k]], b[sorted[k]]});
    k += len;
  }
  return runs;
}

}  // namespace

SpringLayout make_spring_layout(const std::vector<int>& a, const std::vector<int>& b, const std::vector<int>& channel,
                                int particles, int min_run, int max_span, int particle_block) {
  const int s = static_cast<int>(a.size());
  SpringLayout layout;
  layout.particle_block = std::max(1, particle_block);
  max_span = std::max(1, max_span);

  // Long runs first, in sorted order; loose springs after them, in the scene's order.
  std::vector<int> sorted;
  const std::vector<Run> found = find_runs(a, b, sorted);
  std::vector<char> in_run(s, 0);
  std::vector<Run> runs;
  for (const Run& r : found) {
    if (r.count < min_run) continue;
    runs.push_back({static_cast<int>(layout.order.size()), r.count, r.a0, r.b0});
    for (int t = 0; t < r.count; ++t) {
      layout.order.push_back(sorted[r.first + t]);
      in_run[sorted[r.first + t]] = 1;
    }
  }
  layout.run_springs = static_cast<int>(layout.order.size());
  for (int k = 0; k < s; ++k)
    if (!in_run[k]) layout.order.push_back(k);
  layout.a.resize(s);
  layout.b.resize(s);
  for (int k = 0; k < s; ++k) {
    layout.a[k] = a[layout.order[k]];
    layout.b[k] = b[layout.order[k]];
  }

  // Spans: runs cut to max_span, then the loose springs cut the same way.
  for (const Run& r : runs)
    for (int t = 0; t < r.count; t += max_span)
      layout.spans.push_back({r.first + t, std::min(max_span, r.count - t), r.a0 + t, r.b0 + t});
  // By first particle: a thread taking a contiguous share of spans then touches mostly
  // the particles (and cache lines) of its own share of particle blocks.
  std::stable_sort(layout.spans.begin(), layout.spans.end(), [](const SpringSpan& p, const SpringSpan& q) {
    return std::min(p.a0, p.b0) < std::min(q.a0, q.b0);
  });
  for (int k = layout.run_springs; k < s; k += max_span) layout.spans.push_back({k, std::min(max_span, s - k), -1, -1});
  for (SpringSpan& span : layout.spans)
    for (int k = span.first; k < span.first + span.count; ++k)
      span.actuated = span.actuated || channel[layout.order[k]] >= 0;

  // Each run's two ends as segments clipped to particle blocks, in run order per block.
  const int block = layout.particle_block;
  const int blocks = (particles + block - 1) / block;
  std::vector<std::vector<IncidenceSegment>> per_block(blocks);
  for (const Run& r : runs) {
    for (const auto& [end0, sign] : {std::pair{r.a0, 1}, std::pair{r.b0, -1}}) {
      for (int p = end0; p < end0 + r.count;) {
        const int block_end = (p / block + 1) * block;
        const int count = std::min(end0 + r.count, block_end) - p;
        per_block[p / block].push_back({p, r.first + (p - end0), count, sign});
        p += count;
      }
    }
  }
  layout.block_start.assign(blocks + 1, 0);
  for (int k = 0; k < blocks; ++k) {
    layout.block_start[k + 1] = layout.block_start[k] + static_cast<int>(per_block[k].size());
    layout.segments.insert(layout.segments.end(), per_block[k].begin(), per_block[k].end());
  }

  // Loose springs by particle, ascending layout order: a fixed summation order.
  layout.inc_start.assign(particles + 1, 0);
  for (int k = layout.run_springs; k < s; ++k) {
    ++layout.inc_start[layout.a[k] + 1];
    ++layout.inc_start[layout.b[k] + 1];
  }
  for (int i = 0; i < particles; ++i) layout.inc_start[i + 1] += layout.inc_start[i];
  layout.inc_spring.resize(layout.inc_start[particles]);
  layout.inc_sign.resize(layout.inc_start[particles]);
  std::vector<int> fill(layout.inc_start.begin(), layout.inc_start.end() - 1);
  for (int k = layout.run_springs; k < s; ++k) {
    layout.inc_spring[fill[layout.a[k]]] = k;
    layout.inc_sign[fill[layout.a[k]]++] = 1;
    layout.inc_spring[fill[layout.b[k]]] = k;
    layout.inc_sign[fill[layout.b[k]]++] = -1;
  }
  return layout;
}

}  // namespace nudge
