// Whole-rollout gradients against central finite differences in double: every
// parameter of a scene that exercises every feature, and every example scene.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "sanitized.h"
#include "nudge/gradcheck.h"
#include "gradient_outcome.h"
#include "test_scenes.h"

using namespace nudge;

namespace {

std::filesystem::path source_dir() {
  if (const char* dir = std::getenv("NUDGE_SOURCE_DIR")) return dir;
  return std::filesystem::path(__FILE__).parent_path().parent_path().parent_path();
}

// absolute: a difference this small passes whatever the entry's size (0: none).
// unverifiable: whether an entry whose finite difference is too uncertain to check
// anything (across a hard contact switch: Warp's contact in softbody_bounce) may pass
// unchecked; at least three quarters of the entries must still be checked and pass.
// relative_step: the largest finite-difference step (0: gradcheck's own). optimised_only:
// only the parameters the scene optimises (else every one).
void require_gradients_match(const Scene& scene, int samples, double tolerance, double noise = kGradCheckNoise,
                             double absolute = 0, bool unverifiable = false, double relative_step = 0,
                             bool optimised_only = false) {
  GradCheckOptions options;
  if (relative_step > 0) options.relative_step = relative_step;
  if (optimised_only)
    for (int p = 0; p < kParamCount; ++p)
      if (scene.params.items[p].optimize) options.parameters.push_back(static_cast<ParamId>(p));
  options.noise = noise;
  options.samples_per_parameter = samples;
  options.tolerance = tolerance;
  Result<GradCheckReport> report = gradient_check(scene, options);
  REQUIRE_MESSAGE(report.ok(), (report.ok() ? "" : report.error().message));
  size_t verified = 0;
  for (const GradCheckEntry& e : report->entries) {
    INFO(scene.name << ": " << param_name(e.param) << "[" << e.index << "] value " << e.value << ", adjoint "
                    << e.adjoint << ", finite difference " << e.finite_difference << ", uncertainty " << e.uncertainty
                    << ", loss " << report->loss);
    const bool skipped = unverifiable && !e.verifiable;
    // An entry so small that its error, carried over a change of the whole value, moves
    // the loss by less than 1e-8 of itself (soft_walker's k_lambda entries of 1e-12,
    // off by 1e-16 after 1000 steps of rounding) tells nothing about the adjoint.
    const double error = std::fabs(e.adjoint - e.finite_difference);
    const bool negligible = error * std::max(std::fabs(e.value), 1e-3) <= 1e-8 * std::fabs(report->loss);
    CHECK((skipped || e.passed || error <= absolute || negligible));
    verified += skipped ? 0 : 1;
  }
  CHECK(report->entries.size() > 0);
  CHECK(4 * verified >= 3 * report->entries.size());
  // What went unchecked, and why, in the test's output.
  MESSAGE(scene.name << ": " << verified << " of " << report->entries.size() << " entries checked, "
                     << report->entries.size() - verified << " unverifiable across a contact switch, "
                     << report->unchecked() << " outside the sample of " << samples << " per parameter");
}

// One whole gradient, every entry finite.
void require_finite_gradient(const Scene& scene) {
  SimulatorOptions options;
  options.device = Device::Cpu;
  const test::Outcome out = test::run_gradient(scene, options);
  for (int p = 0; p < kParamCount; ++p) {
    CAPTURE(param_name(static_cast<ParamId>(p)));
    for (double g : out.params.items[p].grad) CHECK(std::isfinite(g));
  }
}

}  // namespace

TEST_CASE("scene gradient: every parameter of a scene with every feature") {
  // All entries of every parameter (the largest array, controls, has 120).
  require_gradients_match(test::make_feature_scene(60), 1000, 1e-6);
}

TEST_CASE("scene gradient: a free (unpinned) body in contact, over a longer horizon") {
  Scene scene = test::make_feature_scene(150, /*pinned=*/false);
  require_gradients_match(scene, 12, 1e-6);
}

TEST_CASE("scene gradient: a lattice with runs of springs, actuated runs and loose springs") {
  require_gradients_match(test::make_lattice_scene(), 10, 1e-6);
}

TEST_CASE("scene gradient: every example scene through gradcheck") {
  const std::filesystem::path scenes = source_dir() / "scenes";
  int checked = 0;
  for (const auto& entry : std::filesystem::directory_iterator(scenes)) {
    if (entry.path().extension() != ".json") continue;
    CAPTURE(entry.path().string());
    Result<Scene> scene = load_scene(entry.path());
    REQUIRE_MESSAGE(scene.ok(), (scene.ok() ? "" : scene.error().message));
    // An implicit scene's gradients are exact to its solves' tolerances (1e-9 m/s, 1e-10
    // for stiff_cloth_implicit), which its tiniest entries feel (a damping's 2e-11 next
    // to a finite difference of 2.2e-11, both zero to the loss's 0.07 over the step);
    // implicit_euler_test.cpp checks tight solves to 1e-6 and 1e-7 of each gradient's scale,
    // every entry of every parameter the implicit step reads; here an implicit example's
    // optimised parameters are checked (every parameter of stiff_cloth_implicit took 233 s).
    const bool implicit = scene->settings.integrator == Integrator::ImplicitEuler;
    const long long work = (long long)scene->settings.steps *
                           (scene->particle_count() + scene->body_count() + scene->material_points.count());
    // Under the sanitizers, where a rollout costs tens of times more, each example's
    // adjoint runs once for them to watch its memory: the release suite compares it with
    // finite differences (which took this case over 9 minutes here). The long rollouts
    // are left to release.
    if (test::kSanitized) {
      if (work <= 50'000) require_finite_gradient(*scene);
      ++checked;
      continue;
    }
    // Material points step a whole grid each step: diffmpm's 1023 steps of 2976 points take
    // 4 s a rollout, and a gradient check of its every parameter most of an hour. Its
    // gradient is checked against DiffTaichi's (example_scenes_test), the family's against
    // finite differences on smaller scenes (material_point_scene_test, mpm_step_test).
    if (scene->material_points.count() > 0 && work > 200'000) continue;
    // Switches a finite difference can straddle: hard contact with colliders, and the
    // projection grounds, where a changed landing step moves a particle by a jump.
    // Links that strike each other (bat_strike) do so explicitly, and the struck block
    // slides and tips after it: a step that moves the impact by a fraction of a
    // millisecond moves where it ends by a jump. The contact's own gradient is checked
    // entry by entry in link_link_contact_test.
    const bool hard_contact =
        (!scene->colliders.empty() && scene->contact.smoothing == 0) ||
        (scene->settings.ground.enabled && scene->settings.ground.contact != GroundContact::Penalty) ||
        scene->articulations.self_contact;
    // A robot on a free base walks: its feet make and break contact every stride, and a
    // lifting foot's friction passes the kink of max(N, 0) (N < 0 as the damping pulls).
    // Such kinks lie within 1e-4 of many values, where gradcheck's steps from 1e-3 down
    // can straddle one in two steps that agree with each other (quadruped_codesign's
    // link_linear_velocity[2]: 1.9e-5 off at 1e-3 and 1e-4, 2e-8 at 1e-5 and 1e-6), so
    // its steps start at 1e-4.
    bool walks = false;
    for (const ArticulationLink& link : scene->articulations.links)
      walks = walks || (link.joint == ArticulationJoint::Free && !scene->colliders.empty());
    // The longest rollouts (cloth's and cloth_throw's cloths: cloth_throw's 289 particles
    // over 1920 steps took this case 119 s of its 330 here) check the parameters they
    // optimise; their families are checked entry by entry on drape and in their own suites.
    const bool long_rollout = work > 300'000;
    // Material resting on a link (jelly_catapult's ball in its cup): the grid's boundary
    // switches between stopping a node and letting it go as the relative velocity's
    // normal part changes sign, and friction between sticking and sliding, at every node
    // of the resting contact. The loss is rough at a finite difference's scale for what
    // moves the cup against the resting material (link_position[1]: -0.556 at steps of 1e-3 and
    // 1e-5, -0.84 at 1e-7, against an adjoint of -0.553), so such a scene checks the
    // parameters it optimises (its controls, to 3e-9); the coupling's adjoint is checked
    // entry by entry in material_point_link_test.
    const bool material_on_links = scene->material_points.count() > 0 && scene->articulations.link_count() > 0;
    require_gradients_match(*scene, 4, implicit ? 1e-4 : 1e-6, implicit ? 1e-6 : kGradCheckNoise, implicit ? 1e-11 : 0,
                            hard_contact, walks ? 1e-4 : 0, implicit || long_rollout || material_on_links);
    ++checked;
  }
  CHECK(checked >= 5);
}

TEST_CASE("gradcheck: chosen parameters only, with progress and cancellation") {
  const Scene scene = test::make_feature_scene(40);
  GradCheckOptions all;
  all.samples_per_parameter = 3;
  Result<GradCheckReport> everything = gradient_check(scene, all);
  REQUIRE(everything.ok());

  GradCheckOptions some = all;
  some.parameters = {ParamId::Stiffness, ParamId::Gravity};
  std::vector<std::pair<int, int>> calls;
  some.progress = [&](int done, int total) {
    calls.emplace_back(done, total);
    return true;
  };
  Result<GradCheckReport> chosen = gradient_check(scene, some);
  REQUIRE(chosen.ok());
  REQUIRE(!chosen->entries.empty());
  // The same entries as in the full check (the sample does not depend on the choice), and
  // nothing else.
  std::vector<GradCheckEntry> expected;
  for (const GradCheckEntry& e : everything->entries)
    if (e.param == ParamId::Stiffness || e.param == ParamId::Gravity) expected.push_back(e);
  REQUIRE(chosen->entries.size() == expected.size());
  for (size_t k = 0; k < expected.size(); ++k) {
    CHECK(chosen->entries[k].param == expected[k].param);
    CHECK(chosen->entries[k].index == expected[k].index);
    CHECK(chosen->entries[k].adjoint == expected[k].adjoint);
    CHECK(chosen->entries[k].finite_difference == expected[k].finite_difference);
  }
  // Progress from 0 to the total, one call per entry.
  const int total = static_cast<int>(expected.size());
  REQUIRE(calls.size() == expected.size() + 1);
  for (size_t k = 0; k < calls.size(); ++k) {
    CHECK(calls[k].first == static_cast<int>(k));
    CHECK(calls[k].second == total);
  }

  GradCheckOptions cancelled = some;
  int seen = 0;
  cancelled.progress = [&](int done, int) {
    seen = done;
    return done < 2;
  };
  Result<GradCheckReport> stopped = gradient_check(scene, cancelled);
  REQUIRE(!stopped.ok());
  CHECK(stopped.error().message.find("cancelled") != std::string::npos);
  CHECK(seen == 2);
}
