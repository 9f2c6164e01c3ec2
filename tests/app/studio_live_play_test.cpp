// Live play in the studio (studio/live_play.h): the time it runs for a frame, the budget
// that keeps the window responsive, a blow-up reported once, and the contacts of a
// recorded motion at the play head.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>

#include "nudge/simulator.h"
#include "studio/live_play.h"
#include "studio_test_scenes.h"

using namespace nudge;
using namespace nudge::studio;
using nudge::studio_test::exploding_scene;
using nudge::studio_test::load_example;

namespace {

std::shared_ptr<const RolloutResult> motion_of(const Scene& scene) {
  SimulatorOptions options;
  options.device = Device::Cpu;
  options.threads = 1;
  Result<std::unique_ptr<Simulator>> sim = Simulator::create(scene, options);
  REQUIRE(sim.ok());
  Result<Trajectory> traj = sim.value()->trajectory(scene.params);
  REQUIRE_MESSAGE(traj.ok(), (traj.ok() ? "" : traj.error().message));
  auto result = std::make_shared<RolloutResult>();
  result->scene = scene;
  result->trajectory = std::move(traj.value());
  return result;
}

std::unique_ptr<LivePlay> started(std::shared_ptr<const RolloutResult> motion, int frame) {
  Result<std::unique_ptr<LivePlay>> play = LivePlay::start(std::move(motion), frame);
  REQUIRE_MESSAGE(play.ok(), (play.ok() ? "" : play.error().message));
  return std::move(play.value());
}

}  // namespace

TEST_CASE("live play: a frame's wall time times the speed, in steps, continuing the recorded motion") {
  const std::shared_ptr<const RolloutResult> motion = motion_of(load_example("billiards"));  // dt 1 ms
  std::unique_ptr<LivePlay> play = started(motion, 300);
  CHECK(play->step_index() == 300);
  REQUIRE(play->advance(0.1, 1.0, 60.0).ok());
  CHECK(play->step_index() == 400);
  CHECK(play->real_time_factor() == doctest::Approx(1.0).epsilon(0.011));
  const Trajectory& recorded = motion->trajectory;
  const size_t values = 3 * size_t(recorded.bodies);
  for (size_t k = 0; k < values; ++k) CHECK(play->state().body_x[k] == recorded.body_x[400 * values + k]);
  REQUIRE(play->advance(0.05, 2.0, 60.0).ok());
  CHECK(play->step_index() == 500);
  // No time asked, no step.
  REQUIRE(play->advance(0.0, 1.0, 60.0).ok());
  CHECK(play->step_index() == 500);
}

TEST_CASE("live play: out of computing budget it plays slower rather than falling behind") {
  std::unique_ptr<LivePlay> play = started(motion_of(load_example("billiards")), 0);
  REQUIRE(play->advance(1.0, 1.0, 0.0).ok());  // a second asked, no time to compute it
  CHECK(play->step_index() >= 1);
  CHECK(play->step_index() <= 8);  // the clock is read every 8 steps
  CHECK(play->real_time_factor() < 0.01);
  REQUIRE(play->advance(0.001, 1.0, 60.0).ok());  // what was dropped is not owed
  CHECK(play->step_index() <= 9);
}

TEST_CASE("live play: a step that blows up stops it with the engine's message, once") {
  Scene scene = exploding_scene();
  scene.settings.steps = 1;  // the recorded motion is one step: still finite
  shape_parameters(scene);
  std::unique_ptr<LivePlay> play = started(motion_of(scene), 1);
  const Status first = play->advance(10.0, 1.0, 60.0);
  REQUIRE(!first.ok());
  CHECK(first.error().message.find("non-finite") != std::string::npos);
  CHECK(play->failure() == first.error().message);
  const int at = play->step_index();
  CHECK(!play->advance(1.0, 1.0, 60.0).ok());
  CHECK(play->step_index() == at);
}

TEST_CASE("live play: errors for what cannot be, and the hand's settings kept") {
  CHECK(!LivePlay::start(nullptr, 0).ok());
  auto failed = std::make_shared<RolloutResult>();
  failed->error = "blew up";
  CHECK(!LivePlay::start(failed, 0).ok());
  std::unique_ptr<LivePlay> play = started(motion_of(load_example("mass_spring_robot2")), 0);
  REQUIRE(play->held().size() == size_t(play->scene().channels));
  REQUIRE(play->hold(1, 0.5).ok());
  CHECK(play->held()[1] == 0.5);
  CHECK(!play->hold(play->scene().channels, 0.5).ok());
  CHECK(!play->hold(0, std::nan("")).ok());
  CHECK(!play->held()[0].has_value());
  Pull pull;
  pull.index = play->scene().particle_count();
  CHECK(!play->pull(pull).ok());
  CHECK(!play->pulled().has_value());
  pull.index = 0;
  REQUIRE(play->pull(pull).ok());
  CHECK(play->pulled().has_value());
}

TEST_CASE("contact probe: the recorded motion's contacts at a frame, as live play finds them there") {
  const std::shared_ptr<const RolloutResult> motion = motion_of(load_example("billiards"));
  ContactProbe probe;
  const std::vector<Contact> at_frame = probe.at(motion, 0);
  CHECK(probe.error().empty());
  REQUIRE(at_frame.size() == 2);  // both balls on the cloth
  std::unique_ptr<LivePlay> play = started(motion, 0);
  const std::vector<Contact> live = play->contacts();
  REQUIRE(live.size() == at_frame.size());
  for (size_t k = 0; k < live.size(); ++k) {
    CHECK(live[k].kind == at_frame[k].kind);
    for (int c = 0; c < 3; ++c) CHECK(live[k].force[size_t(c)] == at_frame[k].force[size_t(c)]);
  }
  // Another frame, then another motion: answered afresh.
  CHECK(probe.at(motion, 10).size() == 2);
  const std::shared_ptr<const RolloutResult> other = motion_of(load_example("projectile"));
  CHECK(probe.at(other, 0).empty());
}
