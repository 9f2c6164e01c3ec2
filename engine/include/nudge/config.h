// Compile-time configuration shared by the CPU and CUDA builds of every kernel.
#pragma once

#include <type_traits>

// Kernel code is written once and compiled for the host and, under nvcc, for the device.
// Kernels are small and called per element in hot loops: always inline them, so the
// CPU backend's loops see whole kernels and can vectorise them.
#if defined(__CUDACC__)
#define NUDGE_HD __host__ __device__ __forceinline__
#elif defined(__GNUC__)
#define NUDGE_HD inline __attribute__((always_inline))
#else
#define NUDGE_HD inline
#endif

// For the few large kernel functions on a branch that most scenes never take (particles
// meeting bodies): inlined into a particle loop they made it too large for GCC to
// inline the loop's own lambda, and B1's forward pass took 1.8x as long.
#if defined(__CUDACC__)
#define NUDGE_HD_NOINLINE __host__ __device__ __noinline__
#elif defined(__GNUC__)
#define NUDGE_HD_NOINLINE __attribute__((noinline))
#else
#define NUDGE_HD_NOINLINE
#endif

// On a lambda that is the body of a SIMD loop (kernels/span_kernels.h): GCC inlines such a
// lambda only while the enclosing function stays under its size limits, and each family
// added to ModelView pushed B1's particle loop past them (it ran as scalar calls, one per
// particle, at a third of the speed). Forcing it keeps the loop one vector body.
#if defined(__GNUC__) && !defined(__CUDACC__)
#define NUDGE_LANE_INLINE __attribute__((always_inline))
#else
#define NUDGE_LANE_INLINE
#endif

namespace nudge {

// Scalars a rollout can run in: float for speed, double for gradient checks.
template <class T>
concept Real = std::is_same_v<T, float> || std::is_same_v<T, double>;

}  // namespace nudge
