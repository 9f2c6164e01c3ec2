// The articulations' edits (scene_edits_links.cpp): a robot built from a welded base and
// links added at each other's tips, links added to an earlier tree (every later index
// follows), deletion of a link with everything below it, and the refusals.
#include <doctest/doctest.h>

#include <cmath>
#include <numbers>

#include "nudge/link_poses.h"
#include "nudge/simulator.h"
#include "scene_edits_test_scenes.h"
#include "studio_test_scenes.h"

using namespace nudge;
using namespace nudge::scene_edits_test;
namespace edits = nudge::studio::edits;

namespace {

// Row k of a link parameter with `cols` columns.
std::vector<double> row(const Scene& scene, ParamId id, int k, int cols) {
  const std::vector<double>& v = scene.params[id].value;
  return {v.begin() + k * cols, v.begin() + (k + 1) * cols};
}

// The chain scene with a base welded at (0, 1, 0) and two hinges about z hanging from it.
Scene arm(const fs::path& dir) {
  Scene scene = ok(edits::add_link_base(chain_scene(dir), {0, 1, 0}));
  scene = ok(edits::add_link(scene, 0, ArticulationJoint::Hinge, {0, 0, 2}));
  return ok(edits::add_link(scene, 1, ArticulationJoint::Hinge, {0, 0, 1}));
}

}  // namespace

TEST_CASE("scene edits: a robot built from a welded base and hinged links at each other's tips") {
  TempDir temp;
  const Scene scene = arm(temp.path);
  const Articulations& a = scene.articulations;
  REQUIRE(a.link_count() == 3);
  CHECK(a.links[0].name == "base");
  CHECK(a.links[0].joint == ArticulationJoint::Weld);
  CHECK(a.links[1].name == "link1");
  CHECK(a.links[2].name == "link2");
  CHECK(a.links[1].parent == 0);
  CHECK(a.links[2].parent == 1);
  CHECK(a.links[1].joint == ArticulationJoint::Hinge);
  CHECK(a.links[1].axis[2] == 1);  // normalised
  // The base: a 0.2 x 0.1 x 0.2 m box of density 1000 at (0, 1, 0).
  CHECK(row(scene, ParamId::LinkPosition, 0, 3) == std::vector<double>{0, 1, 0});
  CHECK(values(scene, ParamId::LinkMass)[0] == doctest::Approx(4.0));
  // link1 hangs from the box's bottom face, its capsule (0.3 m, radius 0.03) down its -y.
  CHECK(row(scene, ParamId::LinkPosition, 1, 3) == std::vector<double>{0, -0.05, 0});
  const double pi = std::numbers::pi, r = 0.03;
  CHECK(values(scene, ParamId::LinkMass)[1] == doctest::Approx(1000 * (pi * r * r * 0.3 + 4.0 / 3.0 * pi * r * r * r)));
  CHECK(row(scene, ParamId::LinkCom, 1, 3) == std::vector<double>{0, -0.15, 0});
  CHECK(a.links[1].length_axis[1] == -1);
  REQUIRE(a.links[1].shapes.size() == 1);
  CHECK(a.links[1].shapes[0].kind == LinkShape::Kind::Capsule);
  // link2 at link1's tip: the capsule's far end, its cap's radius past its end centre.
  const std::vector<double> tip = row(scene, ParamId::LinkPosition, 2, 3);
  CHECK(tip[1] == doctest::Approx(-0.33));
  // The inertia is the capsule's about its centre: least about its own axis (y).
  const std::vector<double> inertia = row(scene, ParamId::LinkInertia, 2, 6);
  CHECK(inertia[1] < inertia[0]);
  CHECK(inertia[0] == doctest::Approx(inertia[2]));
  // Forward kinematics: link2's origin 0.05 + 0.33 below the base.
  const std::vector<LinkPose> poses = link_poses(scene);
  CHECK(poses[2].pos[1] == doctest::Approx(1 - 0.05 - 0.33));
  // It keeps through a save (and the scene check passes: each joint moves some mass).
  check_stable(scene, temp.path);

  // A link with no shape and no length axis extends onward from its parent: link2 turned
  // a quarter turn about z, its placement below link1 is along its own -x, and a link
  // added onto it goes 0.3 m further down in the world.
  Scene bare = scene;
  bare.articulations.links[2].shapes.clear();
  std::fill(std::begin(bare.articulations.links[2].length_axis), std::end(bare.articulations.links[2].length_axis),
            0.0);
  bare.articulations.links[2].quat[2] = bare.articulations.links[2].quat[3] = std::sqrt(0.5);
  const Scene onward = ok(edits::add_link(bare, 2, ArticulationJoint::Hinge, {0, 0, 1}));
  const std::vector<double> place = row(onward, ParamId::LinkPosition, 3, 3);
  CHECK(place[0] == doctest::Approx(-0.3));
  CHECK(place[1] == doctest::Approx(0).scale(1));
  const std::vector<LinkPose> turned = link_poses(onward);
  CHECK(turned[3].pos[0] == doctest::Approx(turned[2].pos[0]).scale(1));
  CHECK(turned[3].pos[1] == doctest::Approx(turned[2].pos[1] - 0.3));
}

TEST_CASE("scene edits: a link added to an earlier tree goes at its end, and every later index follows") {
  TempDir temp;
  Scene scene = arm(temp.path);                                                // tree A: links 0, 1, 2
  scene = ok(edits::add_link_base(scene, {1, 1, 0}));                          // tree B: its base, link 3
  scene = ok(edits::add_link(scene, 3, ArticulationJoint::Slide, {1, 0, 0}));  // link 4
  CHECK(scene.articulations.links[3].name == "base1");
  ArticulationActuator push;
  push.name = "push";
  push.link = 4;
  scene.articulations.actuators = {push};
  shape_parameters(scene);
  scene.params[ParamId::ActuatorGain].value = {3.0};
  Objective joints = objective(ObjectiveType::Joints);
  joints.links = {4, 2};
  joints.target = {0.25, -0.5};
  scene.objectives = {joints};
  scene.params[ParamId::LinkMass].optimize = true;
  scene.params[ParamId::LinkMass].optimize_rows = {2, 4};
  REQUIRE(check_scene(scene).ok());
  const std::vector<double> slide_place = row(scene, ParamId::LinkPosition, 4, 3);

  const Scene more = ok(edits::add_link(scene, 2, ArticulationJoint::Ball, {0, 0, 1}));
  const Articulations& a = more.articulations;
  REQUIRE(a.link_count() == 6);
  CHECK(a.links[3].name == "link4");  // the end of tree A (link3 is the slide)
  CHECK(a.links[3].parent == 2);
  CHECK(a.links[4].name == "base1");
  CHECK(a.links[5].parent == 4);
  CHECK(a.actuators[0].link == 5);
  CHECK(more.objectives[0].links == std::vector<int>{5, 2});
  CHECK(row(more, ParamId::LinkPosition, 5, 3) == slide_place);
  CHECK(more.params[ParamId::LinkMass].optimize_rows == std::vector<int>{2, 5});
  CHECK(values(more, ParamId::ActuatorGain) == std::vector<double>{3.0});
  check_stable(more, temp.path);

  // Deleting tree A's hinge takes link2 and the ball below it, and link2's entry of the
  // joints objective with its target.
  const Scene fewer = ok(edits::delete_links(more, {1}));
  REQUIRE(fewer.articulations.link_count() == 3);
  CHECK(fewer.articulations.links[1].name == "base1");
  CHECK(fewer.articulations.links[2].parent == 1);
  CHECK(fewer.articulations.actuators[0].link == 2);
  CHECK(fewer.objectives[0].links == std::vector<int>{2});
  CHECK(fewer.objectives[0].target == std::vector<double>{0.25});
  CHECK(fewer.params[ParamId::LinkMass].optimize_rows == std::vector<int>{2});
  check_stable(fewer, temp.path);

  // Deleting tree B's base takes its slide, the actuator on it (with its gain's row) and
  // the objective, which reads nothing then.
  const Scene rest = ok(edits::delete_links(fewer, {1}));
  CHECK(rest.articulations.link_count() == 1);
  CHECK(rest.articulations.actuators.empty());
  CHECK(values(rest, ParamId::ActuatorGain).empty());
  CHECK(rest.objectives.empty());
  CHECK(rest.channels == 2);  // the channels stay, as a deleted muscle's does
  check_stable(rest, temp.path);
}

TEST_CASE("scene edits: adding and deleting links refuses what it cannot do, and says why") {
  TempDir temp;
  const Scene scene = arm(temp.path);
  check_error(edits::add_link(scene, 3, ArticulationJoint::Hinge, {0, 0, 1}),
              "add link: link 3 does not exist; expected an index in [0, 3)");
  check_error(edits::add_link(scene, 1, ArticulationJoint::Free, {0, 0, 1}),
              "add link: a free joint only joins a tree's root to the world; expected a hinge, slide, ball or weld");
  check_error(edits::add_link(scene, 1, ArticulationJoint::Hinge, {0, 0, 0}),
              "add link: the axis [0, 0, 0] is not a direction; expected a non-zero, finite axis");
  CHECK(edits::add_link(scene, 1, ArticulationJoint::Weld, {0, 0, 0}).ok());  // a weld has no axis
  check_error(edits::add_link_base(scene, {0, std::nan(""), 0}),
              "add link base: the position [0, nan, 0] is not finite");
  check_error(edits::delete_links(scene, {-1}), "delete links: link -1 does not exist; expected an index in [0, 3)");
  // The co-design scene's network reads every joint: a new joint would change its inputs.
  const Scene walker = studio_test::load_example("quadruped_codesign");
  const Result<Scene> added = edits::add_link(walker, 2, ArticulationJoint::Hinge, {0, 0, 1});
  REQUIRE_FALSE(added.ok());
  CHECK_MESSAGE(added.error().message.find("add link: the controller reads the joints (a joints input)") == 0,
                added.error().message);
  CHECK(edits::add_link(walker, 2, ArticulationJoint::Weld, {0, 0, 1}).ok());  // no coordinate: nothing changes
  const Result<Scene> deleted = edits::delete_links(walker, {2});
  REQUIRE_FALSE(deleted.ok());
  CHECK(deleted.error().message.find("delete links: the controller reads the joints") == 0);
}

TEST_CASE("scene edits: actuators added to a link's hinge on channels of their own, and deleted") {
  TempDir temp;
  const Scene scene = arm(temp.path);
  REQUIRE(scene.channels == 2);
  Scene driven = ok(edits::add_link_actuator(scene, 1, edits::LinkActuatorKind::Motor, 2.5));
  driven = ok(edits::add_link_actuator(driven, 2, edits::LinkActuatorKind::PositionServo, 10));
  driven = ok(edits::add_link_actuator(driven, 2, edits::LinkActuatorKind::VelocityServo, 0.5));
  const std::vector<ArticulationActuator>& acts = driven.articulations.actuators;
  REQUIRE(acts.size() == 3);
  CHECK(acts[0].name == "motor1");
  CHECK(acts[1].name == "servo1");
  CHECK(acts[2].name == "servo2");
  CHECK(acts[0].link == 1);
  CHECK(acts[2].link == 2);
  // Each on a new channel: the controls table grows by a column of zeros, the old
  // channels' controls kept.
  CHECK(driven.channels == 5);
  CHECK(acts[0].channel == 2);
  CHECK(acts[1].channel == 3);
  CHECK(acts[2].channel == 4);
  const std::vector<double>& before = values(scene, ParamId::Controls);
  const std::vector<double>& after = values(driven, ParamId::Controls);
  REQUIRE(after.size() == size_t(scene.settings.steps) * 5);
  for (int t = 0; t < scene.settings.steps; ++t)
    for (int c = 0; c < 5; ++c) CHECK(after[size_t(t * 5 + c)] == (c < 2 ? before[size_t(t * 2 + c)] : 0.0));
  // MuJoCo's affine force: a motor's gain; kp (u - q); kv (u - qd).
  CHECK(values(driven, ParamId::ActuatorGain) == std::vector<double>{2.5, 10, 0.5});
  CHECK(values(driven, ParamId::ActuatorBiasQ) == std::vector<double>{0, -10, 0});
  CHECK(values(driven, ParamId::ActuatorBiasQd) == std::vector<double>{0, 0, -0.5});
  const std::string text = check_stable(driven, temp.path);
  CHECK(text.find("\"servo2\"") != std::string::npos);
  // A servo's control is its target: held at 0.4 rad (kp 200, the joints damped), link
  // 2's hinge settles there, within what gravity bends it by.
  Scene held = driven;
  held.settings.steps = 3000;
  shape_parameters(held);
  for (int t = 0; t < held.settings.steps; ++t) held.params[ParamId::Controls].value[size_t(t * 5 + 3)] = 0.4;
  held.params[ParamId::ActuatorGain].value[1] = 200, held.params[ParamId::ActuatorBiasQ].value[1] = -200;
  held.params[ParamId::LinkDamping].value[1] = held.params[ParamId::LinkDamping].value[2] = 0.5;
  SimulatorOptions options;
  options.device = Device::Cpu;
  Result<std::unique_ptr<Simulator>> sim = Simulator::create(held, options);
  REQUIRE(sim.ok());
  const Result<Trajectory> motion = (*sim)->trajectory(held.params);
  REQUIRE(motion.ok());
  const Trajectory& traj = *motion;
  const int q2 = articulation_positions(held.articulations)[2];
  CHECK(std::fabs(traj.joint_q[size_t(held.settings.steps) * size_t(traj.positions) + size_t(q2)] - 0.4) < 0.01);
  // Deleted, with their rows; the channels stay.
  const Scene fewer = ok(edits::delete_link_actuators(driven, {0, 2}));
  REQUIRE(fewer.articulations.actuators.size() == 1);
  CHECK(fewer.articulations.actuators[0].name == "servo1");
  CHECK(values(fewer, ParamId::ActuatorGain) == std::vector<double>{10});
  CHECK(values(fewer, ParamId::ActuatorBiasQ) == std::vector<double>{-10});
  CHECK(fewer.channels == 5);
  // Refusals.
  check_error(edits::add_link_actuator(scene, 0, edits::LinkActuatorKind::Motor, 1),
              "add motor: link 0 (base) has a weld joint; expected a hinge or a slide (an actuator drives one "
              "coordinate)");
  check_error(edits::add_link_actuator(scene, 7, edits::LinkActuatorKind::Motor, 1),
              "add motor: link 7 does not exist; expected an index in [0, 3)");
  check_error(edits::add_link_actuator(scene, 1, edits::LinkActuatorKind::PositionServo, 0),
              "add position servo: found a gain of 0; expected a finite gain > 0");
  check_error(edits::delete_link_actuators(driven, {3}),
              "delete actuators: actuator 3 does not exist; expected an index in [0, 3)");
}

TEST_CASE("scene edits: a link moved by an offset in the world takes the links below it along") {
  TempDir temp;
  Scene scene = arm(temp.path);
  scene.params[ParamId::LinkJointPosition].value = {0, 0.4, -0.3};  // the hinges turned at the start
  // link1 resized: its placement of link2 stretches with it.
  scene.params[ParamId::LinkScale].value[1] = 1.5;
  const std::vector<LinkPose> before = link_poses(scene);
  const edits::Vec3 offset{0.1, -0.05, 0.2};
  for (int k : {1, 2}) {
    const Scene moved = ok(edits::move_link(scene, k, offset));
    const std::vector<LinkPose> after = link_poses(moved);
    for (int j = 0; j < 3; ++j) {
      INFO("moved link " << k << ", link " << j);
      const bool follows = j >= k;  // link 2 hangs from link 1
      for (int c = 0; c < 3; ++c)
        CHECK(after[size_t(j)].pos[c] ==
              doctest::Approx(before[size_t(j)].pos[c] + (follows ? offset[size_t(c)] : 0.0)).epsilon(1e-12));
    }
    check_stable(moved, temp.path);
  }
  check_error(edits::move_link(scene, 3, offset), "move link: link 3 does not exist; expected an index in [0, 3)");
  check_error(edits::move_link(scene, 1, {0, INFINITY, 0}), "move link: the offset [0, inf, 0] is not finite");
}
