// The projection grounds (DiffTaichi's advance_no_toi and advance_toi,
// families/ground/ground_projection.h): a dropped spring pair against the rules written out here;
// one step's gradients in each case (stopped or landing, free) against central
// differences; a small actuated robot standing on each, its gradients against central
// differences; and the scene file's "model" key.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "nudge/scene.h"
#include "nudge/simulator.h"
#include "gradient_outcome.h"

using namespace nudge;

namespace {

constexpr double kHeight = 0.1;

// Each test case runs once per projection ground (doctest's subcases).
#define GENERATE_CONTACT()                                                   \
  [] {                                                                       \
    GroundContact chosen = GroundContact::Projection;                        \
    SUBCASE("without time of impact") {}                                     \
    SUBCASE("with time of impact") { chosen = GroundContact::TimeOfImpact; } \
    return chosen;                                                           \
  }()

Scene projection_scene(int particles, int steps, double dt, GroundContact contact = GroundContact::Projection) {
  Scene scene;
  scene.settings.dt = dt;
  scene.settings.steps = steps;
  scene.settings.ground.enabled = true;
  scene.settings.ground.contact = contact;
  scene.settings.ground.height = kHeight;
  scene.pinned.assign(size_t(particles), 0);
  return scene;
}

// Two particles on a spring dropped onto the ground, with drag; the spring's length
// taken as |d| + 1e-3 (springs.length_offset, DiffTaichi's + 1e-4, larger).
Scene dropped_pair(GroundContact contact) {
  Scene scene = projection_scene(2, 200, 4e-3, contact);
  scene.spring_a = {0};
  scene.spring_b = {1};
  scene.spring_length_offset = 1e-3;
  scene.params[ParamId::InitialPosition].value = {0.0, 0.3, 0.0, 0.08, 0.35, 0.0};
  shape_parameters(scene);
  scene.params[ParamId::InitialVelocity].value = {0.3, -0.5, 0.0, 0.1, 0.2, 0.0};
  scene.params[ParamId::Mass].value = {1.0, 0.7};
  scene.params[ParamId::Stiffness].value = {300.0};
  scene.params[ParamId::Gravity].value = {0.0, -4.8, 0.0};
  scene.params[ParamId::Drag].value = {0.5};
  return scene;
}

Objective positions_at(int step, const std::vector<int>& particles, const std::vector<double>& target) {
  Objective o;
  o.type = ObjectiveType::Positions;
  o.step = step;
  o.particles = particles;
  o.target = target;
  return o;
}

}  // namespace

TEST_CASE("projection grounds: a dropped spring pair moves as the rule says, and what lands stays") {
  const GroundContact contact = GENERATE_CONTACT();
  const bool toi = contact == GroundContact::TimeOfImpact;
  const Scene scene = dropped_pair(contact);
  REQUIRE(check_scene(scene).ok());
  auto sim = Simulator::create(scene, SimulatorOptions{});
  REQUIRE(sim.ok());
  const Result<Trajectory> traj = (*sim)->trajectory(scene.params);
  REQUIRE(traj.ok());

  // The rules, written out: semi-implicit Euler, then without time of impact v' = 0 for a
  // particle below the plane whose new velocity points down; with it, a particle whose
  // step would end below the plane moving down stops where its path meets the plane.
  const ParameterSet& p = scene.params;
  std::vector<double> x = p[ParamId::InitialPosition].value, v = p[ParamId::InitialVelocity].value;
  const double dt = scene.settings.dt, k = p[ParamId::Stiffness].value[0], rest = p[ParamId::RestLength].value[0];
  const double drag = p[ParamId::Drag].value[0];
  double worst = 0;
  int stopped_steps = 0;
  for (int t = 0; t < scene.settings.steps; ++t) {
    const double d[3] = {x[3] - x[0], x[4] - x[1], x[5] - x[2]};
    const double length = std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]) + scene.spring_length_offset;
    std::vector<double> vn(6), xn(6);
    for (int i = 0; i < 2; ++i) {
      const double m = p[ParamId::Mass].value[i], sign = i == 0 ? 1.0 : -1.0;
      for (int c = 0; c < 3; ++c) {
        const double f =
            sign * k * (length - rest) * d[c] / length + m * p[ParamId::Gravity].value[c] - drag * v[3 * i + c];
        vn[3 * i + c] = v[3 * i + c] + dt * f / m;
      }
      double step_time = dt;
      if (!toi && x[3 * i + 1] < kHeight && vn[3 * i + 1] < 0) {
        vn[3 * i] = vn[3 * i + 1] = vn[3 * i + 2] = 0.0;
        ++stopped_steps;
      }
      if (toi && x[3 * i + 1] + dt * vn[3 * i + 1] < kHeight && vn[3 * i + 1] < -1e-4) {
        step_time = -(x[3 * i + 1] - kHeight) / vn[3 * i + 1];
        ++stopped_steps;
      }
      for (int c = 0; c < 3; ++c) xn[3 * i + c] = x[3 * i + c] + step_time * vn[3 * i + c];
      if (step_time != dt) vn[3 * i] = vn[3 * i + 1] = vn[3 * i + 2] = 0.0;
    }
    x = xn;
    v = vn;
    for (int c = 0; c < 6; ++c) worst = std::max(worst, std::fabs(x[c] - traj->x[size_t(t + 1) * 6 + c]));
  }
  CHECK(worst < 1e-12);
  CHECK(stopped_steps > 50);  // the pair landed and was held
  for (int i = 0; i < 2; ++i)
    CHECK(traj->x[size_t(scene.settings.steps) * 6 + 3 * i + 1] > (toi ? kHeight - 1e-6 : kHeight - 0.05));
}

TEST_CASE("projection grounds: one step's gradients against central differences, stopped or not") {
  struct Case {
    const char* what;
    GroundContact contact;
    double y, vy;
    bool stopped;
  };
  const GroundContact no_toi = GroundContact::Projection, toi = GroundContact::TimeOfImpact;
  for (const Case c :
       {Case{"below and falling: stopped", no_toi, kHeight - 0.01, -0.5, true},
        Case{"below and rising: free", no_toi, kHeight - 0.01, 0.5, false},
        Case{"above and falling: free", no_toi, kHeight + 0.01, -0.5, false},
        Case{"time of impact: lands within the step", toi, kHeight + 2e-4, -0.5, true},
        Case{"time of impact: below and falling, lifted onto the plane", toi, kHeight - 0.01, -0.5, true},
        Case{"time of impact: above and falling, not reaching it", toi, kHeight + 0.01, -0.5, false},
        Case{"time of impact: below and rising: free", toi, kHeight - 0.01, 0.5, false}}) {
    INFO(std::string(c.what));
    Scene scene = projection_scene(1, 1, 1e-3, c.contact);
    scene.params[ParamId::InitialPosition].value = {0.2, c.y, -0.1};
    shape_parameters(scene);
    scene.params[ParamId::InitialVelocity].value = {0.4, c.vy, 0.1};
    scene.params[ParamId::ExternalForce].value = {0.3, -0.2, 0.1};
    scene.params[ParamId::Drag].value = {3.0};  // large enough for a central difference to resolve in one step
    scene.objectives = {positions_at(1, {0}, {0.5, 0.0, 0.2})};
    Objective velocity;
    velocity.type = ObjectiveType::Velocity;
    velocity.particles = {0};
    velocity.target = {1.0, 0.5, 0.0};
    scene.objectives.push_back(velocity);
    test::check_against_central_differences(scene, {ParamId::InitialPosition, ParamId::InitialVelocity, ParamId::Mass,
                                                    ParamId::ExternalForce, ParamId::Gravity, ParamId::Drag});
    const test::Outcome out = test::run_cpu_gradient(scene, 1);
    if (c.contact == no_toi)
      CHECK((out.params[ParamId::InitialVelocity].grad[0] == 0.0) == c.stopped);  // nothing flows through a stop
    // What the objectives see at step 1 is the landing point on the plane.
    const Result<Trajectory> traj = Simulator::create(scene, SimulatorOptions{}).value()->trajectory(scene.params);
    REQUIRE(traj.ok());
    if (c.contact == toi) CHECK((std::fabs(traj->x[4] - kHeight) < 1e-12) == c.stopped);
  }
}

TEST_CASE("projection grounds: a small actuated robot standing on each; its gradients against central differences") {
  // Two feet pressed 1 mm into the ground (held there by the projection) under a body of
  // two particles; four springs, two of them muscles on their own channels.
  Scene scene = projection_scene(4, 80, 2e-3, GENERATE_CONTACT());
  scene.spring_a = {0, 1, 0, 1, 2, 0};
  scene.spring_b = {2, 3, 3, 2, 3, 1};
  scene.spring_channel = {0, 1, -1, -1, -1, -1};
  scene.actuation = {0.2, 0.2, 0, 0, 0, 0};
  scene.channels = 2;
  scene.params[ParamId::InitialPosition].value = {0.0, kHeight - 1e-3, 0.0, 0.1, kHeight - 1e-3, 0.0,
                                                  0.0, kHeight + 0.1,  0.0, 0.1, kHeight + 0.1,  0.0};
  shape_parameters(scene);
  scene.params[ParamId::Mass].value = {1.0, 1.0, 1.0, 1.0};
  scene.params[ParamId::Stiffness].value = std::vector<double>(6, 2000.0);
  scene.spring_length_offset = 1e-4;  // DiffTaichi's
  scene.params[ParamId::Gravity].value = {0.0, -4.8, 0.0};
  scene.params[ParamId::Drag].value = {0.5};
  std::vector<double>& controls = scene.params[ParamId::Controls].value;
  for (int t = 0; t < 80; ++t) {
    controls[2 * size_t(t)] = 0.5 * std::sin(0.1 * t);
    controls[2 * size_t(t) + 1] = -0.5 * std::sin(0.1 * t);
  }
  scene.objectives = {positions_at(-1, {2, 3}, {0.1, 0.3, 0.0, 0.2, 0.25, 0.0})};
  REQUIRE(check_scene(scene).ok());
  test::check_against_central_differences(
      scene, {ParamId::Controls, ParamId::Stiffness, ParamId::RestLength, ParamId::Drag}, 40);
  test::require_same_bits_for_threads_and_checkpoints(scene);
}

TEST_CASE("projection grounds: the scene file's model key, saved back, and refused with the implicit step") {
  const std::string text = R"({"format": "nudge-scene", "version": 1,
    "simulation": {"dt": 0.004, "steps": 10, "ground": {"model": "projection", "height": 0.1}},
    "particles": {"position": [[0, 0.2, 0]]}})";
  Result<Scene> scene = parse_scene(text, "projection.json");
  REQUIRE(scene.ok());
  CHECK(scene->settings.ground.contact == GroundContact::Projection);

  Result<Scene> bad = parse_scene(std::string(text).replace(text.find("\"projection\""), 12, "\"sticky\""), "bad.json");
  REQUIRE(!bad.ok());
  CHECK(bad.error().message.find(
            "$.simulation.ground.model: found \"sticky\"; expected one of: penalty, projection, time_of_impact") !=
        std::string::npos);
  Result<Scene> toi =
      parse_scene(std::string(text).replace(text.find("\"projection\""), 12, "\"time_of_impact\""), "toi.json");
  REQUIRE(toi.ok());
  CHECK(toi->settings.ground.contact == GroundContact::TimeOfImpact);

  Scene implicit = *scene;
  implicit.settings.integrator = Integrator::ImplicitEuler;
  const Status status = check_scene(implicit);
  REQUIRE(!status.ok());
  CHECK(status.error().message.find("simulation.ground.model") == 0);
}

TEST_CASE("springs.length_offset: read, saved back, and a negative one refused") {
  const std::string text = R"({"format": "nudge-scene", "version": 1,
    "simulation": {"dt": 0.004, "steps": 10},
    "particles": {"position": [[0, 0.2, 0], [0.1, 0.2, 0]]},
    "springs": {"pairs": [[0, 1]], "length_offset": 0.0001}})";
  Result<Scene> scene = parse_scene(text, "offset.json");
  REQUIRE(scene.ok());
  CHECK(scene->spring_length_offset == 0.0001);
  const std::filesystem::path file = std::filesystem::temp_directory_path() / "nudge_length_offset_test.json";
  REQUIRE(save_scene(*scene, file).ok());
  Result<Scene> again = load_scene(file);
  std::filesystem::remove(file);
  REQUIRE(again.ok());
  CHECK(again->spring_length_offset == 0.0001);

  Result<Scene> bad = parse_scene(std::string(text).replace(text.find("0.0001"), 6, "-1"), "bad.json");
  REQUIRE(!bad.ok());
  CHECK(bad.error().message.find("$.springs.length_offset: found -1; expected a length offset >= 0 (m)") !=
        std::string::npos);
}
