// Rollout properties that must hold bit for bit: checkpointing recomputes exactly what
// storing every state keeps, and the CPU result does not depend on the thread count.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "cloth_benchmark.h"
#include "gradient_outcome.h"
#include "nudge/simulator.h"
#include "test_scenes.h"

using namespace nudge;

using test::Outcome;
using test::require_bitwise_equal;
using test::run_gradient;

TEST_CASE("rollout: checkpointed gradients equal stored gradients to the last bit") {
  for (Precision precision : {Precision::Float64, Precision::Float32}) {
    const Scene scene = test::make_feature_scene(61);
    SimulatorOptions options;
    options.device = Device::Cpu;
    options.precision = precision;
    options.checkpoint_every = 0;
    const Outcome stored = run_gradient(scene, options);
    for (int k : {1, 7, 16, 60}) {  // 61 steps: ragged last segments included
      CAPTURE(k);
      options.checkpoint_every = k;
      require_bitwise_equal(stored, run_gradient(scene, options));
    }
  }
}

TEST_CASE("rollout: over the stored-state budget it checkpoints every ceil(sqrt T)-th state, with the same gradients") {
  const Scene scene = test::make_feature_scene(61);
  SimulatorOptions options;
  options.device = Device::Cpu;
  options.checkpoint_every = 0;
  auto stores_all = Simulator::create(scene, options);
  REQUIRE(stores_all.ok());
  CHECK((*stores_all)->checkpoint_every() == 0);
  CHECK((*stores_all)->notice().find("storing") == std::string::npos);
  const Outcome stored = run_gradient(scene, options);

  options.stored_state_budget = 1000;  // bytes: far less than 62 states of this scene
  auto budgeted = Simulator::create(scene, options);
  REQUIRE(budgeted.ok());
  CHECK((*budgeted)->checkpoint_every() == 8);  // ceil(sqrt(61))
  CHECK((*budgeted)->notice().find("storing one state in every 8 and recomputing the rest") != std::string::npos);
  require_bitwise_equal(stored, run_gradient(scene, options));

  options.checkpoint_every = 5;  // a chosen interval is kept even over the budget
  auto chosen = Simulator::create(scene, options);
  REQUIRE(chosen.ok());
  CHECK((*chosen)->checkpoint_every() == 5);
}

TEST_CASE("rollout: results are bitwise equal with 1, 2 and 8 threads") {
  // The cloth is large enough that every kernel is split across threads; the lattice
  // mixes runs of springs with loose ones.
  for (const Scene& scene : {make_cloth_scene(40, 40), test::make_lattice_scene(8, 40, 60)}) {
    CAPTURE(scene.name);
    for (Precision precision : {Precision::Float32, Precision::Float64}) {
      SimulatorOptions options;
      options.device = Device::Cpu;
      options.precision = precision;
      options.threads = 1;
      const Outcome one = run_gradient(scene, options);
      for (int threads : {2, 8}) {
        CAPTURE(threads);
        options.threads = threads;
        require_bitwise_equal(one, run_gradient(scene, options));
      }
    }
  }
}

TEST_CASE("rollout: float32 and float64 agree on a well-conditioned scene") {
  const Scene scene = make_cloth_scene(12, 200);
  SimulatorOptions options;
  options.device = Device::Cpu;
  options.precision = Precision::Float64;
  const Outcome d = run_gradient(scene, options);
  options.precision = Precision::Float32;
  const Outcome f = run_gradient(scene, options);
  CHECK(f.loss == doctest::Approx(d.loss).epsilon(1e-5));
  const auto& gd = d.params[ParamId::Stiffness].grad;
  const auto& gf = f.params[ParamId::Stiffness].grad;
  double diff = 0, norm = 0;
  for (size_t i = 0; i < gd.size(); ++i) diff += (gd[i] - gf[i]) * (gd[i] - gf[i]), norm += gd[i] * gd[i];
  CHECK(std::sqrt(diff / norm) < 1e-3);
}

TEST_CASE("rollout: a blow-up stops with the step and particle named") {
  Scene scene = test::make_feature_scene(60);
  scene.objectives.clear();                         // so that a shorter rollout stays a valid scene
  scene.params[ParamId::Stiffness].value[2] = 1e9;  // far too stiff for dt = 2 ms
  for (int k : {0, 8}) {
    CAPTURE(k);
    SimulatorOptions options;
    options.device = Device::Cpu;
    options.checkpoint_every = k;
    auto sim = Simulator::create(scene, options);
    REQUIRE(sim.ok());
    ParameterSet params = scene.params;
    Result<Evaluation> eval = (*sim)->gradient(params);
    REQUIRE_FALSE(eval.ok());
    const std::string& message = eval.error().message;
    INFO(message);
    CHECK(message.find("non-finite") != std::string::npos);
    CHECK(message.find("particle ") != std::string::npos);
    // The named step is the first bad one: one step fewer runs clean.
    const size_t at = message.find("at step ");
    REQUIRE(at != std::string::npos);
    const int step = std::stoi(message.substr(at + 8));
    CHECK(step >= 1);
    Scene shorter = scene;
    shorter.settings.steps = step - 1;
    shorter.params[ParamId::Controls].value.resize(size_t(shorter.settings.steps) * shorter.channels);
    shape_parameters(shorter);
    auto short_sim = Simulator::create(shorter, options);
    REQUIRE(short_sim.ok());
    CHECK((*short_sim)->evaluate(shorter.params).ok());
  }
}
