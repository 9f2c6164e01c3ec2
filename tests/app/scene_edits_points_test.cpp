// The material point generator (scene_edits_points.cpp): Edit > Add > Liquid, Sand and
// Soft Solid fill a box with points of a new material; the first makes the grid. Each
// result valid, stable through a save, and it simulates; bad values name what is wrong.
#include <doctest/doctest.h>

#include <cmath>

#include "nudge/simulator.h"
#include "scene_edits_test_scenes.h"

using namespace nudge;
using namespace nudge::scene_edits_test;
namespace edits = nudge::studio::edits;

TEST_CASE("scene edits: a box of liquid makes a grid around it, and sand joins it as a second material") {
  TempDir temp;
  const Scene scene = chain_scene(temp.path);
  edits::MaterialBlock liquid;
  liquid.bulk = 4e3, liquid.viscosity = 0.2, liquid.density = 800;
  const Scene one = ok(edits::add_material_block(scene, {0.1, 0.5, 0.0}, {0.2, 0.1, 0.0}, liquid));
  const MaterialPoints& mp = one.material_points;
  CHECK(mp.dims == 2);  // a box of no depth is a 2D slice
  CHECK(mp.cells == 64);
  CHECK(mp.size == doctest::Approx(0.4));
  CHECK(mp.origin[0] == doctest::Approx(0.0));
  CHECK(mp.origin[1] == doctest::Approx(0.35));
  REQUIRE(mp.materials.size() == 1);
  CHECK(mp.materials[0].model == MaterialModel::Liquid);
  CHECK(mp.materials[0].name == "liquid");
  // Two points per cell along each axis: the cell is 0.4 / 64 m.
  const double spacing = 0.4 / 64 / 2;
  CHECK(mp.count() == 64 * 32);
  CHECK(values(one, ParamId::PointPosition)[0] == doctest::Approx(0.1 + spacing / 2));
  CHECK(values(one, ParamId::PointMass)[0] == doctest::Approx(800 * spacing * spacing));
  CHECK(values(one, ParamId::MaterialBulkModulus) == std::vector<double>{4e3});
  CHECK(values(one, ParamId::MaterialViscosity) == std::vector<double>{0.2});
  CHECK(one.particle_count() == scene.particle_count());  // the chain is untouched
  check_stable(one, temp.path);

  edits::MaterialBlock sand;
  sand.kind = edits::MaterialBlock::Kind::Sand;
  sand.young = 3e4, sand.friction_angle = 35;
  const Scene two = ok(edits::add_material_block(one, {0.1, 0.4, 0.0}, {0.05, 0.05, 0.0}, sand));
  CHECK(two.material_points.cells == 64);  // the grid stays
  REQUIRE(two.material_points.materials.size() == 2);
  CHECK(two.material_points.materials[1].model == MaterialModel::Sand);
  CHECK(two.material_points.materials[1].name == "sand 2");
  CHECK(values(two, ParamId::MaterialFrictionAngle)[1] == 35);
  CHECK(values(two, ParamId::MaterialYoungsModulus)[1] == 3e4);
  CHECK(two.material_points.count() == 64 * 32 + 16 * 16);
  CHECK(two.material_points.material.back() == 1);
  check_stable(two, temp.path);
  // Objectives on the points: a rest term over all of them and a target on the sand's
  // centroid keep their points (the studio's Objective Term menu adds these).
  Objective rest;
  rest.type = ObjectiveType::Rest;
  for (int q = 0; q < two.material_points.count(); ++q) rest.points.push_back(q);
  Objective target;
  target.type = ObjectiveType::Target;
  target.points = {64 * 32, 64 * 32 + 1};
  target.target = {0.2, 0.4, 0.0};
  const Scene aimed = ok(edits::add_objective(ok(edits::add_objective(two, rest)), target));
  REQUIRE(aimed.objectives.size() == two.objectives.size() + 2);
  CHECK(aimed.objectives.back().points == target.points);
  CHECK(aimed.objectives[aimed.objectives.size() - 2].points == rest.points);
  check_stable(aimed, temp.path);
  // It runs.
  Scene short_run = two;
  short_run.settings.steps = 5;
  short_run.objectives.clear();  // the chain's, at a later step
  shape_parameters(short_run);
  SimulatorOptions options;
  options.device = Device::Cpu;
  options.threads = 1;
  Result<std::unique_ptr<Simulator>> sim = Simulator::create(short_run, options);
  REQUIRE_MESSAGE(sim.ok(), (sim.ok() ? "" : sim.error().message));
  CHECK((*sim)->evaluate(short_run.params).ok());
}

TEST_CASE("scene edits: a soft solid is fixed corotated in 2D and Neo-Hookean in 3D") {
  TempDir temp;
  const Scene scene = chain_scene(temp.path);
  edits::MaterialBlock jelly;
  jelly.kind = edits::MaterialBlock::Kind::SoftSolid;
  const Scene flat = ok(edits::add_material_block(scene, {0, 0.5, 0}, {0.1, 0.1, 0}, jelly));
  CHECK(flat.material_points.materials[0].model == MaterialModel::FixedCorotated);
  const Scene deep = ok(edits::add_material_block(scene, {0, 0.5, 0}, {0.1, 0.1, 0.1}, jelly));
  CHECK(deep.material_points.dims == 3);
  CHECK(deep.material_points.cells == 32);  // the box is 16 cells across: 32 points
  CHECK(deep.material_points.materials[0].model == MaterialModel::NeoHookean);
  CHECK(deep.material_points.count() == 32 * 32 * 32);
  check_stable(deep, temp.path);
}

TEST_CASE("scene edits: a bad material block is an error that says what, and changes nothing") {
  TempDir temp;
  const Scene scene = chain_scene(temp.path);
  edits::MaterialBlock b;
  check_error(edits::add_material_block(scene, {0, 0, 0}, {0, 0.1, 0}, b),
              "add material points: found size [0, 0.1, 0]; expected x and y > 0 and z >= 0 (0: a 2D slice) (m)");
  b.viscosity = -1;
  check_error(edits::add_material_block(scene, {0, 0, 0}, {0.1, 0.1, 0}, b),
              "add material points: found viscosity -1; expected a viscosity >= 0 (Pa s)");
  b = {};
  b.kind = edits::MaterialBlock::Kind::Sand;
  b.friction_angle = 90;
  check_error(edits::add_material_block(scene, {0, 0, 0}, {0.1, 0.1, 0}, b),
              "add material points: found friction angle 90; expected an angle in [0, 90) degrees");
  b.friction_angle = 30;
  // Sand in 3D: a box with depth makes a 3D grid of sand.
  const Scene deep_sand = ok(edits::add_material_block(scene, {0, 0, 0}, {0.1, 0.1, 0.1}, b));
  CHECK(deep_sand.material_points.dims == 3);
  CHECK(deep_sand.material_points.materials.at(0).model == MaterialModel::Sand);
  // Outside an existing grid.
  const Scene one = ok(edits::add_material_block(scene, {0, 0.5, 0}, {0.1, 0.1, 0}, edits::MaterialBlock{}));
  const Result<Scene> far = edits::add_material_block(one, {3, 0.5, 0}, {0.1, 0.1, 0}, edits::MaterialBlock{});
  REQUIRE_FALSE(far.ok());
  CHECK(far.error().message.find("reaches outside the material points' grid") != std::string::npos);
  // Too many points: a fine grid.
  Scene fine = one;
  fine.material_points.cells = 1024;
  const Result<Scene> huge = edits::add_material_block(fine, {0, 0.5, 0}, {0.1, 0.1, 0}, edits::MaterialBlock{});
  REQUIRE_FALSE(huge.ok());
  CHECK(huge.error().message.find("points (2 per grid cell along each axis); expected at most 100000") !=
        std::string::npos);
}
