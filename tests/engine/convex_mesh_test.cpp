// Geometry for convex bodies: the convex hull (closed, outward, every point inside, only
// extreme points as vertices, coplanar triangles merged into one plane, clear errors for
// flat inputs), mass properties against closed forms, and reading OBJ vertices.
#include <doctest/doctest.h>

#include <array>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <numbers>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "temp_dir.h"
#include "io/obj_file.h"
#include "nudge/convex_mesh.h"

using namespace nudge;
namespace fs = std::filesystem;
using Point = std::array<double, 3>;

namespace {

Point sub(const Point& a, const Point& b) { return {a[0] - b[0], a[1] - b[1], a[2] - b[2]}; }
double dot(const Point& a, const Point& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }
Point cross(const Point& a, const Point& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

// Uniform in [0, 1), the same on every platform (unlike std::uniform_real_distribution).
struct Random {
  std::mt19937_64 engine{12345};
  double unit() { return static_cast<double>(engine() >> 11) * 0x1p-53; }
  double between(double low, double high) { return low + (high - low) * unit(); }
};

double diagonal(const std::vector<Point>& points) {
  Point low = points[0], high = points[0];
  for (const Point& p : points)
    for (int a = 0; a < 3; ++a) low[a] = std::min(low[a], p[a]), high[a] = std::max(high[a], p[a]);
  return std::sqrt(dot(sub(high, low), sub(high, low)));
}

// What every hull must be: a closed two-manifold (each edge once each way), V - E + F = 2,
// triangles facing out, unit plane normals, every input point inside every plane, every
// vertex on some plane and an input point.
void check_hull(const ConvexMesh& mesh, const std::vector<Point>& points) {
  double largest = 0;  // coordinates far from the origin round at their own scale
  for (const Point& p : points)
    for (double x : p) largest = std::max(largest, std::abs(x));
  const double tolerance = 4e-5 * diagonal(points) + 1e-14 * largest;  // the hull's own is 1e-5 x the diagonal
  const std::size_t v = mesh.vertices.size(), t = mesh.triangles.size();
  REQUIRE(v >= 4);
  CHECK(t == 2 * v - 4);

  // One check per property: a sphere of thousands of points has thousands of planes.
  std::map<std::pair<int, int>, int> edges;
  for (const auto& tri : mesh.triangles)
    for (int i = 0; i < 3; ++i) ++edges[{tri[i], tri[(i + 1) % 3]}];
  int unmatched_edges = 0;
  for (const auto& [edge, count] : edges) unmatched_edges += count != 1 || edges.count({edge.second, edge.first}) != 1;
  CHECK(unmatched_edges == 0);
  CHECK(v - edges.size() / 2 + t == 2);

  Point centre = {0, 0, 0};
  for (const Point& p : mesh.vertices)
    for (int a = 0; a < 3; ++a) centre[a] += p[a] / static_cast<double>(v);
  int facing_in = 0;
  for (const auto& tri : mesh.triangles) {
    const Point& a = mesh.vertices[tri[0]];
    const Point& b = mesh.vertices[tri[1]];
    const Point& c = mesh.vertices[tri[2]];
    const Point middle = {(a[0] + b[0] + c[0]) / 3, (a[1] + b[1] + c[1]) / 3, (a[2] + b[2] + c[2]) / 3};
    facing_in += dot(cross(sub(b, a), sub(c, a)), sub(middle, centre)) <= 0;
  }
  CHECK(facing_in == 0);

  double worst_normal = 0, worst_outside = -INFINITY;
  for (const ConvexPlane& plane : mesh.planes) {
    const Point n = {plane.normal[0], plane.normal[1], plane.normal[2]};
    worst_normal = std::max(worst_normal, std::abs(dot(n, n) - 1));
    for (const Point& p : points) worst_outside = std::max(worst_outside, dot(n, p) - plane.offset);
  }
  CHECK(worst_normal < 1e-12);
  CHECK(worst_outside <= tolerance);
  int off_every_plane = 0, not_an_input = 0;
  for (const Point& vertex : mesh.vertices) {
    bool on_a_plane = false;
    for (const ConvexPlane& plane : mesh.planes)
      on_a_plane = on_a_plane || std::abs(dot({plane.normal[0], plane.normal[1], plane.normal[2]}, vertex) -
                                          plane.offset) <= tolerance;
    off_every_plane += !on_a_plane;
    bool is_input = false;
    for (const Point& p : points) is_input = is_input || p == vertex;
    not_an_input += !is_input;
  }
  CHECK(off_every_plane == 0);
  CHECK(not_an_input == 0);
}

ConvexMesh hull_of(const std::vector<Point>& points) {
  Result<ConvexMesh> hull = convex_hull(points);
  REQUIRE_MESSAGE(hull.ok(), (hull.ok() ? "" : hull.error().message));
  check_hull(*hull, points);
  return std::move(hull).value();
}

std::string hull_error(const std::vector<Point>& points) {
  Result<ConvexMesh> hull = convex_hull(points);
  REQUIRE_FALSE(hull.ok());
  return hull.error().message;
}

// The corners of the box [low, high].
std::vector<Point> box_corners(const Point& low, const Point& high) {
  std::vector<Point> corners;
  for (int k = 0; k < 8; ++k)
    corners.push_back({k & 1 ? high[0] : low[0], k & 2 ? high[1] : low[1], k & 4 ? high[2] : low[2]});
  return corners;
}

std::vector<Point> icosahedron(double scale) {
  const double g = std::numbers::phi;
  std::vector<Point> points;
  for (double s : {-1.0, 1.0})
    for (double t : {-1.0, 1.0}) {
      points.push_back({0, s * scale, t * g * scale});
      points.push_back({s * scale, t * g * scale, 0});
      points.push_back({t * g * scale, 0, s * scale});
    }
  return points;
}

// n points spread evenly over a sphere (a Fibonacci lattice).
std::vector<Point> sphere_points(int n, double radius, const Point& centre) {
  std::vector<Point> points;
  const double golden_angle = std::numbers::pi * (3 - std::sqrt(5.0));
  for (int i = 0; i < n; ++i) {
    const double y = 1 - 2 * (i + 0.5) / n;
    const double r = std::sqrt(1 - y * y);
    const double phi = golden_angle * i;
    points.push_back(
        {centre[0] + radius * r * std::cos(phi), centre[1] + radius * y, centre[2] + radius * r * std::sin(phi)});
  }
  return points;
}

// A rotation about the unit axis (ax, ay, az) by angle, row-major.
std::array<double, 9> rotation(double ax, double ay, double az, double angle) {
  const double c = std::cos(angle), s = std::sin(angle), t = 1 - c;
  return {t * ax * ax + c,      t * ax * ay - s * az, t * ax * az + s * ay, t * ax * ay + s * az, t * ay * ay + c,
          t * ay * az - s * ax, t * ax * az - s * ay, t * ay * az + s * ax, t * az * az + c};
}

MeshMassProperties mass_of_hull(const std::vector<Point>& points) {
  const ConvexMesh hull = hull_of(points);
  return mesh_mass_properties(hull.vertices, hull.triangles);
}

void check_inertia(const MeshMassProperties& m, const double (&expected)[9], double tolerance) {
  double scale = 0;
  for (double e : expected) scale = std::max(scale, std::abs(e));
  for (int k = 0; k < 9; ++k) {
    INFO("inertia[" << k << "] = " << m.inertia[k] << ", expected " << expected[k]);
    CHECK(std::abs(m.inertia[k] - expected[k]) <= tolerance * scale);
  }
}

}  // namespace

TEST_CASE("convex hull: a cube's corners with points inside, on faces and edges, and repeated") {
  std::vector<Point> points = box_corners({-0.5, 1, 2}, {0.5, 2, 3});
  for (const Point& centre : std::vector<Point>{{0, 1.5, 2.5}, {0.1, 1.2, 2.9}, {-0.4, 1.9, 2.1}})
    points.push_back(centre);  // inside
  for (int axis = 0; axis < 3; ++axis)
    for (double side : {-0.5, 0.5}) {
      Point face_centre = {0, 1.5, 2.5};
      face_centre[axis] += side;
      points.push_back(face_centre);  // face centres
    }
  points.push_back({0, 1, 2});  // edge midpoints
  points.push_back({0.5, 2, 2.5});
  points.push_back(points[0]);  // repeats
  points.push_back(points[7]);
  points.push_back(points[7]);

  const ConvexMesh hull = hull_of(points);
  CHECK(hull.vertices.size() == 8);
  CHECK(hull.triangles.size() == 12);
  REQUIRE(hull.planes.size() == 6);
  for (const ConvexPlane& plane : hull.planes) {
    int axis = 0;
    for (int a = 1; a < 3; ++a)
      if (std::abs(plane.normal[a]) > std::abs(plane.normal[axis])) axis = a;
    CHECK(std::abs(plane.normal[axis]) == doctest::Approx(1).epsilon(1e-15));
    const double centre[3] = {0, 1.5, 2.5};
    CHECK(plane.offset == doctest::Approx(plane.normal[axis] * centre[axis] + 0.5).epsilon(1e-15));
  }
}

TEST_CASE("convex hull: many points on a cube's faces, taken in any order, still give the 8 corners") {
  // Quickhull may make a point on a face a vertex before the corners that flatten it
  // around that point are added; those vertices must not survive.
  Random random;
  for (int round = 0; round < 5; ++round) {
    std::vector<Point> points;
    for (int k = 0; k < 400; ++k) {
      Point p = {random.between(-1, 1), random.between(-1, 1), random.between(-1, 1)};
      p[k % 3] = (k / 3) % 2 ? 1 : -1;
      points.push_back(p);
    }
    for (int k = 0; k < 40; ++k) {  // points on edges
      Point p = {random.between(-1, 1), (k & 1) ? 1.0 : -1.0, (k & 2) ? 1.0 : -1.0};
      std::swap(p[0], p[k % 3]);
      points.push_back(p);
    }
    for (const Point& corner : box_corners({-1, -1, -1}, {1, 1, 1}))
      points.insert(points.begin() + static_cast<long>(random.unit() * static_cast<double>(points.size())), corner);
    const ConvexMesh hull = hull_of(points);
    CHECK(hull.vertices.size() == 8);
    CHECK(hull.triangles.size() == 12);
    CHECK(hull.planes.size() == 6);
  }
}

TEST_CASE("convex hull: a 16-sided prism with grid points on every face merges each face into one plane") {
  std::vector<Point> points;
  const int sides = 16;
  for (int k = 0; k < sides; ++k) {
    const double angle = 2 * std::numbers::pi * k / sides, next = 2 * std::numbers::pi * (k + 1) / sides;
    for (double z : {-0.3, 0.3}) points.push_back({0.2 * std::cos(angle), 0.2 * std::sin(angle), z});
    for (double s : {0.25, 0.5, 0.75})  // on the side faces
      for (double z : {-0.3, -0.1, 0.2, 0.3})
        points.push_back({0.2 * ((1 - s) * std::cos(angle) + s * std::cos(next)),
                          0.2 * ((1 - s) * std::sin(angle) + s * std::sin(next)), z});
    for (double z : {-0.3, 0.3}) points.push_back({0.1 * std::cos(angle), 0.1 * std::sin(angle), z});  // on the caps
  }
  const ConvexMesh hull = hull_of(points);
  CHECK(hull.vertices.size() == 2 * sides);
  CHECK(hull.triangles.size() == 4 * sides - 4);
  CHECK(hull.planes.size() == sides + 2);
}

TEST_CASE("convex hull: a 10 cm cube turned and written with six decimals still has 8 corners and 6 planes") {
  // An OBJ file's rounding leaves face points off their plane by up to 5e-7 m.
  const std::array<double, 9> r = rotation(0.48, 0.6, 0.64, 0.9);
  std::vector<Point> points;
  for (int i = 0; i <= 4; ++i)
    for (int j = 0; j <= 4; ++j)
      for (int k = 0; k <= 4; ++k) {
        if (i % 4 != 0 && j % 4 != 0 && k % 4 != 0) continue;  // the surface only
        const Point c = {0.025 * i - 0.05, 0.025 * j - 0.05, 0.025 * k - 0.05};
        Point p = {0.3 + r[0] * c[0] + r[1] * c[1] + r[2] * c[2], 1.1 + r[3] * c[0] + r[4] * c[1] + r[5] * c[2],
                   -0.2 + r[6] * c[0] + r[7] * c[1] + r[8] * c[2]};
        for (double& x : p) x = std::round(x * 1e6) / 1e6;
        points.push_back(p);
      }
  const ConvexMesh hull = hull_of(points);
  CHECK(hull.vertices.size() == 8);
  CHECK(hull.triangles.size() == 12);
  CHECK(hull.planes.size() == 6);
}

TEST_CASE("convex hull: points a little apart near a corner count as one; a thin slab's hull holds every point") {
  std::vector<Point> points = box_corners({0, 0, 0}, {1, 1, 1});
  points.push_back({1 - 1e-9, 1, 1 - 2e-9});  // a near-duplicate of a corner
  points.push_back({1e-8, 0, 0});
  CHECK(hull_of(points).vertices.size() == 8);

  // Nearly flat sets are where a hull built with a tolerance loses points: one barely
  // above a face and barely below its neighbour folds the surface inwards.
  Random random;
  for (double thickness : {1e-2, 1e-3, 1e-4}) {
    for (int round = 0; round < 20; ++round) {
      std::vector<Point> slab;
      for (int k = 0; k < 200; ++k)
        slab.push_back({random.between(-1, 1), random.between(-1, 1), random.between(-thickness, thickness)});
      hull_of(slab);
    }
  }
}

TEST_CASE("convex hull: a random point cloud's hull holds every point, and its vertices are input points") {
  Random random;
  std::vector<Point> points;
  for (int k = 0; k < 1000; ++k) {
    const Point p = {random.between(-1, 1), random.between(-2, 2), random.between(-0.5, 0.5)};
    if (k % 2 == 0 || dot(p, p) < 1) points.push_back({p[0] + 7, p[1] - 3, p[2] + 100});
  }
  const ConvexMesh hull = hull_of(points);
  CHECK(hull.vertices.size() < points.size());
  CHECK(hull.planes.size() == hull.triangles.size());  // random points: no two triangles coplanar
}

TEST_CASE("convex hull: a regular tetrahedron and an icosahedron") {
  const double s = 1 / std::sqrt(8.0);
  const ConvexMesh tetrahedron = hull_of({{s, s, s}, {s, -s, -s}, {-s, s, -s}, {-s, -s, s}});
  CHECK(tetrahedron.vertices.size() == 4);
  CHECK(tetrahedron.triangles.size() == 4);
  CHECK(tetrahedron.planes.size() == 4);
  for (const ConvexPlane& plane : tetrahedron.planes)  // the inradius, a twelfth of sqrt(6) x edge 1
    CHECK(plane.offset == doctest::Approx(std::sqrt(6.0) / 12).epsilon(1e-14));

  std::vector<Point> points = icosahedron(0.5);
  points.push_back({0, 0, 0});
  const ConvexMesh ico = hull_of(points);
  CHECK(ico.vertices.size() == 12);
  CHECK(ico.triangles.size() == 20);
  CHECK(ico.planes.size() == 20);
}

TEST_CASE("convex hull: far from the origin, the tolerance follows the set's size, not its position") {
  std::vector<Point> points = box_corners({1e6, 1e6, 1e6}, {1e6 + 0.01, 1e6 + 0.02, 1e6 + 0.03});
  points.push_back({1e6 + 0.005, 1e6 + 0.01, 1e6});  // a face centre
  const ConvexMesh hull = hull_of(points);
  CHECK(hull.vertices.size() == 8);
  CHECK(hull.planes.size() == 6);
}

TEST_CASE("convex hull: too few points, or points that span no volume, are errors that say so") {
  CHECK(hull_error({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}) ==
        "a convex hull needs at least 4 points that span a volume; found 3");
  CHECK(hull_error({}) == "a convex hull needs at least 4 points that span a volume; found 0");

  std::vector<Point> grid;  // a tilted square grid, all in one plane
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j) grid.push_back({0.1 * i, 0.1 * j, 0.3 * 0.1 * i - 0.2 * 0.1 * j});
  CHECK(hull_error(grid) ==
        "all 25 points lie in one plane (within 1e-5 x their bounding box's diagonal); "
        "a convex body needs points that span a volume");
  grid.push_back({0.2, 0.2, 0.06 - 0.04 + 1e-7});  // off the plane by less than the tolerance
  CHECK(hull_error(grid).starts_with("all 26 points lie in one plane"));

  std::vector<Point> line;
  for (int i = 0; i < 10; ++i) line.push_back({1 + 0.1 * i, 2 - 0.2 * i, 0.3 * i});
  CHECK(hull_error(line).starts_with("all 10 points lie on one line (within 1e-5"));

  CHECK(hull_error(std::vector<Point>(5, Point{0.5, 0.5, 0.5})) ==
        "all 5 points are the same point; a convex body needs points that span a volume");

  CHECK(hull_error({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, NAN}}) ==
        "point 3 (counting from 0) is (0, 0, nan); expected finite coordinates");
}

TEST_CASE("convex hull: thousands of points on a sphere take well under a second") {
  const std::vector<Point> points = sphere_points(4000, 1.0, {0, 0, 0});
  const auto start = std::chrono::steady_clock::now();
  Result<ConvexMesh> hull = convex_hull(points);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  REQUIRE(hull.ok());
  CHECK(hull->vertices.size() == 4000);
  MESSAGE("hull of 4000 sphere points: " << seconds * 1e3 << " ms");
  CHECK(seconds < 1.0);
}

TEST_CASE("mass properties: a unit cube and a 2 x 4 x 6 box away from the origin") {
  const MeshMassProperties cube = mass_of_hull(box_corners({0, 0, 0}, {1, 1, 1}));
  CHECK(cube.volume == doctest::Approx(1).epsilon(1e-14));
  for (int a = 0; a < 3; ++a) CHECK(cube.centroid[a] == doctest::Approx(0.5).epsilon(1e-14));
  const double sixth = 1.0 / 6;
  check_inertia(cube, {sixth, 0, 0, 0, sixth, 0, 0, 0, sixth}, 1e-14);

  // m (b² + c²) / 12 about x, and so on, with m = 48.
  const MeshMassProperties box = mass_of_hull(box_corners({9, -5, 4}, {11, -1, 10}));
  CHECK(box.volume == doctest::Approx(48).epsilon(1e-13));
  CHECK(box.centroid[0] == doctest::Approx(10).epsilon(1e-13));
  CHECK(box.centroid[1] == doctest::Approx(-3).epsilon(1e-13));
  CHECK(box.centroid[2] == doctest::Approx(7).epsilon(1e-13));
  check_inertia(box, {4 * (16 + 36), 0, 0, 0, 4 * (4 + 36), 0, 0, 0, 4 * (4 + 16)}, 1e-12);
}

TEST_CASE("mass properties: tetrahedra against their closed forms") {
  // The corner tetrahedron (0, a e_x, b e_y, c e_z): V = abc/6, centroid (a, b, c)/4,
  // ∫x² = a³bc/60, ∫xy = a²b²c/120 about the origin.
  const double a = 0.3, b = 0.5, c = 0.7;
  const MeshMassProperties corner = mass_of_hull({{0, 0, 0}, {a, 0, 0}, {0, b, 0}, {0, 0, c}});
  const double volume = a * b * c / 6;
  CHECK(corner.volume == doctest::Approx(volume).epsilon(1e-14));
  CHECK(corner.centroid[0] == doctest::Approx(a / 4).epsilon(1e-14));
  CHECK(corner.centroid[1] == doctest::Approx(b / 4).epsilon(1e-14));
  CHECK(corner.centroid[2] == doctest::Approx(c / 4).epsilon(1e-14));
  const double xx = volume * a * a / 10 - volume * a * a / 16, yy = volume * b * b / 10 - volume * b * b / 16,
               zz = volume * c * c / 10 - volume * c * c / 16;
  const double xy = volume * a * b / 20 - volume * a * b / 16, yz = volume * b * c / 20 - volume * b * c / 16,
               zx = volume * c * a / 20 - volume * c * a / 16;
  check_inertia(corner, {yy + zz, -xy, -zx, -xy, xx + zz, -yz, -zx, -yz, xx + yy}, 1e-13);

  // Any tetrahedron: ∫ x xᵀ dV = V/20 (Σ vᵢvᵢᵀ + s sᵀ) with s = Σ vᵢ (Tonon 2004).
  const std::vector<Point> v = {{1.2, -0.4, 3.1}, {1.9, 0.3, 2.8}, {1.1, 0.6, 3.5}, {1.6, -0.1, 4.2}};
  const MeshMassProperties general = mass_of_hull(v);
  const double six_volume = std::abs(dot(cross(sub(v[1], v[0]), sub(v[2], v[0])), sub(v[3], v[0])));
  CHECK(general.volume == doctest::Approx(six_volume / 6).epsilon(1e-13));
  Point s = {0, 0, 0};
  for (const Point& p : v)
    for (int k = 0; k < 3; ++k) s[k] += p[k];
  double second[3][3];  // ∫ x xᵀ dV about the centroid
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double sum = s[i] * s[j];
      for (const Point& p : v) sum += p[i] * p[j];
      second[i][j] = six_volume / 6 / 20 * sum - six_volume / 6 * (s[i] / 4) * (s[j] / 4);
      CHECK(general.centroid[i] == doctest::Approx(s[i] / 4).epsilon(1e-13));
    }
  const double trace = second[0][0] + second[1][1] + second[2][2];
  double expected[9];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) expected[3 * i + j] = (i == j ? trace : 0) - second[i][j];
  check_inertia(general, expected, 1e-11);
}

TEST_CASE("mass properties: a finely tessellated sphere approaches 4/3 pi r^3 and 2/5 m r^2") {
  const double r = 0.3;
  const MeshMassProperties sphere = mass_of_hull(sphere_points(2000, r, {1, 2, 3}));
  const double volume = 4.0 / 3 * std::numbers::pi * r * r * r;
  CHECK(sphere.volume == doctest::Approx(volume).epsilon(0.01));
  CHECK(sphere.volume < volume);  // an inscribed polyhedron
  for (int a = 0; a < 3; ++a) CHECK(std::abs(sphere.centroid[a] - (a + 1)) < 1e-3 * r);
  const double moment = 0.4 * volume * r * r;
  check_inertia(sphere, {moment, 0, 0, 0, moment, 0, 0, 0, moment}, 0.01);
}

TEST_CASE("mass properties: a turned box has the turned tensor R D Rᵀ, and an inside-out mesh a negative volume") {
  const double hx = 0.15, hy = 0.25, hz = 0.45;
  const std::array<double, 9> rot = rotation(0.48, 0.6, 0.64, 0.9);  // a unit axis
  std::vector<Point> corners;
  for (const Point& c : box_corners({-hx, -hy, -hz}, {hx, hy, hz}))
    corners.push_back({0.5 + rot[0] * c[0] + rot[1] * c[1] + rot[2] * c[2],
                       -0.2 + rot[3] * c[0] + rot[4] * c[1] + rot[5] * c[2],
                       1.5 + rot[6] * c[0] + rot[7] * c[1] + rot[8] * c[2]});
  const ConvexMesh hull = hull_of(corners);
  const MeshMassProperties box = mesh_mass_properties(hull.vertices, hull.triangles);
  const double m = 8 * hx * hy * hz;
  CHECK(box.volume == doctest::Approx(m).epsilon(1e-13));
  const double d[3] = {m / 3 * (hy * hy + hz * hz), m / 3 * (hx * hx + hz * hz), m / 3 * (hx * hx + hy * hy)};
  double expected[9];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      expected[3 * i + j] = 0;
      for (int k = 0; k < 3; ++k) expected[3 * i + j] += rot[3 * i + k] * d[k] * rot[3 * j + k];
    }
  check_inertia(box, expected, 1e-12);
  CHECK(box.centroid[0] == doctest::Approx(0.5).epsilon(1e-13));

  std::vector<std::array<int, 3>> inside_out = hull.triangles;
  for (auto& t : inside_out) std::swap(t[1], t[2]);
  CHECK(mesh_mass_properties(hull.vertices, inside_out).volume == doctest::Approx(-m).epsilon(1e-13));
}

namespace {

fs::path source_dir() {
  if (const char* dir = std::getenv("NUDGE_SOURCE_DIR"); dir != nullptr && *dir != '\0') return dir;
  return fs::path(__FILE__).parent_path().parent_path().parent_path();
}

struct TempDir : test::TempDir {
  TempDir() : test::TempDir("obj-test") {}
};

std::string obj_error(const fs::path& file) {
  Result<std::vector<Point>> vertices = read_obj_vertices(file);
  REQUIRE_FALSE(vertices.ok());
  return vertices.error().message;
}

}  // namespace

TEST_CASE("OBJ files: vertex lines are read; faces, normals, texture coordinates and comments are not") {
  TempDir dir;
  const fs::path file = dir.write("box.obj",
                                  "# exported by hand\r\n"
                                  "mtllib box.mtl\r\n"
                                  "o Box\r\n"
                                  "v 1.0 -2.5 +3e-1\r\n"
                                  "vn 0 0 1\r\n"
                                  "vt 0.5 0.5\r\n"
                                  "vp 0.1 0.2\r\n"
                                  "\r\n"
                                  "\tv   -1   0\t2   1.0\r\n"  // with w
                                  "v 0.25 0.5 0.75 1 0 0\r\n"  // with a colour
                                  "v 4 5 6 # a trailing comment\r\n"
                                  "g side\r\n"
                                  "usemtl stone\r\n"
                                  "s 1\r\n"
                                  "f 1/1/1 2/1/1 3/1/1\r\n"
                                  "f 1 3 4");  // no final line break
  Result<std::vector<Point>> vertices = read_obj_vertices(file);
  REQUIRE_MESSAGE(vertices.ok(), (vertices.ok() ? "" : vertices.error().message));
  CHECK(*vertices == std::vector<Point>{{1.0, -2.5, 0.3}, {-1, 0, 2}, {0.25, 0.5, 0.75}, {4, 5, 6}});
}

TEST_CASE("OBJ files: a bad vertex line, a missing file and a file without vertices name the file and what is wrong") {
  TempDir dir;
  const fs::path bad = dir.write("rock.obj", "# a rock\nv 0 0 0\nvn 0 1 0\nv 1.0 abc 2\n");
  CHECK(obj_error(bad) == bad.string() + ":4: found 'v 1.0 abc 2'; expected 'v x y z' with three finite numbers");
  const fs::path two = dir.write("two.obj", "v 0 0 0\r\nv 1 2\r\n");
  CHECK(obj_error(two) == two.string() + ":2: found 'v 1 2'; expected 'v x y z' with three finite numbers");
  const fs::path infinite = dir.write("inf.obj", "v 0 0 0\nv 1 2 inf\n");
  CHECK(obj_error(infinite).starts_with(infinite.string() + ":2: found 'v 1 2 inf'"));
  const fs::path overflow = dir.write("huge.obj", "v 1e999 0 0\n");
  CHECK(obj_error(overflow).starts_with(overflow.string() + ":1: found"));

  const fs::path missing = dir.path / "no-such.obj";
  CHECK(obj_error(missing) == missing.string() + ": no such file");
  const fs::path empty = dir.write("empty.obj", "");
  CHECK(obj_error(empty) == empty.string() + ": found no vertices; expected 'v x y z' lines (an OBJ file)");
  const fs::path normals_only = dir.write("normals.obj", "# nothing but normals\nvn 0 0 1\nvt 0 0\nf 1 2 3\n");
  CHECK(obj_error(normals_only) ==
        normals_only.string() + ": found no vertices; expected 'v x y z' lines (an OBJ file)");
  CHECK(obj_error(dir.path).starts_with(dir.path.string() + ": is a directory"));
}

TEST_CASE("OBJ assets: the rock and the tetrahedron in assets/meshes are convex bodies of the sizes they claim") {
  Result<std::vector<Point>> rock = read_obj_vertices(source_dir() / "assets" / "meshes" / "rock.obj");
  REQUIRE_MESSAGE(rock.ok(), (rock.ok() ? "" : rock.error().message));
  const ConvexMesh rock_hull = hull_of(*rock);
  CHECK(rock_hull.vertices.size() == rock->size());  // every vertex of the file is a hull vertex
  const MeshMassProperties rock_mass = mesh_mass_properties(rock_hull.vertices, rock_hull.triangles);
  CHECK(rock->size() == 42);
  CHECK(rock_mass.volume == doctest::Approx(0.001853591).epsilon(1e-6));  // 77 % of its ellipsoid's

  Result<std::vector<Point>> tetra = read_obj_vertices(source_dir() / "assets" / "meshes" / "tetrahedron.obj");
  REQUIRE_MESSAGE(tetra.ok(), (tetra.ok() ? "" : tetra.error().message));
  const ConvexMesh tetra_hull = hull_of(*tetra);
  CHECK(tetra_hull.vertices.size() == 4);
  const MeshMassProperties tetra_mass = mesh_mass_properties(tetra_hull.vertices, tetra_hull.triangles);
  const double edge = 0.2;
  CHECK(tetra_mass.volume == doctest::Approx(edge * edge * edge / (6 * std::sqrt(2.0))).epsilon(1e-6));
  for (int a = 0; a < 3; ++a) CHECK(std::abs(tetra_mass.centroid[a]) < 1e-6);
  const double moment = edge * edge / 20 * tetra_mass.volume;  // a regular tetrahedron's, about any axis
  check_inertia(tetra_mass, {moment, 0, 0, 0, moment, 0, 0, 0, moment}, 1e-5);
}
