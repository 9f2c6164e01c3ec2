// The material points as a family of the rollout (nudge/material_points.h): their state
// (x, v, C, F per point) in the rollout's slots, their parameters, and one MLS-MPM step
// per rollout step (mpm_stepper.h) in the continua phase, after the particles and the
// bodies, with its adjoint first in the step's adjoint. A point's muscle reads its
// channel of the controls table every actuator reads; the adjoint adds to its gradient
// channel by channel, in point order. The grid's boundaries (mpm_boundary.h) are the
// vessels, whose angles are state turned at their channels' rates, and the scene's
// colliders. In 3D every body of the scene meets the grid too (mpm_body_boundary.h): its
// shape is a boundary moving with it, and the momentum the nodes lose to it reaches it
// as a wrench through a coupling slot, so the step's grid is made in couple_bodies,
// before the bodies' step, and its adjoint runs in adjoint_couple_bodies, after theirs.
// The links' solids meet it the same way (mpm_link_boundary.h), after the bodies: their
// wrench is added to the links' external wrench, and their adjoint leaves the links'
// shares for the articulations to gather.
// A scene without material points has no state, arrays or phase work from it.
#pragma once

#include <cmath>
#include <numbers>
#include <utility>
#include <vector>

#include "families/colliders/collider_placement.h"
#include "families/articulations/link_solid_shapes.h"
#include "families/material_points/mpm_link_boundary.h"
#include "families/material_points/mpm_stepper.h"
#include "kernels/model.h"
#include "nudge/scene.h"
#include "sim/backend.h"
#include "sim/soa.h"
#include "sim/state_layout.h"
#include "sim/step_pass.h"

namespace nudge {

// Lame parameters of a Young's modulus and a Poisson ratio, and their derivatives.
struct LameParameters {
  double mu, lambda;
  double dmu_de, dmu_dnu, dlambda_de, dlambda_dnu;
};

inline LameParameters lame_parameters(double e, double nu) {
  const double a = 1 + nu, b = 1 - 2 * nu;
  return {e / (2 * a),      nu * e / (a * b), 1 / (2 * a),
          -e / (2 * a * a), nu / (a * b),     e * (1 + 2 * nu * nu) / (a * a * b * b)};
}

// Per point: this step's pull, its channel's control times the actuation.
template <class T>
struct MpmPullKernel {
  const int* channel;  // n
  const T* controls;   // steps x channels
  int channels, t;
  T actuation;
  T* act;  // n
  NUDGE_HD void operator()(int p) const {
    const int c = channel[p];
    act[p] = c >= 0 ? actuation * controls[t * channels + c] : T(0);
  }
};

// Per channel: the step's dL/dcontrol from its points' dL/d(pull), in point order.
template <class T>
struct MpmPullAdjointKernel {
  const int* start;   // channels + 1
  const int* points;  // the points of each channel, ascending
  const T* adj_act;   // n
  T actuation;
  T* adj_controls;  // steps x channels
  int channels, t;
  NUDGE_HD void operator()(int c) const {
    T sum = 0;
    for (int k = start[c]; k < start[c + 1]; ++k) sum += adj_act[points[k]];
    adj_controls[t * channels + c] += actuation * sum;
  }
};

// Per boundary group: this step's turn, the vessel's angle in the state (the scene's
// colliders, the last group, do not turn) and the rate its channel's control gives;
// and the next state's angle.
template <class T>
struct MpmGroupMotionKernel {
  const MpmBoundaryGroup<T>* group;
  int vessels;
  const T* controls;  // steps x channels
  int channels, t;
  T dt;
  const T* angle;  // vessels: the state's
  T* next_angle;   // vessels; null in the adjoint
  MpmGroupMotion<T>* motion;
  NUDGE_HD void operator()(int i) const {
    const MpmBoundaryGroup<T>& g = group[i];
    const T at = i < vessels ? angle[i] : T(0);
    const T rate = g.channel >= 0 ? g.gain * controls[t * channels + g.channel] : T(0);
    motion[i] = {at, rate};
    if (next_angle && i < vessels) next_angle[i] = at + dt * rate;
  }
};

// One index: each vessel's adjoint through angle' = angle + dt gain u_t, with the nodes'
// shares of its angle and rate summed in node order (vessels may share a channel, so
// one index adds to the controls).
template <class T>
struct MpmGroupMotionAdjointKernel {
  const MpmBoundaryGroup<T>* group;
  int vessels, nodes;
  const int* active;  // the step's active nodes, in order (the others have no share)
  int active_count;
  MpmBoundaryShares<T> shares;
  T* adj_angle;     // vessels: dL/dangle' on entry, dL/dangle on return
  T* adj_controls;  // steps x channels; null: no controls' gradient
  int channels, t;
  T dt;
  NUDGE_HD void operator()(int) const {
    for (int i = 0; i < vessels; ++i) {
      const MpmBoundaryGroup<T>& g = group[i];
      T angle = 0, rate = 0;
      for (int a = 0; a < active_count; ++a) {
        const int k = active[a];
        angle += shares.angle[i * nodes + k], rate += shares.rate[i * nodes + k];
      }
      const T after = adj_angle[i];
      adj_angle[i] = after + angle;
      if (adj_controls && g.channel >= 0) adj_controls[t * channels + g.channel] += g.gain * (dt * after + rate);
    }
  }
};

// Per active node: this step's share of dL/dgravity added to the rollout's.
template <class T>
struct MpmGravitySumKernel {
  const int* active;
  int nodes;
  const T* step;  // 3 x nodes
  T* total;       // 3 x nodes
  NUDGE_HD void operator()(int a) const {
    const int id = active[a];
    for (int k = 0; k < 3; ++k) total[k * nodes + id] += step[k * nodes + id];
  }
};

template <class T, Backend Exec>
class MaterialPointFamily {
public:
  MaterialPointFamily(const Scene& scene, const Exec& exec)
      : points_(scene.material_points), n_(scene.material_points.count()), channels_(scene.channels) {
    if (n_ == 0) return;
    grid_.dims = points_.dims;
    grid_.cells = points_.cells;
    grid_.dx = static_cast<T>(points_.dx());
    grid_.inv_dx = static_cast<T>(1 / points_.dx());
    for (int k = 0; k < 3; ++k) grid_.origin[k] = static_cast<T>(points_.origin[k]);
    grid_.bound = points_.wall_cells;
    for (int k = 0; k < 6; ++k) grid_.friction[k] = static_cast<T>(points_.wall_friction[k]);
    grid_.dt = static_cast<T>(scene.settings.dt);
    exec.upload(material_, points_.material);
    exec.upload(channel_, points_.channel);
    std::vector<int> kinds;
    for (const ContinuumMaterial& m : points_.materials) kinds.push_back(static_cast<int>(m.model));
    exec.upload(kind_, kinds);
    // The points of each channel, for the controls' adjoint.
    std::vector<int> start(size_t(channels_ > 0 ? channels_ : 0) + 1, 0), members;
    for (int c = 0; c < channels_; ++c) {
      for (int p = 0; p < n_; ++p)
        if (points_.channel[size_t(p)] == c) members.push_back(p);
      start[size_t(c) + 1] = static_cast<int>(members.size());
    }
    if (members.empty()) members.push_back(0);
    exec.upload(channel_start_, start);
    exec.upload(channel_points_, members);
    exec.resize(act_, size_t(n_));
    exec.zero(act_);  // stays 0 without muscles (pull() then has nothing to do)
    exec.resize(adj_act_, size_t(n_));
    upload_boundaries(scene, exec);
    // Every body meets the points, in 3D (a 2D grid's masses are per unit depth).
    bodies_ = points_.dims == 3 ? scene.body_count() : 0;
    if (bodies_ > 0) {
      exec.resize(body_shape_, size_t(bodies_));
      exec.resize(body_motion_, size_t(bodies_));
    }
    // The links' solids too (the articulations place them in the kinematics phase).
    link_solids_ = material_points_meet_links(scene) ? int(solid_link_shape_count(scene.articulations)) : 0;
    if (link_solids_ > 0) {
      exec.resize(link_shape_, size_t(link_solids_));
      exec.resize(link_motion_, size_t(link_solids_));
      exec.resize(link_adj_wrench_, 6 * size_t(link_solids_));
    }
    stepper_.reserve(exec, grid_, n_, groups_count_, bodies_ > 0, link_solids_ > 0);
  }

  // Each body's slots for the wrench the grid gives it: (body, world), in body order.
  std::vector<std::pair<int, int>> coupling_pairs() const {
    std::vector<std::pair<int, int>> pairs;
    for (int b = 0; b < bodies_; ++b) pairs.emplace_back(b, -1);
    return pairs;
  }

  void state_fields(std::vector<StateField>& out) const {
    if (n_ == 0) return;
    out.push_back({StateArray::PointX, 3, n_, "material point", "position"});
    out.push_back({StateArray::PointV, 3, n_, "material point", "velocity"});
    out.push_back({StateArray::PointC, 9, n_, "material point", "affine velocity"});
    out.push_back({StateArray::PointF, 9, n_, "material point", "deformation gradient"});
    if (vessels_ > 0) out.push_back({StateArray::VesselAngle, 1, vessels_, "vessel", "angle"});
  }

  // The initial state (C = 0, F = I) and the parameters.
  void upload(const ParameterSet& p, StateView<T> initial, const Exec& exec) {
    if (n_ == 0) return;
    exec.upload_to(initial.point_x, soa_from_triples<T>(p[ParamId::PointPosition].value, n_));
    exec.upload_to(initial.point_v, soa_from_triples<T>(p[ParamId::PointVelocity].value, n_));
    std::vector<T> c(9 * size_t(n_), T(0)), f(9 * size_t(n_), T(0));
    for (int i = 0; i < n_; ++i)
      for (int k : {0, 4, 8}) f[size_t(k) * n_ + i] = T(1);
    exec.upload_to(initial.point_c, c);
    exec.upload_to(initial.point_f, f);
    if (vessels_ > 0) {
      std::vector<T> angles;
      for (const MaterialVessel& v : points_.vessels) angles.push_back(static_cast<T>(v.angle));
      exec.upload_to(initial.vessel_angle, angles);
    }
    const auto upload_values = [&](Array& a, ParamId id) {
      const std::vector<double>& v = p[id].value;
      exec.upload(a, std::vector<T>(v.begin(), v.end()));
    };
    upload_values(mass_, ParamId::PointMass);
    upload_values(volume_, ParamId::PointVolume);
    upload_values(bulk_, ParamId::MaterialBulkModulus);
    upload_values(viscosity_, ParamId::MaterialViscosity);
    std::vector<T> mu, lambda, alpha;
    for (size_t m = 0; m < points_.materials.size(); ++m) {
      alpha.push_back(static_cast<T>(sand_alpha(radians(p[ParamId::MaterialFrictionAngle].value[m]))));
      const LameParameters l =
          lame_parameters(p[ParamId::MaterialYoungsModulus].value[m], p[ParamId::MaterialPoissonRatio].value[m]);
      mu.push_back(static_cast<T>(l.mu));
      lambda.push_back(static_cast<T>(l.lambda));
    }
    exec.upload(mu_, mu);
    exec.upload(lambda_, lambda);
    exec.upload(alpha_, alpha);
    for (int k = 0; k < 3; ++k) grid_.gravity[k] = static_cast<T>(p[ParamId::Gravity].value[size_t(k)]);
    grid_of_ = {};  // new parameters: the last grid is stale
  }

  // With bodies (or links), the step's grid comes before the bodies' step, which takes
  // the wrench its nodes give each body (into slots 2 (first + b)) and each link (added
  // to its external wrench); the gather back to the points comes after it, in the
  // continua phase. In the adjoint, the grid made again here (the bodies' adjoint needs
  // the wrench) serves adjoint_couple_bodies.
  void couple_bodies(const StepPass<T, Exec>& pass, int first) {
    if (!meets_solids()) return;
    const Exec& exec = pass.exec;
    grid_step(exec, pass.m, pass.t, pass.state, pass.next);
    if (bodies_ > 0)
      exec.launch(bodies_, MpmBodyWrenchSumKernel<T>{stepper_.with_node_records(exec, body_view(exec, pass.m)),
                                                     stepper_.active_nodes(exec), stepper_.active_count(),
                                                     grid_.node_count(), pass.m.coupling, 2 * first});
    if (link_solids_ > 0)
      exec.launch(
          pass.m.link_shapes.links,
          MpmLinkWrenchSumKernel<T>{pass.m.link_shapes, stepper_.with_link_records(exec, link_view(exec, pass.m)),
                                    stepper_.active_nodes(exec), stepper_.active_count(), grid_.node_count()});
  }

  void integrate_continua(const StepPass<T, Exec>& pass) {
    if (n_ == 0) return;
    if (meets_solids()) {  // the grid was couple_bodies'
      stepper_.gather(pass.exec, grid_, model(pass.exec), point_state(pass.state), point_state(pass.next));
      return;
    }
    pull(pass.exec, pass.m, pass.t);
    move_boundaries(pass.exec, pass.m, pass.t, pass.state.vessel_angle, pass.next.vessel_angle);
    stepper_.forward(pass.exec, grid_, model(pass.exec), boundaries(pass.exec), point_state(pass.state),
                     point_state(pass.next));
  }

  void adjoint_integrate_continua(const AdjointPass<T, Exec>& pass) {
    if (n_ == 0 || meets_solids()) return;  // with bodies or links: adjoint_couple_bodies
    const Exec& exec = pass.exec;
    pull(exec, pass.m, pass.t);
    move_boundaries(exec, pass.m, pass.t, pass.state.vessel_angle, nullptr);
    stepper_.adjoint(exec, grid_, model(exec), boundaries(exec), {}, point_state(pass.state), point_state(pass.adj),
                     grad(exec));
    adjoint_step_shares(pass);
  }

  // With bodies or links, the step's whole adjoint, once the bodies' and the trees'
  // adjoints have left their dL/dwrench: the bodies' shares of dL/dstate into their
  // slots, their shapes' shares of dL/dsize into the bodies' gradient; the links' shares
  // into the links' model (the articulations gather them).
  void adjoint_couple_bodies(const AdjointPass<T, Exec>& pass, int first) {
    if (!meets_solids()) return;
    const Exec& exec = pass.exec;
    if (grid_of_.t != pass.t || grid_of_.x != pass.state.point_x) grid_step(exec, pass.m, pass.t, pass.state, {});
    if (link_solids_ > 0)
      exec.launch(link_solids_, MpmLinkAdjWrenchKernel<T>{pass.m.link_shapes, exec.data(link_adj_wrench_)});
    const MpmSolids<T> solids = solids_view(exec, pass.m);
    stepper_.adjoint(exec, grid_, model(exec), boundaries(exec), solids, point_state(pass.state), point_state(pass.adj),
                     grad(exec), true);
    if (bodies_ > 0)
      exec.launch(bodies_,
                  MpmBodyShareSumKernel<T>{stepper_.with_node_records(exec, solids.bodies), stepper_.active_nodes(exec),
                                           stepper_.active_count(), grid_.node_count(), pass.state, pass.m.coupling,
                                           2 * first, pass.grad.bodies.size});
    if (link_solids_ > 0)
      exec.launch(pass.m.link_shapes.links,
                  MpmLinkShareSumKernel<T>{pass.m.link_shapes, stepper_.with_link_records(exec, solids.links),
                                           stepper_.active_nodes(exec), stepper_.active_count(), grid_.node_count(),
                                           !pass.grad.operator_product});
    adjoint_step_shares(pass);
  }

  void zero_gradients(const Exec& exec) {
    if (n_ == 0) return;
    for (auto* a : {&g_mu_, &g_lambda_, &g_bulk_, &g_viscosity_, &g_alpha_, &g_mass_, &g_volume_}) {
      exec.resize(*a, size_t(n_));
      exec.zero(*a);
    }
    exec.resize(g_gravity_, 3 * size_t(grid_.node_count()));
    exec.zero(g_gravity_);
  }

  // The initial state's adjoint is the initial position's and velocity's gradient (C and F
  // start fixed); each material's sums its points' shares in point order.
  void download_gradients(ParameterSet& p, StateView<const T> adj0, const Exec& exec) const {
    if (n_ == 0) return;
    p[ParamId::PointPosition].grad = triples_from_soa(fetch_values(exec, adj0.point_x, 3 * size_t(n_)).data(), n_);
    p[ParamId::PointVelocity].grad = triples_from_soa(fetch_values(exec, adj0.point_v, 3 * size_t(n_)).data(), n_);
    p[ParamId::PointMass].grad = fetch_values(exec, exec.data(g_mass_), size_t(n_));
    p[ParamId::PointVolume].grad = fetch_values(exec, exec.data(g_volume_), size_t(n_));
    const std::vector<double> mu = fetch_values(exec, exec.data(g_mu_), size_t(n_));
    const std::vector<double> lambda = fetch_values(exec, exec.data(g_lambda_), size_t(n_));
    const std::vector<double> bulk = fetch_values(exec, exec.data(g_bulk_), size_t(n_));
    const std::vector<double> viscosity = fetch_values(exec, exec.data(g_viscosity_), size_t(n_));
    const std::vector<double> alpha = fetch_values(exec, exec.data(g_alpha_), size_t(n_));
    const size_t materials = points_.materials.size();
    std::vector<double> sum_mu(materials, 0.0), sum_lambda(materials, 0.0), sum_alpha(materials, 0.0);
    for (auto id : {ParamId::MaterialBulkModulus, ParamId::MaterialViscosity, ParamId::MaterialYoungsModulus,
                    ParamId::MaterialPoissonRatio, ParamId::MaterialFrictionAngle})
      p[id].grad.assign(materials, 0.0);
    for (int i = 0; i < n_; ++i) {
      const size_t m = size_t(points_.material[size_t(i)]);
      sum_mu[m] += mu[size_t(i)];
      sum_lambda[m] += lambda[size_t(i)];
      p[ParamId::MaterialBulkModulus].grad[m] += bulk[size_t(i)];
      p[ParamId::MaterialViscosity].grad[m] += viscosity[size_t(i)];
      sum_alpha[m] += alpha[size_t(i)];
    }
    for (size_t m = 0; m < materials; ++m) {
      const LameParameters l =
          lame_parameters(p[ParamId::MaterialYoungsModulus].value[m], p[ParamId::MaterialPoissonRatio].value[m]);
      p[ParamId::MaterialYoungsModulus].grad[m] = sum_mu[m] * l.dmu_de + sum_lambda[m] * l.dlambda_de;
      p[ParamId::MaterialPoissonRatio].grad[m] = sum_mu[m] * l.dmu_dnu + sum_lambda[m] * l.dlambda_dnu;
      // alpha of the angle in degrees
      const double phi = p[ParamId::MaterialFrictionAngle].value[m];
      p[ParamId::MaterialFrictionAngle].grad[m] = sum_alpha[m] * sand_alpha_slope(radians(phi)) * radians(1.0);
    }
    // Gravity: after the particles' and the bodies' shares, the grid nodes' in order.
    const std::vector<double> g = fetch_values(exec, exec.data(g_gravity_), 3 * size_t(grid_.node_count()));
    const size_t nodes = size_t(grid_.node_count());
    for (int k = 0; k < 3; ++k) {
      double sum = 0;
      for (size_t i = 0; i < nodes; ++i) sum += g[size_t(k) * nodes + i];
      p[ParamId::Gravity].grad[size_t(k)] += sum;
    }
  }

private:
  using Array = typename Exec::template Array<T>;
  using IntArray = typename Exec::template Array<int>;

  static double radians(double degrees) { return degrees * (std::numbers::pi / 180.0); }

  static MpmPointState<T> point_state(StateView<const T> s) {
    return {const_cast<T*>(s.point_x), const_cast<T*>(s.point_v), const_cast<T*>(s.point_c), const_cast<T*>(s.point_f)};
  }

  // The vessels (a group each, in order), then the scene's colliders (one group that
  // never turns): their parts in that order, each placed as at angle 0.
  void upload_boundaries(const Scene& scene, const Exec& exec) {
    std::vector<MpmBoundaryGroup<T>> groups;
    std::vector<MpmBoundaryPart<T>> parts;
    const auto group_of = [](const double* pivot, const double* axis, double friction, int channel, double gain) {
      MpmBoundaryGroup<T> g{};
      for (int k = 0; k < 3; ++k) g.pivot[k] = static_cast<T>(pivot[k]), g.axis[k] = static_cast<T>(axis[k]);
      g.friction = static_cast<T>(friction);
      g.channel = channel;
      g.gain = static_cast<T>(gain);
      return g;
    };
    for (const MaterialVessel& v : points_.vessels) {
      for (const ColliderShape& shape : v.parts)
        parts.push_back({placed_collider<T>(shape), static_cast<int>(groups.size())});
      groups.push_back(group_of(v.pivot, v.axis, v.friction, v.channel, v.gain));
    }
    vessels_ = static_cast<int>(points_.vessels.size());
    if (!scene.colliders.empty()) {
      const double zero[3] = {0, 0, 0}, z[3] = {0, 0, 1};
      for (const ColliderShape& shape : scene.colliders)
        parts.push_back({placed_collider<T>(shape), static_cast<int>(groups.size())});
      groups.push_back(group_of(zero, z, points_.collider_friction, -1, 0));
    }
    parts_count_ = static_cast<int>(parts.size());
    groups_count_ = static_cast<int>(groups.size());
    if (groups.empty()) return;
    exec.upload(parts_, parts);
    exec.upload(groups_, groups);
    exec.resize(motion_, groups.size());
    exec.upload(motion_, std::vector<MpmGroupMotion<T>>(groups.size()));
    std::vector<Collider<T>> shapes;
    for (const MpmBoundaryPart<T>& part : parts) shapes.push_back(part.shape);
    exec.upload(turned_, shapes);  // at angle 0 until a turn moves them
  }

  // This step's turn of every group, and its parts' shapes there; the next state's angles
  // where given.
  void move_boundaries(const Exec& exec, const ModelView<T>& m, int t, const T* angle, T* next_angle) {
    if (vessels_ == 0) return;
    exec.launch(groups_count_,
                MpmGroupMotionKernel<T>{exec.data(groups_), vessels_, m.actuators.controls, m.actuators.channels, t,
                                        grid_.dt, angle, next_angle, exec.data(motion_)});
    exec.launch(parts_count_,
                MpmTurnPartsKernel<T>{exec.data(parts_), exec.data(groups_), exec.data(motion_), exec.data(turned_)});
  }

  MpmBoundaries<T> boundaries(const Exec& exec) const {
    if (parts_count_ == 0) return {};
    return {parts_count_,       groups_count_,      grid_.dx,          exec.data(parts_),
            exec.data(groups_), exec.data(motion_), exec.data(turned_)};
  }

  // This step's vessels' turn, pulls and bodies' poses, and its grid from state s (the
  // next state's vessel angles and F' where given).
  void grid_step(const Exec& exec, const ModelView<T>& m, int t, StateView<const T> s, StateView<T> next) {
    pull(exec, m, t);
    move_boundaries(exec, m, t, s.vessel_angle, next.vessel_angle);
    exec.launch(bodies_, MpmPoseBodiesKernel<T>{m.bodies, s, exec.data(body_shape_), exec.data(body_motion_)});
    exec.launch(link_solids_,
                MpmPoseLinkSolidsKernel<T>{m.link_shapes, exec.data(link_shape_), exec.data(link_motion_)});
    stepper_.grid(exec, grid_, model(exec), boundaries(exec), solids_view(exec, m), point_state(s), point_state(next));
    grid_of_ = {t, s.point_x};
  }

  MpmBodies<T> body_view(const Exec& exec, const ModelView<T>& m) const {
    MpmBodies<T> b;
    b.count = bodies_;
    b.friction = static_cast<T>(points_.collider_friction);
    b.shape = exec.data(body_shape_);
    b.motion = exec.data(body_motion_);
    b.bound = m.bodies.bound;
    b.adj_wrench = m.coupling.adj_wrench;
    return b;
  }

  MpmBodies<T> link_view(const Exec& exec, const ModelView<T>& m) const {
    if (link_solids_ == 0) return {};
    return link_solids_view(m.link_shapes, static_cast<T>(points_.collider_friction), exec.data(link_shape_),
                            exec.data(link_motion_), exec.data(link_adj_wrench_));
  }

  MpmSolids<T> solids_view(const Exec& exec, const ModelView<T>& m) const {
    return {body_view(exec, m), link_view(exec, m)};
  }

  bool meets_solids() const { return bodies_ > 0 || link_solids_ > 0; }

  // After a step's adjoint: the vessels' angles and their channels' controls, gravity
  // and the pulls' controls.
  void adjoint_step_shares(const AdjointPass<T, Exec>& pass) {
    const Exec& exec = pass.exec;
    if (vessels_ > 0)
      exec.launch(1, MpmGroupMotionAdjointKernel<T>{exec.data(groups_), vessels_, grid_.node_count(),
                                                    stepper_.active_nodes(exec), stepper_.active_count(),
                                                    stepper_.boundary_shares(exec), pass.adj.vessel_angle,
                                                    pass.grad.operator_product ? nullptr : pass.grad.actuators.controls,
                                                    channels_, pass.t, grid_.dt});
    exec.launch(stepper_.active_count(), MpmGravitySumKernel<T>{stepper_.active_nodes(exec), grid_.node_count(),
                                                                stepper_.gravity_shares(exec), exec.data(g_gravity_)});
    if (channels_ > 0 && !pass.grad.operator_product)
      exec.launch(channels_, MpmPullAdjointKernel<T>{exec.data(channel_start_), exec.data(channel_points_),
                                                     exec.data(adj_act_), static_cast<T>(points_.actuation),
                                                     pass.grad.actuators.controls, channels_, pass.t});
  }

  void pull(const Exec& exec, const ModelView<T>& m, int t) {
    if (channels_ == 0 || points_.actuation == 0) return;
    exec.launch(n_, MpmPullKernel<T>{exec.data(channel_), m.actuators.controls, m.actuators.channels, t,
                                     static_cast<T>(points_.actuation), exec.data(act_)});
  }

  MpmPointsModel<T> model(const Exec& exec) const {
    MpmPointsModel<T> m;
    m.n = n_;
    m.material = exec.data(material_);
    m.mass = exec.data(mass_);
    m.volume = exec.data(volume_);
    m.kind = exec.data(kind_);
    m.mu = exec.data(mu_), m.lambda = exec.data(lambda_), m.bulk = exec.data(bulk_);
    m.viscosity = exec.data(viscosity_);
    m.alpha = exec.data(alpha_);
    m.act = exec.data(act_);
    return m;
  }

  MpmPointGrad<T> grad(const Exec& exec) {
    return {exec.data(g_mu_),    exec.data(g_lambda_), exec.data(g_bulk_),   exec.data(g_viscosity_),
            exec.data(g_alpha_), exec.data(g_mass_),   exec.data(g_volume_), exec.data(adj_act_)};
  }

  MaterialPoints points_;
  int n_, channels_;
  MpmGrid<T> grid_;
  MpmStepper<T, Exec> stepper_;
  int bodies_ = 0;  // the bodies the grid meets: all of the scene's, in 3D
  typename Exec::template Array<Collider<T>> body_shape_;
  typename Exec::template Array<BodyPartMotion<T>> body_motion_;
  int link_solids_ = 0;  // the links' solid shapes the grid meets: all of them, in 3D
  typename Exec::template Array<Collider<T>> link_shape_;
  typename Exec::template Array<BodyPartMotion<T>> link_motion_;
  Array link_adj_wrench_;  // 6 x link_solids_: each one's dL/d(force, torque)
  struct GridOf {
    int t = -1;
    const T* x = nullptr;
  };
  GridOf grid_of_;  // the step and the points' state of the stepper's last grid
  int parts_count_ = 0, groups_count_ = 0, vessels_ = 0;
  typename Exec::template Array<MpmBoundaryPart<T>> parts_;
  typename Exec::template Array<MpmBoundaryGroup<T>> groups_;
  typename Exec::template Array<MpmGroupMotion<T>> motion_;
  typename Exec::template Array<Collider<T>> turned_;
  IntArray material_, channel_, kind_, channel_start_, channel_points_;
  Array mass_, volume_, mu_, lambda_, bulk_, viscosity_, alpha_, act_;
  Array g_mu_, g_lambda_, g_bulk_, g_viscosity_, g_alpha_, g_mass_, g_volume_, g_gravity_, adj_act_;
};

}  // namespace nudge
