#include "studio/gradient_check_run.h"

#include <exception>
#include <utility>

namespace nudge::studio {

GradientCheckRun::GradientCheckRun(Scene scene, std::vector<ParamId> parameters, int samples_per_parameter,
                                   std::function<void()> on_progress)
    : outcome_(std::make_shared<const GradientCheckOutcome>()) {
  auto work = [this, scene = std::move(scene), parameters = std::move(parameters),
               samples_per_parameter](BackgroundJob::Control& control) {
    GradCheckOptions options;
    options.parameters = parameters;
    options.samples_per_parameter = samples_per_parameter;
    options.threads = 1;  // the UI keeps a core
    options.progress = [&control](int done, int total) {
      control.set_total(total);
      control.set_done(done);
      return !control.cancelled();
    };
    GradientCheckOutcome outcome;
    try {
      Result<GradCheckReport> report = gradient_check(scene, options);
      if (report)
        outcome.report = std::move(*report);
      else
        outcome.error = report.error().message;
    } catch (const std::exception& e) {  // must not escape the worker thread
      outcome.error = std::string("the gradient check failed: ") + e.what();
    }
    outcome.finished = true;
    auto shared = std::make_shared<const GradientCheckOutcome>(std::move(outcome));
    std::lock_guard lock(mutex_);
    outcome_ = std::move(shared);
  };
  job_ = std::make_unique<BackgroundJob>(std::move(work), std::move(on_progress));
}

std::shared_ptr<const GradientCheckOutcome> GradientCheckRun::outcome() const {
  std::lock_guard lock(mutex_);
  return outcome_;
}

}  // namespace nudge::studio
