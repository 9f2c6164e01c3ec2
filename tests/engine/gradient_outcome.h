// One gradient evaluation's loss and gradients, and the check that two are the same to
// the last bit: for tests that the thread count, checkpointing or a backend change
// nothing.
#pragma once

#include <doctest/doctest.h>

#include <cstring>
#include <vector>

#include "nudge/simulator.h"

namespace nudge::test {

struct Outcome {
  double loss = 0;
  ParameterSet params;  // with their gradients
};

inline Outcome run_gradient(const Scene& scene, const SimulatorOptions& options) {
  auto sim = Simulator::create(scene, options);
  REQUIRE(sim.ok());
  Outcome out{0.0, scene.params};
  Result<Evaluation> eval = (*sim)->gradient(out.params);
  REQUIRE_MESSAGE(eval.ok(), (eval.ok() ? "" : eval.error().message));
  out.loss = eval->loss;
  return out;
}

inline bool bitwise_equal(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

inline void require_bitwise_equal(const Outcome& a, const Outcome& b) {
  CHECK(bitwise_equal(a.loss, b.loss));
  for (int p = 0; p < kParamCount; ++p) {
    const std::vector<double>& ga = a.params.items[p].grad;
    const std::vector<double>& gb = b.params.items[p].grad;
    REQUIRE(ga.size() == gb.size());
    size_t differing = 0;
    for (size_t i = 0; i < ga.size(); ++i) differing += bitwise_equal(ga[i], gb[i]) ? 0 : 1;
    INFO(param_name(static_cast<ParamId>(p)));
    CHECK(differing == 0);
  }
}

}  // namespace nudge::test
