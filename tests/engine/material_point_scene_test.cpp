// Material points in whole scenes (the family in the rollout, its scene-file section, its
// objectives): every parameter's gradient against central differences through the
// simulator, 2D and 3D; the same bits on any thread count and with checkpoints; a scene
// file that round-trips; bad sections named where they are wrong.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <utility>
#include <vector>
#include <string>

#include "body_test_support.h"
#include "cpu_simulator.h"
#include "nudge/gradcheck.h"
#include "nudge/parameter_facts.h"
#include "nudge/scene.h"
#include "sanitized.h"
#include "temp_dir.h"

using namespace nudge;

namespace {

// A block of solid points on two muscles above a row of liquid, in a 16-cell grid; the
// objective pulls the solid's centroid towards a point.
Scene make_point_scene(int dims, int steps = 50) {
  Scene scene;
  scene.name = dims == 2 ? "points 2D" : "points 3D";
  scene.settings.dt = 1e-3;
  scene.settings.steps = steps;
  scene.channels = 2;
  MaterialPoints& mp = scene.material_points;
  mp.dims = dims;
  mp.cells = 16;
  mp.size = 1.0;
  mp.wall_friction[2] = 0.5;
  mp.actuation = 3.0;
  mp.materials = {{"jelly", dims == 2 ? MaterialModel::FixedCorotated : MaterialModel::NeoHookean},
                  {"water", MaterialModel::Liquid}};
  std::vector<double> x;
  const double h = 0.5 / mp.cells;
  const int k = dims == 2 ? 4 : 2, kz = dims == 3 ? 2 : 1;
  for (int i = 0; i < k; ++i)
    for (int j = 0; j < k + 1; ++j)
      for (int l = 0; l < kz; ++l) {
        x.insert(x.end(), {0.4 + h * i, 0.3 + h * j, dims == 3 ? 0.4 + h * l : 0.0});
        mp.material.push_back(j == 0 ? 1 : 0);
        mp.channel.push_back(j == 0 ? -1 : (i < k / 2 ? 0 : 1));
      }
  shape_parameters(scene);
  ParameterSet& p = scene.params;
  p[ParamId::PointPosition].value = x;
  const int n = mp.count();
  for (int q = 0; q < n; ++q) {
    p[ParamId::PointVelocity].value[3 * size_t(q)] = 0.2 * std::sin(q);
    p[ParamId::PointVelocity].value[3 * size_t(q) + 1] = -0.4;
    p[ParamId::PointMass].value[size_t(q)] = mp.material[size_t(q)] == 1 ? 4.0 : 1.0;
    p[ParamId::PointVolume].value[size_t(q)] = std::pow(h, dims);
  }
  p[ParamId::MaterialYoungsModulus].value = {25.0, 0.0};
  p[ParamId::MaterialPoissonRatio].value = {0.25, 0.0};
  p[ParamId::MaterialBulkModulus].value = {0.0, 40.0};
  p[ParamId::MaterialViscosity].value = {0.0, 0.2};
  p[ParamId::Gravity].value = {0.0, -3.8, 0.0};
  for (int t = 0; t < steps; ++t) {
    p[ParamId::Controls].value[2 * size_t(t)] = std::sin(0.2 * t);
    p[ParamId::Controls].value[2 * size_t(t) + 1] = std::cos(0.15 * t);
  }
  Objective target;
  target.type = ObjectiveType::Target;
  for (int q = 0; q < n; ++q)
    if (mp.material[size_t(q)] == 0) target.points.push_back(q);
  target.target = {0.6, 0.35, dims == 3 ? 0.45 : 0.0};
  Objective speed;
  speed.type = ObjectiveType::Velocity;
  speed.points = {0, n - 1};
  speed.target = {0.1, 0.0, 0.0};
  speed.step = steps / 2;
  speed.weight = 0.3;
  scene.objectives = {target, speed};
  return scene;
}

// A 2D block of nx x ny points h apart from (x0, y0), of one material and no muscle.
void add_block(MaterialPoints& mp, std::vector<double>& x, double x0, double y0, int nx, int ny, double h,
               int material) {
  for (int i = 0; i < nx; ++i)
    for (int j = 0; j < ny; ++j) {
      x.insert(x.end(), {x0 + h * i, y0 + h * j, 0.0});
      mp.material.push_back(material);
      mp.channel.push_back(-1);
    }
}

// The points' rows once the section is complete: positions x, each point's velocity
// (vx(q), vy) in the plane, unit masses and a volume of h^2 each.
template <class Vx>
void set_2d_points(Scene& scene, const std::vector<double>& x, double h, Vx vx, double vy) {
  shape_parameters(scene);
  ParameterSet& p = scene.params;
  p[ParamId::PointPosition].value = x;
  for (int q = 0; q < scene.material_points.count(); ++q) {
    p[ParamId::PointVelocity].value[3 * size_t(q)] = vx(q);
    p[ParamId::PointVelocity].value[3 * size_t(q) + 1] = vy;
    p[ParamId::PointMass].value[size_t(q)] = 1.0;
    p[ParamId::PointVolume].value[size_t(q)] = h * h;
  }
}

// Liquid in a cup of three boxes that channel 0 tilts about its bottom's middle, over a
// fixed box (a scene collider) it spills onto; the objective pulls the liquid's centroid
// towards the box.
Scene make_cup_scene(int steps) {
  Scene scene;
  scene.name = "cup";
  scene.settings.dt = 1e-3;
  scene.settings.steps = steps;
  scene.channels = 1;
  MaterialPoints& mp = scene.material_points;
  mp.dims = 2;
  mp.cells = 16;
  mp.size = 1.0;
  mp.materials = {{"water", MaterialModel::Liquid}};
  const auto box = [](double x, double y, double hx, double hy, double turn = 0.0) {
    ColliderShape c;
    c.type = ColliderType::Box;
    c.position[0] = x, c.position[1] = y;
    c.half_extents[0] = hx, c.half_extents[1] = hy, c.half_extents[2] = 0.5;
    c.orientation[2] = std::sin(turn / 2), c.orientation[3] = std::cos(turn / 2);
    return c;
  };
  MaterialVessel cup;
  cup.name = "cup";
  cup.parts = {box(0.5, 0.3, 0.2, 0.06), box(0.3, 0.45, 0.06, 0.2), box(0.7, 0.45, 0.06, 0.2, 0.1)};
  cup.pivot[0] = 0.5, cup.pivot[1] = 0.3;
  cup.channel = 0;
  cup.gain = 0.5;
  cup.angle = 0.05;
  cup.friction = 0.3;
  mp.vessels = {cup};
  mp.collider_friction = -1;
  scene.colliders = {box(0.8, 0.12, 0.1, 0.05)};
  std::vector<double> x;
  const double h = 0.5 / mp.cells;
  add_block(mp, x, 0.42, 0.4, 5, 4, h, 0);
  set_2d_points(
      scene, x, h, [](int q) { return 0.3 + 0.1 * std::sin(q); }, -0.6);
  ParameterSet& p = scene.params;
  const int n = mp.count();
  p[ParamId::MaterialBulkModulus].value = {40.0};
  p[ParamId::MaterialViscosity].value = {0.1};
  p[ParamId::Gravity].value = {0.0, -3.8, 0.0};
  // Turning rates (rad/s, times the gain): the cup turns back and forth by a few degrees.
  for (int t = 0; t < steps; ++t) p[ParamId::Controls].value[size_t(t)] = -6.0 + 8.0 * std::sin(0.1 * t);
  Objective target;
  target.type = ObjectiveType::Target;
  for (int q = 0; q < n; ++q) target.points.push_back(q);
  target.target = {0.8, 0.3, 0.0};
  // And the share of them inside a box the liquid reaches (a few softness widths deep).
  Objective inside;
  inside.type = ObjectiveType::Inside;
  for (int q = 0; q < n; q += 2) inside.points.push_back(q);
  inside.target = {0.45, 0.35, -0.1, 0.6, 0.5, 0.1, 0.02};
  inside.weight = 2.0;
  scene.objectives = {target, inside};
  return scene;
}

}  // namespace

// A column of sand dropped onto the floor beside a block of jelly: it slumps and
// spreads; the objective pulls the sand's centroid to the right and down.
Scene make_sand_scene(int steps) {
  Scene scene;
  scene.name = "sand";
  scene.settings.dt = 1e-3;
  scene.settings.steps = steps;
  MaterialPoints& mp = scene.material_points;
  mp.dims = 2;
  mp.cells = 16;
  mp.size = 1.0;
  mp.wall_friction[2] = 0.4;
  mp.materials = {{"sand", MaterialModel::Sand}, {"jelly", MaterialModel::FixedCorotated}};
  std::vector<double> x;
  const double h = 0.5 / mp.cells;
  add_block(mp, x, 0.4, 0.2, 4, 8, h, 0);
  add_block(mp, x, 0.56, 0.2, 3, 3, h, 1);
  set_2d_points(
      scene, x, h, [](int q) { return 0.3 * std::sin(q); }, -1.0);
  ParameterSet& p = scene.params;
  const int n = mp.count();
  p[ParamId::MaterialYoungsModulus].value = {400.0, 100.0};
  p[ParamId::MaterialPoissonRatio].value = {0.3, 0.2};
  p[ParamId::MaterialFrictionAngle].value = {30.0, 30.0};
  p[ParamId::Gravity].value = {0.0, -9.8, 0.0};
  Objective target;
  target.type = ObjectiveType::Target;
  for (int q = 0; q < n; ++q)
    if (mp.material[size_t(q)] == 0) target.points.push_back(q);
  target.target = {0.6, 0.1, 0.0};
  // And a heap's outline for the sand to take (the Chamfer distance to 12 points).
  Objective shape;
  shape.type = ObjectiveType::Shape;
  shape.points = target.points;
  for (int q = 0; q < 12; ++q)
    shape.target.insert(shape.target.end(), {0.42 + 0.025 * q, 0.2 + 0.1 * std::exp(-0.05 * (q - 4) * (q - 4)), 0.0});
  shape.weight = 0.5;
  scene.objectives = {target, shape};
  return scene;
}

// Checks a sand scene's gradients (positions, velocities, E, nu, friction angle) against
// central differences: every verifiable entry passes, at least `least` are checked, and
// each `required` entry (a parameter and its row) is among them with a gradient not 0.
void check_sand_gradients(const Scene& scene, int least, const std::vector<std::pair<ParamId, int>>& required) {
  REQUIRE_MESSAGE(check_scene(scene).ok(), check_scene(scene).error().message);
  GradCheckOptions options;
  options.samples_per_parameter = test::kSanitized ? 6 : 12;
  options.parameters = {ParamId::PointPosition, ParamId::PointVelocity, ParamId::MaterialYoungsModulus,
                        ParamId::MaterialPoissonRatio, ParamId::MaterialFrictionAngle};
  Result<GradCheckReport> report = gradient_check(scene, options);
  REQUIRE_MESSAGE(report.ok(), (report.ok() ? "" : report.error().message));
  int verified = 0;
  std::set<std::pair<ParamId, int>> seen;
  for (const GradCheckEntry& e : report->entries) {
    INFO(param_name(e.param) << "[" << e.index << "] adjoint " << e.adjoint << ", finite difference "
                             << e.finite_difference << ", uncertainty " << e.uncertainty);
    CHECK((e.passed || !e.verifiable));
    if (e.verifiable && e.adjoint != 0.0) {
      ++verified;
      seen.insert({e.param, e.index});
    }
  }
  CHECK(verified >= least);
  for (const auto& entry : required) {
    INFO(param_name(entry.first) << "[" << entry.second << "] moves the loss and is checked");
    CHECK(seen.count(entry) == 1);
  }
}

TEST_CASE("material points: sand's gradients (its friction angle's too) against central differences") {
  check_sand_gradients(make_sand_scene(test::kSanitized ? 30 : 80), test::kSanitized ? 8 : 20,
                       {{ParamId::MaterialFrictionAngle, 0}});
}

// The highest of the scene's first `sand` points after its rollout at a friction angle:
// dropped and left to settle, at a steep angle a column keeps more of its height.
double sand_top(Scene scene, double angle, int sand) {
  scene.params[ParamId::MaterialFrictionAngle].value[0] = angle;
  const Result<Trajectory> t = test::cpu_simulator(scene, 1)->trajectory(scene.params);
  REQUIRE(t.ok());
  const size_t last = size_t(t->steps) * size_t(t->points) * 3;
  double top = 0;
  for (int q = 0; q < sand; ++q) top = std::max(top, t->point_x[last + 3 * size_t(q) + 1]);
  return top;
}

TEST_CASE("material points: sand slumps less at a steeper friction angle, the same bits on threads") {
  const Scene scene = make_sand_scene(400);  // 41 points: cheap under the sanitizers too
  const double flat = sand_top(scene, 5.0, 32), steep = sand_top(scene, 60.0, 32);
  CAPTURE(flat);
  CAPTURE(steep);
  CHECK(steep > flat + 0.02);
  test::check_same_bits(make_sand_scene(test::kSanitized ? 20 : 60));
}

// The 3D counterpart: a column of sand beside a cube of fixed corotated jelly, dropped
// onto the floor; the objectives pull the sand's centroid down and to the right and ask
// every point to have come to rest by the end.
Scene make_sand_scene_3d(int steps) {
  Scene scene;
  scene.name = "sand 3D";
  scene.settings.dt = 1e-3;
  scene.settings.steps = steps;
  MaterialPoints& mp = scene.material_points;
  mp.dims = 3;
  mp.cells = 16;
  mp.size = 1.0;
  mp.wall_friction[2] = 0.4;
  mp.materials = {{"sand", MaterialModel::Sand}, {"jelly", MaterialModel::FixedCorotated}};
  std::vector<double> x;
  const double h = 0.5 / mp.cells;
  const auto block = [&](double x0, double y0, int nx, int ny, int nz, int material) {
    for (int i = 0; i < nx; ++i)
      for (int j = 0; j < ny; ++j)
        for (int l = 0; l < nz; ++l) {
          x.insert(x.end(), {x0 + h * i, y0 + h * j, 0.45 + h * l});
          mp.material.push_back(material);
          mp.channel.push_back(-1);
        }
  };
  block(0.4, 0.2, 3, 6, 3, 0);
  block(0.53, 0.2, 2, 2, 2, 1);
  shape_parameters(scene);
  ParameterSet& p = scene.params;
  p[ParamId::PointPosition].value = x;
  const int n = mp.count();
  for (int q = 0; q < n; ++q) {
    p[ParamId::PointVelocity].value[3 * size_t(q)] = 0.3 * std::sin(q);
    p[ParamId::PointVelocity].value[3 * size_t(q) + 1] = -1.0;
    p[ParamId::PointVelocity].value[3 * size_t(q) + 2] = 0.2 * std::cos(q);
    p[ParamId::PointMass].value[size_t(q)] = 1000.0 * h * h * h;  // 1000 kg/m^3
    p[ParamId::PointVolume].value[size_t(q)] = h * h * h;
  }
  p[ParamId::MaterialYoungsModulus].value = {2e4, 5e3};
  p[ParamId::MaterialPoissonRatio].value = {0.3, 0.2};
  p[ParamId::MaterialFrictionAngle].value = {30.0, 30.0};
  p[ParamId::Gravity].value = {0.0, -9.8, 0.0};
  Objective target;
  target.type = ObjectiveType::Target;
  for (int q = 0; q < n; ++q)
    if (mp.material[size_t(q)] == 0) target.points.push_back(q);
  target.target = {0.6, 0.1, 0.5};
  Objective rest;
  rest.type = ObjectiveType::Rest;
  for (int q = 0; q < n; ++q) rest.points.push_back(q);
  rest.weight = 0.5;
  scene.objectives = {target, rest};
  return scene;
}

TEST_CASE("material points: 3D sand and fixed corotated, and a rest objective, against central differences") {
  const Scene scene = make_sand_scene_3d(test::kSanitized ? 20 : 60);
  // The sand's angle and the corotated jelly's stiffness move the loss and are checked.
  check_sand_gradients(scene, test::kSanitized ? 8 : 20,
                       {{ParamId::MaterialFrictionAngle, 0}, {ParamId::MaterialYoungsModulus, 1}});

  // The rest objective is the points' mean |v|^2 / 2 at its step: at step 0, the
  // velocities the scene starts with.
  Scene still = scene;
  still.objectives = {scene.objectives[1]};
  still.objectives[0].step = 0;
  const Result<Evaluation> e = test::cpu_simulator(still, 1)->evaluate(still.params);
  REQUIRE(e.ok());
  double energy = 0;
  for (const double v : scene.params[ParamId::PointVelocity].value) energy += 0.5 * v * v;
  CHECK(e->loss == doctest::Approx(0.5 * energy / scene.material_points.count()).epsilon(1e-12));
}

TEST_CASE("material points: 3D sand slumps less at a steeper friction angle, the same bits on threads") {
  const Scene scene = make_sand_scene_3d(test::kSanitized ? 150 : 400);
  const double flat = sand_top(scene, 5.0, 54), steep = sand_top(scene, 60.0, 54);
  CAPTURE(flat);
  CAPTURE(steep);
  CHECK(steep > flat + 0.02);
  test::check_same_bits(make_sand_scene_3d(test::kSanitized ? 20 : 60));
  // float32 (its own Jacobi tolerance and eigenvalue-gap threshold) within rounding of
  // float64 over the rollout.
  const Scene short_run = make_sand_scene_3d(test::kSanitized ? 20 : 100);
  const Result<Evaluation> f64 = test::cpu_simulator(short_run, 1)->evaluate(short_run.params);
  const Result<Evaluation> f32 = test::cpu_simulator(short_run, 1, -1, Precision::Float32)->evaluate(short_run.params);
  REQUIRE(f64.ok());
  REQUIRE(f32.ok());
  CHECK(f32->loss == doctest::Approx(f64->loss).epsilon(1e-4));
}

TEST_CASE("material points: sand and a shape objective round-trip through a file; bad ones are named") {
  const Scene scene = make_sand_scene(10);
  const test::TempDir dir("nudge-sand");
  const std::filesystem::path path = dir.path / "sand.json";
  REQUIRE(save_scene(scene, path).ok());
  Result<Scene> loaded = load_scene(path);
  REQUIRE_MESSAGE(loaded.ok(), (loaded.ok() ? "" : loaded.error().message));
  CHECK(loaded->material_points.materials[0].model == MaterialModel::Sand);
  CHECK(loaded->params[ParamId::MaterialFrictionAngle].value == scene.params[ParamId::MaterialFrictionAngle].value);
  REQUIRE(loaded->objectives.size() == 2);
  CHECK(loaded->objectives[1].type == ObjectiveType::Shape);
  CHECK(loaded->objectives[1].target == scene.objectives[1].target);
  CHECK(loaded->objectives[1].points == scene.objectives[1].points);

  const auto problem = [](Scene bad) {
    const Status status = check_scene(bad);
    return status.ok() ? std::string() : status.error().message;
  };
  Scene steep = scene;
  steep.params[ParamId::MaterialFrictionAngle].value[0] = 95;
  CHECK(problem(steep).find("material_points.materials[0].friction_angle: found 95") != std::string::npos);
  Scene ragged = scene;
  ragged.objectives[1].target.pop_back();
  CHECK(problem(ragged).find("objectives[1].shape: found 35 values") != std::string::npos);
  // From a file: an empty shape is named where it is.
  std::ofstream(dir.path / "empty.json") << R"({"format": "nudge-scene", "version": 1,
    "simulation": {"dt": 0.001, "steps": 2},
    "material_points": {"dimensions": 2, "grid": {"cells": 16, "size": 1}, "materials": [{"model": "sand",
      "youngs_modulus": 100, "poisson_ratio": 0.3, "friction_angle": 30}], "position": [[0.5, 0.5, 0]]},
    "objectives": [{"type": "shape", "shape": []}]})";
  const Result<Scene> empty = load_scene(dir.path / "empty.json");
  REQUIRE_FALSE(empty.ok());
  CHECK(empty.error().message.find("objectives[0].shape") != std::string::npos);
}

TEST_CASE("material points: a turning vessel's controls, against central differences through the simulator") {
  const Scene scene = make_cup_scene(test::kSanitized ? 20 : 60);
  REQUIRE_MESSAGE(check_scene(scene).ok(), check_scene(scene).error().message);
  GradCheckOptions options;
  options.samples_per_parameter = test::kSanitized ? 8 : 20;
  options.parameters = {ParamId::Controls, ParamId::PointPosition, ParamId::PointVelocity,
                        ParamId::MaterialBulkModulus};
  Result<GradCheckReport> report = gradient_check(scene, options);
  REQUIRE_MESSAGE(report.ok(), (report.ok() ? "" : report.error().message));
  int verified = 0, controls = 0;
  for (const GradCheckEntry& e : report->entries) {
    INFO(param_name(e.param) << "[" << e.index << "] adjoint " << e.adjoint << ", finite difference "
                             << e.finite_difference << ", uncertainty " << e.uncertainty);
    CHECK((e.passed || !e.verifiable));
    if (e.verifiable && e.adjoint != 0.0) ++verified, controls += e.param == ParamId::Controls;
  }
  CHECK(verified >= (test::kSanitized ? 6 : 25));
  CHECK(controls >= (test::kSanitized ? 3 : 10));  // the cup's turn moves the liquid
}

TEST_CASE("material points: every parameter's gradient through the simulator against central differences") {
  for (const int dims : {2, 3}) {
    CAPTURE(dims);
    // Shorter under the sanitizers, where a step costs tens of times more.
    const Scene scene = make_point_scene(dims, test::kSanitized ? 20 : 50);
    REQUIRE_MESSAGE(check_scene(scene).ok(), check_scene(scene).error().message);
    GradCheckOptions options;
    options.samples_per_parameter = test::kSanitized ? 6 : 12;
    options.parameters = {ParamId::PointPosition,
                          ParamId::PointVelocity,
                          ParamId::PointMass,
                          ParamId::PointVolume,
                          ParamId::MaterialYoungsModulus,
                          ParamId::MaterialPoissonRatio,
                          ParamId::MaterialBulkModulus,
                          ParamId::MaterialViscosity,
                          ParamId::Controls,
                          ParamId::Gravity};
    Result<GradCheckReport> report = gradient_check(scene, options);
    REQUIRE_MESSAGE(report.ok(), (report.ok() ? "" : report.error().message));
    // Every entry the differences can resolve agrees; a few cannot (the last steps'
    // controls, which move the final state by dt^2, sit below the differences' noise).
    int verified = 0;
    std::set<ParamId> verified_parameters;
    for (const GradCheckEntry& e : report->entries) {
      INFO(param_name(e.param) << "[" << e.index << "] adjoint " << e.adjoint << ", finite difference "
                               << e.finite_difference << ", uncertainty " << e.uncertainty);
      CHECK((e.passed || !e.verifiable));
      if (e.verifiable && e.adjoint != 0.0) ++verified, verified_parameters.insert(e.param);
    }
    // Of about 70 sampled; the sanitizers' shorter rollouts move the loss less, and some
    // parameters' entries sit below the differences' noise there.
    CHECK(verified >= (test::kSanitized ? 10 : 45));
    if (!test::kSanitized) CHECK(verified_parameters.size() == options.parameters.size());  // each checked
  }
}

TEST_CASE("material points: the same bits on 1, 2 and 8 threads, stored or checkpointed") {
  test::check_same_bits(make_point_scene(2, test::kSanitized ? 20 : 60));
  test::check_same_bits(make_point_scene(3, test::kSanitized ? 10 : 30));
}

TEST_CASE("material points: a scene file round-trips, and float32 follows float64") {
  const Scene scene = make_point_scene(2, 40);
  const test::TempDir dir("nudge-points");
  const std::filesystem::path path = dir.path / "points.json";
  REQUIRE(save_scene(scene, path).ok());
  Result<Scene> loaded = load_scene(path);
  REQUIRE_MESSAGE(loaded.ok(), (loaded.ok() ? "" : loaded.error().message));
  const MaterialPoints& a = scene.material_points;
  const MaterialPoints& b = loaded->material_points;
  CHECK(b.dims == a.dims);
  CHECK(b.cells == a.cells);
  CHECK(b.material == a.material);
  CHECK(b.channel == a.channel);
  CHECK(b.materials.size() == a.materials.size());
  CHECK(b.materials[0].model == MaterialModel::FixedCorotated);
  CHECK(b.materials[1].name == "water");
  CHECK(b.actuation == a.actuation);
  CHECK(b.wall_friction[2] == 0.5);
  for (auto id : {ParamId::PointPosition, ParamId::PointVelocity, ParamId::PointMass, ParamId::PointVolume,
                  ParamId::MaterialYoungsModulus, ParamId::MaterialPoissonRatio, ParamId::MaterialBulkModulus,
                  ParamId::MaterialViscosity})
    CHECK(loaded->params[id].value == scene.params[id].value);
  CHECK(loaded->objectives[0].points == scene.objectives[0].points);
  // The same motion from the file.
  const Result<Trajectory> from_code = test::cpu_simulator(scene, 1)->trajectory(scene.params);
  const Result<Trajectory> from_file = test::cpu_simulator(*loaded, 1)->trajectory(loaded->params);
  REQUIRE(from_code.ok());
  REQUIRE(from_file.ok());
  CHECK(from_file->point_x == from_code->point_x);
  // float32 within rounding of float64 over the rollout.
  const Result<Evaluation> f64 = test::cpu_simulator(scene, 1)->evaluate(scene.params);
  const Result<Evaluation> f32 = test::cpu_simulator(scene, 1, -1, Precision::Float32)->evaluate(scene.params);
  REQUIRE(f64.ok());
  REQUIRE(f32.ok());
  CHECK(f32->loss == doctest::Approx(f64->loss).epsilon(1e-4));
}

TEST_CASE("material points: a bad section is an error that says what and where") {
  const auto problem = [](Scene scene) {
    const Status status = check_scene(scene);
    return status.ok() ? std::string() : status.error().message;
  };
  Scene soft = make_point_scene(3);
  soft.params[ParamId::MaterialPoissonRatio].value[0] = 0.5;
  CHECK(problem(soft).find("material_points.materials[0].poisson_ratio: found 0.5") != std::string::npos);
  Scene outside = make_point_scene(2);
  outside.params[ParamId::PointPosition].value[0] = 0.01;
  CHECK(problem(outside).find("material_points.position[0][0]: found 0.01") != std::string::npos);
  Scene liquid = make_point_scene(2);
  liquid.params[ParamId::MaterialBulkModulus].value[1] = 0;
  CHECK(problem(liquid).find("material_points.materials[1].bulk_modulus") != std::string::npos);
  Scene channel = make_point_scene(2);
  channel.material_points.channel[3] = 5;
  CHECK(problem(channel).find("material_points.channel[3]: found 5") != std::string::npos);
  Scene flat = make_point_scene(2);
  flat.params[ParamId::PointPosition].value[2] = 0.5;
  CHECK(problem(flat).find("expected the x-y plane") != std::string::npos);
  Scene effort = make_point_scene(2);
  effort.objectives[0].type = ObjectiveType::Effort;  // reads controls, not points
  CHECK(problem(effort).find("objectives[0].points: only target, velocity, travel, inside, shape and rest objectives "
                             "read material points") != std::string::npos);

  // From a file: the reader names the key.
  const test::TempDir dir("nudge-points-bad");
  const std::filesystem::path path = dir.path / "bad.json";
  std::ofstream(path) << R"({"format": "nudge-scene", "version": 1, "simulation": {"dt": 0.001, "steps": 10},
    "material_points": {"dimensions": 2, "grid": {"cells": 16, "size": 1},
      "materials": [{"model": "plasma"}], "position": [[0.5, 0.5, 0]]}})";
  Result<Scene> bad = load_scene(path);
  REQUIRE(!bad.ok());
  CHECK(bad.error().message.find("material_points.materials[0].model") != std::string::npos);
  CHECK(bad.error().message.find("neo_hookean, fixed_corotated, liquid or sand") != std::string::npos);
}

TEST_CASE("material points: a vessel round-trips through a file, and a bad one is named") {
  const Scene scene = make_cup_scene(30);
  const test::TempDir dir("nudge-vessel");
  const std::filesystem::path path = dir.path / "cup.json";
  REQUIRE(save_scene(scene, path).ok());
  Result<Scene> loaded = load_scene(path);
  REQUIRE_MESSAGE(loaded.ok(), (loaded.ok() ? "" : loaded.error().message));
  const MaterialVessel& a = scene.material_points.vessels.at(0);
  const MaterialVessel& b = loaded->material_points.vessels.at(0);
  CHECK(b.name == "cup");
  CHECK(b.parts.size() == 3);
  CHECK(b.parts[2].orientation[2] == a.parts[2].orientation[2]);
  CHECK(b.channel == 0);
  CHECK(b.gain == a.gain);
  CHECK(b.friction == a.friction);
  CHECK(loaded->material_points.collider_friction == -1);
  CHECK(loaded->objectives.at(1).type == ObjectiveType::Inside);
  CHECK(loaded->objectives.at(1).target == scene.objectives.at(1).target);
  CHECK(loaded->objectives.at(1).points == scene.objectives.at(1).points);
  const Result<Trajectory> from_code = test::cpu_simulator(scene, 1)->trajectory(scene.params);
  const Result<Trajectory> from_file = test::cpu_simulator(*loaded, 1)->trajectory(loaded->params);
  REQUIRE(from_code.ok());
  REQUIRE(from_file.ok());
  CHECK(from_file->point_x == from_code->point_x);
  // The cup holds the liquid up: without it, the liquid falls further.
  Scene no_cup = scene;
  no_cup.material_points.vessels.clear();
  const Result<Trajectory> falling = test::cpu_simulator(no_cup, 1)->trajectory(no_cup.params);
  REQUIRE(falling.ok());
  const auto lowest = [](const Trajectory& tr) {  // of the final positions
    const size_t count = size_t(tr.points), last = size_t(tr.steps) * count * 3;
    double y = 1e9;
    for (size_t q = 0; q < count; ++q) y = std::min(y, tr.point_x[last + 3 * q + 1]);
    return y;
  };
  CHECK(lowest(*from_code) > 0.36 - 0.04);  // on the cup's bottom (its top at 0.36), a cell's give at most
  CHECK(lowest(*falling) < lowest(*from_code) - 0.01);

  const auto problem = [](Scene s) {
    const Status status = check_scene(s);
    return status.ok() ? std::string() : status.error().message;
  };
  Scene tilted = scene;
  tilted.material_points.vessels[0].axis[0] = 1, tilted.material_points.vessels[0].axis[2] = 0;
  CHECK(problem(tilted).find("material_points.vessels[0].axis: not along z") != std::string::npos);
  Scene thin = scene;
  thin.material_points.vessels[0].parts[1].half_extents[0] = 0;
  CHECK(problem(thin).find("material_points.vessels[0].parts[1].half_extents[0]: found 0") != std::string::npos);
  Scene channel = scene;
  channel.material_points.vessels[0].channel = 3;
  CHECK(problem(channel).find("material_points.vessels[0].channel: found 3") != std::string::npos);
  Scene inverted = scene;
  inverted.objectives[1].target[4] = 0.2;  // the upper corner's y below the lower's
  CHECK(problem(inverted).find("objectives[1].region.upper[1]: found 0.2") != std::string::npos);
  Scene soft = scene;
  soft.objectives[1].target[6] = 0;
  CHECK(problem(soft).find("objectives[1].region.softness: found 0") != std::string::npos);
}
