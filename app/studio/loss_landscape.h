// The loss around a point of parameter space, for seeing what the optimiser sees: along a
// line (one parameter entry, or the gradient's direction) or over a grid of two parameter
// entries. Computed on a worker thread; partial results are published as they come, so
// the panel fills in while the user watches.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "nudge/scene.h"
#include "nudge/simulator.h"
#include "studio/background_job.h"

namespace nudge::studio {

// One entry of one parameter.
struct ParamEntry {
  ParamId id = ParamId::InitialPosition;
  int index = 0;
  bool operator==(const ParamEntry&) const = default;
};

// An axis of the landscape: offsets `from`..`to` (inclusive, `samples` of them, evenly
// spaced) along a direction in parameter space. A parameter axis moves one entry by the
// offset; the gradient axis moves every optimised entry along the unit vector -g/|g|
// (the gradient at the centre), so offset s > 0 is a step of length s downhill.
struct LandscapeAxis {
  enum class Kind { Parameter, NegativeGradient };
  Kind kind = Kind::Parameter;
  ParamEntry entry;  // for Kind::Parameter
  double from = -1, to = 1;
  int samples = 41;

  double offset(int i) const { return samples > 1 ? from + (to - from) * i / (samples - 1) : from; }
  std::string label() const;  // "stiffness[3]", "along -gradient"
};

struct LandscapeRequest {
  Scene scene;  // the centre: the scene's parameter values
  LandscapeAxis a;
  std::optional<LandscapeAxis> b;  // set: a grid over a (columns) and b (rows)
};

// A parameter axis around `entry`'s current value: +-half its magnitude (+-0.5 when it is
// 0), within its bounds.
LandscapeAxis parameter_axis(const Scene& scene, ParamEntry entry, int samples);

struct LandscapeResult {
  LandscapeRequest request;  // what was asked (the centre's gradient is in request.scene)
  double centre_loss = 0;
  // Directional derivatives of the loss at the centre along a and b (g . d): the slope
  // the panel draws through the centre. For the gradient axis it is -|g|.
  double slope_a = 0, slope_b = 0;
  // loss[row * a.samples + column]; NaN where not computed yet or the rollout failed.
  std::vector<double> loss;
  int computed = 0, failed = 0;
  bool finished = false;
  std::string error;  // the centre (or the whole request) failed; nothing else is valid

  int columns() const { return request.a.samples; }
  int rows() const { return request.b ? request.b->samples : 1; }
};

// The parameters at (offset_a, offset_b): the centre moved along the axes, each entry
// kept within its parameter's bounds as the optimiser keeps its iterates. A gradient
// axis follows the projected gradient stored in request.scene.params (a result's request
// holds the centre's).
ParameterSet landscape_point(const LandscapeRequest& request, double offset_a, double offset_b);

class LossLandscape {
public:
  // Starts computing at once: the centre's loss and gradient first, then every point,
  // row by row. `on_progress` is called on the worker after each point.
  explicit LossLandscape(LandscapeRequest request, std::function<void()> on_progress = {});

  std::shared_ptr<const LandscapeResult> latest() const;  // never null
  const BackgroundJob& job() const { return *job_; }
  void cancel() { job_->cancel(); }

private:
  void compute(BackgroundJob::Control& control, LandscapeRequest request);
  void publish(const LandscapeResult& result);

  mutable std::mutex mutex_;
  std::shared_ptr<const LandscapeResult> latest_;
  std::unique_ptr<BackgroundJob> job_;  // last: its thread uses the members above
};

}  // namespace nudge::studio
