// Checks the adjoint gradient against central finite differences, in double precision
// on the CPU, for every parameter (a deterministic sample of entries for large arrays).
#pragma once

#include <cstdint>
#include <vector>

#include "nudge/parameters.h"
#include "nudge/result.h"
#include "nudge/scene.h"

namespace nudge {

struct GradCheckOptions {
  int samples_per_parameter = 6;  // arrays with more entries are sampled
  double relative_step = 1e-6;    // h = relative_step * max(|p|, 1)
  uint64_t seed = 1;              // which entries are sampled
  int threads = 1;
};

struct GradCheckEntry {
  ParamId param{};
  int index = 0;            // flat index into the parameter's values
  double value = 0.0;
  double adjoint = 0.0;     // from the backward pass
  double finite_difference = 0.0;
  double relative_error = 0.0;
};

struct GradCheckReport {
  double loss = 0.0;
  std::vector<GradCheckEntry> entries;
  double max_relative_error() const;
};

// Relative error with a floor at the finite difference's own rounding noise, so that
// entries too small for finite differences to resolve are judged in absolute terms.
double gradient_relative_error(double adjoint, double finite_difference, double noise_floor);

Result<GradCheckReport> gradient_check(const Scene& scene, const GradCheckOptions& options = {});

}  // namespace nudge
