// Scenes for the implicit step's tests (implicit_*_test.cpp): a stiff hanging chain of
// springs, and a small sheet of triangles and springs (some actuated) in a wind that
// exercises every parameter the implicit step differentiates.
#pragma once

#include <cmath>
#include <vector>

#include "nudge/scene.h"

namespace nudge::test {

// n particles in a horizontal line 0.1 m apart from a pinned first one, each joined to
// the next two by springs of stiffness k (N/m) and damping 0.05 N s/m, 10 g each,
// falling under gravity into a swing. sqrt(k / m) dt is the explicit step's gain.
inline Scene make_stiff_chain(int n, double k, double dt, int steps, Integrator integrator) {
  Scene scene;
  scene.name = "stiff chain";
  scene.settings.dt = dt;
  scene.settings.steps = steps;
  scene.settings.integrator = integrator;
  scene.pinned.assign(n, 0);
  scene.pinned[0] = 1;
  std::vector<double> x;
  for (int i = 0; i < n; ++i) x.insert(x.end(), {0.1 * i, 1.0, 0.002 * (i % 2)});
  scene.params[ParamId::InitialPosition].value = x;
  for (int i = 0; i + 1 < n; ++i)
    for (int j = i + 1; j <= i + 2 && j < n; ++j) {
      scene.spring_a.push_back(i);
      scene.spring_b.push_back(j);
    }
  shape_parameters(scene);
  scene.params[ParamId::Mass].value.assign(n, 0.01);
  scene.params[ParamId::Stiffness].value.assign(scene.spring_count(), k);
  scene.params[ParamId::Damping].value.assign(scene.spring_count(), 0.05);
  Objective target;
  target.type = ObjectiveType::Target;
  target.particles = {n - 1};
  target.target = {0.3, 0.2, 0.0};
  scene.objectives = {target};
  return scene;
}

// A 3 x 4 sheet of particles (its first corner pinned) with two triangles per cell,
// springs along the cell edges (two of them muscles on one channel) and a stiff
// diagonal, in a wind, with drag, an external force and a soft ground it reaches, at a
// step the springs' stiffness makes too large for the semi-implicit step. Objectives on
// positions and a velocity.
inline Scene make_implicit_sheet(int steps = 30) {
  Scene scene;
  scene.name = "implicit sheet";
  scene.settings.dt = 1e-2;
  scene.settings.steps = steps;
  scene.settings.integrator = Integrator::ImplicitEuler;
  scene.settings.implicit.newton_iterations = 200;
  scene.settings.implicit.newton_tolerance = 1e-13;
  scene.settings.implicit.linear_iterations = 400;
  scene.settings.implicit.linear_tolerance = 1e-13;
  const int rows = 3, cols = 4, n = rows * cols;
  scene.pinned.assign(n, 0);
  scene.pinned[0] = 1;
  std::vector<double> x;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      x.insert(x.end(), {0.1 * c + 0.01 * r * r, 0.5 + 0.01 * c * (r % 2), 0.1 * r + 0.005 * c});
  scene.params[ParamId::InitialPosition].value = x;
  for (int r = 0; r + 1 < rows; ++r)
    for (int c = 0; c + 1 < cols; ++c) {
      const int a = r * cols + c, b = a + 1, d = a + cols, e = d + 1;
      scene.triangles.insert(scene.triangles.end(), {a, b, e, a, e, d});
    }
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      const int a = r * cols + c;
      if (c + 1 < cols) scene.spring_a.push_back(a), scene.spring_b.push_back(a + 1);
      if (r + 1 < rows) scene.spring_a.push_back(a), scene.spring_b.push_back(a + cols);
    }
  scene.spring_a.push_back(0), scene.spring_b.push_back(n - 1);  // the stiff diagonal
  const int s = scene.spring_count();
  scene.spring_channel.assign(s, -1);
  scene.actuation.assign(s, 0.0);
  scene.spring_channel[3] = scene.spring_channel[8] = 0;
  scene.actuation[3] = 0.3, scene.actuation[8] = 0.2;
  scene.channels = 1;
  shape_parameters(scene);
  for (int i = 0; i < n; ++i) scene.params[ParamId::Mass].value[i] = 0.02 + 0.004 * (i % 3);
  for (int k = 0; k < s; ++k) {
    scene.params[ParamId::Stiffness].value[k] = 400 + 50 * (k % 4);
    scene.params[ParamId::Damping].value[k] = 0.05 + 0.01 * (k % 3);
  }
  scene.params[ParamId::Stiffness].value[s - 1] = 3000;
  const int tri = scene.triangle_count();
  for (int t = 0; t < tri; ++t) {
    scene.params[ParamId::TriangleStiffness].value[t] = 200 + 20 * (t % 5);
    scene.params[ParamId::TriangleAreaStiffness].value[t] = 300 + 30 * (t % 3);
    scene.params[ParamId::TriangleDamping].value[t] = 0.1 + 0.05 * (t % 4);
    scene.params[ParamId::TriangleDrag].value[t] = 0.8 + 0.1 * (t % 3);
    scene.params[ParamId::TriangleLift].value[t] = 1.0 + 0.2 * (t % 2);
  }
  std::vector<double>& v = scene.params[ParamId::InitialVelocity].value;
  for (int i = 0; i < n; ++i) v[3 * i] = 0.2 + 0.05 * (i % 3), v[3 * i + 1] = -0.3 + 0.04 * (i % 5), v[3 * i + 2] = 0.1;
  std::vector<double>& u = scene.params[ParamId::Controls].value;  // steps x 1
  for (int t = 0; t < steps; ++t) u[t] = 0.5 * std::sin(0.4 * t);
  scene.params[ParamId::ExternalForce].value[3 * 5 + 2] = 0.05;
  scene.params[ParamId::Wind].value = {1.0, 0.3, -0.6};
  scene.params[ParamId::Drag].value = {0.02};
  // A soft ground (explicit, as contacts are in the implicit step) that the sheet reaches.
  scene.settings.ground.enabled = true;
  scene.settings.ground.height = 0.42;
  scene.settings.ground.damping = 0.1;
  scene.settings.ground.contact_smoothing = 1e-2;
  scene.settings.ground.friction_smoothing = 0.05;
  scene.params[ParamId::GroundStiffness].value = {40.0};
  scene.params[ParamId::Friction].value = {0.3};

  Objective target;
  target.type = ObjectiveType::Target;
  target.particles = {3, 7, 11};
  target.target = {0.3, 0.2, 0.3};
  Objective positions;
  positions.type = ObjectiveType::Positions;
  positions.particles = {5, 10};
  positions.target = {0.1, 0.3, 0.1, 0.2, 0.25, 0.2};
  positions.step = steps / 2;
  Objective speed;
  speed.type = ObjectiveType::Velocity;
  speed.particles = {6, 9};
  speed.target = {0.1, -0.2, 0.0};
  speed.weight = 0.5;
  scene.objectives = {target, positions, speed};
  return scene;
}

}  // namespace nudge::test
