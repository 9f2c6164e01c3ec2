// Contract checks for programming errors inside Nudge (Box2D's B2_ASSERT and
// B2_VALIDATE): on in builds without NDEBUG (the debug and sanitize presets, where the
// tests run them), compiled out in release. A user's bad input is never an assert: it
// is an Error that says what and where (nudge/result.h).
//
//   NUDGE_ASSERT(condition)    host code: sizes and indices handed between layers
//   NUDGE_VALIDATE(condition)  hot loops and kernels, host and device: ranges a kernel
//                              relies on (a block's segments, a span's springs)
//
// A failed check prints the file, the line and the condition, then aborts (on a GPU,
// traps), so the failure stops at the call instead of surfacing later as a NaN or an
// AddressSanitizer report.
#pragma once

#include <cstdio>
#include <cstdlib>

#if !defined(NDEBUG)
#define NUDGE_CHECKS 1
#else
#define NUDGE_CHECKS 0
#endif

namespace nudge {

[[noreturn]] inline void contract_failed(const char* file, int line, const char* condition) {
  std::fprintf(stderr, "%s:%d: Nudge contract violated: %s\n", file, line, condition);
  std::fflush(stderr);
  std::abort();
}

}  // namespace nudge

#if NUDGE_CHECKS
#if defined(__CUDA_ARCH__)
#define NUDGE_VALIDATE(condition)                                                     \
  do {                                                                                \
    if (!(condition)) {                                                               \
      printf("%s:%d: Nudge contract violated: %s\n", __FILE__, __LINE__, #condition); \
      __trap();                                                                       \
    }                                                                                 \
  } while (0)
#else
#define NUDGE_VALIDATE(condition)                                               \
  do {                                                                          \
    if (!(condition)) ::nudge::contract_failed(__FILE__, __LINE__, #condition); \
  } while (0)
#endif
#define NUDGE_ASSERT(condition)                                                 \
  do {                                                                          \
    if (!(condition)) ::nudge::contract_failed(__FILE__, __LINE__, #condition); \
  } while (0)
#else
// Compiled out, but still parsed and type-checked, so a check cannot rot in release.
#define NUDGE_VALIDATE(condition) ((void)sizeof(static_cast<bool>(condition)))
#define NUDGE_ASSERT(condition) ((void)sizeof(static_cast<bool>(condition)))
#endif
