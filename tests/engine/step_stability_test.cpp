// The explicit step's stability check: it finds the force whose gain breaks the adjoint,
// says what to change, and is quiet on the example scenes.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "nudge/gradcheck.h"
#include "nudge/scene.h"
#include "nudge/simulator.h"
#include "nudge/step_stability.h"
#include "sanitized.h"

using namespace nudge;

namespace {

// One 1 kg particle dropped from 1 m onto a stiff, damped ground with friction.
Scene dropped_particle(double friction_smoothing) {
  Scene scene;
  scene.settings.dt = 1e-3;
  scene.settings.steps = 1000;
  scene.settings.ground.enabled = true;
  scene.settings.ground.damping = 100.0;
  scene.settings.ground.friction_smoothing = friction_smoothing;
  scene.pinned = {0};
  scene.params[ParamId::InitialPosition].value = {0.0, 1.0, 0.0};
  shape_parameters(scene);
  scene.params[ParamId::InitialVelocity].optimize = true;
  Objective target;
  target.particles = {0};
  target.target = {0.5, 0.0, 0.0};
  scene.objectives = {target};
  REQUIRE(check_scene(scene).ok());
  return scene;
}

Trajectory motion_of(const Scene& scene) {
  Result<std::unique_ptr<Simulator>> sim = Simulator::create(scene);
  REQUIRE_MESSAGE(sim.ok(), (sim.ok() ? "" : sim.error().message));
  Result<Trajectory> traj = (*sim)->trajectory(scene.params);
  REQUIRE(traj.ok());
  return *traj;
}

std::filesystem::path scenes_dir() {
  if (const char* env = std::getenv("NUDGE_SOURCE_DIR"); env != nullptr && *env != '\0')
    return std::filesystem::path(env) / "scenes";
  return std::filesystem::path(__FILE__).parent_path().parent_path().parent_path() / "scenes";
}

bool gradient_checks(const Scene& scene) {
  GradCheckOptions options;
  options.parameters = {ParamId::InitialVelocity};
  const Result<GradCheckReport> report = gradient_check(scene, options);
  REQUIRE(report.ok());
  return report->failed() == 0;
}

}  // namespace

TEST_CASE("step stability: friction too stiff for the step is found where the gradient fails, with its remedy") {
  const Scene stiff = dropped_particle(0.01);  // the engine's default slip speed
  const std::vector<StepStabilityIssue> issues = step_stability_issues(stiff, motion_of(stiff));
  REQUIRE(!issues.empty());
  CHECK(issues[0].force == "ground friction");
  CHECK(issues[0].where.starts_with("particle 0, steps "));
  CHECK(issues[0].growth > 1e6);
  CHECK(issues[0].gain > 10);
  CHECK(issues[0].advice.starts_with("raise simulation.ground.friction_smoothing above "));
  CHECK(issues[0].message().find("gradients through it grow") != std::string::npos);
  CHECK_FALSE(gradient_checks(stiff));  // the check is right: this gradient is wrong

  // Following the advice (a slip speed above what it names) clears both.
  const double advised = std::stod(issues[0].advice.substr(issues[0].advice.find("above ") + 6));
  const Scene calm = dropped_particle(1.2 * advised);
  CHECK(step_stability_issues(calm, motion_of(calm)).empty());
  CHECK(gradient_checks(calm));
}

TEST_CASE("step stability: springs too stiff for the step, and pinned ends count as immovable") {
  // Two 0.1 kg particles on a 1e7 N/m spring at dt 1 ms: dt sqrt(k (1/m + 1/m)) = 14.
  // With one end pinned the other alone moves: dt sqrt(k / m) = 10.
  Scene scene;
  scene.settings.dt = 1e-3;
  scene.settings.steps = 20;
  scene.pinned = {0, 0};
  scene.spring_a = {0};
  scene.spring_b = {1};
  scene.spring_channel = {-1};
  scene.actuation = {0.0};
  scene.params[ParamId::InitialPosition].value = {0, 1, 0, 0.1, 1, 0};
  shape_parameters(scene);
  scene.params[ParamId::Mass].value = {0.1, 0.1};
  scene.params[ParamId::Stiffness].value = {1e7};
  scene.params[ParamId::Gravity].value = {0, 0, 0};
  REQUIRE(check_scene(scene).ok());
  const std::vector<StepStabilityIssue> issues = step_stability_issues(scene, motion_of(scene));
  REQUIRE(!issues.empty());
  CHECK(issues[0].force == "spring stiffness");
  CHECK(issues[0].where == "spring 0");
  CHECK(issues[0].advice.starts_with("lower dt below "));
  CHECK(issues[0].gain == doctest::Approx(std::sqrt(2e7 / 0.1) * 1e-3));
  scene.pinned = {1, 0};
  CHECK(step_stability_issues(scene, motion_of(scene))[0].gain == doctest::Approx(std::sqrt(1e7 / 0.1) * 1e-3));
}

TEST_CASE("step stability: tets too stiff for the step, per particle over its tets") {
  // One corner tet of 0.1 m edges on 0.1 kg particles at rest, k_mu + k_lambda = 2e7 Pa.
  // Corner 0's barycentric gradient is -(1, 1, 1) / h: V k |b|^2 = (h^3 / 6) k 3 / h^2 =
  // k h / 2 = 1e6 N/m, a gain of dt sqrt(2 * 1e6 / 0.1) = 4.5; the other corners' is
  // sqrt(3) smaller, 2.6.
  Scene scene;
  scene.settings.dt = 1e-3;
  scene.settings.steps = 20;
  scene.pinned = {0, 0, 0, 0};
  scene.tets = {0, 1, 2, 3};
  scene.params[ParamId::InitialPosition].value = {0, 1, 0, 0.1, 1, 0, 0, 1.1, 0, 0, 1, 0.1};
  shape_parameters(scene);
  scene.params[ParamId::Mass].value = {0.1, 0.1, 0.1, 0.1};
  scene.params[ParamId::TetMu].value = {1e7};
  scene.params[ParamId::TetLambda].value = {1e7};
  scene.params[ParamId::Gravity].value = {0, 0, 0};
  REQUIRE(check_scene(scene).ok());
  const std::vector<StepStabilityIssue> issues = step_stability_issues(scene, motion_of(scene));
  REQUIRE(!issues.empty());
  CHECK(issues[0].force == "tet stiffness");
  CHECK(issues[0].where == "particle 0, in 1 tets");
  CHECK(issues[0].advice.starts_with("lower dt below "));
  CHECK(issues[0].gain == doctest::Approx(1e-3 * std::sqrt(2e6 / 0.1)));
  // A hundred times softer, the gain is ten times smaller, and nothing is reported.
  scene.params[ParamId::TetMu].value = {1e5};
  scene.params[ParamId::TetLambda].value = {1e5};
  CHECK(step_stability_issues(scene, motion_of(scene)).empty());
}

TEST_CASE("step stability: triangles too stiff for the step, per particle over its triangles") {
  // One right triangle of 0.1 m legs on 0.01 kg particles at rest, ke + ka = 2e6 N/m.
  // Corner 0's barycentric gradient is -(1, 1) / h: A k |b|^2 = (h^2 / 2) k 2 / h^2 = k =
  // 2e6 N/m, a gain of dt sqrt(2 * 2e6 / 0.01) = 20.
  Scene scene;
  scene.settings.dt = 1e-3;
  scene.settings.steps = 6;  // (gain - 1)^6 = 5e7: reported, and still finite
  scene.pinned = {0, 0, 0};
  scene.triangles = {0, 1, 2};
  scene.params[ParamId::InitialPosition].value = {0, 1, 0, 0.1, 1, 0, 0, 1.1, 0};
  shape_parameters(scene);
  scene.params[ParamId::Mass].value = {0.01, 0.01, 0.01};
  scene.params[ParamId::TriangleStiffness].value = {1e6};
  scene.params[ParamId::TriangleAreaStiffness].value = {1e6};
  scene.params[ParamId::Gravity].value = {0, 0, 0};
  REQUIRE(check_scene(scene).ok());
  const std::vector<StepStabilityIssue> issues = step_stability_issues(scene, motion_of(scene));
  REQUIRE(!issues.empty());
  CHECK(issues[0].force == "triangle stiffness");
  CHECK(issues[0].where == "particle 0, in 1 triangles");
  CHECK(issues[0].advice.find("its triangles' stiffness + area stiffness by a factor") != std::string::npos);
  CHECK(issues[0].gain == doctest::Approx(1e-3 * std::sqrt(2 * 2e6 / 0.01)));
  // cloth_throw's 1e4 N/m on 1 kg particles is far below the limit.
  scene.params[ParamId::TriangleStiffness].value = {1e3};
  scene.params[ParamId::TriangleAreaStiffness].value = {1e3};
  CHECK(step_stability_issues(scene, motion_of(scene)).empty());
}

TEST_CASE("step stability: bending edges damped too hard for the step (the drape at a bending damping of 0.002)") {
  Result<Scene> loaded = load_scene(scenes_dir() / "drape.json");
  REQUIRE(loaded.ok());
  Scene scene = *loaded;
  scene.settings.steps = 20;  // it blows up at step 25
  scene.objectives.clear();   // its marker track runs longer
  shape_parameters(scene);
  scene.params[ParamId::BendingDamping].value.assign(size_t(scene.bending_count()), 0.002);
  const std::vector<StepStabilityIssue> issues = step_stability_issues(scene, motion_of(scene));
  REQUIRE(!issues.empty());
  CHECK(issues[0].force == "bending edge damping");
  CHECK(issues[0].where.find(" bending edges") != std::string::npos);
  CHECK(issues[0].gain == doctest::Approx(4.0).epsilon(0.01));
  CHECK(issues[0].advice.find("its bending edges' bending damping by a factor 2") != std::string::npos);
  // A quarter of it runs (tested by simulating it) and is not reported.
  Scene calm = *loaded;
  calm.params[ParamId::BendingDamping].value.assign(size_t(calm.bending_count()), 0.0005);
  CHECK(step_stability_issues(calm, motion_of(calm)).empty());
}

TEST_CASE("step stability: the example scenes are within the step's limits") {
  int scenes = 0;
  for (const auto& entry : std::filesystem::directory_iterator(scenes_dir())) {
    if (entry.path().extension() != ".json") continue;
    const std::string name = entry.path().filename().string();
    CAPTURE(name);
    Result<Scene> loaded = load_scene(entry.path());
    REQUIRE(loaded.ok());
    const Scene& scene = *loaded;
    ++scenes;
    // Under the sanitizers the long rollouts are left to release (every example's whole
    // motion took this suite 99 s there); the short ones still run.
    const long long work =
        (long long)scene.settings.steps * (scene.particle_count() + scene.body_count() + scene.material_points.count() +
                                           scene.articulations.link_count());
    if (test::kSanitized && work > 50'000) continue;
    for (const StepStabilityIssue& issue : step_stability_issues(scene, motion_of(scene))) {
      INFO(issue.message());
      CHECK(false);
    }
  }
  CHECK(scenes >= 14);
}
