// The rollout worker on real scenes: its trajectory is the simulator's to the last bit,
// requests made while it is busy coalesce to the newest, a blow-up is reported rather
// than crashing, and destroying it while busy returns.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "nudge/simulator.h"
#include "studio/rollout_worker.h"
#include "studio_test_scenes.h"

using namespace nudge;
using namespace nudge::studio;
using nudge::studio_test::exploding_scene;
using nudge::studio_test::kTimeoutSeconds;
using nudge::studio_test::load_example;

namespace {

// Records what the worker publishes, in order, from its thread.
struct Published {
  std::mutex mutex;
  std::vector<std::uint64_t> generations;
  RolloutWorker::PublishCallback callback() {
    return [this](const RolloutResult& result) {
      std::lock_guard lock(mutex);
      generations.push_back(result.generation);
    };
  }
  std::vector<std::uint64_t> seen() {
    std::lock_guard lock(mutex);
    return generations;
  }
};

}  // namespace

TEST_CASE("rollout worker: the trajectory and loss are the simulator's, bit for bit") {
  const Scene scene = load_example("projectile");
  auto simulator = Simulator::create(scene, rollout_simulator_options());
  REQUIRE(simulator.ok());
  Result<Trajectory> direct = (*simulator)->trajectory(scene.params);
  REQUIRE(direct.ok());
  Result<Evaluation> direct_loss = (*simulator)->evaluate(scene.params);
  REQUIRE(direct_loss.ok());

  RolloutWorker worker;
  CHECK(worker.latest() == nullptr);
  CHECK_FALSE(worker.busy());
  const std::uint64_t generation = worker.request(scene);
  CHECK(generation >= 1);
  REQUIRE(worker.wait_until_idle(kTimeoutSeconds));
  CHECK_FALSE(worker.busy());

  const std::shared_ptr<const RolloutResult> result = worker.latest();
  REQUIRE(result != nullptr);
  INFO(result->error);
  REQUIRE(result->ok());
  CHECK(result->generation == generation);
  CHECK(result->scene.name == "projectile");
  CHECK(result->trajectory.steps == direct->steps);
  CHECK(result->trajectory.particles == direct->particles);
  CHECK(result->trajectory.dt == direct->dt);
  CHECK(result->trajectory.x == direct->x);  // the same numbers, not just close ones
  CHECK(result->trajectory.v == direct->v);
  CHECK(result->evaluation.loss == direct_loss->loss);
  CHECK(result->evaluation.term_loss == direct_loss->term_loss);
  CHECK(result->seconds > 0.0);
}

TEST_CASE("rollout worker: a motion whose step is too coarse for a force says so") {
  // The new scene's landing at the engine's default friction smoothing (1 cm/s): its
  // gradient blew up; at the new scene's own 0.1 m/s it does not.
  Scene scene = load_example("projectile");
  RolloutWorker worker;
  worker.request(scene);
  REQUIRE(worker.wait_until_idle(kTimeoutSeconds));
  CHECK(worker.latest()->unstable.empty());  // no ground, no springs

  scene.settings.ground.enabled = true;
  scene.settings.ground.damping = 100;
  scene.settings.ground.friction_smoothing = 0.01;
  scene.params[ParamId::Drag].value = {0.0};
  scene.params[ParamId::InitialVelocity].value = {0, 0, 0};
  worker.request(scene);
  REQUIRE(worker.wait_until_idle(kTimeoutSeconds));
  const std::shared_ptr<const RolloutResult> result = worker.latest();
  REQUIRE(result->ok());
  REQUIRE(result->unstable.size() >= 1);
  CHECK(result->unstable[0].force == "ground friction");
}

TEST_CASE("rollout worker: requests made while it is busy coalesce to the newest") {
  // The first result's callback holds the worker (busy, between publishing and taking the
  // next request) until the second and third requests are in: the third must replace the
  // second, which never runs.
  std::promise<void> first_published, requests_made;
  std::shared_future<void> go_on = requests_made.get_future().share();
  std::vector<std::uint64_t> seen;  // written only by the worker thread, read after it is idle
  RolloutWorker worker([&](const RolloutResult& result) {
    seen.push_back(result.generation);
    if (seen.size() == 1) {
      first_published.set_value();
      go_on.wait();
    }
  });
  Scene scene = load_example("projectile");
  std::vector<std::uint64_t> generations;
  std::future<void> first = first_published.get_future();
  for (int k = 0; k < 3; ++k) {
    scene.params[ParamId::InitialVelocity].value[0] = 1.0 + k;  // tell the requests apart
    generations.push_back(worker.request(scene));
    if (k == 0) first.wait();
    CHECK(worker.busy());
  }
  requests_made.set_value();
  CHECK(generations[0] < generations[1]);
  CHECK(generations[1] < generations[2]);
  REQUIRE(worker.wait_until_idle(kTimeoutSeconds));

  CHECK(seen == std::vector<std::uint64_t>{generations[0], generations[2]});
  const auto result = worker.latest();
  REQUIRE(result != nullptr);
  REQUIRE(result->ok());
  CHECK(result->generation == generations[2]);
  CHECK(result->scene.params[ParamId::InitialVelocity].value[0] == 3.0);
  CHECK(result->trajectory.v[0] == 3.0);  // state 0 of the newest scene

  // A request after going idle runs too, with a newer generation.
  const std::uint64_t later = worker.request(load_example("projectile"));
  CHECK(later > generations[2]);
  REQUIRE(worker.wait_until_idle(kTimeoutSeconds));
  CHECK(worker.latest()->generation == later);
  CHECK(seen.back() == later);
}

TEST_CASE("rollout worker: requests in quick succession end with the newest published") {
  RolloutWorker worker;
  Scene scene = load_example("walker");
  std::uint64_t newest = 0;
  for (int k = 0; k < 3; ++k) {
    scene.params[ParamId::InitialVelocity].value[0] = 0.1 * (k + 1);
    newest = worker.request(scene);
  }
  REQUIRE(worker.wait_until_idle(kTimeoutSeconds));
  const auto result = worker.latest();
  REQUIRE(result != nullptr);
  REQUIRE(result->ok());
  CHECK(result->generation == newest);
  CHECK(result->trajectory.v[0] == doctest::Approx(0.3));
}

TEST_CASE("rollout worker: a blow-up is published as an error that names the step") {
  Published published;
  RolloutWorker worker(published.callback());
  const std::uint64_t generation = worker.request(exploding_scene());
  REQUIRE(worker.wait_until_idle(kTimeoutSeconds));
  const auto failed = worker.latest();
  REQUIRE(failed != nullptr);
  CHECK(failed->generation == generation);
  REQUIRE_FALSE(failed->ok());
  INFO(failed->error);
  CHECK(failed->error.find("non-finite") != std::string::npos);
  CHECK(failed->error.find("at step ") != std::string::npos);
  CHECK(failed->trajectory.x.empty());
  CHECK(failed->scene.name == "exploding");  // the GUI can still draw the initial state
  CHECK(published.seen() == std::vector<std::uint64_t>{generation});

  // An invalid scene is an error too, with check_scene's message.
  Scene invalid = load_example("projectile");
  invalid.params[ParamId::Mass].value[0] = -1.0;
  worker.request(invalid);
  REQUIRE(worker.wait_until_idle(kTimeoutSeconds));
  REQUIRE_FALSE(worker.latest()->ok());
  CHECK(worker.latest()->error == check_scene(invalid).error().message);

  // The worker lives on.
  worker.request(load_example("projectile"));
  REQUIRE(worker.wait_until_idle(kTimeoutSeconds));
  CHECK(worker.latest()->ok());
}

TEST_CASE("rollout worker: destroying it while busy returns") {
  std::atomic<bool> destroyed{false};
  auto worker = std::make_unique<RolloutWorker>();
  const Scene cloth = load_example("cloth");  // tens of milliseconds a rollout
  worker->request(cloth);
  worker->request(cloth);  // waiting behind the first: dropped, not run
  CHECK(worker->busy());
  // Destroyed on another thread so that a hang fails this test instead of stalling it.
  std::thread destroyer([&worker, &destroyed] {
    worker.reset();
    destroyed = true;
  });
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(kTimeoutSeconds);
  while (!destroyed && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  REQUIRE_MESSAGE(destroyed.load(), "~RolloutWorker did not return");
  destroyer.join();
}
