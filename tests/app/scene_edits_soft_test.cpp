// The soft-body generators (scene_edits_soft.cpp): membrane cloth, soft boxes and balls
// of tets, and imported tet meshes; each result valid and stable through a save, with the
// counts, masses and moduli asked for, and undone as any edit is.
#include <doctest/doctest.h>

#include <fstream>
#include <numeric>

#include "nudge/tet_mesh.h"
#include "nudge/vec3.h"
#include "scene_edits_test_scenes.h"
#include "studio/document.h"

using namespace nudge;
using namespace nudge::scene_edits_test;
namespace edits = nudge::studio::edits;

namespace {

double sum_from(const std::vector<double>& v, int first) { return std::accumulate(v.begin() + first, v.end(), 0.0); }

}  // namespace

TEST_CASE("scene edits: a membrane cloth is add_cloth's sheet held by triangles and bending edges") {
  TempDir temp;
  const Scene scene = chain_scene(temp.path);
  edits::MembraneMaterial m;
  m.stiffness = 300, m.area_stiffness = 250, m.damping = 0.25, m.bending_stiffness = 0.02;
  const Scene cloth = ok(edits::add_membrane_cloth(scene, {0, 1, 0}, 0.3, 0.2, 4, 3, m, true));
  CHECK(cloth.particle_count() == 5 + 12);
  CHECK(cloth.spring_count() == scene.spring_count());  // no new springs
  CHECK(cloth.triangle_count() == 2 * 3 * 2);
  // Interior edges: 2 x 3 cell diagonals, 2 x 2 vertical ones and 3 x 1 horizontal ones.
  CHECK(cloth.bending_count() == 6 + 4 + 3);
  CHECK(cloth.triangles[0] == 5);
  CHECK(cloth.triangles[2] == 5 + 4 + 1);
  for (int i = 5; i < 17; ++i) CHECK(cloth.pinned[size_t(i)] == (i >= 5 + 8 ? 1 : 0));
  CHECK(values(cloth, ParamId::TriangleStiffness) == std::vector<double>(12, 300));
  CHECK(values(cloth, ParamId::TriangleAreaStiffness) == std::vector<double>(12, 250));
  CHECK(values(cloth, ParamId::TriangleDamping) == std::vector<double>(12, 0.25));
  CHECK(values(cloth, ParamId::BendingStiffness) == std::vector<double>(13, 0.02));
  // Counter-clockwise seen from +z: the first triangle's normal points along +z.
  const std::vector<double>& x = values(cloth, ParamId::InitialPosition);
  const auto p = [&](int i) {
    return nudge::Vec3<double>{x[3 * size_t(i)], x[3 * size_t(i) + 1], x[3 * size_t(i) + 2]};
  };
  CHECK(cross(p(cloth.triangles[1]) - p(cloth.triangles[0]), p(cloth.triangles[2]) - p(cloth.triangles[0])).z > 0);
  check_stable(cloth, temp.path);

  check_error(edits::add_membrane_cloth(scene, {0, 0, 0}, 1, 1, 1, 4, m, false),
              "add cloth: found nu = 1; expected at least 2 particles along u");
  m.bending_stiffness = -1;
  check_error(edits::add_membrane_cloth(scene, {0, 0, 0}, 1, 1, 3, 4, m, false),
              "add cloth: found bending stiffness -1; expected a bending stiffness >= 0 (N m/rad)");
}

TEST_CASE("scene edits: a soft box of tets whose masses add up to density x volume") {
  TempDir temp;
  const Scene scene = chain_scene(temp.path);
  edits::SoftMaterial m;
  m.density = 800, m.young = 2e5, m.poisson = 0.25, m.damping = 3;
  const Scene box = ok(edits::add_soft_box(scene, {0, 0.5, 0}, {0.3, 0.2, 0.1}, {3, 2, 1}, m));
  CHECK(box.particle_count() == 5 + 4 * 3 * 2);
  CHECK(box.tet_count() == 5 * 3 * 2 * 1);
  CHECK(box.spring_count() == scene.spring_count());
  CHECK(box.tet_channel == std::vector<int>(30, -1));
  CHECK(sum_from(values(box, ParamId::Mass), 5) == doctest::Approx(800 * 0.3 * 0.2 * 0.1));
  CHECK(values(box, ParamId::Mass)[0] == 1);  // the old particles keep theirs
  const NeoHookeanModuli k = neohookean_from_young_poisson(2e5, 0.25);
  CHECK(values(box, ParamId::TetMu) == std::vector<double>(30, k.k_mu));
  CHECK(values(box, ParamId::TetLambda) == std::vector<double>(30, k.k_lambda));
  CHECK(values(box, ParamId::TetDamping) == std::vector<double>(30, 3));
  // mu = E / (2 (1 + nu)) = 80 kPa; k_mu = 4/3 mu.
  CHECK(k.k_mu == doctest::Approx(4.0 / 3 * 8e4));
  check_stable(box, temp.path);

  // A second one after the first: its tets on its own particles.
  const Scene two = ok(edits::add_soft_box(box, {1, 0.5, 0}, {0.1, 0.1, 0.1}, {1, 1, 1}, m));
  CHECK(two.tet_count() == 35);
  CHECK(*std::min_element(two.tets.begin() + 4 * 30, two.tets.end()) == box.particle_count());

  check_error(edits::add_soft_box(scene, {0, 0, 0}, {1, 1, 1}, {0, 1, 1}, m),
              "add soft box: found 0 cells along x; expected at least 1");
  check_error(edits::add_soft_box(scene, {0, 0, 0}, {1, 1, 1}, {100, 100, 100}, m),
              "add soft box: found (100 + 1) x (100 + 1) x (100 + 1) = 1030301 particles; expected at most 100000");
  m.poisson = 0.5;
  check_error(edits::add_soft_box(scene, {0, 0, 0}, {1, 1, 1}, {1, 1, 1}, m),
              "add soft box: found Poisson's ratio 0.5; expected a ratio in (-1, 0.5)");
}

TEST_CASE("scene edits: a soft ball, and a tet mesh imported, scaled and moved; errors change nothing") {
  TempDir temp;
  const Scene scene = chain_scene(temp.path);
  const edits::SoftMaterial m;
  const Scene ball = ok(edits::add_soft_ball(scene, {0, 1, 0}, 0.2, 3, m));
  CHECK(ball.tet_count() == 6 * 27);
  CHECK(ball.particle_count() == 5 + 64);
  Result<TetMesh> mesh = tet_sphere({0, 1, 0}, 0.2, 3);
  REQUIRE(mesh.ok());
  CHECK(sum_from(values(ball, ParamId::Mass), 5) == doctest::Approx(1000 * tet_mesh_volume(*mesh)));
  check_stable(ball, temp.path);

  // One tet in TetGen's files, numbered from 1, with an unused point 5.
  {
    std::ofstream node(temp.path / "one.node");
    node << "5 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n5 9 9 9\n";
    std::ofstream ele(temp.path / "one.ele");
    ele << "1 4 0\n1 1 2 3 4\n";
  }
  const Scene imported = ok(edits::import_tet_mesh(scene, temp.path / "one", 0.5, {1, 2, 3}, m));
  CHECK(imported.particle_count() == 5 + 4);  // the unused point dropped
  CHECK(imported.tet_count() == 1);
  const std::vector<double>& x = values(imported, ParamId::InitialPosition);
  CHECK(x[3 * 6] == doctest::Approx(1.5));  // point 2, (1, 0, 0) x 0.5 + (1, 2, 3)
  CHECK(x[3 * 6 + 1] == doctest::Approx(2));
  CHECK(sum_from(values(imported, ParamId::Mass), 5) == doctest::Approx(1000 * 0.125 / 6));
  check_stable(imported, temp.path);

  const Result<Scene> missing = edits::import_tet_mesh(scene, temp.path / "none.msh", 1, {0, 0, 0}, m);
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().message.rfind("import tet mesh: ", 0) == 0);
  CHECK(missing.error().message.find("none.msh") != std::string::npos);
  check_error(edits::import_tet_mesh(scene, temp.path / "one", 0, {0, 0, 0}, m),
              "import tet mesh: found scale 0; expected a factor > 0");
  TetMesh flat;
  flat.vertices = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {0, 1, 0}};
  flat.tets = {0, 1, 2, 3};
  const Result<Scene> bad = edits::add_tet_mesh(scene, flat, m);
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message.rfind("add tet mesh: the mesh", 0) == 0);
}

TEST_CASE("scene edits: a soft box is one step of the document's history, undone and redone") {
  TempDir temp;
  studio::Document document(chain_scene(temp.path));
  const Scene before = document.scene();
  document.replace_scene(ok(edits::add_soft_box(document.scene(), {0, 0, 0}, {0.2, 0.2, 0.2}, {2, 2, 2}, {})),
                         "add a soft box");
  CHECK(document.scene().tet_count() == 40);
  REQUIRE(document.undo());
  CHECK(document.scene().tet_count() == 0);
  CHECK(document.scene().particle_count() == before.particle_count());
  REQUIRE(document.redo());
  CHECK(document.scene().tet_count() == 40);
  CHECK(document.history().back().label == "add a soft box");
}
