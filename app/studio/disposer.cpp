#include "studio/disposer.h"

#include <chrono>

namespace nudge::studio {

Disposer::Disposer() : thread_([this] { run(); }) {}

Disposer::~Disposer() {
  {
    std::lock_guard lock(mutex_);
    quit_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

void Disposer::enqueue(std::shared_ptr<void> object) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(std::move(object));
  }
  changed_.notify_all();
}

std::size_t Disposer::pending() const {
  std::lock_guard lock(mutex_);
  return queue_.size() + (destroying_ ? 1 : 0);
}

bool Disposer::wait_idle(double timeout_seconds) const {
  std::unique_lock lock(mutex_);
  return changed_.wait_for(lock, std::chrono::duration<double>(timeout_seconds),
                           [&] { return queue_.empty() && !destroying_; });
}

void Disposer::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [&] { return quit_ || !queue_.empty(); });
    if (queue_.empty()) return;  // quit, and everything handed over is gone
    std::shared_ptr<void> object = std::move(queue_.front());
    queue_.pop_front();
    destroying_ = true;
    lock.unlock();
    object.reset();  // the destructor may wait for its worker: not under the lock
    lock.lock();
    destroying_ = false;
    changed_.notify_all();
  }
}

}  // namespace nudge::studio
