// Small scenes built in code for engine tests, each exercising many features at once.
#pragma once

#include <cmath>
#include <utility>
#include <vector>

#include "nudge/scene.h"

namespace nudge::test {

// Four particles in a tetrahedron dropping onto the ground, with drag, friction, an
// external force, a pinned particle, two actuated springs on two control channels, and
// one objective term of every type.
inline Scene make_feature_scene(int steps = 60, bool pinned = true) {
  Scene scene;
  scene.name = "features";
  scene.settings.dt = 2e-3;
  scene.settings.steps = steps;
  scene.settings.ground.enabled = true;
  scene.settings.ground.damping = 3.0;
  scene.settings.ground.contact_smoothing = 5e-3;
  scene.settings.ground.friction_smoothing = 0.05;
  scene.pinned = {0, 0, 0, static_cast<unsigned char>(pinned ? 1 : 0)};
  scene.spring_a = {0, 0, 0, 1, 1, 2};
  scene.spring_b = {1, 2, 3, 2, 3, 3};
  scene.spring_channel = {0, -1, -1, 1, -1, -1};
  scene.actuation = {0.2, 0, 0, 0.15, 0, 0};
  scene.channels = 2;
  scene.params[ParamId::InitialPosition].value = {0.0, 0.02, 0.0, 0.3, 0.01, 0.05, 0.1, 0.03, 0.28, 0.12, 0.3, 0.1};
  shape_parameters(scene);
  scene.params[ParamId::InitialVelocity].value = {0.5, -0.3, 0.1, 0.2, -0.6, 0.0, -0.1, -0.4, 0.3, 0.0, 0.0, 0.0};
  scene.params[ParamId::Mass].value = {0.3, 0.25, 0.4, 0.35};
  scene.params[ParamId::ExternalForce].value = {0.2, 0.0, -0.1, 0, 0, 0, 0.0, 0.3, 0.0, 0, 0, 0};
  scene.params[ParamId::Stiffness].value = {120, 90, 150, 110, 80, 130};
  scene.params[ParamId::Damping].value = {0.5, 0.3, 0.2, 0.4, 0.1, 0.6};
  scene.params[ParamId::Gravity].value = {0.0, -9.81, 0.0};
  scene.params[ParamId::Drag].value = {0.05};
  scene.params[ParamId::GroundStiffness].value = {3000.0};
  scene.params[ParamId::Friction].value = {0.6};
  std::vector<double>& controls = scene.params[ParamId::Controls].value;
  for (int t = 0; t < steps; ++t) {
    controls[2 * t] = 0.5 * std::sin(0.2 * t);
    controls[2 * t + 1] = 0.4 * std::cos(0.13 * t);
  }

  const auto objective = [](ObjectiveType type) {
    Objective o;
    o.type = type;
    return o;
  };
  Objective target = objective(ObjectiveType::Target);
  target.particles = {0, 1};
  target.target = {0.5, 0.1, 0.0};
  target.step = steps / 2;
  Objective positions = objective(ObjectiveType::Positions);
  positions.particles = {1, 2};
  positions.target = {0.4, 0.0, 0.1, 0.0, 0.05, 0.4};
  Objective velocity = objective(ObjectiveType::Velocity);
  velocity.particles = {2};
  velocity.target = {0.1, 0.0, 0.0};
  velocity.weight = 0.5;
  Objective effort = objective(ObjectiveType::Effort);
  effort.weight = 0.01;
  Objective travel = objective(ObjectiveType::Travel);
  travel.particles = {0, 1, 2};
  travel.weight = 0.3;
  Objective markers = objective(ObjectiveType::Markers);
  markers.steps_per_frame = 10;
  markers.bind = {{7, 1}};
  for (int frame = 0; frame * 10 <= steps; ++frame)
    markers.samples.push_back({frame, 7, {0.3 + 0.01 * frame, 0.0, 0.05}});
  scene.objectives = {target, positions, velocity, effort, travel, markers};
  return scene;
}

// The feature scene (four particles, two actuated springs on two channels, the ground, an
// objective of every type) driven by a three-layer network that reads the clock, every
// particle's state, a target point, contact flags and keyframes of time, through every
// smooth activation.
inline Scene make_controlled_scene(int steps = 60) {
  Scene scene = make_feature_scene(steps);
  Controller& c = scene.controller;
  c.inputs.resize(5);
  c.inputs[0].type = ControllerInputType::Sine;
  c.inputs[0].count = 3;
  c.inputs[0].omega = 20.0;
  c.inputs[1].type = ControllerInputType::State;
  c.inputs[1].position_scale = 2.0;
  c.inputs[1].velocity_scale = 0.5;
  c.inputs[2].type = ControllerInputType::Target;
  c.inputs[2].point[0] = 0.3;
  c.inputs[2].point[1] = 0.1;
  c.inputs[2].point[2] = -0.1;
  c.inputs[3].type = ControllerInputType::Contact;  // smooth flags near the ground
  c.inputs[3].height = 0.02;
  c.inputs[3].width = 0.01;
  c.inputs[4].type = ControllerInputType::Keyframes;  // four keys, the last before the end
  c.inputs[4].count = 4;
  c.inputs[4].duration = 0.8 * steps * scene.settings.dt;
  c.layers = {{6, Activation::Tanh}, {5, Activation::Sigmoid}, {2, Activation::Linear}};
  c.channels = {1, 0};  // crossed, so a mix-up of outputs and channels shows
  c.seed = 7;
  shape_parameters(scene);
  // Larger than the default weights, so the network's outputs matter for the motion.
  for (double& w : scene.params[ParamId::ControllerWeights].value) w *= 3.0;
  return scene;
}

// A standing lattice strip (rows x cols particles in the x-y plane) on the ground: long
// runs of springs (rows, columns, diagonals) that the CPU lays out as runs, some of them
// actuated, plus a few irregular springs that stay loose, so that one gradient check covers
// runs, loose springs and the permutation of per-spring parameters.
inline Scene make_lattice_scene(int rows = 3, int cols = 12, int steps = 80) {
  Scene scene;
  scene.name = "lattice";
  scene.settings.dt = 2e-3;
  scene.settings.steps = steps;
  scene.settings.ground.enabled = true;
  scene.settings.ground.damping = 2.0;
  scene.settings.ground.contact_smoothing = 5e-3;
  scene.settings.ground.friction_smoothing = 0.05;
  const int n = rows * cols;
  const double h = 0.05;
  std::vector<double> x0;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      x0.push_back(c * h + 0.003 * r);
      x0.push_back(0.004 + r * h);
      x0.push_back(0.01 * std::sin(c + 2.0 * r));
    }
  scene.pinned.assign(n, 0);
  scene.pinned[n - 1] = 1;
  auto spring = [&](int a, int b, int channel, double actuation) {
    scene.spring_a.push_back(a);
    scene.spring_b.push_back(b);
    scene.spring_channel.push_back(channel);
    scene.actuation.push_back(actuation);
  };
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      const int i = r * cols + c;
      if (c + 1 < cols) spring(i, i + 1, r == 0 ? c % 2 : -1, r == 0 ? 0.2 : 0.0);  // bottom row: muscles
      if (r + 1 < rows) spring(i, i + cols, -1, 0.0);
      if (r + 1 < rows && c + 1 < cols) spring(i, i + cols + 1, -1, 0.0);
      if (r + 1 < rows && c + 1 < cols) spring(i + 1, i + cols, -1, 0.0);
    }
  spring(0, n - 1, -1, 0.0);  // irregular braces: loose springs
  spring(cols / 2, n - cols, 1, 0.1);
  scene.channels = 2;
  scene.params[ParamId::InitialPosition].value = x0;
  shape_parameters(scene);
  const int s = scene.spring_count();
  for (int i = 0; i < n; ++i) {
    scene.params[ParamId::InitialVelocity].value[3 * i] = 0.2 * std::cos(i);
    scene.params[ParamId::InitialVelocity].value[3 * i + 1] = -0.1;
    scene.params[ParamId::Mass].value[i] = 0.02 + 0.001 * (i % 5);
  }
  for (int k = 0; k < s; ++k) {
    scene.params[ParamId::Stiffness].value[k] = 300 + 10 * (k % 7);
    scene.params[ParamId::Damping].value[k] = 0.05 + 0.01 * (k % 3);
  }
  scene.params[ParamId::ExternalForce].value[3 * 5] = 0.05;
  scene.params[ParamId::Gravity].value = {0.0, -9.81, 0.0};
  scene.params[ParamId::Drag].value = {0.02};
  scene.params[ParamId::GroundStiffness].value = {2000.0};
  scene.params[ParamId::Friction].value = {0.5};
  std::vector<double>& controls = scene.params[ParamId::Controls].value;
  for (int t = 0; t < steps; ++t) {
    controls[2 * t] = 0.4 * std::sin(0.15 * t);
    controls[2 * t + 1] = 0.3 * std::cos(0.11 * t);
  }
  Objective target;
  target.type = ObjectiveType::Target;
  target.particles = {0, cols - 1, n - cols};
  target.target = {0.4, 0.05, 0.02};
  Objective travel;
  travel.type = ObjectiveType::Travel;
  travel.particles = {0, 1, 2};
  travel.weight = 0.2;
  scene.objectives = {target, travel};
  return scene;
}

// Rigid bodies of every shape with colliders (every contact-point kind), sized for
// gradient checks.
inline RigidBody rigid_body(BodyShape shape) {
  RigidBody b;
  b.shape = shape;
  return b;
}

// The test bodies' sizes (radius 0.1, half length 0.15, half extents 0.15, 0.08, 0.12).
inline ShapeSize test_size(BodyShape shape) {
  switch (shape) {
    case BodyShape::Box: return {0.15, 0.08, 0.12};
    case BodyShape::Capsule: return {0.1, 0.15, 0};
    default: return {0.1, 0, 0};
  }
}

// Sets each body's size, after shape_parameters.
inline void set_sizes(Scene& scene, const std::vector<ShapeSize>& sizes) {
  for (int b = 0; b < scene.body_count(); ++b)
    set_body_shape_size(scene.params, scene.bodies[size_t(b)], b, sizes[size_t(b)]);
}

// Gives every body its shape's test_size.
inline void set_test_sizes(Scene& scene) {
  for (int b = 0; b < scene.body_count(); ++b)
    set_body_shape_size(scene.params, scene.bodies[size_t(b)], b, test_size(scene.bodies[size_t(b)].shape));
}

// A sphere, a box and a capsule thrown, spinning, onto a slightly tilted floor and
// against a wall (a box), with one particle flying beside them; the objectives read
// the bodies' positions and velocities.
inline Scene make_body_scene(double smoothing, int steps = 150) {
  Scene scene;
  scene.name = "bodies";
  scene.settings.dt = 2e-3;
  scene.settings.steps = steps;
  scene.bodies = {rigid_body(BodyShape::Sphere), rigid_body(BodyShape::Box), rigid_body(BodyShape::Capsule)};
  scene.pinned = {0};
  scene.params[ParamId::InitialPosition].value = {0.0, 0.5, 0.5};
  shape_parameters(scene);
  set_test_sizes(scene);
  scene.params[ParamId::BodyPosition].value = {0.0, 0.13, 0.0, 0.4, 0.2, 0.0, -0.4, 0.25, 0.1};
  scene.params[ParamId::BodyOrientation].value = {0.0, 0.0, 0.0, 1.0, 0.1, 0.2, -0.1, 1.0, 0.3, 0.0, 0.2, 0.9};
  scene.params[ParamId::BodyVelocity].value = {1.0, -0.5, 0.2, 0.5, -1.0, 0.0, -0.3, -0.8, 0.4};
  scene.params[ParamId::BodyAngularVelocity].value = {0.0, 2.0, 1.0, 3.0, -1.0, 0.5, 0.0, 0.0, 4.0};
  scene.params[ParamId::BodyDensity].value = {800.0, 500.0, 1200.0};
  scene.params[ParamId::InitialVelocity].value = {0.5, 0.0, 0.0};
  scene.params[ParamId::ContactStiffness].value = {3e4};
  scene.params[ParamId::ContactDamping].value = {20.0};
  scene.params[ParamId::ContactFriction].value = {0.4};
  scene.contact.smoothing = smoothing;
  scene.contact.friction_smoothing = 0.05;
  scene.contact.damp_approach_only = false;
  ColliderShape floor;
  floor.normal[0] = 0.05, floor.normal[1] = 1.0;
  const double len = std::hypot(floor.normal[0], floor.normal[1]);
  floor.normal[0] /= len, floor.normal[1] /= len;
  ColliderShape wall;
  wall.type = ColliderType::Box;
  wall.position[0] = 0.9, wall.position[1] = 0.5;
  wall.half_extents[0] = 0.2, wall.half_extents[1] = 0.5, wall.half_extents[2] = 1.0;
  scene.colliders = {floor, wall};
  Objective target;
  target.type = ObjectiveType::Target;
  target.bodies = {0, 2};
  target.particles = {0};
  target.target = {0.3, 0.2, 0.1};
  Objective speed;
  speed.type = ObjectiveType::Velocity;
  speed.bodies = {1};
  speed.target = {0.2, 0.0, 0.0};
  speed.step = steps / 2;
  scene.objectives = {target, speed};
  return scene;
}

// Four bodies thrown at each other in free space (no gravity, no colliders): two
// spheres meet head on and obliquely, a box and a capsule meet each other and the
// spheres, spinning. The objectives read positions, velocities and orientations.
// spheres_only keeps the two spheres (and the terms on them).
inline Scene make_body_collision_scene(double smoothing, int steps = 120, bool spheres_only = false) {
  Scene scene;
  scene.name = "collisions";
  scene.settings.dt = 1e-3;
  scene.settings.steps = steps;
  scene.bodies = {rigid_body(BodyShape::Sphere), rigid_body(BodyShape::Sphere), rigid_body(BodyShape::Box),
                  rigid_body(BodyShape::Capsule)};
  shape_parameters(scene);
  set_test_sizes(scene);
  scene.params[ParamId::Gravity].value = {0.0, 0.0, 0.0};
  scene.params[ParamId::BodyPosition].value = {-0.25, 0.0, 0.0, 0.0, 0.03, 0.0, 0.3, 0.05, 0.02, 0.55, 0.0, -0.03};
  scene.params[ParamId::BodyOrientation].value = {0, 0, 0, 1, 0, 0, 0, 1, 0.1, 0.2, -0.1, 1.0, 0.0, 0.3, 0.6, 0.75};
  scene.params[ParamId::BodyVelocity].value = {1.5, 0.0, 0.0, 0.0, 0.0, 0.0, -0.2, 0.0, 0.1, -1.0, 0.1, 0.0};
  scene.params[ParamId::BodyAngularVelocity].value = {0.0, 0.0, 5.0, 0.0, 0.0, 0.0, 1.0, -2.0, 0.5, 0.0, 3.0, 0.0};
  scene.params[ParamId::BodyDensity].value = {800.0, 600.0, 500.0, 1200.0};
  scene.params[ParamId::ContactStiffness].value = {2e4};
  scene.params[ParamId::ContactDamping].value = {5.0};
  scene.params[ParamId::ContactFriction].value = {0.3};
  scene.contact.smoothing = smoothing;
  scene.contact.friction_smoothing = 0.05;
  scene.contact.damp_approach_only = false;
  Objective target;
  target.type = ObjectiveType::Target;
  target.bodies = {1, 3};
  target.target = {0.3, 0.1, 0.0};
  Objective speed;
  speed.type = ObjectiveType::Velocity;
  speed.bodies = {2};
  speed.target = {0.4, 0.0, 0.0};
  Objective turn;
  turn.type = ObjectiveType::Orientation;
  turn.bodies = {2, 3};
  turn.axis[0] = 1, turn.axis[1] = 0, turn.axis[2] = 0;
  scene.objectives = {target, speed, turn};
  if (spheres_only) {
    scene.bodies.resize(2);
    for (ParamId id :
         {ParamId::BodyPosition, ParamId::BodyOrientation, ParamId::BodyVelocity, ParamId::BodyAngularVelocity,
          ParamId::BodyDensity, ParamId::BodyRadius, ParamId::BodyHalfExtents, ParamId::BodyHalfLength})
      scene.params[id].value.resize(2 * size_t(scene.params[id].cols));
    shape_parameters(scene);
    target.bodies = {1};
    turn.bodies = {0, 1};
    scene.objectives = {target, turn};
  }
  return scene;
}

// Four capsules: a hinged arm of two links hanging from the world (the first hinge's
// turn limited so the link reaches its limit), a third link on a ball joint, and a
// fourth on a prismatic joint to the world and fixed to nothing else; a fifth body, a
// box, is welded (fixed) to the second link. Motors drive both hinges and the slide.
inline Scene make_joint_scene(int steps = 300) {
  Scene scene;
  scene.name = "joints";
  scene.settings.dt = 1e-3;
  scene.settings.steps = steps;
  const RigidBody link = rigid_body(BodyShape::Capsule), weight = rigid_body(BodyShape::Box);
  scene.bodies = {link, link, link, link, weight};
  Joint shoulder{"shoulder", JointType::Hinge, -1, 0, {0, 0, 1}, true, -0.3, 0.25, false};
  Joint elbow{"elbow", JointType::Hinge, 0, 1, {0, 0, 1}, false, 0, 0, false};
  Joint wrist{"wrist", JointType::Ball, 1, 2, {0, 0, 1}, false, 0, 0, false};
  Joint slide{"slide", JointType::Prismatic, -1, 3, {1, 0, 0}, true, -0.05, 0.02, false};
  Joint weld{"weld", JointType::Fixed, 1, 4, {0, 1, 0}, false, 0, 0, false};
  scene.joints = {shoulder, elbow, wrist, slide, weld};
  scene.joint_settings.stiffness = 2e4;
  scene.joint_settings.damping = 5;
  scene.joint_settings.angular_stiffness = 50;
  scene.joint_settings.angular_damping = 0.05;
  scene.joint_settings.limit_stiffness = 50;
  shape_parameters(scene);
  const ShapeSize link_size{0.03, 0.12, 0}, weight_size{0.04, 0.04, 0.04};
  set_sizes(scene, {link_size, link_size, link_size, link_size, weight_size});
  // Links hang along -y from anchors at their upper ends; the first is tilted a little.
  scene.params[ParamId::BodyPosition].value = {0.0, -0.12, 0.0, 0.0, -0.36, 0.0,   0.0, -0.6,
                                               0.0, 0.5,   0.0, 0.0, 0.06,  -0.36, 0.0};
  scene.params[ParamId::JointAnchor].value = {0.0, 0.0, 0.0, 0.0, -0.24, 0.0,   0.0, -0.48,
                                              0.0, 0.5, 0.0, 0.0, 0.03,  -0.36, 0.0};
  scene.params[ParamId::BodyVelocity].value[0] = 0.3;
  scene.params[ParamId::BodyAngularVelocity].value = {0, 0, 1.0, 0, 0, -0.5, 0.4, 0, 0, 0, 0, 0, 0, 0, 0};
  scene.params[ParamId::BodyDensity].value = {1000, 1000, 1000, 1000, 2000};
  scene.params[ParamId::JointDamping].value = {0.002, 0.003, 0.001, 0.5, 0.0};
  std::vector<double>& u = scene.params[ParamId::JointControl].value;
  for (int t = 0; t < steps; ++t) {
    u[size_t(t) * 5 + 0] = 0.05 * std::sin(0.02 * t);
    u[size_t(t) * 5 + 1] = -0.03;
    u[size_t(t) * 5 + 3] = 0.4 * std::cos(0.01 * t);
  }
  scene.contact.bodies = false;
  Objective target;
  target.type = ObjectiveType::Target;
  target.bodies = {2, 3};
  target.target = {0.3, -0.4, 0.1};
  Objective turn;
  turn.type = ObjectiveType::Orientation;
  turn.bodies = {4};
  turn.axis[0] = 1, turn.axis[1] = 0, turn.axis[2] = 0;
  Objective effort;
  effort.type = ObjectiveType::Effort;
  effort.weight = 0.1;
  scene.objectives = {target, turn, effort};
  return scene;
}

// A box hanging from the world by a ball joint with a rope of four particles (springs)
// attached to its lower corner, and a sphere thrown through the rope: particles held to
// a body, particles meeting a body, and the body's joint, all at once.
inline Scene make_particle_body_scene(double smoothing, int steps = 200) {
  Scene scene;
  scene.name = "particles and bodies";
  scene.settings.dt = 1e-3;
  scene.settings.steps = steps;
  scene.bodies = {rigid_body(BodyShape::Box), rigid_body(BodyShape::Sphere)};
  scene.joints = {{"", JointType::Ball, -1, 0, {0, 0, 1}, false, 0, 0, false}};
  scene.joint_settings.stiffness = 5e3;
  scene.joint_settings.damping = 2;
  scene.joint_settings.angular_stiffness = 10;
  scene.joint_settings.angular_damping = 0.01;
  scene.pinned = {0, 0, 0, 0};
  scene.spring_a = {0, 1, 2};
  scene.spring_b = {1, 2, 3};
  scene.attachments = {{0, 0}};
  scene.params[ParamId::InitialPosition].value = {0.05, 0.95, 0.0, 0.1, 0.87, 0.0, 0.15, 0.79, 0.0, 0.2, 0.71, 0.0};
  shape_parameters(scene);
  set_sizes(scene, {{0.05, 0.05, 0.05}, {0.06, 0, 0}});
  scene.params[ParamId::BodyPosition].value = {0.0, 1.0, 0.0, -0.3, 0.8, 0.02};
  scene.params[ParamId::BodyOrientation].value = {0.05, 0.0, 0.1, 1.0, 0.0, 0.0, 0.0, 1.0};
  scene.params[ParamId::BodyVelocity].value = {0.0, 0.0, 0.2, 2.5, 0.1, 0.0};
  scene.params[ParamId::BodyAngularVelocity].value = {0.0, 1.0, 0.0, 0.0, 0.0, 3.0};
  scene.params[ParamId::BodyDensity].value = {800.0, 600.0};
  scene.params[ParamId::JointAnchor].value = {0.0, 1.05, 0.0};
  scene.params[ParamId::JointDamping].value = {0.001};
  scene.params[ParamId::Stiffness].value = {400.0, 400.0, 400.0};
  scene.params[ParamId::Damping].value = {0.5, 0.5, 0.5};
  scene.params[ParamId::Mass].value = {0.02, 0.02, 0.02, 0.02};
  scene.params[ParamId::ParticleRadius].value = {0.015, 0.015, 0.015, 0.015};
  scene.params[ParamId::ContactStiffness].value = {2e3};
  scene.params[ParamId::ContactDamping].value = {1.0};
  scene.params[ParamId::ContactFriction].value = {0.3};
  scene.contact.smoothing = smoothing;
  scene.contact.friction_smoothing = 0.05;
  scene.contact.damp_approach_only = false;
  Objective tip;
  tip.type = ObjectiveType::Target;
  tip.particles = {3};
  tip.bodies = {1};
  tip.target = {0.2, 0.6, 0.1};
  Objective turn;
  turn.type = ObjectiveType::Orientation;
  turn.bodies = {0};
  scene.objectives = {tip, turn};
  return scene;
}

// A cube of eight particles joined by all 28 springs (edges, face and body diagonals),
// drifting along +x and spinning about its vertical axis with no gravity or ground: the
// springs barely stretch, so most stiffness entries are tiny next to the largest. The
// objective pulls one corner to a target at the end; the initial velocities are optimised.
inline Scene make_spring_cage(int steps = 200) {
  Scene scene;
  scene.name = "cage";
  scene.settings.dt = 2e-3;
  scene.settings.steps = steps;
  const double size = 0.2, spin = 4.0;
  std::vector<double> x0, v0;
  for (int i = 0; i < 8; ++i) {
    const double x = size * (i >> 2), y = 1.0 + size * ((i >> 1) & 1), z = size * (i & 1);
    x0.insert(x0.end(), {x, y, z});
    v0.insert(v0.end(), {1.0 + spin * (z - size / 2), 0.0, -spin * (x - size / 2)});
  }
  scene.pinned.assign(8, 0);
  for (int a = 0; a < 8; ++a)
    for (int b = a + 1; b < 8; ++b) {
      scene.spring_a.push_back(a);
      scene.spring_b.push_back(b);
      scene.spring_channel.push_back(-1);
      scene.actuation.push_back(0.0);
    }
  scene.params[ParamId::InitialPosition].value = x0;
  shape_parameters(scene);
  scene.params[ParamId::InitialVelocity].value = v0;
  scene.params[ParamId::InitialVelocity].optimize = true;
  scene.params[ParamId::Mass].value.assign(8, 0.1);
  scene.params[ParamId::Stiffness].value.assign(28, 500.0);
  scene.params[ParamId::Damping].value.assign(28, 0.5);
  scene.params[ParamId::Gravity].value = {0.0, 0.0, 0.0};
  Objective target;
  target.type = ObjectiveType::Target;
  target.particles = {7};
  target.target = {0.5, 0.5, 0.3};
  scene.objectives = {target};
  return scene;
}

// A cloth sheet of rows x cols particles near the x-z plane, 0.12 m up, two triangles per
// cell, its first row's two ends pinned, falling onto the ground in a wind. With
// `ground` off it meets nothing (for the reference integrator).
inline Scene make_triangle_sheet(int rows = 4, int cols = 4, int steps = 80, bool ground = true) {
  Scene scene;
  scene.name = "sheet";
  scene.settings.dt = 2e-3;
  scene.settings.steps = steps;
  scene.settings.ground.enabled = ground;
  scene.settings.ground.damping = 2.0;
  scene.settings.ground.contact_smoothing = 5e-3;
  scene.settings.ground.friction_smoothing = 0.05;
  const int n = rows * cols;
  scene.pinned.assign(n, 0);
  scene.pinned[0] = scene.pinned[cols - 1] = 1;
  std::vector<double> x;
  const double h = 0.1;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) {
      // Slightly uneven, so triangles differ and no two rest shapes are alike.
      x.insert(x.end(), {c * h + 0.01 * r * r, 0.12 + 0.008 * c * (r % 2), r * h + 0.006 * c});
    }
  scene.params[ParamId::InitialPosition].value = x;
  for (int r = 0; r + 1 < rows; ++r)
    for (int c = 0; c + 1 < cols; ++c) {
      const int a = r * cols + c, b = a + 1, d = a + cols, e = d + 1;
      scene.triangles.insert(scene.triangles.end(), {a, b, e, a, e, d});
    }
  shape_parameters(scene);
  const int tri = scene.triangle_count();
  std::vector<double>& v = scene.params[ParamId::InitialVelocity].value;
  for (int i = 0; i < n; ++i) {
    v[3 * i] = 0.3 + 0.05 * (i % 3);
    v[3 * i + 1] = -0.4 + 0.03 * (i % 5);
    v[3 * i + 2] = 0.1 - 0.02 * (i % 4);
  }
  for (int i = 0; i < n; ++i) scene.params[ParamId::Mass].value[i] = 0.02 + 0.002 * (i % 4);
  for (int t = 0; t < tri; ++t) {
    scene.params[ParamId::TriangleStiffness].value[t] = 300 + 20 * (t % 5);
    scene.params[ParamId::TriangleAreaStiffness].value[t] = 400 + 30 * (t % 3);
    scene.params[ParamId::TriangleDamping].value[t] = 0.2 + 0.05 * (t % 4);
    scene.params[ParamId::TriangleDrag].value[t] = 1.5 + 0.1 * (t % 3);
    scene.params[ParamId::TriangleLift].value[t] = 2.0 + 0.2 * (t % 2);
  }
  scene.params[ParamId::Wind].value = {1.5, 0.4, -0.8};
  scene.params[ParamId::GroundStiffness].value = {2000.0};
  scene.params[ParamId::Friction].value = {0.4};

  Objective target;
  target.type = ObjectiveType::Target;
  target.particles = {5, 10, 15};
  target.target = {0.3, 0.0, 0.5};
  Objective positions;
  positions.type = ObjectiveType::Positions;
  positions.particles = {3, 12};
  positions.target = {0.4, 0.05, 0.0, 0.0, 0.0, 0.35};
  positions.step = steps / 2;
  Objective velocity;
  velocity.type = ObjectiveType::Velocity;
  velocity.particles = {6, 9};
  velocity.target = {0.2, 0.0, 0.1};
  scene.objectives = {target, positions, velocity};
  return scene;
}

// The corners of a block of nx x ny x nz unit cells split conformingly into tets: six per
// cell around its main diagonal (Kuhn's subdivision, the same in every cell so faces
// match), each positively oriented. Particle (i, j, k) is i + (nx + 1) (j + (ny + 1) k).
inline std::vector<int> tet_block_indices(int nx, int ny, int nz) {
  const auto at = [&](int i, int j, int k) { return i + (nx + 1) * (j + (ny + 1) * k); };
  // The six paths from corner 000 to 111, one axis at a time; odd permutations are swapped
  // to keep every tet positively oriented.
  const int paths[6][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}, {0, 2, 1}, {2, 1, 0}, {1, 0, 2}};
  std::vector<int> tets;
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i)
        for (int p = 0; p < 6; ++p) {
          int c[3] = {i, j, k};
          int corner[4];
          corner[0] = at(c[0], c[1], c[2]);
          for (int s = 0; s < 3; ++s) {
            ++c[paths[p][s]];
            corner[s + 1] = at(c[0], c[1], c[2]);
          }
          if (p >= 3) std::swap(corner[2], corner[3]);
          tets.insert(tets.end(), corner, corner + 4);
        }
  return tets;
}

// A soft block of nx x ny x nz cells of size h, six tets each, thrown spinning onto the
// ground, with every tet's k_mu, k_lambda and k_damp different, masses from a density,
// and (with `actuated`) tets on two control channels driven by non-zero controls; objective
// terms on its positions and velocity.
inline Scene make_tet_block(int nx = 2, int ny = 1, int nz = 1, int steps = 60, bool ground = true,
                            bool actuated = true) {
  Scene scene;
  scene.name = "tet block";
  scene.settings.dt = 1e-3;
  scene.settings.steps = steps;
  scene.settings.ground.enabled = ground;
  scene.settings.ground.damping = 2.0;
  scene.settings.ground.contact_smoothing = 5e-3;
  scene.settings.ground.friction_smoothing = 0.05;
  const double h = 0.1;
  const int n = (nx + 1) * (ny + 1) * (nz + 1);
  scene.pinned.assign(n, 0);
  std::vector<double> x;
  for (int k = 0; k <= nz; ++k)
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i)  // slightly uneven, so no two rest shapes are alike
        x.insert(x.end(), {i * h + 0.004 * j * k, 0.02 + j * h + 0.003 * i * k, k * h + 0.005 * i * j});
  scene.params[ParamId::InitialPosition].value = x;
  scene.tets = tet_block_indices(nx, ny, nz);
  const int tets = scene.tet_count();
  if (actuated) {
    scene.channels = 2;
    scene.tet_channel.assign(tets, -1);
    scene.tet_actuation.assign(tets, 0.0);
    for (int e = 0; e < tets; ++e)
      if (e % 3 != 2) {
        scene.tet_channel[e] = e % 3;
        scene.tet_actuation[e] = 0.2 + 0.05 * (e % 4);
      }
  }
  shape_parameters(scene);
  std::vector<double>& v = scene.params[ParamId::InitialVelocity].value;
  for (int i = 0; i < n; ++i) {  // moving, spinning about y and squeezed a little
    const double* xi = &x[3 * size_t(i)];
    v[3 * i] = 0.3 + 2.0 * (xi[2] - 0.05) + 0.02 * (i % 3);
    v[3 * i + 1] = -0.4 + 0.03 * (i % 5);
    v[3 * i + 2] = -0.1 - 2.0 * (xi[0] - 0.1) + 0.02 * (i % 2);
  }
  for (int i = 0; i < n; ++i) scene.params[ParamId::Mass].value[i] = 0.1 + 0.01 * (i % 4);
  for (int e = 0; e < tets; ++e) {
    scene.params[ParamId::TetMu].value[e] = 2e4 + 1e3 * (e % 5);
    scene.params[ParamId::TetLambda].value[e] = 3e4 + 2e3 * (e % 3);
    scene.params[ParamId::TetDamping].value[e] = 20 + 5 * (e % 4);
  }
  std::vector<double>& u = scene.params[ParamId::Controls].value;
  for (size_t k = 0; k < u.size(); ++k) u[k] = 0.1 * std::sin(0.3 * double(k)) + 0.05;
  scene.params[ParamId::GroundStiffness].value = {5000.0};
  scene.params[ParamId::Friction].value = {0.4};

  Objective target;
  target.type = ObjectiveType::Target;
  target.particles = {0, 1, n - 1};
  target.target = {0.3, 0.0, 0.1};
  Objective positions;
  positions.type = ObjectiveType::Positions;
  positions.particles = {2, n - 2};
  positions.target = {0.25, 0.05, 0.0, 0.0, 0.1, 0.15};
  positions.step = steps / 2;
  Objective velocity;
  velocity.type = ObjectiveType::Velocity;
  velocity.particles = {1, 3};
  velocity.target = {0.2, 0.0, 0.1};
  scene.objectives = {target, positions, velocity};
  return scene;
}

}  // namespace nudge::test
