// Scenes for the actuators' tests (actuator_test.cpp, cuda_backend_test.cpp): particle
// forces driven by controls and a controller, and body thrusters, torques and joint
// motors on control channels.
#pragma once

#include <cmath>
#include <vector>

#include "nudge/scene.h"
#include "nudge/vec3.h"
#include "test_scenes.h"

namespace nudge::test {

inline Actuator particle_force(int particle, int channel, double x, double y, double z) {
  Actuator a;
  a.particle = particle;
  a.channel = channel;
  a.direction[0] = x, a.direction[1] = y, a.direction[2] = z;
  return a;
}

inline Actuator body_actuator(int body, int channel, ActuatorType type, ActuatorFrame frame, Vec3<double> direction,
                              Vec3<double> point = {0, 0, 0}) {
  Actuator a;
  a.body = body;
  a.channel = channel;
  a.type = type;
  a.frame = frame;
  a.direction[0] = direction.x, a.direction[1] = direction.y, a.direction[2] = direction.z;
  a.point[0] = point.x, a.point[1] = point.y, a.point[2] = point.z;
  return a;
}

// The controlled feature scene with forces on its particles, two on channel 1 (which the
// controller drives) and one on channel 0: a controller driving forces.
inline Scene make_forced_particles(int steps = 60) {
  Scene scene = make_controlled_scene(steps);
  scene.actuators = {particle_force(0, 0, 1.5, 0, 0.5), particle_force(2, 1, 0, 2.0, 0),
                     particle_force(0, 1, 0, 0, -1.0)};
  Objective smooth;
  smooth.type = ObjectiveType::Smoothness;
  smooth.weight = 0.3;
  scene.objectives.push_back(smooth);
  return scene;
}

// The joint scene (a hinged arm, a slide, a welded weight) with three channels: a thruster
// on the weight (a force fixed in the body, off its centre), a world torque on a link, a
// body-frame torque on the slide, and the elbow's motor on a channel beside its own control.
inline Scene make_actuated_bodies(int steps = 120) {
  Scene scene = make_joint_scene(steps);
  scene.channels = 3;
  scene.joints[1].channel = 2;
  scene.joints[1].gain = 0.05;
  scene.joints[3].channel = 0;
  scene.joints[3].gain = -0.2;
  scene.actuators = {body_actuator(4, 0, ActuatorType::Force, ActuatorFrame::Body, {0.2, 1.0, 0.1}, {0.04, 0.01, 0.02}),
                     body_actuator(2, 1, ActuatorType::Torque, ActuatorFrame::World, {0, 0.01, 0.02}),
                     body_actuator(3, 2, ActuatorType::Torque, ActuatorFrame::Body, {0.01, 0, 0.01}),
                     body_actuator(0, 1, ActuatorType::Force, ActuatorFrame::World, {0.3, 0, -0.2}, {0, 0.1, 0})};
  shape_parameters(scene);
  std::vector<double>& u = scene.params[ParamId::Controls].value;
  for (int t = 0; t < steps; ++t) {
    u[size_t(t) * 3 + 0] = 0.6 * std::sin(0.05 * t);
    u[size_t(t) * 3 + 1] = 0.4 - 0.002 * t;
    u[size_t(t) * 3 + 2] = 0.3 * std::cos(0.07 * t);
  }
  Objective smooth;
  smooth.type = ObjectiveType::Smoothness;
  smooth.weight = 2.0;
  scene.objectives.push_back(smooth);
  return scene;
}

}  // namespace nudge::test
