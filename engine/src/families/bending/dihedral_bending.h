// Dihedral bending between two triangles that share an edge: NVIDIA Warp's cloth bending
// (warp.sim, integrator_euler.py eval_bending, after Bridson et al. 2003), with its
// hand-derived adjoint. Not yet used by the rollout: a later family module calls it.
//
// Warp's vertex order: x2-x3 is the shared edge, x0 and x1 the opposite vertices; the
// triangles are (x0, x2, x3) and (x1, x3, x2), both counter-clockwise.
//   n1 = (x2 - x0) x (x3 - x0),  n2 = (x3 - x1) x (x2 - x1)
//   m1 = n1 / |n1|^2,  m2 = n2 / |n2|^2
//   e = x3 - x2,  l = |e|,  ê = e / l
//   theta = sign((n2 x n1) . ê) acos(n̂1 . n̂2)                 (sign(0) = +1, as Warp's)
//   d0 = l m1,  d1 = l m2                                      (d_i = dtheta/dx_i)
//   d2 = ((x0 - x3) . ê) m1 + ((x1 - x3) . ê) m2
//   d3 = ((x2 - x0) . ê) m1 + ((x2 - x1) . ê) m2
//   f_i = -l (ke (theta - theta0) + kd sum_j d_j . v_j) d_i
// The d_i sum to zero, so the forces do, and so do their moments (theta is unchanged by
// rotations); sum_j d_j . v_j is the angle's rate. The elastic force is minus the gradient
// of (ke / 2) l (theta - theta0)^2 with l held fixed, as Warp has it: not quite conservative.
// theta lies in (-pi, pi]: an element folded through pi flips its force, in Warp too.
//
// Degenerate elements: where |n1| or |n2| is below 1e-6 (a sliver triangle, or a
// zero-length edge, which makes both normals zero) Warp returns no force, and so do the
// forward and the adjoint here (every adjoint entry 0).
//
// The angle is evaluated as atan2((n̂2 x n̂1) . ê, n̂1 . n̂2), which is the same function
// as Warp's signed acos (n1 x n2 is parallel to e, so the atan2's first argument is
// ±sin theta with Warp's sign; where it is exactly 0 the angle is 0 or +pi, as Warp's
// sign(0) = +1 makes it), but well conditioned everywhere: acos loses half the digits
// near a flat element (theta ~ 0), where cloth spends its time, and that noise would
// swamp a finite-difference check. The forces agree with Warp's to float32 rounding
// (tests/engine/dihedral_bending_test.cpp).
#pragma once

#include <cmath>

#include "nudge/vec3.h"
#include "nudge/kernel_atan2.h"

namespace nudge {

// Warp's threshold on |n1| and |n2| below which an element exerts no force.
inline constexpr double kBendingMinNormal = 1.0e-6;

template <class T>
struct BendingForces {
  Vec3<T> f[4];  // on x0..x3
};

// What the adjoint hands back for one element, as values (nothing is accumulated), so a
// SIMD loop or a GPU thread can recompute an element without adding it twice.
template <class T>
struct BendingAdjoint {
  Vec3<T> x[4], v[4];  // dL/dx_i, dL/dv_i
  T rest_angle, ke, kd;
};

// The geometry of an element that the forward and the adjoint share.
template <class T>
struct BendingGeometry {
  bool valid;        // false for a degenerate element (no force)
  Vec3<T> n1, n2;    // the triangles' unnormalised normals
  T len1, len2;      // |n1|, |n2|
  Vec3<T> m1, m2;    // n1 / |n1|^2, n2 / |n2|^2
  Vec3<T> e_hat;     // the unit edge x3 - x2
  T e_len;           // |x3 - x2|
  T a2, b2, a3, b3;  // (x0 - x3).ê, (x1 - x3).ê, (x2 - x0).ê, (x2 - x1).ê
  T angle;           // theta
  Vec3<T> d[4];      // dtheta/dx_i
};

template <class T>
NUDGE_HD BendingGeometry<T> bending_geometry(const Vec3<T> x[4]) {
  BendingGeometry<T> g;
  g.n1 = cross(x[2] - x[0], x[3] - x[0]);
  g.n2 = cross(x[3] - x[1], x[2] - x[1]);
  g.len1 = length(g.n1);
  g.len2 = length(g.n2);
  g.valid = !(g.len1 < T(kBendingMinNormal) || g.len2 < T(kBendingMinNormal));
  if (!g.valid) return g;
  g.m1 = g.n1 * (T(1) / (g.len1 * g.len1));
  g.m2 = g.n2 * (T(1) / (g.len2 * g.len2));
  // Nonzero: a zero edge would have made both normals zero.
  const Vec3<T> e = x[3] - x[2];
  g.e_len = length(e);
  g.e_hat = e * (T(1) / g.e_len);
  const Vec3<T> u1 = g.n1 * (T(1) / g.len1), u2 = g.n2 * (T(1) / g.len2);
  const T sin_angle = dot(cross(u2, u1), g.e_hat);
  const T cos_angle = dot(u1, u2);
  // atan2(-0, c < 0) would be -pi where Warp's sign(0) = +1 gives +pi.
  const T pi = T(3.14159265358979323846);
  g.angle = sin_angle == T(0) ? (cos_angle < T(0) ? pi : T(0)) : kernel_atan2(sin_angle, cos_angle);
  g.a2 = dot(x[0] - x[3], g.e_hat);
  g.b2 = dot(x[1] - x[3], g.e_hat);
  g.a3 = dot(x[2] - x[0], g.e_hat);
  g.b3 = dot(x[2] - x[1], g.e_hat);
  g.d[0] = g.e_len * g.m1;
  g.d[1] = g.e_len * g.m2;
  g.d[2] = g.a2 * g.m1 + g.b2 * g.m2;
  g.d[3] = g.a3 * g.m1 + g.b3 * g.m2;
  return g;
}

// Forces on x0..x3 of one edge element: positions x, velocities v, rest angle, bending
// stiffness ke and damping kd (Warp's edge_ke, edge_kd).
template <class T>
NUDGE_HD BendingForces<T> dihedral_bending_force(const Vec3<T> x[4], const Vec3<T> v[4], T rest_angle, T ke, T kd) {
  BendingForces<T> r;
  const BendingGeometry<T> g = bending_geometry(x);
  if (!g.valid) {
    for (int i = 0; i < 4; ++i) r.f[i] = Vec3<T>{0, 0, 0};
    return r;
  }
  T rate = 0;
  for (int i = 0; i < 4; ++i) rate += dot(g.d[i], v[i]);
  // Proportional to the edge's length, as Warp's.
  const T f_total = -g.e_len * (ke * (g.angle - rest_angle) + kd * rate);
  for (int i = 0; i < 4; ++i) r.f[i] = f_total * g.d[i];
  return r;
}

// Adjoint of dihedral_bending_force: adj_f[i] = dL/df_i in, every input's dL/d out.
template <class T>
NUDGE_HD BendingAdjoint<T> dihedral_bending_force_adjoint(const Vec3<T> x[4], const Vec3<T> v[4], T rest_angle, T ke,
                                                          T kd, const Vec3<T> adj_f[4]) {
  BendingAdjoint<T> r;
  const Vec3<T> zero{0, 0, 0};
  for (int i = 0; i < 4; ++i) r.x[i] = zero, r.v[i] = zero;
  r.rest_angle = 0, r.ke = 0, r.kd = 0;
  const BendingGeometry<T> g = bending_geometry(x);
  if (!g.valid) return r;
  T rate = 0;
  for (int i = 0; i < 4; ++i) rate += dot(g.d[i], v[i]);
  const T bend = ke * (g.angle - rest_angle) + kd * rate;
  const T f_total = -g.e_len * bend;

  // f_i = f_total d_i
  T adj_total = 0;
  for (int i = 0; i < 4; ++i) adj_total += dot(adj_f[i], g.d[i]);
  // f_total = -l (ke (theta - theta0) + kd sum_j d_j . v_j)
  r.ke = -g.e_len * (g.angle - rest_angle) * adj_total;
  r.kd = -g.e_len * rate * adj_total;
  r.rest_angle = g.e_len * ke * adj_total;
  const T adj_angle = -g.e_len * ke * adj_total;
  const T adj_rate = -g.e_len * kd * adj_total;
  T adj_len = -bend * adj_total;
  Vec3<T> adj_d[4];
  for (int i = 0; i < 4; ++i) {
    adj_d[i] = f_total * adj_f[i] + adj_rate * v[i];
    r.v[i] = adj_rate * g.d[i];
    // d_i is dtheta/dx_i: the angle's adjoint needs no derivative of acos or atan2.
    r.x[i] = adj_angle * g.d[i];
  }

  // d0 = l m1, d1 = l m2
  Vec3<T> adj_m1 = g.e_len * adj_d[0], adj_m2 = g.e_len * adj_d[1];
  adj_len += dot(adj_d[0], g.m1) + dot(adj_d[1], g.m2);
  // d2 = a2 m1 + b2 m2, d3 = a3 m1 + b3 m2
  adj_m1 += g.a2 * adj_d[2] + g.a3 * adj_d[3];
  adj_m2 += g.b2 * adj_d[2] + g.b3 * adj_d[3];
  const T adj_a2 = dot(adj_d[2], g.m1), adj_b2 = dot(adj_d[2], g.m2);
  const T adj_a3 = dot(adj_d[3], g.m1), adj_b3 = dot(adj_d[3], g.m2);
  // a2 = (x0 - x3).ê, b2 = (x1 - x3).ê, a3 = (x2 - x0).ê, b3 = (x2 - x1).ê
  const Vec3<T> adj_e_hat =
      adj_a2 * (x[0] - x[3]) + adj_b2 * (x[1] - x[3]) + adj_a3 * (x[2] - x[0]) + adj_b3 * (x[2] - x[1]);
  r.x[0] += (adj_a2 - adj_a3) * g.e_hat;
  r.x[1] += (adj_b2 - adj_b3) * g.e_hat;
  r.x[2] += (adj_a3 + adj_b3) * g.e_hat;
  r.x[3] -= (adj_a2 + adj_b2) * g.e_hat;
  // ê = e / l, l = |e|, e = x3 - x2
  const Vec3<T> adj_e = (adj_e_hat - g.e_hat * dot(g.e_hat, adj_e_hat)) * (T(1) / g.e_len) + adj_len * g.e_hat;
  r.x[3] += adj_e;
  r.x[2] -= adj_e;
  // m = n / |n|^2: dm = (I - 2 n̂ n̂^T) dn / |n|^2, a symmetric map
  const Vec3<T> u1 = g.n1 * (T(1) / g.len1), u2 = g.n2 * (T(1) / g.len2);
  const Vec3<T> adj_n1 = (adj_m1 - (T(2) * dot(u1, adj_m1)) * u1) * (T(1) / (g.len1 * g.len1));
  const Vec3<T> adj_n2 = (adj_m2 - (T(2) * dot(u2, adj_m2)) * u2) * (T(1) / (g.len2 * g.len2));
  // n1 = (x2 - x0) x (x3 - x0)
  Vec3<T> adj_p = zero, adj_q = zero;
  adj_cross(x[2] - x[0], x[3] - x[0], adj_n1, adj_p, adj_q);
  r.x[2] += adj_p;
  r.x[3] += adj_q;
  r.x[0] -= adj_p + adj_q;
  // n2 = (x3 - x1) x (x2 - x1)
  adj_p = zero, adj_q = zero;
  adj_cross(x[3] - x[1], x[2] - x[1], adj_n2, adj_p, adj_q);
  r.x[3] += adj_p;
  r.x[2] += adj_q;
  r.x[1] -= adj_p + adj_q;
  return r;
}

// The rest angle of an element from rest positions, as Warp's ModelBuilder.add_edge
// computes it: sign((n̂2 x n̂1) . ê) acos(clamp(n̂1 . n̂2)) with NumPy's sign (0 at 0), so a
// degenerate element (a zero normal or edge) gets 0; evaluated with atan2 as the kernel's
// angle is. Host code, double.
double dihedral_rest_angle(const Vec3<double> x[4]);

// One bending element of a mesh: the shared edge (v0, v1) and the vertices opposite it,
// o0 in the triangle that first lists the edge and o1 in the other; the element's x0..x3
// are (o0, o1, v0, v1).
struct BendingEdge {
  int o0, o1, v0, v1;
};

// The bending elements of a triangle mesh, as Warp's add_cloth_mesh finds them
// (warp.utils.MeshAdjacency): the triangles' edges (0,1), (1,2), (2,0) in order, each
// interior edge once in the order of its first appearance, (v0, v1) as its first
// triangle lists it. Boundary edges are left out (Warp adds them with o1 = -1 and its
// kernel skips them); a third triangle on an edge is ignored, as Warp does.
// triangles: 3 x triangle_count vertex indices, triangle by triangle; out: room for
// 3 * triangle_count / 2 elements (the most a mesh can have). Returns the number written. Host code.
int find_bending_edges(const int* triangles, int triangle_count, BendingEdge* out);

}  // namespace nudge
