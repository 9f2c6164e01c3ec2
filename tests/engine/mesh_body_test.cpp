// Mesh bodies (the convex hull of an OBJ file's vertices) in whole rollouts and in scene
// files:
// - a mesh of a box's 8 corners is the box body: the same volume, inertia, trajectory
//   and gradients;
// - an off-centre, turned or irregular hull is moved to its centre of mass and gets the
//   full inertia tensor; where the file puts the hull does not change the motion;
// - whole-rollout gradients against central differences with smooth contact: a rock
//   tumbling on a plane, a rock hit by a sphere and a box (contact both ways), particles
//   falling onto a rock;
// - the same bits on 1, 2 and 8 threads and with checkpoints;
// - scene files: the OBJ beside the scene loads, saving elsewhere rebases its path and
//   loads the same, "scale" stretches, and bad input gets messages naming file and path.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "body_test_support.h"
#include "temp_dir.h"
#include "io/obj_file.h"
#include "nudge/convex_mesh.h"
#include "nudge/gradcheck.h"
#include "nudge/quat.h"
#include "nudge/scene.h"
#include "nudge/simulator.h"
#include "cpu_simulator.h"
#include "test_scenes.h"

using namespace nudge;
using nudge::test::cpu_simulator;
namespace fs = std::filesystem;
using Point = std::array<double, 3>;

namespace {

fs::path source_dir() {
  if (const char* dir = std::getenv("NUDGE_SOURCE_DIR"); dir != nullptr && *dir != '\0') return dir;
  return fs::path(__FILE__).parent_path().parent_path().parent_path();
}

fs::path rock_obj() { return source_dir() / "assets" / "meshes" / "rock.obj"; }

struct TempDir : test::TempDir {
  TempDir() : test::TempDir("mesh-body-test") {}
};

std::string file_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// "v x y z" lines that read back as exactly these doubles.
std::string obj_text(const std::vector<Point>& points) {
  std::string text = "# written by mesh_body_test\n";
  char line[128];
  for (const Point& p : points) {
    std::snprintf(line, sizeof line, "v %.17g %.17g %.17g\n", p[0], p[1], p[2]);
    text += line;
  }
  return text;
}

// A box's 8 corners, turned by `turn` and then moved by `shift`.
std::vector<Point> box_corners(const ShapeSize& half, const Point& shift = {0, 0, 0},
                               Quat<double> turn = quat_identity<double>()) {
  std::vector<Point> corners;
  for (int c = 0; c < 8; ++c) {
    const Vec3<double> local{c & 1 ? half[0] : -half[0], c & 2 ? half[1] : -half[1], c & 4 ? half[2] : -half[2]};
    const Vec3<double> p = rotate(turn, local);
    corners.push_back({p.x + shift[0], p.y + shift[1], p.z + shift[2]});
  }
  return corners;
}

std::shared_ptr<const BodyMesh> load_mesh(const fs::path& file, const Point& scale = {1, 1, 1}) {
  Result<std::shared_ptr<const BodyMesh>> mesh = load_body_mesh(file, file, scale.data());
  REQUIRE_MESSAGE(mesh.ok(), (mesh.ok() ? "" : mesh.error().message));
  return *mesh;
}

RigidBody mesh_body(std::shared_ptr<const BodyMesh> mesh) {
  RigidBody body = test::rigid_body(BodyShape::Mesh);
  body.mesh = std::move(mesh);
  return body;
}

double largest_difference(const std::vector<double>& a, const std::vector<double>& b) {
  REQUIRE(a.size() == b.size());
  double worst = 0;
  for (size_t k = 0; k < a.size(); ++k) worst = std::max(worst, std::fabs(a[k] - b[k]));
  return worst;
}

// a and b agree to `relative` of the larger.
bool near(double a, double b, double relative) {
  return std::fabs(a - b) <= relative * std::max(std::fabs(a), std::fabs(b));
}

double largest_magnitude(const std::vector<double>& a) {
  double m = 0;
  for (double x : a) m = std::max(m, std::fabs(x));
  return m;
}

Trajectory trajectory_of(const Scene& scene) {
  Result<Trajectory> traj = cpu_simulator(scene, 1)->trajectory(scene.params);
  REQUIRE_MESSAGE(traj.ok(), (traj.ok() ? "" : traj.error().message));
  return std::move(*traj);
}

// Body b's centre of mass and orientation at step t.
Vec3<double> body_position(const Trajectory& traj, int b, int t) {
  const double* x = &traj.body_x[(size_t(t) * size_t(traj.bodies) + size_t(b)) * 3];
  return {x[0], x[1], x[2]};
}
Quat<double> body_orientation(const Trajectory& traj, int b, int t) {
  const double* q = &traj.body_q[(size_t(t) * size_t(traj.bodies) + size_t(b)) * 4];
  return {q[0], q[1], q[2], q[3]};
}
// Its velocity over step t (t >= 1), as the positions show it.
Vec3<double> body_velocity(const Trajectory& traj, int b, int t) {
  return (1.0 / traj.dt) * (body_position(traj, b, t) - body_position(traj, b, t - 1));
}

// The fastest upward speed of body b's centre over the rollout.
double fastest_rise(const Trajectory& traj, int b) {
  double fastest = -1e9;
  for (int t = 1; t <= traj.steps; ++t) fastest = std::max(fastest, body_velocity(traj, b, t).y);
  return fastest;
}

void set_row(Scene& scene, ParamId id, int row, std::initializer_list<double> values) {
  Parameter& p = scene.params[id];
  std::copy(values.begin(), values.end(), p.value.begin() + size_t(row) * size_t(p.cols));
}

Objective objective(ObjectiveType type, std::vector<int> bodies, std::vector<double> target = {}, int step = -1) {
  Objective o;
  o.type = type;
  o.bodies = std::move(bodies);
  o.target = std::move(target);
  o.step = step;
  return o;
}

void smooth_contact(Scene& scene, double stiffness, double damping, double friction) {
  scene.params[ParamId::ContactStiffness].value = {stiffness};
  scene.params[ParamId::ContactDamping].value = {damping};
  scene.params[ParamId::ContactFriction].value = {friction};
  scene.contact.smoothing = 0.003;
  scene.contact.friction_smoothing = 0.05;
  scene.contact.damp_approach_only = false;
}

ColliderShape tilted_floor() {
  ColliderShape floor;
  const double len = std::hypot(0.05, 1.0, 0.03);
  floor.normal[0] = 0.05 / len, floor.normal[1] = 1.0 / len, floor.normal[2] = 0.03 / len;
  return floor;
}

// One body (of the given size, if its shape has one) thrown, turned and spinning, onto a
// slightly tilted floor from `height`.
Scene drop_scene(const RigidBody& body, const ShapeSize& size, double height, int steps) {
  Scene scene;
  scene.name = "drop";
  scene.settings.dt = 1e-3;
  scene.settings.steps = steps;
  scene.bodies = {body};
  shape_parameters(scene);
  test::set_sizes(scene, {size});
  set_row(scene, ParamId::BodyPosition, 0, {0.0, height, 0.0});
  set_row(scene, ParamId::BodyOrientation, 0, {0.1, 0.2, 0.05, 1.0});
  set_row(scene, ParamId::BodyVelocity, 0, {0.8, -0.5, 0.3});
  set_row(scene, ParamId::BodyAngularVelocity, 0, {1.0, 2.0, -3.0});
  scene.params[ParamId::BodyDensity].value = {1000.0};
  smooth_contact(scene, 3e4, 20.0, 0.5);
  scene.colliders = {tilted_floor()};
  Objective turn = objective(ObjectiveType::Orientation, {0});
  turn.axis[0] = 1, turn.axis[1] = 0, turn.axis[2] = 0;
  scene.objectives = {objective(ObjectiveType::Target, {0}, {0.3, 0.05, 0.1}),
                      objective(ObjectiveType::Velocity, {0}, {0.2, 0.0, 0.0}, steps / 2), turn};
  return scene;
}

using test::check_every_entry;

const std::vector<ParamId> kBodyMotion = {ParamId::BodyPosition, ParamId::BodyOrientation, ParamId::BodyVelocity,
                                          ParamId::BodyAngularVelocity, ParamId::BodyDensity};
const std::vector<ParamId> kContact = {ParamId::ContactStiffness, ParamId::ContactDamping, ParamId::ContactFriction};

std::vector<ParamId> joined(std::vector<ParamId> a, const std::vector<ParamId>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

}  // namespace

TEST_CASE("mesh bodies: a mesh of a box's corners is the box: volume, inertia, trajectory and gradients") {
  const ShapeSize half{0.15, 0.08, 0.12};
  TempDir dir;
  const RigidBody mesh = mesh_body(load_mesh(dir.write("box.obj", obj_text(box_corners(half)))));
  const RigidBody box = test::rigid_body(BodyShape::Box);
  CHECK(mesh.mesh->hull.vertices.size() == 8);
  CHECK(mesh.mesh->hull.planes.size() == 6);

  const UnitMassProperties of_mesh = unit_mass_properties(mesh, {0, 0, 0});
  const UnitMassProperties of_box = unit_mass_properties(box, half);
  CHECK(near(of_mesh.volume, 8 * half[0] * half[1] * half[2], 1e-13));
  for (int k = 0; k < 9; ++k) {
    CAPTURE(k);
    CHECK(std::fabs(of_mesh.inertia[k] - of_box.inertia[k]) < 1e-13 * of_box.inertia[0]);
  }

  const int steps = 400;
  Scene box_drop = drop_scene(box, half, 0.3, steps);
  Scene mesh_drop = drop_scene(mesh, {0, 0, 0}, 0.3, steps);
  REQUIRE(check_scene(box_drop).ok());
  REQUIRE(check_scene(mesh_drop).ok());
  const Trajectory box_path = trajectory_of(box_drop), mesh_path = trajectory_of(mesh_drop);
  CHECK(largest_difference(box_path.body_x, mesh_path.body_x) < 1e-9);
  CHECK(largest_difference(box_path.body_q, mesh_path.body_q) < 1e-9);
  // It landed: falling freely it would be 0.6 m lower; on the floor it rests on its side.
  const Vec3<double> end = body_position(mesh_path, 0, steps);
  CHECK(end.y > 0.05);
  CHECK(end.y < 0.2);
  CHECK(fastest_rise(mesh_path, 0) > 0.1);

  // The same gradients (but for the box's sizes, which a mesh does not have).
  ParameterSet box_params = box_drop.params, mesh_params = mesh_drop.params;
  Result<Evaluation> box_eval = cpu_simulator(box_drop, 1)->gradient(box_params);
  Result<Evaluation> mesh_eval = cpu_simulator(mesh_drop, 1)->gradient(mesh_params);
  REQUIRE(box_eval.ok());
  REQUIRE(mesh_eval.ok());
  CHECK(near(mesh_eval->loss, box_eval->loss, 1e-9));
  for (ParamId id : joined(kBodyMotion, kContact)) {
    CAPTURE(param_name(id));
    const std::vector<double>& expected = box_params[id].grad;
    CHECK(largest_magnitude(expected) > 0);
    CHECK(largest_difference(mesh_params[id].grad, expected) <= 1e-6 * largest_magnitude(expected));
  }
}

TEST_CASE("mesh bodies: a hull off the file's origin is moved to its centre of mass, with the full inertia tensor") {
  const ShapeSize half{0.15, 0.08, 0.12};
  const Point shift{0.3, -0.1, 0.2};
  TempDir dir;
  const auto centred = load_mesh(dir.write("centred.obj", obj_text(box_corners(half))));
  const auto shifted = load_mesh(dir.write("shifted.obj", obj_text(box_corners(half, shift))));

  SUBCASE("a box's corners shifted: the centre is the shift, the hull is the centred box") {
    for (int k = 0; k < 3; ++k) CHECK(near(shifted->centre[k], shift[k], 1e-12));
    REQUIRE(shifted->hull.vertices.size() == 8);
    for (const Point& v : shifted->hull.vertices)
      for (int k = 0; k < 3; ++k) CHECK(std::fabs(std::fabs(v[k]) - half[k]) < 1e-12);
    for (const ConvexPlane& plane : shifted->hull.planes) {
      double along = 0;  // the half extent along the plane's normal
      for (int k = 0; k < 3; ++k) along += std::fabs(plane.normal[k]) * half[k];
      CHECK(near(plane.offset, along, 1e-12));
    }
    const MeshMassProperties mass = mesh_mass_properties(shifted->hull.vertices, shifted->hull.triangles);
    for (double c : mass.centroid) CHECK(std::fabs(c) < 1e-12);

    // Where the file put the box does not change how it moves: the body's position is
    // its centre of mass either way.
    const Trajectory from_centred = trajectory_of(drop_scene(mesh_body(centred), {}, 0.3, 300));
    const Trajectory from_shifted = trajectory_of(drop_scene(mesh_body(shifted), {}, 0.3, 300));
    CHECK(largest_difference(from_centred.body_x, from_shifted.body_x) < 1e-9);
    CHECK(largest_difference(from_centred.body_q, from_shifted.body_q) < 1e-9);
  }

  SUBCASE("a box's corners turned and shifted: the inertia is R diag R^T, not diagonal") {
    const Quat<double> turn = normalize(Quat<double>{0.3, -0.2, 0.4, 0.8});
    const RigidBody turned = mesh_body(load_mesh(dir.write("turned.obj", obj_text(box_corners(half, shift, turn)))));
    for (int k = 0; k < 3; ++k) CHECK(near(turned.mesh->centre[k], shift[k], 1e-12));
    const UnitMassProperties box = unit_mass_properties(test::rigid_body(BodyShape::Box), half);
    const UnitMassProperties mesh = unit_mass_properties(turned, {});
    const Mat33<double> r = to_matrix(turn);
    double largest_product = 0;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        double expected = 0;  // (R diag(I) R^T)_ij
        for (int k = 0; k < 3; ++k) expected += r(i, k) * box.inertia[4 * k] * r(j, k);
        CAPTURE(i);
        CAPTURE(j);
        CHECK(std::fabs(mesh.inertia[3 * i + j] - expected) < 1e-12 * box.inertia[0]);
        if (i != j) largest_product = std::max(largest_product, std::fabs(mesh.inertia[3 * i + j]));
      }
    CHECK(largest_product > 0.05 * box.inertia[0]);
    CHECK(near(mesh.volume, 8 * half[0] * half[1] * half[2], 1e-12));
  }

  SUBCASE("the rock: centre at the hull's centroid, hull re-centred, a symmetric tensor with products of inertia") {
    const auto rock = load_mesh(rock_obj());
    Result<std::vector<Point>> points = read_obj_vertices(rock_obj());
    REQUIRE(points.ok());
    Result<ConvexMesh> hull = convex_hull(*points);
    REQUIRE(hull.ok());
    const MeshMassProperties in_file = mesh_mass_properties(hull->vertices, hull->triangles);
    for (int k = 0; k < 3; ++k) CHECK(near(rock->centre[k], in_file.centroid[k], 1e-12));
    CHECK(std::hypot(rock->centre[0], rock->centre[1], rock->centre[2]) > 1e-4);  // the file's origin is not it
    CHECK(rock->hull.vertices.size() == 42);

    const MeshMassProperties centred_rock = mesh_mass_properties(rock->hull.vertices, rock->hull.triangles);
    for (double c : centred_rock.centroid) CHECK(std::fabs(c) < 1e-12);
    CHECK(near(centred_rock.volume, in_file.volume, 1e-12));
    // Every vertex is on or inside every plane, in the body's frame.
    for (const Point& v : rock->hull.vertices)
      for (const ConvexPlane& f : rock->hull.planes)
        CHECK(f.normal[0] * v[0] + f.normal[1] * v[1] + f.normal[2] * v[2] <= f.offset + 1e-12);

    const UnitMassProperties unit = unit_mass_properties(mesh_body(rock), {});
    CHECK(near(unit.volume, in_file.volume, 1e-12));
    double largest_product = 0;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        CHECK(std::fabs(unit.inertia[3 * i + j] - in_file.inertia[3 * i + j]) < 1e-12 * unit.inertia[4]);
        CHECK(unit.inertia[3 * i + j] == unit.inertia[3 * j + i]);
        if (i != j) largest_product = std::max(largest_product, std::fabs(unit.inertia[3 * i + j]));
      }
    INFO("rock inertia per unit density: diagonal " << unit.inertia[0] << ", " << unit.inertia[4] << ", "
                                                    << unit.inertia[8] << "; largest product " << largest_product);
    CHECK(largest_product > 1e-3 * unit.inertia[0]);
  }
}

namespace {

// The rock (rock.obj: 42 hull vertices, 1.85 litres, products of inertia).
RigidBody rock_body() { return mesh_body(load_mesh(rock_obj())); }

// The rock thrown, turned and spinning, onto a tilted floor from just above it: it lands
// on a few vertices and tumbles.
Scene rock_on_floor_scene(int steps = 200) {
  Scene scene = drop_scene(rock_body(), {}, 0.1, steps);
  scene.name = "rock on the floor";
  scene.params[ParamId::BodyDensity].value = {2700.0};
  smooth_contact(scene, 5e4, 30.0, 0.5);
  return scene;
}

const ShapeSize kHitBoxSize{0.06, 0.04, 0.05};

// No gravity: the rock (0) drifts, turning slowly; a sphere (1) hits it from -x and a
// box (2), turned 45 degrees about z and spinning, from +x, so that box corners enter the
// rock and rock vertices enter the box. (The farthest-plane distance turns its normal
// where the farthest plane changes, which kinks the loss; in about a third of the
// variants of this scene tried, one lies within the gradient check's 1e-6 to 1e-5 steps
// for some entry, and the adjoint then matches differences over smaller steps, not the
// check's. This one has none.)
Scene rock_hit_scene(int steps = 150) {
  Scene scene;
  scene.name = "rock hit by a sphere and a box";
  scene.settings.dt = 1e-3;
  scene.settings.steps = steps;
  scene.bodies = {rock_body(), test::rigid_body(BodyShape::Sphere), test::rigid_body(BodyShape::Box)};
  shape_parameters(scene);
  test::set_sizes(scene, {{0, 0, 0}, {0.05, 0, 0}, kHitBoxSize});
  scene.params[ParamId::Gravity].value = {0.0, 0.0, 0.0};
  scene.params[ParamId::BodyPosition].value = {0.0, 0.0, 0.0, -0.25, 0.01, 0.02, 0.28, -0.015, 0.01};
  scene.params[ParamId::BodyOrientation].value = {0.05, 0.1, 0.0, 1.0, 0, 0, 0, 1, 0.0, 0.0, 0.38, 0.92};
  scene.params[ParamId::BodyVelocity].value = {0.05, 0.0, 0.0, 1.5, 0.0, 0.0, -1.2, 0.05, 0.0};
  scene.params[ParamId::BodyAngularVelocity].value = {0.0, 0.3, 0.2, 0.0, 0.0, 2.0, 1.0, -2.0, 3.0};
  scene.params[ParamId::BodyDensity].value = {1000.0, 2000.0, 1000.0};
  smooth_contact(scene, 2e4, 5.0, 0.3);
  Objective turn = objective(ObjectiveType::Orientation, {0, 2});
  turn.axis[0] = 1, turn.axis[1] = 0, turn.axis[2] = 0;
  scene.objectives = {objective(ObjectiveType::Target, {0, 1}, {0.1, 0.05, 0.0}),
                      objective(ObjectiveType::Velocity, {2}, {0.3, 0.0, 0.0}), turn};
  return scene;
}

// A lopsided block: a quadrilateral base and a smaller, shifted top whose plane slopes
// gently (y = 0.09 + 0.08 x + 0.03 z in the file), so that its centre of mass is off the
// file's origin and it has products of inertia, while its top is one large face to land
// on (the rock's many small faces put a kink of the farthest-plane distance near almost
// any landing, which central differences cannot check).
double block_top(double x, double z) { return 0.09 + 0.08 * x + 0.03 * z; }
std::vector<Point> lopsided_block() {
  const double base[4][2] = {{-0.11, -0.07}, {0.12, -0.06}, {0.10, 0.08}, {-0.09, 0.07}};
  const double top[4][2] = {{-0.08, -0.05}, {0.10, -0.04}, {0.08, 0.06}, {-0.06, 0.05}};
  std::vector<Point> points;
  for (const auto& b : base) points.push_back({b[0], 0.01, b[1]});
  for (const auto& t : top) points.push_back({t[0], block_top(t[0], t[1]), t[1]});
  return points;
}

// The lopsided block resting on the floor, and four particles (radius 1 to 1.5 cm) dropped
// onto its top from 2 to 5 cm above it.
Scene particles_on_block_scene(int steps = 200) {
  Scene scene;
  scene.name = "particles on a block";
  scene.settings.dt = 1e-3;
  scene.settings.steps = steps;
  TempDir dir;
  scene.bodies = {mesh_body(load_mesh(dir.write("block.obj", obj_text(lopsided_block()))))};
  const double* centre = scene.bodies[0].mesh->centre;
  // The block's base 4 mm above the floor, where the smooth contact about holds its weight.
  const Point position{0.0, centre[1] - 0.01 + 4e-3, 0.0};
  // Particles above points (x, z) of the top, in the file's frame, by a height.
  const double drops[4][3] = {{0.0, 0.0, 0.03}, {0.05, 0.02, 0.05}, {-0.04, -0.02, 0.02}, {0.02, 0.03, 0.04}};
  scene.pinned = {0, 0, 0, 0};
  std::vector<double>& x0 = scene.params[ParamId::InitialPosition].value;
  for (const auto& [x, z, height] : drops)
    x0.insert(x0.end(), {position[0] + x - centre[0], position[1] + block_top(x, z) + height - centre[1],
                         position[2] + z - centre[2]});
  shape_parameters(scene);
  set_row(scene, ParamId::BodyPosition, 0, {position[0], position[1], position[2]});
  scene.params[ParamId::BodyDensity].value = {1500.0};
  scene.params[ParamId::InitialVelocity].value = {0.1, -0.3, 0.0, -0.2, 0.0, 0.1, 0.0, -0.5, 0.05, 0.0, 0.0, 0.0};
  scene.params[ParamId::Mass].value = {0.02, 0.03, 0.025, 0.02};
  scene.params[ParamId::ParticleRadius].value = {0.012, 0.012, 0.01, 0.015};
  smooth_contact(scene, 1e4, 2.0, 0.4);
  scene.colliders = {ColliderShape{}};  // the floor, y = 0
  Objective target;
  target.type = ObjectiveType::Target;
  target.particles = {0, 1, 2, 3};
  target.target = {0.05, 0.1, 0.0};
  Objective positions;
  positions.type = ObjectiveType::Positions;
  positions.particles = {1, 3};
  positions.target = {0.1, 0.1, 0.0, -0.1, 0.1, 0.0};
  positions.step = steps / 2;
  scene.objectives = {target, positions, objective(ObjectiveType::Target, {0}, {0.01, 0.1, 0.0})};
  return scene;
}

// Point p of body b's frame in the world at step t, and back.
Vec3<double> to_world(const Trajectory& traj, int b, int t, const Vec3<double>& p) {
  return body_position(traj, b, t) + rotate(normalize(body_orientation(traj, b, t)), p);
}
Vec3<double> to_body(const Trajectory& traj, int b, int t, const Vec3<double>& world) {
  return inverse_rotate(normalize(body_orientation(traj, b, t)), world - body_position(traj, b, t));
}

// The deepest that any of `points` (in body a's frame) gets into body b over the rollout:
// the most negative `distance` (b's frame) of one of them at any step; > 0 if none enters.
template <class Distance>
double deepest_entry(const Trajectory& traj, int a, const std::vector<Vec3<double>>& points, int b, Distance distance) {
  double deepest = 1e9;
  for (int t = 0; t <= traj.steps; ++t)
    for (const Vec3<double>& p : points)
      deepest = std::min(deepest, distance(to_body(traj, b, t, to_world(traj, a, t, p))));
  return deepest;
}

// Signed distances, exact inside: a hull's farthest face plane, a box's farthest side.
double hull_distance(const ConvexMesh& hull, const Vec3<double>& q) {
  double d = -1e9;
  for (const ConvexPlane& f : hull.planes)
    d = std::max(d, f.normal[0] * q.x + f.normal[1] * q.y + f.normal[2] * q.z - f.offset);
  return d;
}
double box_distance(const ShapeSize& half, const Vec3<double>& q) {
  return std::max({std::fabs(q.x) - half[0], std::fabs(q.y) - half[1], std::fabs(q.z) - half[2]});
}

}  // namespace

TEST_CASE("mesh bodies: gradients match central differences for a rock tumbling on a floor") {
  const Scene scene = rock_on_floor_scene();
  // It lands: only the floor can turn its fall (0.5 m/s and faster) into a rise.
  CHECK(fastest_rise(trajectory_of(scene), 0) > 0.2);
  check_every_entry(scene, joined(kBodyMotion, kContact), 16);
}

TEST_CASE("mesh bodies: gradients match central differences for a rock hit by a sphere and by a box") {
  const Scene scene = rock_hit_scene();
  const Trajectory traj = trajectory_of(scene);
  const int steps = scene.settings.steps;
  // Both bounce back off the rock.
  CHECK(body_velocity(traj, 1, steps).x < 0.5);  // the sphere came at 1.5 m/s
  CHECK(body_velocity(traj, 2, steps).x > 0.1);  // the box at -1.2 m/s
  // Contact both ways: a box corner inside the rock's planes, a rock vertex inside the box,
  // and the sphere's centre within its radius of the rock.
  const ConvexMesh& rock = scene.bodies[0].mesh->hull;
  std::vector<Vec3<double>> rock_vertices, box_corners_in_body, sphere_centre{{0, 0, 0}};
  for (const Point& v : rock.vertices) rock_vertices.push_back({v[0], v[1], v[2]});
  for (const Point& c : box_corners(kHitBoxSize)) box_corners_in_body.push_back({c[0], c[1], c[2]});
  const auto inside_rock = [&](const Vec3<double>& q) { return hull_distance(rock, q); };
  const auto inside_box = [&](const Vec3<double>& q) { return box_distance(kHitBoxSize, q); };
  const double corner_depth = deepest_entry(traj, 2, box_corners_in_body, 0, inside_rock);
  const double vertex_depth = deepest_entry(traj, 0, rock_vertices, 2, inside_box);
  const double sphere_gap = deepest_entry(traj, 1, sphere_centre, 0, inside_rock) - 0.05;
  INFO("deepest box corner in the rock " << corner_depth << " m, rock vertex in the box " << vertex_depth
                                         << " m, sphere " << sphere_gap << " m");
  CHECK(corner_depth < 0);
  CHECK(vertex_depth < 0);
  CHECK(sphere_gap < 0);
  check_every_entry(scene, joined(joined(kBodyMotion, kContact), {ParamId::BodyRadius, ParamId::BodyHalfExtents}), 45);
}

TEST_CASE("mesh bodies: gradients match central differences for particles falling onto a resting mesh body") {
  const Scene scene = particles_on_block_scene();
  const Trajectory traj = trajectory_of(scene);
  // They land on the block's top (its base is at y = 4 mm, its top at 8 to 10 cm) and stay
  // there; falling through it they would be on the floor.
  for (int i = 0; i < 4; ++i) CHECK(traj.x[(size_t(traj.steps) * 4 + size_t(i)) * 3 + 1] > 0.08);
  check_every_entry(scene,
                    joined(joined(kBodyMotion, kContact), {ParamId::InitialPosition, ParamId::InitialVelocity,
                                                           ParamId::Mass, ParamId::ParticleRadius}),
                    45);
}

TEST_CASE("mesh bodies: the same bits on 1, 2 and 8 threads, stored or checkpointed") {
  SUBCASE("a rock on the floor") { test::check_same_bits(rock_on_floor_scene(120)); }
  SUBCASE("a rock hit by a sphere and a box") { test::check_same_bits(rock_hit_scene(120)); }
  SUBCASE("particles on a block") { test::check_same_bits(particles_on_block_scene(120)); }
}

namespace {

// A scene file with one mesh body (its "mesh" and "scale" members given) thrown onto a floor.
std::string mesh_scene_text(std::string_view mesh_members) {
  return R"({"format": "nudge-scene", "version": 1,
 "simulation": {"dt": 0.001, "steps": 200},
 "bodies": [{"name": "block", "shape": "mesh", )" +
         std::string(mesh_members) + R"(, "density": 800, "position": [0, 0.12, 0],
   "orientation": [0.1, 0.2, 0.05, 1], "velocity": [0.5, 0, 0.2], "angular_velocity": [1, 2, -3]}],
 "colliders": [{"type": "plane", "normal": [0, 1, 0], "offset": 0}],
 "contact": {"stiffness": 30000, "damping": 20, "friction": 0.5, "damping_mode": "both", "smoothing": 0.003,
             "friction_smoothing": 0.05},
 "objectives": [{"type": "target", "bodies": [0], "target": [0.3, 0.05, 0]}]})";
}

Scene loaded(const fs::path& file) {
  Result<Scene> scene = load_scene(file);
  REQUIRE_MESSAGE(scene.ok(), (scene.ok() ? "" : scene.error().message));
  return std::move(*scene);
}

void check_same_hull(const BodyMesh& a, const BodyMesh& b) {
  CHECK(a.hull.vertices == b.hull.vertices);
  CHECK(a.hull.triangles == b.hull.triangles);
  REQUIRE(a.hull.planes.size() == b.hull.planes.size());
  for (size_t f = 0; f < a.hull.planes.size(); ++f) {
    CHECK(std::equal(a.hull.planes[f].normal, a.hull.planes[f].normal + 3, b.hull.planes[f].normal));
    CHECK(a.hull.planes[f].offset == b.hull.planes[f].offset);
  }
  CHECK(std::equal(a.centre, a.centre + 3, b.centre));
  CHECK(std::equal(a.scale, a.scale + 3, b.scale));
}

// The hull's extent along each axis of the body's frame (the file's axes).
Point extents(const ConvexMesh& hull) {
  Point low{1e9, 1e9, 1e9}, high{-1e9, -1e9, -1e9};
  for (const Point& v : hull.vertices)
    for (int k = 0; k < 3; ++k) low[k] = std::min(low[k], v[k]), high[k] = std::max(high[k], v[k]);
  return {high[0] - low[0], high[1] - low[1], high[2] - low[2]};
}

}  // namespace

TEST_CASE(
    "mesh scenes: the OBJ beside the scene loads; saved in another folder, its path is rebased and loads the same") {
  TempDir dir;
  const fs::path obj = dir.write("scenes/block.obj", obj_text(lopsided_block()));
  const Scene scene = loaded(dir.write("scenes/drop.json", mesh_scene_text(R"("mesh": "block.obj")")));
  REQUIRE(scene.body_count() == 1);
  REQUIRE(scene.bodies[0].shape == BodyShape::Mesh);
  CHECK(scene.bodies[0].name == "block");
  CHECK(scene.bodies[0].mesh->file == fs::path("block.obj"));
  check_same_hull(*scene.bodies[0].mesh, *load_mesh(obj));
  const Trajectory first = trajectory_of(scene);
  CHECK(fastest_rise(first, 0) > 0.1);  // it lands on the floor and bounces

  // Saved two folders down elsewhere, the scene names the same OBJ from there.
  const fs::path elsewhere = dir.path / "elsewhere" / "deeper" / "drop.json";
  fs::create_directories(elsewhere.parent_path());
  REQUIRE(save_scene(scene, elsewhere).ok());
  CHECK(file_text(elsewhere).find("\"../../scenes/block.obj\"") != std::string::npos);
  const Scene moved = loaded(elsewhere);
  CHECK(moved.bodies[0].mesh->file == fs::path("../../scenes/block.obj"));
  check_same_hull(*moved.bodies[0].mesh, *scene.bodies[0].mesh);
  const Trajectory again = trajectory_of(moved);
  CHECK(again.body_x == first.body_x);
  CHECK(again.body_q == first.body_q);

  // Saved beside the first, the path stays as written.
  const fs::path beside = dir.path / "scenes" / "copy.json";
  REQUIRE(save_scene(scene, beside).ok());
  CHECK(file_text(beside).find("\"mesh\": \"block.obj\"") != std::string::npos);
  CHECK(loaded(beside).bodies[0].mesh->file == fs::path("block.obj"));
}

TEST_CASE("mesh scenes: \"scale\" stretches the file along its axes, and saves and loads back") {
  TempDir dir;
  dir.write("block.obj", obj_text(lopsided_block()));
  const BodyMesh plain = *loaded(dir.write("plain.json", mesh_scene_text(R"("mesh": "block.obj")"))).bodies[0].mesh;
  const Scene stretched_scene =
      loaded(dir.write("stretched.json", mesh_scene_text(R"("mesh": "block.obj", "scale": [2, 1, 1])")));
  const BodyMesh& stretched = *stretched_scene.bodies[0].mesh;
  const BodyMesh doubled =
      *loaded(dir.write("doubled.json", mesh_scene_text(R"("mesh": "block.obj", "scale": 2)"))).bodies[0].mesh;

  CHECK(std::vector<double>(stretched.scale, stretched.scale + 3) == std::vector<double>{2, 1, 1});
  CHECK(std::vector<double>(doubled.scale, doubled.scale + 3) == std::vector<double>{2, 2, 2});
  const Point plain_size = extents(plain.hull), stretched_size = extents(stretched.hull);
  CHECK(near(stretched_size[0], 2 * plain_size[0], 1e-12));
  CHECK(near(stretched_size[1], plain_size[1], 1e-12));
  CHECK(near(stretched_size[2], plain_size[2], 1e-12));
  // The centre of mass is in the scaled file's frame.
  CHECK(near(stretched.centre[0], 2 * plain.centre[0], 1e-12));
  CHECK(near(stretched.centre[1], plain.centre[1], 1e-12));
  const auto volume = [](const BodyMesh& m) { return mesh_mass_properties(m.hull.vertices, m.hull.triangles).volume; };
  CHECK(near(volume(stretched), 2 * volume(plain), 1e-12));
  CHECK(near(volume(doubled), 8 * volume(plain), 1e-12));

  const fs::path saved = dir.path / "saved" / "stretched.json";
  fs::create_directories(saved.parent_path());
  REQUIRE(save_scene(stretched_scene, saved).ok());
  check_same_hull(*loaded(saved).bodies[0].mesh, stretched);
}

TEST_CASE("mesh scenes: bad meshes and scales say which file, which line or key, and what is wrong") {
  TempDir dir;
  dir.write("block.obj", obj_text(lopsided_block()));
  const fs::path bad = dir.write("bad.obj", "# a block\nv 0 0 0\nv 1 0 0\nvn 0 1 0\nv 0 1 abc\nv 0 0 1\n");
  const fs::path flat = dir.write("flat.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 1 1 0\nv 0.5 0.2 0\n");
  const fs::path scene_file = dir.path / "scene.json";
  const auto error_of = [&](std::string_view mesh_members) {
    dir.write("scene.json", mesh_scene_text(mesh_members));
    Result<Scene> scene = load_scene(scene_file);
    REQUIRE_FALSE(scene.ok());
    return scene.error().message;
  };
  const std::string at = scene_file.string() + ": $.bodies[0]";
  CHECK(error_of(R"("mesh": "nowhere.obj")") ==
        at + ".mesh: " + (dir.path / "nowhere.obj").string() + ": no such file");
  CHECK(error_of(R"("mesh": "bad.obj")") ==
        at + ".mesh: " + bad.string() + ":5: found 'v 0 1 abc'; expected 'v x y z' with three finite numbers");
  CHECK(error_of(R"("mesh": "flat.obj")") ==
        at + ".mesh: " + flat.string() +
            ": all 5 points lie in one plane (within 1e-5 x their bounding box's diagonal); a convex body needs "
            "points that span a volume");
  CHECK(error_of(R"("mesh": "block.obj", "scale": 0)") == at + ".scale: found 0; expected a scale factor > 0");
  CHECK(error_of(R"("mesh": "block.obj", "scale": [1, 0, 1])") ==
        at + ".scale[1]: found 0; expected a scale factor > 0");
  CHECK(error_of(R"("mesh": "block.obj", "scale": [1, 2])") ==
        at + ".scale: found an array of 2 values; expected a number or an array of 3 numbers (one per axis)");
  CHECK(error_of(R"("mesh": "block.obj", "radius": 0.1)") ==
        at + ".radius: unknown key 'radius' in bodies[0] (a mesh body); expected one of: name, shape, mesh, scale, "
             "position, orientation, velocity, angular_velocity, density");
  CHECK(error_of(R"("mesh": "")") ==
        at + ".mesh: found an empty string; expected the path of a Wavefront OBJ file, relative to the scene's folder");
  CHECK(error_of(R"("scale": 2)") ==
        at + ": missing key 'mesh'; expected the path of a Wavefront OBJ file, relative to the scene's folder");
  // A scale that flattens, shrinks to nothing or overflows a good file says so.
  const std::string block = (dir.path / "block.obj").string();
  CHECK(error_of(R"("mesh": "block.obj", "scale": [1e-9, 1, 1])")
            .starts_with(at + ".mesh: " + block + " (after scaling by [1e-09, 1, 1]): all 8 points lie in one plane"));
  CHECK(
      error_of(R"("mesh": "block.obj", "scale": 1e-60)")
          .starts_with(at + ".mesh: " + block + " (after scaling by [1e-60, 1e-60, 1e-60]): found a hull of volume "));
  CHECK(error_of(R"("mesh": "block.obj", "scale": 1e307)").find("; expected coordinates within 1e15 m") !=
        std::string::npos);
}
