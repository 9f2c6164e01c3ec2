// Closed triangle meshes from OBJ text (faces in every index form, bad lines named), the
// check that a mesh bounds a solid, and the lattice points inside one: a cube's, a
// hollow cube's (the hole stays empty) and a sphere's (its volume), in 3D and as a slice.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>
#include <string>

#include "../obj_cube.h"
#include "../source_dir.h"
#include "nudge/triangle_mesh.h"

using namespace nudge;

namespace {

using test::cube_obj;

TriangleMesh parsed(const std::string& text) {
  Result<TriangleMesh> mesh = parse_obj_mesh(text, "test.obj");
  REQUIRE_MESSAGE(mesh.ok(), (mesh.ok() ? "" : mesh.error().message));
  return *mesh;
}

std::string problem(const std::string& text) {
  Result<TriangleMesh> mesh = parse_obj_mesh(text, "test.obj");
  return mesh.ok() ? std::string() : mesh.error().message;
}

}  // namespace

TEST_CASE("triangle mesh: OBJ faces in each index form, polygons as fans, bad lines named") {
  const TriangleMesh cube = parsed(cube_obj(0, 1));
  CHECK(cube.vertices.size() == 8);
  CHECK(cube.triangles.size() == 12);  // six quads, two triangles each
  CHECK(cube.triangles[0] == std::array<int, 3>{0, 2, 3});
  CHECK(cube.triangles[1] == std::array<int, 3>{0, 3, 1});
  CHECK_FALSE(open_mesh_problem(cube));

  const TriangleMesh forms = parsed("v 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\nvn 0 0 1\nf 1/1 2/1/1 -1//1 # a comment\n");
  REQUIRE(forms.triangles.size() == 1);
  CHECK(forms.triangles[0] == std::array<int, 3>{0, 1, 2});

  CHECK(problem("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 4\n") ==
        "test.obj:4: found 'f 1 2 4'; expected vertex indices from 1 to 3 (or -1 to -3) in 'f a b c ...'");
  CHECK(problem("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2\n") ==
        "test.obj:4: found 'f 1 2'; expected 'f a b c ...' with at least three vertices");
  CHECK(problem("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 x 3\n").find("test.obj:4: found 'f 1 x 3'") == 0);
  CHECK(problem("v 0 0 0\nv 1 0 0\nv 0 1 0\n") ==
        "test.obj: found no faces; expected 'f' lines, a closed surface around the solid");
  CHECK(problem("v 0 0 zero\n").find("test.obj:1:") == 0);  // the vertices' own errors
}

TEST_CASE("triangle mesh: a surface with a hole or a fin bounds no solid") {
  std::string text = cube_obj(0, 1);
  text.erase(text.rfind("f "));  // the last face gone: its four edges have one face each
  const std::optional<std::string> open = open_mesh_problem(parsed(text));
  REQUIRE(open);
  CHECK(open->find("belongs to 1 face, not 2") != std::string::npos);
  const std::optional<std::string> fin = open_mesh_problem(parsed(cube_obj(0, 1) + "v 2 2 2\nf 1 2 9\n"));
  REQUIRE(fin);
  CHECK(fin->find("belongs to 3 faces, not 2") != std::string::npos);
  const std::optional<std::string> flat = open_mesh_problem(parsed(cube_obj(0, 1) + "f 1 1 2\n"));
  REQUIRE(flat);
  CHECK(flat->find("face 13 repeats a vertex") != std::string::npos);
}

TEST_CASE("triangle mesh: the lattice inside a cube, a hollow cube, a sphere, and a slice") {
  // Spacing 0.1 from 0.05: ten points along each axis of the unit cube.
  const TriangleMesh cube = parsed(cube_obj(0, 1));
  CHECK(lattice_points_inside(cube, {0.05, 0.05, 0.05}, 0.1, {10, 10, 10}).size() == 1000);
  // A lattice twice the cube's size: only the cube's thousand.
  const auto around = lattice_points_inside(cube, {-0.95, -0.95, -0.95}, 0.1, {30, 30, 30});
  CHECK(around.size() == 1000);
  for (const auto& x : around)
    for (double c : x) CHECK((c > 0 && c < 1));
  // A hollow cube: the inner wall's faces turned inward; 4^3 points fall in the hole.
  const TriangleMesh hollow = parsed(cube_obj(0, 1) + cube_obj(0.3, 0.7, 9, true));
  CHECK_FALSE(open_mesh_problem(hollow));
  CHECK(lattice_points_inside(hollow, {0.05, 0.05, 0.05}, 0.1, {10, 10, 10}).size() == 1000 - 64);
  // The slice z = 0.5 of the hollow cube: a square ring, 100 - 16 points.
  CHECK(lattice_points_inside(hollow, {0.05, 0.05, 0.5}, 0.1, {10, 10, 1}).size() == 100 - 16);

  // A UV sphere of radius 1 (48 x 24 faces, vertices shared at the poles and the seam):
  // the points inside count its volume (the faceted one's is a little less than 4/3 pi).
  std::string text;
  const int slices = 48, stacks = 24;
  text += "v 0 0 1\n";
  for (int i = 1; i < stacks; ++i)
    for (int j = 0; j < slices; ++j) {
      const double theta = std::numbers::pi * i / stacks, phi = 2 * std::numbers::pi * j / slices;
      text += "v " + std::to_string(std::sin(theta) * std::cos(phi)) + " " +
              std::to_string(std::sin(theta) * std::sin(phi)) + " " + std::to_string(std::cos(theta)) + "\n";
    }
  text += "v 0 0 -1\n";
  const auto ring = [&](int i, int j) { return 2 + (i - 1) * slices + (j % slices); };  // 1-based
  const int south = 2 + (stacks - 1) * slices;
  for (int j = 0; j < slices; ++j) {
    text += "f 1 " + std::to_string(ring(1, j)) + " " + std::to_string(ring(1, j + 1)) + "\n";
    for (int i = 1; i + 1 < stacks; ++i)
      text += "f " + std::to_string(ring(i, j)) + " " + std::to_string(ring(i + 1, j)) + " " +
              std::to_string(ring(i + 1, j + 1)) + " " + std::to_string(ring(i, j + 1)) + "\n";
    text += "f " + std::to_string(south) + " " + std::to_string(ring(stacks - 1, j + 1)) + " " +
            std::to_string(ring(stacks - 1, j)) + "\n";
  }
  const TriangleMesh sphere = parsed(text);
  CHECK_FALSE(open_mesh_problem(sphere));
  const double h = 0.05;
  const auto points = lattice_points_inside(sphere, {-1 + h / 2, -1 + h / 2, -1 + h / 2}, h, {40, 40, 40});
  const double volume = double(points.size()) * h * h * h;
  CHECK(volume == doctest::Approx(4.0 / 3.0 * std::numbers::pi).epsilon(0.02));
  for (const auto& x : points) CHECK(x[0] * x[0] + x[1] * x[1] + x[2] * x[2] < 1.0);
}

TEST_CASE("triangle mesh: the torus in assets/ is closed and holds its volume, its hole empty") {
  Result<TriangleMesh> torus = read_obj_mesh(test::source_dir() / "assets" / "meshes" / "torus.obj");
  REQUIRE_MESSAGE(torus.ok(), (torus.ok() ? "" : torus.error().message));
  CHECK(torus->triangles.size() == 2 * 32 * 16);
  CHECK_FALSE(open_mesh_problem(*torus));
  const double h = 0.004, ring = 0.06, tube = 0.025;
  const auto points = lattice_points_inside(*torus, {-0.088 + h / 2, -0.028 + h / 2, -0.088 + h / 2}, h, {44, 14, 44});
  const double volume = double(points.size()) * h * h * h;
  CHECK(volume == doctest::Approx(2 * std::numbers::pi * std::numbers::pi * ring * tube * tube).epsilon(0.05));
  for (const auto& x : points) {
    const double from_axis = std::hypot(x[0], x[2]);
    CHECK(std::hypot(from_axis - ring, x[1]) < tube);  // inside the tube: none in the hole
  }
}
