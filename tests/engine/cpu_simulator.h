// What the whole-rollout tests share: a CPU simulator with a chosen thread count and
// checkpointing, and the check that every thread count and checkpointing give the same
// bits.
#pragma once

#include <doctest/doctest.h>

#include <memory>
#include <utility>

#include "nudge/simulator.h"

namespace nudge::test {

inline std::unique_ptr<Simulator> cpu_simulator(const Scene& scene, int threads, int checkpoint_every = -1,
                                                Precision precision = Precision::Float64) {
  SimulatorOptions options;
  options.device = Device::Cpu;
  options.threads = threads;
  options.checkpoint_every = checkpoint_every;
  options.precision = precision;
  Result<std::unique_ptr<Simulator>> sim = Simulator::create(scene, options);
  REQUIRE_MESSAGE(sim.ok(), (sim.ok() ? "" : sim.error().message));
  return std::move(sim.value());
}

// The loss and every gradient on 2 and 8 threads, and checkpointed every 7 or 16 steps,
// are those of one thread storing every state, to the last bit.
inline void check_same_bits(const Scene& scene) {
  ParameterSet reference = scene.params;
  Result<Evaluation> first = cpu_simulator(scene, 1)->gradient(reference);
  REQUIRE(first.ok());
  for (auto [threads, every] : {std::pair{2, -1}, std::pair{8, -1}, std::pair{1, 7}, std::pair{2, 16}}) {
    CAPTURE(threads);
    CAPTURE(every);
    ParameterSet params = scene.params;
    Result<Evaluation> eval = cpu_simulator(scene, threads, every)->gradient(params);
    REQUIRE(eval.ok());
    CHECK(eval->loss == first->loss);
    for (int p = 0; p < kParamCount; ++p) CHECK(params.items[size_t(p)].grad == reference.items[size_t(p)].grad);
  }
}

}  // namespace nudge::test
