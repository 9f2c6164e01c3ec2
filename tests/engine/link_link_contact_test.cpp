// Links against links (articulations.self_contact; families/articulations/link_link_contact.h):
// a block on a welded platform rests on it by its weight (and falls through it without
// self_contact); a swinging double pendulum strikes two free links, one with its ball and
// one with its rod, whose scene gradients match central differences, with the same bits
// on every thread count and with checkpoints, and float32 near float64; a link does not
// meet its parent.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <span>
#include <vector>

#include "gradient_outcome.h"
#include "nudge/link_poses.h"
#include "nudge/live_simulation.h"
#include "nudge/objective_facts.h"
#include "nudge/quat.h"
#include "nudge/robot_import.h"
#include "nudge/scene.h"
#include "temp_dir.h"
#include "test_scenes.h"

namespace nudge {
namespace {

LinkShape box_shape(double hx, double hy, double hz) {
  LinkShape s;
  s.kind = LinkShape::Kind::Box;
  s.size[0] = hx, s.size[1] = hy, s.size[2] = hz;
  return s;
}

// A platform welded to the world (a 40 x 40 x 4 cm box at 1 m) and a 10 cm block of
// 0.4 kg on a free joint 2 mm above it.
Scene block_on_platform(bool self_contact, int steps) {
  ImportedRobot r;
  r.name = "platform";
  ArticulationLink platform, block;
  platform.name = "platform", platform.joint = ArticulationJoint::Weld;
  platform.shapes = {box_shape(0.2, 0.2, 0.02)};
  block.name = "block", block.joint = ArticulationJoint::Free;
  block.shapes = {box_shape(0.05, 0.05, 0.05)};
  r.articulations.links = {platform, block};
  r.articulations.self_contact = self_contact;
  r.pos = {0, 0, 1, 0.03, -0.02, 1 + 0.02 + 0.05 + 0.002};
  r.mass = {0.5, 0.4};
  r.com = {0, 0, 0, 0, 0, 0};
  r.inertia = {0.01, 0.01, 0.01, 0, 0, 0, 0.0007, 0.0007, 0.0007, 0, 0, 0};
  r.timestep = 0.001;
  Scene scene = robot_scene(r, "", steps);
  scene.contact.friction_smoothing = 0.05;
  scene.contact.damp_approach_only = false;
  scene.params[ParamId::ContactStiffness].value = {2e4};
  scene.params[ParamId::ContactDamping].value = {2.0};
  scene.params[ParamId::ContactFriction].value = {0.5};
  return scene;
}

TEST_CASE("link on a link: a block rests on a welded platform by its weight, and falls through without self_contact") {
  const int steps = 2000;
  const Scene touching = block_on_platform(true, steps), apart = block_on_platform(false, steps);
  REQUIRE(check_scene(touching).ok());
  REQUIRE(check_scene(apart).ok());
  for (const Scene* scene : {&touching, &apart}) {  // the setting is kept by the scene file
    const test::TempDir dir("link-link");
    REQUIRE(save_scene(*scene, dir.path / "s.json").ok());
    const Result<Scene> again = load_scene(dir.path / "s.json");
    REQUIRE(again.ok());
    CHECK(again->articulations.self_contact == scene->articulations.self_contact);
  }
  const auto block_height = [](const Scene& scene, const Trajectory& traj) {
    const size_t positions = size_t(traj.positions);
    const std::span<const double> q(traj.joint_q.data() + size_t(traj.steps) * positions, positions);
    return link_poses(scene, q)[1].pos[1];
  };
  const double rests = block_height(touching, test::simulate_on_cpu(touching));
  const double falls = block_height(apart, test::simulate_on_cpu(apart));
  CHECK(rests == doctest::Approx(1.0 + 0.02 + 0.05).epsilon(1e-3));  // on the platform's top
  CHECK(falls < 0.0);                                                // 2 s of free fall from 1 m

  Result<std::unique_ptr<LiveSimulation>> live = LiveSimulation::create(touching, nullptr);
  REQUIRE(live.ok());
  for (int t = 0; t < steps; ++t) REQUIRE((*live)->step().ok());
  double carried = 0;
  int corners = 0;
  for (const Contact& c : (*live)->contacts()) {
    CHECK(c.kind == Contact::Kind::LinkLink);
    CHECK(c.a == 1);  // the block's corners on the platform's box
    CHECK(c.b == 0);
    carried += c.force[1];
    ++corners;
  }
  CHECK(corners == 4);
  CHECK(carried == doctest::Approx(0.4 * 9.81).epsilon(1e-3));
  // Started from the recorded motion's last frame (the studio's contacts at the play
  // head), live play has the links where the motion has them: the same contacts.
  Result<std::unique_ptr<LiveSimulation>> probe = LiveSimulation::create(touching, nullptr);
  REQUIRE(probe.ok());
  const Trajectory recorded = test::simulate_on_cpu(touching);
  REQUIRE((*probe)->start_from(recorded, steps).ok());
  const std::vector<Contact> at_frame = (*probe)->contacts(), stepped = (*live)->contacts();
  REQUIRE(at_frame.size() == stepped.size());
  for (size_t c = 0; c < at_frame.size(); ++c)
    for (int k = 0; k < 3; ++k) {
      CHECK(at_frame[c].point[size_t(k)] == doctest::Approx(stepped[c].point[size_t(k)]).epsilon(1e-9));
      CHECK(at_frame[c].force[size_t(k)] == doctest::Approx(stepped[c].force[size_t(k)]).epsilon(1e-6));
    }
}

// pendulum_with_shapes' double pendulum (particle_link_contact_test.cpp) with a free 8 cm
// box 4 mm into its lower link's ball and a free 5 cm sphere 4 mm into its upper link's
// rod: the ball's point meets the box's solid, the sphere's point the rod's.
Scene pendulum_against_links(int steps) {
  ImportedRobot r;
  r.name = "pendulum";
  ArticulationLink upper, lower, box, ball;
  upper.name = "link1", lower.name = "link2", box.name = "box", ball.name = "ball";
  lower.parent = 0;
  upper.axis[1] = lower.axis[1] = 1;
  upper.length_axis[2] = 1;
  lower.length_axis[0] = 0.3, lower.length_axis[2] = 1;
  LinkShape rod;
  rod.kind = LinkShape::Kind::Capsule;
  rod.size[0] = 0.04, rod.size[1] = 0.25;
  rod.pos[2] = -0.25;
  upper.shapes = {rod};
  LinkShape knob;
  knob.kind = LinkShape::Kind::Sphere;
  knob.size[0] = 0.05;
  knob.pos[2] = -0.4;
  lower.shapes = {box_shape(0.05, 0.04, 0.1), knob};
  lower.shapes[0].pos[2] = -0.15;
  box.joint = ball.joint = ArticulationJoint::Free;
  box.shapes = {box_shape(0.04, 0.04, 0.04)};
  LinkShape sphere;
  sphere.kind = LinkShape::Kind::Sphere;
  sphere.size[0] = 0.05;
  ball.shapes = {sphere};
  r.articulations.links = {upper, lower, box, ball};
  r.articulations.self_contact = true;
  r.pos = {0, 0, 2, 0, 0, -0.5, 0, 0, 0, 0, 0, 0};
  r.mass = {1.0, 0.5, 0.3, 0.2};
  r.com = {0, 0, -0.25, 0, 0, -0.2, 0, 0, 0, 0, 0, 0};
  r.inertia = {0.021,  0.021,  0.001,  0, 0, 0, 0.007,  0.007,  0.0005, 0, 0, 0,
               0.0003, 0.0003, 0.0003, 0, 0, 0, 0.0002, 0.0002, 0.0002, 0, 0, 0};
  r.timestep = 0.001;
  Scene scene = robot_scene(r, "", steps);
  scene.contact.smoothing = 0.004;
  scene.contact.friction_smoothing = 0.05;
  scene.contact.damp_approach_only = false;
  scene.params[ParamId::ContactStiffness].value = {2e3};
  scene.params[ParamId::ContactDamping].value = {1.0};
  scene.params[ParamId::ContactFriction].value = {0.3};
  scene.params[ParamId::LinkScale].value = {1.0, 1.05, 1.0, 1.0};
  std::vector<double>& q = scene.params[ParamId::LinkJointPosition].value;
  std::vector<double>& qd = scene.params[ParamId::LinkJointVelocity].value;
  REQUIRE(qd.size() == 4);  // a hinge's or a slide's each
  q[0] = 0.7, q[1] = -0.4;
  qd[0] = 1.5, qd[1] = -1.0;
  scene.params[ParamId::LinkLinearVelocity].value = {0, 0, 0, 0, 0, 0, 0.2, -0.1, 0.05, -0.1, 0.3, 0.0};
  scene.params[ParamId::LinkAngularVelocity].value = {0, 0, 0, 0, 0, 0, 0.5, 0, 1.0, 0, 0.8, 0};
  // where the pendulum's shapes are: the free links placed against them (y up)
  const std::vector<LinkPose> poses = link_poses(scene);
  const auto world = [&](int link, Vec3<double> local) {
    const LinkPose& pose = poses[size_t(link)];
    const Quat<double> turn{pose.quat[0], pose.quat[1], pose.quat[2], pose.quat[3]};
    return Vec3<double>{pose.pos[0], pose.pos[1], pose.pos[2]} + rotate(turn, local);
  };
  const Vec3<double> at_ball = world(1, {1.05 * (-0.05) - 0.04 + 0.004, 0, 1.05 * -0.4});
  const Vec3<double> at_rod = world(0, {0.04 + 0.05 - 0.004, 0, -0.2});
  std::vector<double>& pos = scene.params[ParamId::LinkPosition].value;
  pos[6] = at_ball.x, pos[7] = at_ball.y, pos[8] = at_ball.z;
  pos[9] = at_rod.x, pos[10] = at_rod.y, pos[11] = at_rod.z;
  Objective w;  // every joint's q and qd at every step
  w.type = ObjectiveType::Weights;
  const size_t values = size_t(scene.settings.steps + 1) * weights_per_step(scene, true);
  for (size_t k = 0; k < values; ++k) w.target.push_back(0.2 * std::cos(1.3 * double(k)));
  scene.objectives = {w};
  return scene;
}

TEST_CASE("link on a link: a pendulum striking free links, its gradients against central differences") {
  const Scene scene = pendulum_against_links(40);
  REQUIRE(check_scene(scene).ok());
  // both free links are pushed: each moves otherwise without self_contact
  Scene apart = scene;
  apart.articulations.self_contact = false;
  const Trajectory touched = test::simulate_on_cpu(scene), free = test::simulate_on_cpu(apart);
  const size_t positions = size_t(touched.positions), last = size_t(touched.steps) * positions;
  const std::vector<LinkPose> a = link_poses(scene, std::span<const double>(touched.joint_q.data() + last, positions));
  const std::vector<LinkPose> b = link_poses(apart, std::span<const double>(free.joint_q.data() + last, positions));
  for (size_t k = 2; k < 4; ++k) {
    CAPTURE(k);
    CHECK(std::hypot(a[k].pos[0] - b[k].pos[0], a[k].pos[1] - b[k].pos[1], a[k].pos[2] - b[k].pos[2]) > 1e-4);
  }
  const test::Outcome out = test::require_same_bits_for_threads_and_checkpoints(scene);
  test::check_has_gradient(out, {ParamId::ContactStiffness, ParamId::LinkPosition, ParamId::LinkJointVelocity});
  const std::vector<ParamId> ids = {
      ParamId::ContactStiffness,    ParamId::ContactDamping,    ParamId::ContactFriction,
      ParamId::LinkPosition,        ParamId::LinkMass,          ParamId::LinkCom,
      ParamId::LinkJointPosition,   ParamId::LinkJointVelocity, ParamId::LinkLinearVelocity,
      ParamId::LinkAngularVelocity, ParamId::LinkScale,         ParamId::LinkLength};
  test::check_against_central_differences(scene, ids);
  test::check_float32_matches_float64(scene, {ParamId::LinkPosition, ParamId::LinkJointVelocity});
}

TEST_CASE("link on a link: a link does not meet its parent, and rk4 refuses self_contact") {
  // A sphere on the lower link at its joint sinks into the end of the upper link's rod:
  // no force between them.
  Scene scene = pendulum_against_links(1);
  scene.articulations.links.resize(2);
  LinkShape joint_ball;
  joint_ball.kind = LinkShape::Kind::Sphere;
  joint_ball.size[0] = 0.05;
  scene.articulations.links[1].shapes.push_back(joint_ball);
  scene.objectives.clear();
  shape_parameters(scene);
  REQUIRE(check_scene(scene).ok());
  Result<std::unique_ptr<LiveSimulation>> live = LiveSimulation::create(scene, nullptr);
  REQUIRE(live.ok());
  CHECK((*live)->contacts().empty());
  scene.settings.integrator = Integrator::RungeKutta4;
  const Status refused = check_scene(scene);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().message.find("articulations.self_contact") != std::string::npos);
}

}  // namespace
}  // namespace nudge
