// Rigid bodies in whole rollouts: every parameter's gradient against central
// differences (poses, velocities, densities, contact, gravity), the same bits for any
// thread count and for stored or checkpointed states, and bodies that come to rest
// where statics says.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>

#include "nudge/gradcheck.h"
#include "nudge/simulator.h"
#include "cpu_simulator.h"
#include "test_scenes.h"

using namespace nudge;

using test::check_same_bits;

using test::cpu_simulator;

TEST_CASE("bodies: whole rollouts' gradients match finite differences, smooth and sharp contact") {
  for (double smoothing : {0.005, 0.0}) {
    CAPTURE(smoothing);
    const Scene scene = test::make_body_scene(smoothing);
    REQUIRE(check_scene(scene).ok());
    GradCheckOptions options;
    options.samples_per_parameter = 100;
    options.parameters = {ParamId::BodyPosition,        ParamId::BodyOrientation, ParamId::BodyVelocity,
                          ParamId::BodyAngularVelocity, ParamId::BodyDensity,     ParamId::ContactStiffness,
                          ParamId::ContactDamping,      ParamId::ContactFriction, ParamId::Gravity,
                          ParamId::InitialVelocity,     ParamId::BodyRadius,      ParamId::BodyHalfExtents,
                          ParamId::BodyHalfLength};
    Result<GradCheckReport> report = gradient_check(scene, options);
    REQUIRE_MESSAGE(report.ok(), (report.ok() ? "" : report.error().message));
    int nonzero = 0;
    for (const GradCheckEntry& e : report->entries) {
      INFO(param_name(e.param) << "[" << e.index << "] adjoint " << e.adjoint << ", finite difference "
                               << e.finite_difference << ", uncertainty " << e.uncertainty);
      CHECK(e.passed);
      nonzero += e.adjoint != 0.0;
    }
    CHECK(report->entries.size() == 3 * 3 + 12 + 9 + 9 + 3 + 1 + 1 + 1 + 3 + 3 + 3 + 9 + 3);
    CHECK(nonzero >= 40);  // the motion depends on nearly everything
  }
}

TEST_CASE("bodies: the same bits on 1, 2 and 8 threads, stored or checkpointed") {
  check_same_bits(test::make_body_scene(0.005, 120));
}

TEST_CASE("bodies: a box and a capsule dropped on the floor come to rest lying flat") {
  Scene scene;
  scene.settings.dt = 1e-3;
  scene.settings.steps = 3000;
  scene.bodies = {test::rigid_body(BodyShape::Box), test::rigid_body(BodyShape::Capsule)};
  shape_parameters(scene);
  test::set_test_sizes(scene);
  scene.params[ParamId::BodyPosition].value = {0.0, 0.3, 0.0, 1.0, 0.3, 0.0};
  // Both tilted a little and spinning: they must settle on a face and on their side.
  scene.params[ParamId::BodyOrientation].value = {0.05, 0.0, 0.03, 1.0, 0.0, 0.0, 0.7, 0.72};
  scene.params[ParamId::BodyAngularVelocity].value = {0.5, 1.0, 0.0, 0.0, 0.3, 0.0};
  // Damping near half the critical value of a body of ~12 kg on its contact points.
  scene.params[ParamId::ContactStiffness].value = {5e4};
  scene.params[ParamId::ContactDamping].value = {600.0};
  scene.params[ParamId::ContactFriction].value = {0.8};
  scene.contact.damp_approach_only = false;
  scene.colliders = {ColliderShape{}};
  REQUIRE(check_scene(scene).ok());
  Result<Trajectory> traj = cpu_simulator(scene, 1)->trajectory(scene.params);
  REQUIRE_MESSAGE(traj.ok(), (traj.ok() ? "" : traj.error().message));
  REQUIRE(traj->bodies == 2);
  const size_t last = size_t(traj->steps) * 2;
  // The box lies on its largest face (its y half extent, 0.08), the capsule on its side
  // (its radius, 0.1): each sinks by about its weight over the stiffness of the contacts.
  CHECK(traj->body_x[last * 3 + 1] == doctest::Approx(0.08).epsilon(0.05));
  CHECK(traj->body_x[(last + 1) * 3 + 1] == doctest::Approx(0.1).epsilon(0.05));
  // At rest: a second later neither has sunk or risen, and the box has barely crept (the
  // regularised friction lets it slip at up to friction_smoothing; a capsule on its side
  // may roll on, which costs no friction).
  Scene longer = scene;
  longer.settings.steps = 4000;
  shape_parameters(longer);
  Result<Trajectory> later = cpu_simulator(longer, 1)->trajectory(longer.params);
  REQUIRE(later.ok());
  const auto moved = [&](int b, int k) {
    return std::fabs(later->body_x[size_t(later->steps) * 6 + 3 * b + k] - traj->body_x[last * 3 + 3 * b + k]);
  };
  CHECK(moved(0, 1) < 1e-4);
  CHECK(moved(1, 1) < 1e-4);
  CHECK(std::hypot(moved(0, 0), moved(0, 2)) < 5e-3);
}
