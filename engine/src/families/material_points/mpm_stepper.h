// One MLS-MPM step of the material points on a backend, and its adjoint
// (mpm_kernels.h's units in order): bin the points, prepare each point (F', A), each
// grid node's momentum, mass and velocity, then the gather back to the points. The
// adjoint recomputes the step's grid from its state (nothing of the grid is stored
// between steps: the rollout keeps the points' states, or checkpoints of them) and runs
// the units backwards.
#pragma once

#include "families/material_points/mpm_kernels.h"
#include "sim/backend.h"

namespace nudge {

template <class T, Backend Exec>
class MpmStepper {
public:
  // Sizes the scratch for n points on grid g.
  void reserve(const Exec& exec, const MpmGrid<T>& g, int n, int groups = 0) {
    const size_t nodes = size_t(g.node_count()), points = size_t(n > 0 ? n : 1);
    exec.resize(cell_, points);
    exec.resize(order_, points);
    exec.resize(start_, nodes + 1);
    exec.resize(fx_, 3 * points);
    exec.resize(w_, 9 * points);
    exec.resize(dw_, 9 * points);
    exec.resize(affine_, 9 * points);
    exec.resize(momentum_, 3 * nodes);
    exec.resize(mass_, nodes);
    exec.resize(velocity_, 3 * nodes);
    exec.resize(adj_momentum_, 3 * nodes);
    exec.resize(adj_mass_, nodes);
    exec.resize(adj_gravity_, 3 * nodes);
    exec.resize(share_angle_, nodes * size_t(groups > 0 ? groups : 1));
    exec.resize(share_rate_, nodes * size_t(groups > 0 ? groups : 1));

    for (auto* a : {&next_vn_, &next_xn_}) exec.resize(*a, 3 * points);
    for (auto* a : {&next_cn_, &next_fn_}) exec.resize(*a, 9 * points);
  }

  // The points from state s into next, the grid bounded by b (this step's motion).
  void forward(const Exec& exec, const MpmGrid<T>& g, const MpmPointsModel<T>& m, const MpmBoundaries<T>& b,
               MpmPointState<T> s, MpmPointState<T> next) {
    if (m.n == 0) return;
    grid_of_step(exec, g, m, b, s, next);
    exec.launch(m.n, MpmGatherKernel<T>{g, m.n, exec.data(velocity_), s, next});
  }

  // adj holds dL/d(next state) on entry and dL/d(state s) on return; grad receives this
  // step's shares (act: this step's dL/d(pull) of each point, overwritten); adj_gravity
  // receives dL/dg's share of each node (3 x nodes, overwritten), and boundary_shares
  // each node's share of its boundary group's turn.
  void adjoint(const Exec& exec, const MpmGrid<T>& g, const MpmPointsModel<T>& m, const MpmBoundaries<T>& b,
               MpmPointState<T> s, MpmPointState<T> adj, MpmPointGrad<T> grad) {
    if (m.n == 0) return;
    // The step's grid again, and F' into a scratch (the next state's F is not needed).
    MpmPointState<T> scratch_next{nullptr, nullptr, nullptr, exec.data(next_fn_)};
    grid_of_step(exec, g, m, b, s, scratch_next);
    const MpmNextAdjoint<T> next{exec.data(next_vn_), exec.data(next_cn_), exec.data(next_xn_), exec.data(next_fn_)};
    exec.launch(m.n, MpmTakeNextAdjointKernel<T>{g.dt, m.n, adj, next});
    exec.launch(g.node_count(),
                MpmAdjGridKernel<T>{g, b, m.n, bins(exec), exec.data(momentum_), exec.data(mass_), exec.data(velocity_),
                                    next, exec.data(adj_momentum_), exec.data(adj_mass_), exec.data(adj_gravity_),
                                    boundary_shares(exec)});
    if (g.dims == 2)
      launch_adj_points<2>(exec, g, m, s, adj, grad, next);
    else
      launch_adj_points<3>(exec, g, m, s, adj, grad, next);
  }

  // dL/dg's share of each node from the last adjoint (3 x nodes).
  const T* gravity_shares(const Exec& exec) const { return exec.data(adj_gravity_); }
  // Each node's share of its boundary group's turn from the last adjoint.
  MpmBoundaryShares<T> boundary_shares(const Exec& exec) { return {exec.data(share_angle_), exec.data(share_rate_)}; }

private:
  MpmBins<T> bins(const Exec& exec) {
    return {exec.data(cell_), exec.data(order_), exec.data(start_), exec.data(fx_), exec.data(w_), exec.data(dw_)};
  }

  void grid_of_step(const Exec& exec, const MpmGrid<T>& g, const MpmPointsModel<T>& m, const MpmBoundaries<T>& b,
                    MpmPointState<T> s, MpmPointState<T> next) {
    exec.launch(m.n, MpmPlaceKernel<T>{g, m.n, s.x, bins(exec)});
    exec.launch(1, MpmBinKernel<T>{g, m.n, bins(exec)});
    if (g.dims == 2)
      exec.launch(m.n, MpmPrepareKernel<2, T>{g, m, s, next, exec.data(affine_)});
    else
      exec.launch(m.n, MpmPrepareKernel<3, T>{g, m, s, next, exec.data(affine_)});
    exec.launch(g.node_count(), MpmGridKernel<T>{g, m, b, bins(exec), s.v, exec.data(affine_), exec.data(momentum_),
                                                 exec.data(mass_), exec.data(velocity_)});
  }

  template <int D>
  void launch_adj_points(const Exec& exec, const MpmGrid<T>& g, const MpmPointsModel<T>& m, MpmPointState<T> s,
                         MpmPointState<T> adj, MpmPointGrad<T> grad, const MpmNextAdjoint<T>& next) {
    exec.launch(m.n, MpmAdjPointKernel<D, T>{g, m, s, exec.data(affine_), exec.data(velocity_),
                                             exec.data(adj_momentum_), exec.data(adj_mass_), next, adj, grad});
  }

  using Array = typename Exec::template Array<T>;
  using IntArray = typename Exec::template Array<int>;
  IntArray cell_, order_, start_;
  Array fx_, w_, dw_;
  Array affine_, momentum_, mass_, velocity_;
  Array adj_momentum_, adj_mass_, adj_gravity_, share_angle_, share_rate_;
  Array next_vn_, next_cn_, next_xn_, next_fn_;
};

}  // namespace nudge
