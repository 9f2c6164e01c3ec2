// Live play (nudge/live_simulation.h): its steps are the rollout's to the last bit, a
// continuation from any frame goes on as the rollout did, a pull and a held channel do
// what they say, and the contacts it reports carry the weight of what rests on them.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <memory>

#include "cpu_simulator.h"
#include "implicit_test_scenes.h"
#include "nudge/bodies.h"
#include "nudge/live_simulation.h"
#include "nudge/quat.h"
#include "nudge/vec3.h"
#include "nudge/scene.h"
#include "test_scenes.h"

using namespace nudge;
using nudge::test::cpu_simulator;

namespace {

std::unique_ptr<LiveSimulation> live_of(const Scene& scene, const ParameterSet* params = nullptr) {
  Result<std::unique_ptr<LiveSimulation>> live = LiveSimulation::create(scene, params);
  REQUIRE_MESSAGE(live.ok(), (live.ok() ? "" : live.error().message));
  return std::move(live.value());
}

Trajectory rollout_of(const Scene& scene, const ParameterSet& params) {
  Result<Trajectory> traj = cpu_simulator(scene, 1)->trajectory(params);
  REQUIRE_MESSAGE(traj.ok(), (traj.ok() ? "" : traj.error().message));
  return std::move(traj.value());
}

// How many values of frame t of `traj` differ from the one frame of `one` (bit for bit).
int differing(const Trajectory& traj, int t, const Trajectory& one) {
  int count = 0;
  const auto compare = [&](const std::vector<double>& all, const std::vector<double>& frame) {
    REQUIRE(all.size() == frame.size() * size_t(traj.steps + 1));
    for (size_t k = 0; k < frame.size(); ++k) count += all[size_t(t) * frame.size() + k] != frame[k];
  };
  compare(traj.x, one.x);
  compare(traj.v, one.v);
  compare(traj.body_x, one.body_x);
  compare(traj.body_q, one.body_q);
  compare(traj.body_v, one.body_v);
  compare(traj.body_w, one.body_w);
  return count;
}

// The feature scene's four particles alone, free, with no external force: they fall.
Scene free_particles() {
  Scene scene = test::make_feature_scene(60, false);
  scene.spring_a.clear(), scene.spring_b.clear(), scene.spring_channel.clear(), scene.actuation.clear();
  scene.channels = 0;
  scene.objectives.clear();
  shape_parameters(scene);
  scene.params[ParamId::ExternalForce].value.assign(12, 0.0);
  return scene;
}

Vec3<double> particle_x(const Trajectory& one, int i) {
  return {one.x[3 * size_t(i)], one.x[3 * size_t(i) + 1], one.x[3 * size_t(i) + 2]};
}

}  // namespace

TEST_CASE("live play: step by step, the rollout's states to the last bit, in every family") {
  const std::vector<Scene> scenes = {test::make_feature_scene(60),        test::make_controlled_scene(60),
                                     test::make_body_scene(0.004, 80),    test::make_body_collision_scene(0.004, 80),
                                     test::make_joint_scene(80),          test::make_particle_body_scene(0.004, 80),
                                     test::make_triangle_sheet(4, 4, 60), test::make_tet_block(2, 1, 1, 60),
                                     test::make_implicit_sheet(30)};
  for (const Scene& scene : scenes) {
    CAPTURE(scene.name);
    const Trajectory traj = rollout_of(scene, scene.params);
    std::unique_ptr<LiveSimulation> live = live_of(scene);
    CHECK(differing(traj, 0, live->state()) == 0);
    for (int t = 1; t <= traj.steps; ++t) {
      REQUIRE(live->step().ok());
      REQUIRE(live->step_index() == t);
      if (differing(traj, t, live->state()) != 0) FAIL("step " << t << " differs from the rollout's");
    }
    // Past the last step it goes on, the per-step inputs holding their last row.
    for (int t = 0; t < 20; ++t) REQUIRE(live->step().ok());
    CHECK(live->step_index() == traj.steps + 20);
    CHECK(live->time() == doctest::Approx((traj.steps + 20) * scene.settings.dt));
  }
}

TEST_CASE("live play: past the end, the per-step tables hold their last row and a controller's clock runs on") {
  // The same as a longer rollout whose extra control rows repeat the last one.
  const Scene scene = test::make_controlled_scene(60);
  Scene longer = scene;
  longer.settings.steps = 90;
  shape_parameters(longer);
  std::vector<double>& u = longer.params[ParamId::Controls].value;
  const std::vector<double>& u0 = scene.params[ParamId::Controls].value;
  const size_t channels = size_t(scene.channels);
  for (size_t t = 0; t < 90; ++t)
    for (size_t c = 0; c < channels; ++c) u[t * channels + c] = u0[std::min<size_t>(t, 59) * channels + c];
  longer.params[ParamId::ControllerWeights].value = scene.params[ParamId::ControllerWeights].value;
  const Trajectory expected = rollout_of(longer, longer.params);
  std::unique_ptr<LiveSimulation> live = live_of(scene);
  for (int t = 1; t <= 90; ++t) {
    REQUIRE(live->step().ok());
    if (differing(expected, t, live->state()) != 0) FAIL("step " << t << " differs from the longer rollout's");
  }
}

TEST_CASE("live play: from any frame of a motion it goes on as the rollout did") {
  for (const Scene& scene : {test::make_body_scene(0.004, 80), test::make_controlled_scene(60)}) {
    CAPTURE(scene.name);
    const Trajectory traj = rollout_of(scene, scene.params);
    std::unique_ptr<LiveSimulation> live = live_of(scene);
    const int from = traj.steps / 3;
    REQUIRE(live->start_from(traj, from).ok());
    CHECK(live->step_index() == from);
    CHECK(differing(traj, from, live->state()) == 0);
    for (int t = from + 1; t <= traj.steps; ++t) {
      REQUIRE(live->step().ok());
      if (differing(traj, t, live->state()) != 0) FAIL("step " << t << " differs from the rollout's");
    }
  }
}

TEST_CASE("live play: a held channel is the controls parameter set to that value") {
  const Scene scene = test::make_feature_scene(60);
  ParameterSet held = scene.params;
  for (int t = 0; t < scene.settings.steps; ++t) held[ParamId::Controls].value[2 * size_t(t) + 1] = -0.7;
  const Trajectory expected = rollout_of(scene, held);
  std::unique_ptr<LiveSimulation> live = live_of(scene);
  REQUIRE(live->set_control(1, -0.7).ok());
  for (int t = 1; t <= scene.settings.steps; ++t) {
    REQUIRE(live->step().ok());
    if (differing(expected, t, live->state()) != 0) FAIL("step " << t << " differs");
  }
  // Let go: the channel follows the scene again.
  REQUIRE(live->start_from(rollout_of(scene, scene.params), 0).ok());
  REQUIRE(live->set_control(1, std::nullopt).ok());
  const Trajectory plain = rollout_of(scene, scene.params);
  for (int t = 1; t <= 10; ++t) REQUIRE(live->step().ok());
  CHECK(differing(plain, 10, live->state()) == 0);
}

TEST_CASE("live play: a pulled particle hangs below the cursor by g / k, the spring's stretch") {
  Scene scene = free_particles();
  scene.params[ParamId::Drag].value = {0.0};
  std::unique_ptr<LiveSimulation> live = live_of(scene);
  Pull pull;
  pull.index = 2;
  pull.target = {0.2, 0.6, 0.1};
  pull.frequency = 3;
  REQUIRE(live->set_pull(pull).ok());
  for (int t = 0; t < 3000; ++t) REQUIRE(live->step().ok());  // 6 s: about 18 periods, critically damped
  const double omega = 2 * 3.14159265358979 * 3;
  const Vec3<double> x = particle_x(live->state(), 2);
  CHECK(x.x == doctest::Approx(0.2).epsilon(1e-6));
  CHECK(x.y == doctest::Approx(0.6 - 9.81 / (omega * omega)).epsilon(1e-6));
  CHECK(x.z == doctest::Approx(0.1).epsilon(1e-6));
  // Let go: it falls.
  REQUIRE(live->set_pull(std::nullopt).ok());
  for (int t = 0; t < 50; ++t) REQUIRE(live->step().ok());
  CHECK(particle_x(live->state(), 2).y < x.y - 0.01);
}

TEST_CASE("live play: a body pulled off its centre turns the way r x F says; at its centre it only moves") {
  Scene scene = test::make_body_collision_scene(0.004, 80, true);  // two spheres in free space
  std::unique_ptr<LiveSimulation> live = live_of(scene);
  const Trajectory start = live->state();
  const double w0[3] = {start.body_w[0], start.body_w[1], start.body_w[2]};
  Pull pull;
  pull.kind = Pull::Kind::Body;
  pull.index = 0;
  pull.offset = {0.0, 0.1, 0.0};  // above the centre, in the body's frame
  const double* q = &start.body_q[0];
  const Vec3<double> r = rotate(Quat<double>{q[0], q[1], q[2], q[3]}, Vec3<double>{0, 0.1, 0});
  const Vec3<double> grabbed = Vec3<double>{start.body_x[0], start.body_x[1], start.body_x[2]} + r;
  pull.target = {grabbed.x + 1.0, grabbed.y, grabbed.z};  // pulled along +x
  REQUIRE(live->set_pull(pull).ok());
  REQUIRE(live->step().ok());
  const Trajectory& after = live->state();
  // r x F with F along +x: along cross(r, x); the spin changes that way.
  const Vec3<double> expected = cross(r, Vec3<double>{1, 0, 0});
  const Vec3<double> dw{after.body_w[0] - w0[0], after.body_w[1] - w0[1], after.body_w[2] - w0[2]};
  CHECK(dot(dw, expected) > 0);
  CHECK(after.body_v[0] > start.body_v[0]);

  // At the centre: the spin is untouched by the pull.
  std::unique_ptr<LiveSimulation> free_run = live_of(scene);
  std::unique_ptr<LiveSimulation> pulled = live_of(scene);
  pull.offset = {0, 0, 0};
  REQUIRE(pulled->set_pull(pull).ok());
  REQUIRE(free_run->step().ok());
  REQUIRE(pulled->step().ok());
  for (int k = 0; k < 3; ++k) CHECK(pulled->state().body_w[size_t(k)] == free_run->state().body_w[size_t(k)]);
  CHECK(pulled->state().body_v[0] > free_run->state().body_v[0]);
}

TEST_CASE("live play: what rests on the ground or a collider is carried by its contacts") {
  SUBCASE("a particle on the penalty ground") {
    const Scene scene = free_particles();
    std::unique_ptr<LiveSimulation> live = live_of(scene);
    // 30 s: all four come to rest (the soft ground damps their bounce at about 0.8 / s).
    for (int t = 0; t < 15000; ++t) REQUIRE(live->step().ok());
    const std::vector<Contact> contacts = live->contacts();
    REQUIRE(contacts.size() == 4);
    for (const Contact& c : contacts) {
      CAPTURE(c.a);
      CHECK(c.kind == Contact::Kind::ParticleGround);
      CHECK(c.point[1] == 0.0);
      const double weight = scene.params[ParamId::Mass].value[size_t(c.a)] * 9.81;
      CHECK(c.force[1] == doctest::Approx(weight).epsilon(1e-3));
    }
  }
  // Sharp contact: every force is in a reported contact, so the balance holds to rounding.
  // Smooth: beyond five switch widths the law still pushes a little, under 0.2% of the weight.
  for (const double smoothing : {0.0, 0.004}) {
    CAPTURE(smoothing);
    const double tolerance = smoothing == 0 ? 1e-9 : 2e-3;
    Scene scene = test::make_body_scene(smoothing, 150);
    scene.params[ParamId::BodyVelocity].value.assign(9, 0.0);
    scene.params[ParamId::BodyAngularVelocity].value.assign(9, 0.0);
    std::unique_ptr<LiveSimulation> live = live_of(scene);
    for (int t = 0; t < 2500; ++t) REQUIRE(live->step().ok());
    // Whatever still moves, the contacts' forces (with the reactions of those on other
    // bodies and particles) and gravity give each body its acceleration: sum of forces =
    // m dv/dt, read from one more step.
    const std::vector<Contact> contacts = live->contacts();
    CHECK(!contacts.empty());
    const Trajectory before = live->state();
    REQUIRE(live->step().ok());
    const Trajectory& after = live->state();
    for (int b = 0; b < scene.body_count(); ++b) {
      CAPTURE(b);
      Vec3<double> sum{0, 0, 0};
      for (const Contact& c : contacts) {
        const Vec3<double> f{c.force[0], c.force[1], c.force[2]};
        const bool body_a = c.kind == Contact::Kind::BodyCollider || c.kind == Contact::Kind::BodyBody;
        const bool body_b = c.kind == Contact::Kind::BodyBody || c.kind == Contact::Kind::ParticleBody;
        if (body_a && c.a == b) sum += f;
        if (body_b && c.b == b) sum -= f;  // the reaction
        CHECK(c.depth > -5 * smoothing);
      }
      const double mass =
          scene.params[ParamId::BodyDensity].value[size_t(b)] *
          unit_mass_properties(scene.bodies[size_t(b)], body_shape_size(scene.bodies[size_t(b)], scene.params, b))
              .volume;
      for (int k = 0; k < 3; ++k) {
        const double accel = (after.body_v[3 * size_t(b) + k] - before.body_v[3 * size_t(b) + k]) / scene.settings.dt;
        const double g = k == 1 ? -9.81 : 0.0;
        CHECK(sum.x * (k == 0) + sum.y * (k == 1) + sum.z * (k == 2) + mass * g ==
              doctest::Approx(mass * accel).epsilon(tolerance).scale(mass * 9.81));
      }
    }
  }
}

TEST_CASE("live play: bad requests are errors that change nothing") {
  const Scene scene = test::make_feature_scene(60);
  std::unique_ptr<LiveSimulation> live = live_of(scene);
  Status bad = live->set_control(2, 1.0);
  REQUIRE(!bad.ok());
  CHECK(bad.error().message.find("no control channel 2") != std::string::npos);
  CHECK(!live->set_control(0, std::nan("")).ok());
  Pull pull;
  pull.index = 4;
  bad = live->set_pull(pull);
  REQUIRE(!bad.ok());
  CHECK(bad.error().message.find("no particle 4") != std::string::npos);
  const Trajectory other = rollout_of(test::make_body_scene(0.004, 20), test::make_body_scene(0.004, 20).params);
  bad = live->start_from(other, 3);
  REQUIRE(!bad.ok());
  CHECK(bad.error().message.find("particles") != std::string::npos);
  const Trajectory own = rollout_of(scene, scene.params);
  CHECK(!live->start_from(own, own.steps + 1).ok());
  CHECK(live->step_index() == 0);
  CHECK(differing(own, 0, live->state()) == 0);
}
