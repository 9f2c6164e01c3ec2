// A long computation off the UI thread (a loss landscape, a gradient check): one worker
// thread runs it, counts its progress, and stops early when cancelled. The UI polls
// done(), total() and finished(); the work publishes its own results.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace nudge::studio {

class BackgroundJob {
public:
  // What the work sees: where to count its progress, and whether to stop.
  class Control {
  public:
    void set_total(int total);
    void set_done(int done);  // also calls the job's on_progress
    bool cancelled() const { return job_.cancelled_.load(); }

  private:
    friend class BackgroundJob;
    explicit Control(BackgroundJob& job) : job_(job) {}
    BackgroundJob& job_;
  };
  using Work = std::function<void(Control&)>;

  // Starts `work` at once on its own thread. `on_progress` is called on that thread after
  // each set_done and when the work returns: to wake a UI that sleeps until an event.
  explicit BackgroundJob(Work work, std::function<void()> on_progress = {});
  ~BackgroundJob();  // cancels, then waits for the work to return
  BackgroundJob(const BackgroundJob&) = delete;
  BackgroundJob& operator=(const BackgroundJob&) = delete;

  void cancel() { cancelled_.store(true); }
  bool cancelled() const { return cancelled_.load(); }
  int done() const { return done_.load(); }
  int total() const { return total_.load(); }
  bool finished() const;
  // Blocks until the work has returned or the timeout passes; says which.
  bool wait(double timeout_seconds) const;

private:
  void run(const Work& work);

  std::function<void()> on_progress_;
  std::atomic<bool> cancelled_{false};
  std::atomic<int> done_{0}, total_{0};
  mutable std::mutex mutex_;
  mutable std::condition_variable finished_changed_;
  bool finished_ = false;
  std::thread thread_;  // last: starts once everything it uses exists
};

}  // namespace nudge::studio
