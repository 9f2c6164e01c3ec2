// The material point generator (scene_edits_points.cpp): Edit > Add > Liquid, Sand and
// Soft Solid fill a box with points of a new material; the first makes the grid. Each
// result valid, stable through a save, and it simulates; bad values name what is wrong.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "../obj_cube.h"
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

TEST_CASE("scene edits: a closed OBJ mesh filled with sand, in 3D and as a 2D slice; bad meshes named") {
  TempDir temp;
  const Scene scene = chain_scene(temp.path);
  // A hollow cube 0.2 m across (a 0.1 m hole), its faces as quads.
  const auto cube = test::cube_obj;
  const std::filesystem::path hollow = temp.path / "hollow.obj";
  std::ofstream(hollow) << cube(-0.1, 0.1, 1, false) << cube(-0.05, 0.05, 9, true);
  edits::MaterialBlock sand;
  sand.kind = edits::MaterialBlock::Kind::Sand;
  const Scene deep = ok(edits::add_material_mesh(scene, hollow, 1.0, {0.5, 0.5, 0.5}, false, sand));
  const MaterialPoints& mp = deep.material_points;
  CHECK(mp.dims == 3);
  CHECK(mp.cells == 32);
  CHECK(mp.size == doctest::Approx(0.4));  // twice the mesh's bounds
  // Spacing 0.4 / 64: 32 points across the cube, 16 across the hole.
  CHECK(mp.count() == 32 * 32 * 32 - 16 * 16 * 16);
  for (int q = 0; q < mp.count(); ++q) {
    double inner = 0;  // the largest distance from the centre along an axis: outside the hole
    for (int k = 0; k < 3; ++k)
      inner = std::max(inner, std::fabs(values(deep, ParamId::PointPosition)[3 * size_t(q) + size_t(k)] - 0.5));
    CHECK((inner > 0.05 && inner < 0.1));
  }
  check_stable(deep, temp.path);
  // Half the size, as a slice at z = 0.5: a 2D grid of 64 cells over 0.2 m, so 64 points
  // across the 0.1 m square and 32 across its hole.
  const Scene flat = ok(edits::add_material_mesh(scene, hollow, 0.5, {0.5, 0.5, 0.5}, true, sand));
  CHECK(flat.material_points.dims == 2);
  CHECK(flat.material_points.count() == 64 * 64 - 32 * 32);

  // Bad meshes and values: nothing changes, the error says what and where.
  const std::filesystem::path open = temp.path / "open.obj";
  std::string text = cube(0, 0.1, 1, false);
  text.erase(text.rfind("f "));
  std::ofstream(open) << text;
  const Result<Scene> holed = edits::add_material_mesh(scene, open, 1.0, {0.5, 0.5, 0.5}, false, sand);
  REQUIRE_FALSE(holed.ok());
  CHECK(holed.error().message.find("open.obj: the edge between vertices") != std::string::npos);
  CHECK(holed.error().message.find("expected a closed surface") != std::string::npos);
  const std::filesystem::path broken = temp.path / "broken.obj";
  std::ofstream(broken) << "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 7\n";
  const Result<Scene> bad_index = edits::add_material_mesh(scene, broken, 1.0, {0, 0, 0}, false, sand);
  REQUIRE_FALSE(bad_index.ok());
  CHECK(bad_index.error().message.find("broken.obj:4: found 'f 1 2 7'") != std::string::npos);
  const Result<Scene> missing = edits::add_material_mesh(scene, temp.path / "none.obj", 1.0, {0, 0, 0}, false, sand);
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().message.find("none.obj") != std::string::npos);
  check_error(edits::add_material_mesh(scene, hollow, 0.0, {0, 0, 0}, false, sand),
              "add material points: found scale 0; expected a scale > 0");
  // A slice plane that misses it: the 2D grid of the first fill is at z = 0.5.
  const Result<Scene> off = edits::add_material_mesh(flat, hollow, 1.0, {0.5, 0.5, 2.0}, false, sand);
  REQUIRE_FALSE(off.ok());
  CHECK(off.error().message.find("the plane z = 0.5 misses the mesh") != std::string::npos);
}
