// Checks the adjoint gradient against central finite differences, in double precision
// on the CPU (or the GPU, to check the CUDA backend's adjoints), for every parameter (a deterministic sample of entries for large arrays).
#pragma once

#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "nudge/parameters.h"
#include "nudge/result.h"
#include "nudge/scene.h"
#include "nudge/simulator.h"

namespace nudge {

// The default noise floor, relative to the largest |entry| of a parameter's gradient: the
// square root of the machine epsilon of float64, the precision the check runs in. A
// rollout sums thousands of terms of both signs into each entry (every step, every
// element), so an entry's rounding error follows the size of those terms, which the
// gradient's largest entries show, not the entry itself: next to that scale a tiny
// entry is mostly cancellation. Half the digits is the usual allowance for accumulated
// rounding and leaves a margin over what the scenes show (cloth: 5e-10); a wrong term
// larger than 1.5e-8 of the gradient's scale still fails. The scale is per parameter
// because its entries share a unit, while different parameters' do not (dL/dstiffness
// of 1e-5 beside dL/dvelocity of 5).
inline constexpr double kGradCheckNoise = 0x1p-26;
static_assert(kGradCheckNoise * kGradCheckNoise == std::numeric_limits<double>::epsilon());

struct GradCheckOptions {
  int samples_per_parameter = 6;  // arrays with more entries are sampled
  // Largest step h = relative_step * p for a parameter that must be positive, else
  // relative_step * max(|p|, 1); three more, each 10x smaller. A step whose rollouts
  // fail is left out, as long as two adjacent steps run.
  double relative_step = 1e-3;
  double tolerance = 1e-6;  // largest relative error of a resolved entry
  // Rounding noise next to the gradient's scale: adjoint and difference may also differ
  // by noise times the largest |entry| of the parameter's gradient (its noise floor).
  double noise = kGradCheckNoise;
  uint64_t seed = 1;  // which entries are sampled
  int threads = 1;
  Device device = Device::Cpu;      // Cuda checks the GPU's adjoints, still in float64
  std::vector<ParamId> parameters;  // the parameters to check; empty: all
  // Called before the first entry and after each one with (entries done, entries in all);
  // returning false cancels the check (an Error). For a viewer's progress bar.
  std::function<bool(int done, int total)> progress;
};

struct GradCheckEntry {
  ParamId param{};
  int index = 0;  // flat index into the parameter's values
  double value = 0.0;
  double adjoint = 0.0;  // from the backward pass
  double finite_difference = 0.0;
  double relative_error = 0.0;  // |adjoint - fd| / max(|adjoint|, |fd|)
  double uncertainty = 0.0;     // how far the finite difference itself can be trusted
  // How far the adjoint itself moves when every checked value moves by a few units in the
  // last place: the rounding the rollout leaves in this entry (see gradient_check). 0
  // when not measured: only an entry that fails without it is.
  double measured_noise = 0.0;
  bool resolved = false;    // larger than the rounding of the losses lets differences see
  bool verifiable = false;  // the difference is certain to 1 % (or the entry is ~0)
  bool noise = false;       // passed only thanks to the noise floor (reported as rounding noise)
  bool passed = false;      // see judge_gradient_entry
};

// How much of one parameter a check covered: the rest of its entries went unchecked
// because they were not in the sample (GradCheckOptions::samples_per_parameter).
struct GradCheckCoverage {
  ParamId param{};
  int entries = 0;  // in the parameter
  int checked = 0;  // of them, in the check
};

struct GradCheckReport {
  double loss = 0.0;
  std::string device;  // where it ran, as Simulator::device_name says
  std::vector<GradCheckEntry> entries;
  std::vector<GradCheckCoverage> coverage;  // every parameter considered that has entries, in ParamId order
  int unchecked() const;                    // entries of those parameters left out of the sample
  double max_relative_error() const;        // over all entries
  int failed() const;
  int rounding_noise() const;  // entries that passed as rounding noise
};

// Relative error with a floor, for comparisons whose scale is known to the caller.
double gradient_relative_error(double adjoint, double finite_difference, double noise_floor);

// The verdict on one entry whose adjoint, finite_difference and uncertainty are set; fills
// relative_error, resolved, verifiable, noise and passed. With s = max(|adjoint|, |fd|):
// - resolved: s > rounding (the losses' rounding divided by the step);
// - a resolved entry passes when |adjoint - fd| <= tolerance * s + uncertainty + noise_floor
//   and the difference is verifiable: its uncertainty at most 1 % of s, or within the noise
//   floor (a difference less certain than that checks nothing and fails);
// - an unresolved one passes when |adjoint - fd| <= uncertainty + noise_floor (both ~0).
// With a zero noise floor that is the check without it; an entry that passes only with it
// is marked noise. `noise_floor`: GradCheckOptions::noise times the largest |entry| of the
// parameter's gradient.
void judge_gradient_entry(GradCheckEntry& entry, double rounding, double tolerance, double noise_floor);

// The finite difference is the central difference at the step where it is most
// self-consistent: of four steps a decade apart, the adjacent pair that agree best,
// the finer of the two taken, their disagreement its uncertainty. Large steps suffer
// truncation error, small ones rounding error, which long contact-rich rollouts
// amplify by orders of magnitude; no single step suits every parameter of every scene.
// Each entry is then judged by judge_gradient_entry with the parameter's noise floor
// (GradCheckOptions::noise; 0 turns off this and what follows). An entry that fails is
// judged again with the larger of that and 4x its measured rounding: the gradient is
// computed once more with every checked value moved by 4 units in the last place, up and
// down, and how far the entry moves is what rounding in the rollout does to it.
// Near an optimum the gradient is the difference of nearly equal states (a projectile's
// landing point against its target, 1e-13 apart), and that rounding is most of it; the
// entry then passes as rounding noise, which is what it is, instead of failing. The
// measured rounding counts only while it is no larger than the difference (or its
// uncertainty): where 4 ulp swing the adjoint by more than the gradient itself, the
// rollout amplifies rounding (a step too coarse for a stiff force) and the entry fails.
Result<GradCheckReport> gradient_check(const Scene& scene, const GradCheckOptions& options = {});

}  // namespace nudge
