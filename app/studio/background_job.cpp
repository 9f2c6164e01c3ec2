#include "studio/background_job.h"

#include <chrono>
#include <utility>

namespace nudge::studio {

void BackgroundJob::Control::set_total(int total) { job_.total_.store(total); }

void BackgroundJob::Control::set_done(int done) {
  job_.done_.store(done);
  if (job_.on_progress_) job_.on_progress_();
}

BackgroundJob::BackgroundJob(Work work, std::function<void()> on_progress)
    : on_progress_(std::move(on_progress)), thread_([this, w = std::move(work)] { run(w); }) {}

BackgroundJob::~BackgroundJob() {
  cancel();
  thread_.join();
}

bool BackgroundJob::finished() const {
  std::lock_guard lock(mutex_);
  return finished_;
}

bool BackgroundJob::wait(double timeout_seconds) const {
  std::unique_lock lock(mutex_);
  return finished_changed_.wait_for(lock, std::chrono::duration<double>(timeout_seconds), [this] { return finished_; });
}

void BackgroundJob::run(const Work& work) {
  Control control(*this);
  work(control);
  {
    std::lock_guard lock(mutex_);
    finished_ = true;
  }
  finished_changed_.notify_all();
  if (on_progress_) on_progress_();
}

}  // namespace nudge::studio
