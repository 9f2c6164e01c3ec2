// A vector of W lanes of T for the CPU kernels, as GCC's and Clang's vector extension:
// arithmetic on it is element-wise, a comparison yields a mask of integer lanes, and
// `mask ? a : b` selects per lane. The compiler keeps such values in vector registers,
// which a small array indexed in a loop does not get (it stays on the stack and every
// update goes through a store and a load).
//
// Used only where a loop over lanes would not vectorise well as plain C++: summing
// segments onto a chunk of particles (span_kernels.h).
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace nudge {

// The widest vector registers of the target: 64 bytes with AVX-512, else 32 (AVX2; the
// compiler splits a 32-byte vector in two where registers are narrower). A vector wider
// than the registers is kept on the stack and taken apart lane by lane: 64-byte vectors
// on an AVX2 machine made the cloth several times slower.
#if defined(__AVX512F__)
inline constexpr int kVectorBytes = 64;
#else
inline constexpr int kVectorBytes = 32;
#endif

// Lanes per chunk of a SIMD loop: one vector of T.
template <class T>
inline constexpr int kChunkLanes = static_cast<int>(kVectorBytes / sizeof(T));

template <class T>
struct LaneVector {
  using Value [[gnu::vector_size(kVectorBytes)]] = T;
  // Integer lanes of T's width: what a comparison of Values yields.
  using Index [[gnu::vector_size(kVectorBytes)]] = std::conditional_t<sizeof(T) == 4, int32_t, int64_t>;

  // Lanes 0, 1, ..., W - 1.
  static Index iota() {
    Index lanes;
    for (int t = 0; t < kChunkLanes<T>; ++t) lanes[t] = t;
    return lanes;
  }
  // Reads W values from p, unaligned; all W must be readable.
  static Value load(const T* p) {
    Value v;
    std::memcpy(&v, p, sizeof(Value));
    return v;
  }
  static void store(T* p, const Value& v) { std::memcpy(p, &v, sizeof(Value)); }
};

}  // namespace nudge
