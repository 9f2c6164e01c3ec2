// Tet meshes: the box and ball generators (volumes, orientation, conformity, a closed
// outward surface, shape), lumped masses, the mesh checks, and reading TetGen and Gmsh
// files (round trips and every error, with its text).
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <numbers>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "nudge/tet_mesh.h"
#include "nudge/tet_mesh_file.h"
#include "temp_dir.h"

using namespace nudge;
using Point = std::array<double, 3>;
using Kind = TetMeshProblem::Kind;

namespace {

// The test's own geometry, so that the library's volume is not checked against itself.
double det_volume(const Point& a, const Point& b, const Point& c, const Point& d) {
  const Point u{b[0] - a[0], b[1] - a[1], b[2] - a[2]}, v{c[0] - a[0], c[1] - a[1], c[2] - a[2]},
      w{d[0] - a[0], d[1] - a[1], d[2] - a[2]};
  return (u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) +
          u[2] * (v[0] * w[1] - v[1] * w[0])) /
         6.0;
}
double volume_of(const TetMesh& m, int t) {
  const auto p = [&](int k) { return m.vertices[static_cast<std::size_t>(m.tets[4 * t + k])]; };
  return det_volume(p(0), p(1), p(2), p(3));
}
double sum_of_volumes(const TetMesh& m) {
  double v = 0;
  for (int t = 0; t < m.tet_count(); ++t) v += volume_of(m, t);
  return v;
}
// The volume a closed outward surface encloses: the divergence theorem with the field x/3.
double enclosed_volume(const TetMesh& m, const std::vector<std::array<int, 3>>& triangles) {
  const Point origin{0, 0, 0};
  double v = 0;
  for (const auto& t : triangles)
    v += det_volume(origin, m.vertices[static_cast<std::size_t>(t[0])], m.vertices[static_cast<std::size_t>(t[1])],
                    m.vertices[static_cast<std::size_t>(t[2])]);
  return v;
}

// What every generated mesh must be: indices in range, positive tets, no face in more
// than two tets, and a closed, consistently oriented surface (each edge once each way)
// that encloses the tets' volume. Returns the surface.
std::vector<std::array<int, 3>> check_solid(const TetMesh& m) {
  REQUIRE(m.tets.size() % 4 == 0);
  REQUIRE(m.tet_count() > 0);
  for (int v : m.tets) REQUIRE((v >= 0 && v < m.vertex_count()));
  double smallest = 1e300, largest = 0;
  for (int t = 0; t < m.tet_count(); ++t) {
    smallest = std::min(smallest, volume_of(m, t));
    largest = std::max(largest, volume_of(m, t));
  }
  CHECK(smallest > 0);
  CHECK(smallest > 1e-3 * largest);  // no sliver hides among positive tets

  std::map<std::array<int, 3>, int> face_count;
  for (int t = 0; t < m.tet_count(); ++t)
    for (int skip = 0; skip < 4; ++skip) {
      std::array<int, 3> key{};
      for (int k = 0, n = 0; k < 4; ++k)
        if (k != skip) key[static_cast<std::size_t>(n++)] = m.tets[4 * t + k];
      std::sort(key.begin(), key.end());
      ++face_count[key];
    }
  int boundary = 0;
  for (const auto& [key, count] : face_count) {
    CHECK(count <= 2);
    boundary += count == 1;
  }

  const std::vector<std::array<int, 3>> surface = surface_triangles(m);
  CHECK(static_cast<int>(surface.size()) == boundary);
  std::map<std::pair<int, int>, int> directed;  // each edge once each way: closed and consistently oriented
  for (const auto& t : surface)
    for (int k = 0; k < 3; ++k) ++directed[{t[static_cast<std::size_t>(k)], t[static_cast<std::size_t>((k + 1) % 3)]}];
  for (const auto& [edge, count] : directed) {
    CHECK(count == 1);
    CHECK(directed.count({edge.second, edge.first}) == 1);
  }
  const double volume = sum_of_volumes(m);
  CHECK(enclosed_volume(m, surface) == doctest::Approx(volume).epsilon(1e-12));  // positive: outward
  CHECK(tet_mesh_volume(m) == doctest::Approx(volume).epsilon(1e-12));
  return surface;
}

double min_quality(const TetMesh& m) {
  double q = 1;
  for (int t = 0; t < m.tet_count(); ++t) q = std::min(q, tet_quality(m, t));
  return q;
}

std::vector<Kind> kinds(const std::vector<TetMeshProblem>& problems) {
  std::vector<Kind> k;
  for (const auto& p : problems) k.push_back(p.kind);
  return k;
}

// TetGen files of a mesh, numbered from `base`, with attributes, markers and comments.
std::pair<std::string, std::string> tetgen_text(const TetMesh& m, int base) {
  std::string node = "# written by the test\n" + std::to_string(m.vertex_count()) + "  3  1  1\n";
  char buffer[200];
  for (int v = 0; v < m.vertex_count(); ++v) {
    const Point& p = m.vertices[static_cast<std::size_t>(v)];
    std::snprintf(buffer, sizeof buffer, "%d %.17g %.17g %.17g 0.5 %d  # point\n", v + base, p[0], p[1], p[2], v % 2);
    node += buffer;
  }
  std::string ele = std::to_string(m.tet_count()) + " 4 1\n\n";
  for (int t = 0; t < m.tet_count(); ++t) {
    const int* c = &m.tets[4 * static_cast<std::size_t>(t)];
    std::snprintf(buffer, sizeof buffer, "  %d\t%d %d %d %d -1\n", t + base, c[0] + base, c[1] + base, c[2] + base,
                  c[3] + base);
    ele += buffer;
  }
  return {node, ele};
}

// One unit cube in 5 tets, as the box generator makes it.
TetMesh unit_cube() { return tet_box({0, 0, 0}, {1, 1, 1}, 1, 1, 1).value(); }

std::string tetgen_error(const std::string& node, const std::string& ele) {
  const Result<TetMesh> r = parse_tetgen_mesh(node, "cube.node", ele, "cube.ele");
  REQUIRE_FALSE(r.ok());
  return r.error().message;
}

std::string gmsh_error(const std::string& text) {
  const Result<TetMesh> r = parse_gmsh_mesh(text, "part.msh");
  REQUIRE_FALSE(r.ok());
  return r.error().message;
}

const char* const kGmshCube = R"($MeshFormat
2.2 0 8
$EndMeshFormat
$PhysicalNames
1
3 7 "solid"
$EndPhysicalNames
$Nodes
9
10 0 0 0
20 1 0 0
30 0 1 0
40 1 1 0
50 0 0 1
60 1 0 1
70 0 1 1
80 1 1 1
99 5 5 5
$EndNodes
$Elements
8
1 15 2 0 1 10
2 1 2 0 1 10 20
3 2 2 0 1 10 20 30
4 4 2 7 1 10 20 30 50
5 4 2 7 1 40 30 20 80
6 4 2 7 1 60 50 80 20
7 4 2 7 1 70 80 50 30
8 4 2 7 1 20 30 50 80
$EndElements
)";

}  // namespace

TEST_CASE("tet_box: exact volumes, positive tets, conforming, closed outward surface") {
  const Point lo{-0.5, 1.0, 2.0}, hi{1.5, 1.75, 2.25};
  for (const std::array<int, 3> n : {std::array{1, 1, 1}, std::array{2, 3, 4}, std::array{5, 1, 2}}) {
    CAPTURE(n);
    const TetMesh m = tet_box(lo, hi, n[0], n[1], n[2]).value();
    CHECK(m.vertex_count() == (n[0] + 1) * (n[1] + 1) * (n[2] + 1));
    CHECK(m.tet_count() == 5 * n[0] * n[1] * n[2]);
    const double cell = (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]) / (n[0] * n[1] * n[2]);
    for (int t = 0; t < m.tet_count(); ++t) {  // 4 corner tets of a sixth of a cell, 1 central of a third
      const double v = volume_of(m, t);
      CHECK((v == doctest::Approx(cell / 6).epsilon(1e-12) || v == doctest::Approx(cell / 3).epsilon(1e-12)));
    }
    CHECK(sum_of_volumes(m) == doctest::Approx(2.0 * 0.75 * 0.25).epsilon(1e-13));
    const auto surface = check_solid(m);
    // Two triangles per boundary square: any face left unshared inside would add more.
    CHECK(surface.size() == 4u * static_cast<unsigned>(n[0] * n[1] + n[1] * n[2] + n[2] * n[0]));
    for (const Point& p : m.vertices)
      for (std::size_t a = 0; a < 3; ++a) CHECK((p[a] >= lo[a] && p[a] <= hi[a]));
    CHECK(m.vertices.back() == hi);
    CHECK(check_tet_mesh(m).empty());
  }
  // Cubic cells: corner tets of quality 0.77, the central one regular.
  CHECK(min_quality(tet_box({0, 0, 0}, {3, 2, 1}, 6, 4, 2).value()) == doctest::Approx(0.7698).epsilon(1e-4));
}

TEST_CASE("tet_sphere: positive, conforming, on the sphere, volume converging to 4/3 pi r^3") {
  const Point centre{1, -2, 0.5};
  const double r = 0.75, ball = 4.0 / 3.0 * std::numbers::pi * r * r * r;
  double previous_deficit = 1;
  for (int resolution = 1; resolution <= 10; ++resolution) {
    CAPTURE(resolution);
    const TetMesh m = tet_sphere(centre, r, resolution).value();
    CHECK(m.tet_count() == 6 * resolution * resolution * resolution);
    const auto surface = check_solid(m);
    std::set<int> on_surface;
    for (const auto& t : surface) on_surface.insert(t.begin(), t.end());
    for (int v = 0; v < m.vertex_count(); ++v) {
      const Point& p = m.vertices[static_cast<std::size_t>(v)];
      const double d = std::hypot(p[0] - centre[0], p[1] - centre[1], p[2] - centre[2]);
      if (on_surface.count(v))
        CHECK(d == doctest::Approx(r).epsilon(1e-12));
      else
        CHECK(d < r * (1 - 0.5 / resolution));  // interior vertices stay a layer inside
    }
    CHECK(min_quality(m) > 0.45);
    CHECK(check_tet_mesh(m).empty());
    const double deficit = 1 - sum_of_volumes(m) / ball;
    CHECK(deficit > 0);  // inscribed
    CHECK(deficit < previous_deficit);
    previous_deficit = deficit;
  }
  // Second order: halving the cell size divides the missing volume by about 4.
  const auto deficit = [&](int resolution) {
    return 1 - sum_of_volumes(tet_sphere(centre, r, resolution).value()) / ball;
  };
  CHECK(deficit(4) < 0.065);
  CHECK(deficit(8) < 0.017);
  CHECK(deficit(16) < 0.0042);
  CHECK(deficit(8) < deficit(4) / 3.5);
  CHECK(deficit(16) < deficit(8) / 3.5);
  CHECK(min_quality(tet_sphere(centre, r, 16).value()) > 0.5);  // the shape does not degrade as cells shrink
}

TEST_CASE("tet generators refuse bad sizes") {
  CHECK(tet_box({0, 0, 0}, {1, 1, 1}, 0, 1, 1).error().message ==
        "tet_box: the cell count is 0; expected at least 1 (nx, ny, nz = 0, 1, 1)");
  CHECK(tet_box({0, 0, 0}, {1, 1, 1}, 1, -2, 1).error().message.find("is -2; expected at least 1") !=
        std::string::npos);
  CHECK(tet_box({0, 0, 0}, {1, 1, 1}, 1000, 1000, 1000).error().message.find("more than 50000000 tets") !=
        std::string::npos);
  CHECK(tet_box({0, 0, 0}, {1, 0, 1}, 1, 1, 1).error().message.find("must exceed the lower") != std::string::npos);
  CHECK(tet_box({0, 0, 0}, {1, NAN, 1}, 1, 1, 1).error().message.find("must be finite") != std::string::npos);
  CHECK(tet_sphere({0, 0, 0}, 0.0, 4).error().message ==
        "tet_sphere: the radius is 0; expected a positive finite number");
  CHECK_FALSE(tet_sphere({0, 0, 0}, INFINITY, 4).ok());
  CHECK_FALSE(tet_sphere({0, INFINITY, 0}, 1, 4).ok());
  CHECK(tet_sphere({0, 0, 0}, 1, 0).error().message == "tet_sphere: the resolution is 0; expected at least 1");
}

TEST_CASE("lumped masses: a quarter of density x volume per corner") {
  TetMesh one;
  one.vertices = {{0, 0, 0}, {2, 0, 0}, {0, 1, 0}, {0, 0, 3}};  // volume 1
  one.tets = {0, 1, 2, 3};
  CHECK(lumped_masses(one, 8.0) == std::vector<double>{2, 2, 2, 2});
  std::swap(one.tets[2], one.tets[3]);  // inverted, still of mass
  CHECK(lumped_masses(one, 8.0) == std::vector<double>{2, 2, 2, 2});

  // Two tets sharing a face, each with its own density; a vertex in no tet gets nothing.
  TetMesh two;
  two.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, 0, -1}, {9, 9, 9}};
  two.tets = {0, 1, 2, 3, 0, 2, 1, 4};  // each 1/6
  const std::vector<double> m = lumped_masses(two, std::vector<double>{6.0, 12.0});
  REQUIRE(m.size() == 6);
  CHECK(m[0] == doctest::Approx(0.25 + 0.5));
  CHECK(m[3] == doctest::Approx(0.25));
  CHECK(m[4] == doctest::Approx(0.5));
  CHECK(m[5] == 0);

  const TetMesh ball = tet_sphere({0, 0, 0}, 2, 6).value();
  double total = 0;
  for (double x : lumped_masses(ball, 1000.0)) total += x;
  CHECK(total == doctest::Approx(1000.0 * sum_of_volumes(ball)).epsilon(1e-12));
}

TEST_CASE("check_tet_mesh names each problem; orient_tets fixes inverted tets") {
  TetMesh m;
  m.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 0}, {0, 0, -1}, {0.2, 0.2, 0}, {5, 5, 5}};
  m.tets = {0, 1, 2, 3,   // fine
            0, 2, 1, 5,   // fine: below the first, sharing its face (0, 1, 2)
            1, 2, 4, 3,   // inverted; across the first's face (1, 2, 3)
            0, 1, 2, 6,   // flat: 6 is in the plane z = 0
            0, 1, 1, 3,   // repeated
            0, 1, 2, 8};  // out of range; 7 is in no tet
  const auto problems = check_tet_mesh(m);
  REQUIRE(problems.size() == 5);
  CHECK(kinds(problems) == std::vector<Kind>{Kind::inverted, Kind::degenerate, Kind::repeated_vertex,
                                             Kind::index_out_of_range, Kind::unused_vertex});
  CHECK(problems[0].index == 2);
  CHECK(problems[0].message == "tet 2: is inverted (volume -0.166667); swap two corners, or call orient_tets");
  CHECK(problems[1].index == 3);
  CHECK(problems[1].message == "tet 3: is flat (volume 0)");
  CHECK(problems[2].message == "tet 4: corners 1 and 2 are the same vertex (1)");
  CHECK(problems[3].message == "tet 5: corner 3 is vertex 8; the mesh has 8 vertices");
  CHECK(problems[4].index == 7);
  CHECK(problems[4].message == "vertex 7: is in no tet");
  CHECK(validate_tet_mesh(m, "m").error().message ==
        "m: tet 2: is inverted (volume -0.166667); swap two corners, or call orient_tets (and 4 more problems)");

  // Fix what can be fixed: the inverted tet, by swapping its corners 2 and 3.
  m.tets.resize(12);
  CHECK(orient_tets(m) == 1);
  CHECK(volume_of(m, 2) == doctest::Approx(1.0 / 6));
  CHECK(std::vector<int>(m.tets.begin() + 8, m.tets.end()) == std::vector<int>{1, 2, 3, 4});
  CHECK(kinds(check_tet_mesh(m)) == std::vector<Kind>{Kind::unused_vertex, Kind::unused_vertex});
  CHECK(orient_tets(m) == 0);
  m.vertices.resize(6);
  CHECK(validate_tet_mesh(m, "m").ok());

  // A third tet on one face: not conforming.
  TetMesh fan;
  fan.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0, 0, -1}, {0.1, 0.1, 2}};
  fan.tets = {0, 1, 2, 3, 0, 2, 1, 4, 0, 1, 2, 5};
  const auto fanned = check_tet_mesh(fan);
  CHECK(kinds(fanned) == std::vector<Kind>{Kind::overshared_face});
  CHECK(fanned[0].message == "tet 2: its face (0, 1, 2) is in 3 tets; a conforming mesh has at most 2");

  // A partial last tet and non-finite coordinates.
  TetMesh partial;
  partial.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, NAN}};
  partial.tets = {0, 1, 2, 3, 0, 1};
  const auto bad = check_tet_mesh(partial);
  CHECK(kinds(bad) == std::vector<Kind>{Kind::non_finite_vertex, Kind::index_out_of_range});
  CHECK(bad[0].message == "vertex 3: a coordinate is not a finite number");
  CHECK(bad[1].message == "tet 1: has only 2 of its 4 corners (the tet list's length, 6, is not a multiple of 4)");
  CHECK(validate_tet_mesh(TetMesh{}, "empty").error().message == "empty: has no tets");

  // A sliver that tet_rest would refuse is degenerate here too; loosening the tolerance accepts it.
  TetMesh sliver;
  sliver.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0.3, 0.3, 1e-8}};
  sliver.tets = {0, 1, 2, 3};
  CHECK(kinds(check_tet_mesh(sliver)) == std::vector<Kind>{Kind::degenerate});
  CHECK(check_tet_mesh(sliver, 1e-9).empty());
}

TEST_CASE("remove_unused_vertices renumbers the tets") {
  TetMesh m;
  m.vertices = {{9, 9, 9}, {0, 0, 0}, {1, 0, 0}, {8, 8, 8}, {0, 1, 0}, {0, 0, 1}};
  m.tets = {1, 2, 4, 5};
  CHECK(remove_unused_vertices(m) == std::vector<int>{-1, 0, 1, -1, 2, 3});
  CHECK(m.tets == std::vector<int>{0, 1, 2, 3});
  CHECK(m.vertices == std::vector<Point>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}});
}

TEST_CASE("TetGen .node/.ele: round trips, 0- and 1-based, inverted tets oriented") {
  TetMesh m = tet_box({0, 0, 0}, {1, 2, 3}, 2, 2, 1).value();
  test::TempDir dir("tetgen");
  for (int base : {0, 1}) {
    CAPTURE(base);
    const auto [node, ele] = tetgen_text(m, base);
    dir.write("box.node", node);
    dir.write("box.ele", ele);
    for (const char* name : {"box", "box.node", "box.ele"}) {
      const Result<TetMesh> read = read_tetgen_mesh(dir.path / name);
      REQUIRE_MESSAGE(read.ok(), read.error().message);
      CHECK(read->vertices == m.vertices);
      CHECK(read->tets == m.tets);
    }
    CHECK(read_tet_mesh(dir.path / "box.node")->tets == m.tets);
  }
  // A file with the other orientation convention: every tet read back positive, same corners.
  TetMesh flipped = m;
  for (int t = 0; t < flipped.tet_count(); ++t) std::swap(flipped.tets[4 * t], flipped.tets[4 * t + 1]);
  const auto [node, ele] = tetgen_text(flipped, 1);
  const TetMesh read = parse_tetgen_mesh(node, "f.node", ele, "f.ele").value();
  for (int t = 0; t < read.tet_count(); ++t) {
    CHECK(volume_of(read, t) > 0);
    std::vector<int> a(read.tets.begin() + 4 * t, read.tets.begin() + 4 * t + 4),
        b(m.tets.begin() + 4 * t, m.tets.begin() + 4 * t + 4);
    std::sort(a.begin(), a.end());
    std::sort(b.begin(), b.end());
    CHECK(a == b);
  }
  // Short headers take TetGen's defaults (3 dimensions, no attributes, no markers, 4 nodes).
  const TetMesh plain =
      parse_tetgen_mesh("4\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n", "p.node", "1\n1 1 2 3 4", "p.ele").value();
  CHECK(plain.tets == std::vector<int>{0, 1, 2, 3});
}

TEST_CASE("TetGen errors name the file, the line and what is wrong") {
  const auto [node, ele] = tetgen_text(unit_cube(), 1);  // 8 points, 5 tets; line 1 a comment
  const auto replace = [](std::string text, const std::string& from, const std::string& to) {
    const std::size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
  };
  const auto first_lines = [](const std::string& text, int n) {
    std::size_t at = 0;
    for (int i = 0; i < n; ++i) at = text.find('\n', at) + 1;
    return text.substr(0, at);
  };

  test::TempDir dir("tetgen-errors");
  dir.write("only.node", node);
  CHECK(read_tetgen_mesh(dir.path / "only").error().message == (dir.path / "only.ele").string() + ": no such file");
  CHECK(read_tetgen_mesh(dir.path / "none.ele").error().message ==
        (dir.path / "none.node").string() + ": no such file");

  CHECK(tetgen_error(first_lines(node, 5), ele) ==
        "cube.node:6: the file ends after 3 of the 8 points its first line declares");
  CHECK(tetgen_error(node, first_lines(ele, 4)) ==
        "cube.ele:5: the file ends after 2 of the 5 tets its first line declares");
  CHECK(tetgen_error("", ele) ==
        "cube.node:1: the file is empty; expected '<points> 3 <attributes> <boundary markers>'");
  CHECK(tetgen_error("# nothing\n", ele) ==
        "cube.node:2: the file is empty; expected '<points> 3 <attributes> <boundary markers>'");
  CHECK(tetgen_error(replace(node, "3 0 1 0 0.5", "3 0 1e999 0 0.5"), ele) ==
        "cube.node:5: found '3 0 1e999 0 0.5 0  # point'; expected '<number> x y z' and 2 more numbers with finite "
        "coordinates");
  CHECK(tetgen_error(replace(node, "3 0 1 0 0.5 0", "3 0 1 0 0.5"), ele) ==
        "cube.node:5: found '3 0 1 0 0.5  # point'; expected '<number> x y z' and 2 more numbers (as the first line "
        "declares)");
  CHECK(tetgen_error(replace(node, "8  3  1  1", "8 2 0 0"), ele)
            .starts_with("cube.node:2: found '8 2 0 0'; expected '<points> 3 <attributes> <boundary markers 0|1>'"));
  CHECK(tetgen_error(replace(node, "\n1 0 0 0", "\n2 0 0 0"), ele) ==
        "cube.node:3: the first point is numbered 2; expected 0 or 1");
  CHECK(tetgen_error(replace(node, "\n4 1 1 0", "\n5 1 1 0"), ele) ==
        "cube.node:6: point number 5 follows 3; expected the numbers to run on consecutively (4)");
  CHECK(tetgen_error(node + "9 1 1 1 0 0\n", ele) ==
        "cube.node:11: found more than the 8 points the first line declares");

  CHECK(tetgen_error(node, replace(ele, "5 4 1", "5 10 0")) ==
        "cube.ele:1: the tets have 10 nodes (quadratic, tetgen -o2); only 4-node tets are supported");
  CHECK(tetgen_error(node, replace(ele, "\t1 2 3 5", "\t1 2 3 9")) ==
        "cube.ele:3: found point 9; cube.node has points 1 to 8");
  CHECK(tetgen_error(node, replace(ele, "\t1 2 3 5", "\t1 2 3 0")) ==
        "cube.ele:3: found point 0; cube.node has points 1 to 8");
  CHECK(tetgen_error(node, replace(ele, "\t1 2 3 5", "\t1 2 3 x")) ==
        "cube.ele:3: found '1\\x091 2 3 x -1'; expected '<number> a b c d' and a region attribute with integer point "
        "numbers");
  CHECK(tetgen_error(node, replace(ele, "\t1 2 3 5", "\t1 2 3 3")) == "cube.ele:3: the tet names point 3 twice");
  CHECK(tetgen_error(node, replace(ele, "\t1 2 3 5", "\t1 2 3 4")) ==
        "cube.ele:3: the tet is flat: points 1, 2, 3 and 4 lie in one plane (or nearly), so it has no volume");
  CHECK(tetgen_error("6\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n5 0 0 -1\n6 0.1 0.1 2\n",
                     "3\n1 1 2 3 4\n2 1 3 2 5\n3 1 2 3 6\n") ==
        "cube.ele:4: a face of this tet is in 3 or more tets; expected a conforming mesh, where a face is shared by at "
        "most 2");
  CHECK(tetgen_error(node, replace(ele, "\t1 2 3 5", "\t1 2 3 5 7 8")) ==
        "cube.ele:3: found '1\\x091 2 3 5 7 8 -1'; expected '<number> a b c d' and a region attribute (as the first "
        "line declares)");
}

TEST_CASE("TetGen and Gmsh readers survive garbage and truncation") {
  const auto [node, ele] = tetgen_text(tet_box({0, 0, 0}, {1, 1, 1}, 2, 1, 1).value(), 0);
  std::mt19937 random(7);
  const std::string alphabet = "0123456789 .-+eE#\n\t$xX";
  int ok = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    std::string a = node, b = ele, g = kGmshCube;
    switch (trial % 3) {
      case 0:  // cut somewhere
        a.resize(random() % (a.size() + 1));
        b.resize(random() % (b.size() + 1));
        g.resize(random() % (g.size() + 1));
        break;
      case 1:  // a few characters changed
        for (int k = 0; k < 3; ++k) {
          a[random() % a.size()] = alphabet[random() % alphabet.size()];
          b[random() % b.size()] = alphabet[random() % alphabet.size()];
          g[random() % g.size()] = alphabet[random() % alphabet.size()];
        }
        break;
      default:  // noise, bytes of every value
        for (std::string* s : {&a, &b, &g}) {
          s->assign(random() % 200, ' ');
          for (char& c : *s) c = static_cast<char>(random() % 256);
        }
    }
    const Result<TetMesh> tetgen = parse_tetgen_mesh(a, "g.node", b, "g.ele");
    const Result<TetMesh> gmsh = parse_gmsh_mesh(g, "g.msh");
    for (const Result<TetMesh>* r : {&tetgen, &gmsh}) {
      if (r->ok()) {
        ++ok;
        CHECK(check_tet_mesh(**r).size() <= static_cast<std::size_t>((*r)->vertex_count()));  // only unused vertices
        for (const TetMeshProblem& p : check_tet_mesh(**r)) CHECK(p.kind == Kind::unused_vertex);
      } else {
        CHECK(r->error().message.starts_with("g."));
      }
    }
  }
  CHECK(ok > 0);  // some changes (in a comment, a marker, a digit) leave a valid mesh
}

TEST_CASE("Gmsh .msh 2.2: tets read, other elements and sections skipped, node numbers mapped") {
  const Result<TetMesh> r = parse_gmsh_mesh(kGmshCube, "part.msh");
  REQUIRE_MESSAGE(r.ok(), r.error().message);
  CHECK(r->vertex_count() == 9);  // node 99 is kept, in no tet
  CHECK(r->tets == std::vector<int>{0, 1, 2, 4, 3, 2, 1, 7, 5, 4, 7, 1, 6, 7, 4, 2, 1, 2, 4, 7});
  CHECK(r->vertices[7] == Point{1, 1, 1});
  CHECK(tet_mesh_volume(*r) == doctest::Approx(1.0).epsilon(1e-14));
  TetMesh solid = *r;
  remove_unused_vertices(solid);
  check_solid(solid);

  test::TempDir dir("gmsh");
  dir.write("part.msh", kGmshCube);
  CHECK(read_tet_mesh(dir.path / "part.msh")->tets == r->tets);
  CHECK(read_gmsh_mesh(dir.path / "none.msh").error().message == (dir.path / "none.msh").string() + ": no such file");
}

TEST_CASE("Gmsh errors name the file, the line and what is wrong") {
  const std::string cube = kGmshCube;
  const auto replace = [&](const std::string& from, const std::string& to) {
    std::string text = cube;
    const std::size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
  };
  CHECK(gmsh_error(replace("2.2 0 8", "4.1 0 8")) ==
        "part.msh:2: the file is .msh version 4.1; expected version 2.2 (write it with gmsh -format msh22, or File > "
        "Export, Version 2 ASCII)");
  CHECK(gmsh_error(replace("2.2 0 8", "2.2 1 8")) ==
        "part.msh:2: the file is binary; expected an ASCII .msh (gmsh -format msh22 without -bin)");
  CHECK(gmsh_error(replace("4 4 2 7 1 10 20 30 50", "4 11 2 7 1 10 20 30 50 1 2 3 4 5 6")) ==
        "part.msh:25: found a 10-node tet (type 11, second order); only 4-node tets (type 4) are supported");
  CHECK(gmsh_error(replace("1 10 20 30 50", "1 10 20 30 55")) ==
        "part.msh:25: the tet names node 55, which $Nodes does not define");
  CHECK(gmsh_error(replace("1 10 20 30 50", "1 10 20 30 10")) == "part.msh:25: the tet names point 10 twice");
  CHECK(gmsh_error(replace("1 10 20 30 50", "1 10 20 30 40")) ==
        "part.msh:25: the tet is flat: points 10, 20, 30 and 40 lie in one plane (or nearly), so it has no volume");
  CHECK(gmsh_error(replace("30 0 1 0", "30 0 one 0")) ==
        "part.msh:12: found '30 0 one 0'; expected '<node number> x y z' with a positive node number and finite "
        "coordinates");
  CHECK(gmsh_error(replace("70 0 1 1", "10 0 1 1")) == "part.msh:16: node 10 is defined twice");
  CHECK(gmsh_error(replace("$Nodes\n9", "$Nodes\n12")) ==
        "part.msh:19: found 9 of the 12 nodes $Nodes declares (the file is truncated or the count is wrong)");
  CHECK(gmsh_error(cube.substr(0, cube.find("5 4 2 7"))) ==
        "part.msh:26: found 4 of the 8 elements $Elements declares (the file is truncated or the count is wrong)");
  CHECK(gmsh_error(cube.substr(0, cube.find("$Elements"))) ==
        "part.msh:20: found no $Elements section; expected the mesh's tets there");
  CHECK(gmsh_error("solid cube\n") == "part.msh:1: found 'solid cube'; expected a section such as $Nodes");
  CHECK(gmsh_error("$Nodes\n") == "part.msh:1: found '$Nodes'; expected '$MeshFormat' first (a Gmsh .msh file)");
  CHECK(gmsh_error("") == "part.msh:1: the file is empty; expected a Gmsh .msh file ($MeshFormat)");
  CHECK(gmsh_error(replace("$EndPhysicalNames\n", "")) == "part.msh:30: the file ends before '$EndPhysicalNames'");
  // Only points and triangles: no tets.
  CHECK(gmsh_error("$MeshFormat\n2.2 0 8\n$EndMeshFormat\n$Nodes\n3\n1 0 0 0\n2 1 0 0\n3 0 1 0\n$EndNodes\n"
                   "$Elements\n1\n1 2 2 0 1 1 2 3\n$EndElements\n") == "part.msh: has no tets");
}
