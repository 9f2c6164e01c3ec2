// A link's mesh shape: STL files read (binary and ASCII), the hull load_link_mesh makes,
// its vertices as contact points (a mesh cube lands as a box shape does), the hull read
// with the scene and kept through its file, and bad files refused with their path.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <string>

#include "gradient_outcome.h"
#include "temp_dir.h"
#include "families/articulations/articulation_links.h"
#include "io/stl_file.h"
#include "nudge/convex_mesh.h"
#include "nudge/scene.h"
#include "../obj_cube.h"

namespace nudge {
namespace {

// The cube [-h, h]^3 as 12 triangles (each face's two), outward.
std::vector<std::array<std::array<float, 3>, 3>> cube_triangles(float h) {
  std::vector<std::array<std::array<float, 3>, 3>> triangles;
  const auto corner = [&](int k) { return std::array<float, 3>{k & 1 ? h : -h, k & 2 ? h : -h, k & 4 ? h : -h}; };
  const int quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  for (const auto& q : quads) {
    triangles.push_back({corner(q[0]), corner(q[1]), corner(q[2])});
    triangles.push_back({corner(q[0]), corner(q[2]), corner(q[3])});
  }
  return triangles;
}

std::string ascii_stl(float h) {
  std::string text = "solid cube\n";
  for (const auto& t : cube_triangles(h)) {
    text += "  facet normal 0 0 0\n    outer loop\n";
    for (const auto& v : t)
      text += "      vertex " + std::to_string(v[0]) + " " + std::to_string(v[1]) + " " + std::to_string(v[2]) + "\n";
    text += "    endloop\n  endfacet\n";
  }
  return text + "endsolid cube\n";
}

// Little-endian, as STL writes it (this machine's order too).
std::string binary_stl(float h) {
  const auto triangles = cube_triangles(h);
  std::string bytes(80, ' ');
  const auto u32 = static_cast<std::uint32_t>(triangles.size());
  bytes.append(reinterpret_cast<const char*>(&u32), 4);
  for (const auto& t : triangles) {
    const float normal[3] = {0, 0, 0};
    bytes.append(reinterpret_cast<const char*>(normal), 12);
    for (const auto& v : t) bytes.append(reinterpret_cast<const char*>(v.data()), 12);
    bytes.append(2, '\0');
  }
  return bytes;
}

}  // namespace

TEST_CASE("STL files, binary and ASCII, give their triangles' corners; bad ones are refused with the file") {
  for (const std::string& bytes : {ascii_stl(0.5f), binary_stl(0.5f)}) {
    Result<std::vector<std::array<double, 3>>> corners = parse_stl_vertices(bytes, "cube.stl");
    REQUIRE_MESSAGE(corners.ok(), (corners.ok() ? "" : corners.error().message));
    REQUIRE(corners->size() == 36);
    for (const auto& v : *corners)
      for (double x : v) CHECK(std::fabs(x) == 0.5);
  }
  const std::string binary = binary_stl(0.5f);
  const auto refused = [](std::string_view bytes) {
    Result<std::vector<std::array<double, 3>>> r = parse_stl_vertices(bytes, "cube.stl");
    REQUIRE_FALSE(r.ok());
    return r.error().message;
  };
  CHECK(refused(binary.substr(0, binary.size() - 10)) ==
        "cube.stl: found 674 bytes; expected 84 + 50 x 12 = 684 for the 12 triangles its header counts (a binary STL "
        "file)");
  CHECK(refused("solid x\n facet normal 0 0 1\n  outer loop\n   vertex 1 abc 2\n") ==
        "cube.stl:4: found 'vertex 1 abc 2'; expected 'vertex x y z' with three finite numbers");
  CHECK(refused("solid empty\nendsolid empty\n") ==
        "cube.stl: found no 'vertex x y z' lines; expected an ASCII or binary STL mesh");
  CHECK(refused("abc") ==
        "cube.stl: found 3 bytes; expected an STL file (ASCII, starting with 'solid', or binary, at least 84 bytes)");
}

TEST_CASE("load_link_mesh makes the convex hull of an OBJ or STL file, and names the file when it cannot") {
  test::TempDir dir("link-mesh");
  for (const auto& file : {dir.write("cube.obj", test::cube_obj(-0.5, 0.5)), dir.write("cube.stl", binary_stl(0.5f)),
                           dir.write("CUBE.STL", ascii_stl(0.5f))}) {
    Result<std::shared_ptr<const ConvexMesh>> hull = load_link_mesh(file);
    REQUIRE_MESSAGE(hull.ok(), (hull.ok() ? "" : hull.error().message));
    CHECK((*hull)->vertices.size() == 8);
  }
  const auto error = [](const std::filesystem::path& file) {
    Result<std::shared_ptr<const ConvexMesh>> hull = load_link_mesh(file);
    REQUIRE_FALSE(hull.ok());
    return hull.error().message;
  };
  CHECK(error(dir.path / "absent.stl") == (dir.path / "absent.stl").string() + ": no such file");
  const auto ply = dir.write("cube.ply", "ply\n");
  CHECK(error(ply) == ply.string() + ": found a \".ply\" file; expected a mesh as an .obj or .stl file");
  const auto flat = dir.write("flat.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\n");
  CHECK(error(flat).starts_with(flat.string() + ": "));
}

namespace {

// A 1 kg cube of half size 5 cm on a free joint, dropped from 20 cm onto the floor
// turned a little, its shape a box or the same cube as a mesh file (its corners the
// same points, in another order).
std::string dropped_cube(const std::string& shape) {
  return R"({"format": "nudge-scene", "version": 1, "name": "dropped",
    "simulation": {"dt": 0.001, "steps": 1000, "gravity": [0, -9.81, 0]},
    "colliders": [{"type": "plane", "normal": [0, 1, 0], "offset": 0}],
    "contact": {"stiffness": 1e5, "damping": 300, "friction": 0.5, "friction_smoothing": 1e-3},
    "articulations": {"links": [
      {"name": "cube", "joint": "free", "mass": 1, "inertia": [0.0017, 0.0017, 0.0017, 0, 0, 0],
       "translation": [0, 0.2, 0], "rotation": [0.1, 0.05, 0.2, 0.97], "angular_velocity": [1, -2, 0.5],
       "shapes": [)" +
         shape + R"(]}]}})";
}

}  // namespace

TEST_CASE("a mesh link's hull vertices are its contact points: a mesh cube lands as a box does") {
  test::TempDir dir("link-mesh");
  dir.write("meshes/cube.stl", ascii_stl(0.05f));  // "0.050000": the box's corners to the bit
  const auto scene_file = dir.path / "dropped.json";
  const auto parsed = [&](const std::string& shape) {
    Result<Scene> scene = parse_scene(dropped_cube(shape), scene_file);
    REQUIRE_MESSAGE(scene.ok(), (scene.ok() ? "" : scene.error().message));
    return *scene;
  };
  const Scene box = parsed(R"({"kind": "box", "size": [0.05, 0.05, 0.05]})");
  const Scene mesh = parsed(R"({"kind": "mesh", "mesh": "meshes/cube.stl"})");
  const LinkContactPoints points = link_contact_points(mesh.articulations);
  REQUIRE(points.offset.size() == 8);
  for (const Vec3<double>& p : points.offset)
    for (double x : {p.x, p.y, p.z}) CHECK(std::fabs(x) == 0.05);
  const Trajectory a = test::simulate_on_cpu(box), b = test::simulate_on_cpu(mesh);
  REQUIRE(a.joint_q.size() == b.joint_q.size());
  // Through the landing (0.3 s) the two agree to rounding: the same corners, summed in
  // another order. The tumble that follows amplifies rounding, so only where each comes
  // to rest is compared after it.
  double most = 0;
  for (size_t i = 0; i < 300 * size_t(a.positions); ++i) most = std::max(most, std::fabs(a.joint_q[i] - b.joint_q[i]));
  const double* end_a = &a.joint_q[size_t(a.steps) * size_t(a.positions)];
  const double* end_b = &b.joint_q[size_t(b.steps) * size_t(b.positions)];
  INFO("over the landing the mesh cube moved within " << most << " m of the box; after 1 s their heights " << end_a[1]
                                                      << " and " << end_b[1] << " m");
  CHECK(most < 1e-9);
  for (double height : {end_a[1], end_b[1]}) CHECK(std::fabs(height - 0.05) < 1e-3);  // resting on a face

  // Saved elsewhere, the scene names the mesh from its new folder and reads it back.
  const auto moved = dir.path / "elsewhere" / "dropped.json";
  std::filesystem::create_directories(moved.parent_path());
  REQUIRE(save_scene(mesh, moved).ok());
  Result<Scene> again = load_scene(moved);
  REQUIRE_MESSAGE(again.ok(), (again.ok() ? "" : again.error().message));
  CHECK(again->articulations.links[0].shapes[0].mesh == "../meshes/cube.stl");
  REQUIRE(again->articulations.links[0].shapes[0].hull);
  CHECK(again->articulations.links[0].shapes[0].hull->vertices.size() == 8);

  // A missing file is refused at its key; a colliding mesh with no hull, by the check.
  Result<Scene> missing = parse_scene(dropped_cube(R"({"kind": "mesh", "mesh": "meshes/gone.stl"})"), scene_file);
  REQUIRE_FALSE(missing.ok());
  CHECK_MESSAGE(missing.error().message.find("articulations.links[0].shapes[0].mesh") != std::string::npos,
                missing.error().message);
  CHECK_MESSAGE(missing.error().message.find("gone.stl: no such file") != std::string::npos, missing.error().message);
  Scene unread = mesh;
  unread.articulations.links[0].shapes[0].hull.reset();
  const Status refused = check_scene(unread);
  REQUIRE_FALSE(refused.ok());
  CHECK_MESSAGE(refused.error().message.find("articulations.links[0].shapes[0].mesh: found \"meshes/cube.stl\" not "
                                             "read") != std::string::npos,
                refused.error().message);
}

}  // namespace nudge
