// The tet family (stable Neo-Hookean solids, passive or actuated) in the rollout: a block
// falling on the ground against a plain reference integrator written here, the same bits
// for any thread count and with checkpoints, every tet parameter's, the initial state's,
// the masses' and the controls' gradient against central differences, and float32
// against float64.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "families/ground/ground_contact.h"
#include "families/tets/tet_neohookean.h"
#include "nudge/gradcheck.h"
#include "nudge/scene.h"
#include "nudge/simulator.h"
#include "gradient_outcome.h"
#include "test_scenes.h"

using namespace nudge;

namespace {

// Semi-implicit Euler with gravity, the ground and the tets' forces (the kernel of
// families/tets/tet_neohookean.h, checked against Warp in its own test), scattered per tet:
// the plain integrator the family must reproduce. Returns every state's x.
std::vector<double> reference_positions(const Scene& scene) {
  const int n = scene.particle_count(), tets = scene.tet_count(), channels = scene.channels;
  const ParameterSet& p = scene.params;
  const std::vector<double>& m = p[ParamId::Mass].value;
  std::vector<Vec3<double>> x(n), v(n);
  for (int i = 0; i < n; ++i) {
    const double* xi = &p[ParamId::InitialPosition].value[3 * i];
    const double* vi = &p[ParamId::InitialVelocity].value[3 * i];
    x[i] = {xi[0], xi[1], xi[2]};
    v[i] = {vi[0], vi[1], vi[2]};
  }
  std::vector<TetRest<double>> rest(tets);
  for (int e = 0; e < tets; ++e) {
    const int* c = &scene.tets[4 * e];
    rest[e] = tet_rest(x[c[0]], x[c[1]], x[c[2]], x[c[3]]);
    REQUIRE(rest[e].status == TetRestStatus::ok);
  }
  GroundModel<double> ground;
  ground.enabled = scene.settings.ground.enabled;
  ground.height = scene.settings.ground.height;
  ground.stiffness = p[ParamId::GroundStiffness].value[0];
  ground.damping = scene.settings.ground.damping;
  ground.friction = p[ParamId::Friction].value[0];
  ground.contact_smoothing = scene.settings.ground.contact_smoothing;
  ground.friction_smoothing = scene.settings.ground.friction_smoothing;
  const Vec3<double> g{p[ParamId::Gravity].value[0], p[ParamId::Gravity].value[1], p[ParamId::Gravity].value[2]};
  const double dt = scene.settings.dt;
  std::vector<double> out;
  const auto record = [&] {
    for (const Vec3<double>& xi : x) out.insert(out.end(), {xi.x, xi.y, xi.z});
  };
  record();
  for (int step = 0; step < scene.settings.steps; ++step) {
    std::vector<Vec3<double>> f(n, Vec3<double>{0, 0, 0});
    for (int e = 0; e < tets; ++e) {
      const int* c = &scene.tets[4 * e];
      const int channel = scene.tet_channel[e];
      const double activation =
          channel < 0 ? 0.0 : scene.tet_actuation[e] * p[ParamId::Controls].value[size_t(step) * channels + channel];
      const TetParams<double> params{rest[e].rest_inverse,
                                     rest[e].volume,
                                     p[ParamId::TetMu].value[e],
                                     p[ParamId::TetLambda].value[e],
                                     p[ParamId::TetDamping].value[e],
                                     activation};
      const Vec3<double> xe[4] = {x[c[0]], x[c[1]], x[c[2]], x[c[3]]}, ve[4] = {v[c[0]], v[c[1]], v[c[2]], v[c[3]]};
      const TetForces<double> tf = tet_neohookean_forces(xe, ve, params);
      for (int k = 0; k < 4; ++k) f[c[k]] += tf.f[k];
    }
    for (int i = 0; i < n; ++i) {
      Vec3<double> fi = f[i] + m[i] * g;
      if (ground.enabled) fi += contact_force(ground, x[i], v[i]);
      v[i] = v[i] + fi * (dt / m[i]);
      x[i] = x[i] + dt * v[i];
    }
    record();
  }
  return out;
}

// The lowest height any particle reaches over a trajectory's states.
double lowest(const std::vector<double>& x) {
  double y = 1e300;
  for (size_t k = 1; k < x.size(); k += 3) y = std::min(y, x[k]);
  return y;
}

}  // namespace

TEST_CASE("tet family: an actuated block falling on the ground matches a plain reference integrator") {
  const Scene scene = test::make_tet_block(2, 1, 1, 300);
  REQUIRE(check_scene(scene).ok());
  SimulatorOptions options;
  options.device = Device::Cpu;
  options.threads = 2;
  auto sim = Simulator::create(scene, options);
  REQUIRE(sim.ok());
  Result<Trajectory> traj = (*sim)->trajectory(scene.params);
  REQUIRE(traj.ok());
  const std::vector<double> reference = reference_positions(scene);
  REQUIRE(traj->x.size() == reference.size());
  double worst = 0, moved = 0;
  for (size_t k = 0; k < reference.size(); ++k) {
    worst = std::max(worst, std::fabs(traj->x[k] - reference[k]));
    moved = std::max(moved, std::fabs(reference[k] - reference[k % (3 * size_t(scene.particle_count()))]));
  }
  CHECK(moved > 0.02);               // the block moves
  CHECK(lowest(reference) < 0.005);  // and lands (within the contact's smoothing of 5 mm)
  CHECK(worst < 1e-12);              // the same integrator, summed in another order at most
  // Without the tets' forces the block would not hold together: the test can tell.
  Scene loose = scene;
  loose.tets.clear();
  loose.tet_channel.clear();
  loose.tet_actuation.clear();
  shape_parameters(loose);
  auto loose_sim = Simulator::create(loose, options);
  REQUIRE(loose_sim.ok());
  Result<Trajectory> apart = (*loose_sim)->trajectory(loose.params);
  REQUIRE(apart.ok());
  double differ = 0;
  for (size_t k = 0; k < reference.size(); ++k) differ = std::max(differ, std::fabs(apart->x[k] - reference[k]));
  CHECK(differ > 1e-3);
}

TEST_CASE("tet family: the same bits on 1 and 4 threads and with checkpoints") {
  const Scene scene = test::make_tet_block(3, 2, 1, 120);
  REQUIRE(check_scene(scene).ok());
  const test::Outcome one = test::require_same_bits_for_threads_and_checkpoints(scene);
  // Every new parameter, and the controls through the tets alone, have a gradient.
  test::check_has_gradient(one, {ParamId::TetMu, ParamId::TetLambda, ParamId::TetDamping, ParamId::Controls});
}

TEST_CASE("tet family: scene gradients against central differences") {
  // Actuated tets beside actuated springs on the same channels: dL/dcontrols sums both.
  Scene scene = test::make_tet_block(2, 1, 1, 60);
  scene.spring_a = {0, 2};
  scene.spring_b = {7, 9};
  scene.spring_channel = {1, 0};
  scene.actuation = {0.1, 0.15};
  shape_parameters(scene);
  scene.params[ParamId::Stiffness].value = {300, 200};
  test::check_against_central_differences(
      scene, {ParamId::TetMu, ParamId::TetLambda, ParamId::TetDamping, ParamId::Controls, ParamId::InitialPosition,
              ParamId::InitialVelocity, ParamId::Mass});
}

TEST_CASE("tet family: dL/dcontrols holds the tets' share") {
  // The block has no springs: the controls reach the loss only through its actuated tets
  // (the gradcheck above checks the values), and not at all once they are passive.
  const Scene scene = test::make_tet_block(2, 1, 1, 40);
  const test::Outcome out = test::run_cpu_gradient(scene, 2);
  double largest = 0;
  for (double gk : out.params[ParamId::Controls].grad) largest = std::max(largest, std::fabs(gk));
  CHECK(largest > 1e-6);
  Scene passive = scene;
  passive.tet_channel.assign(passive.tet_channel.size(), -1);
  const test::Outcome none = test::run_cpu_gradient(passive, 2);
  for (double gk : none.params[ParamId::Controls].grad) CHECK(gk == 0.0);
}

TEST_CASE("tet family: float32 agrees with float64") {
  test::check_float32_matches_float64(
      test::make_tet_block(3, 2, 1, 120),
      {ParamId::TetMu, ParamId::TetLambda, ParamId::TetDamping, ParamId::Controls, ParamId::InitialVelocity});
}
