// Destroys objects on its own thread. The studio's workers (the optimiser's session, a
// loss landscape, a gradient check) stop only at the end of an iteration or sample, and
// their destructors wait for that; handing them here instead lets the UI go on at once
// when a file is opened or the scene is edited while they run.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

namespace nudge::studio {

class Disposer {
public:
  Disposer();
  ~Disposer();  // destroys whatever is still queued, then joins
  Disposer(const Disposer&) = delete;
  Disposer& operator=(const Disposer&) = delete;

  // Takes ownership and destroys `object` soon, on the disposer's thread; null is ignored.
  template <typename T>
  void dispose(std::unique_ptr<T> object) {
    if (object) enqueue(std::shared_ptr<void>(std::move(object)));
  }

  // Objects handed over and not yet destroyed.
  std::size_t pending() const;
  // Blocks until nothing is pending or the timeout passes; says which.
  bool wait_idle(double timeout_seconds) const;

private:
  void enqueue(std::shared_ptr<void> object);
  void run();

  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  std::deque<std::shared_ptr<void>> queue_;
  bool destroying_ = false;  // an object taken from the queue is being destroyed
  bool quit_ = false;
  std::thread thread_;  // last: starts once everything it uses exists
};

}  // namespace nudge::studio
