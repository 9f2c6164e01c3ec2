// The triangle family (cloth membranes with drag and lift in a wind) in the rollout: a
// rollout against a plain reference integrator written here, the same bits for any
// thread count and with checkpoints, and every new parameter's gradient against central
// differences.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "families/triangles/triangle_membrane.h"
#include "nudge/gradcheck.h"
#include "nudge/scene.h"
#include "nudge/simulator.h"
#include "gradient_outcome.h"
#include "test_scenes.h"

using namespace nudge;

namespace {

// Semi-implicit Euler with gravity and the triangles' forces (the kernel of
// families/triangles/triangle_membrane.h, checked against Warp in its own test), scattered per
// triangle: the plain integrator the family must reproduce. Returns every state's x.
std::vector<double> reference_positions(const Scene& scene) {
  const int n = scene.particle_count(), tri = scene.triangle_count();
  const ParameterSet& p = scene.params;
  const std::vector<double>& m = p[ParamId::Mass].value;
  std::vector<Vec3<double>> x(n), v(n);
  for (int i = 0; i < n; ++i) {
    const double* xi = &p[ParamId::InitialPosition].value[3 * i];
    const double* vi = &p[ParamId::InitialVelocity].value[3 * i];
    x[i] = {xi[0], xi[1], xi[2]};
    v[i] = scene.pinned[i] ? Vec3<double>{0, 0, 0} : Vec3<double>{vi[0], vi[1], vi[2]};
  }
  std::vector<TriangleRest<double>> rest(tri);
  for (int t = 0; t < tri; ++t) {
    const int* c = &scene.triangles[3 * t];
    rest[t] = triangle_rest(x[c[0]], x[c[1]], x[c[2]]);
  }
  const Vec3<double> g{p[ParamId::Gravity].value[0], p[ParamId::Gravity].value[1], p[ParamId::Gravity].value[2]};
  const Vec3<double> wind{p[ParamId::Wind].value[0], p[ParamId::Wind].value[1], p[ParamId::Wind].value[2]};
  const double dt = scene.settings.dt;
  std::vector<double> out;
  const auto record = [&] {
    for (const Vec3<double>& xi : x) out.insert(out.end(), {xi.x, xi.y, xi.z});
  };
  record();
  for (int step = 0; step < scene.settings.steps; ++step) {
    std::vector<Vec3<double>> f(n, Vec3<double>{0, 0, 0});
    for (int t = 0; t < tri; ++t) {
      const int* c = &scene.triangles[3 * t];
      const TriangleMaterial<double> mat{
          p[ParamId::TriangleStiffness].value[t], p[ParamId::TriangleAreaStiffness].value[t],
          p[ParamId::TriangleDamping].value[t], p[ParamId::TriangleDrag].value[t], p[ParamId::TriangleLift].value[t]};
      const TriangleForces<double> tf =
          triangle_forces(x[c[0]], x[c[1]], x[c[2]], v[c[0]], v[c[1]], v[c[2]], rest[t], mat, wind);
      for (int k = 0; k < 3; ++k) f[c[k]] += tf.f[k];
    }
    for (int i = 0; i < n; ++i) {
      if (scene.pinned[i]) {
        v[i] = {0, 0, 0};
        continue;
      }
      v[i] = v[i] + (f[i] + m[i] * g) * (dt / m[i]);
      x[i] = x[i] + dt * v[i];
    }
    record();
  }
  return out;
}

}  // namespace

TEST_CASE("triangle family: a falling sheet in a wind matches a plain reference integrator") {
  const Scene scene = test::make_triangle_sheet(5, 6, 300, /*ground=*/false);
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
  CHECK(moved > 0.05);   // the sheet moves and deforms
  CHECK(worst < 1e-12);  // the same integrator, summed in another order at most
}

TEST_CASE("triangle family: the same bits on 1 and 4 threads and with checkpoints") {
  const Scene scene = test::make_triangle_sheet(6, 7, 120);
  REQUIRE(check_scene(scene).ok());
  const test::Outcome one = test::require_same_bits_for_threads_and_checkpoints(scene);
  test::check_has_gradient(one, {ParamId::TriangleStiffness, ParamId::TriangleAreaStiffness, ParamId::TriangleDamping,
                                 ParamId::TriangleDrag, ParamId::TriangleLift, ParamId::Wind});
}

TEST_CASE("triangle family: scene gradients against central differences") {
  test::check_against_central_differences(
      test::make_triangle_sheet(),
      {ParamId::TriangleStiffness, ParamId::TriangleAreaStiffness, ParamId::TriangleDamping, ParamId::TriangleDrag,
       ParamId::TriangleLift, ParamId::Wind, ParamId::InitialPosition, ParamId::InitialVelocity, ParamId::Mass});
}

TEST_CASE("triangle family: float32 agrees with float64") {
  test::check_float32_matches_float64(
      test::make_triangle_sheet(6, 7, 120),
      {ParamId::TriangleStiffness, ParamId::TriangleAreaStiffness, ParamId::TriangleDamping, ParamId::TriangleDrag,
       ParamId::TriangleLift, ParamId::Wind, ParamId::InitialVelocity});
}
