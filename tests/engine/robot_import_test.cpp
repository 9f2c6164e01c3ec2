// nudge import's readers of MJCF and URDF: robots in tests/data/articulations/ and small
// files written here, against MuJoCo 4.0.0's own reading of the same files where it can
// tell (mujoco.MjModel.from_xml_path; MuJoCo keeps an inertia diagonalised, body_inertia
// in the frame body_iquat, so its numbers below are that inertia turned back into the
// body's axes, R diag R^T), and against hand-computed values.
#include <doctest/doctest.h>

#include <numbers>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include "../obj_cube.h"
#include "../source_dir.h"
#include "nudge/articulations.h"
#include "nudge/convex_mesh.h"
#include "nudge/live_simulation.h"
#include "nudge/parameters.h"
#include "nudge/quat.h"
#include "gradient_outcome.h"
#include "temp_dir.h"
#include "nudge/robot_import.h"
#include "nudge/scene.h"

namespace nudge {
namespace {

using V3 = Vec3<double>;
using M3 = Mat33<double>;
constexpr double kPi = 3.14159265358979323846;

// An ASCII STL tetrahedron (a mesh geom's file).
constexpr const char* kTetrahedronStl = R"(solid t
facet normal 0 0 -1
 outer loop
  vertex 0 0 0
  vertex 0 1 0
  vertex 1 0 0
 endloop
endfacet
facet normal 0 0 1
 outer loop
  vertex 0 0 0
  vertex 1 0 0
  vertex 0 0 1
 endloop
endfacet
facet normal 1 1 1
 outer loop
  vertex 1 0 0
  vertex 0 1 0
  vertex 0 0 1
 endloop
endfacet
endsolid t
)";

std::filesystem::path data_file(const char* name) {
  return test::source_dir() / "tests" / "data" / "articulations" / name;
}

ImportedRobot imported(const std::filesystem::path& file) {
  Result<ImportedRobot> robot = import_robot(file);
  REQUIRE_MESSAGE(robot.ok(), (robot.ok() ? std::string() : robot.error().message));
  return std::move(robot).value();
}

// The error message of a file that must not import.
std::string import_error(const std::filesystem::path& file) {
  Result<ImportedRobot> robot = import_robot(file);
  REQUIRE_FALSE(robot.ok());
  return robot.error().message;
}

int link_named(const ImportedRobot& r, const std::string& name) {
  for (int i = 0; i < r.articulations.link_count(); ++i)
    if (r.articulations.links[i].name == name) return i;
  FAIL("no link named " << name);
  return -1;
}

// count values of `values` from row i (each row `count` wide) against `expected`.
void check_row(const std::vector<double>& values, int i, std::initializer_list<double> expected, double eps = 1e-12) {
  const std::size_t count = expected.size();
  REQUIRE(values.size() >= (static_cast<std::size_t>(i) + 1) * count);
  std::size_t k = 0;
  for (double e : expected) {
    CAPTURE(k);
    CHECK(values[static_cast<std::size_t>(i) * count + k] == doctest::Approx(e).epsilon(eps));
    ++k;
  }
}

void check_vec(const double* v, std::initializer_list<double> expected, double eps = 1e-12) {
  std::size_t k = 0;
  for (double e : expected) {
    CAPTURE(k);
    CHECK(v[k++] == doctest::Approx(e).epsilon(eps));
  }
}

// A link's quat (x, y, z, w) against MuJoCo's (w, x, y, z), either sign.
void check_quat(const double* q, double w, double x, double y, double z, double eps = 1e-12) {
  const double sign = q[0] * x + q[1] * y + q[2] * z + q[3] * w < 0 ? -1.0 : 1.0;
  check_vec(q, {sign * x, sign * y, sign * z, sign * w}, eps);
}

bool contains(const std::vector<std::string>& lines, const std::string& line) {
  for (const std::string& l : lines)
    if (l == line) return true;
  return false;
}

bool has(const std::string& message, const std::string& part) { return message.find(part) != std::string::npos; }

// Every link's frame at q, as articulation_dynamics.h's link_frames places them (the
// same rules, written again here so that this test stands on the importer alone).
struct Pose {
  M3 rot;
  V3 origin;
};
std::vector<Pose> link_poses(const ImportedRobot& r, const std::vector<double>& q) {
  const std::vector<int> coordinate = articulation_coordinates(r.articulations);
  std::vector<Pose> poses;
  for (int k = 0; k < r.articulations.link_count(); ++k) {
    const ArticulationLink& l = r.articulations.links[k];
    const Pose parent = l.parent >= 0 ? poses[l.parent] : Pose{identity33<double>(), {0, 0, 0}};
    const V3 pos{r.pos[3 * k], r.pos[3 * k + 1], r.pos[3 * k + 2]}, anchor{l.anchor[0], l.anchor[1], l.anchor[2]},
        axis{l.axis[0], l.axis[1], l.axis[2]};
    const M3 r0 = parent.rot * to_matrix(Quat<double>{l.quat[0], l.quat[1], l.quat[2], l.quat[3]});
    const V3 o0 = parent.origin + parent.rot * pos;
    Pose p{r0, o0};
    if (l.joint == ArticulationJoint::Hinge) {
      p.rot = r0 * to_matrix(quat_from_axis_angle(axis, q[coordinate[k]]));
      p.origin = o0 + r0 * anchor - p.rot * anchor;
    } else if (l.joint == ArticulationJoint::Slide) {
      p.origin = o0 + q[coordinate[k]] * (r0 * axis);
    }
    poses.push_back(p);
  }
  return poses;
}

TEST_CASE("the double pendulum imports with MuJoCo's placements, masses and inertias") {
  const ImportedRobot r = imported(data_file("double_pendulum.xml"));
  CHECK(r.name == "double_pendulum");
  CHECK(r.timestep == 0.001);
  check_vec(r.gravity, {0, 0, -9.81});
  REQUIRE(r.articulations.link_count() == 2);
  const ArticulationLink &l1 = r.articulations.links[0], &l2 = r.articulations.links[1];
  CHECK(l1.name == "link1");
  CHECK(l1.joint_name == "shoulder");
  CHECK(l1.parent == -1);
  CHECK(l1.joint == ArticulationJoint::Hinge);
  CHECK(l2.name == "link2");
  CHECK(l2.joint_name == "elbow");
  CHECK(l2.parent == 0);
  check_vec(l1.axis, {0, 1, 0});
  check_vec(l2.anchor, {0, 0, 0});
  // MuJoCo: body_pos, body_mass, body_ipos, and the inertia in the body's axes.
  check_row(r.pos, 0, {0, 0, 2});
  check_row(r.pos, 1, {0, 0, -0.5});
  check_row(r.mass, 0, {1});
  check_row(r.mass, 1, {0.5});
  check_row(r.com, 0, {0, 0, -0.25});
  check_row(r.com, 1, {0, 0, -0.2});
  check_row(r.inertia, 0, {0.021, 0.021, 0.001, 0, 0, 0});
  check_row(r.inertia, 1, {0.007, 0.007, 0.0005, 0, 0, 0});
  check_row(r.damping, 1, {0});
  check_row(r.q, 1, {0});
  // Its geoms, drawn: capsules from fromto, half length 0.25 centred at z = -0.25.
  REQUIRE(l1.shapes.size() == 1);
  CHECK(l1.shapes[0].kind == LinkShape::Kind::Capsule);
  check_vec(l1.shapes[0].size, {0.03, 0.25});
  check_vec(l1.shapes[0].pos, {0, 0, -0.25});
  CHECK(r.articulations.actuators.empty());
  CHECK(r.channels == 0);
  CHECK(r.articulations.source == data_file("double_pendulum.xml").string());
  CHECK(articulation_coordinates(r.articulations) == std::vector<int>{0, 1});
  CHECK(articulation_coordinate_count(r.articulations) == 2);
}

TEST_CASE("a free body with a ball-jointed limb imports its free joint, its ball about its pos, and a hinge") {
  const ImportedRobot r = imported(data_file("floating.xml"));
  REQUIRE(r.articulations.link_count() == 3);
  const ArticulationLink &body = r.articulations.links[0], &limb = r.articulations.links[1],
                         &hand = r.articulations.links[2];
  CHECK(body.joint == ArticulationJoint::Free);
  CHECK(body.joint_name == "root");
  check_vec(body.anchor, {0, 0, 0});  // MuJoCo turns a free joint about the body's origin
  CHECK(limb.joint == ArticulationJoint::Ball);
  check_vec(limb.anchor, {0, 0, 0.02});
  CHECK(hand.joint == ArticulationJoint::Hinge);
  check_row(r.pos, 0, {0, 0, 1});
  check_row(r.damping, 0, {0});  // a <freejoint> takes no defaults
  check_row(r.damping, 1, {0.01});
  check_row(r.inertia, 0, {0.02, 0.025, 0.03, 0.002, 0, 0.001});
  // q: 3 + 4 for the free joint, 4 for the ball, 1 for the hinge; qd: 6, 3, 1.
  CHECK(articulation_positions(r.articulations) == std::vector<int>{0, 7, 11});
  CHECK(articulation_position_count(r.articulations) == 12);
  CHECK(articulation_coordinates(r.articulations) == std::vector<int>{0, 6, 9});
  CHECK(articulation_coordinate_count(r.articulations) == 10);
}

TEST_CASE("a ball's range imports as its cone limit, in radians, with MuJoCo's default time constant; its spring") {
  const ImportedRobot r = imported(data_file("ball_cone.xml"));
  REQUIRE(r.articulations.link_count() == 1);
  const ArticulationLink& bob = r.articulations.links[0];
  CHECK(bob.joint == ArticulationJoint::Ball);
  CHECK(bob.limited);
  CHECK(bob.range[0] == 0);
  CHECK(bob.range[1] == doctest::Approx(std::numbers::pi / 6).epsilon(1e-15));
  CHECK(r.stiffness == std::vector<double>{0.5});  // a ball's spring, toward no turn
  CHECK(r.ignored.empty());
  // robot_scene's spring and damper: the mean of the ball's three diagonal entries of M
  // (about the joint: 0.01 + 0.16, 0.012 + 0.16, 0.002) over a 20 ms time constant.
  const Scene scene = robot_scene(r, "ball_cone.xml", 10);
  const double inertia = (0.17 + 0.172 + 0.002) / 3;
  CHECK(scene.articulations.links[0].limit_stiffness == doctest::Approx(inertia / (0.02 * 0.02)).epsilon(1e-9));
  CHECK(scene.articulations.links[0].limit_damping == doctest::Approx(2 * inertia / 0.02).epsilon(1e-9));
  CHECK(check_scene(scene).ok());
}

TEST_CASE("the cartpole imports a damped slide cart, a hinge pole turned in degrees and a motor") {
  const ImportedRobot r = imported(data_file("cartpole.xml"));
  CHECK(r.name == "cartpole");
  CHECK(r.timestep == 0.001);
  REQUIRE(r.articulations.link_count() == 2);
  const int cart = link_named(r, "cart"), pole = link_named(r, "pole");
  CHECK(r.articulations.links[cart].joint == ArticulationJoint::Slide);
  CHECK(r.articulations.links[pole].joint == ArticulationJoint::Hinge);
  CHECK(r.articulations.links[pole].parent == cart);
  check_row(r.damping, cart, {0.2});
  check_row(r.damping, pole, {0.01});
  // axisangle="0 0 1 90" in degrees. MuJoCo: body_quat (0.7071067811865476, 0, 0, 0.7071067811865475).
  check_quat(r.articulations.links[pole].quat, 0.7071067811865476, 0, 0, 0.7071067811865475);
  // MuJoCo: the cart's box (mass="1") and the pole's capsule (density 1000).
  check_row(r.mass, cart, {1});
  check_row(r.inertia, cart, {0.00416666666666667, 0.01416666666666667, 0.01666666666666667, 0, 0, 0});
  check_row(r.mass, pole, {4.1987385815227585});
  check_row(r.com, pole, {0, 0, 0.3});
  check_row(r.inertia, pole, {1.5497066975016235e-01, 1.5497066975016235e-01, 4.1739278535410321e-03, 0, 0, 0});
  REQUIRE(r.articulations.actuators.size() == 1);
  const ArticulationActuator& push = r.articulations.actuators[0];
  CHECK(push.name == "push");
  CHECK(push.link == cart);
  CHECK(push.channel == 0);
  CHECK(push.gear == 10);
  CHECK(r.gain == std::vector<double>{1});
  CHECK(r.bias_q == std::vector<double>{0});
  CHECK(r.bias_qd == std::vector<double>{0});
  CHECK(r.channels == 1);
  CHECK(contains(r.ignored, "worldbody geom rail"));
  // The slider's range (m) and the motor's ctrlrange are imported; the hinge has none.
  CHECK(r.articulations.links[size_t(cart)].limited);
  check_vec(r.articulations.links[size_t(cart)].range, {-1.8, 1.8});
  CHECK_FALSE(r.articulations.links[1].limited);
  CHECK(push.ctrl_limited);
  check_vec(push.ctrl_range, {-1, 1});
  // robot_scene gives the limit MuJoCo's default time constant (20 ms) on the cart's
  // inertia along the rail at the start: both bodies' mass.
  const Scene scene = robot_scene(r, "cartpole.xml", 10);
  const double moving = r.mass[0] + r.mass[1];
  CHECK(scene.articulations.links[size_t(cart)].limit_stiffness == doctest::Approx(moving / (0.02 * 0.02)));
  CHECK(scene.articulations.links[size_t(cart)].limit_damping == doctest::Approx(2 * moving / 0.02));
  for (const std::string& line : r.ignored) CHECK(line.find("not enforced") == std::string::npos);
}

TEST_CASE("the 7-joint arm imports its chain, defaults, childclass, inertias and motors as MuJoCo reads them") {
  const ImportedRobot r = imported(data_file("arm7.xml"));
  CHECK(r.name == "arm7");
  REQUIRE(r.articulations.link_count() == 8);
  CHECK(r.articulations.links[0].name == "base");
  CHECK(r.articulations.links[0].joint == ArticulationJoint::Weld);
  CHECK(r.articulations.links[0].parent == -1);
  CHECK(articulation_coordinates(r.articulations) == std::vector<int>{-1, 0, 1, 2, 3, 4, 5, 6});
  CHECK(articulation_coordinate_count(r.articulations) == 7);
  for (int k = 1; k < 8; ++k) {
    CAPTURE(k);
    const ArticulationLink& l = r.articulations.links[k];
    CHECK(l.name == "link" + std::to_string(k));
    CHECK(l.joint_name == "j" + std::to_string(k));
    CHECK(l.parent == k - 1);
    CHECK(l.joint == ArticulationJoint::Hinge);
    // MuJoCo: jnt_axis alternates z and y.
    check_vec(l.axis, {0, k % 2 == 0 ? 1.0 : 0.0, k % 2 == 0 ? 0.0 : 1.0});
    // The main class's damping and armature, the wrist's from link5 on (childclass).
    check_row(r.damping, k, {k < 5 ? 0.5 : 0.1});
    check_row(r.armature, k, {k < 5 ? 0.01 : 0.002});
  }
  // MuJoCo: body_quat of link3 (euler="0 0 pi/2" in radians).
  check_quat(r.articulations.links[3].quat, 0.7071067811865476, 0, 0, 0.7071067811865475);
  check_row(r.pos, 7, {0.02, 0, 0.08});
  // MuJoCo 4.0.0: body_mass, body_ipos and the inertia in the body's axes, body by body.
  struct Expected {
    double mass, com[3], inertia[6];
  };
  const Expected mujoco[8] = {
      {2.0106192982974678, {0, 0, 0}, {0.00489250695919051, 0.00489250695919051, 0.0064339817545519, 0, 0, 0}},
      {1.7760470468294298,
       {0, 0, 0.15},
       {1.9322721663071432e-02, 1.9322721663071432e-02, 1.3779444257665313e-03, 0, 0, 0}},
      {2, {0, 0, 0.15}, {0.02, 0.02, 0.002, 0, 0, 0}},
      {1.5247196345422462,
       {0, 0, 0.125},
       {1.2413312220276276e-02, 1.2413312220276276e-02, 1.1768824959367844e-03, 0, 0, 0}},
      {1.2, {0.01, 0, 0.12}, {0.01, 0.0055, 0.0055, 0, 0, 0.0035}},
      {0.31667253948185115,
       {0, 0, 0.05},
       {5.9994366587073564e-04, 5.9994366587073564e-04, 1.3435963460872827e-04, 0, 0, 0}},
      {0.27700277256856476,
       {0.01, 0, 0.04},
       {4.0025216931863363e-04, 4.1798616493243887e-04, 1.3424223511155470e-04, 0, -7.0935982455221111e-05, 0}},
      {0.3, {0, 0, 0.03}, {4.0e-04, 4.0e-04, 2.0e-04, 1.0e-05, 0, 0}},
  };
  for (int k = 0; k < 8; ++k) {
    CAPTURE(k);
    const Expected& e = mujoco[k];
    check_row(r.mass, k, {e.mass}, 1e-12);
    check_row(r.com, k, {e.com[0], e.com[1], e.com[2]}, 1e-12);
    check_row(r.inertia, k, {e.inertia[0], e.inertia[1], e.inertia[2], e.inertia[3], e.inertia[4], e.inertia[5]},
              1e-12);
  }
  // Motors on every joint, gear from the default (50) or their own; MuJoCo: actuator_gear
  // 50 50 50 50 10 10 5.
  REQUIRE(r.articulations.actuators.size() == 7);
  CHECK(r.channels == 7);
  const double gears[7] = {50, 50, 50, 50, 10, 10, 5};
  for (int k = 0; k < 7; ++k) {
    const ArticulationActuator& a = r.articulations.actuators[k];
    CHECK(a.name == "m" + std::to_string(k + 1));
    CHECK(a.link == k + 1);
    CHECK(a.channel == k);
    CHECK(a.gear == gears[k]);
    CHECK(r.gain[size_t(k)] == 1);
  }
  // Shapes: the classes' colours, the wrist's radius, link7's box.
  CHECK(r.articulations.links[0].shapes[0].kind == LinkShape::Kind::Cylinder);
  check_vec(r.articulations.links[1].shapes[0].rgba, {0.8, 0.4, 0.2, 1});
  check_vec(r.articulations.links[5].shapes[0].rgba, {0.2, 0.4, 0.8, 1});
  check_vec(r.articulations.links[5].shapes[0].size, {0.03, 0.05});
  REQUIRE(r.articulations.links[7].shapes.size() == 1);
  CHECK(r.articulations.links[7].shapes[0].kind == LinkShape::Kind::Box);
  check_vec(r.articulations.links[7].shapes[0].size, {0.04, 0.02, 0.03});
  CHECK(contains(r.ignored, "worldbody geom floor"));
  for (const ArticulationLink& l : r.articulations.links)
    if (l.joint_name == "j1") {
      CHECK(l.limited);  // compiler angle="radian"
      check_vec(l.range, {-2.9, 2.9});
    } else if (l.joint_name == "j2") {
      CHECK_FALSE(l.limited);  // no range
    }
  CHECK(contains(r.ignored, "<sensor> section"));
  CHECK(contains(r.ignored, "<site> elements (1)"));
  CHECK(contains(r.ignored, "<light> elements (1)"));
}

TEST_CASE("inertia from geoms equals the hand-computed values of a capsule and a box") {
  const ImportedRobot r = imported(data_file("cartpole.xml"));
  // The pole: a capsule of radius 0.045 and cylinder length h = 0.6, density 1000, from
  // its base up: a cylinder and two hemispheres, each of those 3r/8 from its flat face.
  const double radius = 0.045, h = 0.6, density = 1000;
  const double cylinder = density * kPi * radius * radius * h,
               spheres = density * 4.0 / 3.0 * kPi * std::pow(radius, 3);
  const double across = cylinder * (3 * radius * radius + h * h) / 12 +
                        spheres * (0.4 * radius * radius + h * h / 4 + 3 * h * radius / 8),
               along = cylinder * radius * radius / 2 + spheres * 0.4 * radius * radius;
  const int pole = link_named(r, "pole");
  check_row(r.mass, pole, {cylinder + spheres});
  check_row(r.inertia, pole, {across, across, along, 0, 0, 0});
  // The cart: a box of half extents 0.2, 0.1, 0.05 and mass 1: m (b^2 + c^2) / 3, ...
  const double a = 0.2, b = 0.1, c = 0.05;
  check_row(r.inertia, link_named(r, "cart"), {(b * b + c * c) / 3, (a * a + c * c) / 3, (a * a + b * b) / 3, 0, 0, 0});
}

TEST_CASE("several geoms of every kind combine about their common centre as MuJoCo combines them") {
  test::TempDir dir("robot-import");
  // A tilted capsule, a turned box with its own mass, a cylinder along y with its own
  // density, a sphere and a box from fromto.
  const auto file = dir.write("mixed.xml", R"(<mujoco model="mixed">
  <worldbody>
    <body name="m">
      <joint axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 0.3 0 0.1" size="0.04"/>
      <geom type="box" size="0.05 0.03 0.02" pos="0.3 0.05 0.1" euler="10 20 30" mass="0.7"/>
      <geom type="cylinder" size="0.03 0.05" pos="-0.05 0 0" zaxis="0 1 0" density="2000"/>
      <geom type="sphere" size="0.04" pos="0 0.1 0"/>
      <geom type="box" fromto="0 0 0 0 0.2 0" size="0.02"/>
    </body>
  </worldbody>
</mujoco>)");
  const ImportedRobot r = imported(file);
  // MuJoCo 4.0.0 on the same file: body_mass, body_ipos, and body_inertia turned back by body_iquat.
  check_row(r.mass, 0, {3.7111859463861969});
  check_row(r.com, 0, {0.12404880194996307, 0.02527716440669851, 0.04388916026702785});
  check_row(r.inertia, 0,
            {0.01557900480923502, 0.07670523805395077, 0.07697067659832402, 0.00096506312150095, -0.02080298079776482,
             0.00064114449840428},
            1e-10);
  // The box from fromto: half extents size[0], size[0] and half its length, along y.
  REQUIRE(r.articulations.links[0].shapes.size() == 5);
  check_vec(r.articulations.links[0].shapes[4].size, {0.02, 0.02, 0.1});
}

TEST_CASE("euler in every sequence, axisangle, xyaxes and zaxis turn bodies as MuJoCo turns them") {
  test::TempDir dir("robot-import");
  const auto file = dir.write("orient.xml", R"(<mujoco>
  <compiler eulerseq="zyX"/>
  <worldbody>
    <body name="a" euler="10 20 30"><joint/><geom size="0.1"/></body>
    <body name="b" zaxis="0 0 -1"><joint/><geom size="0.1"/></body>
    <body name="c" xyaxes="0 1 0 -1 0 0.5"><joint/><geom size="0.1"/></body>
    <body name="d" zaxis="1 1 0"><joint/><geom size="0.1"/></body>
    <body name="e" axisangle="1 1 0 60"><joint/><geom size="0.1"/></body>
    <body name="f" quat="2 0 0 2"><joint/><geom size="0.1"/></body>
  </worldbody>
</mujoco>)");
  const ImportedRobot r = imported(file);
  const auto& links = r.articulations.links;
  // MuJoCo 4.0.0: body_quat (w, x, y, z), angles in degrees.
  check_quat(links[0].quat, 9.515485246438e-01, 2.392983377447e-01, 1.448781254174e-01, 1.276794406958e-01, 1e-12);
  check_quat(links[1].quat, 6.123233995737e-17, 1, 0, 0);
  check_quat(links[2].quat, 6.881909602356e-01, 1.624598481165e-01, 1.624598481165e-01, 6.881909602356e-01, 1e-12);
  check_quat(links[3].quat, 7.071067811865e-01, -5.000000000000e-01, 5.000000000000e-01, 0, 1e-12);
  const double s = std::sin(kPi / 6) / std::sqrt(2.0);
  check_quat(links[4].quat, std::cos(kPi / 6), s, s, 0);
  check_quat(links[5].quat, std::sqrt(0.5), 0, 0, std::sqrt(0.5));
}

TEST_CASE("a body with several joints becomes a chain of massless links that moves as MuJoCo's one body") {
  test::TempDir dir("robot-import");
  const auto file = dir.write("multi.xml", R"(<mujoco model="multi">
  <compiler angle="radian"/>
  <worldbody>
    <body name="b" pos="0.1 0.2 0.3" euler="0.3 0.2 0.1">
      <joint name="ja" type="hinge" pos="0 0 0.1" axis="1 0 0"/>
      <joint name="jb" type="slide" axis="0 1 1"/>
      <joint name="jc" type="hinge" pos="0.1 0 0" axis="0 0 1"/>
      <inertial pos="0 0 -0.1" mass="2" diaginertia="0.1 0.2 0.25"/>
      <body name="c" pos="0 0 -0.2">
        <joint name="jd" axis="0 1 0" pos="0 0 0.05"/>
        <geom type="sphere" size="0.05" pos="0 0 -0.1"/>
      </body>
    </body>
  </worldbody>
</mujoco>)");
  const ImportedRobot r = imported(file);
  REQUIRE(r.articulations.link_count() == 4);
  const auto& links = r.articulations.links;
  CHECK(links[0].name == "b_ja");
  CHECK(links[1].name == "b_jb");
  CHECK(links[2].name == "b");
  CHECK(links[3].name == "c");
  CHECK(links[1].joint == ArticulationJoint::Slide);
  CHECK(links[3].parent == 2);
  check_row(r.mass, 0, {0});
  check_row(r.mass, 1, {0});
  check_row(r.mass, 2, {2});
  check_row(r.pos, 0, {0.1, 0.2, 0.3});
  check_row(r.pos, 1, {0, 0, 0});
  check_quat(links[0].quat, 0.981856172866081, 0.1534393020242226, 0.09115754934299071, 0.06407134770607116);
  check_quat(links[1].quat, 1, 0, 0, 0);
  check_vec(links[2].anchor, {0.1, 0, 0});
  check_vec(links[1].axis, {0, std::sqrt(0.5), std::sqrt(0.5)});
  REQUIRE(links[2].shapes.empty());
  REQUIRE(links[3].shapes.size() == 1);
  // MuJoCo 4.0.0, qpos = (0.4, 0.15, -0.7, 0.9) after mj_kinematics: xpos and xmat of b and c.
  const std::vector<Pose> poses = link_poses(r, {0.4, 0.15, -0.7, 0.9});
  const double xpos[2][3] = {{0.14196550795657387, 0.2999212771178748, 0.5056846050443264},
                             {0.07239659224319532, 0.42934615190528874, 0.39284171746700935}};
  const double xmat[2][9] = {
      {0.7540679215284789, 0.6184669819410008, 0.2210885839895631, -0.37026623281181104, 0.6783223156198539,
       -0.6346508906252867, -0.5424799411601041, 0.39670824087849466, 0.7404985381876326},
      {0.2955514995247827, 0.6184669819410007, 0.7281125622988817, 0.2669779396159876, 0.678322315619854,
       -0.6845448238724195, -0.9172633705141916, 0.39670824087849466, 0.0353621369834442}};
  for (int b = 0; b < 2; ++b) {
    CAPTURE(b);
    const Pose& p = poses[b == 0 ? 2 : 3];
    check_vec(&p.origin.x, {xpos[b][0], xpos[b][1], xpos[b][2]});
    for (int k = 0; k < 9; ++k) CHECK(p.rot.m[k] == doctest::Approx(xmat[b][k]).epsilon(1e-12));
  }
}

TEST_CASE("defaults apply through nested classes, class and childclass, to joints, geoms and actuators") {
  test::TempDir dir("robot-import");
  const auto file = dir.write("defaults.xml", R"(<mujoco model="defaults">
  <default>
    <joint axis="0 1 0" damping="1"/>
    <geom type="box" size="0.1 0.1 0.1" density="500"/>
    <position kp="20"/>
    <default class="light">
      <geom density="100"/>
      <default class="lighter">
        <joint damping="3" armature="0.5" frictionloss="0.2"/>
        <geom type="sphere" size="0.05"/>
      </default>
    </default>
  </default>
  <worldbody>
    <body name="a" childclass="light">
      <joint name="ja"/>
      <geom/>
      <body name="b" pos="0 0 -0.3">
        <joint name="jb" class="lighter"/>
        <geom class="main"/>
        <geom class="lighter" pos="0 0 -0.2"/>
      </body>
      <body name="c" childclass="lighter" pos="0.3 0 0">
        <joint name="jc"/>
        <geom/>
      </body>
    </body>
  </worldbody>
  <actuator>
    <position name="p" joint="ja"/>
    <position name="p2" joint="jb" kp="5" kv="0.5"/>
    <velocity name="v" joint="jc" kv="2"/>
    <general name="g" joint="jc" gainprm="3" biastype="affine" biasprm="0 -1 -0.2"/>
  </actuator>
</mujoco>)");
  const ImportedRobot r = imported(file);
  REQUIRE(r.articulations.link_count() == 3);
  // MuJoCo 4.0.0: body_mass, body_ipos, the inertia; dof_damping, dof_armature.
  check_row(r.mass, 0, {0.80000000000000016});
  check_row(r.inertia, 0, {0.00533333333333334, 0.00533333333333334, 0.00533333333333334, 0, 0, 0});
  check_row(r.mass, 1, {4.0523598775598311});
  check_row(r.com, 1, {0, 0, -0.00258416720833585});
  check_row(r.inertia, 1, {0.02878636031089518, 0.02878636031089518, 0.0267190265442265, 0, 0, 0});
  check_row(r.mass, 2, {0.05235987755982989});
  check_row(r.damping, 0, {1});
  check_row(r.damping, 1, {3});
  check_row(r.damping, 2, {3});
  check_row(r.armature, 0, {0});
  check_row(r.armature, 1, {0.5});
  check_row(r.frictionloss, 0, {0});  // dof_frictionloss
  check_row(r.frictionloss, 1, {0.2});
  check_row(r.frictionloss, 2, {0.2});
  for (const ArticulationLink& l : r.articulations.links) check_vec(l.axis, {0, 1, 0});
  CHECK(r.articulations.links[2].shapes[0].kind == LinkShape::Kind::Sphere);
  // MuJoCo: actuator_gainprm[0] 20 5 2 3 and actuator_biasprm[1:3] (-20, 0), (-5, -0.5), (0, -2), (-1, -0.2).
  REQUIRE(r.articulations.actuators.size() == 4);
  CHECK(r.channels == 4);
  const double expected[4][3] = {{20, -20, 0}, {5, -5, -0.5}, {2, 0, -2}, {3, -1, -0.2}};
  const int links[4] = {0, 1, 2, 2};
  for (int k = 0; k < 4; ++k) {
    CAPTURE(k);
    const ArticulationActuator& a = r.articulations.actuators[k];
    CHECK(a.link == links[k]);
    CHECK(a.channel == k);
    CHECK(r.gain[size_t(k)] == doctest::Approx(expected[k][0]));
    CHECK(r.bias_q[size_t(k)] == doctest::Approx(expected[k][1]));
    CHECK(r.bias_qd[size_t(k)] == doctest::Approx(expected[k][2]));
  }
}

TEST_CASE("frames place the bodies and geoms they hold and pass on their childclass, as in MuJoCo") {
  test::TempDir dir("robot-import");
  const auto file = dir.write("frame.xml", R"(<mujoco model="frame">
  <default>
    <default class="red"><geom rgba="1 0 0 1" density="300"/></default>
  </default>
  <worldbody>
    <frame pos="0 0 1" euler="0 0 90">
      <body name="a" pos="1 0 0" euler="30 0 0">
        <joint axis="0 1 0"/>
        <frame pos="0 0.1 0" euler="90 0 0" childclass="red">
          <geom type="capsule" fromto="0 0 0 0 0 0.2" size="0.02"/>
          <body name="b" pos="0 0 0.2">
            <joint type="slide" axis="1 0 0"/>
            <geom type="box" size="0.05 0.05 0.05"/>
          </body>
        </frame>
        <geom size="0.05"/>
      </body>
    </frame>
  </worldbody>
</mujoco>)");
  const ImportedRobot r = imported(file);
  REQUIRE(r.articulations.link_count() == 2);
  // MuJoCo 4.0.0: body_pos, body_quat, body_mass and the inertia in the body's axes.
  check_row(r.pos, 0, {0, 1, 1});
  check_quat(r.articulations.links[0].quat, 0.6830127018922194, 0.18301270189221933, 0.1830127018922193,
             0.6830127018922193);
  check_row(r.pos, 1, {0, -0.1, 0});
  check_quat(r.articulations.links[1].quat, 0.7071067811865476, 0.7071067811865475, 0, 0);
  check_row(r.mass, 0, {0.60905009577594127});
  check_row(r.com, 0, {0, 0, 0});
  check_row(r.inertia, 0, {0.00089968511534484, 0.00054028691577417, 0.00089968511534484, 0, 0, 0});
  check_row(r.mass, 1, {0.3});  // the frame's childclass: density 300
  check_vec(r.articulations.links[1].shapes[0].rgba, {1, 0, 0, 1});
}

TEST_CASE("inertiafromgeom true takes the geoms over an inertial, and false leaves a body without one massless") {
  test::TempDir dir("robot-import");
  const std::string body = R"(
  <worldbody>
    <body name="a">
      <joint/>
      <inertial pos="0 0 0.5" mass="9" diaginertia="1 1 1"/>
      <geom type="box" size="0.1 0.1 0.1"/>
    </body>
    <body name="b"><joint/><geom type="box" size="0.1 0.1 0.1"/></body>
  </worldbody>
</mujoco>)";
  const ImportedRobot from_geoms =
      imported(dir.write("true.xml", "<mujoco>\n<compiler inertiafromgeom=\"true\"/>" + body));
  check_row(from_geoms.mass, 0, {8});
  check_row(from_geoms.com, 0, {0, 0, 0});
  const ImportedRobot given =
      imported(dir.write("false.xml", "<mujoco>\n<compiler inertiafromgeom=\"false\"/>" + body));
  check_row(given.mass, 0, {9});
  check_row(given.mass, 1, {0});
  const ImportedRobot automatic = imported(dir.write("auto.xml", "<mujoco>" + body));
  check_row(automatic.mass, 0, {9});
  check_row(automatic.mass, 1, {8});
}

TEST_CASE("mesh geoms keep their file relative to the MJCF's folder through meshdir, and read its hull") {
  test::TempDir dir("robot-import");
  dir.write("robot/meshes/parts/shell.stl", kTetrahedronStl);
  dir.write("robot/meshes/cover.obj", test::cube_obj(-0.5, 0.5));
  const auto file = dir.write("robot/arm.xml", R"(<mujoco>
  <compiler meshdir="meshes"/>
  <asset>
    <mesh name="shell" file="parts/shell.stl" scale="0.001 0.001 0.001"/>
    <mesh file="cover.obj"/>
    <material name="blue" rgba="0 0 1 1"/>
  </asset>
  <worldbody>
    <body name="a">
      <joint/>
      <inertial pos="0 0 0" mass="1" diaginertia="0.01 0.01 0.01"/>
      <geom type="mesh" mesh="shell" material="blue"/>
      <geom type="mesh" mesh="cover" pos="0 0 0.1"/>
    </body>
    <body name="b">
      <joint/>
      <geom type="mesh" mesh="cover" density="0"/>
      <geom size="0.05"/>
    </body>
  </worldbody>
</mujoco>)");
  const ImportedRobot r = imported(file);
  const auto& shapes = r.articulations.links[0].shapes;
  REQUIRE(shapes.size() == 2);
  CHECK(shapes[0].kind == LinkShape::Kind::Mesh);
  CHECK(shapes[0].mesh == "meshes/parts/shell.stl");
  check_vec(shapes[0].mesh_scale, {0.001, 0.001, 0.001});
  check_vec(shapes[0].rgba, {0, 0, 1, 1});
  CHECK(shapes[1].mesh == "meshes/cover.obj");
  // Each file's hull is read with the robot (load_link_mesh), once per asset.
  REQUIRE(shapes[0].hull);
  CHECK(shapes[0].hull->vertices.size() == 4);
  REQUIRE(shapes[1].hull);
  CHECK(shapes[1].hull->vertices.size() == 8);
  CHECK(r.articulations.links[1].shapes[0].hull == shapes[1].hull);
  // A mesh only for show (density 0) needs no inertial: the sphere alone gives the mass.
  check_row(r.mass, 1, {1000 * 4.0 / 3.0 * kPi * 0.05 * 0.05 * 0.05});
}

TEST_CASE("a mesh geom's mass, centre and inertia are its hull's, as MuJoCo's (inertia=\"convex\")") {
  test::TempDir dir("robot-import");
  dir.write("t.stl", kTetrahedronStl);
  // The tetrahedron (0, 0, 0), (1, 0, 0), (0, 1, 0), (0, 0, 1) scaled by 0.1: 1/6000 m^3,
  // its centroid at (0.025, 0.025, 0.025); at density 1000, 1/6 kg; the geom 0.3 m up.
  const auto file = dir.write("mesh.xml", R"(<mujoco>
  <asset><mesh name="m" file="t.stl" scale="0.1 0.1 0.1"/></asset>
  <worldbody>
    <body name="a">
      <joint/>
      <geom type="mesh" mesh="m" pos="0 0 0.3"/>
    </body>
    <body name="b">
      <joint/>
      <geom type="mesh" mesh="m" mass="2"/>
    </body>
  </worldbody>
</mujoco>)");
  const ImportedRobot r = imported(file);
  CHECK(r.mass[0] == doctest::Approx(1.0 / 6).epsilon(1e-12));
  check_row(r.com, 0, {0.025, 0.025, 0.325});
  CHECK(r.mass[1] == doctest::Approx(2).epsilon(1e-12));
  // Its inertia about the centroid, checked here by its symmetry (xx = yy = zz, and
  // xy = xz > 0: the tensor's -∫(x - cx)(y - cy) dm, the points' x and y anticorrelated)
  // and against MuJoCo's in python/tests/test_mujoco_reference.py.
  const double* i = &r.inertia[0];
  CHECK(i[0] > 0);
  CHECK(i[1] == doctest::Approx(i[0]).epsilon(1e-12));
  CHECK(i[2] == doctest::Approx(i[0]).epsilon(1e-12));
  CHECK(i[3] > 0);  // products of inertia -∫xy dV about the centroid: the stored entries
  CHECK(i[4] == doctest::Approx(i[3]).epsilon(1e-12));
}

TEST_CASE("each kind of bad MJCF is refused with the file, the line and the element") {
  test::TempDir dir("robot-import");
  SUBCASE("a missing file") {
    const auto file = dir.path / "absent.xml";
    CHECK(import_error(file) == file.string() + ": no such file");
  }
  SUBCASE("a file that is not XML, at its line") {
    const auto file = dir.write("bad.xml", "<mujoco>\n  <worldbody>\n    <body>\n  </worldbody>\n</mujoco>\n");
    const std::string message = import_error(file);
    // tinyxml2 names the line where the unclosed <body> starts.
    CHECK(message ==
          file.string() + ":3: not valid XML: an element's end tag does not match its start (XMLElement name=body)");
  }
  SUBCASE("a ball joint's cone limit past a half turn, or not from 0, at its line") {
    for (const char* range : {"0 200", "10 60"}) {
      const auto file = dir.write("ball.xml", std::string(R"(<mujoco>
  <worldbody>
    <body name="a">
      <joint name="shoulder" type="ball" range=")") +
                                                  range + R"("/>
      <geom size="0.1"/>
    </body>
  </worldbody>
</mujoco>)");
      const std::string message = import_error(file);
      CHECK(message == file.string() + ":4: <joint name=\"shoulder\">: a ball's range is a cone limit, \"0 angle\" " +
                           "with angle in (0, 180] degrees (0, pi] rad");
    }
  }
  SUBCASE("a free joint below another body") {
    const auto file = dir.write("free.xml",
                                "<mujoco>\n<worldbody>\n<body>\n<geom size=\"0.1\"/>\n<body>\n<freejoint/>\n<geom "
                                "size=\"0.1\"/>\n</body>\n</body>\n</worldbody>\n</mujoco>");
    CHECK(has(import_error(file), file.string() + ":6: <freejoint>: a free joint is only for a body of the worldbody"));
  }
  SUBCASE("a motor on a ball joint") {
    const auto file = dir.write("ball_motor.xml", R"(<mujoco>
  <worldbody>
    <body name="a">
      <joint name="shoulder" type="ball"/>
      <geom size="0.1"/>
    </body>
  </worldbody>
  <actuator><motor joint="shoulder"/></actuator>
</mujoco>)");
    CHECK(has(import_error(file),
              file.string() + ":8: <motor>: an actuator on a ball or free joint is not supported yet"));
  }
  SUBCASE("a mesh file that cannot be read, at its asset's line") {
    const auto file = dir.write("gone.xml", R"(<mujoco>
  <asset><mesh name="m" file="gone.stl"/></asset>
</mujoco>)");
    CHECK(has(import_error(file),
              file.string() + ":2: <mesh name=\"m\">: " + (dir.path / "gone.stl").string() + ": no such file"));
  }
  SUBCASE("an actuator on an unknown joint") {
    const auto file = dir.write("actuator.xml", R"(<mujoco>
  <worldbody>
    <body name="a"><joint name="hinge"/><geom size="0.1"/></body>
  </worldbody>
  <actuator>
    <motor name="m" joint="elbow"/>
  </actuator>
</mujoco>)");
    CHECK(import_error(file) == file.string() + ":6: <motor name=\"m\">: joint \"elbow\" is not a joint of the model");
  }
  SUBCASE("an actuator on a tendon") {
    const auto file =
        dir.write("tendon.xml", "<mujoco>\n<worldbody/>\n<actuator>\n<motor tendon=\"t\"/>\n</actuator>\n</mujoco>");
    CHECK(has(import_error(file), file.string() + ":4: <motor>: an actuator on a tendon is not supported yet"));
  }
  SUBCASE("a wrong count of numbers") {
    const auto file = dir.write("count.xml", R"(<mujoco>
  <worldbody>
    <body name="a" pos="0 1">
      <joint/>
    </body>
  </worldbody>
</mujoco>)");
    CHECK(import_error(file) == file.string() + ":3: <body name=\"a\">: pos needs 3 numbers, got 2");
  }
  SUBCASE("a word where a number belongs, in a default class, at the default's line") {
    const auto file = dir.write("word.xml", R"(<mujoco>
  <default>
    <joint damping="lots"/>
  </default>
  <worldbody>
    <body name="a"><joint name="j"/><geom size="0.1"/></body>
  </worldbody>
</mujoco>)");
    CHECK(import_error(file) == file.string() +
                                    ":3: <joint name=\"j\"> (its default class): damping \"lots\" is not a list of "
                                    "numbers (expected 1 number)");
  }
  SUBCASE("a geom too few sizes for its type") {
    const auto file = dir.write("size.xml",
                                "<mujoco>\n<worldbody>\n<body>\n<joint/>\n<geom type=\"box\" "
                                "size=\"0.1 0.2\"/>\n</body>\n</worldbody>\n</mujoco>");
    CHECK(import_error(file) == file.string() + ":5: <geom>: size of a box needs 3 numbers, got 2");
  }
  SUBCASE("fullinertia with an orientation") {
    const auto file = dir.write("full.xml", R"(<mujoco>
  <worldbody>
    <body name="a">
      <joint/>
      <inertial pos="0 0 0" mass="1" quat="1 0 0 0" fullinertia="1 1 1 0 0 0"/>
    </body>
  </worldbody>
</mujoco>)");
    CHECK(has(import_error(file), file.string() + ":5: <inertial>: fullinertia is in the body's axes already"));
  }
  SUBCASE("a geom without a size") {
    const auto file = dir.write("nosize.xml",
                                "<mujoco>\n<worldbody>\n<body>\n<joint/>\n<geom type=\"capsule\"/>\n"
                                "</body>\n</worldbody>\n</mujoco>");
    CHECK(import_error(file) == file.string() + ":5: <geom>: size of a capsule needs 2 numbers, got 0");
  }
  SUBCASE("a joint name used twice") {
    const auto file = dir.write("twice.xml",
                                "<mujoco>\n<worldbody>\n<body>\n<joint name=\"j\"/>\n<body>\n"
                                "<joint name=\"j\"/>\n</body>\n</body>\n</worldbody>\n</mujoco>");
    CHECK(has(import_error(file), file.string() + ":6: <joint name=\"j\">: joint name \"j\" is used twice"));
  }
  SUBCASE("an unknown class") {
    const auto file = dir.write("class.xml",
                                "<mujoco>\n<worldbody>\n<body>\n<joint class=\"arm\"/>\n</body>\n"
                                "</worldbody>\n</mujoco>");
    CHECK(import_error(file) == file.string() + ":4: <joint>: class \"arm\" is not defined in <default>");
  }
  SUBCASE("a URDF given as MJCF") {
    const auto file = dir.write("robot.xml", "<robot name=\"r\">\n</robot>");
    CHECK(has(import_error(file), file.string() + ":1: <robot name=\"r\">: expected <mujoco> as the root element"));
  }
  SUBCASE("an extension neither MJCF nor URDF") {
    const auto file = dir.write("robot.sdf", "<sdf/>");
    CHECK(import_error(file) ==
          file.string() + ": not a robot file nudge reads: expected .urdf (URDF), or .xml or .mjcf (MJCF)");
  }
}

TEST_CASE("what MJCF has beyond the imported subset is listed, not refused") {
  test::TempDir dir("robot-import");
  const auto file = dir.write("extra.mjcf", R"(<mujoco model="extra">
  <option timestep="0.005" integrator="implicitfast" gravity="0 0 -1"/>
  <visual><global offwidth="800"/></visual>
  <asset><texture name="grid" type="2d" builtin="checker" width="8" height="8"/></asset>
  <worldbody>
    <geom type="plane" size="1 1 0.1"/>
    <camera name="side" pos="0 -2 1"/>
    <body name="a">
      <joint name="j" range="-30 30" limited="false" stiffness="2" springref="10" frictionloss="0.1"/>
      <geom size="0.1"/>
      <site name="s"/>
    </body>
  </worldbody>
  <contact><exclude body1="world" body2="a"/></contact>
  <equality/>
  <tendon/>
  <keyframe><key qpos="0.5"/></keyframe>
</mujoco>)");
  const ImportedRobot r = imported(file);
  CHECK(r.timestep == 0.005);
  check_vec(r.gravity, {0, 0, -1});
  check_row(r.q, 0, {0});  // the keyframe is not the start
  for (const char* line : {"option integrator=\"implicitfast\" (nudge steps with MuJoCo's Euler or RK4)",
                           "<visual> section", "<texture> elements (1)", "<camera> elements (1)", "<site> elements (1)",
                           "<contact> section", "<equality> section", "<tendon> section", "<keyframe> section"}) {
    CAPTURE(line);
    CHECK(contains(r.ignored, line));
  }
  CHECK_FALSE(r.articulations.links[0].limited);  // limited="false"
  REQUIRE(r.colliders.size() == 1);               // the plane is the floor
  // A hinge's spring is imported: its stiffness, and its springref in radians.
  CHECK_FALSE(contains(r.ignored, "joint stiffness of j"));
  CHECK_FALSE(contains(r.ignored, "joint springref of j"));
  check_row(r.stiffness, 0, {2});
  check_row(r.spring_ref, 0, {10 * std::numbers::pi / 180});
  // Its dry friction too (link_frictionloss), in N m: MuJoCo's frictionloss has no angle.
  CHECK_FALSE(contains(r.ignored, "joint frictionloss of j"));
  check_row(r.frictionloss, 0, {0.1});
}

TEST_CASE("a worldbody plane becomes a plane collider, and geoms without contype and conaffinity do not collide") {
  test::TempDir dir("robot-import");
  const auto file = dir.write("floor.xml", R"(<mujoco model="floor">
  <worldbody>
    <geom name="floor" type="plane" size="5 5 0.1" pos="0 0 -0.25"/>
    <geom name="tilted" type="plane" size="1 1 0.1" pos="0 0 1" euler="90 0 0"/>
    <geom name="ghost" type="plane" size="1 1 0.1" contype="0" conaffinity="0"/>
    <geom name="post" type="box" size="0.1 0.1 0.1"/>
    <body name="a" pos="0 0 1">
      <joint name="j" type="slide" axis="0 0 1"/>
      <geom name="foot" size="0.1"/>
      <geom name="shell" size="0.2" contype="0" conaffinity="0"/>
      <geom name="half" size="0.2" contype="0"/>
    </body>
  </worldbody>
</mujoco>)");
  const ImportedRobot r = imported(file);
  REQUIRE(r.colliders.size() == 2);
  check_vec(r.colliders[0].normal, {0, 0, 1});
  CHECK(r.colliders[0].offset == doctest::Approx(-0.25));
  // euler 90 about x turns the plane's z to -y; it passes through (0, 0, 1).
  CHECK(r.colliders[1].normal[1] == doctest::Approx(-1.0));
  CHECK(r.colliders[1].offset == doctest::Approx(0.0).epsilon(1e-12));
  CHECK(contains(r.ignored, "worldbody geom post"));
  const std::vector<LinkShape>& shapes = r.articulations.links.at(0).shapes;
  REQUIRE(shapes.size() == 3);
  CHECK(shapes[0].collides);
  CHECK_FALSE(shapes[1].collides);
  CHECK(shapes[2].collides);  // conaffinity 1 still meets what has contype 1
  // In the scene, y up: the floor's normal is +y, and it keeps its offset.
  const Scene scene = robot_scene(r, file.string(), 10);
  REQUIRE(scene.colliders.size() == 2);
  CHECK(scene.colliders[0].normal[1] == doctest::Approx(1.0));
  CHECK(scene.colliders[0].offset == doctest::Approx(-0.25));
  CHECK(check_scene(scene).ok());
}

TEST_CASE("the two-link URDF imports its revolute, prismatic and fixed joints with rpy origins") {
  const ImportedRobot r = imported(data_file("two_link.urdf"));
  CHECK(r.name == "two_link");
  CHECK(r.timestep == 0.002);
  check_vec(r.gravity, {0, 0, -9.81});
  REQUIRE(r.articulations.link_count() == 4);
  const auto& links = r.articulations.links;
  // Parents first, though the file lists the fixed joint before the prismatic one.
  CHECK(links[0].name == "base");
  CHECK(links[1].name == "upper");
  CHECK(links[2].name == "slider");
  CHECK(links[3].name == "tool");
  CHECK(links[0].joint == ArticulationJoint::Weld);
  CHECK(links[0].parent == -1);
  CHECK(links[1].joint == ArticulationJoint::Hinge);
  CHECK(links[1].joint_name == "shoulder");
  CHECK(links[1].parent == 0);
  CHECK(links[2].joint == ArticulationJoint::Slide);
  CHECK(links[2].parent == 1);
  CHECK(links[3].joint == ArticulationJoint::Weld);
  CHECK(links[3].joint_name == "tool_mount");
  CHECK(links[3].parent == 2);
  CHECK(articulation_coordinates(r.articulations) == std::vector<int>{-1, 0, 1, -1});
  // MuJoCo 4.0.0 reading the same URDF: body_pos and body_quat of upper (rpy 0.1 0.2 0.3),
  // jnt_axis (normalised), dof_damping.
  check_row(r.pos, 1, {0, 0, 0.05});
  check_quat(links[1].quat, 0.9833474432563558, 0.0342707985504821, 0.10602051106179562, 0.1435721750273919);
  check_vec(links[1].axis, {0, 1, 0});
  check_vec(links[1].anchor, {0, 0, 0});
  check_row(r.damping, 1, {0.3});
  check_row(r.pos, 2, {0, 0, 0.5});
  check_vec(links[2].axis, {1, 0, 0});
  check_row(r.pos, 3, {0.2, 0, 0});
  check_quat(links[3].quat, std::sqrt(0.5), 0, 0, std::sqrt(0.5));
  // The slider's inertial turned by pitch pi/2: its x and z moments swap. (MuJoCo fuses the
  // fixed tool into the slider: mass 0.6, ipos 0.1166..., Ixx 0.0041 = 0.004 + the tool's
  // 0.0001, which this agrees with.)
  check_row(r.mass, 2, {0.5});
  check_row(r.com, 2, {0.1, 0, 0});
  check_row(r.inertia, 2, {0.004, 0.004, 0.001, 0, 0, 0});
  check_row(r.mass, 1, {2});
  check_row(r.com, 1, {0, 0, 0.25});
  check_row(r.inertia, 1, {0.05, 0.05, 0.002, 0, 0, 0});
  check_row(r.mass, 0, {0});
  // Shapes: the base's box (whole sizes halved) in the named material's colour, the upper
  // link's cylinder with its inline colour, the slider's collision sphere (it has no visual).
  REQUIRE(links[0].shapes.size() == 1);
  CHECK(links[0].shapes[0].kind == LinkShape::Kind::Box);
  check_vec(links[0].shapes[0].size, {0.1, 0.1, 0.05});
  check_vec(links[0].shapes[0].rgba, {0.5, 0.5, 0.5, 1});
  CHECK(links[1].shapes[0].kind == LinkShape::Kind::Cylinder);
  check_vec(links[1].shapes[0].size, {0.03, 0.25});
  check_vec(links[1].shapes[0].pos, {0, 0, 0.25});
  check_vec(links[1].shapes[0].rgba, {1, 0.5, 0, 1});
  CHECK(links[2].shapes[0].kind == LinkShape::Kind::Sphere);
  CHECK(links[3].shapes.empty());
  CHECK(r.articulations.actuators.empty());
  CHECK(r.channels == 0);
  for (const ArticulationLink& l : links) CHECK(l.limited == (l.joint_name == "shoulder" || l.joint_name == "extend"));
  CHECK(contains(r.ignored, "<transmission> elements"));
}

TEST_CASE("URDF meshes from package:// resolve beside the URDF's folder, best effort") {
  test::TempDir dir("robot-import");
  dir.write("arm_description/meshes/upper.stl", kTetrahedronStl);
  const auto file = dir.write("arm_description/urdf/arm.urdf", R"(<robot name="arm">
  <link name="base"/>
  <link name="upper">
    <visual><geometry><mesh filename="package://arm_description/meshes/upper.stl" scale="2 2 2"/></geometry></visual>
  </link>
  <joint name="j" type="continuous">
    <parent link="base"/><child link="upper"/>
  </joint>
</robot>)");
  const ImportedRobot r = imported(file);
  const auto& shapes = r.articulations.links[1].shapes;
  REQUIRE(shapes.size() == 1);
  CHECK(shapes[0].mesh == "../meshes/upper.stl");
  check_vec(shapes[0].mesh_scale, {2, 2, 2});
  REQUIRE(shapes[0].hull);
  CHECK(shapes[0].hull->vertices.size() == 4);
  check_vec(r.articulations.links[1].axis, {1, 0, 0});  // URDF's default axis
  // A mesh found nowhere is refused at its element, named by the first guess.
  const auto lost = dir.write("arm_description/urdf/lost.urdf", R"(<robot name="arm">
  <link name="base"/>
  <link name="upper">
    <visual><geometry><mesh filename="package://other/meshes/lower.stl"/></geometry></visual>
  </link>
  <joint name="j" type="continuous">
    <parent link="base"/><child link="upper"/>
  </joint>
</robot>)");
  CHECK(has(import_error(lost), lost.string() + ":4: <link name=\"upper\"> <mesh>: " +
                                    (dir.path / "arm_description/urdf/other/meshes/lower.stl").string() +
                                    ": no such file"));
}

// ROS draws a URDF link by its visuals and simulates it by its collision geoms. A free
// link drawn as a big tetrahedron mesh and felt as a 10 cm cube rests on a floor on the
// cube's four lower corners; the scene file keeps which shape is which.
TEST_CASE("a URDF link is drawn by its visuals and collides by its collision geoms") {
  test::TempDir dir("robot-import");
  dir.write("shell.stl", kTetrahedronStl);
  const auto file = dir.write("block.urdf", R"(<robot name="block">
  <link name="world"/>
  <joint name="free" type="floating">
    <origin xyz="0 0 0.06"/>
    <parent link="world"/><child link="block"/>
  </joint>
  <link name="block">
    <inertial><mass value="1"/><inertia ixx="0.002" ixy="0" ixz="0" iyy="0.002" iyz="0" izz="0.002"/></inertial>
    <visual><origin xyz="-0.15 -0.15 -0.15"/><geometry><mesh filename="shell.stl" scale="0.3 0.3 0.3"/></geometry></visual>
    <collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision>
  </link>
</robot>)");
  const ImportedRobot r = imported(file);
  REQUIRE(r.articulations.link_count() == 1);
  const std::vector<LinkShape>& shapes = r.articulations.links[0].shapes;
  REQUIRE(shapes.size() == 2);
  CHECK(shapes[0].kind == LinkShape::Kind::Mesh);
  CHECK(shapes[0].drawn);
  CHECK_FALSE(shapes[0].collides);
  CHECK(shapes[1].kind == LinkShape::Kind::Box);
  CHECK_FALSE(shapes[1].drawn);
  CHECK(shapes[1].collides);
  CHECK(drawn_shape_count(r.articulations.links[0]) == 1);

  Scene scene = robot_scene(r, file.string(), 1500);
  scene.colliders = {ColliderShape{}};  // the plane y = 0
  scene.params[ParamId::ContactStiffness].value = {2e4};
  scene.params[ParamId::ContactDamping].value = {50};
  scene.params[ParamId::ContactFriction].value = {0.5};
  scene.contact.damp_approach_only = false;
  REQUIRE(check_scene(scene).ok());
  const auto saved = dir.path / "block.json";
  REQUIRE(save_scene(scene, saved).ok());
  Result<Scene> again = load_scene(saved);
  REQUIRE(again.ok());
  const std::vector<LinkShape>& kept = again->articulations.links.at(0).shapes;
  REQUIRE(kept.size() == 2);
  CHECK((kept[0].drawn && !kept[0].collides && !kept[1].drawn && kept[1].collides));

  Result<std::unique_ptr<LiveSimulation>> live = LiveSimulation::create(*again, nullptr);
  REQUIRE(live.ok());
  for (int t = 0; t < 1500; ++t) REQUIRE((*live)->step().ok());
  int corners = 0;
  for (const Contact& c : (*live)->contacts()) {
    CHECK(c.kind == Contact::Kind::LinkCollider);
    CHECK(std::fabs(c.point[0]) == doctest::Approx(0.05).epsilon(1e-3));  // the cube's, not the mesh's
    CHECK(std::fabs(c.point[2]) == doctest::Approx(0.05).epsilon(1e-3));
    ++corners;
  }
  CHECK(corners == 4);

  // A shape neither drawn nor felt is refused where it is.
  again->articulations.links[0].shapes[1].collides = false;
  const Status refused = check_scene(*again);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().message.find("shapes[1]: found a shape neither drawn nor colliding") != std::string::npos);
}

// MuJoCo's viewer hides geom groups 3 and up, where robots keep their collision geoms.
TEST_CASE("an MJCF geom in group 3 or up collides and is not drawn") {
  test::TempDir dir("robot-import");
  const auto file = dir.write("groups.xml", R"(<mujoco>
  <worldbody>
    <body name="b">
      <joint type="hinge"/>
      <geom type="sphere" size="0.1" contype="0" conaffinity="0" group="2"/>
      <geom type="box" size="0.1 0.1 0.1" group="3"/>
      <geom type="capsule" size="0.05 0.1"/>
      <geom type="sphere" size="0.05" contype="0" conaffinity="0" group="4"/>
    </body>
  </worldbody>
</mujoco>)");
  const ImportedRobot r = imported(file);
  const std::vector<LinkShape>& shapes = r.articulations.links.at(0).shapes;
  REQUIRE(shapes.size() == 4);
  CHECK((shapes[0].drawn && !shapes[0].collides));
  CHECK((!shapes[1].drawn && shapes[1].collides));
  CHECK((shapes[2].drawn && shapes[2].collides));
  CHECK((shapes[3].drawn && !shapes[3].collides));  // neither seen nor felt in MuJoCo: kept drawn
}

// Two imports of one robot (a URDF and an MJCF file) thrown the same way: start sets the
// scene's initial velocities. Checks that it moves (some joint coordinate by more than
// 0.5) and that both move alike, coordinate by coordinate, to 1e-12 over 300 steps.
void require_same_motion(const ImportedRobot& a, const std::string& a_file, const ImportedRobot& b,
                         const std::string& b_file, const std::function<void(Scene&)>& start) {
  const auto motion = [&](const ImportedRobot& robot, const std::string& file) {
    Scene scene = robot_scene(robot, file, 300);
    start(scene);
    REQUIRE(check_scene(scene).ok());
    return test::simulate_on_cpu(scene);
  };
  const Trajectory ta = motion(a, a_file), tb = motion(b, b_file);
  REQUIRE(ta.joint_q.size() == tb.joint_q.size());
  const size_t coordinates = size_t(ta.positions);
  double most = 0, moved = 0;
  for (size_t i = 0; i < ta.joint_q.size(); ++i) {
    most = std::max(most, std::fabs(ta.joint_q[i] - tb.joint_q[i]));
    moved = std::max(moved, std::fabs(ta.joint_q[i] - ta.joint_q[i % coordinates]));
  }
  CHECK(moved > 0.5);
  CHECK(most < 1e-12);
}

TEST_CASE("a URDF floating joint from the world frees its child, which moves as MJCF's freejoint body does") {
  test::TempDir dir("robot-import");
  // The same robot twice: a base on a free joint, 1 m up and turned about z, with an arm
  // on a hinge.
  const auto urdf = dir.write("floating.urdf", R"(<robot name="r">
  <link name="world"/>
  <joint name="base_joint" type="floating">
    <origin xyz="0.1 0.2 1.0" rpy="0 0 0.5"/>
    <parent link="world"/><child link="base"/>
  </joint>
  <link name="base">
    <inertial><origin xyz="0 0 0.05"/><mass value="2"/><inertia ixx="0.02" ixy="0" ixz="0" iyy="0.03" iyz="0" izz="0.04"/></inertial>
  </link>
  <joint name="hinge" type="continuous">
    <origin xyz="0.2 0 0"/><axis xyz="0 1 0"/>
    <parent link="base"/><child link="arm"/>
  </joint>
  <link name="arm">
    <inertial><origin xyz="0.15 0 0"/><mass value="0.5"/><inertia ixx="0.001" ixy="0" ixz="0" iyy="0.004" iyz="0" izz="0.004"/></inertial>
  </link>
</robot>)");
  const auto mjcf = dir.write("floating.xml", R"(<mujoco>
  <compiler angle="radian"/>
  <worldbody>
    <body name="base" pos="0.1 0.2 1.0" euler="0 0 0.5">
      <freejoint/>
      <inertial pos="0 0 0.05" mass="2" diaginertia="0.02 0.03 0.04"/>
      <body name="arm" pos="0.2 0 0">
        <joint type="hinge" axis="0 1 0"/>
        <inertial pos="0.15 0 0" mass="0.5" diaginertia="0.001 0.004 0.004"/>
      </body>
    </body>
  </worldbody>
</mujoco>)");
  const ImportedRobot from_urdf = imported(urdf), from_mjcf = imported(mjcf);
  REQUIRE(from_urdf.articulations.link_count() == 2);  // the world's frame is no link
  const ArticulationLink& base = from_urdf.articulations.links[0];
  CHECK(base.name == "base");
  CHECK(base.joint == ArticulationJoint::Free);
  CHECK(base.joint_name == "base_joint");
  CHECK(base.parent == -1);
  CHECK(contains(from_urdf.ignored,
                 "link \"world\": the world's frame, which floating joint \"base_joint\" hangs the "
                 "robot from"));
  // Both thrown the same way: the base spinning and moving, the arm swinging.
  require_same_motion(from_urdf, urdf.string(), from_mjcf, mjcf.string(), [](Scene& scene) {
    std::vector<double>& w = scene.params[ParamId::LinkAngularVelocity].value;
    w[0] = 1.0, w[1] = 2.0, w[2] = 0.5;
    std::vector<double>& v = scene.params[ParamId::LinkLinearVelocity].value;
    v[0] = 0.3, v[1] = 2.0, v[2] = -0.4;
    scene.params[ParamId::LinkJointVelocity].value[1] = 3.0;
  });
}

TEST_CASE("a URDF planar joint is two slides across its axis and a turn about it, as MJCF's body of three joints") {
  test::TempDir dir("robot-import");
  // A block moving in the x-z plane (the axis y), from a base 1 m up; gravity pulls it
  // down the plane.
  const auto urdf = dir.write("planar.urdf", R"(<robot name="r">
  <link name="base"/>
  <joint name="slider" type="planar">
    <origin xyz="0 0 1"/><axis xyz="0 1 0"/>
    <dynamics damping="0.1" friction="0.2"/>
    <parent link="base"/><child link="block"/>
  </joint>
  <link name="block">
    <inertial><origin xyz="0.1 0 0.05"/><mass value="1.5"/><inertia ixx="0.01" ixy="0" ixz="0" iyy="0.02" iyz="0" izz="0.03"/></inertial>
  </link>
</robot>)");
  // URDF's planar joint slides along (0, 0, -1) and (-1, 0, 0) here (axis x (1, 0, 0), then
  // axis x that).
  const auto mjcf = dir.write("planar.xml", R"(<mujoco>
  <worldbody>
    <body name="base">
      <body name="block" pos="0 0 1">
        <joint type="slide" axis="0 0 -1" damping="0.1" frictionloss="0.2"/>
        <joint type="slide" axis="-1 0 0" damping="0.1" frictionloss="0.2"/>
        <joint type="hinge" axis="0 1 0" damping="0.1" frictionloss="0.2"/>
        <inertial pos="0.1 0 0.05" mass="1.5" diaginertia="0.01 0.02 0.03"/>
      </body>
    </body>
  </worldbody>
</mujoco>)");
  const ImportedRobot from_urdf = imported(urdf), from_mjcf = imported(mjcf);
  const std::vector<ArticulationLink>& links = from_urdf.articulations.links;
  REQUIRE(links.size() == 4);
  CHECK(links[1].joint == ArticulationJoint::Slide);
  CHECK(links[2].joint == ArticulationJoint::Slide);
  CHECK(links[3].joint == ArticulationJoint::Hinge);
  CHECK(links[3].name == "block");
  CHECK(links[3].joint_name == "slider");
  CHECK(from_urdf.mass[1] == 0);
  CHECK(from_urdf.mass[2] == 0);
  check_vec(links[3].axis, {0, 1, 0});
  CHECK(from_urdf.frictionloss == std::vector<double>{0, 0.2, 0.2, 0.2});  // URDF's friction on all three
  require_same_motion(from_urdf, urdf.string(), from_mjcf, mjcf.string(), [](Scene& scene) {
    std::vector<double>& qd = scene.params[ParamId::LinkJointVelocity].value;
    qd[1] = 0.5, qd[2] = -1.0, qd[3] = 4.0;
  });
}

TEST_CASE("each kind of bad URDF is refused with the file, the line and the element") {
  test::TempDir dir("robot-import");
  SUBCASE("an unknown joint type") {
    const auto file = dir.write("spherical.urdf", R"(<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="spherical">
    <parent link="a"/><child link="b"/>
  </joint>
</robot>)");
    CHECK(
        has(import_error(file), file.string() + ":4: <joint name=\"j\">: type \"spherical\" is not a URDF joint type"));
  }
  SUBCASE("a floating joint below the base") {
    const auto file = dir.write("floating_below.urdf", R"(<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <link name="c"/>
  <joint name="j" type="fixed">
    <parent link="a"/><child link="b"/>
  </joint>
  <joint name="k" type="floating">
    <parent link="b"/><child link="c"/>
  </joint>
</robot>)");
    CHECK(has(import_error(file),
              file.string() + ":8: <joint name=\"k\">: hangs link \"c\" from \"b\", which is not the root link"));
  }
  SUBCASE("a floating joint from a root with mass") {
    const auto file = dir.write("floating_mass.urdf", R"(<robot name="r">
  <link name="world">
    <inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" izz="1"/></inertial>
  </link>
  <link name="b"/>
  <joint name="j" type="floating">
    <parent link="world"/><child link="b"/>
  </joint>
</robot>)");
    CHECK(has(import_error(file), file.string() + ":3: <link name=\"world\"> <inertial>: is on the root link "
                                                  "\"world\", which floating joint \"j\" makes the world's frame"));
  }
  SUBCASE("a joint to an undefined link") {
    const auto file = dir.write("undefined.urdf", R"(<robot name="r">
  <link name="a"/>
  <joint name="j" type="fixed">
    <parent link="a"/><child link="c"/>
  </joint>
</robot>)");
    CHECK(import_error(file) == file.string() + ":3: <joint name=\"j\">: link \"c\" is not defined");
  }
  SUBCASE("two roots") {
    const auto file =
        dir.write("roots.urdf", "<robot name=\"r\">\n  <link name=\"a\"/>\n  <link name=\"b\"/>\n</robot>");
    CHECK(has(import_error(file), file.string() + ":1: <robot name=\"r\">: has 2 root links (\"a\", \"b\")"));
  }
  SUBCASE("a bad count of numbers, inside its named ancestor") {
    const auto file = dir.write("count.urdf", R"(<robot name="r">
  <link name="a"/>
  <link name="b"/>
  <joint name="j" type="revolute">
    <origin xyz="0 0"/>
    <parent link="a"/><child link="b"/>
  </joint>
</robot>)");
    CHECK(import_error(file) == file.string() + ":5: <joint name=\"j\"> <origin>: xyz needs 3 numbers, got 2");
  }
  SUBCASE("a missing file") {
    const auto file = dir.path / "absent.urdf";
    CHECK(import_error(file) == file.string() + ": no such file");
  }
}

}  // namespace
}  // namespace nudge
