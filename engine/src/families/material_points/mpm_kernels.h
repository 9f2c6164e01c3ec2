// The material points' launchable units (mpm_transfer.h's pieces, one point or one grid
// node per index), and their adjoints. Nothing is added to one address from two indices:
// the scatter to the grid is written as a gather by node over the points binned by the
// cell of their first node, in the bins' fixed order, so that every sum has one order
// whatever the thread count (no atomics). The node gathers and the point's adjoint
// compute node_share's, node_gather's and their adjoints' sums rearranged (per-point
// records, the D axes only); the step and rollout tests check them against central
// differences as mpm_kernels_test checks the pieces.
//
// Points' arrays are structures of arrays: 3 x n for x and v (z = 0 in 2D), 9 x n for C
// and F (entry k of point p at k * n + p).
#pragma once

#include "families/material_points/mpm_body_boundary.h"
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
  const T* alpha = nullptr;       // materials: sand's cone slope
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
  pm.law.alpha = m.alpha[k];
  pm.mass = m.mass[p];
  pm.volume = m.volume[p];
  pm.act = m.act[p];
  return pm;
}

// The bins: the points sorted (stably) by the linear index of the cell of their first
// node; points of cell c are order[start[c] .. start[c + 1]), and point p is at
// slot[p] in that order. With each point's place on the grid and its B-spline values,
// computed once per step (a node visits each point around it: nine or 27 visits, which
// multiply these), and the active nodes: those with a point around them, in increasing
// order (every other node has no mass, and no point reads it).
template <class T>
struct MpmBins {
  int* cell = nullptr;          // n
  int* order = nullptr;         // n
  int* slot = nullptr;          // n
  int* start = nullptr;         // nodes + 1
  int* active = nullptr;        // nodes: the first active_count[0] are the active nodes
  int* active_count = nullptr;  // 1
  int* mark = nullptr;          // nodes: scratch of the bin kernel
  T* fx = nullptr;              // 3 x n: the point's offset from its first node, in cells
  T* w = nullptr;               // 9 x n: entry 3 axis + o of point p at (3 axis + o) n + p
  T* dw = nullptr;              // 9 x n: their derivatives
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

// The grid node of offset o from the point's first node (its bin's cell).
template <class T>
NUDGE_HD int stencil_node(const MpmGrid<T>& g, int cell, const int o[3]) {
  return cell + (g.dims == 2 ? o[0] * g.cells + o[1] : (o[0] * g.cells + o[1]) * g.cells + o[2]);
}

// One index: counting sort of every point by its cell (serial, and so the same order
// everywhere), then the active nodes.
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
    // start[c] is where cell c begins: place each point at its cell's cursor, kept in
    // mark[] (all zero between calls: the stepper clears it once).
    for (int p = 0; p < n; ++p) {
      const int c = bins.cell[p];
      const int at = bins.start[c] + bins.mark[c]++;
      bins.order[at] = p;
      bins.slot[p] = at;
    }
    // A node is active when a point's stencil covers it: mark the stencils of the
    // occupied cells (each once), then list the marked nodes in order.
    for (int at = 0; at < n; ++at) bins.mark[bins.cell[bins.order[at]]] = 0;
    int last = -1;
    for (int at = 0; at < n; ++at) {
      const int c = bins.cell[bins.order[at]];
      if (c == last) continue;
      last = c;
      for (int q = 0; q < stencil_size(g); ++q) {
        int o[3];
        stencil_offset(g, q, o);
        bins.mark[stencil_node(g, c, o)] = 1;
      }
    }
    int count = 0;
    for (int c = 0; c < nodes; ++c)
      if (bins.mark[c]) bins.active[count++] = c, bins.mark[c] = 0;
    bins.active_count[0] = count;
  }
};

// What a node needs of each point around it, written per point in bin order (so that a
// node reads its points' records one after another) with D the grid's dimensions.
// Scatter: b = m v - A dx fx and dA = dx A, so that the node o cells on from the point's
// first node gets momentum w (b + dA o) and mass w m. Adjoint: e = dL/dv' - k dL/dC' fx
// and kC = k dL/dC' (k = 4 / dx), so that dL/d(node velocity) gets w (e + kC o). Both
// carry the B-spline values per axis, w[3 axis + o].
template <int D>
struct ScatterRecord {
  static constexpr int b = 0, a = D, w = D + D * D, mass = w + 3 * D, size = mass + 1;
};
template <int D>
struct GatherAdjointRecord {
  static constexpr int e = 0, c = D, w = D + D * D, size = w + 3 * D;
};

template <int D, class T>
NUDGE_HD void store_weights(const MpmBins<T>& bins, int n, int p, T* record) {
  for (int k = 0; k < D; ++k)
    for (int o = 0; o < 3; ++o) record[3 * k + o] = bins.w[(3 * k + o) * n + p];
}

// Per point: F' into the next state, the affine momentum A (9 x n scratch) and the
// point's scatter record.
template <int D, class T>
struct MpmPrepareKernel {
  MpmGrid<T> g;
  MpmPointsModel<T> m;
  MpmPointState<T> s, next;
  MpmBins<T> bins;
  T* affine;
  T* records;  // ScatterRecord<D>::size x n, by slot
  NUDGE_HD void operator()(int p) const {
    using R = ScatterRecord<D>;
    const PointMaterial<T> pm = point_material(m, p);
    const Mat33<T> c = load_matrix(s.c, p, m.n), f = load_matrix(s.f, p, m.n);
    const Mat33<T> f_new = advanced_gradient<D>(g, pm, c, f);
    store_matrix(next.f, p, m.n, f_new);
    const Mat33<T> a = affine_momentum<D>(g, pm, c, f_new);
    store_matrix(affine, p, m.n, a);
    T* r = records + size_t(bins.slot[p]) * R::size;
    const Vec3<T> v = load3(s.v, p, m.n);
    for (int k = 0; k < D; ++k) {
      T afx = 0;
      for (int l = 0; l < D; ++l) afx += a(k, l) * bins.fx[l * m.n + p];
      r[R::b + k] = pm.mass * (&v.x)[k] - g.dx * afx;
      for (int l = 0; l < D; ++l) r[R::a + D * k + l] = g.dx * a(k, l);
    }
    store_weights<D>(bins, m.n, p, r + R::w);
    r[R::mass] = pm.mass;
  }
};

// Calls visit(o, record, w) for the record (of layout R, its weights at R::w) of every
// point whose stencil covers node (i, j, k), cell by cell in stencil order, each cell's
// points in bin order; o is the node's offset from the point's first node and w the
// point's weight there.
template <int D, class R, class T, class Visit>
NUDGE_HD void for_records_at_node(const MpmGrid<T>& g, const MpmBins<T>& bins, const T* records, const int node[3],
                                  Visit visit) {
  constexpr int stencil = D == 2 ? 9 : 27;
  for (int q = 0; q < stencil; ++q) {
    const int o[3] = {D == 2 ? q / 3 : q / 9, D == 2 ? q % 3 : (q / 3) % 3, D == 2 ? 0 : q % 3};
    const int b0 = node[0] - o[0], b1 = node[1] - o[1], b2 = node[2] - o[2];
    if (b0 < 0 || b1 < 0 || b0 > g.cells - 3 || b1 > g.cells - 3) continue;
    if (D == 3 && (b2 < 0 || b2 > g.cells - 3)) continue;
    const int c = g.node_index(b0, b1, b2);
    for (int at = bins.start[c]; at < bins.start[c + 1]; ++at) {
      const T* r = records + size_t(at) * R::size;
      T w = r[R::w + o[0]] * r[R::w + 3 + o[1]];
      if (D == 3) w *= r[R::w + 6 + o[2]];
      visit(o, r, w);
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

// Per active node (index i of the active list): its momentum and mass from the points
// around it, then its velocity (the walls, the boundaries, then the bodies and the links'
// solids, which it gives the momentum it loses to them).
template <int D, class T>
struct MpmGridKernel {
  MpmGrid<T> g;
  MpmBoundaries<T> bounds;
  MpmSolids<T> solids;
  MpmBins<T> bins;   // the step's places and bins
  const T* records;  // ScatterRecord<D>, by slot
  T* momentum;       // 3 x nodes
  T* mass;           // nodes
  T* velocity;       // 3 x nodes
  NUDGE_HD void operator()(int i) const {
    using R = ScatterRecord<D>;
    const int id = bins.active[i];
    int node[3];
    node_of(g, id, node);
    T mv[3] = {0, 0, 0};
    T mm = 0;
    for_records_at_node<D, R>(g, bins, records, node, [&](const int o[3], const T* r, T w) {
      for (int k = 0; k < D; ++k) {
        T share = r[R::b + k];
        for (int l = 0; l < D; ++l) share += r[R::a + D * k + l] * T(o[l]);
        mv[k] += w * share;
      }
      mm += w * r[R::mass];
    });
    const int nodes = g.node_count();
    const Vec3<T> m3{mv[0], mv[1], mv[2]};
    store3(momentum, id, nodes, m3);
    mass[id] = mm;
    const Vec3<T> walled = grid_velocity(g, node, m3, mm);
    // A node without mass has no point to read its velocity: no boundary work.
    const Vec3<T> x = node_position(g, node);
    Vec3<T> v = mm > T(0) ? boundary_velocity(bounds, x, walled) : walled;
    if (solids.bodies.count > 0) v = bodies_velocity(solids.bodies, g.dx, g.dt, id, nodes, x, v, mm);
    if (solids.links.count > 0) v = bodies_velocity(solids.links, g.dx, g.dt, id, nodes, x, v, mm);
    store3(velocity, id, nodes, v);
  }
};

// A point's B-spline values along each of the D axes, as stored for the step: the weight
// of node offset o is the product of w[k][o_k], its derivative along axis j the same
// product with dw[j][o_j] in place of w[j][o_j].
template <int D, class T>
struct PointSplines {
  T w[D][3], dw[D][3], fx[D];

  NUDGE_HD PointSplines(const MpmBins<T>& bins, int n, int p) {
    for (int k = 0; k < D; ++k) {
      fx[k] = bins.fx[k * n + p];
      for (int o = 0; o < 3; ++o) w[k][o] = bins.w[(3 * k + o) * n + p], dw[k][o] = bins.dw[(3 * k + o) * n + p];
    }
  }
  NUDGE_HD T weight(const int o[3]) const {
    T r = w[0][o[0]];
    for (int k = 1; k < D; ++k) r *= w[k][o[k]];
    return r;
  }
  NUDGE_HD T weight_slope(const int o[3], int j) const {
    T r = j == 0 ? dw[0][o[0]] : w[0][o[0]];
    for (int k = 1; k < D; ++k) r *= j == k ? dw[k][o[k]] : w[k][o[k]];
    return r;
  }
};

// Per point: v', C' from the grid, x' = x + dt v' (its place from the step's bins). In
// 2D the z parts stay 0: x's z does not move.
template <int D, class T>
struct MpmGatherKernel {
  MpmGrid<T> g;
  int n;
  MpmBins<T> bins;
  const T* velocity;  // 3 x nodes
  MpmPointState<T> s, next;
  NUDGE_HD void operator()(int p) const {
    const int nodes = g.node_count(), cell = bins.cell[p];
    const PointSplines<D, T> sp(bins, n, p);
    const T k = T(4) * g.inv_dx;
    T vn[D] = {}, cn[D][D] = {};
    for (int q = 0; q < (D == 2 ? 9 : 27); ++q) {
      int o[3];
      stencil_offset(g, q, o);
      const int id = stencil_node(g, cell, o);
      const T w = sp.weight(o), kw = k * w;
      for (int i = 0; i < D; ++i) {
        const T nv = velocity[i * nodes + id];
        vn[i] += w * nv;
        for (int j = 0; j < D; ++j) cn[i][j] += kw * nv * (T(o[j]) - sp.fx[j]);
      }
    }
    for (int i = 0; i < 3; ++i) {
      next.v[i * n + p] = i < D ? vn[i] : T(0);
      next.x[i * n + p] = s.x[i * n + p] + (i < D ? g.dt * vn[i] : T(0));
      for (int j = 0; j < 3; ++j) next.c[(3 * i + j) * n + p] = i < D && j < D ? cn[i][j] : T(0);
    }
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

template <int D, class T>
struct MpmTakeNextAdjointKernel {
  MpmGrid<T> g;
  int n;
  MpmBins<T> bins;
  MpmPointState<T> adj;
  MpmNextAdjoint<T> out;
  T* records;  // GatherAdjointRecord<D>::size x n, by slot
  NUDGE_HD void operator()(int p) const {
    using R = GatherAdjointRecord<D>;
    const Vec3<T> ax = load3(adj.x, p, n);
    const Vec3<T> avn = load3(adj.v, p, n) + g.dt * ax;
    store3(out.xn, p, n, ax);
    store3(out.vn, p, n, avn);
    for (int k = 0; k < 9; ++k) out.cn[k * n + p] = adj.c[k * n + p], out.fn[k * n + p] = adj.f[k * n + p];
    const T kc = T(4) * g.inv_dx;
    T* r = records + size_t(bins.slot[p]) * R::size;
    for (int k = 0; k < D; ++k) {
      T cfx = 0;
      for (int l = 0; l < D; ++l) cfx += adj.c[(3 * k + l) * n + p] * bins.fx[l * n + p];
      r[R::e + k] = (&avn.x)[k] - kc * cfx;
      for (int l = 0; l < D; ++l) r[R::c + D * k + l] = kc * adj.c[(3 * k + l) * n + p];
    }
    store_weights<D>(bins, n, p, r + R::w);
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
template <int D, class T>
struct MpmAdjGridKernel {
  MpmGrid<T> g;
  MpmBoundaries<T> bounds;
  MpmSolids<T> solids;  // with adj_wrench: each one's shares at the node
  MpmBins<T> bins;
  const T* records;   // GatherAdjointRecord<D>, by slot
  const T* momentum;  // 3 x nodes
  const T* mass;      // nodes
  T* adj_momentum;    // 3 x nodes
  T* adj_mass;        // nodes
  T* adj_gravity;     // 3 x nodes: each node's share
  MpmBoundaryShares<T> shares;
  NUDGE_HD void operator()(int i) const {
    using R = GatherAdjointRecord<D>;
    const int id = bins.active[i];
    int node[3];
    node_of(g, id, node);
    const int nodes = g.node_count();
    T av[3] = {0, 0, 0};
    for_records_at_node<D, R>(g, bins, records, node, [&](const int o[3], const T* r, T w) {
      for (int k = 0; k < D; ++k) {
        T share = r[R::e + k];
        for (int l = 0; l < D; ++l) share += r[R::c + D * k + l] * T(o[l]);
        av[k] += w * share;
      }
    });
    Vec3<T> adj_v{av[0], av[1], av[2]};
    const Vec3<T> mv = load3(momentum, id, nodes);
    const Vec3<T> x = node_position(g, node);
    T amass = 0;
    if ((solids.bodies.count > 0 || solids.links.count > 0) && mass[id] > T(0)) {
      // The solids the step's grid recorded at the node: the links' after the bodies'.
      const Vec3<T> bounded = boundary_velocity(bounds, x, grid_velocity(g, node, mv, mass[id]));
      if (solids.links.count > 0) {
        const Vec3<T> after_bodies = solids.bodies.count > 0 ? recorded_bodies_velocity(solids.bodies, g.dx, g.dt, id,
                                                                                        nodes, x, bounded, mass[id])
                                                             : bounded;
        adj_v = adj_bodies_velocity(solids.links, g.dx, g.dt, id, nodes, x, after_bodies, mass[id], adj_v, amass);
      }
      if (solids.bodies.count > 0)
        adj_v = adj_bodies_velocity(solids.bodies, g.dx, g.dt, id, nodes, x, bounded, mass[id], adj_v, amass);
    }
    Vec3<T> adj_walled{0, 0, 0};
    for (int k = 0; k < bounds.groups; ++k) shares.angle[k * nodes + id] = shares.rate[k * nodes + id] = T(0);
    if (mass[id] > T(0) && bounds.parts > 0)
      adj_boundary_velocity(bounds, x, grid_velocity(g, node, mv, mass[id]), adj_v, adj_walled, shares.angle + id,
                            shares.rate + id, nodes);
    else
      adj_walled = adj_v;
    Vec3<T> am{0, 0, 0}, ag{0, 0, 0};
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
  T* alpha = nullptr;      // n
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
  MpmBins<T> bins;        // the step's places
  const T* affine;        // 9 x n
  const T* velocity;      // 3 x nodes
  const T* adj_momentum;  // 3 x nodes
  const T* adj_mass;      // nodes
  MpmNextAdjoint<T> next;
  MpmPointState<T> adj;  // out: dL/dstate_t
  MpmPointGrad<T> grad;  // out: this step's shares, added
  // adj_node_gather and adj_node_share for each node around the point, on the D axes
  // only (in 2D nothing reaches z), then adj_point_prepare.
  NUDGE_HD void operator()(int p) const {
    const int n = m.n, nodes = g.node_count(), cell = bins.cell[p];
    const PointMaterial<T> pm = point_material(m, p);
    const PointSplines<D, T> sp(bins, n, p);
    const T k = T(4) * g.inv_dx, mass = pm.mass;
    T v[D], avn[D], acn[D][D], a[D][D];
    for (int i = 0; i < D; ++i) {
      v[i] = s.v[i * n + p];
      avn[i] = next.vn[i * n + p];
      for (int j = 0; j < D; ++j) acn[i][j] = next.cn[(3 * i + j) * n + p], a[i][j] = affine[(3 * i + j) * n + p];
    }
    T adj_fx[D] = {}, adj_v[D] = {}, adj_a[D][D] = {}, adj_point_mass = 0;
    for (int q = 0; q < (D == 2 ? 9 : 27); ++q) {
      int o[3];
      stencil_offset(g, q, o);
      const int id = stencil_node(g, cell, o);
      const T w = sp.weight(o);
      T rel[D], nv[D], am[D];
      for (int i = 0; i < D; ++i)
        rel[i] = T(o[i]) - sp.fx[i], nv[i] = velocity[i * nodes + id], am[i] = adj_momentum[i * nodes + id];
      const T amass = adj_mass[id];
      // d/dw of the gather (w nv, k w nv rel^T) and of the scatter (w (m v + A dx rel), w m)
      T adj_w = amass * mass, to_mass = amass;
      for (int i = 0; i < D; ++i) {
        T crel = 0, inside = mass * v[i];
        for (int j = 0; j < D; ++j) crel += acn[i][j] * rel[j], inside += a[i][j] * (g.dx * rel[j]);
        adj_w += avn[i] * nv[i] + k * nv[i] * crel + am[i] * inside;
        to_mass += am[i] * v[i];
        adj_v[i] += w * mass * am[i];
        for (int j = 0; j < D; ++j) adj_a[i][j] += w * am[i] * (g.dx * rel[j]);
      }
      adj_point_mass += w * to_mass;
      // and through rel = o - fx
      for (int j = 0; j < D; ++j) {
        T back = 0;
        for (int i = 0; i < D; ++i) back += k * acn[i][j] * nv[i] + g.dx * a[i][j] * am[i];
        adj_fx[j] += adj_w * sp.weight_slope(o, j) - w * back;
      }
    }
    Mat33<T> adj_a33 = zero33<T>();
    for (int i = 0; i < D; ++i)
      for (int j = 0; j < D; ++j) adj_a33(i, j) = adj_a[i][j];
    PointAdjoint<T> pa;
    adj_point_prepare<D>(g, pm, load_matrix(s.c, p, n), load_matrix(s.f, p, n), adj_a33, load_matrix(next.fn, p, n),
                         pa);
    for (int i = 0; i < 3; ++i) {
      adj.x[i * n + p] = next.xn[i * n + p] + (i < D ? g.inv_dx * adj_fx[i] : T(0));
      adj.v[i * n + p] = i < D ? adj_v[i] : T(0);
    }
    store_matrix(adj.c, p, n, pa.c);
    store_matrix(adj.f, p, n, pa.f);
    grad.mu[p] += pa.law.mu;
    grad.lambda[p] += pa.law.lambda;
    grad.bulk[p] += pa.law.bulk;
    grad.viscosity[p] += pa.law.viscosity;
    grad.alpha[p] += pa.law.alpha;
    grad.mass[p] += pa.mass + adj_point_mass;
    grad.volume[p] += pa.volume;
    grad.act[p] = pa.act;  // this step's: the caller takes it to the controls
  }
};

}  // namespace nudge
