// A scene of an imported robot (nudge/scene.h's robot_scene): MJCF and URDF are z up, the
// studio y up, so the robot's roots are turned by -90 degrees about x (z to y, y to -z)
// and gravity with them; everything below the roots, and every joint coordinate, is as
// the file has it.
#include <cmath>
#include <filesystem>

#include "families/articulations/articulation_links.h"
#include "nudge/scene.h"
#include "nudge/robot_import.h"

namespace nudge {

namespace {

// The turn from z up to y up: (x, y, z) -> (x, z, -y).
void z_up_to_y_up(const double* v, double* out) {
  const double x = v[0], y = v[1], z = v[2];
  out[0] = x, out[1] = z, out[2] = y == 0 ? 0.0 : -y;  // no -0 in files
}

// MuJoCo's default limit (solref 0.02 1: a time constant of 20 ms, critically damped) as
// a spring and damper on each limited coordinate, scaled by its inertia at the initial q
// (the mass matrix's diagonal with its armature): k = m / tc^2, b = 2 m / tc. A ball's
// cone takes the mean of its three coordinates' (its axis moves).
void set_limit_terms(Scene& scene) {
  constexpr double kTimeConstant = 0.02;  // s
  Articulations& a = scene.articulations;
  const std::vector<int> coordinate = articulation_coordinates(a);
  const std::vector<TreeModel> trees = tree_models(a);
  const std::vector<std::vector<double>> matrices = initial_mass_matrices(a, scene.params);
  std::vector<double> diagonal(size_t(articulation_coordinate_count(a)), 0.0);
  for (size_t t = 0; t < trees.size(); ++t)
    for (int i = 0; i < trees[t].dofs; ++i)
      diagonal[size_t(trees[t].first_dof + i)] = matrices[t][size_t(i * trees[t].dofs + i)];
  for (size_t k = 0; k < a.links.size(); ++k) {
    ArticulationLink& l = a.links[k];
    if (!l.limited || coordinate[k] < 0) continue;
    double inertia = diagonal[size_t(coordinate[k])];
    if (l.joint == ArticulationJoint::Ball)
      inertia = (inertia + diagonal[size_t(coordinate[k] + 1)] + diagonal[size_t(coordinate[k] + 2)]) / 3;
    l.limit_stiffness = inertia / (kTimeConstant * kTimeConstant);
    l.limit_damping = 2 * inertia / kTimeConstant;
  }
}

// Each link's length_axis (link_length's direction): from its joint's anchor to its one
// child's placement, else along its first capsule or cylinder; none where neither says.
void set_length_axes(Articulations& a, const std::vector<double>& pos) {
  std::vector<int> children(a.links.size(), 0), child(a.links.size(), -1);
  for (size_t k = 0; k < a.links.size(); ++k)
    if (a.links[k].parent >= 0) ++children[size_t(a.links[k].parent)], child[size_t(a.links[k].parent)] = int(k);
  for (size_t k = 0; k < a.links.size(); ++k) {
    ArticulationLink& l = a.links[k];
    Vec3<double> axis{0, 0, 0};
    const Vec3<double> anchor{l.anchor[0], l.anchor[1], l.anchor[2]};
    if (children[k] == 1 && 3 * size_t(child[k]) + 2 < pos.size()) {
      const double* p = &pos[3 * size_t(child[k])];
      axis = Vec3<double>{p[0], p[1], p[2]} - anchor;
    }
    for (const LinkShape& shape : l.shapes) {
      if (length(axis) > 1e-9) break;
      if (shape.kind != LinkShape::Kind::Capsule && shape.kind != LinkShape::Kind::Cylinder) continue;
      const Quat<double> q{shape.quat[0], shape.quat[1], shape.quat[2], shape.quat[3]};
      axis = rotate(normalize(q), Vec3<double>{0, 0, 1});
    }
    if (!(length(axis) > 1e-9)) continue;
    axis = normalize(axis);
    l.length_axis[0] = axis.x, l.length_axis[1] = axis.y, l.length_axis[2] = axis.z;
  }
}

}  // namespace

Scene robot_scene(const ImportedRobot& robot, const std::string& source, int steps) {
  Scene scene;
  scene.name = robot.name.empty() ? "robot" : robot.name;
  scene.description = "Imported from " + std::filesystem::path(source).filename().string() + ".";
  scene.settings.dt = robot.timestep;
  scene.settings.steps = steps;
  if (robot.runge_kutta) scene.settings.integrator = Integrator::RungeKutta4;
  scene.channels = robot.channels;
  scene.articulations = robot.articulations;
  scene.articulations.source = source;
  const double s = std::sqrt(0.5);
  const double turn[4] = {-s, 0, 0, s};  // -90 degrees about x, as (x, y, z, w)
  for (ArticulationLink& link : scene.articulations.links) {
    if (link.parent >= 0) continue;
    const double* q = link.quat;  // turn * q
    const double w = turn[3] * q[3] - turn[0] * q[0];
    const double x = turn[3] * q[0] + turn[0] * q[3];
    const double y = turn[3] * q[1] - turn[0] * q[2];
    const double z = turn[3] * q[2] + turn[0] * q[1];
    link.quat[0] = x, link.quat[1] = y, link.quat[2] = z, link.quat[3] = w;
  }
  for (const ColliderShape& c : robot.colliders) {  // planes: the normal turns, the offset stays
    ColliderShape turned = c;
    z_up_to_y_up(c.normal, turned.normal);
    scene.colliders.push_back(turned);
  }
  shape_parameters(scene);
  const auto set_rows = [&](ParamId id, const std::vector<double>& values) {
    if (values.size() == scene.params[id].value.size()) scene.params[id].value = values;
  };
  set_rows(ParamId::LinkMass, robot.mass);
  set_rows(ParamId::LinkCom, robot.com);
  set_rows(ParamId::LinkInertia, robot.inertia);
  set_rows(ParamId::LinkDamping, robot.damping);
  set_rows(ParamId::LinkArmature, robot.armature);
  set_rows(ParamId::LinkFrictionLoss, robot.frictionloss);
  set_rows(ParamId::LinkJointPosition, robot.q);
  set_rows(ParamId::LinkJointVelocity, robot.qd);
  set_rows(ParamId::LinkStiffness, robot.stiffness);
  set_rows(ParamId::LinkSpringRef, robot.spring_ref);
  set_rows(ParamId::ActuatorGain, robot.gain);
  set_rows(ParamId::ActuatorBiasQ, robot.bias_q);
  set_rows(ParamId::ActuatorBiasQd, robot.bias_qd);
  std::vector<double> pos = robot.pos;
  for (size_t k = 0; k < scene.articulations.links.size() && 3 * k + 2 < pos.size(); ++k)
    if (scene.articulations.links[k].parent < 0) z_up_to_y_up(&robot.pos[3 * k], &pos[3 * k]);
  set_rows(ParamId::LinkPosition, pos);
  set_length_axes(scene.articulations, robot.pos);
  z_up_to_y_up(robot.gravity, scene.params[ParamId::Gravity].value.data());
  set_limit_terms(scene);
  return scene;
}

}  // namespace nudge
