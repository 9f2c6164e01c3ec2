// The articulations as a family of a rollout: a double pendulum scene swings as MuJoCo's
// does, the scene file keeps every link, joint and actuator, the same bits on every
// thread count and with checkpoints, scene gradients against central differences in
// double, float32 against float64, and the scene check's refusals.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "gradient_outcome.h"
#include "nudge/gradcheck.h"
#include "nudge/link_poses.h"
#include "nudge/quat.h"
#include "nudge/vec3.h"
#include "nudge/objective_facts.h"
#include "nudge/scene.h"
#include "nudge/scene_text.h"
#include "nudge/simulator.h"
#include "temp_dir.h"
#include "sanitized.h"
#include "test_scenes.h"
#include "nudge/robot_import.h"

namespace nudge {
namespace {

ArticulationLink hinge(const char* name, int parent, std::initializer_list<double> axis) {
  ArticulationLink l;
  l.name = name;
  l.parent = parent;
  l.joint = ArticulationJoint::Hinge;
  std::copy(axis.begin(), axis.end(), l.axis);
  return l;
}

// tests/data/articulations/double_pendulum.xml as the importer makes it, z up.
ImportedRobot double_pendulum_robot() {
  ImportedRobot r;
  r.name = "double_pendulum";
  r.articulations.links = {hinge("link1", -1, {0, 1, 0}), hinge("link2", 0, {0, 1, 0})};
  r.pos = {0, 0, 2, 0, 0, -0.5};
  r.mass = {1.0, 0.5};
  r.com = {0, 0, -0.25, 0, 0, -0.2};
  r.inertia = {0.021, 0.021, 0.001, 0, 0, 0, 0.007, 0.007, 0.0005, 0, 0, 0};
  r.damping = {0, 0};
  r.armature = {0, 0};
  r.q = {0.7, -0.4};
  r.qd = {0, 0};
  r.timestep = 0.001;
  return r;
}

// Controls amplitude sin(rate k) on every channel and step, and a weights objective on
// every joint's q and qd at every step (0.2 cos(spread k)): every coordinate's adjoint is
// seeded at every step.
void drive_and_weigh(Scene& scene, double amplitude, double rate, double spread) {
  std::vector<double>& u = scene.params[ParamId::Controls].value;
  for (size_t k = 0; k < u.size(); ++k) u[k] = amplitude * std::sin(rate * double(k));
  Objective w;
  w.type = ObjectiveType::Weights;
  const size_t values = size_t(scene.settings.steps + 1) * weights_per_step(scene, true);
  for (size_t k = 0; k < values; ++k) w.target.push_back(0.2 * std::cos(spread * double(k)));
  scene.objectives = {w};
}

// A tree with a slide carrying a hinge, a weld and a second hinge, damping, armature, dry
// friction (smoothed over 0.3 rad/s, near the joints' rates), a motor and a position
// servo on controls, and a weights objective on every joint's q and qd at every step.
Scene branchy_scene(int steps) {
  ImportedRobot r;
  r.name = "branchy";
  ArticulationLink slide = hinge("cart", -1, {1, 0.2, 0.1});
  slide.joint = ArticulationJoint::Slide;
  ArticulationLink arm = hinge("arm", 0, {0.2, 1, 0.3});
  arm.quat[0] = 0.1, arm.quat[1] = 0.2, arm.quat[3] = 0.97;
  arm.anchor[0] = 0.02, arm.anchor[2] = 0.05;
  ArticulationLink weld = hinge("weld", 1, {0, 0, 1});
  weld.joint = ArticulationJoint::Weld;
  ArticulationLink hand = hinge("hand", 2, {1, 0, 0.4});
  ArticulationLink side = hinge("side", 0, {0, 0, 1});
  r.articulations.links = {slide, arm, weld, hand, side};
  for (ArticulationLink& l : r.articulations.links) l.friction_velocity = 0.3;
  r.articulations.actuators = {{"push", 0, 0, 1.5}, {"servo", 1, 1, 0.8}};
  r.gain = {1.0, 20.0}, r.bias_q = {0.0, -20.0}, r.bias_qd = {0.0, -2.0};
  r.channels = 2;
  r.pos = {0.1, 0.2, 1.0, 0.0, 0.1, -0.2, 0.1, 0, -0.5, 0, 0, -0.3, -0.2, 0, 0};
  r.mass = {2.0, 1.2, 0.4, 0.6, 0.7};
  r.com = {0.05, 0, 0.02, 0.1, 0.02, -0.3, 0, 0.05, -0.1, 0, 0, -0.15, -0.1, 0.03, 0};
  r.inertia = {0.05, 0.04, 0.03, 0,    0,     0,     0.03, 0.02, 0.01, 0.004, 0,    0,     0.01, 0.01, 0.02,
               0,    0,    0,    0.01, 0.012, 0.004, 0,    0,    0,    0.006, 0.01, 0.008, 0,    0,    0};
  r.damping = {0.3, 0.1, 0, 0.05, 0.0};
  r.armature = {0.01, 0.02, 0, 0.0, 0.03};
  r.frictionloss = {0.2, 0.1, 0, 0.05, 0.0};
  r.stiffness = {2.0, 0.0, 0, 0.6, 0.4};  // the weld has none
  r.spring_ref = {0.2, 0.0, 0, -0.5, 0.9};
  r.q = {0.1, 0.4, 0, -0.7, 1.1};
  r.qd = {0.3, -0.5, 0, 0.8, 0.2};
  r.timestep = 0.01;
  Scene scene = robot_scene(r, "", steps);
  drive_and_weigh(scene, 0.5, 0.3, 1.7);
  return scene;
}

const std::vector<ParamId> kLinkParams = {
    ParamId::LinkPosition,  ParamId::LinkMass,      ParamId::LinkCom,           ParamId::LinkInertia,
    ParamId::LinkDamping,   ParamId::LinkArmature,  ParamId::LinkJointPosition, ParamId::LinkJointVelocity,
    ParamId::LinkStiffness, ParamId::LinkSpringRef, ParamId::LinkFrictionLoss,  ParamId::ActuatorGain,
    ParamId::ActuatorBiasQ, ParamId::ActuatorBiasQd};

TEST_CASE("articulations: a double pendulum scene swings for 2 s as MuJoCo's does") {
  const Scene scene = robot_scene(double_pendulum_robot(), "double_pendulum.xml", 2000);
  REQUIRE(check_scene(scene).ok());
  const Trajectory t = test::simulate_on_cpu(scene);
  REQUIRE(t.coordinates == 2);
  const double* q = &t.joint_q[2 * 2000];
  const double* qd = &t.joint_qd[2 * 2000];
  // mujoco 4.0.0, double_pendulum.xml, qpos = (0.7, -0.4), 2000 x mj_step (Euler, 1 ms)
  CHECK(q[0] == doctest::Approx(-0.061458341558146).epsilon(1e-9));
  CHECK(q[1] == doctest::Approx(-0.283473323778461).epsilon(1e-9));
  CHECK(qd[0] == doctest::Approx(-0.354647305298189).epsilon(1e-9));
  CHECK(qd[1] == doctest::Approx(-8.157621273254763).epsilon(1e-9));
}

TEST_CASE("articulations: the scene file keeps every link, joint, shape and actuator") {
  Scene scene = branchy_scene(5);
  scene.articulations.links[1].shapes.push_back({});
  scene.articulations.links[1].shapes.back().kind = LinkShape::Kind::Capsule;
  scene.articulations.actuators[1].force_limited = true;
  scene.articulations.actuators[1].force_range[0] = -3, scene.articulations.actuators[1].force_range[1] = 4;
  test::TempDir dir("articulations");
  const auto path = dir.path / "branchy.json";
  REQUIRE(save_scene(scene, path).ok());
  Result<Scene> loaded = load_scene(path);
  REQUIRE_MESSAGE(loaded.ok(), (loaded.ok() ? "" : loaded.error().message));
  const Articulations& a = loaded->articulations;
  REQUIRE(a.link_count() == 5);
  for (size_t k = 0; k < 5; ++k) {
    CHECK(a.links[k].name == scene.articulations.links[k].name);
    CHECK(a.links[k].parent == scene.articulations.links[k].parent);
    CHECK(a.links[k].joint == scene.articulations.links[k].joint);
    for (int c = 0; c < 4; ++c) CHECK(a.links[k].quat[c] == scene.articulations.links[k].quat[c]);
    CHECK(a.links[k].friction_velocity == 0.3);
  }
  CHECK(a.links[1].shapes.size() == 1);
  CHECK(a.links[1].shapes[0].kind == LinkShape::Kind::Capsule);
  REQUIRE(a.actuators.size() == 2);
  CHECK_FALSE(a.actuators[0].force_limited);
  CHECK(a.actuators[1].force_limited);
  CHECK(a.actuators[1].force_range[0] == -3);
  CHECK(a.actuators[1].force_range[1] == 4);
  CHECK(loaded->params[ParamId::ActuatorGain].value == std::vector<double>{1.0, 20.0});
  CHECK(loaded->params[ParamId::ActuatorBiasQd].value == std::vector<double>{0.0, -2.0});
  for (ParamId id : kLinkParams) CHECK(loaded->params[id].value == scene.params[id].value);
  CHECK(loaded->params[ParamId::Gravity].value == scene.params[ParamId::Gravity].value);
}

TEST_CASE("articulations: the same bits on 1 and 4 threads and with checkpoints") {
  const test::Outcome one = test::require_same_bits_for_threads_and_checkpoints(branchy_scene(40));
  test::check_has_gradient(
      one, {ParamId::LinkPosition, ParamId::LinkMass, ParamId::LinkCom, ParamId::LinkInertia, ParamId::LinkDamping,
            ParamId::LinkArmature, ParamId::LinkJointPosition, ParamId::LinkJointVelocity, ParamId::ActuatorGain,
            ParamId::ActuatorBiasQ, ParamId::ActuatorBiasQd, ParamId::Controls, ParamId::Gravity});
}

TEST_CASE("articulations: scene gradients against central differences in double") {
  std::vector<ParamId> ids = kLinkParams;
  ids.push_back(ParamId::Controls);
  ids.push_back(ParamId::Gravity);
  test::check_against_central_differences(branchy_scene(30), ids);
}

TEST_CASE("articulations: float32 agrees with float64") {
  test::check_float32_matches_float64(
      branchy_scene(60), {ParamId::LinkMass, ParamId::LinkPosition, ParamId::LinkJointVelocity, ParamId::Controls});
}

TEST_CASE("articulations: with rk4, the scene's gradients, threads, checkpoints, float32 and its file") {
  Scene scene = branchy_scene(30);
  scene.settings.integrator = Integrator::RungeKutta4;
  REQUIRE(check_scene(scene).ok());
  // It is another step: the motion differs from Euler's.
  const Trajectory euler = test::simulate_on_cpu(branchy_scene(30)), rk4 = test::simulate_on_cpu(scene);
  CHECK(std::fabs(rk4.joint_q.back() - euler.joint_q.back()) > 1e-4);
  std::vector<ParamId> ids = kLinkParams;
  ids.push_back(ParamId::Controls);
  ids.push_back(ParamId::Gravity);
  test::check_against_central_differences(scene, ids);
  test::require_same_bits_for_threads_and_checkpoints(scene);
  test::check_float32_matches_float64(scene, {ParamId::LinkMass, ParamId::LinkJointVelocity, ParamId::Controls});
  const std::string text = scene_json_text(scene);
  CHECK(text.find("\"integrator\": \"rk4\"") != std::string::npos);
  Result<Scene> loaded = parse_scene(text, "");
  REQUIRE_MESSAGE(loaded.ok(), (loaded.ok() ? "" : loaded.error().message));
  CHECK(loaded->settings.integrator == Integrator::RungeKutta4);
  // Refused beside the families it does not step.
  Scene mixed = scene;
  RigidBody ball;
  mixed.bodies.push_back(ball);
  shape_parameters(mixed);
  const Status refused = check_scene(mixed);
  REQUIRE_FALSE(refused.ok());
  CHECK_MESSAGE(refused.error().message.find("simulation.integrator: found rk4 in a scene with 1 rigid bodies") !=
                    std::string::npos,
                refused.error().message);
}

TEST_CASE("articulations: a joints objective's loss, its file form and its gradients") {
  Scene scene = branchy_scene(25);
  Objective joints;
  joints.type = ObjectiveType::Joints;
  joints.links = {1, 3};  // arm and hand (the weld between them has no joint)
  joints.target = {0.5, -0.25};
  joints.weight = 2.0;
  joints.step = 20;
  scene.objectives = {joints};
  REQUIRE(check_scene(scene).ok());
  const Trajectory t = test::simulate_on_cpu(scene);
  const std::vector<int> coordinate = articulation_coordinates(scene.articulations);
  const double qa = t.joint_q[size_t(20 * t.coordinates + coordinate[1])];
  const double qh = t.joint_q[size_t(20 * t.coordinates + coordinate[3])];
  const test::Outcome out = test::run_cpu_gradient(scene, 1);
  CHECK(out.loss == doctest::Approx(2.0 * ((qa - 0.5) * (qa - 0.5) + (qh + 0.25) * (qh + 0.25)) / 2).epsilon(1e-12));
  // Written by link name, read back the same.
  const std::string text = scene_json_text(scene);
  CHECK(text.find("\"links\": [\"arm\", \"hand\"]") != std::string::npos);
  Result<Scene> again = parse_scene(text, "");
  REQUIRE_MESSAGE(again.ok(), (again.ok() ? "" : again.error().message));
  CHECK(again->objectives[0].links == joints.links);
  CHECK(again->objectives[0].target == joints.target);
  test::check_against_central_differences(scene, {ParamId::LinkMass, ParamId::LinkJointVelocity, ParamId::Controls});
  // A weld is no joint to read.
  scene.objectives[0].links = {2, 3};
  const Status weld = check_scene(scene);
  REQUIRE_FALSE(weld.ok());
  CHECK(weld.error().message.find("objectives[0].links[0]: found the link \"weld\" with a weld") != std::string::npos);
}

TEST_CASE("articulations: a reach objective's loss, its file form, and gradients through the links' placements") {
  Scene scene = branchy_scene(25);
  Objective reach;
  reach.type = ObjectiveType::Reach;
  reach.links = {3};  // the hand, below the weld
  reach.point[0] = 0.05, reach.point[2] = -0.3;
  reach.target = {0.4, 0.9, -0.2};
  reach.weight = 3.0;
  reach.step = 20;
  scene.objectives = {reach};
  REQUIRE(check_scene(scene).ok());
  // The loss is the point's distance from the target where forward kinematics puts it.
  const Trajectory t = test::simulate_on_cpu(scene);
  const std::vector<double> q(t.joint_q.begin() + 20 * t.coordinates, t.joint_q.begin() + 21 * t.coordinates);
  const LinkPose hand = link_poses(scene, q)[3];
  const Quat<double> turn{hand.quat[0], hand.quat[1], hand.quat[2], hand.quat[3]};
  const Vec3<double> p =
      Vec3<double>{hand.pos[0], hand.pos[1], hand.pos[2]} + rotate(turn, Vec3<double>{0.05, 0, -0.3});
  const Vec3<double> d = p - Vec3<double>{0.4, 0.9, -0.2};
  const test::Outcome out = test::run_cpu_gradient(scene, 1);
  CHECK(out.loss == doctest::Approx(3.0 * dot(d, d)).epsilon(1e-12));
  const std::string text = scene_json_text(scene);
  Result<Scene> again = parse_scene(text, "");
  REQUIRE_MESSAGE(again.ok(), (again.ok() ? "" : again.error().message));
  CHECK(again->objectives[0].links == reach.links);
  CHECK(again->objectives[0].point[2] == -0.3);
  CHECK(text.find("\"link\": \"hand\"") != std::string::npos);
  // link_position moves the hand directly as well as through the motion.
  test::check_against_central_differences(scene, {ParamId::LinkPosition, ParamId::LinkJointPosition,
                                                  ParamId::LinkJointVelocity, ParamId::LinkMass, ParamId::Controls});
  (void)test::require_same_bits_for_threads_and_checkpoints(scene);
}

// A floor (y up in the scene) with smooth contact (a softplus switch, damping both ways),
// so that central differences apply.
void add_smooth_floor(Scene& scene, double friction) {
  scene.colliders = {ColliderShape{}};
  scene.contact.smoothing = 0.005;
  scene.contact.friction_smoothing = 0.05;
  scene.contact.damp_approach_only = false;
  scene.params[ParamId::ContactStiffness].value = {3e3};
  scene.params[ParamId::ContactDamping].value = {30};
  scene.params[ParamId::ContactFriction].value = {friction};
}

// A planar leg (MuJoCo's hopper's way: slides in x and z and a hinge for the torso, then
// hip and knee) landing on a plane collider with its foot 1 cm in and sliding: the
// contact is smooth (a softplus switch, damping both ways) so central differences apply.
Scene leg_scene(int steps) {
  ImportedRobot r;
  r.name = "leg";
  ArticulationLink root_x = hinge("root_x", -1, {1, 0, 0});
  root_x.joint = ArticulationJoint::Slide;
  ArticulationLink root_z = hinge("root_z", 0, {0, 0, 1});
  root_z.joint = ArticulationJoint::Slide;
  ArticulationLink torso = hinge("torso", 1, {0, 1, 0});
  ArticulationLink thigh = hinge("thigh", 2, {0, 1, 0});
  ArticulationLink shin = hinge("shin", 3, {0, 1, 0});
  LinkShape foot;
  foot.kind = LinkShape::Kind::Sphere;
  foot.size[0] = 0.05;
  foot.pos[2] = -0.4;
  shin.shapes = {foot};
  LinkShape knee;  // a box corner or two near the floor as well
  knee.kind = LinkShape::Kind::Box;
  knee.size[0] = 0.03, knee.size[1] = 0.03, knee.size[2] = 0.03;
  thigh.shapes = {knee};
  r.articulations.links = {root_x, root_z, torso, thigh, shin};
  r.articulations.actuators = {{"hip", 3, 0, 20.0}, {"knee", 4, 1, 20.0}};
  r.channels = 2;
  r.pos = {0, 0, 1.04, 0, 0, 0, 0, 0, 0, 0, 0, -0.2, 0, 0, -0.4};
  r.mass = {0.1, 0.1, 3.0, 1.0, 0.5};
  r.com = {0, 0, 0, 0, 0, 0, 0, 0, 0.1, 0, 0, -0.2, 0, 0, -0.2};
  r.inertia = {0.001, 0.001, 0.001, 0,    0,    0,     0.001, 0.001, 0.001, 0,    0,    0,     0.05, 0.05, 0.02,
               0,     0,     0,     0.02, 0.02, 0.005, 0,     0,     0,     0.01, 0.01, 0.002, 0,    0,    0};
  r.damping = {0, 0, 0, 0.1, 0.1};
  r.armature = {0, 0, 0, 0.01, 0.01};
  r.q = {0, 0, 0.05, 0.2, -0.25};
  r.qd = {0.6, -0.3, 0.2, -0.5, 0.4};
  r.timestep = 0.001;
  Scene scene = robot_scene(r, "", steps);
  add_smooth_floor(scene, 0.8);
  drive_and_weigh(scene, 0.3, 0.2, 1.3);
  return scene;
}

TEST_CASE("articulations: a leg lands on a plane collider; its gradients against central differences") {
  Scene scene = leg_scene(40);
  REQUIRE(check_scene(scene).ok());
  // Over 0.4 s the floor holds the foot up (without it, it falls through), and friction
  // holds it in place (without it, it skids).
  Scene longer = leg_scene(400);
  struct FootPath {
    double lowest = 1e9, skid = 0;  // its centre's lowest height; how far it moved in x after 0.1 s
  };
  const auto foot_path = [](const Scene& s) {
    const Trajectory t = test::simulate_on_cpu(s);
    FootPath path;
    double x_then = 0;
    for (int step = 0; step <= t.steps; ++step) {
      const std::vector<double> q(t.joint_q.begin() + step * t.coordinates,
                                  t.joint_q.begin() + (step + 1) * t.coordinates);
      const LinkPose shin = link_poses(s, q)[4];
      const Quat<double> turn{shin.quat[0], shin.quat[1], shin.quat[2], shin.quat[3]};
      // The foot is 0.4 m down the shin's z, which is the scene's -z turned to y up.
      const Vec3<double> foot =
          Vec3<double>{shin.pos[0], shin.pos[1], shin.pos[2]} + rotate(turn, Vec3<double>{0, 0, -0.4});
      path.lowest = std::min(path.lowest, foot.y);
      if (step == 100) x_then = foot.x;
      if (step == t.steps) path.skid = std::fabs(foot.x - x_then);
    }
    return path;
  };
  Scene no_floor = longer;
  no_floor.colliders.clear();
  Scene slippery = longer;
  slippery.params[ParamId::ContactFriction].value = {0};
  const FootPath held = foot_path(longer), fell = foot_path(no_floor), skid = foot_path(slippery);
  INFO("the foot's lowest centre: " << held.lowest << " m on the floor, " << fell.lowest << " without; it moves "
                                    << held.skid << " m in x with friction, " << skid.skid << " m without");
  CHECK(held.lowest > 0.02);  // a 5 cm sphere, at most 3 cm into a floor of 3000 N/m
  CHECK(fell.lowest < -0.3);
  CHECK(held.skid < 0.5 * skid.skid);
  std::vector<ParamId> ids = kLinkParams;
  for (ParamId id : {ParamId::Controls, ParamId::Gravity, ParamId::ContactStiffness, ParamId::ContactDamping,
                     ParamId::ContactFriction})
    ids.push_back(id);
  // Under the sanitizers, 3 entries of each (every entry took this case 60 % of the suite's
  // sanitized time); release checks them all.
  test::check_against_central_differences(scene, ids, test::kSanitized ? 3 : 1000);
  const test::Outcome out = test::require_same_bits_for_threads_and_checkpoints(scene);
  test::check_has_gradient(out, {ParamId::ContactStiffness, ParamId::ContactFriction, ParamId::LinkPosition});
}

// A free body (a box) carrying a ball-jointed limb with a hinge at its end, thrown
// tumbling at a plane collider: its initial translation, rotation and velocities, its
// links' masses and placements, and the contact's terms, against central differences.
Scene floating_scene(int steps) {
  ImportedRobot r;
  r.name = "floating";
  ArticulationLink body = hinge("body", -1, {0, 0, 1});
  body.joint = ArticulationJoint::Free;
  LinkShape box;
  box.kind = LinkShape::Kind::Box;
  box.size[0] = 0.1, box.size[1] = 0.06, box.size[2] = 0.04;
  body.shapes = {box};
  ArticulationLink limb = hinge("limb", 0, {0, 0, 1});
  limb.joint = ArticulationJoint::Ball;
  limb.anchor[2] = 0.05;
  ArticulationLink hand = hinge("hand", 1, {0, 1, 0});
  LinkShape tip;
  tip.kind = LinkShape::Kind::Sphere;
  tip.size[0] = 0.03;
  tip.pos[2] = -0.2;
  hand.shapes = {tip};
  r.articulations.links = {body, limb, hand};
  r.articulations.actuators = {{"wrist", 2, 0, 2.0}};
  r.channels = 1;
  r.pos = {0, 0, 0.3, 0.1, 0, -0.05, 0, 0, -0.2};
  r.mass = {2.0, 0.5, 0.3};
  r.com = {0.01, 0, 0, 0, 0, -0.1, 0, 0, -0.1};
  r.inertia = {0.008, 0.01, 0.012, 0.001, 0, 0, 0.002, 0.002, 0.0005, 0, 0, 0, 0.001, 0.001, 0.0003, 0, 0, 0};
  r.damping = {0.01, 0.02, 0.01};
  r.armature = {0, 0.001, 0.001};
  r.q = {0, 0, 0.3};
  r.qd = {0, 0, -0.5};
  r.timestep = 0.002;
  Scene scene = robot_scene(r, "", steps);
  scene.params[ParamId::LinkRotation].value = {0.1, 0.2, -0.1, 0.97, 0.2, -0.1, 0.1, 0.96, 0, 0, 0, 1};
  scene.params[ParamId::LinkTranslation].value = {0.05, -0.02, 0.1, 0, 0, 0, 0, 0, 0};
  scene.params[ParamId::LinkLinearVelocity].value = {0.4, -1.5, 0.2, 0, 0, 0, 0, 0, 0};
  scene.params[ParamId::LinkAngularVelocity].value = {1.5, -2.0, 3.0, 0.5, -1.0, 0.8, 0, 0, 0};
  add_smooth_floor(scene, 0.5);
  drive_and_weigh(scene, 0.3, 0.2, 1.3);
  return scene;
}

TEST_CASE(
    "articulations: a free body with a ball-jointed limb tumbles onto a floor; gradients against central "
    "differences") {
  Scene scene = floating_scene(60);
  REQUIRE(check_scene(scene).ok());
  // It lands: over 0.6 s the floor holds the box up, and without it it falls through.
  Scene longer = floating_scene(300), no_floor = floating_scene(300);
  no_floor.colliders.clear();
  const auto lowest = [](const Scene& s) {
    const Trajectory t = test::simulate_on_cpu(s);
    REQUIRE(t.positions == 7 + 4 + 1);
    REQUIRE(t.coordinates == 6 + 3 + 1);
    double low = 1e9;
    for (int step = 0; step <= t.steps; ++step) {
      const std::vector<double> q(t.joint_q.begin() + step * t.positions, t.joint_q.begin() + (step + 1) * t.positions);
      low = std::min(low, link_poses(s, q)[0].pos[1]);
    }
    return low;
  };
  const double held = lowest(longer), fell = lowest(no_floor);
  INFO("the box's lowest centre: " << held << " m on the floor, " << fell << " m without it");
  CHECK(held > 0.0);
  CHECK(fell < -0.5);
  std::vector<ParamId> ids = {ParamId::LinkRotation,
                              ParamId::LinkTranslation,
                              ParamId::LinkAngularVelocity,
                              ParamId::LinkLinearVelocity,
                              ParamId::LinkMass,
                              ParamId::LinkPosition,
                              ParamId::LinkCom,
                              ParamId::LinkInertia,
                              ParamId::LinkDamping,
                              ParamId::LinkArmature,
                              ParamId::LinkJointPosition,
                              ParamId::Controls,
                              ParamId::Gravity,
                              ParamId::ContactStiffness,
                              ParamId::ContactFriction};
  test::check_against_central_differences(scene, ids, test::kSanitized ? 3 : 1000);  // all in release
  const test::Outcome out = test::require_same_bits_for_threads_and_checkpoints(scene);
  test::check_has_gradient(out, {ParamId::LinkRotation, ParamId::LinkTranslation, ParamId::LinkAngularVelocity,
                                 ParamId::LinkLinearVelocity});
  test::check_float32_matches_float64(scene, {ParamId::LinkMass, ParamId::LinkAngularVelocity});
}

// The floating tree's hand (0.2 m down its z) brought to (0.3, 0.1, -0.2) at a step.
Objective hand_reach(int step) {
  Objective reach;
  reach.type = ObjectiveType::Reach;
  reach.links = {2};
  reach.point[2] = -0.2;
  reach.target = {0.3, 0.1, -0.2};
  reach.weight = 1.5;
  reach.step = step;
  return reach;
}

TEST_CASE("articulations: link_orientation and reach objectives on a floating tree, and their gradients") {
  Scene scene = floating_scene(30);
  Objective upright;
  upright.type = ObjectiveType::LinkOrientation;
  upright.links = {2};  // the hand, below the ball and the free joint
  upright.axis[0] = 0, upright.axis[1] = 0, upright.axis[2] = 1;
  upright.direction[0] = 1, upright.direction[1] = 0, upright.direction[2] = 0;
  upright.weight = 2.0;
  upright.step = 20;
  const Objective reach = hand_reach(25);
  scene.objectives = {upright, reach};
  REQUIRE(check_scene(scene).ok());
  // The loss is what forward kinematics of the state's q gives.
  const Trajectory t = test::simulate_on_cpu(scene);
  const auto hand_at = [&](int step) {
    const std::vector<double> q(t.joint_q.begin() + step * t.positions, t.joint_q.begin() + (step + 1) * t.positions);
    return link_poses(scene, q)[2];
  };
  const LinkPose at20 = hand_at(20), at25 = hand_at(25);
  const Quat<double> turn20{at20.quat[0], at20.quat[1], at20.quat[2], at20.quat[3]};
  const Quat<double> turn25{at25.quat[0], at25.quat[1], at25.quat[2], at25.quat[3]};
  const Vec3<double> e = rotate(turn20, Vec3<double>{0, 0, 1}) - Vec3<double>{1, 0, 0};
  const Vec3<double> d = Vec3<double>{at25.pos[0], at25.pos[1], at25.pos[2]} +
                         rotate(turn25, Vec3<double>{0, 0, -0.2}) - Vec3<double>{0.3, 0.1, -0.2};
  const test::Outcome out = test::run_cpu_gradient(scene, 1);
  CHECK(out.loss == doctest::Approx(2.0 * dot(e, e) + 1.5 * dot(d, d)).epsilon(1e-12));
  const std::string text = scene_json_text(scene);
  CHECK(text.find("\"type\": \"link_orientation\"") != std::string::npos);
  Result<Scene> again = parse_scene(text, "");
  REQUIRE_MESSAGE(again.ok(), (again.ok() ? "" : again.error().message));
  CHECK(again->objectives[0].type == ObjectiveType::LinkOrientation);
  CHECK(again->objectives[0].links == upright.links);
  test::check_against_central_differences(
      scene, {ParamId::LinkRotation, ParamId::LinkAngularVelocity, ParamId::LinkTranslation, ParamId::LinkJointPosition,
              ParamId::LinkPosition, ParamId::LinkMass, ParamId::Controls});
}

// A resized tree's joints move as the tree resized by hand, to `tolerance`, and not as the
// tree as given; the losses agree.
void check_runs_as_by_hand(const Scene& resized, const Scene& by_hand, const Scene& given, double tolerance) {
  const Trajectory a = test::simulate_on_cpu(resized), b = test::simulate_on_cpu(by_hand),
                   unchanged = test::simulate_on_cpu(given);
  REQUIRE(a.joint_q.size() == b.joint_q.size());
  double apart = 0, moved = 0;
  for (size_t i = 0; i < a.joint_q.size(); ++i) {
    apart = std::max(apart, std::abs(a.joint_q[i] - b.joint_q[i]));
    moved = std::max(moved, std::abs(a.joint_q[i] - unchanged.joint_q[i]));
  }
  INFO("resized vs resized by hand: " << apart << "; vs as given: " << moved);
  CHECK(apart < tolerance);
  CHECK(moved > 1e-2);
  CHECK(test::run_cpu_gradient(resized, 1).loss ==
        doctest::Approx(test::run_cpu_gradient(by_hand, 1).loss).epsilon(1e-9));
}

// The floating tree with its links resized (link_scale), and the same tree resized by hand:
// each link's shapes, centre of mass and children's placements moved by s about its
// anchor, its mass times s^3 and inertia times s^5.
constexpr double kLinkScales[3] = {1.3, 0.8, 1.2};

Scene resized_by_hand(Scene scene) {
  Articulations& a = scene.articulations;
  ParameterSet& p = scene.params;
  for (size_t k = 0; k < a.links.size(); ++k) {
    const double s = kLinkScales[k];
    for (LinkShape& shape : a.links[k].shapes) shape = resized_link_shape(shape, a.links[k], {s, 1.0});
    p[ParamId::LinkMass].value[k] *= s * s * s;
    for (size_t c = 0; c < 6; ++c) p[ParamId::LinkInertia].value[6 * k + c] *= s * s * s * s * s;
    for (size_t c = 0; c < 3; ++c) {
      double& com = p[ParamId::LinkCom].value[3 * k + c];
      com = a.links[k].anchor[c] + s * (com - a.links[k].anchor[c]);
    }
  }
  for (size_t k = 0; k < a.links.size(); ++k) {
    const int parent = a.links[k].parent;
    if (parent < 0) continue;
    const double* centre = a.links[size_t(parent)].anchor;
    for (size_t c = 0; c < 3; ++c) {
      double& pos = p[ParamId::LinkPosition].value[3 * k + c];
      pos = centre[c] + kLinkScales[parent] * (pos - centre[c]);
    }
  }
  return scene;
}

TEST_CASE("articulations: link_scale resizes a link with its shapes, contacts and children; its gradient") {
  Scene base = floating_scene(60);
  base.articulations.links[2].anchor[2] = 0.02;  // scaled about a point off the frame's origin
  base.objectives.push_back(hand_reach(50));
  Scene scaled = base;
  scaled.params[ParamId::LinkScale].value.assign(kLinkScales, kLinkScales + 3);
  REQUIRE(check_scene(scaled).ok());
  // The same motion as the tree resized by hand, the box landing on its scaled corners.
  Scene by_hand = resized_by_hand(base);
  by_hand.objectives.back().point[2] = 0.02 + 1.2 * (-0.2 - 0.02);
  check_runs_as_by_hand(scaled, by_hand, base, 1e-9);
  // Drawing and forward kinematics: the hand hangs from the limb's scaled placement.
  const std::vector<LinkPose> poses = link_poses(scaled);
  CHECK(poses[1].size.scale == 0.8);
  const std::vector<LinkPose> hand_poses = link_poses(by_hand);
  for (int c = 0; c < 3; ++c) CHECK(poses[2].pos[c] == doctest::Approx(hand_poses[2].pos[c]).epsilon(1e-12));
  // Its gradient through the dynamics, the floor's contact points and the reach point, and
  // the scaled parameters' own. At the check's largest step (1e-3) the hand's smallest
  // inertia entry (7.5e-4 kg m^2 scaled) turns indefinite (the scene check refuses such a
  // scene; the check's rollout of it goes non-finite): the check leaves that step out
  // and judges the entry by the three finer ones.
  Scene pushed = scaled;
  pushed.params[ParamId::LinkInertia].value[14] -= 1e-3;
  CHECK_FALSE(check_scene(pushed).ok());
  test::check_against_central_differences(
      scaled, {ParamId::LinkScale, ParamId::LinkMass, ParamId::LinkCom, ParamId::LinkInertia, ParamId::LinkPosition});
  // The file keeps it, and leaves it out where every link is as given.
  const std::string text = scene_json_text(scaled);
  CHECK(text.find("\"scale\": 1.3") != std::string::npos);
  CHECK(scene_json_text(base).find("\"scale\"") == std::string::npos);
  Result<Scene> again = parse_scene(text, "");
  REQUIRE_MESSAGE(again.ok(), (again.ok() ? "" : again.error().message));
  CHECK(again->params[ParamId::LinkScale].value == scaled.params[ParamId::LinkScale].value);
  Scene zero = scaled;
  zero.params[ParamId::LinkScale].value[1] = 0;
  const Status checked = check_scene(zero);
  REQUIRE_FALSE(checked.ok());
  CHECK_MESSAGE(checked.error().message.find("scale") != std::string::npos, checked.error().message);
}

// The floating tree stretched along each link's length_axis (link_length): the box along
// its x by 1.25, the limb along z by 1.1 (its child hangs below it), the hand along z by 0.8
// about an anchor off its origin; and the same tree stretched by hand. Along a principal
// axis u the second moment S = tr(I)/2 - I grows by l^3 along u and by l across it, so
// I_uu by l, the other two diagonal entries by the mix, I_uv by l^2, I_vw by l.
constexpr double kLinkLengths[3] = {1.25, 1.1, 0.8};
constexpr int kLengthAxes[3] = {0, 2, 2};

Scene stretched_by_hand(Scene scene) {
  Articulations& a = scene.articulations;
  ParameterSet& p = scene.params;
  for (size_t k = 0; k < a.links.size(); ++k) {
    const double l = kLinkLengths[k];
    const size_t u = size_t(kLengthAxes[k]);
    const double* c = a.links[k].anchor;
    for (LinkShape& shape : a.links[k].shapes) {
      shape.pos[u] = c[u] + l * (shape.pos[u] - c[u]);
      if (shape.kind == LinkShape::Kind::Box) shape.size[u] *= l;
    }
    p[ParamId::LinkMass].value[k] *= l;
    double& com = p[ParamId::LinkCom].value[3 * k + u];
    com = c[u] + l * (com - c[u]);
    double* in = &p[ParamId::LinkInertia].value[6 * k];
    const double half = (in[0] + in[1] + in[2]) / 2;
    double sigma[3] = {half - in[0], half - in[1], half - in[2]};
    for (size_t i = 0; i < 3; ++i) sigma[i] *= i == u ? l * l * l : l;
    in[0] = sigma[1] + sigma[2], in[1] = sigma[0] + sigma[2], in[2] = sigma[0] + sigma[1];
    // xy, xz, yz: by l^2 where the pair has u, by l where it has not
    const size_t pairs[3][2] = {{0, 1}, {0, 2}, {1, 2}};
    for (size_t e = 0; e < 3; ++e) in[3 + e] *= (pairs[e][0] == u || pairs[e][1] == u) ? l * l : l;
  }
  for (size_t k = 0; k < a.links.size(); ++k) {
    const int parent = a.links[k].parent;
    if (parent < 0) continue;
    const size_t u = size_t(kLengthAxes[parent]);
    const double c = a.links[size_t(parent)].anchor[u];
    double& pos = p[ParamId::LinkPosition].value[3 * k + u];
    pos = c + kLinkLengths[parent] * (pos - c);
  }
  return scene;
}

void set_length_axes(Scene& scene) {
  for (size_t k = 0; k < 3; ++k) {
    double* axis = scene.articulations.links[k].length_axis;
    axis[0] = axis[1] = axis[2] = 0;
    axis[kLengthAxes[k]] = 1;
  }
}

TEST_CASE("articulations: link_length stretches a link along its length_axis; its gradient") {
  Scene base = floating_scene(60);
  base.articulations.links[2].anchor[2] = 0.02;
  base.objectives.push_back(hand_reach(50));
  set_length_axes(base);
  Scene stretched = base;
  stretched.params[ParamId::LinkLength].value.assign(kLinkLengths, kLinkLengths + 3);
  REQUIRE(check_scene(stretched).ok());
  Scene by_hand = stretched_by_hand(base);
  by_hand.objectives.back().point[2] = 0.02 + 0.8 * (-0.2 - 0.02);
  check_runs_as_by_hand(stretched, by_hand, base, 1e-10);
  // Drawn: the box 1.25 times as long, the hand's sphere moved in and no larger.
  const LinkShape box =
      resized_link_shape(stretched.articulations.links[0].shapes[0], stretched.articulations.links[0], {1.0, 1.25});
  CHECK(box.size[0] == doctest::Approx(0.125));
  CHECK(box.size[1] == doctest::Approx(0.06));
  const LinkShape tip =
      resized_link_shape(stretched.articulations.links[2].shapes[0], stretched.articulations.links[2], {1.0, 0.8});
  CHECK(tip.pos[2] == doctest::Approx(by_hand.articulations.links[2].shapes[0].pos[2]));
  CHECK(tip.size[0] == 0.03);
  LinkShape capsule;  // tilted to the axis: its ends move, its radius stays
  capsule.kind = LinkShape::Kind::Capsule;
  capsule.size[0] = 0.02, capsule.size[1] = 0.1;
  capsule.quat[0] = std::sin(0.25), capsule.quat[3] = std::cos(0.25);  // 0.5 rad about x
  const LinkShape long_capsule = resized_link_shape(capsule, stretched.articulations.links[2], {1.0, 2.0});
  CHECK(long_capsule.size[0] == 0.02);
  CHECK(long_capsule.size[1] == doctest::Approx(0.1 * std::hypot(std::sin(0.5), 2 * std::cos(0.5))));
  // Its gradient, with scales and stretches together along tilted axes: the limb's inertia
  // full, so that the stretch mixes its entries.
  Scene both = stretched;
  both.params[ParamId::LinkScale].value.assign(kLinkScales, kLinkScales + 3);
  const double tilted[3] = {0.3, 0.2, 1.0}, n = std::sqrt(0.09 + 0.04 + 1.0);
  for (int c = 0; c < 3; ++c) both.articulations.links[1].length_axis[c] = tilted[c] / n;
  double* limb = &both.params[ParamId::LinkInertia].value[6];
  limb[3] = 2e-4, limb[4] = -1e-4, limb[5] = 1.5e-4;
  REQUIRE(check_scene(both).ok());
  test::check_against_central_differences(both, {ParamId::LinkLength, ParamId::LinkScale, ParamId::LinkMass,
                                                 ParamId::LinkCom, ParamId::LinkInertia, ParamId::LinkPosition});
  // The file keeps both, and the axis normalised; a stretch needs an axis to stretch along.
  const std::string text = scene_json_text(both);
  CHECK(text.find("\"length\": 1.1") != std::string::npos);
  CHECK(text.find("\"length_axis\"") != std::string::npos);
  CHECK(scene_json_text(floating_scene(5)).find("\"length\":") == std::string::npos);
  // Import's axes: from the anchor to the one child (the box's, the limb's); the hand has
  // no child and no capsule, so none.
  const Articulations imported = floating_scene(5).articulations;
  CHECK(imported.links[0].length_axis[0] == doctest::Approx(0.1 / std::hypot(0.1, 0.05)));
  CHECK(imported.links[0].length_axis[2] == doctest::Approx(-0.05 / std::hypot(0.1, 0.05)));
  CHECK(imported.links[1].length_axis[2] == doctest::Approx(-1.0));
  CHECK(imported.links[2].length_axis[0] == 0);
  CHECK(imported.links[2].length_axis[1] == 0);
  CHECK(imported.links[2].length_axis[2] == 0);
  Result<Scene> again = parse_scene(text, "");
  REQUIRE_MESSAGE(again.ok(), (again.ok() ? "" : again.error().message));
  CHECK(again->params[ParamId::LinkLength].value == both.params[ParamId::LinkLength].value);
  for (int c = 0; c < 3; ++c)
    CHECK(again->articulations.links[1].length_axis[c] ==
          doctest::Approx(both.articulations.links[1].length_axis[c]).epsilon(1e-15));
  Scene no_axis = stretched;
  no_axis.articulations.links[1].length_axis[2] = 0;
  const Status checked = check_scene(no_axis);
  REQUIRE_FALSE(checked.ok());
  CHECK_MESSAGE(checked.error().message.find(
                    "articulations.links[1].length: found 1.1 on a link with no length_axis") != std::string::npos,
                checked.error().message);
  std::string zero_axis = text;
  const size_t at = zero_axis.find("\"length_axis\"");
  zero_axis.replace(at, zero_axis.find(']', at) + 1 - at, "\"length_axis\": [0, 0, 0]");
  const Result<Scene> refused = parse_scene(zero_axis, "stretched.json");
  REQUIRE_FALSE(refused.ok());
  CHECK_MESSAGE(refused.error().message.find("a non-zero direction that link_length stretches the link along") !=
                    std::string::npos,
                refused.error().message);
}

// The floating tree's wrist driven by a network that reads a clock and the joints: the
// free joint's height and quaternion, the ball's quaternion, the hinge's angle, and every
// rate (nudge/controller.h), so that the loop closes through q and qd.
Scene joint_reading_scene(int steps) {
  Scene scene = floating_scene(steps);
  ControllerInput clock;
  clock.type = ControllerInputType::Sine;
  clock.count = 2;
  clock.omega = 6;
  ControllerInput joints;
  joints.type = ControllerInputType::Joints;
  joints.position_scale = 2;
  joints.velocity_scale = 0.3;
  scene.controller.inputs = {clock, joints};
  scene.controller.layers = {{6, Activation::Tanh}, {1, Activation::Linear}};
  scene.controller.channels = {0};
  scene.controller.seed = 11;
  shape_parameters(scene);
  return scene;
}

TEST_CASE("articulations: a controller that reads the joints closes the loop; its gradient") {
  const Scene scene = joint_reading_scene(60);
  REQUIRE(check_scene(scene).ok());
  const ControllerReads reads = controller_reads(scene);
  // Of q (7 + 4 + 1 entries): the box's height and quaternion, the limb's, the hand's.
  CHECK(reads.joint_q == std::vector<int>{1, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  CHECK(reads.joint_qd == 10);
  CHECK(scene.controller.input_count(reads) == 2 + 10 + 10);
  CHECK(scene.params[ParamId::ControllerWeights].value.size() == size_t((22 + 1) * 6 + (6 + 1) * 1));
  // The network's outputs at each recorded state, replayed as open-loop controls, give the
  // same motion: what it read was the state's q and qd.
  const Trajectory closed = test::simulate_on_cpu(scene);
  const std::vector<double> outputs = controller_outputs(scene, closed);
  REQUIRE(outputs.size() == size_t(scene.settings.steps));
  Scene open = scene;
  open.controller = Controller{};
  shape_parameters(open);
  double largest = 0;
  for (int t = 0; t < scene.settings.steps; ++t) {
    open.params[ParamId::Controls].value[size_t(t)] += outputs[size_t(t)];
    largest = std::max(largest, std::fabs(outputs[size_t(t)]));
  }
  CHECK(largest > 0.1);
  const Trajectory replayed = test::simulate_on_cpu(open);
  double apart = 0;
  for (size_t i = 0; i < closed.joint_q.size(); ++i)
    apart = std::max(apart, std::fabs(closed.joint_q[i] - replayed.joint_q[i]));
  CHECK(apart < 1e-12);
  // Reading the joints changes what it does: the same weights with the joints' inputs
  // zeroed (scales 0) move the tree elsewhere.
  Scene blind = scene;
  blind.controller.inputs[1].position_scale = blind.controller.inputs[1].velocity_scale = 0;
  const Trajectory unseen = test::simulate_on_cpu(blind);
  double moved = 0;
  for (size_t i = 0; i < closed.joint_q.size(); ++i)
    moved = std::max(moved, std::fabs(closed.joint_q[i] - unseen.joint_q[i]));
  CHECK(moved > 1e-3);
  // Its gradient reaches the weights, and through the loop the initial state and the links.
  test::check_against_central_differences(
      scene, {ParamId::ControllerWeights, ParamId::LinkJointPosition, ParamId::LinkJointVelocity, ParamId::LinkRotation,
              ParamId::LinkAngularVelocity, ParamId::LinkLinearVelocity, ParamId::LinkMass});
  // The file keeps it; a scene without joints refuses it.
  const std::string text = scene_json_text(scene);
  CHECK(text.find("\"type\": \"joints\"") != std::string::npos);
  Result<Scene> again = parse_scene(text, "");
  REQUIRE_MESSAGE(again.ok(), (again.ok() ? "" : again.error().message));
  CHECK(again->controller.inputs[1].type == ControllerInputType::Joints);
  CHECK(again->controller.inputs[1].position_scale == 2);
  CHECK(again->params[ParamId::ControllerWeights].value == scene.params[ParamId::ControllerWeights].value);
  Scene jointless = test::make_controlled_scene();
  jointless.controller.inputs.push_back(scene.controller.inputs[1]);
  shape_parameters(jointless);
  const Status refused = check_scene(jointless);
  REQUIRE_FALSE(refused.ok());
  CHECK_MESSAGE(
      refused.error().message.find("found a joints input in a scene with no articulated joints") != std::string::npos,
      refused.error().message);
}

TEST_CASE("articulations: balls and free joints keep in the file; the check refuses what they cannot have") {
  Scene scene = floating_scene(5);
  const std::string text = scene_json_text(scene);
  CHECK(text.find("\"joint\": \"free\"") != std::string::npos);
  CHECK(text.find("\"joint\": \"ball\"") != std::string::npos);
  Result<Scene> again = parse_scene(text, "");
  REQUIRE_MESSAGE(again.ok(), (again.ok() ? "" : again.error().message));
  for (ParamId id :
       {ParamId::LinkRotation, ParamId::LinkTranslation, ParamId::LinkAngularVelocity, ParamId::LinkLinearVelocity})
    CHECK(again->params[id].value == scene.params[id].value);
  CHECK(again->articulations.links[0].joint == ArticulationJoint::Free);
  // The hand's rotation is the default and stays out of the file; the ball's is written.
  size_t rotations = 0;
  for (size_t at = text.find("\"rotation\""); at != std::string::npos; at = text.find("\"rotation\"", at + 1))
    ++rotations;
  CHECK(rotations == 2);
  const auto refused = [](Scene s, const std::string& expected) {
    const Status checked = check_scene(s);
    REQUIRE_FALSE(checked.ok());
    CHECK_MESSAGE(checked.error().message.find(expected) != std::string::npos, checked.error().message);
  };
  Scene nested = scene;
  nested.articulations.links[1].joint = ArticulationJoint::Free;
  refused(nested, "articulations.links[1].joint: found a free joint on a link with a parent (\"body\")");
  Scene zero = scene;
  for (int c = 0; c < 4; ++c) zero.params[ParamId::LinkRotation].value[size_t(4 + c)] = 0;
  refused(zero, "articulations.links[1].rotation: found zero");
  // A ball's range is a cone: [0, angle] with angle in (0, pi].
  Scene ranged = scene;
  ranged.articulations.links[1].limited = true;
  ranged.articulations.links[1].range[1] = 1;
  CHECK(check_scene(ranged).ok());
  ranged.articulations.links[1].range[0] = -1;
  refused(ranged, "articulations.links[1].range: found [-1, 1] on a ball; expected [0, angle] with angle in (0, pi]");
  ranged.articulations.links[1].range[0] = 0, ranged.articulations.links[1].range[1] = 4;
  refused(ranged, "articulations.links[1].range: found [0, 4] on a ball");
  Scene free_range = scene;
  free_range.articulations.links[0].limited = true;
  refused(free_range,
          "articulations.links[0].range: found a range on a free joint; expected one only on a hinge, a slide or a "
          "ball");
  Scene driven = scene;
  driven.articulations.actuators[0].link = 1;
  refused(driven, "articulations.actuators[0].link: found the link \"limb\" with a ball");
}

TEST_CASE("articulations: a box link rests on an incline below its friction angle, and its gradients are sane") {
  // A 1 kg box on two slides, along a 10 degree incline and across it, the incline a plane
  // collider and the box turned to lie flat on it, starting where its four corners hold its
  // weight. Friction 0.5 (a friction angle of 26.6 degrees), viscous below 0.1 mm/s;
  // damping both ways, so that resting (a normal velocity of 0) is not on its kink.
  const double a = 10.0 * 3.14159265358979323846 / 180, c = std::cos(a), s = std::sin(a);
  const double h = (0.05 - 9.81 * c / 4e5) / c;  // each corner in by its share of the weight
  const std::string text = R"({"format": "nudge-scene", "version": 1, "name": "incline",
    "simulation": {"dt": 0.001, "steps": 1000, "gravity": [0, -9.81, 0]},
    "colliders": [{"type": "plane", "normal": [)" +
                           std::to_string(s) + ", " + std::to_string(c) + R"(, 0], "offset": 0}],
    "contact": {"stiffness": 1e5, "damping": 300, "damping_mode": "both", "friction": 0.5, "friction_smoothing": 1e-4},
    "articulations": {"links": [
      {"name": "along", "joint": "slide", "axis": [)" +
                           std::to_string(c) + ", " + std::to_string(-s) + R"(, 0],
       "pos": [0, )" + std::to_string(h) +
                           R"(, 0], "mass": 0},
      {"name": "across", "parent": "along", "joint": "slide", "axis": [)" +
                           std::to_string(s) + ", " + std::to_string(c) +
                           R"(, 0], "mass": 1, "inertia": [0.001, 0.001, 0.001, 0, 0, 0],
       "shapes": [{"kind": "box", "size": [0.05, 0.05, 0.05], "quat": [0, 0, )" +
                           std::to_string(std::sin(-a / 2)) + ", " + std::to_string(std::cos(a / 2)) + R"(]}]}]},
    "objectives": [{"type": "joints", "targets": [0.01, 0], "weight": 1}],
    "parameters": {"link_qd": {"optimize": true}}})";
  Result<Scene> parsed = parse_scene(text, "");
  REQUIRE_MESSAGE(parsed.ok(), (parsed.ok() ? "" : parsed.error().message));
  Scene scene = *parsed;
  const Trajectory t = test::simulate_on_cpu(scene);
  const double slid = t.joint_q[size_t(1000 * t.coordinates)];
  INFO("the box slid " << slid * 1e3 << " mm down the incline in 1 s");
  CHECK(std::fabs(slid) < 1e-4);  // the regularisation's creep, 0.1 mm/s x tan(10 deg) / 0.5
  // Below the incline's angle of friction it slides.
  Scene slippery = scene;
  slippery.params[ParamId::ContactFriction].value = {0.1};
  const Trajectory u = test::simulate_on_cpu(slippery);
  CHECK(u.joint_q[size_t(1000 * u.coordinates)] > 0.1);
  // Pushed down the incline at 5 cm/s, it stops; the gradients through the sticking
  // contact against central differences.
  scene.settings.steps = 200;
  shape_parameters(scene);
  scene.params[ParamId::LinkJointVelocity].value = {0.05, 0.0};
  const Status ok = check_scene(scene);
  REQUIRE_MESSAGE(ok.ok(), (ok.ok() ? "" : ok.error().message));
  test::check_against_central_differences(
      scene, {ParamId::LinkJointVelocity, ParamId::LinkMass, ParamId::ContactFriction, ParamId::ContactStiffness});
}

TEST_CASE("articulations: with restitution, the contact's mass is the link's") {
  Scene scene = leg_scene(30);
  scene.contact.restitution = true;
  scene.params[ParamId::ContactRestitution].value = {0.4};
  test::check_against_central_differences(scene,
                                          {ParamId::LinkMass, ParamId::ContactRestitution, ParamId::LinkJointVelocity});
}

TEST_CASE("articulations: a running cost (a joints objective over a window of steps) is the mean of its steps") {
  Scene scene = branchy_scene(30);
  Objective joints;
  joints.type = ObjectiveType::Joints;
  joints.links = {1};
  joints.target = {0.3};
  joints.weight = 2.0;
  joints.step = 25;
  joints.from_step = 10;
  joints.every = 5;
  scene.objectives = {joints};
  REQUIRE(check_scene(scene).ok());
  const Trajectory t = test::simulate_on_cpu(scene);
  const int arm = articulation_coordinates(scene.articulations)[1];
  double mean = 0;
  for (int step : {10, 15, 20, 25}) {
    const double q = t.joint_q[size_t(step * t.coordinates + arm)];
    mean += (q - 0.3) * (q - 0.3) / 4;
  }
  const test::Outcome out = test::run_cpu_gradient(scene, 1);
  CHECK(out.loss == doctest::Approx(2.0 * mean).epsilon(1e-12));
  const std::string text = scene_json_text(scene);
  CHECK(text.find("\"from_step\": 10") != std::string::npos);
  CHECK(text.find("\"every\": 5") != std::string::npos);
  Result<Scene> again = parse_scene(text, "");
  REQUIRE_MESSAGE(again.ok(), (again.ok() ? "" : again.error().message));
  CHECK(again->objectives[0].from_step == 10);
  CHECK(again->objectives[0].every == 5);
  test::check_against_central_differences(scene, {ParamId::LinkJointVelocity, ParamId::Controls});
  // A window past its step is refused, and "every" without a window.
  scene.objectives[0].from_step = 26;
  const Status late = check_scene(scene);
  REQUIRE_FALSE(late.ok());
  CHECK(late.error().message.find("objectives[0].from_step: found 26") != std::string::npos);
  std::string bad = text;
  bad.erase(bad.find("\"from_step\": 10,"), std::string("\"from_step\": 10,").size());
  const Result<Scene> stray = parse_scene(bad, "");
  REQUIRE_FALSE(stray.ok());
  CHECK(stray.error().message.find("\"every\" only beside a \"from_step\"") != std::string::npos);
}

TEST_CASE("articulations: a limited hinge stops at its range, and ranges and control ranges keep in the file") {
  ImportedRobot r = double_pendulum_robot();
  r.articulations.links[0].limited = true;  // from 0.7 rad it swings to -0.7 unlimited
  r.articulations.links[0].range[0] = -0.3, r.articulations.links[0].range[1] = 1.0;
  Scene scene = robot_scene(r, "", 1000);
  const ArticulationLink& shoulder = scene.articulations.links[0];
  // MuJoCo's 20 ms time constant on the joint's inertia at the start.
  CHECK(shoulder.limit_stiffness > 0);
  CHECK(shoulder.limit_damping == doctest::Approx(2 * 0.02 * shoulder.limit_stiffness));
  REQUIRE(check_scene(scene).ok());
  const Trajectory t = test::simulate_on_cpu(scene);
  double lowest = 1e9;
  for (int step = 0; step <= t.steps; ++step) lowest = std::min(lowest, t.joint_q[size_t(step * t.coordinates)]);
  INFO("the shoulder's lowest angle " << lowest);
  CHECK(lowest > -0.35);
  CHECK(lowest < -0.29);  // it reached the bound
  Scene free = scene;
  free.articulations.links[0].limited = false;
  const Trajectory u = test::simulate_on_cpu(free);
  double unlimited = 1e9;
  for (int step = 0; step <= u.steps; ++step) unlimited = std::min(unlimited, u.joint_q[size_t(step * u.coordinates)]);
  INFO("unlimited, its lowest angle " << unlimited);
  CHECK(unlimited < lowest - 0.05);

  // The file keeps the range, its terms and an actuator's control range.
  Scene servo = branchy_scene(5);
  servo.articulations.links[1].limited = true;
  servo.articulations.links[1].range[0] = -0.5, servo.articulations.links[1].range[1] = 0.25;
  servo.articulations.links[1].limit_stiffness = 40, servo.articulations.links[1].limit_damping = 3;
  servo.articulations.actuators[1].ctrl_limited = true;
  servo.articulations.actuators[1].ctrl_range[0] = -0.1, servo.articulations.actuators[1].ctrl_range[1] = 0.3;
  const std::string text = scene_json_text(servo);
  Result<Scene> again = parse_scene(text, "");
  REQUIRE_MESSAGE(again.ok(), (again.ok() ? "" : again.error().message));
  const ArticulationLink& arm = again->articulations.links[1];
  CHECK(arm.limited);
  CHECK(arm.range[1] == 0.25);
  CHECK(arm.limit_stiffness == 40);
  CHECK(arm.limit_damping == 3);
  CHECK_FALSE(again->articulations.links[0].limited);
  CHECK(again->articulations.actuators[1].ctrl_limited);
  CHECK(again->articulations.actuators[1].ctrl_range[1] == 0.3);
  // Controls past the range change nothing, so their gradient is 0.
  test::check_against_central_differences(servo, {ParamId::Controls, ParamId::LinkJointVelocity});
  // Bad ranges are refused with their place.
  Scene bad = servo;
  bad.articulations.links[1].range[0] = 0.5;
  const Status inverted = check_scene(bad);
  REQUIRE_FALSE(inverted.ok());
  CHECK(inverted.error().message.find("articulations.links[1].range: found [0.5") != std::string::npos);
  bad = servo;
  bad.articulations.actuators[1].ctrl_range[1] = -0.2;
  const Status control = check_scene(bad);
  REQUIRE_FALSE(control.ok());
  CHECK(control.error().message.find("articulations.actuators[1].ctrl_range") != std::string::npos);
  std::string weld = text;
  const size_t at = weld.find("\"joint\": \"weld\"");
  REQUIRE(at != std::string::npos);
  weld.insert(at, "\"range\": [0, 1], ");
  const Result<Scene> welded = parse_scene(weld, "");
  REQUIRE_FALSE(welded.ok());
  CHECK(welded.error().message.find("a range only on a hinge, a slide or a ball") != std::string::npos);
}

TEST_CASE("articulations: the scene check refuses a joint that moves nothing, and bad references") {
  Scene massless = robot_scene(double_pendulum_robot(), "", 10);
  massless.params[ParamId::LinkMass].value[1] = 0;
  for (int c = 0; c < 6; ++c) massless.params[ParamId::LinkInertia].value[size_t(6 + c)] = 0;
  const Status refused = check_scene(massless);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().message.find("moves no mass or inertia") != std::string::npos);
  // Armature on the joint gives it inertia of its own.
  massless.params[ParamId::LinkArmature].value[1] = 0.01;
  CHECK(check_scene(massless).ok());

  Scene welded = branchy_scene(3);
  welded.articulations.actuators[0].link = 2;
  const Status on_weld = check_scene(welded);
  REQUIRE_FALSE(on_weld.ok());
  CHECK(on_weld.error().message.find("articulations.actuators[0].link: found the link \"weld\" with a weld") !=
        std::string::npos);

  Scene bad_force = branchy_scene(3);
  bad_force.articulations.actuators[1].force_limited = true;
  bad_force.articulations.actuators[1].force_range[0] = 2, bad_force.articulations.actuators[1].force_range[1] = 1;
  const Status backwards = check_scene(bad_force);
  REQUIRE_FALSE(backwards.ok());
  CHECK_MESSAGE(backwards.error().message.find("articulations.actuators[1].force_range: found [2, 1]; expected finite "
                                               "[lower, upper] with lower < upper") != std::string::npos,
                backwards.error().message);

  Scene sprung_weld = branchy_scene(3);
  sprung_weld.params[ParamId::LinkStiffness].value[2] = 4;
  const Status on_weld_spring = check_scene(sprung_weld);
  REQUIRE_FALSE(on_weld_spring.ok());
  CHECK_MESSAGE(
      on_weld_spring.error().message.find("articulations.links[2].stiffness: found 4 on a weld; expected 0 "
                                          "(a joint spring only on a hinge, a slide or a ball)") != std::string::npos,
      on_weld_spring.error().message);

  Scene rubbed_weld = branchy_scene(3);
  rubbed_weld.params[ParamId::LinkFrictionLoss].value[2] = 0.5;
  const Status on_weld_friction = check_scene(rubbed_weld);
  REQUIRE_FALSE(on_weld_friction.ok());
  CHECK_MESSAGE(on_weld_friction.error().message.find("articulations.links[2].frictionloss: found 0.5 on a weld; "
                                                      "expected 0 (a weld does not move)") != std::string::npos,
                on_weld_friction.error().message);
  Scene sharp = branchy_scene(3);
  sharp.articulations.links[1].friction_velocity = 0;
  const Status no_rate = check_scene(sharp);
  REQUIRE_FALSE(no_rate.ok());
  CHECK_MESSAGE(no_rate.error().message.find(
                    "articulations.links[1].friction_velocity: found 0; expected a rate > 0") != std::string::npos,
                no_rate.error().message);

  Scene bad_gain = branchy_scene(3);
  bad_gain.params[ParamId::ActuatorBiasQd].value[1] = std::nan("");
  const Status not_finite = check_scene(bad_gain);
  REQUIRE_FALSE(not_finite.ok());
  CHECK_MESSAGE(not_finite.error().message.find("bias_qd") != std::string::npos, not_finite.error().message);

  Scene implicit = branchy_scene(3);
  implicit.settings.integrator = Integrator::ImplicitEuler;
  const Status not_implicit = check_scene(implicit);
  REQUIRE_FALSE(not_implicit.ok());
  CHECK(not_implicit.error().message.find("found implicit_euler in a scene with articulations") != std::string::npos);

  Scene orphan = branchy_scene(3);
  orphan.articulations.links[4].parent = 4;
  const Status after = check_scene(orphan);
  REQUIRE_FALSE(after.ok());
  CHECK(after.error().message.find("articulations.links[4].parent") != std::string::npos);
}

}  // namespace
}  // namespace nudge
