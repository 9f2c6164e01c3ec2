// What the rigid-body kernel tests share: a body state's 13 numbers by index, random
// states and vectors, and the adjoint-against-difference comparison.
#pragma once

#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "families/bodies/body_step.h"
#include "nudge/gradcheck.h"
#include "nudge/scene.h"

namespace nudge::test {

using V = Vec3<double>;
using Q = Quat<double>;
using M = Mat33<double>;
using State = BodyState<double>;

// The 13 numbers of a body state, in the order x, q, v, w.
inline double& entry(State& s, int k) {
  if (k < 3) return (&s.x.x)[k];
  if (k < 7) return (&s.q.x)[k - 3];
  if (k < 10) return (&s.v.x)[k - 7];
  return (&s.w.x)[k - 10];
}
inline double weigh(const State& w, State s) { return dot(w.x, s.x) + dot(w.q, s.q) + dot(w.v, s.v) + dot(w.w, s.w); }
inline double weigh(const Wrench<double>& w, const Wrench<double>& f) {
  return dot(w.force, f.force) + dot(w.torque, f.torque);
}

// floor: an absolute difference that rounding in the difference may explain (its losses'
// rounding over the step), for kernels whose outputs are large beside their gradients.
inline void check_close(const char* what, int k, double adjoint, double fd, double floor = 0) {
  INFO(std::string(what) << "[" << k << "]: adjoint " << adjoint << ", finite difference " << fd);
  CHECK((gradient_relative_error(adjoint, fd, 1e-6) <= 1e-6 || std::fabs(adjoint - fd) <= floor));
}

// Random draws, one stream per test file (internal linkage), so that a file's draws do
// not depend on which other files ran first.
namespace {
inline std::mt19937_64& body_rng() {
  static std::mt19937_64 rng(11);
  return rng;
}
inline double uniform() { return std::uniform_real_distribution<double>(-1.0, 1.0)(body_rng()); }
inline V random_vec(double scale = 1) { return {scale * uniform(), scale * uniform(), scale * uniform()}; }
inline State random_state() {
  return {random_vec(), normalize(Q{uniform(), uniform(), uniform(), 1.2 + uniform()}), random_vec(2), random_vec(4)};
}
}  // namespace

// Every sampled entry (samples per parameter) of the parameters passes the gradient
// check, and at least min_nonzero adjoint entries are not 0, so it checked something.
inline void check_every_entry(const Scene& scene, const std::vector<ParamId>& parameters, int min_nonzero,
                              int samples = 60) {
  REQUIRE(check_scene(scene).ok());
  GradCheckOptions options;
  options.samples_per_parameter = samples;
  options.parameters = parameters;
  Result<GradCheckReport> report = gradient_check(scene, options);
  REQUIRE_MESSAGE(report.ok(), (report.ok() ? "" : report.error().message));
  int nonzero = 0;
  for (const GradCheckEntry& e : report->entries) {
    INFO(param_name(e.param) << "[" << e.index << "] adjoint " << e.adjoint << ", finite difference "
                             << e.finite_difference << ", uncertainty " << e.uncertainty);
    CHECK(e.passed);
    nonzero += e.adjoint != 0.0;
  }
  INFO(scene.name << ": " << report->entries.size() << " entries, " << nonzero << " nonzero");
  CHECK(nonzero >= min_nonzero);
}

}  // namespace nudge::test
