// The order in which a rollout keeps its springs, and the ways particles find them.
//
// Many scenes (cloth, lattices, generated robots) have long runs of springs whose ends
// both advance by one particle from one spring to the next: spring s + t joins particles
// a0 + t and b0 + t. In such a run every load and store is contiguous, so the CPU loops
// run as SIMD lanes instead of gathering through index arrays, and summing spring values
// onto particles becomes adding one contiguous range onto another. The layout puts the
// springs of runs of at least `min_run` first (sorted by offset b - a, then by a), and
// every other spring ("loose") after them in the scene's order; loose springs reach
// their particles through an incidence list.
//
// Summation order per particle is fixed by the layout alone (runs in order, then the
// loose incidence list), never by threads, so results stay bit-identical across thread
// counts.
#pragma once

#include <vector>

#include "families/springs/spring_model.h"  // SpringSpan, IncidenceSegment

namespace nudge {

struct SpringLayout {
  std::vector<int> order;  // s: the scene's index of each spring in layout order
  std::vector<int> a, b;   // s: ends in layout order
  int run_springs = 0;     // springs [0, run_springs) are in runs; the rest are loose

  // Springs cut into spans of at most max_span: the CPU's unit of work over springs.
  std::vector<SpringSpan> spans;

  // Particles cut into blocks of particle_block; each block's run segments, clipped to it.
  int particle_block = 1;
  std::vector<int> block_start;  // blocks + 1: CSR into segments
  std::vector<IncidenceSegment> segments;

  // Loose springs by particle (CSR), ascending spring order: sign +1 at end a, -1 at b.
  std::vector<int> inc_start;   // n + 1
  std::vector<int> inc_spring;  // 2 x loose springs
  std::vector<int> inc_sign;    // 2 x loose springs

  int blocks() const { return static_cast<int>(block_start.size()) - 1; }
};

// min_run: the shortest run worth treating as one (a huge value makes every spring loose,
// which suits a backend that gathers per particle anyway).
// channel: per spring, -1 for a passive spring (marks the spans that read controls).
SpringLayout make_spring_layout(const std::vector<int>& a, const std::vector<int>& b, const std::vector<int>& channel,
                                int particles, int min_run, int max_span, int particle_block);

}  // namespace nudge
