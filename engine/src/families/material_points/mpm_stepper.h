// One MLS-MPM step of the material points on a backend, and its adjoint
// (mpm_kernels.h's units in order): bin the points, prepare each point (F', A), each
// grid node's momentum, mass and velocity, then the gather back to the points. The
// adjoint recomputes the step's grid from its state (nothing of the grid is stored
// between steps: the rollout keeps the points' states, or checkpoints of them) and runs
// the units backwards.
#pragma once

#include <algorithm>
#include <vector>

#include "families/material_points/mpm_kernels.h"
#include "sim/backend.h"

namespace nudge {

template <class T, Backend Exec>
class MpmStepper {
public:
  // Sizes the scratch for n points on grid g, with `groups` boundary groups and a
  // record of the bodies (and of the links' solids) each node meets where `bodies`
  // (`links`).
  void reserve(const Exec& exec, const MpmGrid<T>& g, int n, int groups = 0, bool bodies = false, bool links = false) {
    const size_t nodes = size_t(g.node_count()), points = size_t(n > 0 ? n : 1);
    for (auto* a : {&cell_, &order_, &slot_}) exec.resize(*a, points);
    exec.resize(start_, nodes + 1);
    exec.resize(active_, nodes);
    exec.resize(active_count_, 1);
    exec.resize(mark_, nodes);
    exec.zero(mark_);  // the bin kernel keeps it zero between steps
    exec.resize(fx_, 3 * points);
    exec.resize(w_, 9 * points);
    exec.resize(dw_, 9 * points);
    exec.resize(affine_, 9 * points);
    const int record = g.dims == 2 ? std::max(ScatterRecord<2>::size, GatherAdjointRecord<2>::size)
                                   : std::max(ScatterRecord<3>::size, GatherAdjointRecord<3>::size);
    exec.resize(records_, size_t(record) * points);
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
    if (bodies) body_records_.reserve(exec, nodes);
    if (links) link_records_.reserve(exec, nodes);
  }

  // The points from state s into next, the grid bounded by b (this step's motion).
  void forward(const Exec& exec, const MpmGrid<T>& g, const MpmPointsModel<T>& m, const MpmBoundaries<T>& b,
               MpmPointState<T> s, MpmPointState<T> next) {
    grid(exec, g, m, b, {}, s, next);
    gather(exec, g, m, s, next);
  }

  // The forward's halves, for a step whose grid meets bodies or links, which take their
  // wrench between them: the step's grid (F' into next.f, or a scratch where next.f is
  // null), each node's solids and the wrench it gives each (with_node_records()); then
  // the gather of the grid's velocities into next's v, C and x.
  void grid(const Exec& exec, const MpmGrid<T>& g, const MpmPointsModel<T>& m, const MpmBoundaries<T>& b,
            MpmSolids<T> solids, MpmPointState<T> s, MpmPointState<T> next) {
    if (m.n == 0) return;
    if (!next.f) next.f = exec.data(next_fn_);
    if (g.dims == 2)
      grid_of_step<2>(exec, g, m, b, with_node_records(exec, solids), s, next);
    else
      grid_of_step<3>(exec, g, m, b, with_node_records(exec, solids), s, next);
  }
  void gather(const Exec& exec, const MpmGrid<T>& g, const MpmPointsModel<T>& m, MpmPointState<T> s,
              MpmPointState<T> next) {
    if (m.n == 0) return;
    if (g.dims == 2)
      exec.launch(m.n, MpmGatherKernel<2, T>{g, m.n, bins(exec), exec.data(velocity_), s, next});
    else
      exec.launch(m.n, MpmGatherKernel<3, T>{g, m.n, bins(exec), exec.data(velocity_), s, next});
  }

  // adj holds dL/d(next state) on entry and dL/d(state s) on return; grad receives this
  // step's shares (act: this step's dL/d(pull) of each point, overwritten); the solids
  // (with adj_wrench) their shares at each node (with_node_records()). After it, active_nodes()
  // lists the nodes whose gravity_shares() (3 x nodes) and boundary_shares() are this
  // step's; the other nodes' entries are stale. grid_ready: the last grid() was this
  // step's, from s, and need not be made again.
  void adjoint(const Exec& exec, const MpmGrid<T>& g, const MpmPointsModel<T>& m, const MpmBoundaries<T>& b,
               MpmSolids<T> solids, MpmPointState<T> s, MpmPointState<T> adj, MpmPointGrad<T> grad,
               bool grid_ready = false) {
    if (m.n == 0) return;
    if (g.dims == 2)
      adjoint_in<2>(exec, g, m, b, with_node_records(exec, solids), s, adj, grad, grid_ready);
    else
      adjoint_in<3>(exec, g, m, b, with_node_records(exec, solids), s, adj, grad, grid_ready);
  }

  // dL/dg's share of each active node from the last adjoint (3 x nodes).
  const T* gravity_shares(const Exec& exec) const { return exec.data(adj_gravity_); }
  // Each active node's share of its boundary group's turn from the last adjoint.
  MpmBoundaryShares<T> boundary_shares(const Exec& exec) { return {exec.data(share_angle_), exec.data(share_rate_)}; }
  // The last step's active nodes (ids in increasing order) and their count.
  const int* active_nodes(const Exec& exec) const { return exec.data(active_); }
  int active_count() const { return active_count_host_; }

  // `bodies` (the links' solids) with this stepper's records of the bodies (solids) each
  // node met in the last grid() or adjoint(): their wrenches, or their shares.
  MpmBodies<T> with_node_records(const Exec& exec, MpmBodies<T> bodies) { return body_records_.on(exec, bodies); }
  MpmBodies<T> with_link_records(const Exec& exec, MpmBodies<T> links) { return link_records_.on(exec, links); }
  MpmSolids<T> with_node_records(const Exec& exec, MpmSolids<T> solids) {
    return {with_node_records(exec, solids.bodies), with_link_records(exec, solids.links)};
  }

private:
  MpmBins<T> bins(const Exec& exec) {
    return {exec.data(cell_),         exec.data(order_), exec.data(slot_), exec.data(start_), exec.data(active_),
            exec.data(active_count_), exec.data(mark_),  exec.data(fx_),   exec.data(w_),     exec.data(dw_)};
  }

  // Node kernels do tens of point visits each: on the CPU they are spread a few nodes at
  // a time (launch's chunks suit light elements), on the GPU a node per thread.
  template <class Kernel>
  void launch_nodes(const Exec& exec, const Kernel& kernel) const {
    if constexpr (requires { exec.launch_blocks(0, kernel); })
      exec.launch_blocks(active_count_host_, kernel);
    else
      exec.launch(active_count_host_, kernel);
  }

  template <int D>
  void adjoint_in(const Exec& exec, const MpmGrid<T>& g, const MpmPointsModel<T>& m, const MpmBoundaries<T>& b,
                  MpmSolids<T> solids, MpmPointState<T> s, MpmPointState<T> adj, MpmPointGrad<T> grad,
                  bool grid_ready) {
    // The step's grid again, and F' into a scratch (the next state's F is not needed).
    MpmPointState<T> scratch_next{nullptr, nullptr, nullptr, exec.data(next_fn_)};
    if (!grid_ready) grid_of_step<D>(exec, g, m, b, solids, s, scratch_next);
    const MpmNextAdjoint<T> next{exec.data(next_vn_), exec.data(next_cn_), exec.data(next_xn_), exec.data(next_fn_)};
    exec.launch(m.n, MpmTakeNextAdjointKernel<D, T>{g, m.n, bins(exec), adj, next, exec.data(records_)});
    launch_nodes(exec, MpmAdjGridKernel<D, T>{g, b, solids, bins(exec), exec.data(records_), exec.data(momentum_),
                                              exec.data(mass_), exec.data(adj_momentum_), exec.data(adj_mass_),
                                              exec.data(adj_gravity_), boundary_shares(exec)});
    exec.launch(m.n, MpmAdjPointKernel<D, T>{g, m, s, bins(exec), exec.data(affine_), exec.data(velocity_),
                                             exec.data(adj_momentum_), exec.data(adj_mass_), next, adj, grad});
  }

  template <int D>
  void grid_of_step(const Exec& exec, const MpmGrid<T>& g, const MpmPointsModel<T>& m, const MpmBoundaries<T>& b,
                    MpmSolids<T> solids, MpmPointState<T> s, MpmPointState<T> next) {
    exec.launch(m.n, MpmPlaceKernel<T>{g, m.n, s.x, bins(exec)});
    exec.launch(1, MpmBinKernel<T>{g, m.n, bins(exec)});
    active_count_host_ = *exec.host_view(static_cast<const int*>(exec.data(active_count_)), 1, count_host_);
    exec.launch(m.n, MpmPrepareKernel<D, T>{g, m, s, next, bins(exec), exec.data(affine_), exec.data(records_)});
    launch_nodes(exec, MpmGridKernel<D, T>{g, b, solids, bins(exec), exec.data(records_), exec.data(momentum_),
                                           exec.data(mass_), exec.data(velocity_)});
  }

  using Array = typename Exec::template Array<T>;
  using IntArray = typename Exec::template Array<int>;
  IntArray cell_, order_, slot_, start_, active_, active_count_, mark_;
  std::vector<int> count_host_;
  int active_count_host_ = 0;
  Array fx_, w_, dw_;
  Array affine_, records_, momentum_, mass_, velocity_;
  Array adj_momentum_, adj_mass_, adj_gravity_, share_angle_, share_rate_;
  Array next_vn_, next_cn_, next_xn_, next_fn_;
  // Per node, the solids it met in the step's grid (kMaxNodeBodies each) and what it
  // gave each (their wrenches) or took back (their shares).
  struct SolidRecords {
    IntArray solid;
    Array wrench, share;
    void reserve(const Exec& exec, size_t nodes) {
      exec.resize(solid, kMaxNodeBodies * nodes);
      exec.resize(wrench, 6 * kMaxNodeBodies * nodes);
      exec.resize(share, MpmBodies<T>::kShares * kMaxNodeBodies * nodes);
    }
    MpmBodies<T> on(const Exec& exec, MpmBodies<T> solids) {
      if (solids.count == 0) return solids;
      solids.node_body = exec.data(solid);
      solids.node_wrench = exec.data(wrench);
      solids.node_share = exec.data(share);
      return solids;
    }
  };
  SolidRecords body_records_, link_records_;
};

}  // namespace nudge
