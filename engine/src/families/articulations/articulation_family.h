// The articulations as a family of the rollout (nudge/articulations.h): their joint
// coordinates and rates as state, their links' parameters, and one step per tree
// (articulation_dynamics.h; articulation_rk4.h with Integrator::RungeKutta4) in the
// bodies' phase, one kernel thread per tree. The
// actuators read the controls table every actuator reads. A scene without articulations
// has no state, arrays or phase work from it.
#pragma once

#include <cmath>
#include <limits>
#include <vector>

#include "families/articulations/articulation_dynamics.h"
#include "families/articulations/articulation_links.h"
#include "families/articulations/articulation_rk4.h"
#include "kernels/model.h"
#include "nudge/colliders.h"
#include "nudge/parameter_facts.h"
#include "nudge/scene.h"
#include "sim/backend.h"
#include "sim/soa.h"
#include "sim/state_layout.h"
#include "sim/step_pass.h"

namespace nudge {

// Per tree: one step from the state's (q, qd) into the next state's; a tree whose mass
// matrix is not positive definite gets NaN, which the rollout's NaN search reports.
template <class T>
struct ArticulationStepKernel {
  const TreeModel* trees;
  TreeStepInputs<T> in;
  TreeScratch<T> scratch;
  Rk4Scratch<T> rk4;  // active with Integrator::RungeKutta4
  const T* q;
  const T* qd;
  T* q_next;
  T* qd_next;
  NUDGE_HD void operator()(int i) const {
    const TreeModel& tree = trees[i];
    if (rk4.active() ? tree_step_rk4(tree, in, q, qd, scratch, rk4, q_next, qd_next)
                     : tree_step(tree, in, q, qd, scratch, q_next, qd_next))
      return;
    for (int k = tree.first_dof; k < tree.first_dof + tree.dofs; ++k) qd_next[k] = std::numeric_limits<T>::quiet_NaN();
    for (int k = tree.first_position; k < tree.first_position + tree.positions; ++k)
      q_next[k] = std::numeric_limits<T>::quiet_NaN();
  }
};

// Per tree: the step's adjoint, dL/d(q', qd') to dL/d(q, qd) in place, and the
// parameters' shares into grad.
template <class T>
struct ArticulationAdjointKernel {
  const TreeModel* trees;
  TreeStepInputs<T> in;
  TreeScratch<T> scratch;
  Rk4Scratch<T> rk4;
  const T* q;
  const T* qd;
  T* adj_q;
  T* adj_qd;
  TreeGrad<T> grad;
  NUDGE_HD void operator()(int i) const {
    const TreeModel& tree = trees[i];
    if (rk4.active() ? adjoint_tree_step_rk4(tree, in, q, qd, scratch, rk4, adj_q, adj_qd, grad, i)
                     : adjoint_tree_step(tree, in, q, qd, scratch, adj_q, adj_qd, grad, i))
      return;
    for (int k = tree.first_dof; k < tree.first_dof + tree.dofs; ++k) adj_qd[k] = std::numeric_limits<T>::quiet_NaN();
    for (int k = tree.first_position; k < tree.first_position + tree.positions; ++k)
      adj_q[k] = std::numeric_limits<T>::quiet_NaN();
  }
};

template <class T, Backend Exec>
class ArticulationFamily {
public:
  ArticulationFamily(const Scene& scene, const Exec& exec)
      : links_(scene.articulations.link_count()), dofs_(articulation_coordinate_count(scene.articulations)),
        positions_(articulation_position_count(scene.articulations)), channels_(scene.channels),
        articulations_(scene.articulations), contact_(scene.contact), dt_(static_cast<T>(scene.settings.dt)),
        runge_kutta_(scene.settings.integrator == Integrator::RungeKutta4) {
    if (links_ == 0) return;
    const Articulations& a = scene.articulations;
    coordinate_ = articulation_coordinates(a);
    position_ = articulation_positions(a);
    const std::vector<TreeModel> trees = tree_models(a);
    const int matrix = trees.back().matrix + trees.back().dofs * trees.back().dofs;
    tree_count_ = static_cast<int>(trees.size());
    exec.upload(trees_, trees);
    actuator_count_ = static_cast<int>(a.actuators.size());
    exec.resize(frames_, size_t(links_));
    for (Array* m : {&matrix_, &mass_}) exec.resize(*m, size_t(matrix > 0 ? matrix : 1));
    for (Array* v : {&tau_, &qdd_, &work_, &step_, &base_}) exec.resize(*v, size_t(dofs_ > 0 ? dofs_ : 1));
    if (runge_kutta_) {
      const size_t dofs = size_t(dofs_ > 0 ? dofs_ : 1), positions = size_t(positions_ > 0 ? positions_ : 1);
      for (Array* v : {&rk4_v_, &rk4_a_, &rk4_adj_v_, &rk4_adj_a_}) exec.resize(*v, 4 * dofs);
      for (Array* v : {&rk4_rate_, &rk4_adj_rate_}) exec.resize(*v, dofs);
      for (Array* v : {&rk4_q_, &rk4_adj_q_}) exec.resize(*v, positions);
    }
    points_ = link_contact_points(a);
    contact_points_ = static_cast<int>(points_.radius.size());
    if (contact_points_ > 0) exec.upload(point_start_, points_.start);
  }

  void state_fields(std::vector<StateField>& out) const {
    if (links_ == 0) return;
    out.push_back({StateArray::JointQ, 1, positions_, "q entry", "joint position"});
    out.push_back({StateArray::JointQd, 1, dofs_, "qd entry", "joint velocity"});
  }

  // The links' parameters, and the initial q and qd.
  void upload(const ParameterSet& p, StateView<T> initial, const Exec& exec) {
    if (links_ == 0) return;
    const Articulations& a = articulations_;
    exec.upload(links_model_, link_models<T>(a, p));
    exec.upload(dofs_model_, dof_models<T>(a, p));
    if (actuator_count_ > 0) exec.upload(actuators_, actuator_models<T>(a, p));
    if (contact_points_ > 0) {  // where the links' sizes put them
      const LinkContactPoints points = resized_contact_points(a, p, points_);
      std::vector<Vec3<T>> offset;
      for (const Vec3<double>& o : points.offset)
        offset.push_back({static_cast<T>(o.x), static_cast<T>(o.y), static_cast<T>(o.z)});
      exec.upload(point_offset_, offset);
      exec.upload(point_radius_, std::vector<T>(points.radius.begin(), points.radius.end()));
    }
    if (dofs_ > 0) {
      const auto as_t = [](const std::vector<double>& v) { return std::vector<T>(v.begin(), v.end()); };
      exec.upload_to(initial.joint_q, as_t(initial_positions(a, p)));
      exec.upload_to(initial.joint_qd, as_t(initial_velocities(a, p)));
    }
    for (int k = 0; k < 3; ++k) gravity_[k] = static_cast<T>(p[ParamId::Gravity].value[size_t(k)]);
  }

  void integrate_bodies(const StepPass<T, Exec>& pass) {
    if (links_ == 0) return;
    pass.exec.launch(tree_count_,
                     ArticulationStepKernel<T>{pass.exec.data(trees_), inputs(pass.exec, pass.m, pass.t),
                                               scratch(pass.exec), rk4_scratch(pass.exec), pass.state.joint_q,
                                               pass.state.joint_qd, pass.next.joint_q, pass.next.joint_qd});
  }

  void adjoint_integrate_bodies(const AdjointPass<T, Exec>& pass) {
    if (links_ == 0) return;
    const Exec& exec = pass.exec;
    TreeGrad<T> g{};
    if (!pass.grad.operator_product) {
      g.mass = exec.data(g_mass_);
      g.com = reinterpret_cast<Vec3<T>*>(exec.data(g_com_));
      g.inertia = reinterpret_cast<Mat33<T>*>(exec.data(g_inertia_));
      g.pos = reinterpret_cast<Vec3<T>*>(exec.data(g_pos_));
      g.armature = exec.data(g_armature_);
      g.damping = exec.data(g_damping_);
      g.stiffness = exec.data(g_stiffness_);
      g.spring_ref = exec.data(g_spring_ref_);
      g.frictionloss = exec.data(g_frictionloss_);
      g.gravity = reinterpret_cast<Vec3<T>*>(exec.data(g_gravity_));
      g.contact = {exec.data(g_contact_), exec.data(g_contact_) + tree_count_, exec.data(g_contact_) + 2 * tree_count_};
      if (contact_points_ > 0)
        g.points = {reinterpret_cast<Vec3<T>*>(exec.data(g_point_offset_)), exec.data(g_point_radius_)};
      g.actuator = {exec.data(g_gain_), exec.data(g_bias_q_), exec.data(g_bias_qd_)};
      if (channels_ > 0 && pass.grad.actuators.controls)
        g.controls = pass.grad.actuators.controls + size_t(pass.t) * size_t(channels_);
    }
    exec.launch(tree_count_, ArticulationAdjointKernel<T>{exec.data(trees_), inputs(exec, pass.m, pass.t),
                                                          scratch(exec), rk4_scratch(exec), pass.state.joint_q,
                                                          pass.state.joint_qd, pass.adj.joint_q, pass.adj.joint_qd, g});
  }

  void zero_gradients(const Exec& exec) {
    if (links_ == 0) return;
    const auto zeroed = [&](Array& a, size_t n) {
      exec.resize(a, n > 0 ? n : 1);
      exec.zero(a);
    };
    zeroed(g_mass_, size_t(links_));
    zeroed(g_com_, 3 * size_t(links_));
    zeroed(g_inertia_, 9 * size_t(links_));
    zeroed(g_pos_, 3 * size_t(links_));
    zeroed(g_armature_, size_t(dofs_));
    zeroed(g_damping_, size_t(dofs_));
    zeroed(g_stiffness_, size_t(dofs_));
    zeroed(g_spring_ref_, size_t(dofs_));
    zeroed(g_frictionloss_, size_t(dofs_));
    zeroed(g_gravity_, 3 * size_t(tree_count_));
    zeroed(g_contact_, 3 * size_t(tree_count_));
    zeroed(g_point_offset_, 3 * size_t(contact_points_));
    zeroed(g_point_radius_, size_t(contact_points_));
    for (Array* g : {&g_gain_, &g_bias_q_, &g_bias_qd_}) zeroed(*g, size_t(actuator_count_));
  }

  // Per link, in its rows; the initial q and qd from adj0; gravity's shares in tree order.
  // The kernels' models are the resized links' (link_models); each share goes back through
  // the resize to its parameter and to link_scale and link_length (link_resize.h).
  void download_gradients(ParameterSet& p, StateView<const T> adj0, const Exec& exec) const {
    if (links_ == 0) return;
    const std::vector<double> mass = fetch_values(exec, exec.data(g_mass_), size_t(links_));
    const std::vector<double> com = fetch_values(exec, exec.data(g_com_), 3 * size_t(links_));
    const std::vector<double> inertia = fetch_values(exec, exec.data(g_inertia_), 9 * size_t(links_));
    const std::vector<double> pos = fetch_values(exec, exec.data(g_pos_), 3 * size_t(links_));
    const std::vector<double> armature = fetch_values(exec, exec.data(g_armature_), size_t(dofs_));
    const std::vector<double> damping = fetch_values(exec, exec.data(g_damping_), size_t(dofs_));
    const std::vector<double> stiffness = fetch_values(exec, exec.data(g_stiffness_), size_t(dofs_));
    const std::vector<double> spring_ref = fetch_values(exec, exec.data(g_spring_ref_), size_t(dofs_));
    const std::vector<double> frictionloss = fetch_values(exec, exec.data(g_frictionloss_), size_t(dofs_));
    const std::vector<double> gravity = fetch_values(exec, exec.data(g_gravity_), 3 * size_t(tree_count_));
    const std::vector<double> adj_q = fetch_values(exec, adj0.joint_q, size_t(positions_));
    const std::vector<double> adj_qd = fetch_values(exec, adj0.joint_qd, size_t(dofs_));
    for (auto id :
         {ParamId::LinkPosition, ParamId::LinkMass, ParamId::LinkCom, ParamId::LinkInertia, ParamId::LinkDamping,
          ParamId::LinkArmature, ParamId::LinkJointPosition, ParamId::LinkJointVelocity, ParamId::LinkRotation,
          ParamId::LinkTranslation, ParamId::LinkAngularVelocity, ParamId::LinkLinearVelocity, ParamId::LinkScale,
          ParamId::LinkLength, ParamId::LinkStiffness, ParamId::LinkSpringRef, ParamId::LinkFrictionLoss})
      p[id].grad.assign(size_t(links_) * size_t(param_facts(id).cols), 0.0);
    std::vector<double>& scale = p[ParamId::LinkScale].grad;
    std::vector<double>& length = p[ParamId::LinkLength].grad;
    for (size_t k = 0; k < size_t(links_); ++k) {
      // mass det(A) m, com c + A (com - c), the inertia resized (link_resize.h)
      const LinkResize size = link_resize(articulations_, p, k);
      const double s = size.scale, s2 = s * s, m0 = link_param(p, ParamId::LinkMass, k, 0);
      p[ParamId::LinkMass].grad[k] = size.mass_factor() * mass[k];
      scale[k] += 3 * s2 * size.length * m0 * mass[k];
      length[k] += s2 * s * m0 * mass[k];
      const Vec3<double> com_value = {link_param(p, ParamId::LinkCom, k, 0), link_param(p, ParamId::LinkCom, k, 1),
                                      link_param(p, ParamId::LinkCom, k, 2)};
      const Vec3<double> g_com{com[3 * k], com[3 * k + 1], com[3 * k + 2]};
      const Vec3<double> along = size.stretch(com_value - size.centre), g_com_value = size.linear(g_com);
      p[ParamId::LinkCom].grad[3 * k] = g_com_value.x;
      p[ParamId::LinkCom].grad[3 * k + 1] = g_com_value.y;
      p[ParamId::LinkCom].grad[3 * k + 2] = g_com_value.z;
      scale[k] += g_com.x * along.x, scale[k] += g_com.y * along.y, scale[k] += g_com.z * along.z;
      length[k] += size.length_grad(com_value - size.centre, g_com);
      add_placement_grad(articulations_, p, k, {pos[3 * k], pos[3 * k + 1], pos[3 * k + 2]});
      // The matrix's (r, c) and (c, r) entries are one parameter.
      const double* m = &inertia[9 * k];
      const double row[6] = {m[0], m[4], m[8], m[1] + m[3], m[2] + m[6], m[5] + m[7]};
      double value[6];
      for (size_t c = 0; c < 6; ++c) value[c] = link_param(p, ParamId::LinkInertia, k, c);
      size.add_inertia_grad(value, row, &p[ParamId::LinkInertia].grad[6 * k], scale[k], length[k]);
      const int d = coordinate_[k];
      if (d < 0) continue;
      const ArticulationJoint joint = articulations_.links[k].joint;
      for (int c = 0; c < joint_velocity_count(joint); ++c) {  // a ball's coordinates share them
        p[ParamId::LinkArmature].grad[k] += armature[size_t(d + c)];
        p[ParamId::LinkDamping].grad[k] += damping[size_t(d + c)];
        p[ParamId::LinkFrictionLoss].grad[k] += frictionloss[size_t(d + c)];
      }
      const double* q = &adj_q[size_t(position_[k])];
      const double* qd = &adj_qd[size_t(d)];
      if (joint == ArticulationJoint::Hinge || joint == ArticulationJoint::Slide) {
        p[ParamId::LinkJointPosition].grad[k] = q[0];
        p[ParamId::LinkJointVelocity].grad[k] = qd[0];
        p[ParamId::LinkStiffness].grad[k] = stiffness[size_t(d)];
        p[ParamId::LinkSpringRef].grad[k] = spring_ref[size_t(d)];
        continue;
      }
      if (joint == ArticulationJoint::Ball) p[ParamId::LinkStiffness].grad[k] = stiffness[size_t(d)];
      if (joint == ArticulationJoint::Free) {
        for (size_t c = 0; c < 3; ++c) {
          p[ParamId::LinkTranslation].grad[3 * k + c] = *q++;
          p[ParamId::LinkLinearVelocity].grad[3 * k + c] = *qd++;
        }
      }
      for (size_t c = 0; c < 4; ++c) p[ParamId::LinkRotation].grad[4 * k + c] = q[c];
      for (size_t c = 0; c < 3; ++c) p[ParamId::LinkAngularVelocity].grad[3 * k + c] = qd[c];
    }
    const auto actuator_grad = [&](ParamId id, const Array& g) {
      p[id].grad = fetch_values(exec, exec.data(g), size_t(actuator_count_));
    };
    actuator_grad(ParamId::ActuatorGain, g_gain_);
    actuator_grad(ParamId::ActuatorBiasQ, g_bias_q_);
    actuator_grad(ParamId::ActuatorBiasQd, g_bias_qd_);
    for (int t = 0; t < tree_count_; ++t)
      for (size_t c = 0; c < 3; ++c) p[ParamId::Gravity].grad[c] += gravity[3 * size_t(t) + c];
    if (contact_points_ > 0) {
      const std::vector<double> offset = fetch_values(exec, exec.data(g_point_offset_), 3 * size_t(contact_points_));
      const std::vector<double> radius = fetch_values(exec, exec.data(g_point_radius_), size_t(contact_points_));
      add_contact_point_size_grad(articulations_, p, points_, offset, radius, scale, length);
    }
    // The contact parameters' shares, after the colliders' own (their family sets them).
    if (contact_points_ > 0 && p[ParamId::ContactStiffness].grad.size() == 1) {
      const std::vector<double> contact = fetch_values(exec, exec.data(g_contact_), 3 * size_t(tree_count_));
      const ParamId shares[3] = {ParamId::ContactStiffness, contact_damping_parameter(contact_),
                                 ParamId::ContactFriction};
      for (size_t c = 0; c < 3; ++c)
        for (size_t t = 0; t < size_t(tree_count_); ++t) p[shares[c]].grad[0] += contact[c * size_t(tree_count_) + t];
    }
  }

private:
  using Array = typename Exec::template Array<T>;

  TreeStepInputs<T> inputs(const Exec& exec, const ModelView<T>& m, int t) const {
    const T* controls =
        channels_ > 0 && m.actuators.controls ? m.actuators.controls + size_t(t) * size_t(channels_) : nullptr;
    return {exec.data(links_model_),
            exec.data(dofs_model_),
            actuator_count_ > 0 ? exec.data(actuators_) : nullptr,
            actuator_count_,
            controls,
            {gravity_[0], gravity_[1], gravity_[2]},
            dt_,
            contacts(exec, m)};
  }

  LinkContacts<T> contacts(const Exec& exec, const ModelView<T>& m) const {
    if (contact_points_ == 0 || m.colliders.count == 0) return {};
    return {m.colliders, exec.data(point_start_), exec.data(point_offset_), exec.data(point_radius_)};
  }

  TreeScratch<T> scratch(const Exec& exec) {
    return {exec.data(frames_), exec.data(matrix_), exec.data(tau_),  exec.data(qdd_),
            exec.data(work_),   exec.data(mass_),   exec.data(step_), exec.data(base_)};
  }

  Rk4Scratch<T> rk4_scratch(const Exec& exec) {
    if (!runge_kutta_) return {};
    return {exec.data(rk4_v_),     exec.data(rk4_a_),     exec.data(rk4_adj_v_),
            exec.data(rk4_adj_a_), exec.data(rk4_rate_),  exec.data(rk4_adj_rate_),
            exec.data(rk4_q_),     exec.data(rk4_adj_q_), dofs_};
  }

  int links_, dofs_, positions_, channels_;
  Articulations articulations_;
  ContactSettings contact_;
  T dt_;
  bool runge_kutta_;
  int tree_count_ = 0, actuator_count_ = 0, contact_points_ = 0;
  LinkContactPoints points_;  // unscaled: the scale of each upload places them
  std::vector<int> coordinate_, position_;
  T gravity_[3] = {0, 0, 0};
  typename Exec::template Array<TreeModel> trees_;
  typename Exec::template Array<LinkModel<T>> links_model_;
  typename Exec::template Array<DofModel<T>> dofs_model_;
  typename Exec::template Array<DofActuator<T>> actuators_;
  typename Exec::template Array<LinkFrame<T>> frames_;
  Array matrix_, tau_, qdd_, work_, mass_, step_, base_;
  Array rk4_v_, rk4_a_, rk4_adj_v_, rk4_adj_a_, rk4_rate_, rk4_adj_rate_, rk4_q_, rk4_adj_q_;  // RK4's only
  typename Exec::template Array<int> point_start_;
  typename Exec::template Array<Vec3<T>> point_offset_;
  Array point_radius_;
  Array g_mass_, g_com_, g_inertia_, g_pos_, g_armature_, g_damping_, g_stiffness_, g_spring_ref_, g_frictionloss_,
      g_gravity_, g_contact_;
  Array g_point_offset_, g_point_radius_, g_gain_, g_bias_q_, g_bias_qd_;
};

}  // namespace nudge
