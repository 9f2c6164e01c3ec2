// Actuators (per-step forces and torques on particles and bodies, nudge/actuators.h),
// joint motors on control channels, and the smoothness (rate) objective: the body
// wrench's adjoint against central differences; the motion they give against the
// semi-implicit step written out here; every gradient they touch against central
// differences in double (with a controller driving them, with the implicit step); the
// same bits for any thread count and with checkpoints; and the scene file.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "sanitized.h"
#include "families/actuators/actuator_wrench.h"
#include "nudge/scene.h"
#include "nudge/simulator.h"
#include "central_difference.h"
#include "gradient_outcome.h"
#include "temp_dir.h"
#include "actuator_test_scenes.h"
#include "implicit_test_scenes.h"
#include "test_scenes.h"

using namespace nudge;

namespace {

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

TEST_CASE("actuators: a body actuator's wrench adjoint against central differences, each kind") {
  const Quat<double> q0 = normalize(Quat<double>{0.3, -0.5, 0.2, 0.8});
  const Wrench<double> adj{{0.7, -1.1, 0.4}, {-0.3, 0.9, 1.3}};  // dL/dwrench: L = adj . wrench
  for (int kind = 0; kind < 4; ++kind) {
    ActuatorLaw<double> law;
    law.torque = kind & 1;
    law.body_frame = kind & 2;
    law.direction = {0.4, -0.2, 0.9};
    law.point = {0.1, 0.05, -0.2};
    Quat<double> q = q0;
    double u = 0.7;
    const auto loss = [&] {
      const Wrench<double> w = actuator_wrench(law, q, u);
      return dot(w.force, adj.force) + dot(w.torque, adj.torque);
    };
    Quat<double> adj_q{0, 0, 0, 0};
    double adj_u = 0;
    adj_actuator_wrench(law, q, u, adj, adj_q, adj_u);
    CAPTURE(kind);
    CHECK(adj_u == doctest::Approx(test::central_difference(u, loss)).epsilon(1e-8));
    double* qs[4] = {&q.x, &q.y, &q.z, &q.w};
    const double aq[4] = {adj_q.x, adj_q.y, adj_q.z, adj_q.w};
    for (int k = 0; k < 4; ++k) CHECK(aq[k] == doctest::Approx(test::central_difference(*qs[k], loss)).epsilon(1e-7));
    if (!law.body_frame && law.torque) CHECK(aq[0] == 0.0);  // a world torque does not turn with the body
  }
}

TEST_CASE("actuators: a particle force moves a free particle as the semi-implicit step says") {
  Scene scene;
  scene.settings.dt = 0.01;
  scene.settings.steps = 20;
  scene.pinned = {0, 0};
  scene.channels = 2;
  scene.params[ParamId::InitialPosition].value = {0, 1, 0, 1, 1, 0};
  shape_parameters(scene);
  scene.params[ParamId::Mass].value = {2.0, 1.0};
  scene.params[ParamId::Gravity].value = {0, 0, 0};
  std::vector<double>& u = scene.params[ParamId::Controls].value;
  for (int t = 0; t < 20; ++t) u[size_t(t) * 2] = 0.1 * t, u[size_t(t) * 2 + 1] = 1.0;
  // Two on particle 0 (channel 0 along x, channel 1 along y and z), none on particle 1.
  scene.actuators = {test::particle_force(0, 0, 3.0, 0, 0), test::particle_force(0, 1, 0, 0.5, -1.0)};
  REQUIRE(check_scene(scene).ok());
  SimulatorOptions options;
  options.device = Device::Cpu;
  auto sim = Simulator::create(scene, options);
  REQUIRE(sim.ok());
  const Result<Trajectory> run = (*sim)->trajectory(scene.params);
  REQUIRE(run.ok());
  const Trajectory& traj = *run;
  double x[3] = {0, 1, 0}, v[3] = {0, 0, 0};
  for (int t = 0; t < 20; ++t) {
    const double f[3] = {3.0 * u[size_t(t) * 2], 0.5, -1.0};
    for (int k = 0; k < 3; ++k) {
      v[k] += 0.01 * f[k] / 2.0;
      x[k] += 0.01 * v[k];
    }
  }
  const size_t end = size_t(20) * 6;
  for (int k = 0; k < 3; ++k) CHECK(traj.x[end + k] == doctest::Approx(x[k]).epsilon(1e-12));
  CHECK(traj.x[end + 3] == 1.0);  // the other particle stays
}

TEST_CASE("actuators: a body thruster pushes through its point and turns with the body") {
  Scene scene;
  scene.settings.dt = 0.01;
  scene.settings.steps = 1;
  scene.bodies = {RigidBody{}};
  scene.bodies[0].shape = BodyShape::Sphere;
  scene.channels = 1;
  shape_parameters(scene);
  scene.params[ParamId::BodyRadius].value = {0.1};
  scene.params[ParamId::Gravity].value = {0, 0, 0};
  // Turned 90 degrees about z: its body-frame +x thrust points along world +y.
  const double s = std::sqrt(0.5);
  scene.params[ParamId::BodyOrientation].value = {0, 0, s, s};
  scene.params[ParamId::Controls].value = {2.0};
  scene.actuators = {test::body_actuator(0, 0, ActuatorType::Force, ActuatorFrame::Body, {1, 0, 0}, {0, 0.1, 0})};
  REQUIRE(check_scene(scene).ok());
  auto sim = Simulator::create(scene, SimulatorOptions{});
  REQUIRE(sim.ok());
  const Result<Trajectory> run = (*sim)->trajectory(scene.params);
  REQUIRE(run.ok());
  const Trajectory& traj = *run;
  const double mass = 1000.0 * 4.0 / 3.0 * M_PI * 0.001;
  // Force 2 along world +y; its point, body +y, is world -x: torque (-0.1, 0, 0) x (0, 2, 0) = -0.2 z.
  CHECK(traj.body_x[4] == doctest::Approx(0.01 * 0.01 * 2.0 / mass).epsilon(1e-10));
  CHECK(std::fabs(traj.body_x[3]) < 1e-15);
  // Spun about -z: the quaternion's z part falls below its start.
  CHECK(traj.body_q[4 + 2] < s);
}

TEST_CASE("actuators: the same bits on 1 and 4 threads, with and without checkpoints") {
  const test::Outcome particles = test::require_same_bits_for_threads_and_checkpoints(test::make_forced_particles());
  test::check_has_gradient(particles, {ParamId::ControllerWeights, ParamId::Controls});
  const test::Outcome bodies = test::require_same_bits_for_threads_and_checkpoints(test::make_actuated_bodies());
  test::check_has_gradient(bodies, {ParamId::Controls, ParamId::JointControl, ParamId::BodyOrientation});
}

TEST_CASE("actuators: particle forces driven by a controller and by controls, against central differences") {
  test::check_against_central_differences(test::make_forced_particles(), {ParamId::Controls, ParamId::ControllerWeights,
                                                                          ParamId::InitialVelocity, ParamId::Mass});
}

TEST_CASE("actuators: body thrusters and torques, and joint motors on channels, against central differences") {
  test::check_against_central_differences(test::make_actuated_bodies(),
                                          {ParamId::Controls, ParamId::JointControl, ParamId::BodyOrientation,
                                           ParamId::BodyPosition, ParamId::BodyAngularVelocity, ParamId::JointAnchor},
                                          60);
}

TEST_CASE("actuators: particle forces with the implicit step, against central differences") {
  Scene scene = test::make_implicit_sheet(20);
  scene.actuators = {test::particle_force(5, 0, 0, 0, 0.4), test::particle_force(11, 0, 0.2, 0.1, 0)};
  // 40 entries of each in release; 4 under the sanitizers (40 took 150 s there, most of
  // the suite's time: each implicit step's Newton and adjoint solves, sanitized).
  test::check_against_central_differences(scene, {ParamId::Controls, ParamId::InitialVelocity},
                                          test::kSanitized ? 4 : 40);
}

TEST_CASE("actuators: float32 matches float64") {
  test::check_float32_matches_float64(test::make_actuated_bodies(), {ParamId::Controls});
}

TEST_CASE("smoothness: the mean squared change per step of the controls and joint controls") {
  Scene scene = test::make_actuated_bodies(40);
  scene.objectives = {scene.objectives.back()};  // the smoothness term alone
  REQUIRE(scene.objectives[0].type == ObjectiveType::Smoothness);
  auto sim = Simulator::create(scene, SimulatorOptions{});
  REQUIRE(sim.ok());
  const Result<Evaluation> eval = (*sim)->evaluate(scene.params);
  REQUIRE(eval.ok());
  double expected = 0;
  for (ParamId id : {ParamId::Controls, ParamId::JointControl}) {
    const Parameter& p = scene.params[id];
    double sum = 0;
    for (int t = 0; t + 1 < 40; ++t)
      for (int c = 0; c < p.cols; ++c)
        sum += std::pow(p.value[size_t(t + 1) * p.cols + c] - p.value[size_t(t) * p.cols + c], 2);
    expected += 2.0 * sum / (39.0 * p.cols);
  }
  CHECK(eval->loss == doctest::Approx(expected).epsilon(1e-12));
}

TEST_CASE("actuators: the scene file reads, writes and checks them") {
  const std::string base = R"({"format": "nudge-scene", "version": 1, "name": "a",
    "simulation": {"dt": 0.01, "steps": 3},
    "bodies": [{"shape": "sphere", "radius": 0.1, "position": [0, 0, 0]}],
    "joints": [{"type": "hinge", "child": 0, "anchor": [0, 0, 0], "axis": [0, 0, 1], "channel": 1, "gain": 2.5}],
    "particles": {"position": [[0, 1, 0]]},
    "controls": {"channels": 2, "values": [[0, 1], [0, 1], [1, 0]]},
    "objectives": [{"type": "smoothness", "weight": 0.5}],
    "actuators": )";
  const auto parse = [&](const std::string& actuators) { return parse_scene(base + actuators + "}", "a.json"); };
  Result<Scene> scene = parse(R"([{"particle": 0, "channel": 0, "force": [1, 2, 3]},
    {"body": 0, "channel": 1, "force": [0, 0, 1], "point": [0.1, 0, 0], "frame": "body"},
    {"body": 0, "channel": 0, "torque": [0, 1, 0]}])");
  REQUIRE_MESSAGE(scene.ok(), (scene.ok() ? "" : scene.error().message));
  REQUIRE(scene->actuators.size() == 3);
  CHECK(scene->actuators[1].frame == ActuatorFrame::Body);
  CHECK(scene->actuators[1].point[0] == 0.1);
  CHECK(scene->actuators[2].type == ActuatorType::Torque);
  CHECK(scene->joints[0].channel == 1);
  CHECK(scene->joints[0].gain == 2.5);
  CHECK(scene->objectives[0].type == ObjectiveType::Smoothness);
  {
    test::TempDir dir("actuator-test");
    REQUIRE(save_scene(*scene, dir.path / "b.json").ok());
    const Result<Scene> again = load_scene(dir.path / "b.json");
    REQUIRE_MESSAGE(again.ok(), (again.ok() ? "" : again.error().message));
    REQUIRE(save_scene(*again, dir.path / "c.json").ok());
    CHECK(read_text(dir.path / "b.json") == read_text(dir.path / "c.json"));
    CHECK(again->actuators.size() == 3);
    CHECK(again->joints[0].gain == 2.5);
  }

  const auto error_of = [&](const std::string& actuators) {
    const Result<Scene> bad = parse(actuators);
    REQUIRE_FALSE(bad.ok());
    return bad.error().message;
  };
  CHECK(error_of(R"([{"particle": 3, "channel": 0, "force": [1, 0, 0]}])").find("actuators[0].particle") !=
        std::string::npos);
  CHECK(error_of(R"([{"particle": 0, "channel": 2, "force": [1, 0, 0]}])").find("actuators[0].channel") !=
        std::string::npos);
  CHECK(error_of(R"([{"particle": 0, "body": 0, "channel": 0, "force": [1, 0, 0]}])").find("both") !=
        std::string::npos);
  CHECK(error_of(R"([{"particle": 0, "channel": 0, "torque": [1, 0, 0]}])").find("torque") != std::string::npos);
  CHECK(error_of(R"([{"body": 0, "channel": 0, "torque": [1, 0, 0], "point": [0, 0, 0]}])").find("point") !=
        std::string::npos);
  CHECK(error_of(R"([{"body": 0, "channel": 0, "force": [1, 0, 0], "frame": "local"}])").find("world or body") !=
        std::string::npos);

  Scene checked = *scene;
  checked.actuators[0].channel = 5;
  CHECK(!check_scene(checked).ok());
  checked = *scene;
  checked.joints[0].channel = 2;
  CHECK(check_scene(checked).error().message.find("joints[0].channel") != std::string::npos);
}
