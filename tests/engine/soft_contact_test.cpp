// Soft bodies and cloth meet the world through their particles: a tet block lands on a
// tilted collider box and is struck by a rigid sphere, and a cloth with bending drapes
// over a collider sphere. Their gradients (the elements' materials, the contact's
// parameters, the body's, the initial state) against central differences in double.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "nudge/gradcheck.h"
#include "nudge/scene.h"
#include "nudge/simulator.h"
#include "gradient_outcome.h"
#include "test_scenes.h"

using namespace nudge;

namespace {

void set_particle_contact(Scene& scene, double radius) {
  scene.params[ParamId::ParticleRadius].value.assign(size_t(scene.particle_count()), radius);
  scene.params[ParamId::ContactStiffness].value = {4e3};
  scene.params[ParamId::ContactDamping].value = {2.0};
  scene.params[ParamId::ContactFriction].value = {0.3};
  scene.contact.smoothing = 4e-3;
  scene.contact.friction_smoothing = 0.1;
  scene.contact.damp_approach_only = false;
}

// The tet block of the tet family's tests over a tilted box collider, with a sphere body
// thrown into its side.
Scene make_block_on_box_struck_by_sphere() {
  Scene scene = test::make_tet_block(2, 1, 1, 160, /*ground=*/false, /*actuated=*/false);
  ColliderShape table;
  table.type = ColliderType::Box;
  table.position[1] = -0.2;
  table.orientation[2] = 0.05;  // a small turn about z, normalised below
  table.orientation[3] = 1.0;
  const double len = std::hypot(table.orientation[2], table.orientation[3]);
  table.orientation[2] /= len, table.orientation[3] /= len;
  table.half_extents[0] = 0.6, table.half_extents[1] = 0.2, table.half_extents[2] = 0.6;
  scene.colliders = {table};
  scene.bodies = {test::rigid_body(BodyShape::Sphere)};
  shape_parameters(scene);
  test::set_sizes(scene, {{0.06, 0, 0}});
  scene.params[ParamId::BodyPosition].value = {-0.12, 0.12, 0.05};
  scene.params[ParamId::BodyVelocity].value = {2.5, -0.3, 0.0};
  scene.params[ParamId::BodyAngularVelocity].value = {0.0, 0.0, 2.0};
  scene.params[ParamId::BodyDensity].value = {400.0};
  scene.params[ParamId::Gravity].value = {0.0, -9.81, 0.0};
  set_particle_contact(scene, 0.01);
  Objective body;
  body.type = ObjectiveType::Target;
  body.bodies = {0};
  body.target = {0.1, 0.1, 0.1};
  scene.objectives.push_back(body);
  return scene;
}

// The cloth of the triangle family's tests with bending, falling onto a collider sphere.
Scene make_cloth_over_sphere() {
  Scene scene = test::make_triangle_sheet(5, 5, 200, /*ground=*/false);
  scene.pinned.assign(size_t(scene.particle_count()), 0);
  scene.bending = bending_edges_of_triangles(scene.triangles);
  ColliderShape ball;
  ball.type = ColliderType::Sphere;
  ball.position[0] = 0.2, ball.position[1] = -0.05, ball.position[2] = 0.2;
  ball.radius = 0.12;
  scene.colliders = {ball};
  shape_parameters(scene);
  for (int e = 0; e < scene.bending_count(); ++e)
    scene.params[ParamId::BendingStiffness].value[e] = 0.3 + 0.02 * (e % 3);
  set_particle_contact(scene, 0.01);
  return scene;
}

// The largest particle speed change in one step, to see that a contact happened.
double largest_contact_jolt(const Scene& scene) {
  SimulatorOptions options;
  options.device = Device::Cpu;
  auto sim = Simulator::create(scene, options);
  REQUIRE(sim.ok());
  Result<Trajectory> traj = (*sim)->trajectory(scene.params);
  REQUIRE(traj.ok());
  const size_t per_step = 3 * size_t(scene.particle_count());
  double jolt = 0;
  for (int t = 0; t + 1 <= traj->steps; ++t)
    for (size_t k = 1; k < per_step; k += 3)  // the y components
      jolt = std::max(jolt, traj->v[(t + 1) * per_step + k] - traj->v[t * per_step + k]);
  return jolt;
}

}  // namespace

TEST_CASE(
    "soft contact: a tet block on a collider box, struck by a rigid sphere: gradients against central differences") {
  const Scene scene = make_block_on_box_struck_by_sphere();
  // Gravity alone lowers v_y by g dt = 0.01 m/s a step; contact pushes it up.
  CHECK(largest_contact_jolt(scene) > 0.05);
  test::check_against_central_differences(
      scene,
      {ParamId::TetMu, ParamId::TetLambda, ParamId::TetDamping, ParamId::ContactStiffness, ParamId::ContactFriction,
       ParamId::BodyVelocity, ParamId::BodyDensity, ParamId::InitialVelocity},
      4, 1e-5);
}

TEST_CASE("soft contact: a cloth with bending over a collider sphere: gradients against central differences") {
  const Scene scene = make_cloth_over_sphere();
  CHECK(largest_contact_jolt(scene) > 0.02);
  test::check_against_central_differences(
      scene,
      {ParamId::TriangleStiffness, ParamId::TriangleAreaStiffness, ParamId::BendingStiffness, ParamId::BendingDamping,
       ParamId::ContactStiffness, ParamId::ContactDamping, ParamId::InitialPosition},
      4, 1e-5);
}

TEST_CASE("soft contact: the sphere reaches the block") {
  const Scene scene = make_block_on_box_struck_by_sphere();
  SimulatorOptions options;
  options.device = Device::Cpu;
  auto sim = Simulator::create(scene, options);
  REQUIRE(sim.ok());
  Result<Trajectory> traj = (*sim)->trajectory(scene.params);
  REQUIRE(traj.ok());
  double nearest = 1e9;
  const int n = scene.particle_count();
  for (int t = 0; t <= traj->steps; ++t)
    for (int i = 0; i < n; ++i) {
      const double* x = &traj->x[(size_t(t) * n + i) * 3];
      const double* c = &traj->body_x[size_t(t) * 3];
      nearest = std::min(nearest, std::hypot(x[0] - c[0], x[1] - c[1], x[2] - c[2]));
    }
  CHECK(nearest < 0.065);  // within contact: the sphere's radius plus a particle's is 0.07
}
