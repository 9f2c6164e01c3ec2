// MLS-MPM's transfers between the points and the background grid (Hu et al. 2018, as
// DiffTaichi's diffmpm writes them), each with its adjoint, on values: the family's
// kernels run them per point or per grid node, and tests check each against central
// differences.
//
// One step from the points' (x, v, C, F):
//   F' = (I + dt C) F                      (a liquid keeps only J = det F': F' = J^(1/d) I)
//   A  = -(dt V 4 / dx^2) tau(F', C) + m C  (the affine momentum: stress and APIC)
//   grid node i: mv_i = sum_p w_ip (m v + A (x_i - x_p)),  m_i = sum_p w_ip m
//   v_i = mv_i / (m_i + eps) + dt g, then the walls
//   v' = sum_i w_ip v_i,  C' = sum_i w_ip (4 / dx^2) v_i (x_i - x_p)^T,  x' = x + dt v'
// with quadratic B-spline weights w_ip over the 3^d nodes around the point. In 2D every
// z component is 0 and the z axis has one node, of weight 1.
#pragma once

#include <cmath>

#include "families/material_points/mpm_material.h"
#include "nudge/mat33.h"
#include "nudge/vec3.h"

namespace nudge {

// The background grid: cells^d nodes dx apart from `origin`, with walls `bound` nodes
// deep on each side. friction[2k] is the wall at the low end of axis k, friction[2k+1]
// at the high end: >= 0 a Coulomb slip with that coefficient, < 0 sticky (a point moving
// into it stops).
template <class T>
struct MpmGrid {
  int dims = 3;
  int cells = 64;
  T dx = 0, inv_dx = 0;
  T origin[3] = {0, 0, 0};
  int bound = 3;
  T friction[6] = {-1, -1, -1, -1, -1, -1};
  T gravity[3] = {0, 0, 0};
  T dt = 0;

  NUDGE_HD int node_count() const { return dims == 2 ? cells * cells : cells * cells * cells; }
  NUDGE_HD int node_index(int i, int j, int k) const { return dims == 2 ? i * cells + j : (i * cells + j) * cells + k; }
};

// Where a point sits on the grid: the first of the 3 nodes along each axis and its
// offset fx from it in cells, in [0.5, 1.5) inside the domain. Points are kept off the
// domain's edge by the walls; the base is clamped so that memory stays in bounds.
template <class T>
struct GridPlace {
  int base[3] = {0, 0, 0};
  T fx[3] = {1, 1, 1};
};

template <class T>
NUDGE_HD GridPlace<T> grid_place(const MpmGrid<T>& g, Vec3<T> x) {
  GridPlace<T> p;
  const T xs[3] = {x.x, x.y, x.z};
  for (int k = 0; k < g.dims; ++k) {
    const T s = (xs[k] - g.origin[k]) * g.inv_dx;
    int b = static_cast<int>(std::floor(s - T(0.5)));
    b = b < 0 ? 0 : (b > g.cells - 3 ? g.cells - 3 : b);
    p.base[k] = b;
    p.fx[k] = s - T(b);
  }
  return p;
}

// Quadratic B-spline weight of node offset o (0, 1, 2) at fx, and its derivative.
template <class T>
NUDGE_HD T bspline(T fx, int o) {
  const T a = o == 0 ? T(1.5) - fx : (o == 1 ? fx - T(1) : fx - T(0.5));
  return o == 1 ? T(0.75) - a * a : T(0.5) * a * a;
}
template <class T>
NUDGE_HD T bspline_derivative(T fx, int o) {
  return o == 0 ? fx - T(1.5) : (o == 1 ? T(-2) * (fx - T(1)) : fx - T(0.5));
}

// The weight of node offset (o0, o1, o2) and its gradient with respect to fx; and the
// node's offset from the point in cells, o - fx (0 along an unused axis).
template <class T>
struct NodeWeight {
  T w;
  Vec3<T> dw;   // dw/dfx
  Vec3<T> rel;  // (o - fx), in cells
};

template <class T>
NUDGE_HD NodeWeight<T> node_weight(const MpmGrid<T>& g, const GridPlace<T>& p, const int o[3]) {
  T n[3], dn[3];
  T rel[3] = {0, 0, 0};
  for (int k = 0; k < 3; ++k) {
    if (k < g.dims) {
      n[k] = bspline(p.fx[k], o[k]);
      dn[k] = bspline_derivative(p.fx[k], o[k]);
      rel[k] = T(o[k]) - p.fx[k];
    } else {
      n[k] = T(1);
      dn[k] = T(0);
    }
  }
  return {
      n[0] * n[1] * n[2], {dn[0] * n[1] * n[2], n[0] * dn[1] * n[2], n[0] * n[1] * dn[2]}, {rel[0], rel[1], rel[2]}};
}

// The number of nodes around a point (3^d) and the offsets of the q-th.
template <class T>
NUDGE_HD int stencil_size(const MpmGrid<T>& g) {
  return g.dims == 2 ? 9 : 27;
}
template <class T>
NUDGE_HD void stencil_offset(const MpmGrid<T>& g, int q, int o[3]) {
  if (g.dims == 2) {
    o[0] = q / 3, o[1] = q % 3, o[2] = 0;
  } else {
    o[0] = q / 9, o[1] = (q / 3) % 3, o[2] = q % 3;
  }
}

// --- a point before the scatter: F' and the affine momentum A -----------------------

template <class T>
struct PointMaterial {
  MpmMaterialLaw<T> law;
  T mass = 0, volume = 0;  // kg, m^d (its share of the body)
  T act = 0;               // the muscle's pull this step, Pa (0: none)
};

template <int D, class T>
NUDGE_HD Mat33<T> advanced_gradient(const MpmGrid<T>& g, const PointMaterial<T>& pm, const Mat33<T>& c,
                                    const Mat33<T>& f) {
  const Mat33<T> fn = (identity33<T>() + g.dt * c) * f;
  if (pm.law.kind == MpmModelKind::Liquid) return liquid_gradient<D>(determinant(fn));
  if (pm.law.kind == MpmModelKind::Sand) return sand_gradient<D>(fn, pm.law.mu, pm.law.lambda, pm.law.alpha);
  return fn;
}

// A = -(dt V 4 / dx^2) tau(F', C) + m C, given F' (advanced_gradient's).
template <int D, class T>
NUDGE_HD Mat33<T> affine_momentum(const MpmGrid<T>& g, const PointMaterial<T>& pm, const Mat33<T>& c,
                                  const Mat33<T>& f_new) {
  const T k = g.dt * pm.volume * T(4) * g.inv_dx * g.inv_dx;
  return (-k) * kirchhoff_stress<D>(pm.law, f_new, c, pm.act) + pm.mass * c;
}

// What the point's step owes: adjoints of F, C, its material and mass, volume and pull,
// given dL/dA and dL/dF' (from the next state's F).
template <class T>
struct PointAdjoint {
  Mat33<T> f = zero33<T>(), c = zero33<T>();
  MpmMaterialAdjoint<T> law;
  T mass = 0, volume = 0, act = 0;
};

template <int D, class T>
NUDGE_HD void adj_point_prepare(const MpmGrid<T>& g, const PointMaterial<T>& pm, const Mat33<T>& c, const Mat33<T>& f,
                                const Mat33<T>& adj_a, Mat33<T> adj_f_new, PointAdjoint<T>& out) {
  const Mat33<T> step = identity33<T>() + g.dt * c;
  const Mat33<T> fn = step * f;
  const bool liquid = pm.law.kind == MpmModelKind::Liquid, sand = pm.law.kind == MpmModelKind::Sand;
  const Mat33<T> f_new = advanced_gradient<D>(g, pm, c, f);
  const T k = g.dt * pm.volume * T(4) * g.inv_dx * g.inv_dx;
  // A = -k tau + m C
  out.c += pm.mass * adj_a;
  out.mass += inner(adj_a, c);
  const Mat33<T> tau = kirchhoff_stress<D>(pm.law, f_new, c, pm.act);
  out.volume += -(g.dt * T(4) * g.inv_dx * g.inv_dx) * inner(adj_a, tau);
  adj_kirchhoff_stress<D>(pm.law, f_new, c, pm.act, (-k) * adj_a, adj_f_new, out.c, out.law, out.act);
  // F' from F (a liquid through J only, sand through its return mapping)
  Mat33<T> adj_fn = adj_f_new;
  if (liquid) {
    adj_fn = zero33<T>();
    adj_determinant(fn, adj_liquid_gradient<D>(determinant(fn), adj_f_new), adj_fn);
  } else if (sand) {
    adj_fn = zero33<T>();
    adj_sand_gradient<D>(fn, pm.law.mu, pm.law.lambda, pm.law.alpha, adj_f_new, adj_fn, out.law.mu, out.law.lambda,
                         out.law.alpha);
  }
  // Fn = (I + dt C) F
  out.c += g.dt * (adj_fn * transpose(f));
  out.f += transpose(step) * adj_fn;
}

// --- the scatter: one point's share of one node ------------------------------------

template <class T>
struct NodeShare {
  Vec3<T> momentum;
  T mass;
};

template <class T>
NUDGE_HD NodeShare<T> node_share(const MpmGrid<T>& g, const NodeWeight<T>& nw, T mass, Vec3<T> v, const Mat33<T>& a) {
  return {nw.w * (mass * v + a * (g.dx * nw.rel)), nw.w * mass};
}

// Adds the adjoints of node_share's point inputs given dL/d(momentum), dL/d(mass) at the
// node; adj_fx receives dL/dfx (the point's x owes inv_dx of it).
template <class T>
NUDGE_HD void adj_node_share(const MpmGrid<T>& g, const NodeWeight<T>& nw, T mass, Vec3<T> v, const Mat33<T>& a,
                             Vec3<T> adj_momentum, T adj_mass, Vec3<T>& adj_v, Mat33<T>& adj_a, T& adj_point_mass,
                             Vec3<T>& adj_fx) {
  const Vec3<T> dpos = g.dx * nw.rel;
  const Vec3<T> inside = mass * v + a * dpos;
  adj_v += (nw.w * mass) * adj_momentum;
  adj_a += nw.w * outer(adj_momentum, dpos);
  adj_point_mass += nw.w * (dot(adj_momentum, v) + adj_mass);
  const T adj_w = dot(adj_momentum, inside) + adj_mass * mass;
  adj_fx += adj_w * nw.dw;
  // dpos = dx (o - fx): d/dfx = -dx
  adj_fx += (-nw.w * g.dx) * mul_transpose(a, adj_momentum);
}

// --- the grid: momentum to velocity, gravity, walls --------------------------------

// A wall's effect on a node's velocity moving into it (normal n into the domain,
// v . n < 0): stop (sticky), or slide with Coulomb friction mu.
template <class T>
NUDGE_HD Vec3<T> wall_velocity(Vec3<T> v, Vec3<T> n, T mu) {
  if (mu < T(0)) return {0, 0, 0};
  const T vn = dot(v, n);
  const Vec3<T> vt = v - vn * n;
  const T lt = length(vt) + T(1e-10);
  if (lt + mu * vn <= T(0)) return {0, 0, 0};
  return (T(1) + mu * vn / lt) * vt;
}

// Adds dL/dv (and dL/dn where asked) given dL/d(wall_velocity's result).
template <class T>
NUDGE_HD void adj_wall_velocity(Vec3<T> v, Vec3<T> n, T mu, Vec3<T> adj_ret, Vec3<T>& adj_v, Vec3<T>* adj_n = nullptr) {
  if (mu < T(0)) return;
  const T vn = dot(v, n);
  const Vec3<T> vt = v - vn * n;
  const T lt = length(vt) + T(1e-10);
  if (lt + mu * vn <= T(0)) return;
  // r = s vt, s = 1 + mu vn / lt
  const T s = T(1) + mu * vn / lt;
  const T adj_s = dot(adj_ret, vt);
  Vec3<T> adj_vt = s * adj_ret;
  const T adj_vn = adj_s * mu / lt;
  const T adj_lt = -adj_s * mu * vn / (lt * lt);
  const T len = lt - T(1e-10);
  if (len > T(0)) adj_vt += (adj_lt / len) * vt;
  // vt = v - vn n, vn = v . n
  adj_v += adj_vt + (adj_vn - dot(adj_vt, n)) * n;
  if (adj_n) *adj_n += (adj_vn - dot(adj_vt, n)) * v - vn * adj_vt;
}

// The velocity of node (i, j, k) from its momentum and mass.
template <class T>
NUDGE_HD Vec3<T> grid_velocity(const MpmGrid<T>& g, const int node[3], Vec3<T> momentum, T mass) {
  Vec3<T> v = (T(1) / (mass + T(1e-10))) * momentum;
  v += g.dt * Vec3<T>{g.gravity[0], g.gravity[1], g.gravity[2]};
  for (int k = 0; k < g.dims; ++k) {
    Vec3<T> n{0, 0, 0};
    (&n.x)[k] = T(1);
    const T vk = (&v.x)[k];
    if (node[k] < g.bound && vk < T(0)) v = wall_velocity(v, n, g.friction[2 * k]);
    if (node[k] > g.cells - g.bound && (&v.x)[k] > T(0)) v = wall_velocity(v, -n, g.friction[2 * k + 1]);
  }
  return v;
}

// Adds dL/d(momentum), dL/d(mass) and dL/d(gravity) given dL/dv of grid_velocity.
template <class T>
NUDGE_HD void adj_grid_velocity(const MpmGrid<T>& g, const int node[3], Vec3<T> momentum, T mass, Vec3<T> adj_v,
                                Vec3<T>& adj_momentum, T& adj_mass, Vec3<T>& adj_gravity) {
  // Forward again, keeping each wall's input.
  Vec3<T> stages[7];
  int walls = 0;
  Vec3<T> normals[6];
  T frictions[6];
  Vec3<T> v = (T(1) / (mass + T(1e-10))) * momentum;
  v += g.dt * Vec3<T>{g.gravity[0], g.gravity[1], g.gravity[2]};
  for (int k = 0; k < g.dims; ++k) {
    Vec3<T> n{0, 0, 0};
    (&n.x)[k] = T(1);
    if (node[k] < g.bound && (&v.x)[k] < T(0)) {
      stages[walls] = v, normals[walls] = n, frictions[walls] = g.friction[2 * k];
      v = wall_velocity(v, n, g.friction[2 * k]);
      ++walls;
    }
    if (node[k] > g.cells - g.bound && (&v.x)[k] > T(0)) {
      stages[walls] = v, normals[walls] = -n, frictions[walls] = g.friction[2 * k + 1];
      v = wall_velocity(v, -n, g.friction[2 * k + 1]);
      ++walls;
    }
  }
  for (int w = walls - 1; w >= 0; --w) {
    Vec3<T> adj_in{0, 0, 0};
    adj_wall_velocity(stages[w], normals[w], frictions[w], adj_v, adj_in);
    adj_v = adj_in;
  }
  adj_gravity += g.dt * adj_v;
  const T inv = T(1) / (mass + T(1e-10));
  adj_momentum += inv * adj_v;
  adj_mass += -inv * inv * dot(adj_v, momentum);
}

// --- the gather: the grid's velocities back to the point ----------------------------

template <class T>
struct PointUpdate {
  Vec3<T> v;
  Mat33<T> c;
};

// One node's share of the point's new velocity and affine velocity.
template <class T>
NUDGE_HD PointUpdate<T> node_gather(const MpmGrid<T>& g, const NodeWeight<T>& nw, Vec3<T> node_v) {
  return {nw.w * node_v, (T(4) * g.inv_dx * nw.w) * outer(node_v, nw.rel)};
}

// Given dL/dv', dL/dC' of the point: adds dL/d(node velocity) and dL/dfx.
template <class T>
NUDGE_HD void adj_node_gather(const MpmGrid<T>& g, const NodeWeight<T>& nw, Vec3<T> node_v, Vec3<T> adj_v,
                              const Mat33<T>& adj_c, Vec3<T>& adj_node_v, Vec3<T>& adj_fx) {
  const T k = T(4) * g.inv_dx;
  adj_node_v += nw.w * adj_v + (k * nw.w) * (adj_c * nw.rel);
  const T adj_w = dot(adj_v, node_v) + k * dot(node_v, adj_c * nw.rel);
  adj_fx += adj_w * nw.dw;
  // rel = o - fx
  adj_fx += (-k * nw.w) * mul_transpose(adj_c, node_v);
}

}  // namespace nudge
