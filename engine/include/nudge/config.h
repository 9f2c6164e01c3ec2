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

namespace nudge {

// Scalars a rollout can run in: float for speed, double for gradient checks.
template <class T>
concept Real = std::is_same_v<T, float> || std::is_same_v<T, double>;

}  // namespace nudge
