// The studio's optimisation controller driven as the optimiser panel drives it: start,
// iterations, pause, step, reset, on the projectile and the walker. Snapshots must agree
// with the engine run directly, pausing must not change the sequence of iterates, and a
// reset must restore the start exactly.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <thread>

#include "nudge/scene.h"
#include "nudge/simulator.h"
#include "studio/optimization_session.h"
#include "studio/rollout_worker.h"
#include "studio_test_scenes.h"

using namespace nudge;
using namespace nudge::studio;
using nudge::studio_test::exploding_scene;
using nudge::studio_test::kTimeoutSeconds;
using nudge::studio_test::load_example;

namespace {

bool same_values(const ParameterSet& a, const ParameterSet& b) {
  for (int p = 0; p < kParamCount; ++p)
    if (a.items[size_t(p)].value != b.items[size_t(p)].value) return false;
  return true;
}

// The snapshot's loss and motion are what the engine gives for its parameters.
void check_consistent(const OptimizationSnapshot& s) {
  CHECK(s.loss_history.size() == size_t(s.iteration) + 1);
  CHECK(s.grad_norm_history.size() == size_t(s.iteration) + 1);
  CHECK(s.loss_history.back() == s.loss);
  Result<std::unique_ptr<Simulator>> sim = Simulator::create(s.scene, rollout_simulator_options());
  REQUIRE(sim.ok());
  ParameterSet params = s.scene.params;
  Result<Evaluation> evaluation = (*sim)->gradient(params);
  REQUIRE(evaluation.ok());
  CHECK(evaluation->loss == s.loss);
  CHECK(evaluation->term_loss == s.term_loss);
  for (int p = 0; p < kParamCount; ++p) CHECK(params.items[size_t(p)].grad == s.scene.params.items[size_t(p)].grad);
  Result<Trajectory> trajectory = (*sim)->trajectory(params);
  REQUIRE(trajectory.ok());
  CHECK(trajectory->x == s.trajectory.x);
}

// Adam with small steps and no tolerance: it runs exactly `iterations` unless stopped.
OptimizerSettings small_adam_steps(const Scene& scene, int iterations) {
  OptimizerSettings settings = scene.optimizer;
  settings.method = OptimizerMethod::Adam;
  settings.learning_rate = 1e-3;
  settings.iterations = iterations;
  settings.tolerance = 0;
  settings.loss_tolerance = 0;
  return settings;
}

}  // namespace

TEST_CASE("optimization session: start, pause, step, reset on the projectile") {
  const Scene scene = load_example("projectile");
  // Small steps: it does not converge within the test. Far more iterations than the test
  // lets it run: it is paused long before.
  const OptimizerSettings settings = small_adam_steps(scene, 10000000);
  OptimizationSession session(scene);
  session.set_settings(settings);

  REQUIRE(session.wait_for([](const OptimizationSnapshot& s) { return s.iteration == 0; }, kTimeoutSeconds));
  const std::shared_ptr<const OptimizationSnapshot> start = session.latest();
  REQUIRE(start);
  CHECK(start->state == RunState::Ready);
  CHECK(start->iteration == 0);
  CHECK(start->message.empty());
  CHECK(session.initial() == start);
  check_consistent(*start);

  session.start();
  REQUIRE(session.wait_for([](const OptimizationSnapshot& s) { return s.iteration >= 5; }, kTimeoutSeconds));
  session.pause();
  const bool paused_in_time =
      session.wait_for([](const OptimizationSnapshot& s) { return s.state == RunState::Paused; }, kTimeoutSeconds);
  INFO("latest: " << run_state_name(session.latest()->state) << ", iteration " << session.latest()->iteration << ", "
                  << session.latest()->message);
  REQUIRE(paused_in_time);
  const std::shared_ptr<const OptimizationSnapshot> paused = session.latest();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  CHECK(session.latest() == paused);  // nothing runs while paused
  CHECK(session.state() == RunState::Paused);
  CHECK(paused->loss < start->loss);  // the loss falls
  check_consistent(*paused);

  session.step();
  const int k = paused->iteration;
  REQUIRE(session.wait_for(
      [&](const OptimizationSnapshot& s) { return s.iteration == k + 1 && s.state == RunState::Paused; },
      kTimeoutSeconds));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  CHECK(session.latest()->iteration == k + 1);  // one step, then paused again
  check_consistent(*session.latest());

  session.reset();
  REQUIRE(session.wait_for([](const OptimizationSnapshot& s) { return s.state == RunState::Ready && s.iteration == 0; },
                           kTimeoutSeconds));
  const std::shared_ptr<const OptimizationSnapshot> again = session.latest();
  CHECK(session.initial() == again);
  CHECK(same_values(again->scene.params, scene.params));  // the start, exactly
  CHECK(again->loss == start->loss);
  CHECK(again->loss_history == start->loss_history);
  CHECK(again->trajectory.x == start->trajectory.x);
}

TEST_CASE("optimization session: pausing does not change the iterates; a run finishes at its iteration count") {
  const Scene scene = load_example("projectile");
  const OptimizerSettings settings = small_adam_steps(scene, 12);
  OptimizationSession session(scene);
  session.set_settings(settings);

  session.start();
  REQUIRE(
      session.wait_for([](const OptimizationSnapshot& s) { return s.state == RunState::Finished; }, kTimeoutSeconds));
  const std::shared_ptr<const OptimizationSnapshot> straight = session.latest();
  CHECK(straight->iteration == 12);
  CHECK(straight->message.find("iterations") != std::string::npos);

  // The same run again, paused and stepped along the way: the same losses, bit for bit.
  session.reset();
  REQUIRE(session.wait_for([](const OptimizationSnapshot& s) { return s.state == RunState::Ready; }, kTimeoutSeconds));
  for (int i = 1; i <= 3; ++i) {
    session.step();
    REQUIRE(
        session.wait_for([&](const OptimizationSnapshot& s) { return s.iteration == i && s.state == RunState::Paused; },
                         kTimeoutSeconds));
  }
  session.start();
  REQUIRE(
      session.wait_for([](const OptimizationSnapshot& s) { return s.state == RunState::Finished; }, kTimeoutSeconds));
  const std::shared_ptr<const OptimizationSnapshot> stepped = session.latest();
  CHECK(stepped->loss_history == straight->loss_history);
  CHECK(same_values(stepped->scene.params, straight->scene.params));
}

TEST_CASE("optimization session: the walker travels further after a few iterations") {
  const Scene scene = load_example("walker");
  OptimizerSettings settings = scene.optimizer;
  settings.iterations = 6;
  OptimizationSession session(scene);
  session.set_settings(settings);
  session.start();  // before the start is evaluated: it runs once it is
  REQUIRE(session.wait_for([](const OptimizationSnapshot& s) { return s.iteration == 0; }, kTimeoutSeconds));
  const double start_loss = session.latest()->loss;
  REQUIRE(
      session.wait_for([](const OptimizationSnapshot& s) { return s.state == RunState::Finished; }, kTimeoutSeconds));
  const std::shared_ptr<const OptimizationSnapshot> done = session.latest();
  CHECK(done->iteration == 6);
  CHECK(done->loss < start_loss);
  check_consistent(*done);
}

TEST_CASE("optimization session: CMA-ES counts its simulations; its iterates are shown with their gradients") {
  const Scene scene = load_example("projectile");
  OptimizerSettings settings = scene.optimizer;
  settings.method = OptimizerMethod::CMAES;
  settings.iterations = 15;
  settings.loss_tolerance = 0;
  const int population = 4 + 3;  // the default 4 + floor(3 ln 3) for the 3 launch velocities
  OptimizationSession session(scene);
  session.set_settings(settings);
  REQUIRE(session.wait_for([](const OptimizationSnapshot& s) { return s.iteration == 0; }, kTimeoutSeconds));
  const double start_loss = session.latest()->loss;

  session.step();
  REQUIRE(session.wait_for(
      [](const OptimizationSnapshot& s) { return s.iteration == 1 && s.state == RunState::Paused; }, kTimeoutSeconds));
  const std::shared_ptr<const OptimizationSnapshot> first = session.latest();
  CHECK(first->evaluations == 1 + population);
  CHECK(std::isnan(first->grad_norm));
  // The iterate is shown with the engine's gradient at its point (for the overlays), which
  // the method itself never asked for: it is not among the evaluations counted above.
  Result<std::unique_ptr<Simulator>> sim = Simulator::create(first->scene, rollout_simulator_options());
  REQUIRE(sim.ok());
  ParameterSet params = first->scene.params;
  Result<Evaluation> evaluation = (*sim)->gradient(params);
  REQUIRE(evaluation.ok());
  CHECK(evaluation->loss == first->loss);
  CHECK(evaluation->term_loss == first->term_loss);
  for (int p = 0; p < kParamCount; ++p)
    CHECK(params.items[size_t(p)].grad == first->scene.params.items[size_t(p)].grad);

  session.start();
  REQUIRE(
      session.wait_for([](const OptimizationSnapshot& s) { return s.state == RunState::Finished; }, kTimeoutSeconds));
  const std::shared_ptr<const OptimizationSnapshot> done = session.latest();
  CHECK(done->iteration == 15);
  CHECK(done->evaluations == 1 + 15 * population);
  CHECK(done->loss < start_loss);
  REQUIRE(done->grad_norm_history.size() == 16);
  for (size_t k = 1; k < done->grad_norm_history.size(); ++k) CHECK(std::isnan(done->grad_norm_history[k]));
}

TEST_CASE("optimization session: a scene whose start blows up reports it and does not run") {
  Scene scene = exploding_scene();
  scene.params[ParamId::InitialVelocity].optimize = true;
  OptimizationSession session(scene);
  REQUIRE(session.wait_for([](const OptimizationSnapshot&) { return true; }, kTimeoutSeconds));
  const std::shared_ptr<const OptimizationSnapshot> first = session.latest();
  CHECK(first->state == RunState::Finished);
  CHECK(first->message.find("non-finite") != std::string::npos);
  CHECK(first->failed);
  session.start();
  session.step();
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  CHECK(session.latest() == first);  // nothing ran
}

TEST_CASE("optimization session: an edit while running stops the run, moves the iterate, and a start resumes from it") {
  const Scene scene = load_example("projectile");
  const OptimizerSettings settings = small_adam_steps(scene, 10000000);
  OptimizationSession session(scene);
  session.set_settings(settings);
  session.start();
  REQUIRE(session.wait_for([](const OptimizationSnapshot& s) { return s.iteration >= 3; }, kTimeoutSeconds));

  ParameterSet edited = session.latest()->scene.params;
  edited[ParamId::InitialVelocity].value[0] += 0.5;   // by hand, mid-run
  edited[ParamId::InitialVelocity].optimize = false;  // flags and bounds are not the edit's to change
  session.edit(edited);
  REQUIRE(session.wait_for([](const OptimizationSnapshot& s) { return s.message.find("edited") != std::string::npos; },
                           kTimeoutSeconds));
  const std::shared_ptr<const OptimizationSnapshot> after = session.latest();
  CHECK(after->state == RunState::Ready);
  CHECK(!after->failed);
  CHECK(session.state() == RunState::Ready);
  CHECK(after->scene.params[ParamId::InitialVelocity].value == edited[ParamId::InitialVelocity].value);
  CHECK(after->scene.params[ParamId::InitialVelocity].optimize);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  CHECK(session.latest() == after);  // the run ended: nothing more comes
  // The snapshot is the engine's evaluation of the edited values.
  Result<std::unique_ptr<Simulator>> sim = Simulator::create(scene, rollout_simulator_options());
  REQUIRE(sim.ok());
  ParameterSet params = after->scene.params;
  Result<Evaluation> evaluation = (*sim)->gradient(params);
  REQUIRE(evaluation.ok());
  CHECK(evaluation->loss == after->loss);
  Result<Trajectory> trajectory = (*sim)->trajectory(params);
  REQUIRE(trajectory.ok());
  CHECK(trajectory->x == after->trajectory.x);
  CHECK(after->loss_history.size() == size_t(after->iteration) + 1);  // the history is kept

  // Start resumes from the edited point: the next iterate is one optimiser step from it.
  const int k = after->iteration;
  session.step();
  REQUIRE(session.wait_for(
      [&](const OptimizationSnapshot& s) { return s.iteration == k + 1 && s.state == RunState::Paused; },
      kTimeoutSeconds));
  const auto next = session.latest();
  double moved = 0;
  for (int i = 0; i < 3; ++i)
    moved = std::max(moved, std::fabs(next->scene.params[ParamId::InitialVelocity].value[size_t(i)] -
                                      edited[ParamId::InitialVelocity].value[size_t(i)]));
  CHECK(moved > 0);
  CHECK(moved <= 1.5e-3);  // one Adam step of 1e-3 per component (plus rounding) from the edit
  CHECK(next->loss < after->loss);
}
