// The CUDA backend against the CPU backend on small scenes: the same loss, the same
// gradient for every parameter (truncated or not) and the same state adjoints, the same
// error for a rollout that blows up, and bitwise equal gradients and state adjoints
// whether the GPU stores every state or recomputes from checkpoints.
//
// Without a usable GPU each case says "skipped: <why>" and returns; ctest marks the
// suite skipped on that text (tests/CMakeLists.txt). The device choice case runs
// everywhere, and ctest runs it again on its own so that the skip cannot hide it.
// With NUDGE_REQUIRE_CUDA=1 in the environment (GPU CI) no usable GPU fails each case.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "nudge/parameters.h"
#include "nudge/scene.h"
#include "nudge/simulator.h"
#include "../source_dir.h"
#include "actuator_test_scenes.h"
#include "cut_scene.h"
#include "test_scenes.h"

using namespace nudge;

namespace {

// Precision-dependent agreement between the backends. Entries far below the largest of
// their parameter are judged against `floor` times that largest one: they are sums that
// nearly cancel, where a different rounding order moves them more in relative terms.
struct Tolerance {
  double relative;
  double floor;
};
// Float64 to 1e-8: the GPU contracts a*b+c into fused multiply-adds and the CPU does
// not (-ffp-contract=off keeps its SIMD lanes and scalar tails alike), and over a hundred
// steps with contacts that rounding reaches 1e-9 of an entry.
constexpr Tolerance kFloat64{1e-8, 1e-6};
constexpr Tolerance kFloat32{1e-3, 1e-2};

// A tetrahedron dropped onto the ground, one particle pinned above it on a soft tether,
// two actuated springs on two control channels, drag and an external force; objectives
// on the final centroid, a mid-rollout velocity and the control effort.
Scene tetrahedron_scene(int steps) {
  Scene scene;
  scene.name = "cuda backend test";
  scene.settings.dt = 1e-3;
  scene.settings.steps = steps;
  scene.settings.ground.enabled = true;
  scene.settings.ground.damping = 5.0;
  scene.settings.ground.contact_smoothing = 2e-3;
  scene.settings.ground.friction_smoothing = 2e-2;

  scene.pinned = {0, 0, 0, 0, 1};
  scene.spring_a = {0, 0, 0, 1, 1, 2, 3};
  scene.spring_b = {1, 2, 3, 2, 3, 3, 4};
  scene.spring_channel = {0, -1, -1, 1, -1, 0, -1};
  scene.actuation = {0.2, 0, 0, 0.15, 0, 0.1, 0};
  scene.channels = 2;

  scene.params[ParamId::InitialPosition].value = {0.0,  0.03, 0.0,  0.3,  0.04, 0.0, 0.15, 0.02,
                                                  0.26, 0.15, 0.28, 0.09, 0.2,  0.9, 0.1};
  shape_parameters(scene);  // rest lengths from the positions above, defaults elsewhere

  const auto set = [&](ParamId id, std::vector<double> value) { scene.params[id].value = std::move(value); };
  set(ParamId::InitialVelocity, {0.5, -1.0, 0.1, 0.4, -0.9, 0.0, 0.6, -1.1, 0.2, 0.5, -1.0, 0.1, 0, 0, 0});
  set(ParamId::Mass, {1.0, 0.8, 1.2, 0.9, 0.5});
  set(ParamId::ExternalForce, {0, 0, 0, 0.3, 0, -0.2, 0, 0, 0, 0, 0.1, 0, 0, 0, 0});
  set(ParamId::Stiffness, {300, 250, 280, 320, 260, 240, 20});
  set(ParamId::Damping, {0.5, 0.4, 0.6, 0.5, 0.3, 0.4, 0.1});
  set(ParamId::Drag, {0.2});
  set(ParamId::Friction, {0.6});
  std::vector<double> controls(size_t(steps) * 2);
  for (int t = 0; t < steps; ++t) {
    controls[2 * t] = 0.8 * std::sin(0.05 * t);
    controls[2 * t + 1] = 0.5 * std::cos(0.03 * t);
  }
  set(ParamId::Controls, controls);
  for (Parameter& p : scene.params.items) p.grad.assign(p.value.size(), 0.0);

  Objective target;
  target.type = ObjectiveType::Target;
  target.particles = {0, 1, 2, 3};
  target.target = {0.4, 0.1, 0.2};
  Objective velocity;
  velocity.type = ObjectiveType::Velocity;
  velocity.step = steps / 2;
  velocity.weight = 0.5;
  velocity.particles = {1, 3};
  velocity.target = {1.0, 0.0, 0.0};
  Objective effort;
  effort.type = ObjectiveType::Effort;
  effort.weight = 1e-2;
  scene.objectives = {target, velocity, effort};
  return scene;
}

bool cuda_required() {
  const char* env = std::getenv("NUDGE_REQUIRE_CUDA");
  return env != nullptr && std::string_view(env) == "1";
}

// Whether the CUDA cases can run; if not, says so in the words ctest looks for, or fails
// when NUDGE_REQUIRE_CUDA=1. The failure must not say "skipped: ": ctest's skip pattern
// wins over a failed exit code.
bool gpu_or_skip() {
  std::string why;
  if (cuda_available(&why)) return true;
  if (cuda_required()) FAIL("NUDGE_REQUIRE_CUDA=1, but there is no usable GPU: " << why);
  MESSAGE("skipped: " << why);
  return false;
}

std::unique_ptr<Simulator> make(const Scene& scene, Device device, Precision precision, int checkpoint_every = 0) {
  auto sim = Simulator::create(scene, SimulatorOptions{device, precision, 1, checkpoint_every});
  REQUIRE_MESSAGE(sim.ok(), sim.error().message);
  return std::move(sim.value());
}

// Forward and backward; returns the parameters with their gradients.
ParameterSet gradient(Simulator& sim, const Scene& scene, double& loss) {
  ParameterSet params = scene.params;
  Result<Evaluation> eval = sim.gradient(params);
  REQUIRE_MESSAGE(eval.ok(), eval.error().message);
  loss = eval->loss;
  return params;
}

// The same with gradient options, recording the state adjoints.
ParameterSet gradient(Simulator& sim, const Scene& scene, int horizon, StateAdjoints& adjoints,
                      double* loss = nullptr) {
  ParameterSet params = scene.params;
  Result<Evaluation> eval = sim.gradient(params, GradientOptions{horizon, true}, &adjoints);
  REQUIRE_MESSAGE(eval.ok(), eval.error().message);
  if (loss) *loss = eval->loss;
  return params;
}

// The worst relative difference between two vectors (see Tolerance), and where it is.
struct Difference {
  double worst = 0.0;
  size_t at = 0;
};

// Differences up to `noise` count as none (see Named::noise).
Difference difference(const std::vector<double>& a, const std::vector<double>& b, Tolerance tol, double noise = 0.0) {
  REQUIRE(a.size() == b.size());
  double largest = 0.0;
  for (double x : b) largest = std::max(largest, std::fabs(x));
  Difference d;
  for (size_t i = 0; i < b.size(); ++i) {
    const double scale = std::max({std::fabs(a[i]), std::fabs(b[i]), tol.floor * largest, 1e-300});
    const double err = std::fabs(a[i] - b[i]) <= noise ? 0.0 : std::fabs(a[i] - b[i]) / scale;
    if (err > d.worst) d = {err, i};
  }
  return d;
}

void check_close(const std::string& what, const std::vector<double>& gpu, const std::vector<double>& cpu, Tolerance tol,
                 double noise = 0.0) {
  const Difference d = difference(gpu, cpu, tol, noise);
  INFO(what << "[" << d.at << "]: cuda " << (gpu.empty() ? 0.0 : gpu[d.at]) << ", cpu "
            << (cpu.empty() ? 0.0 : cpu[d.at]) << ", relative error " << d.worst);
  CHECK(d.worst <= tol.relative);
}

// Float32 on the two backends rounds differently (the GPU contracts a*b+c into fused
// multiply-adds and sums in its own order), and over a hundred steps with contacts some
// entries drift apart by more than 1e-3 although both are right to float32's precision.
// So an entry set that differs by more than that must show the GPU as accurate as the
// CPU: no further from the float64 result than the CPU's own float32 result, within 4x.
void check_close_float32(const std::string& what, const std::vector<double>& gpu, const std::vector<double>& cpu,
                         const std::vector<double>& reference) {
  const Difference between = difference(gpu, cpu, kFloat32);
  if (between.worst <= kFloat32.relative) return;
  const Difference gpu_error = difference(gpu, reference, kFloat32);
  const Difference cpu_error = difference(cpu, reference, kFloat32);
  MESSAGE(what << ": cuda and cpu differ by " << between.worst << " at [" << between.at
               << "]; against float64, cuda is off by " << gpu_error.worst << " at [" << gpu_error.at << "] and cpu by "
               << cpu_error.worst << " at [" << cpu_error.at << "]");
  CHECK(gpu_error.worst <= 4.0 * cpu_error.worst);
}

// What a backend computes for a scene, as named vectors: the loss, each parameter's
// gradient and the states at every step.
// One of the results a backend computes. A parameter's gradient has a noise level:
// 1e-13 of the loss, below which the gradient of a parameter of order one that the loss
// does not depend on (a pinned particle's mass) is rounding in either backend.
struct Named {
  std::string name;
  std::vector<double> values;
  double noise = 0.0;
};
using NamedResults = std::vector<Named>;

double gradient_noise(double loss) { return 1e-13 * std::fabs(loss); }

// A state has a noise level too: 1e-12 of the largest entry of its kind over the rollout.
// A joint at rest or a cloth particle hanging still has a velocity that is a sum of large
// terms that cancel (gravity against contact, springs against each other), and the GPU's
// fused multiply-adds round it differently: on an H200 (2026-12-04) bat_strike's resting
// joint_qd was 2.8e-15 on the CPU and -2.4e-14 on the GPU (1e-13 of its largest, 0.27 rad/s),
// and a paddle_flick cloth speed of 9.5e-8 m/s differed by 8.5e-15.
double trajectory_noise(const std::vector<double>& states) {
  double largest = 0.0;
  for (double x : states) largest = std::max(largest, std::fabs(x));
  return 1e-12 * largest;
}

NamedResults results(const Scene& scene, Device device, Precision precision) {
  auto sim = make(scene, device, precision);
  double loss = 0;
  const ParameterSet grads = gradient(*sim, scene, loss);
  CHECK(loss > 0);
  NamedResults out{{"loss", {loss}}};
  for (int i = 0; i < kParamCount; ++i) {
    const auto id = static_cast<ParamId>(i);
    out.push_back({std::string(param_name(id)), grads[id].grad, gradient_noise(loss)});
  }
  Result<Trajectory> trajectory = sim->trajectory(scene.params);
  REQUIRE(trajectory.ok());
  for (auto [name, states] : {std::pair{"trajectory x", &trajectory->x},
                              {"trajectory v", &trajectory->v},
                              {"trajectory body_x", &trajectory->body_x},
                              {"trajectory body_q", &trajectory->body_q},
                              {"trajectory point_x", &trajectory->point_x},
                              {"trajectory joint_q", &trajectory->joint_q},
                              {"trajectory joint_qd", &trajectory->joint_qd}})
    out.push_back({name, *states, trajectory_noise(*states)});
  return out;
}

// An example scene (scenes/NAME.json) cut to its first `steps` steps.
Scene example(const std::string& name, int steps) {
  Result<Scene> loaded = load_scene(test::source_dir() / "scenes" / (name + ".json"));
  REQUIRE_MESSAGE(loaded.ok(), (loaded.ok() ? "" : loaded.error().message));
  Scene scene = *loaded;
  test::cut_to_steps(scene, steps);
  return scene;
}

// The GPU's results against the CPU's: in float64 to 1e-8; in float32 to 1e-3, or as
// accurate as the CPU against the float64 reference (check_close_float32).
template <class Reference>
void compare(const NamedResults& gpu, const NamedResults& cpu, Precision precision, Reference float64_reference) {
  REQUIRE(gpu.size() == cpu.size());
  if (precision == Precision::Float64) {
    for (size_t i = 0; i < gpu.size(); ++i)
      check_close(gpu[i].name, gpu[i].values, cpu[i].values, kFloat64, std::max(gpu[i].noise, cpu[i].noise));
    return;
  }
  const NamedResults reference = float64_reference();
  for (size_t i = 0; i < gpu.size(); ++i)
    check_close_float32(gpu[i].name, gpu[i].values, cpu[i].values, reference[i].values);
}

// The loss, every gradient and the states every step.
void compare_with_cpu(const Scene& scene, Precision precision) {
  compare(results(scene, Device::Cuda, precision), results(scene, Device::Cpu, precision), precision,
          [&] { return results(scene, Device::Cpu, Precision::Float64); });
}

void check_checkpoints_bitwise(const Scene& scene, Precision precision) {
  auto stored = make(scene, Device::Cuda, precision, 0);
  auto checkpointed = make(scene, Device::Cuda, precision, 7);  // 7 does not divide the step count
  double stored_loss = 0, checkpointed_loss = 0;
  const ParameterSet s = gradient(*stored, scene, stored_loss);
  const ParameterSet c = gradient(*checkpointed, scene, checkpointed_loss);
  CHECK(stored_loss == checkpointed_loss);
  for (int i = 0; i < kParamCount; ++i) {
    const auto id = static_cast<ParamId>(i);
    INFO(param_name(id));
    CHECK(s[id].grad == c[id].grad);
  }
}

// State adjoints and truncated gradients on the GPU against the CPU, judged as
// compare_with_cpu judges; on the GPU too, dL/dx_0 is the InitialPosition gradient to the
// last bit.
NamedResults adjoint_results(const Scene& scene, int horizon, Device device, Precision precision) {
  StateAdjoints adjoints;
  double loss = 0;
  const ParameterSet grads = gradient(*make(scene, device, precision), scene, horizon, adjoints, &loss);
  if (device == Device::Cuda) {
    const std::vector<double> dx0(adjoints.x.begin(), adjoints.x.begin() + 3 * scene.particle_count());
    CHECK(dx0 == grads[ParamId::InitialPosition].grad);
  }
  NamedResults out{{"dL/dx_t", adjoints.x}, {"dL/dv_t", adjoints.v}};
  for (int i = 0; i < kParamCount; ++i) {
    const auto id = static_cast<ParamId>(i);
    out.push_back({std::string(param_name(id)), grads[id].grad, gradient_noise(loss)});
  }
  return out;
}

void compare_state_adjoints_with_cpu(const Scene& scene, int horizon, Precision precision) {
  CAPTURE(horizon);
  compare(adjoint_results(scene, horizon, Device::Cuda, precision),
          adjoint_results(scene, horizon, Device::Cpu, precision), precision,
          [&] { return adjoint_results(scene, horizon, Device::Cpu, Precision::Float64); });
}

// Stored and checkpointed rollouts on the GPU: the same truncated gradients and state
// adjoints, bit for bit.
void check_state_adjoint_checkpoints_bitwise(const Scene& scene, int horizon, Precision precision) {
  CAPTURE(horizon);
  StateAdjoints stored_adjoints, checkpointed_adjoints;
  const ParameterSet s = gradient(*make(scene, Device::Cuda, precision, 0), scene, horizon, stored_adjoints);
  const ParameterSet c = gradient(*make(scene, Device::Cuda, precision, 7), scene, horizon, checkpointed_adjoints);
  CHECK(stored_adjoints.x == checkpointed_adjoints.x);
  CHECK(stored_adjoints.v == checkpointed_adjoints.v);
  for (int i = 0; i < kParamCount; ++i) {
    const auto id = static_cast<ParamId>(i);
    INFO(param_name(id));
    CHECK(s[id].grad == c[id].grad);
  }
}

}  // namespace

TEST_CASE("cuda: float64 loss, gradients and states match the CPU to 1e-8") {
  if (!gpu_or_skip()) return;
  compare_with_cpu(tetrahedron_scene(240), Precision::Float64);
}

TEST_CASE("cuda: float32 loss, gradients and states match the CPU to 1e-3 or are as accurate") {
  if (!gpu_or_skip()) return;
  compare_with_cpu(tetrahedron_scene(240), Precision::Float32);
}

TEST_CASE("cuda: rigid bodies and colliders match the CPU (float64 to 1e-8, float32 to 1e-3)") {
  if (!gpu_or_skip()) return;
  const Scene scene = test::make_body_scene(0.005, 120);
  compare_with_cpu(scene, Precision::Float64);
  compare_with_cpu(scene, Precision::Float32);
  check_checkpoints_bitwise(scene, Precision::Float64);
}

TEST_CASE("cuda: triangles (a cloth sheet in a wind, on the ground) match the CPU (float64 to 1e-8, float32 to 1e-3)") {
  if (!gpu_or_skip()) return;
  const Scene scene = test::make_triangle_sheet(6, 7, 120);
  compare_with_cpu(scene, Precision::Float64);
  compare_with_cpu(scene, Precision::Float32);
}

TEST_CASE("cuda: tets (an actuated block on the ground) match the CPU (float64 to 1e-8, float32 to 1e-3)") {
  if (!gpu_or_skip()) return;
  const Scene scene = test::make_tet_block(3, 2, 1, 120);
  compare_with_cpu(scene, Precision::Float64);
  compare_with_cpu(scene, Precision::Float32);
  check_checkpoints_bitwise(scene, Precision::Float64);
}

TEST_CASE("cuda: a controller, on the penalty and the time-of-impact ground, matches the CPU") {
  if (!gpu_or_skip()) return;
  Scene scene = test::make_controlled_scene(120);
  compare_with_cpu(scene, Precision::Float64);
  compare_with_cpu(scene, Precision::Float32);
  check_checkpoints_bitwise(scene, Precision::Float64);
  scene.settings.ground.contact = GroundContact::TimeOfImpact;
  compare_with_cpu(scene, Precision::Float64);
}

TEST_CASE(
    "cuda: actuators (particle forces with a controller; body thrusters, torques and joint motors on "
    "channels) match the CPU") {
  if (!gpu_or_skip()) return;
  for (const Scene& scene : {test::make_forced_particles(120), test::make_actuated_bodies(200)}) {
    compare_with_cpu(scene, Precision::Float64);
    compare_with_cpu(scene, Precision::Float32);
    check_checkpoints_bitwise(scene, Precision::Float64);
  }
}

TEST_CASE("cuda: articulations (motors, floor contact, links meeting cloth, each other and material) match the CPU") {
  if (!gpu_or_skip()) return;
  // arm7_reach: seven hinges and their motors; quadruped_walk: a free base on a floor
  // with a network controller; paddle_flick: a link under a cloth; bat_strike: links that
  // meet each other; jelly_catapult: a link's cup carrying material points.
  for (const std::string name : {"arm7_reach", "quadruped_walk", "paddle_flick", "bat_strike", "jelly_catapult"}) {
    CAPTURE(name);
    const Scene scene = example(name, 120);
    compare_with_cpu(scene, Precision::Float64);
    compare_with_cpu(scene, Precision::Float32);
    check_checkpoints_bitwise(scene, Precision::Float64);
  }
}

TEST_CASE("cuda: checkpointed gradients are bitwise equal to stored ones") {
  if (!gpu_or_skip()) return;
  const Scene scene = tetrahedron_scene(240);
  SUBCASE("float64") { check_checkpoints_bitwise(scene, Precision::Float64); }
  SUBCASE("float32") { check_checkpoints_bitwise(scene, Precision::Float32); }
}

TEST_CASE("cuda: state adjoints and truncated gradients match the CPU") {
  if (!gpu_or_skip()) return;
  const Scene scene = tetrahedron_scene(240);
  for (int horizon : {0, 1, 100}) {
    compare_state_adjoints_with_cpu(scene, horizon, Precision::Float64);
    compare_state_adjoints_with_cpu(scene, horizon, Precision::Float32);
  }
}

TEST_CASE("cuda: checkpointed state adjoints and truncated gradients are bitwise equal to stored ones") {
  if (!gpu_or_skip()) return;
  const Scene scene = tetrahedron_scene(240);
  // 233: a window that starts on a checkpoint (step 7); 240: every step.
  for (int horizon : {0, 1, 100, 233, 240}) {
    check_state_adjoint_checkpoints_bitwise(scene, horizon, Precision::Float64);
    check_state_adjoint_checkpoints_bitwise(scene, horizon, Precision::Float32);
  }
}

TEST_CASE("cuda: a rollout that produces NaN fails with the CPU's message") {
  if (!gpu_or_skip()) return;
  Scene scene = tetrahedron_scene(100);
  // Particles 0 and 1 start at the same place: their spring has no direction.
  auto& x = scene.params[ParamId::InitialPosition].value;
  std::copy_n(x.begin(), 3, x.begin() + 3);
  for (Precision precision : {Precision::Float64, Precision::Float32}) {
    for (int checkpoint_every : {0, 7}) {
      Result<Evaluation> gpu = make(scene, Device::Cuda, precision, checkpoint_every)->evaluate(scene.params);
      Result<Evaluation> cpu = make(scene, Device::Cpu, precision, checkpoint_every)->evaluate(scene.params);
      REQUIRE_FALSE(gpu.ok());
      REQUIRE_FALSE(cpu.ok());
      CHECK(gpu.error().message == cpu.error().message);
      CHECK(gpu.error().message.find("step 1 ") != std::string::npos);
    }
  }
}

TEST_CASE("cuda: the simulator names the GPU and the precision") {
  if (!gpu_or_skip()) return;
  const Scene scene = tetrahedron_scene(10);
  const std::string f32 = make(scene, Device::Cuda, Precision::Float32)->device_name();
  const std::string f64 = make(scene, Device::Cuda, Precision::Float64)->device_name();
  MESSAGE(f32);
  CHECK(f32.starts_with("cuda, "));
  CHECK(f32.ends_with(", float32"));
  CHECK(f64.ends_with(", float64"));
}

TEST_CASE("cuda: device choice: auto uses the GPU when there is one and otherwise the CPU, saying why") {
  const Scene scene = tetrahedron_scene(10);
  std::string why;
  const bool gpu = cuda_available(&why);
  auto sim = make(scene, Device::Auto, Precision::Float64);
  auto cuda = Simulator::create(scene, SimulatorOptions{Device::Cuda, Precision::Float64, 1, 0});
  if (gpu) {
    CHECK(sim->device_name().starts_with("cuda, "));
    CHECK(sim->notice().empty());
    CHECK(sim->cpu_fallback().empty());
    CHECK(cuda.ok());
    return;
  }
  INFO("why: " << why);
  CHECK_FALSE(why.empty());
  CHECK(sim->device_name().starts_with("cpu, "));
  CHECK(sim->cpu_fallback().find("running on the CPU") != std::string::npos);
  CHECK(sim->cpu_fallback().find(why) != std::string::npos);
  CHECK(sim->notice().empty());  // what the rollout does differently is another matter
  REQUIRE_FALSE(cuda.ok());
  CHECK(cuda.error().message.find(why) != std::string::npos);
  // The CPU still computes the gradient.
  double loss = 0;
  gradient(*sim, scene, loss);
  CHECK(loss > 0);
}

TEST_CASE("cuda: device choice: auto runs articulations and material points on the CPU, saying why") {
  CHECK(cpu_faster_reason(tetrahedron_scene(10)).empty());
  for (const auto& [name, words] :
       {std::pair<std::string, std::string>{"cartpole_balance", "articulations run faster on the CPU"},
        {"jelly_bounce", "material points run faster on the CPU"},
        {"jelly_catapult", "articulations and material points run faster on the CPU"}}) {
    CAPTURE(name);
    const Scene scene = example(name, 10);
    CHECK(cpu_faster_reason(scene).starts_with(words));
    auto sim = make(scene, Device::Auto, Precision::Float64);
    CHECK(sim->device_name().starts_with("cpu, "));
    CHECK(sim->cpu_fallback() == cpu_faster_reason(scene));
    // Asked for, the GPU still runs them.
    if (cuda_available()) CHECK(make(scene, Device::Cuda, Precision::Float64)->device_name().starts_with("cuda, "));
  }
}
