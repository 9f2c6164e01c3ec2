// Tetrahedra: stable Neo-Hookean solids (families/tets/tet_neohookean.h, Warp's
// eval_tetrahedra), passive or actuated by the springs' per-step controls. Owns the
// tets' corners, rest shapes, parameters (k_mu, k_lambda, k_damp per tet), actuation,
// scratch and gradients, and its schedule, the same on both backends: one thread per tet
// writes the forces on its four corners into their corner slots
// (kernels/corner_model.h), which the particle pass gathers; backwards, one thread per
// tet turns the particles' dL/dF into its gradients, its corners' dL/dstate (gathered by
// the particles) and its dL/dcontrol, which one thread per channel sums over the
// channel's tets in tet order. No two threads add to one address, so the results do not
// depend on the thread count. An element family of ElementFamilies (element_families.h).
//
// A tet on channel c with gain a has activation a * controls[t][c] at step t, added to
// its J - alpha: a positive activation pulls its volume down, a negative one swells it.
// The rest shape (inverse rest pose and volume) is each tet's shape in the scene's
// initial positions, taken when the rollout is built, as the triangles' are: a constant
// of the rollout, so the initial positions' gradient does not go through it.
#pragma once

#include <vector>

#include "kernels/corner_model.h"
#include "families/tets/tet_kernels.h"
#include "nudge/scene.h"
#include "sim/backend.h"
#include "sim/channel_lists.h"
#include "sim/element_params.h"
#include "sim/soa.h"

namespace nudge {

template <class T, Backend Exec>
class TetFamily {
public:
  TetFamily(const Scene& scene, const Exec& exec)
      : tets_(scene.tet_count()), steps_(scene.settings.steps), channels_(scene.channels),
        params_({ParamId::TetMu, ParamId::TetLambda, ParamId::TetDamping}, tets_) {
    upload_topology(scene, exec);
  }

  static constexpr int kCorners = 4;
  int count() const { return tets_; }

  // The particle at each of its corner slots: corner c of tet e at c Tet + e.
  std::vector<int> corner_particles(const Scene& scene) const {
    std::vector<int> at(4 * size_t(tets_));
    for (int e = 0; e < tets_; ++e)
      for (int c = 0; c < 4; ++c) at[size_t(c) * tets_ + e] = scene.tets[4 * size_t(e) + c];
    return at;
  }

  void upload(const ParameterSet& p, const Exec& exec) { params_.upload(p, exec); }

  // The controls table (tm.controls) is the rollout's ControlChannels', set by it.
  void put_model(ModelView<T>& m, const Exec& exec) const {
    TetModel<T>& tm = m.tets;
    tm.count = tets_;
    tm.channels = channels_;
    tm.corner = exec.data(corner_);
    tm.pose = exec.data(pose_);
    tm.volume = exec.data(volume_);
    tm.k_mu = params_.value(exec, kMu);
    tm.k_lambda = params_.value(exec, kLambda);
    tm.k_damp = params_.value(exec, kDamp);
    tm.channel = exec.data(channel_);
    tm.actuation = exec.data(actuation_);
  }

  // Each tet's forces on its corners at this step, for the particle pass to gather.
  void compute_forces(const Exec& exec, const ModelView<T>& m, int step, StateView<const T> state, CornerOut<T> force) {
    if (tets_ == 0) return;
    exec.launch(tets_, TetForceKernel<T>{m, step, state, force});
  }

  // The tets' part of a step's adjoint: from dL/dF per particle (adj_f) to their
  // parameter and control gradients and their corners' share of dL/dstate_t.
  void adjoint(const Exec& exec, const ModelView<T>& m, int step, StateView<const T> state, const T* adj_f,
               CornerOut<T> adj_x, CornerOut<T> adj_v, const GradView<T>& grad) {
    if (tets_ == 0) return;
    exec.launch(tets_, TetAdjointKernel<T>{m, step, state, adj_f, adj_x, adj_v, grad.tets});
    if (actuated_)
      exec.launch(channels_, TetControlAdjointKernel<T>{step, channels_, exec.data(channel_start_),
                                                        exec.data(channel_tet_), grad.tets});
  }

  void zero_gradients(const Exec& exec) {
    params_.zero_gradients(exec);
    exec.resize(g_adj_control_, size_t(tets_));
    exec.resize(g_controls_, actuated_ ? size_t(steps_) * channels_ : 0);
    for (auto* a : {&g_adj_control_, &g_controls_}) exec.zero(*a);
  }

  // dL/dcontrols goes to this family's own table, which only a sink reads (the implicit
  // step's operator products); the rollout points g.tets.controls at ControlChannels'.
  void put_grad(GradView<T>& g, const Exec& exec) {
    g.tets = {params_.grad(exec, kMu), params_.grad(exec, kLambda), params_.grad(exec, kDamp),
              exec.data(g_adj_control_), exec.data(g_controls_)};
  }

  void download_gradients(ParameterSet& p, const Exec& exec) const { params_.download_gradients(p, exec); }

private:
  using Array = typename Exec::template Array<T>;
  using IntArray = typename Exec::template Array<int>;

  void upload_topology(const Scene& scene, const Exec& exec) {
    const std::vector<double>& x0 = scene.params[ParamId::InitialPosition].value;
    const std::vector<int> corner = corner_particles(scene);
    std::vector<T> pose(9 * size_t(tets_)), volume(tets_), actuation(tets_);
    for (int e = 0; e < tets_; ++e) {
      Vec3<double> X[4];
      for (int c = 0; c < 4; ++c) {
        const int i = corner[size_t(c) * tets_ + e];
        X[c] = Vec3<double>{x0[3 * size_t(i)], x0[3 * size_t(i) + 1], x0[3 * size_t(i) + 2]};
      }
      // In double whatever T is; check_scene refuses flat and inverted rest tets.
      const TetRest<double> rest = tet_rest(X[0], X[1], X[2], X[3]);
      for (int k = 0; k < 9; ++k) pose[size_t(k) * tets_ + e] = static_cast<T>(rest.rest_inverse.m[k]);
      volume[e] = static_cast<T>(rest.volume);
      // Passive tets get actuation 0, which keeps the kernels branch-free.
      actuation[e] = scene.tet_channel[e] < 0 ? T(0) : static_cast<T>(scene.tet_actuation[e]);
    }
    exec.upload(corner_, corner);
    exec.upload(pose_, pose);
    exec.upload(volume_, volume);
    exec.upload(channel_, scene.tet_channel);
    exec.upload(actuation_, actuation);
    // Tets by actuation channel, for the control gradients.
    const ChannelLists lists = group_by_channel(channels_, scene.tet_channel);
    actuated_ = !lists.empty();
    exec.upload(channel_start_, lists.start);
    exec.upload(channel_tet_, lists.items);
  }

  int tets_, steps_, channels_;
  bool actuated_ = false;  // whether any tet is on a channel
  // Topology and rest shapes (constant for the scene) and parameters (uploaded each forward).
  IntArray corner_, channel_, channel_start_, channel_tet_;
  Array pose_, volume_, actuation_;
  enum { kMu, kLambda, kDamp };       // params_' rows
  ElementParams<T, Exec, 3> params_;  // k_mu, k_lambda, k_damp and their gradients
  // The per-step scratch of the control adjoint.
  Array g_adj_control_, g_controls_;
};

}  // namespace nudge
