// The kernels' models of a scene's articulations (articulation_model.h), from its links
// and their parameters, on the host: what the family uploads, the scene check factors
// and the studio's forward kinematics draws. One place that turns a scene into them.
#pragma once

#include <span>
#include <vector>

#include "families/articulations/articulation_dynamics.h"
#include "families/articulations/articulation_model.h"
#include "families/articulations/link_resize.h"
#include "nudge/articulations.h"
#include "nudge/convex_mesh.h"
#include "nudge/parameter_facts.h"
#include "nudge/parameters.h"
#include "nudge/quat.h"

namespace nudge {

// Row `row`, column `col` of a link parameter.
inline double link_param(const ParameterSet& p, ParamId id, size_t row, size_t col) {
  return p[id].value[row * size_t(param_facts(id).cols) + col];
}

inline LinkJoint link_joint(ArticulationJoint joint) {
  switch (joint) {
    case ArticulationJoint::Weld: return LinkJoint::Weld;
    case ArticulationJoint::Hinge: return LinkJoint::Hinge;
    case ArticulationJoint::Slide: return LinkJoint::Slide;
    case ArticulationJoint::Ball: return LinkJoint::Ball;
    case ArticulationJoint::Free: return LinkJoint::Free;
  }
  return LinkJoint::Weld;
}

// A link's size (link_scale, link_length) about its joint's anchor, in its frame (a
// weld's and a free joint's anchor: the frame's origin).
inline LinkResize link_resize(const Articulations& a, const ParameterSet& p, size_t k) {
  return link_resize(a.links[k], link_param(p, ParamId::LinkScale, k, 0), link_param(p, ParamId::LinkLength, k, 0));
}
inline LinkSize link_size(const ParameterSet& p, size_t k) {
  return {link_param(p, ParamId::LinkScale, k, 0), link_param(p, ParamId::LinkLength, k, 0)};
}

inline Vec3<double> link_position(const ParameterSet& p, size_t k) {
  return {link_param(p, ParamId::LinkPosition, k, 0), link_param(p, ParamId::LinkPosition, k, 1),
          link_param(p, ParamId::LinkPosition, k, 2)};
}

// The link's placement in its parent's frame: link_position, moved by the parent's size.
inline Vec3<double> link_placement(const Articulations& a, const ParameterSet& p, size_t k) {
  const int parent = a.links[k].parent;
  return parent < 0 ? link_position(p, k) : link_resize(a, p, size_t(parent)).point(link_position(p, k));
}

// dL/d(the placement link_placement gives) g, in the parent's axes, to link_position's row
// and the parent's link_scale and link_length (where their gradients are wanted: sized).
inline void add_placement_grad(const Articulations& a, ParameterSet& p, size_t k, Vec3<double> g) {
  const int parent = a.links[k].parent;
  std::vector<double>& pos = p[ParamId::LinkPosition].grad;
  std::vector<double>& scale = p[ParamId::LinkScale].grad;
  std::vector<double>& length = p[ParamId::LinkLength].grad;
  double d_scale = 0, d_length = 0;
  const Vec3<double> g_pos =
      parent < 0 ? g : link_resize(a, p, size_t(parent)).add_point_grad(link_position(p, k), g, d_scale, d_length);
  if (pos.size() == 3 * a.links.size()) pos[3 * k] += g_pos.x, pos[3 * k + 1] += g_pos.y, pos[3 * k + 2] += g_pos.z;
  if (parent < 0) return;
  if (scale.size() == a.links.size()) scale[size_t(parent)] += d_scale;
  if (length.size() == a.links.size()) length[size_t(parent)] += d_length;
}

template <class T>
std::vector<LinkModel<T>> link_models(const Articulations& a, const ParameterSet& p) {
  const std::vector<int> coordinate = articulation_coordinates(a), position = articulation_positions(a);
  std::vector<LinkModel<T>> links;
  for (size_t k = 0; k < a.links.size(); ++k) {
    const ArticulationLink& src = a.links[k];
    LinkModel<T> l;
    l.parent = src.parent;
    l.joint = int(link_joint(src.joint));
    l.dof = coordinate[k];
    l.dofs = joint_velocity_count(src.joint);
    l.position = position[k];
    const Vec3<double> pos = link_placement(a, p, k);
    l.pos = {static_cast<T>(pos.x), static_cast<T>(pos.y), static_cast<T>(pos.z)};
    l.quat = normalize(Quat<T>{static_cast<T>(src.quat[0]), static_cast<T>(src.quat[1]), static_cast<T>(src.quat[2]),
                               static_cast<T>(src.quat[3])});
    l.anchor = {static_cast<T>(src.anchor[0]), static_cast<T>(src.anchor[1]), static_cast<T>(src.anchor[2])};
    const bool axial = src.joint == ArticulationJoint::Hinge || src.joint == ArticulationJoint::Slide;
    l.axis =
        !axial
            ? Vec3<T>{0, 0, 1}
            : normalize(Vec3<T>{static_cast<T>(src.axis[0]), static_cast<T>(src.axis[1]), static_cast<T>(src.axis[2])});
    // Resized about the anchor at one density (link_resize.h).
    const LinkResize size = link_resize(a, p, k);
    l.mass = static_cast<T>(size.mass_factor() * link_param(p, ParamId::LinkMass, k, 0));
    const Vec3<double> com = size.point({link_param(p, ParamId::LinkCom, k, 0), link_param(p, ParamId::LinkCom, k, 1),
                                         link_param(p, ParamId::LinkCom, k, 2)});
    l.com = {static_cast<T>(com.x), static_cast<T>(com.y), static_cast<T>(com.z)};
    double inertia[6], resized[6];
    for (size_t c = 0; c < 6; ++c) inertia[c] = link_param(p, ParamId::LinkInertia, k, c);
    size.inertia(inertia, resized);
    const auto in = [&](size_t c) { return static_cast<T>(resized[c]); };
    l.inertia = {{in(0), in(3), in(4), in(3), in(1), in(5), in(4), in(5), in(2)}};
    links.push_back(l);
  }
  return links;
}

// Per coordinate: its link's armature, damping and dry friction (all of a ball's or a
// free joint's coordinates share them, as MuJoCo's), and a hinge's or slide's limits, spring and place
// in q; a ball's cone limit and spring on its first coordinate (articulation_dynamics.h's
// cone_limit and ball_spring).
template <class T>
std::vector<DofModel<T>> dof_models(const Articulations& a, const ParameterSet& p) {
  const std::vector<int> coordinate = articulation_coordinates(a), position = articulation_positions(a);
  std::vector<DofModel<T>> dofs(static_cast<size_t>(articulation_coordinate_count(a)));
  for (size_t k = 0; k < a.links.size(); ++k) {
    const ArticulationLink& l = a.links[k];
    const bool axial = joint_velocity_count(l.joint) == 1, ball = l.joint == ArticulationJoint::Ball;
    for (int c = 0; c < joint_velocity_count(l.joint); ++c)
      dofs[size_t(coordinate[k] + c)] = {
          static_cast<T>(link_param(p, ParamId::LinkArmature, k, 0)),
          static_cast<T>(link_param(p, ParamId::LinkDamping, k, 0)),
          axial ? position[k] : -1,
          (axial || (ball && c == 0)) && l.limited ? 1 : 0,
          static_cast<T>(l.range[0]),
          static_cast<T>(l.range[1]),
          static_cast<T>(l.limit_stiffness),
          static_cast<T>(l.limit_damping),
          static_cast<T>(axial || (ball && c == 0) ? link_param(p, ParamId::LinkStiffness, k, 0) : 0.0),
          static_cast<T>(axial ? link_param(p, ParamId::LinkSpringRef, k, 0) : 0.0),
          static_cast<T>(link_param(p, ParamId::LinkFrictionLoss, k, 0)),
          static_cast<T>(l.friction_velocity)};
  }
  return dofs;
}

// The actuators' models: each one's coordinate, channel, gear and ranges, with its gain
// and biases from actuator_gain, actuator_bias_q and actuator_bias_qd.
template <class T>
std::vector<DofActuator<T>> actuator_models(const Articulations& a, const ParameterSet& p) {
  const std::vector<int> coordinate = articulation_coordinates(a), position = articulation_positions(a);
  std::vector<DofActuator<T>> actuators;
  for (size_t k = 0; k < a.actuators.size(); ++k) {
    const ArticulationActuator& act = a.actuators[k];
    actuators.push_back(
        {coordinate[size_t(act.link)], position[size_t(act.link)], act.channel, static_cast<T>(act.gear),
         static_cast<T>(p[ParamId::ActuatorGain].value[k]), static_cast<T>(p[ParamId::ActuatorBiasQ].value[k]),
         static_cast<T>(p[ParamId::ActuatorBiasQd].value[k]), act.ctrl_limited ? 1 : 0,
         static_cast<T>(act.ctrl_range[0]), static_cast<T>(act.ctrl_range[1]), act.force_limited ? 1 : 0,
         static_cast<T>(act.force_range[0]), static_cast<T>(act.force_range[1])});
  }
  return actuators;
}

// The initial q: link_q for a hinge or a slide; link_translation then link_rotation for a
// free joint, link_rotation for a ball.
inline std::vector<double> initial_positions(const Articulations& a, const ParameterSet& p) {
  const std::vector<int> position = articulation_positions(a);
  std::vector<double> q(static_cast<size_t>(articulation_position_count(a)));
  for (size_t k = 0; k < a.links.size(); ++k) {
    double* out = position[k] >= 0 ? &q[size_t(position[k])] : nullptr;
    const ArticulationJoint joint = a.links[k].joint;
    if (joint == ArticulationJoint::Hinge || joint == ArticulationJoint::Slide)
      out[0] = link_param(p, ParamId::LinkJointPosition, k, 0);
    if (joint == ArticulationJoint::Free)
      for (size_t c = 0; c < 3; ++c) *out++ = link_param(p, ParamId::LinkTranslation, k, c);
    if (joint == ArticulationJoint::Ball || joint == ArticulationJoint::Free)
      for (size_t c = 0; c < 4; ++c) out[c] = link_param(p, ParamId::LinkRotation, k, c);
  }
  return q;
}

// The initial qd: link_qd for a hinge or a slide; link_linear_velocity then
// link_angular_velocity for a free joint, link_angular_velocity for a ball.
inline std::vector<double> initial_velocities(const Articulations& a, const ParameterSet& p) {
  const std::vector<int> coordinate = articulation_coordinates(a);
  std::vector<double> qd(static_cast<size_t>(articulation_coordinate_count(a)));
  for (size_t k = 0; k < a.links.size(); ++k) {
    double* out = coordinate[k] >= 0 ? &qd[size_t(coordinate[k])] : nullptr;
    const ArticulationJoint joint = a.links[k].joint;
    if (joint == ArticulationJoint::Hinge || joint == ArticulationJoint::Slide)
      out[0] = link_param(p, ParamId::LinkJointVelocity, k, 0);
    if (joint == ArticulationJoint::Free)
      for (size_t c = 0; c < 3; ++c) *out++ = link_param(p, ParamId::LinkLinearVelocity, k, c);
    if (joint == ArticulationJoint::Ball || joint == ArticulationJoint::Free)
      for (size_t c = 0; c < 3; ++c) out[c] = link_param(p, ParamId::LinkAngularVelocity, k, c);
  }
  return qd;
}

// The trees: a link without a parent starts one (the scene check keeps each tree's links
// together, parents first); each tree's mass matrix block follows the last's.
inline std::vector<TreeModel> tree_models(const Articulations& a) {
  std::vector<TreeModel> trees;
  int next_dof = 0, next_position = 0, matrix = 0;
  for (size_t k = 0; k < a.links.size(); ++k) {
    if (a.links[k].parent < 0 || trees.empty()) trees.push_back({int(k), 0, next_dof, 0, next_position, 0, 0});
    TreeModel& t = trees.back();
    ++t.links;
    t.dofs += joint_velocity_count(a.links[k].joint);
    t.positions += joint_position_count(a.links[k].joint);
    next_dof += joint_velocity_count(a.links[k].joint);
    next_position += joint_position_count(a.links[k].joint);
  }
  for (TreeModel& t : trees) {
    t.matrix = matrix;
    matrix += t.dofs * t.dofs;
  }
  return trees;
}

// Each tree's M + armature at the initial q (its dofs x dofs block, tree-local, row-major),
// in tree order: what the scene check factors and robot_scene scales limits by.
inline std::vector<std::vector<double>> initial_mass_matrices(const Articulations& a, const ParameterSet& p) {
  const std::vector<LinkModel<double>> links = link_models<double>(a, p);
  const std::vector<DofModel<double>> dofs = dof_models<double>(a, p);
  const std::vector<double> q = initial_positions(a, p);
  std::vector<LinkFrame<double>> frames(links.size());
  std::vector<std::vector<double>> matrices;
  for (const TreeModel& tree : tree_models(a)) {
    std::vector<double>& m = matrices.emplace_back(size_t(tree.dofs) * size_t(tree.dofs));
    if (tree.dofs == 0) continue;
    link_frames(tree, links.data(), q.data(), frames.data());
    mass_matrix(tree, links.data(), frames.data(), m.data());
    for (int i = 0; i < tree.dofs; ++i) m[size_t(i * tree.dofs + i)] += dofs[size_t(tree.first_dof + i)].armature;
  }
  return matrices;
}

// The links' contact points (articulation_contact.h), from their shapes in their frames:
// a sphere's centre with its radius; a capsule's two end centres with its radius, and a
// cylinder's likewise (it meets things as the capsule around it would); a box's eight
// corners with radius 0; a mesh's hull's vertices (times its mesh_scale) with radius 0. A
// shape that does not collide gives none.
struct LinkContactPoints {
  std::vector<int> start;  // per link, and one past the last
  std::vector<Vec3<double>> offset;
  std::vector<double> radius;
};

inline LinkContactPoints link_contact_points(const Articulations& a) {
  LinkContactPoints points;
  const auto add = [&](Vec3<double> p, double r) {
    points.offset.push_back(p);
    points.radius.push_back(r);
  };
  for (const ArticulationLink& link : a.links) {
    points.start.push_back(static_cast<int>(points.offset.size()));
    for (const LinkShape& shape : link.shapes) {
      if (!shape.collides) continue;
      const Quat<double> q = normalize(Quat<double>{shape.quat[0], shape.quat[1], shape.quat[2], shape.quat[3]});
      const Vec3<double> centre{shape.pos[0], shape.pos[1], shape.pos[2]};
      const double* size = shape.size;
      switch (shape.kind) {
        case LinkShape::Kind::Sphere: add(centre, size[0]); break;
        case LinkShape::Kind::Capsule:
        case LinkShape::Kind::Cylinder:
          for (double end : {-1.0, 1.0}) add(centre + rotate(q, Vec3<double>{0, 0, end * size[1]}), size[0]);
          break;
        case LinkShape::Kind::Box:
          for (int c = 0; c < 8; ++c) {
            const Vec3<double> corner{(c & 1 ? 1 : -1) * size[0], (c & 2 ? 1 : -1) * size[1],
                                      (c & 4 ? 1 : -1) * size[2]};
            add(centre + rotate(q, corner), 0.0);
          }
          break;
        case LinkShape::Kind::Mesh:
          if (!shape.hull) break;  // the scene check refuses a colliding mesh without one
          for (const std::array<double, 3>& v : shape.hull->vertices)
            add(centre + rotate(q, Vec3<double>{v[0] * shape.mesh_scale[0], v[1] * shape.mesh_scale[1],
                                                v[2] * shape.mesh_scale[2]}),
                0.0);
          break;
      }
    }
  }
  points.start.push_back(static_cast<int>(points.offset.size()));
  return points;
}

// The points as the links' sizes place them (link_resize.h: a radius grows by the scale).
inline LinkContactPoints resized_contact_points(const Articulations& a, const ParameterSet& p,
                                                LinkContactPoints points) {
  for (size_t k = 0; k < a.links.size(); ++k) {
    const LinkResize size = link_resize(a, p, k);
    for (int j = points.start[k]; j < points.start[k + 1]; ++j) {
      points.offset[size_t(j)] = size.point(points.offset[size_t(j)]);
      points.radius[size_t(j)] *= size.scale;
    }
  }
  return points;
}

// dL/d(the resized points' offsets and radii) to each link's link_scale and link_length;
// base: the points as given (link_contact_points).
inline void add_contact_point_size_grad(const Articulations& a, const ParameterSet& p, const LinkContactPoints& base,
                                        std::span<const double> adj_offset, std::span<const double> adj_radius,
                                        std::vector<double>& scale_grad, std::vector<double>& length_grad) {
  for (size_t k = 0; k < a.links.size(); ++k) {
    const LinkResize size = link_resize(a, p, k);
    for (int j = base.start[k]; j < base.start[k + 1]; ++j) {
      const Vec3<double> d = size.stretch(base.offset[size_t(j)] - size.centre);
      const double* g = &adj_offset[3 * size_t(j)];
      scale_grad[k] += g[0] * d.x + g[1] * d.y + g[2] * d.z + adj_radius[size_t(j)] * base.radius[size_t(j)];
      length_grad[k] += size.length_grad(base.offset[size_t(j)] - size.centre, Vec3<double>{g[0], g[1], g[2]});
    }
  }
}

}  // namespace nudge
