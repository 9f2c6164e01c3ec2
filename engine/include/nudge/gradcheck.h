// Checks the adjoint gradient against central finite differences, in double precision
// on the CPU, for every parameter (a deterministic sample of entries for large arrays).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "nudge/parameters.h"
#include "nudge/result.h"
#include "nudge/scene.h"

namespace nudge {

struct GradCheckOptions {
  int samples_per_parameter = 6;  // arrays with more entries are sampled
  double relative_step = 1e-3;    // largest step h = relative_step * max(|p|, 1); three more, each 10x smaller
  double tolerance = 1e-6;        // largest relative error of a resolved entry
  // Rounding noise next to the gradient's scale: an entry under 1e-4 of the largest
  // |entry| of its parameter's gradient passes when adjoint and difference agree to
  // noise times that largest entry, however far apart they are next to the entry itself.
  // A float64 rollout sums thousands of terms of both signs into each entry; in a tiny
  // one that is mostly cancellation and rounding, nothing an optimiser would see.
  double noise = 1e-8;
  uint64_t seed = 1;              // which entries are sampled
  int threads = 1;
  std::vector<ParamId> parameters;  // the parameters to check; empty: all
  // Called before the first entry and after each one with (entries done, entries in all);
  // returning false cancels the check (an Error). For a viewer's progress bar.
  std::function<bool(int done, int total)> progress;
};

struct GradCheckEntry {
  ParamId param{};
  int index = 0;            // flat index into the parameter's values
  double value = 0.0;
  double adjoint = 0.0;     // from the backward pass
  double finite_difference = 0.0;
  double relative_error = 0.0;  // |adjoint - fd| / max(|adjoint|, |fd|)
  double uncertainty = 0.0;     // how far the finite difference itself can be trusted
  bool resolved = false;        // larger than the rounding of the losses lets differences see
  bool verifiable = false;      // the difference is certain to 1 % (or the entry is ~0)
  bool noise = false;           // adjoint and difference within the noise floor of each other, the entry tiny
  bool passed = false;          // verifiable and |adjoint - fd| <= tolerance * max(|adjoint|, |fd|) + uncertainty
};

struct GradCheckReport {
  double loss = 0.0;
  std::vector<GradCheckEntry> entries;
  double max_relative_error() const;  // over all entries
  int failed() const;
};

// Relative error with a floor, for comparisons whose scale is known to the caller.
double gradient_relative_error(double adjoint, double finite_difference, double noise_floor);

// The finite difference is the central difference at the step where it is most
// self-consistent: of four steps a decade apart, the adjacent pair that agree best,
// the finer of the two taken, their disagreement its uncertainty. Large steps suffer
// truncation error, small ones rounding error, which long contact-rich rollouts
// amplify by orders of magnitude; no single step suits every parameter of every scene.
// An entry passes when |adjoint - fd| <= tolerance * max(|adjoint|, |fd|) + uncertainty
// and the uncertainty is at most 1 % of the entry: a difference less certain than that
// checks nothing and is reported as unverifiable (a failure). Entries smaller than the
// losses' rounding divided by the step pass when both are consistent with zero. An entry
// that is rounding noise next to its parameter's gradient (options.noise) passes when
// adjoint and difference agree to that floor, and is reported as noise.
Result<GradCheckReport> gradient_check(const Scene& scene, const GradCheckOptions& options = {});

}  // namespace nudge
