#include <doctest/doctest.h>

#include <atomic>
#include <future>
#include <memory>
#include <thread>
#include <vector>

#include "studio/disposer.h"
#include "studio/optimization_session.h"
#include "studio_test_scenes.h"

namespace {

// Its destructor waits until the test lets it go, as a worker waits for its iteration.
struct SlowToStop {
  SlowToStop(std::shared_future<void> r, std::atomic<int>* d) : release(std::move(r)), destroyed(d) {}
  std::shared_future<void> release;
  std::atomic<int>* destroyed;
  ~SlowToStop() {
    release.wait();
    destroyed->fetch_add(1);
  }
};

}  // namespace

TEST_CASE("the disposer destroys objects on its own thread, without the caller waiting") {
  std::promise<void> release;
  std::atomic<int> destroyed{0};
  nudge::studio::Disposer disposer;
  const std::thread::id caller = std::this_thread::get_id();
  disposer.dispose(std::make_unique<SlowToStop>(release.get_future().share(), &destroyed));
  // Had dispose() run the destructor here, the test would never get past the line above.
  CHECK(destroyed.load() == 0);
  CHECK(disposer.pending() == 1);
  std::thread::id destroyer;
  struct RecordsThread {
    explicit RecordsThread(std::thread::id* w) : where(w) {}
    std::thread::id* where;
    ~RecordsThread() { *where = std::this_thread::get_id(); }
  };
  disposer.dispose(std::make_unique<RecordsThread>(&destroyer));
  disposer.dispose(std::unique_ptr<int>());  // null: ignored
  release.set_value();
  REQUIRE(disposer.wait_idle(30));
  CHECK(destroyed.load() == 1);
  CHECK(disposer.pending() == 0);
  CHECK(destroyer != caller);
  CHECK(destroyer != std::thread::id());
}

TEST_CASE("a disposer destroys what is still queued when it goes") {
  std::atomic<int> destroyed{0};
  std::promise<void> release;
  const std::shared_future<void> released = release.get_future().share();
  release.set_value();
  {
    nudge::studio::Disposer disposer;
    for (int k = 0; k < 5; ++k) disposer.dispose(std::make_unique<SlowToStop>(released, &destroyed));
  }
  CHECK(destroyed.load() == 5);
}

TEST_CASE("a running optimisation handed to the disposer stops without the caller joining it") {
  using namespace nudge;
  auto session = std::make_unique<studio::OptimizationSession>(studio_test::load_example("projectile"));
  session->start();
  REQUIRE(session->wait_for([](const studio::OptimizationSnapshot& s) { return s.iteration >= 1; },
                            studio_test::kTimeoutSeconds));
  studio::Disposer disposer;
  disposer.dispose(std::move(session));
  CHECK(session == nullptr);
  CHECK(disposer.wait_idle(studio_test::kTimeoutSeconds));
}
