// A rollout of one scene on one backend: runs the steps, records what the backward pass
// needs (every state, or a checkpoint every K steps that the backward pass recomputes
// from), evaluates the objectives, and runs the adjoint passes in reverse.
//
// The physics lives in families (families/<name>/): each owns its part of the model, its
// parameters' upload and gradients, and its forward and adjoint passes with their
// schedule on each backend. The rollout owns the states, laid out by StateLayout, and
// runs the phases of a step over one ordered list of families (Families below; the
// phases and their order are in sim/family_list.h). With
// Integrator::ImplicitEuler (sim/implicit_euler.h) the interaction and particle phases
// repeat inside a Newton solve, and their adjoints follow one linear solve per step.
//
// States and every array of 3-vectors are kept as structures of arrays (3 x n: all x,
// then all y, then all z), so that kernels read contiguous components; the public
// interface (parameters, gradients, Trajectory) uses xyz triples (n x 3) and is
// converted at the boundary.
//
// Exec is the backend (sim/backend.h): it owns memory (Exec::Array<T>), moves data to
// and from the host, and launches a kernel functor over an index range. CpuExec and
// CudaExec implement it.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "nudge/assert.h"
#include "nudge/live_simulation.h"
#include "nudge/scene.h"
#include "nudge/simulator.h"
#include "sim/backend.h"
#include "families/actuators/body_actuator_family.h"
#include "families/articulations/articulation_family.h"
#include "families/body_contacts/body_contact_family.h"
#include "families/bodies/body_family.h"
#include "families/colliders/collider_family.h"
#include "families/controls/control_family.h"
#include "sim/element_families.h"
#include "sim/family_list.h"
#include "families/ground/ground_family.h"
#include "families/joints/joint_family.h"
#include "families/material_points/material_point_family.h"
#include "families/attachments/particle_body_family.h"
#include "families/particles/particle_family.h"
#include "families/springs/spring_family.h"
#include "sim/implicit_euler.h"
#include "sim/objectives.h"
#include "sim/state_layout.h"

namespace nudge {

// How often the forward pass looks for NaN or Inf when it stores every state.
inline constexpr int kFiniteCheckInterval = 64;

// Every family, in the order the phases run them (sim/family_list.h). The order
// is part of the results' bits: a new family is appended before ControlFamily, which
// points the actuators' models at its table after they have written theirs.
template <class T, Backend Exec>
using Families = FamilyList<T, Exec, ParticleFamily, SpringFamily, ElementFamilies, GroundFamily, ColliderFamily,
                            BodyFamily, JointFamily, BodyContactFamily, BodyActuatorFamily, ParticleBodyFamily,
                            MaterialPointFamily, ArticulationFamily, ControlFamily>;

template <class T, Backend Exec>
class Rollout {
public:
  Rollout(const Scene& scene, Exec exec, int checkpoint_every)
      : Rollout(scene, std::move(exec), checkpoint_every, false) {}

  // A rollout that only steps, for live play (cpu/cpu_live_simulation.cpp): two state slots,
  // nothing recorded.
  struct Live {};
  Rollout(const Scene& scene, Exec exec, Live) : Rollout(scene, std::move(exec), 0, true) {}

private:
  Rollout(const Scene& scene, Exec exec, int checkpoint_every, bool live)
      : exec_(std::move(exec)), objectives_(scene), particles_(scene.particle_count()), bodies_(scene.body_count()),
        points_(scene.material_points.count()),
        vessels_(scene.material_points.enabled() ? static_cast<int>(scene.material_points.vessels.size()) : 0),
        coordinates_(articulation_coordinate_count(scene.articulations)),
        positions_(articulation_position_count(scene.articulations)), steps_(scene.settings.steps),
        checkpoint_every_(!live && checkpoint_every > 0 && checkpoint_every < steps_ ? checkpoint_every : 0),
        dt_(static_cast<T>(scene.settings.dt)), families_(scene, exec_), layout_(families_.state_fields()) {
    // Particles come first in the list, so every slot begins with x: a state is passed
    // around as its view, and its slot is where x starts.
    NUDGE_ASSERT(!layout_.fields().empty() && layout_.fields().front().array == StateArray::X);
    const size_t stored = live                ? size_t(2)
                          : checkpoint_every_ ? size_t((steps_ - 1) / checkpoint_every_ + 1)
                                              : size_t(steps_ + 1);
    exec_.resize(states_, stored * layout_.size());
    if (checkpoint_every_) exec_.resize(segment_, size_t(checkpoint_every_ + 1) * layout_.size());
    exec_.resize(adj_state_, layout_.size());
    exec_.resize(adj_f_, particle_values());
    if (scene.settings.integrator == Integrator::ImplicitEuler) implicit_.emplace(scene, exec_);
  }

public:
  // The implicit step's solver statistics, or nullptr for the semi-implicit step.
  const ImplicitStats* implicit_stats() const { return implicit_ ? &implicit_->stats() : nullptr; }

  // Runs the rollout with these parameter values and returns the loss.
  Result<Evaluation> forward(const ParameterSet& params) {
    if (std::optional<std::string> why = families_.unsupported(params)) return Error{*why};
    upload_parameters(params);
    objectives_.prepare(params);
    Evaluation eval;
    eval.term_loss.assign(objectives_.term_count(), 0.0);
    observe(0, state(0), eval.term_loss);
    if (!checkpoint_every_) {
      int last_checked = 0;
      for (int t = 0; t < steps_; ++t) {
        step(t, state(t), state(t + 1));
        if ((t + 1) % kFiniteCheckInterval == 0 || t + 1 == steps_) {
          if (auto error = find_non_finite(last_checked + 1, t + 1, [&](int k) { return state(k); })) return *error;
          last_checked = t + 1;
        }
        observe(t + 1, state(t + 1), eval.term_loss);
      }
    } else {
      for (int seg = 0, t0 = 0; t0 < steps_; ++seg, t0 += checkpoint_every_) {
        const int len = run_segment(seg, t0);
        if (auto error = find_non_finite(t0 + 1, t0 + len, [&](int k) { return segment(k - t0); })) return *error;
        for (int j = 1; j <= len; ++j) observe(t0 + j, segment(j), eval.term_loss);
        if (t0 + len < steps_) copy_state(state(seg + 1), segment(len));  // the next segment starts here
      }
    }
    objectives_.add_param_loss(params, eval.term_loss);
    for (double l : eval.term_loss) eval.loss += l;
    if (!std::isfinite(eval.loss)) return Error{"the loss is not finite (" + std::to_string(eval.loss) + ")"};
    return eval;
  }

  // The backward pass for the parameters of the last forward(); writes every gradient.
  //
  // horizon W in (0, steps) truncates it: the adjoint runs through steps steps-1 down to
  // steps-W only and is then dropped, as if the state at steps-W were a constant. So the
  // initial-state gradients are 0, parameters' gradients sum over the window's steps
  // only, and objectives observed before steps-W contribute nothing through the state;
  // terms on parameters alone (control effort, add_param_grad) still count in full.
  // Inside the window every adjoint, and so every recorded dL/dx_t, is the full one.
  //
  // adjoints, when given, receives dL/dx_t and dL/dv_t for each step t the adjoint
  // reaches: the running adjoint after step t's adjoint and the objectives' injection at
  // t. Without it and without a horizon this is exactly the untruncated pass.
  void backward(ParameterSet& params, int horizon, StateAdjoints* adjoints) {
    const int first = horizon > 0 && horizon < steps_ ? steps_ - horizon : 0;  // the window's first step
    exec_.zero(adj_state_);
    zero_gradients();
    if (adjoints) start_recording(*adjoints);
    const GradView<T> grad = grad_view();
    // The adjoint arrives at the state of step t: add the objectives' share, record it.
    const auto arrive = [&](int t, StateView<const T> s) {
      inject(t, s);
      if (adjoints) record(t, *adjoints);
    };
    if (!checkpoint_every_) {
      arrive(steps_, state(steps_));
      for (int t = steps_ - 1; t >= first; --t) {
        adjoint_step(t, state(t), state(t + 1), grad);
        arrive(t, state(t));
      }
    } else {
      const int segments = (steps_ - 1) / checkpoint_every_ + 1;
      for (int seg = segments - 1; seg >= first / checkpoint_every_; --seg) {  // segments the window reaches
        const int t0 = seg * checkpoint_every_;
        const int len = run_segment(seg, t0);  // recompute: same kernels, same inputs, same bits
        if (seg == segments - 1) arrive(steps_, segment(len));
        for (int j = len - 1; j >= std::max(0, first - t0); --j) {
          adjoint_step(t0 + j, segment(j), segment(j + 1), grad);
          arrive(t0 + j, segment(j));
        }
      }
    }
    if (first > 0) exec_.zero(adj_state_);  // truncated: the state adjoint stops at the window's first state
    download_gradients(params);
    objectives_.add_param_grad(params);
  }

  // Every state of the last forward(), in double.
  Trajectory trajectory() {
    Trajectory traj = sized_trajectory(steps_);
    if (!checkpoint_every_) {
      for (int t = 0; t <= steps_; ++t) store_frame(traj, t, state(t));
    } else {
      for (int seg = 0, t0 = 0; t0 < steps_; ++seg, t0 += checkpoint_every_) {
        const int len = run_segment(seg, t0);
        for (int j = (seg == 0 ? 0 : 1); j <= len; ++j) store_frame(traj, t0 + j, segment(j));
      }
    }
    return traj;
  }

  // Live play (cpu/cpu_live_simulation.cpp): the parameters, and the initial state into slot 0.
  std::optional<std::string> live_upload(const ParameterSet& params) {
    if (std::optional<std::string> why = families_.unsupported(params)) return why;
    upload_parameters(params);
    return std::nullopt;
  }
  // Slot 0 holds the current state; live_step writes the next one into slot 1.
  StateView<T> live_state() { return state(0); }
  StateView<T> live_next() { return state(1); }
  const StateLayout& layout() const { return layout_; }
  // One step from slot 0 into slot 1 at row t of the per-step inputs (the caller holds t
  // below the step count), with channel c carrying held[c] where it is set. Returns the
  // error of a step that produced NaN or Inf; slot 0 is untouched either way.
  // clock_step: the step whose time a controller's clock reads (it runs on past the end).
  std::optional<Error> live_step(int t, int clock_step, const std::vector<std::optional<double>>& held) {
    auto& controls = families_.template family<ControlFamily>();
    std::vector<T> saved;
    step(
        t, state(0), state(1), [&] { saved = controls.hold_row(t, held, exec_); }, clock_step);
    controls.restore_row(t, saved, exec_);
    return find_non_finite(t + 1, t + 1, [&](int) { return state(1); });
  }
  void live_accept() { copy_state(state(0), state(1)); }
  // The state in slot 0 as a trajectory of one frame, and frame `frame` of a trajectory
  // (of this scene's sizes) into slot 0.
  Trajectory live_read() {
    Trajectory one = sized_trajectory(0);
    store_frame(one, 0, state(0));
    return one;
  }
  // Whether a trajectory's joint arrays are this rollout's (live_write writes them).
  bool live_joints_match(const Trajectory& traj) const {
    return traj.positions == positions_ && traj.coordinates == coordinates_;
  }
  void live_write(const Trajectory& traj, int frame) {
    const int n = particles_, nb = bodies_;
    const size_t t = size_t(frame), values = particle_values();
    exec_.host_modify(state(0).x, layout_.size(), host_state_, [&](T* slot) {
      const StateView<T> h = layout_.view(slot);
      for (int i = 0; i < n; ++i)
        for (int k = 0; k < 3; ++k) {
          h.x[size_t(k) * n + i] = static_cast<T>(traj.x[t * values + 3 * size_t(i) + k]);
          h.v[size_t(k) * n + i] = static_cast<T>(traj.v[t * values + 3 * size_t(i) + k]);
        }
      for (int b = 0; b < nb; ++b) {
        for (int k = 0; k < 3; ++k) {
          h.body_x[size_t(k) * nb + b] = static_cast<T>(traj.body_x[(t * nb + b) * 3 + k]);
          h.body_v[size_t(k) * nb + b] = static_cast<T>(traj.body_v[(t * nb + b) * 3 + k]);
          h.body_w[size_t(k) * nb + b] = static_cast<T>(traj.body_w[(t * nb + b) * 3 + k]);
        }
        for (int k = 0; k < 4; ++k) h.body_q[size_t(k) * nb + b] = static_cast<T>(traj.body_q[(t * nb + b) * 4 + k]);
      }
      // the articulations' joints: their positions and rates at that frame
      for (int i = 0; i < positions_; ++i)
        h.joint_q[i] = static_cast<T>(traj.joint_q[t * size_t(positions_) + size_t(i)]);
      for (int i = 0; i < coordinates_; ++i)
        h.joint_qd[i] = static_cast<T>(traj.joint_qd[t * size_t(coordinates_) + size_t(i)]);
    });
  }
  ModelView<T> live_model() const { return model_view(); }
  // Every contact in slot 0 (a host rollout's only: the families read the state in place).
  std::vector<Contact> live_contacts() {
    std::vector<Contact> out;
    families_.contacts(model_view(), state(0), out);
    return out;
  }

private:
  // A trajectory of `steps` steps of this rollout's sizes, zeroed.
  Trajectory sized_trajectory(int steps) const {
    Trajectory traj;
    traj.steps = steps;
    traj.particles = particles_;
    traj.dt = static_cast<double>(dt_);
    traj.bodies = bodies_;
    const size_t frames = size_t(steps) + 1, nb = size_t(bodies_);
    traj.x.resize(frames * particle_values());
    traj.v.resize(frames * particle_values());
    traj.body_x.resize(frames * 3 * nb);
    traj.body_q.resize(frames * 4 * nb);
    traj.body_v.resize(frames * 3 * nb);
    traj.body_w.resize(frames * 3 * nb);
    traj.points = points_;
    traj.point_x.resize(frames * 3 * size_t(points_));
    traj.vessels = vessels_;
    traj.vessel_angle.resize(frames * size_t(vessels_));
    traj.coordinates = coordinates_;
    traj.positions = positions_;
    traj.joint_q.resize(frames * size_t(positions_));
    traj.joint_qd.resize(frames * size_t(coordinates_));
    return traj;
  }

  // State s as frame t of traj: structures of arrays to xyz triples, in double.
  void store_frame(Trajectory& traj, int t, StateView<T> s) {
    const int n = particles_, nb = bodies_;
    const size_t values = particle_values();
    host_frame_.resize(layout_.size());
    exec_.download(s.x, host_frame_.size(), host_frame_.data());  // the whole slot: x, then v
    const StateView<const T> h = layout_.view(static_cast<const T*>(host_frame_.data()));
    for (int i = 0; i < n; ++i)
      for (int k = 0; k < 3; ++k) {
        traj.x[size_t(t) * values + 3 * size_t(i) + k] = static_cast<double>(h.x[size_t(k) * n + i]);
        traj.v[size_t(t) * values + 3 * size_t(i) + k] = static_cast<double>(h.v[size_t(k) * n + i]);
      }
    for (int b = 0; b < nb; ++b) {
      for (int k = 0; k < 3; ++k) {
        traj.body_x[(size_t(t) * nb + b) * 3 + k] = static_cast<double>(h.body_x[size_t(k) * nb + b]);
        traj.body_v[(size_t(t) * nb + b) * 3 + k] = static_cast<double>(h.body_v[size_t(k) * nb + b]);
        traj.body_w[(size_t(t) * nb + b) * 3 + k] = static_cast<double>(h.body_w[size_t(k) * nb + b]);
      }
      for (int k = 0; k < 4; ++k)
        traj.body_q[(size_t(t) * nb + b) * 4 + k] = static_cast<double>(h.body_q[size_t(k) * nb + b]);
    }
    const int np = points_;
    for (int i = 0; i < np; ++i)
      for (int k = 0; k < 3; ++k)
        traj.point_x[(size_t(t) * np + i) * 3 + k] = static_cast<double>(h.point_x[size_t(k) * np + i]);
    for (int v = 0; v < vessels_; ++v)
      traj.vessel_angle[size_t(t) * size_t(vessels_) + size_t(v)] = static_cast<double>(h.vessel_angle[v]);
    for (int i = 0; i < positions_; ++i)
      traj.joint_q[size_t(t) * size_t(positions_) + size_t(i)] = static_cast<double>(h.joint_q[i]);
    for (int i = 0; i < coordinates_; ++i)
      traj.joint_qd[size_t(t) * size_t(coordinates_) + size_t(i)] = static_cast<double>(h.joint_qd[i]);
  }

  StateView<T> state(int slot) { return layout_.view(exec_.data(states_) + size_t(slot) * layout_.size()); }
  StateView<T> segment(int j) { return layout_.view(exec_.data(segment_) + size_t(j) * layout_.size()); }
  StateView<T> adj_state() { return layout_.view(exec_.data(adj_state_)); }
  // A slot's arrays are contiguous from x on (StateLayout).
  void copy_state(StateView<T> dst, StateView<T> src) {
    exec_.copy(dst.x, static_cast<const T*>(src.x), layout_.size());
  }

  // Sizes the recording for this rollout; steps the adjoint does not reach stay zero.
  void start_recording(StateAdjoints& out) const {
    const size_t values = out.norms_only ? 0 : size_t(steps_ + 1) * particle_values();
    out.steps = steps_;
    out.particles = particles_;
    out.x.assign(values, 0.0);
    out.v.assign(values, 0.0);
    out.norm.assign(size_t(steps_ + 1), 0.0);
  }

  // Records the running adjoint: its norm, and unless only norms are asked for, dL/dx_t
  // and dL/dv_t as xyz triples.
  // On a GPU this is a download per step.
  void record(int t, StateAdjoints& out) {
    const int n = particles_;
    const T* slot = exec_.host_view(static_cast<const T*>(exec_.data(adj_state_)), layout_.size(), host_adj_);
    double squares = 0;
    for (size_t k = 0; k < layout_.size(); ++k) squares += static_cast<double>(slot[k]) * static_cast<double>(slot[k]);
    out.norm[size_t(t)] = std::sqrt(squares);
    if (out.norms_only) return;
    const StateView<const T> a = layout_.view(slot);
    const size_t values = particle_values();
    for (int i = 0; i < n; ++i)
      for (int k = 0; k < 3; ++k) {
        out.x[size_t(t) * values + 3 * size_t(i) + k] = static_cast<double>(a.x[size_t(k) * n + i]);
        out.v[size_t(t) * values + 3 * size_t(i) + k] = static_cast<double>(a.v[size_t(k) * n + i]);
      }
  }

  // Recomputes segment `seg` (starting at step t0) from its checkpoint into the segment
  // buffer; returns its length in steps.
  int run_segment(int seg, int t0) {
    const int len = std::min(checkpoint_every_, steps_ - t0);
    copy_state(segment(0), state(seg));
    for (int j = 0; j < len; ++j) step(t0 + j, segment(j), segment(j + 1));
    return len;
  }

  // One step: the phases of sim/family_list.h. The implicit step
  // (sim/implicit_euler.h) runs the interaction and particle phases until its Newton
  // solve converges.
  // after_control runs once the controls of step t are written (live play holds some).
  template <class AfterControl = void (*)()>
  void step(
      int t, StateView<const T> s, StateView<T> next, AfterControl after_control = [] {}, int clock_step = -1) {
    const ModelView<T> m = model_view();
    const StepPass<T, Exec> pass{exec_, m, t, s, next, clock_step};
    families_.control(pass);  // row t of the controls the actuators read
    after_control();
    families_.kinematics(pass);
    if (implicit_) {
      implicit_->step(exec_, m, t, s, next, families_);
    } else {
      families_.interaction_forces(pass);
      families_.integrate_particles(pass);
    }
    families_.couple_bodies(pass);
    families_.integrate_bodies(pass);
    families_.integrate_continua(pass);
  }

  // One step's adjoint: from dL/dstate_{t+1} in adj_state to dL/dstate_t. s: the state
  // at t; next: the state at t + 1.
  void adjoint_step(int t, StateView<const T> s, StateView<const T> next, const GradView<T>& grad) {
    const ModelView<T> m = model_view();
    const AdjointPass<T, Exec> pass{exec_, m, t, s, next, adj_state(), exec_.data(adj_f_), grad};
    families_.adjoint_integrate_continua(pass);  // the last phase's adjoint first
    // The bodies' adjoint first: it needs step t's whole wrench and the links' places
    // (the arrays hold another step's), and leaves the bodies' and links' dL/dwrench,
    // which the particles' adjoint reads.
    const StepPass<T, Exec> again{exec_, m, t, s, {}};
    families_.kinematics(again);
    families_.couple_bodies(again);
    families_.adjoint_integrate_bodies(pass);
    if (implicit_) {  // the step's adjoint solve, then the same passes with dL/dF = dt lambda
      implicit_->solve_adjoint(exec_, m, t, next, pass.adj, families_);
      implicit_->particle_adjoint(exec_, m, s, next.v, pass.adj, pass.adj_f, grad);
      families_.gather_particle_body_adjoints(pass);
      implicit_->interaction_adjoint(exec_, m, t, next, pass.adj_f, pass.adj, grad, families_);
    } else {
      families_.adjoint_integrate_particles(pass);
      families_.gather_particle_body_adjoints(pass);
      families_.adjoint_interaction_forces(pass);
    }
    families_.adjoint_couple_bodies(pass);
    // Every actuator has left dL/dcontrols at step t: the controller's share of dL/dstate_t.
    families_.adjoint_control(pass);
    families_.gather_body_adjoints(pass);
  }

  bool observed(int t) const {
    const auto& steps = objectives_.observed_steps();
    return std::binary_search(steps.begin(), steps.end(), t);
  }

  void observe(int t, StateView<const T> s, std::vector<double>& term_loss) {
    if (!observed(t)) return;
    const StateView<const T> h = layout_.view(exec_.host_view(s.x, layout_.size(), host_state_));
    objectives_.add_state_loss(t, h, term_loss);
  }

  // Adds the objectives' dL/dx_t and dL/dv_t to the running adjoint.
  void inject(int t, StateView<const T> s) {
    if (!observed(t)) return;
    const StateView<const T> h = layout_.view(exec_.host_view(s.x, layout_.size(), host_state_));
    exec_.host_modify(exec_.data(adj_state_), layout_.size(), host_adj_,
                      [&](T* slot) { objectives_.add_state_grad(t, h, layout_.view(slot)); });
  }

  // Looks for NaN or Inf in states first..last; names the first bad step, and the first
  // state array (in slot order) and element with one.
  template <class StateAt>
  std::optional<Error> find_non_finite(int first, int last, StateAt state_at) {
    if (first > last) return std::nullopt;
    // NaN and Inf never heal within a rollout, so the last state tells.
    if (exec_.first_non_finite(static_cast<const T*>(state_at(last).x), layout_.size()) < 0) return std::nullopt;
    for (int t = first; t <= last; ++t) {
      const T* slot = state_at(t).x;
      for (size_t k = 0; k < layout_.fields().size(); ++k) {
        const StateField& field = layout_.fields()[k];
        const long bad = exec_.first_non_finite(slot + layout_.offset(k), field.values());
        if (bad < 0) continue;
        return Error{"the rollout produced a non-finite " + field.quantity + " at step " + std::to_string(t) +
                     " (t = " + std::to_string(t * static_cast<double>(dt_)) + " s), " + field.element + " " +
                     std::to_string(bad % field.count) +
                     "; the time step may be too large for the stiffness, or a parameter is extreme"};
      }
    }
    return std::nullopt;
  }

  void upload_parameters(const ParameterSet& p) {
    families_.upload(p, state(0), exec_);
    if (implicit_) implicit_->upload(p, exec_);
  }

  ModelView<T> model_view() const {
    ModelView<T> m;
    m.dt = dt_;
    families_.put_model(m, exec_);
    return m;
  }

  void zero_gradients() { families_.zero_gradients(exec_); }

  GradView<T> grad_view() {
    GradView<T> g;
    families_.put_grad(g, exec_);
    return g;
  }

  void download_gradients(ParameterSet& p) {
    p.zero_grad();
    families_.download_gradients(p, adj_state(), exec_);
  }

  size_t particle_values() const { return 3 * size_t(particles_); }  // one 3 x n array

  Exec exec_;
  Objectives objectives_;
  int particles_, bodies_, points_, vessels_, coordinates_, positions_;
  int steps_, checkpoint_every_;
  T dt_;
  Families<T, Exec> families_;
  StateLayout layout_;                              // from the families' state fields
  std::optional<ImplicitEuler<T, Exec>> implicit_;  // with Integrator::ImplicitEuler only

  using Array = typename Exec::template Array<T>;
  // States: every step, or checkpoints plus one recomputed segment; StateLayout slots.
  Array states_, segment_;
  Array adj_state_;  // dL/dstate at the step the backward pass has reached
  Array adj_f_;      // dL/dF per particle for one step, 3 x n
  // Host copies used when the backend's memory is not host memory.
  std::vector<T> host_state_, host_adj_, host_frame_;
};

}  // namespace nudge
