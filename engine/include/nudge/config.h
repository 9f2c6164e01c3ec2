// Compile-time configuration shared by the CPU and CUDA builds of every kernel.
#pragma once

#include <type_traits>

// Kernel code is written once and compiled for the host and, under nvcc, for the device.
#if defined(__CUDACC__)
#define NUDGE_HD __host__ __device__ inline
#else
#define NUDGE_HD inline
#endif

namespace nudge {

// Scalars a rollout can run in: float for speed, double for gradient checks.
template <class T>
concept Real = std::is_same_v<T, float> || std::is_same_v<T, double>;

}  // namespace nudge
