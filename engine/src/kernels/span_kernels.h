// The CPU's shapes of the step kernels: the same physics functions as step_kernels.h,
// called over spans of springs and blocks of particles laid out by SpringLayout. In a run
// of springs the particle indices are computed, not loaded, so each inner loop streams
// contiguous memory and runs as SIMD lanes; summing spring values onto particles is
// adding contiguous ranges (IncidenceSegment) and, for loose springs, the incidence list.
#pragma once

#include "../spring_layout.h"
#include "step_kernels.h"

namespace nudge {

// Particles per block: the block's spring sums stay in a stack buffer of this many.
inline constexpr int kParticleBlock = 256;

// Adds the segments of particle block `block` onto sum (block-local, 3 x kParticleBlock).
// values: one 3-vector per spring (3 x springs).
template <class T>
inline void add_segments(const int* block_start, const IncidenceSegment* segments, int block, const T* values,
                         int springs, T* sum) {
  const int p0 = block * kParticleBlock;
  for (int j = block_start[block]; j < block_start[block + 1]; ++j) {
    const IncidenceSegment g = segments[j];
    const T sign = static_cast<T>(g.sign);
    for (int k = 0; k < 3; ++k) {
      T* dst = sum + k * kParticleBlock + (g.particle - p0);
      const T* src = values + k * springs + g.spring;
#pragma omp simd
      for (int t = 0; t < g.count; ++t) dst[t] += sign * src[t];
    }
  }
}

// Runs a per-spring kernel of step_kernels.h (SpringForceKernel, SpringAdjointKernel)
// over spans: in a run the ends are computed (a0 + t, b0 + t) and the loop vectorises;
// a passive span skips the control lookup; loose springs read their ends.
template <class SpringKernel>
struct SpringSpanKernel {  // over spans
  SpringKernel spring;
  const SpringSpan* spans;
  template <bool kActuated>
  void run(const SpringSpan& span) const {
#pragma omp simd
    for (int t = 0; t < span.count; ++t) spring.template at<kActuated>(span.first + t, span.a0 + t, span.b0 + t);
  }
  void operator()(int k) const {
    const SpringSpan span = spans[k];
    if (span.a0 < 0) {
      for (int s = span.first; s < span.first + span.count; ++s) spring(s);
    } else if (span.actuated) {
      run<true>(span);
    } else {
      run<false>(span);
    }
  }
};

template <class T>
struct ParticleStepBlockKernel {  // over particle blocks
  ModelView<T> m;
  const T *x, *v, *fs;
  T *x1, *v1;
  const int* block_start;
  const IncidenceSegment* segments;
  void operator()(int block) const {
    T sum[3 * kParticleBlock] = {};
    add_segments(block_start, segments, block, fs, m.s, sum);
    const int p0 = block * kParticleBlock, p1 = p0 + kParticleBlock < m.n ? p0 + kParticleBlock : m.n;
    if (m.inc_start[p0] != m.inc_start[p1])  // some loose spring touches the block
      for (int i = p0; i < p1; ++i) store3(sum, i - p0, kParticleBlock, add_incident(m, i, fs, load3(sum, i - p0, kParticleBlock)));
    if (m.ground) {
      for (int i = p0; i < p1; ++i) integrate_particle<true>(m, i, x, v, load3(sum, i - p0, kParticleBlock), x1, v1);
    } else {
#pragma omp simd
      for (int i = p0; i < p1; ++i) integrate_particle<false>(m, i, x, v, load3(sum, i - p0, kParticleBlock), x1, v1);
    }
  }
};

template <class T>
struct ParticleGatherBlockKernel {  // over particle blocks
  ModelView<T> m;
  const T *adj_d, *adj_dv;
  T *adj_x, *adj_v;
  const int* block_start;
  const IncidenceSegment* segments;
  void operator()(int block) const {
    T sum_d[3 * kParticleBlock] = {}, sum_dv[3 * kParticleBlock] = {};
    add_segments(block_start, segments, block, adj_d, m.s, sum_d);
    add_segments(block_start, segments, block, adj_dv, m.s, sum_dv);
    const int p0 = block * kParticleBlock, p1 = p0 + kParticleBlock < m.n ? p0 + kParticleBlock : m.n;
    if (m.inc_start[p0] != m.inc_start[p1]) {  // some loose spring touches the block
      for (int i = p0; i < p1; ++i) {
        store3(sum_d, i - p0, kParticleBlock, add_incident(m, i, adj_d, load3(sum_d, i - p0, kParticleBlock)));
        store3(sum_dv, i - p0, kParticleBlock, add_incident(m, i, adj_dv, load3(sum_dv, i - p0, kParticleBlock)));
      }
    }
    // End a (sign +1) enters d = x_b - x_a with a minus: subtract the signed sums.
#pragma omp simd
    for (int i = p0; i < p1; ++i) {
      store3(adj_x, i, m.n, load3(adj_x, i, m.n) - load3(sum_d, i - p0, kParticleBlock));
      store3(adj_v, i, m.n, load3(adj_v, i, m.n) - load3(sum_dv, i - p0, kParticleBlock));
    }
  }
};

}  // namespace nudge
