// The material points' launchable units (mpm_transfer.h's pieces, one point or one grid
// node per index), and their adjoints. Nothing is added to one address from two indices:
// the scatter to the grid is written as a gather by node over the points binned by the
// cell of their first node, in the bins' fixed order, so that every sum has one order
// whatever the thread count (no atomics).
//
// Points' arrays are structures of arrays: 3 x n for x and v (z = 0 in 2D), 9 x n for C
// and F (entry k of point p at k * n + p).
#pragma once

#include "families/material_points/mpm_boundary.h"
#include "families/material_points/mpm_transfer.h"

namespace nudge {

// The points' state at one step, as the kernels read and write it.
template <class T>
struct MpmPointState {
  T* x = nullptr;  // 3 x n
  T* v = nullptr;  // 3 x n
  T* c = nullptr;  // 9 x n
  T* f = nullptr;  // 9 x n
};

// What does not change during a rollout, and this step's muscle pulls.
template <class T>
struct MpmPointsModel {
  int n = 0;
  const int* material = nullptr;  // n
  const T* mass = nullptr;        // n, kg
  const T* volume = nullptr;      // n, m^d
  const int* kind = nullptr;      // materials: MpmModelKind
  const T* mu = nullptr;          // materials
  const T* lambda = nullptr;      // materials
  const T* bulk = nullptr;        // materials
  const T* viscosity = nullptr;   // materials
  const T* act = nullptr;         // n: this step's pull of each point (Pa), 0 without a muscle
};

template <class T>
NUDGE_HD PointMaterial<T> point_material(const MpmPointsModel<T>& m, int p) {
  const int k = m.material[p];
  PointMaterial<T> pm;
  pm.law.kind = static_cast<MpmModelKind>(m.kind[k]);
  pm.law.mu = m.mu[k];
  pm.law.lambda = m.lambda[k];
  pm.law.bulk = m.bulk[k];
  pm.law.viscosity = m.viscosity[k];
  pm.mass = m.mass[p];
  pm.volume = m.volume[p];
  pm.act = m.act[p];
  return pm;
}

// The bins: the points sorted (stably) by the linear index of the cell of their first
// node; points of cell c are order[start[c] .. start[c + 1]). With each point's place on
// the grid and its B-spline values, computed once per step (a node visits each point
// around it: nine or 27 visits, which multiply these).
template <class T>
struct MpmBins {
  int* cell = nullptr;   // n
  int* order = nullptr;  // n
  int* start = nullptr;  // nodes + 1
  T* fx = nullptr;       // 3 x n: the point's offset from its first node, in cells
  T* w = nullptr;        // 9 x n: entry 3 axis + o of point p at (3 axis + o) n + p
  T* dw = nullptr;       // 9 x n: their derivatives
};

// Per point: its place, B-spline values and cell.
template <class T>
struct MpmPlaceKernel {
  MpmGrid<T> g;
  int n;
  const T* x;
  MpmBins<T> bins;
  NUDGE_HD void operator()(int p) const {
    const GridPlace<T> place = grid_place(g, load3(x, p, n));
    for (int k = 0; k < 3; ++k) {
      bins.fx[k * n + p] = place.fx[k];
      for (int o = 0; o < 3; ++o) {
        bins.w[(3 * k + o) * n + p] = bspline(place.fx[k], o);
        bins.dw[(3 * k + o) * n + p] = bspline_derivative(place.fx[k], o);
      }
    }
    bins.cell[p] = g.node_index(place.base[0], place.base[1], place.base[2]);
  }
};

// node_weight from a point's stored values: the same products, so the same bits.
template <class T>
NUDGE_HD NodeWeight<T> stored_node_weight(const MpmGrid<T>& g, const MpmBins<T>& bins, int n, int p, const int o[3]) {
  T nn[3], dn[3];
  T rel[3] = {0, 0, 0};
  for (int k = 0; k < 3; ++k) {
    if (k < g.dims) {
      nn[k] = bins.w[(3 * k + o[k]) * n + p];
      dn[k] = bins.dw[(3 * k + o[k]) * n + p];
      rel[k] = T(o[k]) - bins.fx[k * n + p];
    } else {
      nn[k] = T(1);
      dn[k] = T(0);
    }
  }
  return {nn[0] * nn[1] * nn[2],
          {dn[0] * nn[1] * nn[2], nn[0] * dn[1] * nn[2], nn[0] * nn[1] * dn[2]},
          {rel[0], rel[1], rel[2]}};
}

// One index: counting sort of every point by its cell (serial, and so the same order
// everywhere).
template <class T>
struct MpmBinKernel {
  MpmGrid<T> g;
  int n;
  MpmBins<T> bins;
  NUDGE_HD void operator()(int) const {
    const int nodes = g.node_count();
    for (int c = 0; c <= nodes; ++c) bins.start[c] = 0;
    for (int p = 0; p < n; ++p) ++bins.start[bins.cell[p] + 1];
    for (int c = 0; c < nodes; ++c) bins.start[c + 1] += bins.start[c];
    // start[c] is now where cell c begins; fill, advancing a cursor kept in cell[]'s place.
    for (int p = 0; p < n; ++p) bins.order[p] = -1;
    for (int p = 0; p < n; ++p) {
      const int c = bins.cell[p];
      int at = bins.start[c];
      while (bins.order[at] >= 0) ++at;  // the cell's next free slot, in point order
      bins.order[at] = p;
    }
  }
};

// Per point: F' into the next state, and the affine momentum A (9 x n scratch).
template <int D, class T>
struct MpmPrepareKernel {
  MpmGrid<T> g;
  MpmPointsModel<T> m;
  MpmPointState<T> s, next;
  T* affine;
  NUDGE_HD void operator()(int p) const {
    const PointMaterial<T> pm = point_material(m, p);
    const Mat33<T> c = load_matrix(s.c, p, m.n), f = load_matrix(s.f, p, m.n);
    const Mat33<T> f_new = advanced_gradient<D>(g, pm, c, f);
    store_matrix(next.f, p, m.n, f_new);
    store_matrix(affine, p, m.n, affine_momentum(g, pm, c, f_new));
  }
};

// Calls visit(p, weight) for every point whose stencil covers node (i, j, k), cell by
// cell in stencil order, each cell's points in bin order.
template <class T, class Visit>
NUDGE_HD void for_points_at_node(const MpmGrid<T>& g, const MpmBins<T>& bins, int n, const int node[3], Visit visit) {
  for (int q = 0; q < stencil_size(g); ++q) {
    int o[3];
    stencil_offset(g, q, o);
    const int b0 = node[0] - o[0], b1 = node[1] - o[1], b2 = node[2] - o[2];
    if (b0 < 0 || b1 < 0 || b2 < 0 || b0 > g.cells - 3 || b1 > g.cells - 3) continue;
    if (g.dims == 3 && b2 > g.cells - 3) continue;
    const int c = g.node_index(b0, b1, b2);
    for (int at = bins.start[c]; at < bins.start[c + 1]; ++at) {
      const int p = bins.order[at];
      visit(p, stored_node_weight(g, bins, n, p, o));
    }
  }
}

template <class T>
NUDGE_HD void node_of(const MpmGrid<T>& g, int id, int node[3]) {
  if (g.dims == 2) {
    node[0] = id / g.cells, node[1] = id % g.cells, node[2] = 0;
  } else {
    node[0] = id / (g.cells * g.cells), node[1] = (id / g.cells) % g.cells, node[2] = id % g.cells;
  }
}

// Where node (i, j, k) is in the world (a 2D grid's nodes at the origin's z).
template <class T>
NUDGE_HD Vec3<T> node_position(const MpmGrid<T>& g, const int node[3]) {
  return {g.origin[0] + g.dx * T(node[0]), g.origin[1] + g.dx * T(node[1]), g.origin[2] + g.dx * T(node[2])};
}

// Per node: its momentum and mass from the points around it, then its velocity (the
// walls, then the boundaries).
template <class T>
struct MpmGridKernel {
  MpmGrid<T> g;
  MpmPointsModel<T> m;
  MpmBoundaries<T> bounds;
  MpmBins<T> bins;  // the step's places and bins
  const T* v;       // 3 x n
  const T* affine;  // 9 x n
  T* momentum;      // 3 x nodes
  T* mass;          // nodes
  T* velocity;      // 3 x nodes
  NUDGE_HD void operator()(int id) const {
    int node[3];
    node_of(g, id, node);
    Vec3<T> mv{0, 0, 0};
    T mm = 0;
    for_points_at_node(g, bins, m.n, node, [&](int p, const NodeWeight<T>& nw) {
      const NodeShare<T> share = node_share(g, nw, m.mass[p], load3(v, p, m.n), load_matrix(affine, p, m.n));
      mv += share.momentum;
      mm += share.mass;
    });
    const int nodes = g.node_count();
    store3(momentum, id, nodes, mv);
    mass[id] = mm;
    const Vec3<T> walled = grid_velocity(g, node, mv, mm);
    // A node without mass has no point around it to read its velocity: no boundary work.
    store3(velocity, id, nodes, mm > T(0) ? boundary_velocity(bounds, node_position(g, node), walled) : walled);
  }
};

// Per point: v', C' from the grid, x' = x + dt v'.
template <class T>
struct MpmGatherKernel {
  MpmGrid<T> g;
  int n;
  const T* velocity;  // 3 x nodes
  MpmPointState<T> s, next;
  NUDGE_HD void operator()(int p) const {
    const Vec3<T> x = load3(s.x, p, n);
    const GridPlace<T> place = grid_place(g, x);
    const int nodes = g.node_count();
    Vec3<T> vn{0, 0, 0};
    Mat33<T> cn = zero33<T>();
    for (int q = 0; q < stencil_size(g); ++q) {
      int o[3];
      stencil_offset(g, q, o);
      const int id = g.node_index(place.base[0] + o[0], place.base[1] + o[1], place.base[2] + o[2]);
      const PointUpdate<T> u = node_gather(g, node_weight(g, place, o), load3(velocity, id, nodes));
      vn += u.v;
      cn += u.c;
    }
    store3(next.v, p, n, vn);
    store_matrix(next.c, p, n, cn);
    store3(next.x, p, n, x + g.dt * vn);
  }
};

// --- adjoints --------------------------------------------------------------------

// What the next state's adjoint asks of each point, copied out before the step's
// adjoint overwrites the state adjoint in place: dL/dv' in full (with dt dL/dx'), dL/dC',
// dL/dx' and dL/dF'.
template <class T>
struct MpmNextAdjoint {
  T* vn;  // 3 x n
  T* cn;  // 9 x n
  T* xn;  // 3 x n
  T* fn;  // 9 x n
};

template <class T>
struct MpmTakeNextAdjointKernel {
  T dt;
  int n;
  MpmPointState<T> adj;
  MpmNextAdjoint<T> out;
  NUDGE_HD void operator()(int p) const {
    const Vec3<T> ax = load3(adj.x, p, n);
    store3(out.xn, p, n, ax);
    store3(out.vn, p, n, load3(adj.v, p, n) + dt * ax);
    for (int k = 0; k < 9; ++k) out.cn[k * n + p] = adj.c[k * n + p], out.fn[k * n + p] = adj.f[k * n + p];
  }
};

// Each node's shares of each boundary group's dL/d(angle) and dL/d(rate): entry
// g * nodes + node.
template <class T>
struct MpmBoundaryShares {
  T* angle = nullptr;
  T* rate = nullptr;
};

// Per node: dL/d(its velocity) from the gather of every point around it, then dL/d(its
// momentum and mass) through the boundaries and the grid update, and its shares of
// dL/dgravity and of its boundary's turn.
template <class T>
struct MpmAdjGridKernel {
  MpmGrid<T> g;
  MpmBoundaries<T> bounds;
  int n;
  MpmBins<T> bins;
  const T* momentum;  // 3 x nodes
  const T* mass;      // nodes
  const T* velocity;  // 3 x nodes
  MpmNextAdjoint<T> next;
  T* adj_momentum;  // 3 x nodes
  T* adj_mass;      // nodes
  T* adj_gravity;   // 3 x nodes: each node's share
  MpmBoundaryShares<T> shares;
  NUDGE_HD void operator()(int id) const {
    int node[3];
    node_of(g, id, node);
    const int nodes = g.node_count();
    const Vec3<T> nv = load3(velocity, id, nodes);
    Vec3<T> adj_v{0, 0, 0};
    for_points_at_node(g, bins, n, node, [&](int p, const NodeWeight<T>& nw) {
      Vec3<T> unused{0, 0, 0};
      adj_node_gather(g, nw, nv, load3(next.vn, p, n), load_matrix(next.cn, p, n), adj_v, unused);
    });
    const Vec3<T> mv = load3(momentum, id, nodes);
    Vec3<T> adj_walled{0, 0, 0};
    for (int k = 0; k < bounds.groups; ++k) shares.angle[k * nodes + id] = shares.rate[k * nodes + id] = T(0);
    if (mass[id] > T(0) && bounds.parts > 0)
      adj_boundary_velocity(bounds, node_position(g, node), grid_velocity(g, node, mv, mass[id]), adj_v, adj_walled,
                            shares.angle + id, shares.rate + id, nodes);
    else
      adj_walled = adj_v;
    Vec3<T> am{0, 0, 0}, ag{0, 0, 0};
    T amass = 0;
    adj_grid_velocity(g, node, mv, mass[id], adj_walled, am, amass, ag);
    store3(adj_momentum, id, nodes, am);
    adj_mass[id] = amass;
    store3(adj_gravity, id, nodes, ag);
  }
};

// Per-point shares of the materials' and the pulls' gradients, summed in point order.
template <class T>
struct MpmPointGrad {
  T* mu = nullptr;         // n
  T* lambda = nullptr;     // n
  T* bulk = nullptr;       // n
  T* viscosity = nullptr;  // n
  T* mass = nullptr;       // n
  T* volume = nullptr;     // n
  T* act = nullptr;        // n: dL/d(this step's pull)
};

// Per point: everything the step owes its x, v, C, F (written into adj as dL/dstate_t)
// and its parameters' shares.
template <int D, class T>
struct MpmAdjPointKernel {
  MpmGrid<T> g;
  MpmPointsModel<T> m;
  MpmPointState<T> s;     // the state at t
  const T* affine;        // 9 x n
  const T* velocity;      // 3 x nodes
  const T* adj_momentum;  // 3 x nodes
  const T* adj_mass;      // nodes
  MpmNextAdjoint<T> next;
  MpmPointState<T> adj;  // out: dL/dstate_t
  MpmPointGrad<T> grad;  // out: this step's shares, added
  NUDGE_HD void operator()(int p) const {
    const int n = m.n, nodes = g.node_count();
    const Vec3<T> x = load3(s.x, p, n), v = load3(s.v, p, n);
    const Mat33<T> a = load_matrix(affine, p, n);
    const PointMaterial<T> pm = point_material(m, p);
    const GridPlace<T> place = grid_place(g, x);
    const Vec3<T> adj_vn = load3(next.vn, p, n);
    const Mat33<T> adj_cn = load_matrix(next.cn, p, n);
    Vec3<T> adj_fx{0, 0, 0}, adj_v{0, 0, 0};
    Mat33<T> adj_a = zero33<T>();
    T adj_point_mass = 0;
    for (int q = 0; q < stencil_size(g); ++q) {
      int o[3];
      stencil_offset(g, q, o);
      const int id = g.node_index(place.base[0] + o[0], place.base[1] + o[1], place.base[2] + o[2]);
      const NodeWeight<T> nw = node_weight(g, place, o);
      Vec3<T> unused{0, 0, 0};
      adj_node_gather(g, nw, load3(velocity, id, nodes), adj_vn, adj_cn, unused, adj_fx);
      adj_node_share(g, nw, pm.mass, v, a, load3(adj_momentum, id, nodes), adj_mass[id], adj_v, adj_a, adj_point_mass,
                     adj_fx);
    }
    PointAdjoint<T> pa;
    adj_point_prepare<D>(g, pm, load_matrix(s.c, p, n), load_matrix(s.f, p, n), adj_a, load_matrix(next.fn, p, n), pa);
    store3(adj.x, p, n, load3(next.xn, p, n) + g.inv_dx * adj_fx);
    store3(adj.v, p, n, adj_v);
    store_matrix(adj.c, p, n, pa.c);
    store_matrix(adj.f, p, n, pa.f);
    grad.mu[p] += pa.law.mu;
    grad.lambda[p] += pa.law.lambda;
    grad.bulk[p] += pa.law.bulk;
    grad.viscosity[p] += pa.law.viscosity;
    grad.mass[p] += pa.mass + adj_point_mass;
    grad.volume[p] += pa.volume;
    grad.act[p] = pa.act;  // this step's: the caller takes it to the controls
  }
};

}  // namespace nudge
