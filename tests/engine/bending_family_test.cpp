// The bending family (dihedral bending between neighbouring triangles) in the rollout: a
// rollout against a plain reference integrator written here, the same bits for any
// thread count and with checkpoints, every gradient against central differences, and
// its scene-file section.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "families/bending/dihedral_bending.h"
#include "families/triangles/triangle_membrane.h"
#include "nudge/gradcheck.h"
#include "nudge/scene.h"
#include "nudge/simulator.h"
#include "gradient_outcome.h"
#include "temp_dir.h"
#include "test_scenes.h"

using namespace nudge;

namespace {

// The sheet of the triangle family's tests with a bending edge on every interior edge,
// each with its own stiffness and damping.
Scene make_bending_sheet(int rows = 4, int cols = 4, int steps = 80, bool ground = true) {
  Scene scene = test::make_triangle_sheet(rows, cols, steps, ground);
  scene.bending = bending_edges_of_triangles(scene.triangles);
  shape_parameters(scene);
  for (int e = 0; e < scene.bending_count(); ++e) {
    scene.params[ParamId::BendingStiffness].value[e] = 0.4 + 0.05 * (e % 3);
    scene.params[ParamId::BendingDamping].value[e] = 0.01 + 0.004 * (e % 4);
  }
  return scene;
}

Vec3<double> row3(const std::vector<double>& values, int i) {
  return {values[3 * size_t(i)], values[3 * size_t(i) + 1], values[3 * size_t(i) + 2]};
}

// Semi-implicit Euler with gravity, the triangles' and the bending edges' forces (the
// kernels checked against Warp in their own tests), scattered per element: the plain
// integrator the families must reproduce. No ground. Returns every state's x.
std::vector<double> reference_positions(const Scene& scene) {
  const int n = scene.particle_count(), tri = scene.triangle_count(), edges = scene.bending_count();
  const ParameterSet& p = scene.params;
  const std::vector<double>& m = p[ParamId::Mass].value;
  std::vector<Vec3<double>> x(n), v(n);
  for (int i = 0; i < n; ++i) {
    x[i] = row3(p[ParamId::InitialPosition].value, i);
    v[i] = scene.pinned[i] ? Vec3<double>{0, 0, 0} : row3(p[ParamId::InitialVelocity].value, i);
  }
  std::vector<TriangleRest<double>> rest(tri);
  for (int t = 0; t < tri; ++t) {
    const int* c = &scene.triangles[3 * t];
    rest[t] = triangle_rest(x[c[0]], x[c[1]], x[c[2]]);
  }
  std::vector<double> rest_angle(edges);
  for (int e = 0; e < edges; ++e) {
    const Vec3<double> q[4] = {x[scene.bending[4 * e]], x[scene.bending[4 * e + 1]], x[scene.bending[4 * e + 2]],
                               x[scene.bending[4 * e + 3]]};
    rest_angle[e] = dihedral_rest_angle(q);
  }
  const Vec3<double> g = row3(p[ParamId::Gravity].value, 0), wind = row3(p[ParamId::Wind].value, 0);
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
    for (int e = 0; e < edges; ++e) {
      const int* c = &scene.bending[4 * e];
      const Vec3<double> xe[4] = {x[c[0]], x[c[1]], x[c[2]], x[c[3]]}, ve[4] = {v[c[0]], v[c[1]], v[c[2]], v[c[3]]};
      const BendingForces<double> bf = dihedral_bending_force(
          xe, ve, rest_angle[e], p[ParamId::BendingStiffness].value[e], p[ParamId::BendingDamping].value[e]);
      for (int k = 0; k < 4; ++k) f[c[k]] += bf.f[k];
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

double largest_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double worst = 0;
  for (size_t k = 0; k < a.size(); ++k) worst = std::max(worst, std::fabs(a[k] - b[k]));
  return worst;
}

}  // namespace

TEST_CASE("bending family: a falling sheet matches a plain reference integrator, and bending changes its motion") {
  Scene scene = make_bending_sheet(5, 6, 300, /*ground=*/false);
  REQUIRE(check_scene(scene).ok());
  REQUIRE(scene.bending_count() == 3 * 4 * 5 - 4 - 5);  // interior edges of a 4 x 5 grid of split cells
  SimulatorOptions options;
  options.device = Device::Cpu;
  options.threads = 2;
  const auto positions = [&](const Scene& s) {
    auto sim = Simulator::create(s, options);
    REQUIRE(sim.ok());
    Result<Trajectory> traj = (*sim)->trajectory(s.params);
    REQUIRE(traj.ok());
    return traj->x;
  };
  const std::vector<double> bent = positions(scene), reference = reference_positions(scene);
  REQUIRE(bent.size() == reference.size());
  CHECK(largest_difference(bent, reference) < 1e-12);
  // Without bending the motion differs by far more than rounding: the edges act.
  Scene flat = scene;
  flat.bending.clear();
  shape_parameters(flat);
  CHECK(largest_difference(positions(flat), bent) > 1e-3);
}

TEST_CASE("bending family: the same bits on 1 and 4 threads and with checkpoints") {
  const Scene scene = make_bending_sheet(6, 7, 120);
  REQUIRE(check_scene(scene).ok());
  const test::Outcome one = test::require_same_bits_for_threads_and_checkpoints(scene);
  test::check_has_gradient(one, {ParamId::BendingStiffness, ParamId::BendingDamping});
}

TEST_CASE("bending family: scene gradients against central differences") {
  test::check_against_central_differences(
      make_bending_sheet(), {ParamId::BendingStiffness, ParamId::BendingDamping, ParamId::TriangleStiffness,
                             ParamId::InitialPosition, ParamId::InitialVelocity, ParamId::Mass});
}

TEST_CASE("bending family: float32 agrees with float64") {
  test::check_float32_matches_float64(make_bending_sheet(6, 7, 120),
                                      {ParamId::BendingStiffness, ParamId::BendingDamping, ParamId::InitialVelocity});
}

namespace {

std::string scene_text(const std::string& bending) {
  return R"({"format": "nudge-scene", "version": 1, "simulation": {"dt": 0.001, "steps": 2},
  "particles": {"position": [[0,0,0],[1,0,0],[0,1,0],[1,1,0.2],[2,1,0]]},
  "triangles": {"indices": [[0,1,2],[1,3,2],[1,4,3]]},
  "bending": )" +
         bending + "}";
}

Result<Scene> load_text(const test::TempDir& dir, const std::string& text) {
  return load_scene(dir.write("bending.json", text));
}

}  // namespace

TEST_CASE("bending family: the scene file's section, written back as read") {
  test::TempDir dir("bending");
  Result<Scene> scene =
      load_text(dir, scene_text(R"({"edges": "triangles", "stiffness": [0.5, 0.25], "damping": 0.01})"));
  REQUIRE_MESSAGE(scene.ok(), (scene.ok() ? "" : scene.error().message));
  // Two interior edges: 1-2 (opposite 0 and 3), then 1-3 (opposite 2 and 4).
  CHECK(scene->bending == std::vector<int>{0, 3, 1, 2, 2, 4, 1, 3});
  CHECK(scene->params[ParamId::BendingStiffness].value == std::vector<double>{0.5, 0.25});
  CHECK(scene->params[ParamId::BendingDamping].value == std::vector<double>{0.01, 0.01});
  const auto saved = dir.path / "saved.json";
  REQUIRE(save_scene(*scene, saved).ok());
  std::ifstream in(saved);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(text.find("\"edges\": \"triangles\"") != std::string::npos);
  Result<Scene> again = load_scene(saved);
  REQUIRE(again.ok());
  CHECK(again->bending == scene->bending);
  // Edges of one's own are written as they are.
  Result<Scene> own = load_text(dir, scene_text(R"({"edges": [[0, 3, 2, 1]]})"));
  REQUIRE(own.ok());
  CHECK(own->bending == std::vector<int>{0, 3, 2, 1});
  CHECK(own->params[ParamId::BendingStiffness].value == std::vector<double>{1.0});  // the default
  REQUIRE(save_scene(*own, saved).ok());
  Result<Scene> own_again = load_scene(saved);
  REQUIRE(own_again.ok());
  CHECK(own_again->bending == own->bending);
}

TEST_CASE("bending family: scene-file errors name the place") {
  test::TempDir dir("bending");
  const auto error_of = [&](const std::string& bending) {
    Result<Scene> scene = load_text(dir, scene_text(bending));
    REQUIRE_FALSE(scene.ok());
    return scene.error().message;
  };
  CHECK(error_of(R"({"edges": [[0, 3, 2, 2]]})")
            .find("bending.edges[0]: found particles 0, 3, 2, 2; expected four different particles") !=
        std::string::npos);
  CHECK(error_of(R"({"edges": [[0, 3, 2, 9]]})").find("bending.edges[0][3]") != std::string::npos);
  CHECK(error_of(R"({"edges": [[0, 3, 2]]})").find("expected [o0, o1, v0, v1]: four particle indices") !=
        std::string::npos);
  CHECK(error_of(R"({"edges": "quads"})").find("bending.edges: found \"quads\"; expected \"triangles\"") !=
        std::string::npos);
  CHECK(error_of(R"({"edges": "triangles", "stiffness": -1})").find("bending.stiffness") != std::string::npos);
  CHECK(error_of(R"({"edges": "triangles", "stiffness": [1, 2, 3]})").find("bending.stiffness") != std::string::npos);
  CHECK(error_of(R"({"stiffness": 1})").find("missing key 'edges'") != std::string::npos);
  CHECK(error_of(R"({"edges": "triangles", "bend": 1})").find("unknown key 'bend'") != std::string::npos);
}
