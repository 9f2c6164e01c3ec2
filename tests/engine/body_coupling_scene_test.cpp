// Bodies that act on each other, in whole rollouts: body-body contact and joints. Every
// parameter's gradient against central differences, the same bits for any thread
// count and for stored or checkpointed states, momentum kept through collisions, and a
// jointed chain that holds together under load.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>

#include "body_test_support.h"
#include "nudge/gradcheck.h"
#include "nudge/quat.h"
#include "nudge/simulator.h"
#include "cpu_simulator.h"
#include "test_scenes.h"

using namespace nudge;
using nudge::test::check_every_entry;
using nudge::test::check_same_bits;
using nudge::test::cpu_simulator;

// With a sharp switch, corners and ends that touch and part within a step make the loss
// kinked in most directions, and central differences cannot check anything there: the
// sharp case is checked on the two spheres, whose contact is one smooth-sided event.
TEST_CASE("body contact: colliding bodies' gradients match finite differences, smooth and sharp contact") {
  for (double smoothing : {0.004, 0.0}) {
    CAPTURE(smoothing);
    check_every_entry(
        test::make_body_collision_scene(smoothing, 120, smoothing == 0.0),
        {ParamId::BodyPosition, ParamId::BodyOrientation, ParamId::BodyVelocity, ParamId::BodyAngularVelocity,
         ParamId::BodyDensity, ParamId::ContactStiffness, ParamId::ContactDamping, ParamId::ContactFriction,
         ParamId::BodyRadius, ParamId::BodyHalfExtents, ParamId::BodyHalfLength},
        smoothing == 0.0 ? 12 : 40);
  }
}

TEST_CASE("body contact: the same bits on 1, 2 and 8 threads, stored or checkpointed") {
  check_same_bits(test::make_body_collision_scene(0.004, 120));
}

TEST_CASE("body contact: collisions keep the momentum, and they happen") {
  Scene scene = test::make_body_collision_scene(0.0, 400);
  Result<Trajectory> traj = cpu_simulator(scene, 1)->trajectory(scene.params);
  REQUIRE(traj.ok());
  const int nb = scene.body_count();
  std::vector<double> mass(static_cast<size_t>(nb));
  for (int b = 0; b < nb; ++b)
    mass[size_t(b)] =
        scene.params[ParamId::BodyDensity].value[size_t(b)] *
        unit_mass_properties(scene.bodies[size_t(b)], body_shape_size(scene.bodies[size_t(b)], scene.params, b)).volume;
  // The momentum is sum m (x_{t+1} - x_t) / dt; positions are what the trajectory keeps.
  const auto momentum = [&](int t) {
    Vec3<double> p{0, 0, 0};
    for (int b = 0; b < nb; ++b)
      for (int k = 0; k < 3; ++k)
        (&p.x)[k] += mass[size_t(b)] *
                     (traj->body_x[(size_t(t + 1) * nb + b) * 3 + k] - traj->body_x[(size_t(t) * nb + b) * 3 + k]) /
                     scene.settings.dt;
    return p;
  };
  const Vec3<double> before = momentum(0), after = momentum(traj->steps - 1);
  CHECK(length(after - before) < 1e-9 * length(before));
  // The second sphere, at rest at first, was hit and moves.
  const double* end = &traj->body_x[(size_t(traj->steps) * nb + 1) * 3];
  const double* start = &traj->body_x[size_t(1) * 3];
  CHECK(std::hypot(end[0] - start[0], end[1] - start[1], end[2] - start[2]) > 0.05);
}

TEST_CASE("joints: every kind's gradients match finite differences, through limits and motors") {
  check_every_entry(test::make_joint_scene(),
                    {ParamId::JointAnchor, ParamId::JointDamping, ParamId::JointControl, ParamId::BodyPosition,
                     ParamId::BodyOrientation, ParamId::BodyVelocity, ParamId::BodyAngularVelocity,
                     ParamId::BodyDensity, ParamId::BodyRadius, ParamId::BodyHalfExtents, ParamId::BodyHalfLength},
                    80);
}

TEST_CASE("joints: the same bits on 1, 2 and 8 threads, stored or checkpointed") {
  check_same_bits(test::make_joint_scene(120));
}

// Three hinged links and a heavy box welded at the end fall from horizontal and swing
// for two seconds: the anchors of each joint's two sides stay within 2 mm. (The
// whip of the chain loads the joints with ~1 kN, far more than the weights' 100 N: the
// gap is that force over the stiffness, 2e6 N/m here; 2e5 lets it reach 1 cm.)
TEST_CASE("joints: an articulated chain holds together under load") {
  Scene scene;
  scene.settings.dt = 5e-4;
  scene.settings.steps = 4000;
  const RigidBody link = test::rigid_body(BodyShape::Capsule), load = test::rigid_body(BodyShape::Box);
  scene.bodies = {link, link, link, load};
  for (int j = 0; j < 4; ++j)
    scene.joints.push_back({"", j == 3 ? JointType::Fixed : JointType::Hinge, j - 1, j, {0, 0, 1}, false, 0, 0, false});
  scene.joint_settings.stiffness = 2e6;
  scene.joint_settings.damping = 50;  // explicit: more damping through the light turns of a link rings
  scene.joint_settings.angular_stiffness = 2e3;
  scene.joint_settings.angular_damping = 1;
  scene.contact.bodies = false;
  shape_parameters(scene);
  test::set_sizes(scene, {{0.03, 0.2, 0}, {0.03, 0.2, 0}, {0.03, 0.2, 0}, test::test_size(BodyShape::Box)});
  // Laid out horizontally along +x from the origin: they fall and swing.
  for (int j = 0; j < 3; ++j) {
    const double tilt[4] = {0, 0, std::sin(-M_PI / 4), std::cos(-M_PI / 4)};  // the capsule's axis (y) along x
    std::copy(tilt, tilt + 4, scene.params[ParamId::BodyOrientation].value.begin() + 4 * j);
    scene.params[ParamId::BodyPosition].value[3 * size_t(j)] = 0.2 + 0.4 * j;
    scene.params[ParamId::JointAnchor].value[3 * size_t(j)] = 0.4 * j;
  }
  scene.params[ParamId::BodyPosition].value[9] = 1.2 + 0.15;
  scene.params[ParamId::JointAnchor].value[9] = 1.2;
  scene.params[ParamId::BodyDensity].value[3] = 3000;  // 6.9 kg on links of 1.2 kg
  REQUIRE(check_scene(scene).ok());
  Result<Trajectory> traj = cpu_simulator(scene, 1)->trajectory(scene.params);
  REQUIRE_MESSAGE(traj.ok(), (traj.ok() ? "" : traj.error().message));
  // Each side's anchor, carried by its body from the start.
  const auto anchor_at = [&](int body, int j, int t) {
    const double* a = &scene.params[ParamId::JointAnchor].value[3 * size_t(j)];
    if (body < 0) return Vec3<double>{a[0], a[1], a[2]};
    const auto pose = [&](int step) {
      const double* x = &traj->body_x[(size_t(step) * 4 + body) * 3];
      const double* q = &traj->body_q[(size_t(step) * 4 + body) * 4];
      return std::pair{Vec3<double>{x[0], x[1], x[2]}, Quat<double>{q[0], q[1], q[2], q[3]}};
    };
    const auto [x0, q0] = pose(0);
    const auto [x, q] = pose(t);
    return x + rotate(q, inverse_rotate(q0, Vec3<double>{a[0], a[1], a[2]} - x0));
  };
  double worst = 0;
  for (int t = 0; t <= traj->steps; t += 50)
    for (int j = 0; j < 4; ++j) worst = std::max(worst, length(anchor_at(j, j, t) - anchor_at(j - 1, j, t)));
  INFO("the largest gap between a joint's two sides: " << worst << " m");
  CHECK(worst < 2e-3);
  // And it did swing: the load fell from y = 0.
  CHECK(traj->body_x[(size_t(traj->steps) * 4 + 3) * 3 + 1] < -0.5);
}

// A double pendulum of two bobs on hinges with no damping anywhere keeps its energy
// (kinetic, gravity's, and the joints' springs') within semi-implicit Euler's O(dt)
// oscillation: no drift over 2 s and 10000 steps.
TEST_CASE("joints: an undamped double pendulum keeps its energy") {
  Scene scene;
  scene.settings.dt = 2e-4;
  scene.settings.steps = 10000;
  const RigidBody bob = test::rigid_body(BodyShape::Sphere);
  scene.bodies = {bob, bob};
  scene.joints = {{"", JointType::Hinge, -1, 0, {0, 0, 1}, false, 0, 0, false},
                  {"", JointType::Hinge, 0, 1, {0, 0, 1}, false, 0, 0, false}};
  scene.joint_settings = {2e4, 0.0, 20.0, 0.0, 0.0};
  scene.contact.bodies = false;
  shape_parameters(scene);
  test::set_sizes(scene, {{0.04, 0, 0}, {0.04, 0, 0}});
  scene.params[ParamId::BodyPosition].value = {0.47, 1.33, 0.0, 0.69, 1.06, 0.0};
  scene.params[ParamId::JointAnchor].value = {0.0, 1.5, 0.0, 0.47, 1.33, 0.0};
  scene.params[ParamId::BodyDensity].value = {5000, 3000};
  REQUIRE(check_scene(scene).ok());
  Result<Trajectory> traj = cpu_simulator(scene, 1)->trajectory(scene.params);
  REQUIRE_MESSAGE(traj.ok(), (traj.ok() ? "" : traj.error().message));

  using V = Vec3<double>;
  using Q = Quat<double>;
  const double dt = scene.settings.dt;
  const auto pose = [&](int b, int t) {
    const double* x = &traj->body_x[(size_t(t) * 2 + b) * 3];
    const double* q = &traj->body_q[(size_t(t) * 2 + b) * 4];
    return std::pair{V{x[0], x[1], x[2]}, Q{q[0], q[1], q[2], q[3]}};
  };
  // A side's anchor and axis carried by its body from the start (the world's stay put).
  const auto carried = [&](int b, V world_point, bool direction, int t) {
    if (b < 0) return world_point;
    const auto [x0, q0] = pose(b, 0);
    const auto [x, q] = pose(b, t);
    return direction ? rotate(q, inverse_rotate(q0, world_point)) : x + rotate(q, inverse_rotate(q0, world_point - x0));
  };
  // Energy at step t >= 1, with the velocities that led to it: x_t = x_{t-1} + dt v_t and
  // q_t = normalize(q_{t-1} + dt/2 [w_t, 0] q_{t-1}), so w_t = (2 / dt) p.vec / p.w, p = q_t q_{t-1}*.
  const auto energy = [&](int t) {
    double e = 0;
    for (int b = 0; b < 2; ++b) {
      const auto [x, q] = pose(b, t);
      const auto [x_prev, q_prev] = pose(b, t - 1);
      const UnitMassProperties unit =
          unit_mass_properties(scene.bodies[size_t(b)], body_shape_size(scene.bodies[size_t(b)], scene.params, b));
      const double density = scene.params[ParamId::BodyDensity].value[size_t(b)];
      const V v = (1.0 / dt) * (x - x_prev);
      const Q p = q * conjugate(q_prev);
      const V w_body = inverse_rotate(q, (2.0 / dt / p.w) * p.vec());
      e += 0.5 * density * unit.volume * dot(v, v) + density * unit.volume * 9.81 * x.y;
      for (int k = 0; k < 3; ++k) e += 0.5 * density * unit.inertia[4 * k] * (&w_body.x)[k] * (&w_body.x)[k];
    }
    for (int j = 0; j < 2; ++j) {
      const Joint& joint = scene.joints[size_t(j)];
      const double* a = &scene.params[ParamId::JointAnchor].value[3 * size_t(j)];
      const V anchor{a[0], a[1], a[2]}, axis{0, 0, 1};
      const V gap = carried(joint.child, anchor, false, t) - carried(joint.parent, anchor, false, t);
      const double aligned = dot(carried(joint.child, axis, true, t), carried(joint.parent, axis, true, t));
      e +=
          0.5 * scene.joint_settings.stiffness * dot(gap, gap) + scene.joint_settings.angular_stiffness * (1 - aligned);
    }
    return e;
  };
  const double start = energy(1);
  double low = start, high = start;
  for (int t = 2; t <= traj->steps; ++t) low = std::min(low, energy(t)), high = std::max(high, energy(t));
  const double mean_late = 0.5 * (energy(traj->steps) + energy(traj->steps - 1));
  INFO("energy " << start << " J, range [" << low << ", " << high << "], at the end " << mean_late);
  // 25.85 J (gravity's measured from y = 0): it wobbles by 5 mJ and ends where it began
  // to 3 mJ, 1e-4 of it; a damping or a wrong joint force would change it by joules.
  CHECK((high - low) < 1e-2);
  CHECK(std::fabs(mean_late - start) < 1e-2);
}

TEST_CASE("particles and bodies: held and colliding, gradients match finite differences") {
  for (double smoothing : {0.003, 0.0}) {
    CAPTURE(smoothing);
    Scene scene = test::make_particle_body_scene(smoothing);
    // The ball does pass through the rope.
    check_every_entry(scene,
                      {ParamId::InitialPosition, ParamId::InitialVelocity, ParamId::Mass, ParamId::ParticleRadius,
                       ParamId::Stiffness, ParamId::BodyPosition, ParamId::BodyOrientation, ParamId::BodyVelocity,
                       ParamId::BodyAngularVelocity, ParamId::BodyDensity, ParamId::JointAnchor,
                       ParamId::ContactStiffness, ParamId::ContactDamping, ParamId::ContactFriction, ParamId::Gravity,
                       ParamId::BodyRadius, ParamId::BodyHalfExtents, ParamId::BodyHalfLength},
                      50);
  }
}

TEST_CASE("particles and bodies: the same bits on 1, 2 and 8 threads, stored or checkpointed") {
  check_same_bits(test::make_particle_body_scene(0.003, 120));
}

// With no gravity and no joint, the rope and the ball trade momentum and nothing else.
TEST_CASE("particles and bodies: contact and attachment keep the momentum") {
  Scene scene = test::make_particle_body_scene(0.0, 300);
  scene.joints.clear();
  shape_parameters(scene);
  scene.params[ParamId::Gravity].value = {0.0, 0.0, 0.0};
  Result<Trajectory> traj = cpu_simulator(scene, 1)->trajectory(scene.params);
  REQUIRE(traj.ok());
  const double dt = scene.settings.dt;
  const auto momentum = [&](int t) {
    Vec3<double> p{0, 0, 0};
    for (int i = 0; i < traj->particles; ++i)
      for (int k = 0; k < 3; ++k)
        (&p.x)[k] += scene.params[ParamId::Mass].value[size_t(i)] * traj->v[(size_t(t) * traj->particles + i) * 3 + k];
    for (int b = 0; b < traj->bodies; ++b) {
      const double mass =
          scene.params[ParamId::BodyDensity].value[size_t(b)] *
          unit_mass_properties(scene.bodies[size_t(b)], body_shape_size(scene.bodies[size_t(b)], scene.params, b))
              .volume;
      for (int k = 0; k < 3; ++k)
        (&p.x)[k] += mass *
                     (traj->body_x[(size_t(t) * traj->bodies + b) * 3 + k] -
                      traj->body_x[(size_t(t - 1) * traj->bodies + b) * 3 + k]) /
                     dt;
    }
    return p;
  };
  const Vec3<double> before = momentum(1), after = momentum(traj->steps);
  CHECK(length(after - before) < 1e-9 * length(before));
  // The ball met the rope: it lost speed along x to it.
  const double ball_vx =
      (traj->body_x[(size_t(traj->steps) * 2 + 1) * 3] - traj->body_x[(size_t(traj->steps - 1) * 2 + 1) * 3]) / dt;
  CHECK(ball_vx < 2.45);
}

// A ball dropped on the floor with a restitution e rises to e^2 of its drop, and every
// contact through a restitution has its gradients: particles, bodies and pairs.
TEST_CASE("restitution: a dropped ball rebounds to e^2 of its height") {
  for (double e : {0.5, 0.8}) {
    CAPTURE(e);
    Scene scene;
    scene.settings.dt = 2e-4;
    scene.settings.steps = 6000;
    scene.bodies = {test::rigid_body(BodyShape::Sphere)};
    scene.colliders = {ColliderShape{}};
    scene.contact.restitution = true;
    scene.contact.damp_approach_only = false;
    shape_parameters(scene);
    test::set_sizes(scene, {{0.05, 0, 0}});
    scene.params[ParamId::BodyPosition].value = {0.0, 1.05, 0.0};  // 1 m above touching
    scene.params[ParamId::ContactStiffness].value = {1e5};
    scene.params[ParamId::ContactRestitution].value = {e};
    REQUIRE(check_scene(scene).ok());
    Result<Trajectory> traj = cpu_simulator(scene, 1)->trajectory(scene.params);
    REQUIRE(traj.ok());
    // The highest point after the first bounce (after the ball has come down once).
    int t = 1;
    while (t < traj->steps && traj->body_x[size_t(t) * 3 + 1] > 0.05) ++t;
    double apex = 0;
    for (; t <= traj->steps; ++t) apex = std::max(apex, traj->body_x[size_t(t) * 3 + 1] - 0.05);
    INFO("rebound " << apex << " m from 1 m");
    CHECK(apex == doctest::Approx(e * e).epsilon(0.03));
  }
}

TEST_CASE("restitution: gradients through every kind of contact match finite differences") {
  Scene bodies = test::make_body_collision_scene(0.004);
  Scene particles = test::make_particle_body_scene(0.003);
  for (Scene* scene : {&bodies, &particles}) {
    scene->contact.restitution = true;
    scene->params[ParamId::ContactRestitution].value = {0.7};
    scene->colliders = {ColliderShape{}};  // and a floor the rope's end reaches
    scene->colliders[0].offset = scene == &particles ? 0.7 : -0.5;
    check_every_entry(*scene,
                      {ParamId::ContactRestitution, ParamId::ContactStiffness, ParamId::BodyDensity, ParamId::Mass,
                       ParamId::BodyVelocity, ParamId::InitialVelocity, ParamId::BodyRadius, ParamId::BodyHalfExtents,
                       ParamId::BodyHalfLength},
                      8);
  }
}
