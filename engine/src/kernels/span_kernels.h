// The CPU's shapes of the step kernels: the same physics functions as step_kernels.h,
// called over spans of springs and blocks of particles laid out by SpringLayout. In a run
// of springs the particle indices are computed, not loaded, so each inner loop streams
// contiguous memory and runs as SIMD lanes; summing spring values onto particles is
// adding contiguous ranges (IncidenceSegment) and, for loose springs, the incidence list.
#pragma once

#include <concepts>

#include "kernels/lane_vector.h"
#include "nudge/assert.h"
#include "families/springs/spring_model.h"
#include "kernels/step_kernels.h"

namespace nudge {

// Whether a backend can run springs in runs and particles in blocks with these kernels
// (the CPU: its Exec has `bool spring_runs`) rather than one thread per element (CUDA).
// A trait, not part of the Backend concept: a backend need not know the springs exist.
template <class Exec>
inline constexpr bool kHasSpringSpans = requires(const Exec& exec) {
  { exec.spring_runs } -> std::convertible_to<bool>;
};

// Whether this rollout runs them: a backend that can, unless told not to.
template <class Exec>
bool runs_spring_spans(const Exec& exec) {
  if constexpr (kHasSpringSpans<Exec>)
    return exec.spring_runs;
  else
    return false;
}

// Calls body(t, live) for every t in [0, count), count >= W, in whole chunks of W lanes.
// A loop whose trip count is not a multiple of the vector width ends in a scalar tail,
// and for the cloth's runs of 63 springs that tail cost as much as the vector body. Here
// every chunk is full: the last one is moved back to end at count, so it revisits lanes
// an earlier chunk did, and passes live = false for those (stores may repeat; sums must
// not).
template <int W, class Body>
inline void for_each_in_chunks(int count, const Body& body) {
  for (int t0 = 0; t0 < count; t0 += W) {
    const int c = t0 + W <= count ? t0 : count - W, skip = t0 - c;
#pragma omp simd
    for (int t = 0; t < W; ++t) body(c + t, t >= skip);
  }
}

// Particles are summed onto in blocks of one chunk (kChunkLanes<T> particles): the
// layout clips each run's ends to these blocks, and a block adds its segments in vector
// registers, one per component. Lane t is particle p0 + t; a segment covers lanes
// [lo, hi) and reads the spring values at src[t], src = values + spring - lo, so it loads
// W values from up to W - 1 before the segment's first spring to as many after its last:
// the values array must have W readable elements on either side (Rollout pads them).
// Lanes outside the segment add nothing.
template <class T>
struct ChunkSums {
  static constexpr int W = kChunkLanes<T>;
  using Lanes = LaneVector<T>;
  T lane[3][W];  // x, y, z components, filled by add_segments

  // Sets the sums to the block's segments: sign * values[spring] per covered lane
  // (values: 3 x springs).
  void add_segments(const int* block_start, const IncidenceSegment* segments, int block, const T* values, int springs) {
    const int p0 = block * W;
    const typename Lanes::Index iota = Lanes::iota();
    typename Lanes::Value sum[3] = {};
    for (int j = block_start[block]; j < block_start[block + 1]; ++j) {
      const IncidenceSegment g = segments[j];
      const int lo = g.particle - p0, hi = lo + g.count;
      NUDGE_VALIDATE(lo >= 0 && hi <= W);  // the layout clips segments to their block
      const typename Lanes::Index covered = iota >= lo && iota < hi;
      const T* src = values + (g.spring - lo);
      const T sign = static_cast<T>(g.sign);
      for (int k = 0; k < 3; ++k)
        sum[k] += covered ? sign * Lanes::load(src + size_t(k) * springs) : typename Lanes::Value{};
    }
    for (int k = 0; k < 3; ++k) Lanes::store(lane[k], sum[k]);
  }

  // Adds the loose springs of particles [p0, p1) through the incidence list.
  void add_loose(const SpringModel<T>& sp, int p0, int p1, const T* values) {
    if (sp.inc_start[p0] == sp.inc_start[p1]) return;  // no loose spring touches the block
    for (int i = p0; i < p1; ++i) {
      const Vec3<T> sum = add_incident(sp, i, values, (*this)[i - p0]);
      lane[0][i - p0] = sum.x, lane[1][i - p0] = sum.y, lane[2][i - p0] = sum.z;
    }
  }

  Vec3<T> operator[](int t) const { return {lane[0][t], lane[1][t], lane[2][t]}; }
};

// Calls body(i, t) for the particles i = p0 + t of a block of W; a whole block runs a
// loop of fixed trip count, which vectorises without a tail.
template <int W, class Body>
inline void for_block_particles(int p0, int n, const Body& body) {
  if (p0 + W <= n) {
#pragma omp simd
    for (int t = 0; t < W; ++t) body(p0 + t, t);
  } else {
#pragma omp simd
    for (int t = 0; t < n - p0; ++t) body(p0 + t, t);
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
    constexpr int W = kChunkLanes<typename SpringKernel::Value>;
    if (span.count >= W) {
      for_each_in_chunks<W>(span.count, [&](int t, bool live) NUDGE_LANE_INLINE {
        spring.template at<kActuated>(span.first + t, span.a0 + t, span.b0 + t, live);
      });
    } else {
#pragma omp simd
      for (int t = 0; t < span.count; ++t) spring.template at<kActuated>(span.first + t, span.a0 + t, span.b0 + t);
    }
  }
  void operator()(int k) const {
    const SpringSpan span = spans[k];
    NUDGE_VALIDATE(span.first >= 0 && span.count >= 0 && span.first + span.count <= spring.m.springs.s);
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
struct ParticleStepBlockKernel {  // over particle blocks of kChunkLanes<T>
  static constexpr int W = kChunkLanes<T>;
  ModelView<T> m;
  StateView<const T> state;
  const T* fs;
  StateView<T> next;
  const int* block_start;
  const IncidenceSegment* segments;
  void operator()(int block) const {
    const int n = m.particles.n, p0 = block * W, p1 = p0 + W < n ? p0 + W : n;
    ChunkSums<T> f;
    f.add_segments(block_start, segments, block, fs, m.springs.s);
    f.add_loose(m.springs, p0, p1, fs);
    if (m.corners.slots > 0) {  // then the element families' corners, through their incidence list
      for (int i = p0; i < p1; ++i) {
        const Vec3<T> sum = add_corners(m.corners, i, m.corners.force, f[i - p0]);
        if (has_local_contact(m))
          integrate_particle<true>(m, i, state, sum, next);
        else
          integrate_particle<false>(m, i, state, sum, next);
      }
    } else if (has_local_contact(m)) {
      for (int i = p0; i < p1; ++i) integrate_particle<true>(m, i, state, f[i - p0], next);
    } else {
      for_block_particles<W>(
          p0, n, [&](int i, int t) NUDGE_LANE_INLINE { integrate_particle<false>(m, i, state, f[t], next); });
    }
  }
};

// The particle half of a step's adjoint (particle_step_adjoint) over blocks of
// kChunkLanes<T> particles: fixed blocks, so where a vector loop starts and where a
// shorter one ends never depends on the thread count.
template <class T, bool kContact>
struct ParticleAdjointBlockKernel {  // over particle blocks of kChunkLanes<T>
  static constexpr int W = kChunkLanes<T>;
  ModelView<T> m;
  StateView<const T> state;
  const T* v1;
  StateView<T> adj;
  T* adj_f;
  GradView<T> grad;
  void operator()(int block) const {
    for_block_particles<W>(block * W, m.particles.n, [&](int i, int) NUDGE_LANE_INLINE {
      particle_step_adjoint<kContact>(m, i, state, v1, adj, adj_f, grad);
    });
  }
};

// Gathers a step's spring adjoints onto its particles, which completes dL/dx_t and
// dL/dv_t.
template <class T>
struct ParticleGatherBlockKernel {  // over particle blocks of kChunkLanes<T>
  static constexpr int W = kChunkLanes<T>;
  ModelView<T> m;
  const T *adj_d, *adj_dv;
  StateView<T> adj;
  const int* block_start;
  const IncidenceSegment* segments;
  void operator()(int block) const {
    const int n = m.particles.n, p0 = block * W, p1 = p0 + W < n ? p0 + W : n;
    ChunkSums<T> d, dv;
    d.add_segments(block_start, segments, block, adj_d, m.springs.s);
    dv.add_segments(block_start, segments, block, adj_dv, m.springs.s);
    d.add_loose(m.springs, p0, p1, adj_d);
    dv.add_loose(m.springs, p0, p1, adj_dv);
    // End a (sign +1) enters d = x_b - x_a with a minus: subtract the signed sums.
    for_block_particles<W>(p0, n, [&](int i, int t) NUDGE_LANE_INLINE {
      store3(adj.x, i, n, load3(adj.x, i, n) - d[t]);
      store3(adj.v, i, n, load3(adj.v, i, n) - dv[t]);
    });
  }
};

}  // namespace nudge
