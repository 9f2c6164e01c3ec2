// Rigid bodies and material points together (the two-way coupling of
// mpm_body_boundary.h in the rollout): a box thrown, turning, into a pool of liquid.
// Every parameter's gradient, the bodies' and the liquid's, against central differences
// through the simulator; the momentum the liquid loses is the box's; the same bits on any
// thread count, stored or checkpointed; a light box floats where a heavy one sinks; and
// a 2D grid with bodies is refused, named.
#include <doctest/doctest.h>

#include <cmath>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "body_test_support.h"
#include "cpu_simulator.h"
#include "nudge/gradcheck.h"
#include "nudge/parameter_facts.h"
#include "nudge/scene.h"
#include "sanitized.h"
#include "test_scenes.h"

using namespace nudge;

namespace {

constexpr double kWaterDensity = 1000;

// Where the liquid's points are: n x rows x n, h apart, centred on x = z = 0.5, the
// lowest row at y0, but for a slot |x - 0.5| < slot left empty.
struct Pool {
  int n = 10, rows = 4;
  double h = 0.04, y0 = 0.2, slot = 0;
  double top() const { return y0 + h * (rows - 1); }
};

// Filling the grid's floor between its walls (3 nodes deep: 0.1875 m to 0.8125 m), six
// rows deep.
Pool full_pool() {
  const double h = 0.625 / 12;
  return {12, 6, h, 0.1875 + h / 2};
}

// A pool of liquid points in a 16-cell grid of 1 m, and a box of the given density
// above it, thrown down and turning; the objectives pull the box's centre and the
// liquid's centroid towards points and turn the box's y axis towards x.
Scene make_box_in_pool(int steps, double density = 600, Pool pool = {}, double bulk = 2e3) {
  Scene scene;
  scene.name = "box in a pool";
  scene.settings.dt = 1e-3;
  scene.settings.steps = steps;
  scene.bodies = {test::rigid_body(BodyShape::Box)};
  MaterialPoints& mp = scene.material_points;
  mp.dims = 3;
  mp.cells = 16;
  mp.size = 1.0;
  mp.collider_friction = 0.3;
  mp.materials = {{"water", MaterialModel::Liquid}};
  const double h = pool.h, x0 = 0.5 - h * (pool.n - 1) / 2;
  std::vector<double> x;
  for (int i = 0; i < pool.n; ++i)
    for (int j = 0; j < pool.rows; ++j)
      for (int k = 0; k < pool.n; ++k) {
        if (std::abs(x0 + h * i - 0.5) < pool.slot) continue;
        x.insert(x.end(), {x0 + h * i, pool.y0 + h * j, x0 + h * k});
        mp.material.push_back(0);
        mp.channel.push_back(-1);
      }
  shape_parameters(scene);
  ParameterSet& p = scene.params;
  test::set_sizes(scene, {{0.08, 0.05, 0.07}});
  p[ParamId::BodyPosition].value = {0.5, pool.top() + 0.07, 0.49};
  const Quat<double> tilt = normalize(Quat<double>{0.1, 0.05, -0.08, 1.0});
  p[ParamId::BodyOrientation].value = {tilt.x, tilt.y, tilt.z, tilt.w};
  p[ParamId::BodyVelocity].value = {0.1, -0.8, 0.05};
  p[ParamId::BodyAngularVelocity].value = {0.5, 0.3, -0.4};
  p[ParamId::BodyDensity].value = {density};
  p[ParamId::PointPosition].value = x;
  const int n = mp.count();
  for (int q = 0; q < n; ++q) {
    p[ParamId::PointVelocity].value[3 * size_t(q)] = 0.1 * std::sin(q);
    p[ParamId::PointVelocity].value[3 * size_t(q) + 2] = 0.1 * std::cos(0.7 * q);
    p[ParamId::PointMass].value[size_t(q)] = kWaterDensity * h * h * h;
    p[ParamId::PointVolume].value[size_t(q)] = h * h * h;
  }
  p[ParamId::MaterialBulkModulus].value = {bulk};
  p[ParamId::MaterialViscosity].value = {0.1};
  p[ParamId::Gravity].value = {0.0, -9.8, 0.0};
  Objective box;
  box.type = ObjectiveType::Target;
  box.bodies = {0};
  box.target = {0.55, 0.2, 0.45};
  Objective liquid;
  liquid.type = ObjectiveType::Target;
  for (int q = 0; q < n; ++q) liquid.points.push_back(q);
  liquid.target = {0.45, 0.3, 0.5};
  liquid.weight = 3;
  Objective turn;
  turn.type = ObjectiveType::Orientation;
  turn.bodies = {0};
  turn.weight = 0.2;
  scene.objectives = {box, liquid, turn};
  return scene;
}

// Checks `parameters` of the scene against central differences (`samples` entries of
// each): every verifiable entry passes. Returns how many were verified and not 0, and
// which parameters those were.
std::pair<int, std::set<ParamId>> check_gradients(const Scene& scene, const std::vector<ParamId>& parameters,
                                                  int samples) {
  REQUIRE_MESSAGE(check_scene(scene).ok(), check_scene(scene).error().message);
  GradCheckOptions options;
  options.samples_per_parameter = samples;
  options.parameters = parameters;
  Result<GradCheckReport> report = gradient_check(scene, options);
  REQUIRE_MESSAGE(report.ok(), (report.ok() ? "" : report.error().message));
  int verified = 0;
  std::set<ParamId> seen;
  for (const GradCheckEntry& e : report->entries) {
    INFO(param_name(e.param) << "[" << e.index << "] adjoint " << e.adjoint << ", finite difference "
                             << e.finite_difference << ", uncertainty " << e.uncertainty);
    CHECK((e.passed || !e.verifiable));
    if (e.verifiable && e.adjoint != 0.0) ++verified, seen.insert(e.param);
  }
  return {verified, seen};
}

double box_mass(const Scene& scene) {
  const RigidBody& body = scene.bodies[0];
  return scene.params[ParamId::BodyDensity].value[0] *
         unit_mass_properties(body, body_shape_size(body, scene.params, 0)).volume;
}

}  // namespace

TEST_CASE("material points and bodies: every gradient of a box thrown into liquid, against central differences") {
  const std::vector<ParamId> parameters = {
      ParamId::BodyPosition, ParamId::BodyOrientation,     ParamId::BodyVelocity,      ParamId::BodyAngularVelocity,
      ParamId::BodyDensity,  ParamId::BodyHalfExtents,     ParamId::PointPosition,     ParamId::PointVelocity,
      ParamId::PointMass,    ParamId::MaterialBulkModulus, ParamId::MaterialViscosity, ParamId::Gravity};
  const auto [verified, seen] =
      check_gradients(make_box_in_pool(test::kSanitized ? 15 : 40), parameters, test::kSanitized ? 4 : 10);
  CHECK(verified >= (test::kSanitized ? 20 : 40));
  // The liquid moves the box, and the box the liquid: each parameter is checked, not 0.
  CHECK(seen.size() == parameters.size());
}

TEST_CASE("material points and bodies: the momentum the liquid loses is the box's; the same bits on threads") {
  // No gravity, and the liquid clear of the walls (three nodes deep): nothing else pushes.
  Scene scene = make_box_in_pool(test::kSanitized ? 60 : 200, 600, {10, 4, 0.04, 0.35});
  scene.params[ParamId::Gravity].value = {0, 0, 0};
  const Result<Trajectory> traj = test::cpu_simulator(scene, 1)->trajectory(scene.params);
  REQUIRE_MESSAGE(traj.ok(), (traj.ok() ? "" : traj.error().message));
  const int n = scene.material_points.count();
  const double mass = box_mass(scene), dt = scene.settings.dt;
  const std::vector<double>& point_mass = scene.params[ParamId::PointMass].value;
  // Velocities at step t + 1 from positions: x' = x + dt v' for the points and the box.
  const auto liquid_momentum = [&](int t) {
    Vec3<double> sum{0, 0, 0};
    for (int q = 0; q < n; ++q)
      for (int k = 0; k < 3; ++k)
        (&sum.x)[k] += point_mass[size_t(q)] *
                       (traj->point_x[(size_t(t + 1) * n + q) * 3 + k] - traj->point_x[(size_t(t) * n + q) * 3 + k]) /
                       dt;
    return sum;
  };
  const auto box_velocity = [&](int t) {
    return Vec3<double>{(traj->body_x[3 * size_t(t + 1)] - traj->body_x[3 * size_t(t)]) / dt,
                        (traj->body_x[3 * size_t(t + 1) + 1] - traj->body_x[3 * size_t(t) + 1]) / dt,
                        (traj->body_x[3 * size_t(t + 1) + 2] - traj->body_x[3 * size_t(t) + 2]) / dt};
  };
  Vec3<double> start{0, 0, 0};
  for (int q = 0; q < n; ++q)
    for (int k = 0; k < 3; ++k)
      (&start.x)[k] += point_mass[size_t(q)] * scene.params[ParamId::PointVelocity].value[3 * size_t(q) + k];
  const double* v0 = scene.params[ParamId::BodyVelocity].value.data();
  start += mass * Vec3<double>{v0[0], v0[1], v0[2]};
  double worst = 0;
  for (int t = 0; t < traj->steps; ++t)
    worst = std::max(worst, length(liquid_momentum(t) + mass * box_velocity(t) - start));
  INFO("box mass " << mass << " kg, momentum " << length(start) << " kg m/s, largest change " << worst);
  CHECK(worst < 1e-6 * length(start));  // differences of positions: rounding of x over dt
  // They met: the box lost a good part of its speed to the liquid.
  const Vec3<double> last = box_velocity(traj->steps - 1);
  CAPTURE(last.y);
  CHECK(last.y > 0.5 * v0[1]);

  test::check_same_bits(make_box_in_pool(test::kSanitized ? 10 : 30));
}

TEST_CASE("material points and bodies: a light box floats in liquid, a heavy one sinks; float32 follows float64") {
  // Boxes let go at rest just above the surface of a pool that fills the grid's floor,
  // of stiffer liquid (5e4 Pa: it gives 5 % under its own weight). (Points inside a body
  // move with it: a box put into the liquid would carry the water it overlaps.)
  const Pool pool = full_pool();
  const double surface = pool.top() + pool.h / 2;
  struct Settled {
    double box, liquid;  // the box's centre and the liquid's highest point, in y
  };
  const auto settle = [&](double density) {
    Scene scene = make_box_in_pool(600, density, pool, 5e4);
    scene.params[ParamId::BodyVelocity].value = {0, 0, 0};
    scene.params[ParamId::BodyAngularVelocity].value = {0, 0, 0};
    scene.params[ParamId::BodyOrientation].value = {0, 0, 0, 1};
    scene.params[ParamId::BodyPosition].value[1] = surface + 0.06;  // its bottom 1 cm above
    const Result<Trajectory> traj = test::cpu_simulator(scene, 1)->trajectory(scene.params);
    REQUIRE_MESSAGE(traj.ok(), (traj.ok() ? "" : traj.error().message));
    const int n = scene.material_points.count();
    Settled end{traj->body_x[3 * size_t(traj->steps) + 1], 0};
    for (int q = 0; q < n; ++q) end.liquid = std::max(end.liquid, traj->point_x[(size_t(traj->steps) * n + q) * 3 + 1]);
    return end;
  };
  const Settled light = settle(400), heavy = settle(3000);
  CAPTURE(light.box);
  CAPTURE(light.liquid);
  CAPTURE(heavy.box);
  CAPTURE(heavy.liquid);
  // At 400 kg/m^3 a box 10 cm tall floats 4 cm deep: its centre 1 cm above the surface,
  // which is half a row (2.6 cm) above the highest points. On this coarse grid (the box
  // is 1.6 cells tall) it rides 1 to 2 cm lower; at 3000 kg/m^3 it sinks.
  CHECK(light.box > light.liquid);
  CHECK(heavy.box < heavy.liquid - 0.08);

  const Scene scene = make_box_in_pool(test::kSanitized ? 15 : 60);
  const Result<Evaluation> f64 = test::cpu_simulator(scene, 1)->evaluate(scene.params);
  const Result<Evaluation> f32 = test::cpu_simulator(scene, 1, -1, Precision::Float32)->evaluate(scene.params);
  REQUIRE(f64.ok());
  REQUIRE(f32.ok());
  CHECK(f32->loss == doctest::Approx(f64->loss).epsilon(1e-4));
}

// A paddle (a thin box) hangs from a hinge to the world into a slot across the pool; a
// motor turns it with per-step controls, and the objective pulls the liquid's centroid
// to one side.
Scene make_paddle_scene(int steps) {
  Scene scene = make_box_in_pool(steps, 800, {10, 4, 0.04, 0.2, 0.05});
  test::set_sizes(scene, {{0.02, 0.08, 0.16}});
  const double anchor[3] = {0.5, 0.36, 0.5};
  scene.params[ParamId::BodyPosition].value = {anchor[0], anchor[1] - 0.08, anchor[2]};
  scene.params[ParamId::BodyOrientation].value = {0, 0, 0, 1};
  scene.params[ParamId::BodyVelocity].value = {0, 0, 0};
  scene.params[ParamId::BodyAngularVelocity].value = {0, 0, 0};
  scene.joints = {{"hinge", JointType::Hinge, -1, 0, {0, 0, 1}, false, 0, 0, false}};
  scene.joint_settings.stiffness = 2e4;
  scene.joint_settings.damping = 5;
  shape_parameters(scene);
  scene.params[ParamId::JointAnchor].value = {anchor[0], anchor[1], anchor[2]};
  for (int t = 0; t < steps; ++t) scene.params[ParamId::JointControl].value[size_t(t)] = 0.8 + 0.5 * std::sin(0.1 * t);
  scene.objectives = {scene.objectives[1]};  // the liquid's centroid
  scene.objectives[0].target = {0.3, 0.25, 0.5};
  return scene;
}

TEST_CASE("material points and bodies: a paddle on a motor stirs liquid; its controls' gradient") {
  const Scene scene = make_paddle_scene(test::kSanitized ? 15 : 40);
  REQUIRE_MESSAGE(check_scene(scene).ok(), check_scene(scene).error().message);
  // The paddle turns and pushes the liquid.
  const Result<Trajectory> traj = test::cpu_simulator(scene, 1)->trajectory(scene.params);
  REQUIRE(traj.ok());
  const double* q = &traj->body_q[4 * size_t(traj->steps)];
  CAPTURE(q[2]);
  CHECK(std::abs(q[2]) > 1e-3);
  const auto [verified, seen] = check_gradients(
      scene, {ParamId::JointControl, ParamId::BodyDensity, ParamId::JointAnchor, ParamId::MaterialBulkModulus},
      test::kSanitized ? 4 : 10);
  CHECK(verified > 0);
  CHECK(seen.count(ParamId::JointControl) == 1);
  CHECK(seen.count(ParamId::BodyDensity) == 1);
}

TEST_CASE("material points and bodies: a 2D grid with bodies is refused, and says where") {
  Scene scene = make_box_in_pool(10);
  scene.material_points.dims = 2;
  const auto checked = check_scene(scene);
  REQUIRE_FALSE(checked.ok());
  CAPTURE(checked.error().message);
  CHECK(checked.error().message.find("material_points.dimensions") != std::string::npos);
  CHECK(checked.error().message.find("3D only") != std::string::npos);
}
