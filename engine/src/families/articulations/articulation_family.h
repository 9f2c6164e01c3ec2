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
#include "families/articulations/body_link_contact.h"
#include "families/articulations/link_motion.h"
#include "families/articulations/link_solid_shapes.h"
#include "families/articulations/particle_link_contact.h"
#include "families/articulations/link_contact_report.h"
#include "families/articulations/link_link_contact.h"
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

// Per tree: each link's frame and velocity at the step's start, and its shapes' places.
template <class T>
struct LinkMotionKernel {
  const TreeModel* trees;
  const LinkModel<T>* links;
  const T* q;
  const T* qd;
  LinkFrame<T>* frames;
  LinkMotion<T>* motion;
  const int* shape_start;
  const Vec3<T>* shape_pos;
  const Mat33<T>* shape_rot;
  ShapePlacement<T>* placement;
  NUDGE_HD void operator()(int i) const {
    tree_link_motion(trees[i], links, q, qd, frames, motion, shape_start, shape_pos, shape_rot, placement);
  }
};

// Per link: the particles' and bodies' wrench on it, which its tree's step takes as
// external.
template <class T>
struct LinkExternalWrenchKernel {
  ModelView<T> m;
  StateView<const T> s;
  Spatial<T>* wrench;
  NUDGE_HD void operator()(int k) const {
    Spatial<T> w{{0, 0, 0}, {0, 0, 0}};
    if (m.link_shapes.particles) w += link_particle_wrench(m, k, s);
    if (m.link_shapes.bodies) w += link_body_wrench(m, k, s);
    if (m.link_shapes.each_other) w += link_link_wrench(m, k);
    wrench[k] = w;
  }
};

// Per link, after the particles' adjoint: what its motion and its shapes owe to its
// contacts with particles (every particle's dL/dF in adj_f).
template <class T>
struct LinkParticleAdjointKernel {
  ModelView<T> m;
  StateView<const T> s;
  const T* adj_f;
  Spatial<T>* adj_velocity;
  Spatial<T>* adj_frame;
  T* grad_mass;                // per link, or null
  Vec3<T>* grad_centre;        // per shape, or null
  Vec3<T>* grad_turn;          // per shape
  T* grad_size;                // 3 per shape
  Vec3<T>* grad_point_offset;  // per link contact point, or null
  T* grad_point_radius;
  T* grad_contact;  // 3 per link (stiffness, damping, friction: its points' contacts with links), or null
  NUDGE_HD void operator()(int k) const {
    const auto on_shape = [&](int j, const ParticleLinkAdjoint<T>& shape) {
      if (!grad_centre) return;
      grad_centre[j] += shape.centre;
      grad_turn[j] += shape.turn;
      for (int c = 0; c < 3; ++c) grad_size[3 * j + c] += shape.size[c];
    };
    Spatial<T> velocity{{0, 0, 0}, {0, 0, 0}}, frame{{0, 0, 0}, {0, 0, 0}};
    T link_mass = 0;
    if (m.link_shapes.particles) {
      const ParticleLinkAdjoint<T> a = adj_link_particle_wrench(m, k, s, adj_f, on_shape);
      velocity += a.velocity, frame += a.frame, link_mass += a.link_mass;
    }
    if (m.link_shapes.bodies) {
      const int nb = m.bodies.count;
      for (int b = 0; b < nb; ++b) {
        BodyLinkAdjoint<T> a;
        adj_body_link_contacts(m, b, load_body(s, b, nb), k, load_wrench(m.coupling.adj_wrench, b, nb),
                               m.link_shapes.adj_wrench[k], a, on_shape, [&](int j, Vec3<T> offset, T radius) {
                                 if (!grad_point_offset) return;
                                 grad_point_offset[j] += offset;
                                 grad_point_radius[j] += radius;
                               });
        velocity += a.link.velocity, frame += a.link.frame, link_mass += a.link.link_mass;
      }
    }
    if (m.link_shapes.each_other) {
      LinkLinkAdjoint<T> a;
      adj_link_link_contacts(m, k, a, on_shape, [&](int j, Vec3<T> offset, T radius) {
        if (!grad_point_offset) return;
        grad_point_offset[j] += offset;
        grad_point_radius[j] += radius;
      });
      velocity += a.velocity, frame += a.frame, link_mass += a.link_mass;
      if (grad_contact) {
        grad_contact[3 * k] += a.stiffness;
        grad_contact[3 * k + 1] += a.damping;
        grad_contact[3 * k + 2] += a.friction;
      }
    }
    adj_velocity[k] = velocity;
    adj_frame[k] = frame;
    if (grad_mass) grad_mass[k] += link_mass;
  }
};

// Per body, after the particles' adjoint: what its state and parameters owe to its
// contacts with links, added to adj and to the bodies' gradients.
template <class T>
struct BodyLinkAdjointKernel {
  ModelView<T> m;
  StateView<const T> s;
  StateView<T> adj;
  BodyGrad<T> grad;  // null members: not wanted
  NUDGE_HD void operator()(int b) const {
    const int nb = m.bodies.count;
    const BodyState<T> sb = load_body(s, b, nb);
    const Wrench<T> bbar = load_wrench(m.coupling.adj_wrench, b, nb);
    BodyLinkAdjoint<T> a;
    for (int k = 0; k < m.link_shapes.links; ++k)
      adj_body_link_contacts(
          m, b, sb, k, bbar, m.link_shapes.adj_wrench[k], a, [](int, const ParticleLinkAdjoint<T>&) {},
          [](int, Vec3<T>, T) {});
    BodyState<T> total = load_body(StateView<const T>(adj), b, nb);
    total.x += a.body.x, total.v += a.body.v, total.w += a.body.w;
    total.q = {total.q.x + a.body.q.x, total.q.y + a.body.q.y, total.q.z + a.body.q.z, total.q.w + a.body.q.w};
    store_body(adj, b, nb, total);
    if (!grad.mass) return;
    grad.mass[b] += a.body_mass;
    add3(grad.size, b, nb, a.body_size);
    grad.stiffness[b] += a.stiffness;
    grad.damping[b] += a.damping;
    grad.friction[b] += a.friction;
  }
};

// Per tree: the links' motions' adjoint into dL/dq, dL/dqd and the links' placements.
template <class T>
struct LinkMotionAdjointKernel {
  const TreeModel* trees;
  const LinkModel<T>* links;
  const T* q;
  const T* qd;
  LinkFrame<T>* frames;
  const Spatial<T>* adj_velocity;
  const Spatial<T>* adj_frame;
  T* adj_q;
  T* adj_qd;
  Vec3<T>* grad_pos;
  NUDGE_HD void operator()(int i) const {
    adjoint_tree_link_motion(trees[i], links, q, qd, frames, adj_velocity, adj_frame, adj_q, adj_qd, grad_pos);
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
    host_trees_ = trees;
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
    particles_ = scene.contact.bodies && scene.particle_count() > 0 && has_solid_link_shapes(a);
    bodies_ = scene.contact.bodies && scene.body_count() > 0 && (has_solid_link_shapes(a) || contact_points_ > 0);
    if (bodies_ && contact_points_ == 0) exec.upload(point_start_, points_.start);  // all empty, but there
    each_other_ = a.self_contact && a.link_count() > 1 && has_solid_link_shapes(a) && contact_points_ > 0;
    material_points_ = material_points_meet_links(scene);
    if (each_other_) {
      std::vector<int> parent;
      for (const ArticulationLink& l : a.links) parent.push_back(l.parent);
      exec.upload(link_parent_, parent);
    }
    if (met()) {
      const size_t links = size_t(links_);
      exec.resize(motion_frames_, links);
      exec.resize(motion_, links);
      for (Array* w : {&external_, &adj_external_, &adj_velocity_, &adj_frame_}) exec.resize(*w, 6 * links);
      if (material_points_)
        for (Array* w : {&grid_adj_velocity_, &grid_adj_frame_}) exec.resize(*w, 6 * links);
      reach_ = static_cast<T>(kBodyContactReachWidths * scene.contact.smoothing);
    }
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
    const std::vector<LinkModel<T>> links = link_models<T>(a, p);
    exec.upload(links_model_, links);
    if (met()) upload_solid_shapes(p, link_solid_shapes(a, p), links, exec);
    host_links_ = links;  // live play's contacts place the links on the host
    exec.upload(dofs_model_, dof_models<T>(a, p));
    if (actuator_count_ > 0) exec.upload(actuators_, actuator_models<T>(a, p));
    if (contact_points_ > 0) {  // where the links' sizes put them
      const LinkContactPoints points = resized_contact_points(a, p, points_);
      std::vector<Vec3<T>> offset;
      for (const Vec3<double>& o : points.offset)
        offset.push_back({static_cast<T>(o.x), static_cast<T>(o.y), static_cast<T>(o.z)});
      exec.upload(point_offset_, offset);
      exec.upload(point_radius_, std::vector<T>(points.radius.begin(), points.radius.end()));
      host_point_offset_ = offset;
      host_point_radius_.assign(points.radius.begin(), points.radius.end());
    }
    if (dofs_ > 0) {
      const auto as_t = [](const std::vector<double>& v) { return std::vector<T>(v.begin(), v.end()); };
      exec.upload_to(initial.joint_q, as_t(initial_positions(a, p)));
      exec.upload_to(initial.joint_qd, as_t(initial_velocities(a, p)));
    }
    for (int k = 0; k < 3; ++k) gravity_[k] = static_cast<T>(p[ParamId::Gravity].value[size_t(k)]);
  }

  // The model's view of the links' shapes, which particles meet.
  void put_model(ModelView<T>& m, const Exec& exec) const {
    if (!met()) return;
    LinkShapeModel<T>& ls = m.link_shapes;
    ls.particles = particles_;
    ls.bodies = bodies_;
    ls.each_other = each_other_;
    ls.parent = each_other_ ? exec.data(link_parent_) : nullptr;
    ls.links = links_;
    ls.link_bound = exec.data(link_bound_);
    ls.point_start = exec.data(point_start_);
    ls.point_offset = exec.data(point_offset_);
    ls.point_radius = exec.data(point_radius_);
    ls.count = shape_count_;
    ls.shape = exec.data(shapes_);
    ls.link = exec.data(shape_link_);
    ls.shape_start = exec.data(shape_start_);
    ls.pos = exec.data(shape_pos_);
    ls.rot = exec.data(shape_rot_);
    ls.bound = exec.data(shape_bound_);
    ls.link_mass = exec.data(link_mass_);
    ls.motion = exec.data(motion_);
    ls.placement = exec.data(placement_);
    ls.adj_wrench = spatial(exec, adj_external_);
    ls.reach = reach_;
    if (!material_points_) return;
    ls.material_points = true;
    ls.external = spatial(exec, external_);
    ls.grid_adj_velocity = spatial(exec, grid_adj_velocity_);
    ls.grid_adj_frame = spatial(exec, grid_adj_frame_);
    ls.grad_centre = reinterpret_cast<Vec3<T>*>(exec.data(g_shape_centre_));
    ls.grad_turn = reinterpret_cast<Vec3<T>*>(exec.data(g_shape_turn_));
    ls.grad_size = exec.data(g_shape_size_);
  }

  // Where the links are at the step's start, and the particles' wrench on each, for the
  // particles' pass and the trees' step.
  void kinematics(const StepPass<T, Exec>& pass) {
    if (!met()) return;
    const Exec& exec = pass.exec;
    exec.launch(tree_count_,
                LinkMotionKernel<T>{exec.data(trees_), exec.data(links_model_), pass.state.joint_q, pass.state.joint_qd,
                                    exec.data(motion_frames_), exec.data(motion_), exec.data(shape_start_),
                                    exec.data(shape_pos_), exec.data(shape_rot_), exec.data(placement_)});
    exec.launch(links_, LinkExternalWrenchKernel<T>{pass.m, pass.state, spatial(exec, external_)});
  }

  // Live play, on a host rollout: the links' contacts with colliders, particles and
  // bodies (link_contact_report.h), the links placed at state s.
  void contacts(const ModelView<T>& m, StateView<const T> s, std::vector<Contact>& out) const {
    if (links_ == 0 || (!met() && (contact_points_ == 0 || m.colliders.count == 0))) return;
    LinkShapeModel<T> ls = met() ? m.link_shapes : LinkShapeModel<T>{};
    const std::vector<int> no_shapes(size_t(links_) + 1, 0);
    if (!met()) ls.shape_start = no_shapes.data();
    ls.links = links_;
    ls.point_start = points_.start.data();
    ls.point_offset = host_point_offset_.data();
    ls.point_radius = host_point_radius_.data();
    std::vector<T> link_mass;
    for (const LinkModel<T>& l : host_links_) link_mass.push_back(l.mass);
    ls.link_mass = link_mass.data();
    std::vector<LinkFrame<T>> frames(static_cast<size_t>(links_));
    std::vector<LinkMotion<T>> motion(static_cast<size_t>(links_));
    std::vector<ShapePlacement<T>> placement(static_cast<size_t>(shape_count_));
    for (const TreeModel& tree : host_trees_)
      tree_link_motion(tree, host_links_.data(), s.joint_q, s.joint_qd, frames.data(), motion.data(), ls.shape_start,
                       ls.pos, ls.rot, placement.data());
    ls.motion = motion.data(), ls.placement = placement.data();
    report_link_contacts(m, s, ls, out);
  }

  // After the particles' adjoint: the links' contacts with particles, through the links'
  // motions, into dL/dq and dL/dqd.
  void gather_particle_body_adjoints(const AdjointPass<T, Exec>& pass) {
    if (!met()) return;
    const Exec& exec = pass.exec;
    const bool grads = !pass.grad.operator_product;
    const bool points = grads && contact_points_ > 0;
    exec.launch(links_, LinkParticleAdjointKernel<T>{
                            pass.m, pass.state, pass.adj_f, spatial(exec, adj_velocity_), spatial(exec, adj_frame_),
                            grads ? exec.data(g_mass_) : nullptr,
                            grads ? reinterpret_cast<Vec3<T>*>(exec.data(g_shape_centre_)) : nullptr,
                            reinterpret_cast<Vec3<T>*>(exec.data(g_shape_turn_)), exec.data(g_shape_size_),
                            points ? reinterpret_cast<Vec3<T>*>(exec.data(g_point_offset_)) : nullptr,
                            points ? exec.data(g_point_radius_) : nullptr,
                            grads && each_other_ ? exec.data(g_link_contact_) : nullptr});
    if (bodies_)
      exec.launch(pass.m.bodies.count,
                  BodyLinkAdjointKernel<T>{pass.m, pass.state, pass.adj, grads ? pass.grad.bodies : BodyGrad<T>{}});
    exec.launch(tree_count_,
                LinkMotionAdjointKernel<T>{exec.data(trees_), exec.data(links_model_), pass.state.joint_q,
                                           pass.state.joint_qd, exec.data(motion_frames_), spatial(exec, adj_velocity_),
                                           spatial(exec, adj_frame_), pass.adj.joint_q, pass.adj.joint_qd,
                                           grads ? reinterpret_cast<Vec3<T>*>(exec.data(g_pos_)) : nullptr});
  }

  // After the grid's adjoint (adjoint_couple_bodies): the links' contacts with material
  // points, through the links' motions, into dL/dq and dL/dqd.
  void gather_body_adjoints(const AdjointPass<T, Exec>& pass) {
    if (!material_points_) return;
    const Exec& exec = pass.exec;
    exec.launch(tree_count_, LinkMotionAdjointKernel<T>{
                                 exec.data(trees_), exec.data(links_model_), pass.state.joint_q, pass.state.joint_qd,
                                 exec.data(motion_frames_), spatial(exec, grid_adj_velocity_),
                                 spatial(exec, grid_adj_frame_), pass.adj.joint_q, pass.adj.joint_qd,
                                 pass.grad.operator_product ? nullptr : reinterpret_cast<Vec3<T>*>(exec.data(g_pos_))});
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
    TreeStepInputs<T> in = inputs(exec, pass.m, pass.t);
    if (met()) {
      exec.zero(adj_external_);
      in.contacts.adj_external = spatial(exec, adj_external_);  // particles' and bodies'
    }
    exec.launch(tree_count_, ArticulationAdjointKernel<T>{exec.data(trees_), in, scratch(exec), rk4_scratch(exec),
                                                          pass.state.joint_q, pass.state.joint_qd, pass.adj.joint_q,
                                                          pass.adj.joint_qd, g});
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
    zeroed(g_link_contact_, each_other_ ? 3 * size_t(links_) : 0);
    zeroed(g_point_offset_, 3 * size_t(contact_points_));
    zeroed(g_point_radius_, size_t(contact_points_));
    for (Array* g : {&g_shape_centre_, &g_shape_turn_, &g_shape_size_}) zeroed(*g, 3 * size_t(shape_count_));
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
    if (shape_count_ > 0) {  // the solids particles met
      const size_t values = 3 * size_t(shape_count_);
      add_solid_shape_size_grad(articulations_, p, fetch_values(exec, exec.data(g_shape_centre_), values),
                                fetch_values(exec, exec.data(g_shape_turn_), values),
                                fetch_values(exec, exec.data(g_shape_size_), values), scale, length);
    }
    // The contact parameters' shares, after the colliders' own (their family sets them).
    if (contact_points_ > 0 && p[ParamId::ContactStiffness].grad.size() == 1) {
      const std::vector<double> contact = fetch_values(exec, exec.data(g_contact_), 3 * size_t(tree_count_));
      const ParamId shares[3] = {ParamId::ContactStiffness, contact_damping_parameter(contact_),
                                 ParamId::ContactFriction};
      for (size_t c = 0; c < 3; ++c)
        for (size_t t = 0; t < size_t(tree_count_); ++t) p[shares[c]].grad[0] += contact[c * size_t(tree_count_) + t];
      if (each_other_) {  // the links' contacts with each other
        const std::vector<double> pairs = fetch_values(exec, exec.data(g_link_contact_), 3 * size_t(links_));
        for (size_t k = 0; k < size_t(links_); ++k)
          for (size_t c = 0; c < 3; ++c) p[shares[c]].grad[0] += pairs[3 * k + c];
      }
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
    LinkContacts<T> c;
    if (contact_points_ > 0 && m.colliders.count > 0)
      c = {m.colliders, exec.data(point_start_), exec.data(point_offset_), exec.data(point_radius_)};
    if (met()) c.external = spatial(exec, external_);
    return c;
  }

  // An array of 6 per link as a Spatial per link.
  static Spatial<T>* spatial(const Exec& exec, Array& a) { return reinterpret_cast<Spatial<T>*>(exec.data(a)); }
  static const Spatial<T>* spatial(const Exec& exec, const Array& a) {
    return reinterpret_cast<const Spatial<T>*>(exec.data(a));
  }

  // The links' shapes at this upload's sizes, with the links' masses.
  void upload_solid_shapes(const ParameterSet& p, const LinkSolidShapes& solid, const std::vector<LinkModel<T>>& links,
                           const Exec& exec) {
    shape_count_ = static_cast<int>(solid.count());
    const auto as_t = [](const std::vector<double>& v) { return std::vector<T>(v.begin(), v.end()); };
    exec.upload(planes_, solid.planes.empty() ? std::vector<T>{T(0)} : as_t(solid.planes));  // a valid pointer
    std::vector<Collider<T>> shapes;
    std::vector<Vec3<T>> pos;
    std::vector<Mat33<T>> rot;
    for (size_t j = 0; j < solid.count(); ++j) {
      const Collider<double>& d = solid.shape[j];
      Collider<T> c{};
      c.type = d.type;
      for (int e = 0; e < 3; ++e) c.position[e] = T(0), c.size[e] = static_cast<T>(d.size[e]);
      for (int e = 0; e < 9; ++e) c.rotation[e] = static_cast<T>(d.rotation[e]);
      if (d.type == ShapeType::Convex)
        c.planes = exec.data(planes_) + 4 * size_t(solid.plane_start[j]), c.plane_count = d.plane_count;
      shapes.push_back(c);
      pos.push_back({static_cast<T>(solid.pos[j].x), static_cast<T>(solid.pos[j].y), static_cast<T>(solid.pos[j].z)});
      Mat33<T> r;
      for (int e = 0; e < 9; ++e) r.m[e] = static_cast<T>(solid.rot[j].m[e]);
      rot.push_back(r);
    }
    exec.upload(shapes_, shapes);
    exec.upload(shape_link_, solid.link);
    exec.upload(shape_start_, solid.start);
    exec.upload(shape_pos_, pos);
    exec.upload(shape_rot_, rot);
    exec.upload(shape_bound_, as_t(solid.bound));
    exec.resize(placement_, solid.count());
    std::vector<T> mass;
    for (const LinkModel<T>& l : links) mass.push_back(l.mass);
    exec.upload(link_mass_, mass);
    // each link's reach: its solids' and its contact points' (as this upload sizes them)
    std::vector<double> bound(size_t(links_), 0.0);
    for (size_t j = 0; j < solid.count(); ++j) {
      double& b = bound[size_t(solid.link[j])];
      b = std::max(b, length(solid.pos[j]) + solid.bound[j]);
    }
    if (contact_points_ > 0) {
      const LinkContactPoints resized = resized_contact_points(articulations_, p, points_);
      for (size_t k = 0; k < size_t(links_); ++k)
        for (int j = resized.start[k]; j < resized.start[k + 1]; ++j)
          bound[k] = std::max(bound[k], length(resized.offset[size_t(j)]) + resized.radius[size_t(j)]);
    }
    exec.upload(link_bound_, as_t(bound));
  }

  // Whether anything meets the links beside the colliders: the kinematics phase runs.
  bool met() const { return particles_ || bodies_ || each_other_ || material_points_; }

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
  bool particles_ = false;        // particles meet the links' shapes
  bool bodies_ = false;           // free bodies meet the links' shapes and points
  bool each_other_ = false;       // links meet links (articulations.self_contact)
  bool material_points_ = false;  // the material points' grid meets the links' solids
  int shape_count_ = 0;
  T reach_ = 0;
  // Live play's (contacts): the trees, links and contact points as the last upload made them.
  std::vector<TreeModel> host_trees_;
  std::vector<LinkModel<T>> host_links_;
  std::vector<Vec3<T>> host_point_offset_;
  std::vector<T> host_point_radius_;
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
      g_gravity_, g_contact_, g_link_contact_;
  Array g_point_offset_, g_point_radius_, g_gain_, g_bias_q_, g_bias_qd_;
  // Particles against the links' shapes (link_solid_shapes.h, particle_link_contact.h).
  typename Exec::template Array<Collider<T>> shapes_;
  typename Exec::template Array<int> shape_link_, shape_start_, link_parent_;
  typename Exec::template Array<Vec3<T>> shape_pos_;
  typename Exec::template Array<Mat33<T>> shape_rot_;
  Array shape_bound_, link_mass_, link_bound_, planes_;
  typename Exec::template Array<LinkFrame<T>> motion_frames_;
  typename Exec::template Array<LinkMotion<T>> motion_;
  typename Exec::template Array<ShapePlacement<T>> placement_;
  // A Spatial per link each. put_model (const) hands the grid external_, its own pair and
  // the shapes' gradients to write: they are mutable.
  mutable Array external_, grid_adj_velocity_, grid_adj_frame_;
  Array adj_external_, adj_velocity_, adj_frame_;
  mutable Array g_shape_centre_, g_shape_turn_, g_shape_size_;
};

}  // namespace nudge
