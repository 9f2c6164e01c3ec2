// Whether the tests run under AddressSanitizer (the sanitize preset). Long rollouts run
// 10 to 30 times slower there, so the longest checks (whole example optimisations, long
// finite-difference sweeps) run in the release suite only; the sanitizers still run every
// code path through the shorter tests.
#pragma once

namespace nudge::test {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif

}  // namespace nudge::test
