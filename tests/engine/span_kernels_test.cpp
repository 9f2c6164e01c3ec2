// The CPU runs springs in spans of whole SIMD chunks (the last chunk moved back over
// lanes already done) and sums them onto particles in one-chunk blocks with masked lanes
// (kernels/span_kernels.h). The plain per-element kernels, one spring and one particle
// at a time through the incidence lists, are the reference: on a scene whose runs have
// every length around the chunk width, both must give the same loss and gradients up to
// the order of summation.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <memory>

#include "nudge/simulator.h"
#include "sim/simulator_backends.h"

using namespace nudge;

namespace {

// A chain of particles with runs of springs of many lengths: longer than two chunks,
// just over and just under one chunk (16 floats, 8 doubles), exactly one, shorter than
// the shortest run kept (8), with one run actuated, on the ground.
Scene make_run_lengths_scene(int steps) {
  Scene scene;
  scene.name = "run lengths";
  scene.settings.dt = 1e-3;
  scene.settings.steps = steps;
  scene.settings.ground.enabled = true;
  scene.settings.ground.contact_smoothing = 5e-3;
  scene.settings.ground.friction_smoothing = 0.05;
  const int n = 80;
  scene.pinned.assign(n, 0);
  scene.pinned[0] = 1;
  std::vector<double>& x0 = scene.params[ParamId::InitialPosition].value;
  for (int i = 0; i < n; ++i) {  // a wavy line, lowest points touching the ground
    x0.push_back(0.02 * i);
    x0.push_back(0.004 + 0.05 * (1.0 + std::sin(0.7 * i)));
    x0.push_back(0.03 * std::cos(1.3 * i));
  }
  // (offset, first a, count, actuated)
  const int runs[][4] = {{1, 0, 79, 0}, {3, 0, 17, 1}, {2, 20, 16, 0}, {5, 20, 15, 0},
                         {7, 40, 9, 0}, {4, 50, 8, 0}, {6, 60, 7, 0},  {9, 30, 3, 0}};
  for (const auto& r : runs)
    for (int t = 0; t < r[2]; ++t) {
      scene.spring_a.push_back(r[1] + t);
      scene.spring_b.push_back(r[1] + t + r[0]);
      scene.spring_channel.push_back(r[3] ? t % 2 : -1);
      scene.actuation.push_back(r[3] ? 0.1 : 0.0);
    }
  scene.channels = 2;
  shape_parameters(scene);
  const int s = scene.spring_count();
  for (int k = 0; k < s; ++k) {
    scene.params[ParamId::Stiffness].value[k] = 80.0 + 7.0 * (k % 11);
    scene.params[ParamId::Damping].value[k] = 0.05 + 0.01 * (k % 5);
  }
  for (int i = 0; i < n; ++i) scene.params[ParamId::Mass].value[i] = 0.01 + 0.001 * (i % 3);
  for (int i = 0; i < 3 * n; ++i) scene.params[ParamId::InitialVelocity].value[i] = 0.1 * std::sin(0.37 * i);
  scene.params[ParamId::Gravity].value = {0.0, -9.81, 0.0};
  scene.params[ParamId::Drag].value = {0.02};
  scene.params[ParamId::GroundStiffness].value = {2000.0};
  scene.params[ParamId::Friction].value = {0.5};
  for (int t = 0; t < steps; ++t) {
    scene.params[ParamId::Controls].value[2 * t] = 0.5 * std::sin(0.05 * t);
    scene.params[ParamId::Controls].value[2 * t + 1] = 0.3 * std::cos(0.04 * t);
  }
  Objective target;
  target.type = ObjectiveType::Target;
  target.particles = {10, 45, 79};
  target.target = {0.8, 0.3, 0.1};
  scene.objectives = {target};
  return scene;
}

// The gradient on the CPU, with the span kernels or (spring_runs false) with every
// spring loose and every kernel per element.
ParameterSet gradient(const Scene& scene, Precision precision, bool spring_runs, double& loss) {
  std::unique_ptr<Simulator> sim = make_cpu_simulator(scene, precision, 2, 0, spring_runs);
  ParameterSet params = scene.params;
  Result<Evaluation> eval = sim->gradient(params);
  REQUIRE_MESSAGE(eval.ok(), (eval.ok() ? "" : eval.error().message));
  loss = eval->loss;
  return params;
}

// Largest difference of two gradients relative to the larger one's largest entry.
double relative_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double diff = 0, scale = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    diff = std::max(diff, std::abs(a[i] - b[i]));
    scale = std::max({scale, std::abs(a[i]), std::abs(b[i])});
  }
  return scale > 0 ? diff / scale : diff;
}

void check_spans_match_plain_kernels(Precision precision, double tolerance) {
  const Scene scene = make_run_lengths_scene(300);
  REQUIRE(check_scene(scene).ok());
  double loss_spans = 0, loss_plain = 0;
  const ParameterSet spans = gradient(scene, precision, true, loss_spans);
  const ParameterSet plain = gradient(scene, precision, false, loss_plain);
  CHECK(loss_spans == doctest::Approx(loss_plain).epsilon(tolerance));
  double largest = 0;
  for (int p = 0; p < kParamCount; ++p) {
    CAPTURE(param_name(static_cast<ParamId>(p)));
    REQUIRE(spans.items[p].grad.size() == plain.items[p].grad.size());
    const double difference = relative_difference(spans.items[p].grad, plain.items[p].grad);
    CHECK(difference < tolerance);
    largest = std::max(largest, difference);
  }
  // Two schedules ran: their sums, in other orders, differ in the last bits somewhere.
  CHECK(largest > 0);
}

}  // namespace

TEST_CASE("span kernels: the chunked CPU kernels give the per-element kernels' gradients") {
  SUBCASE("float64") { check_spans_match_plain_kernels(Precision::Float64, 1e-11); }
  SUBCASE("float32") { check_spans_match_plain_kernels(Precision::Float32, 1e-3); }
}
