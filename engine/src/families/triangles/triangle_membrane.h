// Triangle membrane (cloth) element: the forces on a triangle's three particles in NVIDIA
// Warp's cloth model (warp.sim, eval_triangles in warp/sim/integrator_euler.py), with
// their hand-derived adjoint, and the rest pose that ModelBuilder.add_triangle builds.
// The triangle family (families/triangles/triangle_family.h) calls these.
//
// Rest state: the inverse 2x2 rest pose D (pose[0..3] = D00, D01, D10, D11, row major, as
// Warp's mat22) and the rest area A. Warp's kernel derives A = 1 / (2 det D); here A is an
// input so that dL/dD and dL/dA are separate, and triangle_rest gives a consistent pair.
// With x10 = x1 - x0, x20 = x2 - x0, v10 = v1 - v0, v20 = v2 - v0:
//   F1 = x10 D00 + x20 D10,  F2 = x10 D01 + x20 D11     columns of F = [x10 x20] D
//   Fd1, Fd2: the same with v10, v20                     dF/dt
//   P_c = A (ke F_c + kd Fd_c)                           c = 1, 2
//   g1 = P1 D00 + P2 D01,  g2 = P1 D10 + P2 D11          P D^T
//   N = x10 x x20,  a = |N| / 2,  n = N / |N|            current area and unit normal
//   J = a / A                                            area ratio
//   q = (x20 x n) / (2A),  r = (n x x10) / (2A)          dJ/dx1, dJ/dx2
//   s = A (ka (J - 1 + act) - ke) + A kd (q . v10 + r . v20)
//   g1 += s q,  g2 += s r                                area term and area damping
//   u = 0.3333 ((v0 - w) + (v1 - w) + (v2 - w))          mean velocity relative to the wind
//   drag = k_drag a |n . u| u
//   lift = k_lift a theta |u|^2 n,  theta = pi/2 - acos(n . u / |u|) = atan2(n . u, |n x u|)
//   f0 = g1 + g2 - drag - lift,  f1 = -g1 - drag - lift,  f2 = -g2 - drag - lift
// ke, ka, kd are Warp's tri_ke (k_mu), tri_ka (k_lambda), tri_kd (k_damp); k_drag, k_lift
// its tri_drag, tri_lift; act its per-triangle activation (control.tri_activations, 0 for
// passive cloth). The ke term and the -A ke of s cancel at rest (Warp's "rest stability"),
// so a rest triangle, rotated and moved rigidly, feels no membrane force.
//
// Where this differs from Warp's text, it is the same function:
// - Warp writes s's first part as A ka (J - alpha + act), alpha = 1 + ke / ka; multiplied
//   out it needs no division, so ka = 0 gives -A ke instead of Warp's NaN.
// - Warp writes theta as pi/2 - acos(n . normalize(u)); atan2 is the same angle without
//   acos's infinite slope when u is along the normal.
// - Warp has no wind: w is ours, w = 0 is Warp's. It enters the aerodynamic terms only;
//   the membrane and its damping see velocity differences, which a wind does not change.
// - 0.3333, not 1/3, is Warp's constant; kept so that the forces are Warp's.
//
// Degenerate cases, as Warp guards them (its normalize returns 0 for a zero vector) and
// taken alike by the forward pass and the adjoint:
// - |N| = 0 (collinear current positions): n = 0, so q = r = 0 and drag = lift = 0; only
//   the ke and kd parts of P act. n is then a constant, so the adjoint passes nothing
//   through N (the forces jump as |N| leaves 0, so no derivative in x exists there).
// - u = 0: theta = atan2(0, 0) = 0 (Warp: pi/2 - acos(0) = 0); drag and lift are O(|u|^2),
//   so their derivatives are 0, which the adjoint gives.
// - u along the normal (|n x u| = 0): theta has a cone-shaped kink; the adjoint takes 0
//   for d|n x u|. Tangential flow (n . u = 0): |n . u| has a kink; sign(0) = 0 is taken.
// The forces are smooth elsewhere, and the test checks the adjoint against central
// differences there.
#pragma once

#include <cmath>

#include "nudge/config.h"
#include "nudge/vec3.h"
#include "nudge/kernel_atan2.h"

namespace nudge {

// The inverse rest pose, row major (D00, D01, D10, D11), and the rest area.
template <class T>
struct TriangleRest {
  T pose[4];
  T area;
};

// Warp's per-triangle material (tri_materials row): tri_ke, tri_ka, tri_kd, tri_drag,
// tri_lift. The first three are per unit rest area (the kernel multiplies them by A).
template <class T>
struct TriangleMaterial {
  T ke, ka, kd, drag, lift;
};

// The forces on the triangle's particles 0, 1, 2.
template <class T>
struct TriangleForces {
  Vec3<T> f[3];
};

// dL/d(every input of triangle_forces), given dL/df.
template <class T>
struct TriangleAdjoint {
  Vec3<T> x[3], v[3];
  TriangleRest<T> rest;
  TriangleMaterial<T> material;
  T activation;
  Vec3<T> wind;
};

// The forward quantities of the header's formulas; triangle_forces_adjoint recomputes them
// with the same code, so the two take the same branches.
template <class T>
struct TriangleTerms {
  Vec3<T> x10, x20, v10, v20;
  Vec3<T> F1, F2, Fd1, Fd2, P1, P2;
  Vec3<T> N, n;  // n = 0 when |N| = 0
  T len_N, a, J;
  Vec3<T> q, r;
  T dcdt, s;
  Vec3<T> u, nxu;
  T un, len_nxu, uu, theta;
  T drag_mag, lift_mag;  // drag = drag_mag u, lift = lift_mag n
  Vec3<T> g1, g2, aero;  // aero = drag + lift
};

template <class T>
NUDGE_HD TriangleTerms<T> triangle_terms(Vec3<T> x0, Vec3<T> x1, Vec3<T> x2, Vec3<T> v0, Vec3<T> v1, Vec3<T> v2,
                                         const TriangleRest<T>& rest, const TriangleMaterial<T>& mat, Vec3<T> wind,
                                         T activation) {
  const T* D = rest.pose;
  const T A = rest.area;
  TriangleTerms<T> t;
  t.x10 = x1 - x0, t.x20 = x2 - x0;
  t.v10 = v1 - v0, t.v20 = v2 - v0;
  t.F1 = t.x10 * D[0] + t.x20 * D[2];
  t.F2 = t.x10 * D[1] + t.x20 * D[3];
  t.Fd1 = t.v10 * D[0] + t.v20 * D[2];
  t.Fd2 = t.v10 * D[1] + t.v20 * D[3];
  t.P1 = A * (mat.ke * t.F1 + mat.kd * t.Fd1);
  t.P2 = A * (mat.ke * t.F2 + mat.kd * t.Fd2);

  t.N = cross(t.x10, t.x20);
  t.len_N = length(t.N);
  t.n = t.len_N > T(0) ? t.N * (T(1) / t.len_N) : Vec3<T>{0, 0, 0};
  t.a = T(0.5) * t.len_N;
  t.J = t.a / A;
  const T h = T(0.5) / A;
  t.q = cross(t.x20, t.n) * h;
  t.r = cross(t.n, t.x10) * h;
  t.dcdt = dot(t.q, t.v10) + dot(t.r, t.v20);
  t.s = A * (mat.ka * (t.J - T(1) + activation) - mat.ke) + A * mat.kd * t.dcdt;
  t.g1 = t.P1 * D[0] + t.P2 * D[1] + t.s * t.q;
  t.g2 = t.P1 * D[2] + t.P2 * D[3] + t.s * t.r;

  t.u = T(0.3333) * ((v0 - wind) + (v1 - wind) + (v2 - wind));
  t.un = dot(t.n, t.u);
  t.nxu = cross(t.n, t.u);
  t.len_nxu = length(t.nxu);
  t.uu = dot(t.u, t.u);
  t.theta = kernel_atan2(t.un, t.len_nxu);  // atan2(0, 0) = 0
  t.drag_mag = mat.drag * t.a * std::fabs(t.un);
  t.lift_mag = mat.lift * t.a * t.theta * t.uu;
  t.aero = t.drag_mag * t.u + t.lift_mag * t.n;
  return t;
}

// The forces on particles 0, 1, 2 (see the formulas above).
template <class T>
NUDGE_HD TriangleForces<T> triangle_forces(Vec3<T> x0, Vec3<T> x1, Vec3<T> x2, Vec3<T> v0, Vec3<T> v1, Vec3<T> v2,
                                           const TriangleRest<T>& rest, const TriangleMaterial<T>& mat, Vec3<T> wind,
                                           T activation = T(0)) {
  const TriangleTerms<T> t = triangle_terms(x0, x1, x2, v0, v1, v2, rest, mat, wind, activation);
  return {{t.g1 + t.g2 - t.aero, -t.g1 - t.aero, -t.g2 - t.aero}};
}

// Adjoint of triangle_forces: dL/d(each input) given dL/df0, dL/df1, dL/df2 (adj_f).
// Returns values only, nothing is accumulated, as spring_force_adjoint.
template <class T>
NUDGE_HD TriangleAdjoint<T> triangle_forces_adjoint(Vec3<T> x0, Vec3<T> x1, Vec3<T> x2, Vec3<T> v0, Vec3<T> v1,
                                                    Vec3<T> v2, const TriangleRest<T>& rest,
                                                    const TriangleMaterial<T>& mat, Vec3<T> wind, T activation,
                                                    const TriangleForces<T>& adj_f) {
  const TriangleTerms<T> t = triangle_terms(x0, x1, x2, v0, v1, v2, rest, mat, wind, activation);
  const T* D = rest.pose;
  const T A = rest.area;
  const Vec3<T> zero{0, 0, 0};
  TriangleAdjoint<T> g{};
  T* gD = g.rest.pose;
  T gA = 0;

  // f0 = g1 + g2 - aero, f1 = -g1 - aero, f2 = -g2 - aero
  const Vec3<T> G1 = adj_f.f[0] - adj_f.f[1];
  const Vec3<T> G2 = adj_f.f[0] - adj_f.f[2];
  const Vec3<T> Ga = -(adj_f.f[0] + adj_f.f[1] + adj_f.f[2]);

  // g1 = P1 D00 + P2 D01 + s q, g2 = P1 D10 + P2 D11 + s r
  const Vec3<T> adj_P1 = G1 * D[0] + G2 * D[2];
  const Vec3<T> adj_P2 = G1 * D[1] + G2 * D[3];
  gD[0] += dot(G1, t.P1), gD[1] += dot(G1, t.P2);
  gD[2] += dot(G2, t.P1), gD[3] += dot(G2, t.P2);
  Vec3<T> adj_q = t.s * G1, adj_r = t.s * G2;
  const T adj_s = dot(G1, t.q) + dot(G2, t.r);

  // P_c = A (ke F_c + kd Fd_c)
  const T e_ke = dot(adj_P1, t.F1) + dot(adj_P2, t.F2);
  const T e_kd = dot(adj_P1, t.Fd1) + dot(adj_P2, t.Fd2);
  g.material.ke += A * e_ke;
  g.material.kd += A * e_kd;
  gA += mat.ke * e_ke + mat.kd * e_kd;
  const Vec3<T> adj_F1 = (A * mat.ke) * adj_P1, adj_F2 = (A * mat.ke) * adj_P2;
  const Vec3<T> adj_Fd1 = (A * mat.kd) * adj_P1, adj_Fd2 = (A * mat.kd) * adj_P2;

  // F1 = x10 D00 + x20 D10, F2 = x10 D01 + x20 D11, and Fd likewise with v
  Vec3<T> adj_x10 = adj_F1 * D[0] + adj_F2 * D[1];
  Vec3<T> adj_x20 = adj_F1 * D[2] + adj_F2 * D[3];
  Vec3<T> adj_v10 = adj_Fd1 * D[0] + adj_Fd2 * D[1];
  Vec3<T> adj_v20 = adj_Fd1 * D[2] + adj_Fd2 * D[3];
  gD[0] += dot(adj_F1, t.x10) + dot(adj_Fd1, t.v10);
  gD[1] += dot(adj_F2, t.x10) + dot(adj_Fd2, t.v10);
  gD[2] += dot(adj_F1, t.x20) + dot(adj_Fd1, t.v20);
  gD[3] += dot(adj_F2, t.x20) + dot(adj_Fd2, t.v20);

  // s = A (ka (J - 1 + act) - ke) + A kd dcdt
  const T stretch = t.J - T(1) + activation;
  gA += adj_s * (mat.ka * stretch - mat.ke + mat.kd * t.dcdt);
  g.material.ka += adj_s * A * stretch;
  g.activation += adj_s * A * mat.ka;
  g.material.ke -= adj_s * A;
  g.material.kd += adj_s * A * t.dcdt;
  const T adj_J = adj_s * A * mat.ka;
  const T adj_dcdt = adj_s * A * mat.kd;

  // dcdt = q . v10 + r . v20
  adj_q += adj_dcdt * t.v10;
  adj_r += adj_dcdt * t.v20;
  adj_v10 += adj_dcdt * t.q;
  adj_v20 += adj_dcdt * t.r;

  // q = (x20 x n) h, r = (n x x10) h, h = 1 / (2A)
  const T h = T(0.5) / A;
  Vec3<T> adj_n = zero;
  const T adj_h = dot(adj_q, cross(t.x20, t.n)) + dot(adj_r, cross(t.n, t.x10));
  gA -= adj_h * h / A;
  adj_cross(t.x20, t.n, h * adj_q, adj_x20, adj_n);
  adj_cross(t.n, t.x10, h * adj_r, adj_n, adj_x10);

  // J = a / A
  T adj_a = adj_J / A;
  gA -= adj_J * t.J / A;

  // aero = drag_mag u + lift_mag n
  Vec3<T> adj_u = t.drag_mag * Ga;
  adj_n += t.lift_mag * Ga;
  const T adj_drag_mag = dot(Ga, t.u);
  const T adj_lift_mag = dot(Ga, t.n);
  // drag_mag = k_drag a |un|; sign(0) = 0 at the kink
  const T abs_un = std::fabs(t.un);
  const T sign_un = t.un > T(0) ? T(1) : (t.un < T(0) ? T(-1) : T(0));
  g.material.drag += adj_drag_mag * t.a * abs_un;
  adj_a += adj_drag_mag * mat.drag * abs_un;
  T adj_un = adj_drag_mag * mat.drag * t.a * sign_un;
  // lift_mag = k_lift a theta uu
  g.material.lift += adj_lift_mag * t.a * t.theta * t.uu;
  adj_a += adj_lift_mag * mat.lift * t.theta * t.uu;
  const T adj_theta = adj_lift_mag * mat.lift * t.a * t.uu;
  const T adj_uu = adj_lift_mag * mat.lift * t.a * t.theta;
  adj_u += (T(2) * adj_uu) * t.u;
  // theta = atan2(un, |n x u|): d theta = (|n x u| d un - un d|n x u|) / (un^2 + |n x u|^2)
  const T den = t.un * t.un + t.len_nxu * t.len_nxu;
  if (den > T(0)) {
    adj_un += adj_theta * t.len_nxu / den;
    const T adj_len_nxu = -adj_theta * t.un / den;
    if (t.len_nxu > T(0)) adj_cross(t.n, t.u, (adj_len_nxu / t.len_nxu) * t.nxu, adj_n, adj_u);
  }
  // un = n . u
  adj_n += adj_un * t.u;
  adj_u += adj_un * t.n;
  // u = 0.3333 (v0 + v1 + v2 - 3 w)
  const Vec3<T> adj_v_mean = T(0.3333) * adj_u;
  g.wind = T(-3) * adj_v_mean;

  // a = |N| / 2, n = N / |N|; with |N| = 0, n is the constant 0 and a's uses all carry a
  // factor n, so nothing flows back (the forward pass's branch).
  if (t.len_N > T(0)) {
    Vec3<T> adj_N = (T(0.5) * adj_a) * t.n;
    adj_normalize(t.N, adj_n, adj_N);
    adj_cross(t.x10, t.x20, adj_N, adj_x10, adj_x20);
  }

  // x10 = x1 - x0, x20 = x2 - x0, and v likewise
  g.x[0] = -(adj_x10 + adj_x20);
  g.x[1] = adj_x10;
  g.x[2] = adj_x20;
  g.v[0] = adj_v_mean - (adj_v10 + adj_v20);
  g.v[1] = adj_v_mean + adj_v10;
  g.v[2] = adj_v_mean + adj_v20;
  g.rest.area = gA;
  return g;
}

// The rest state of a triangle with rest positions p, q, r, as Warp's
// ModelBuilder.add_triangle builds it: in the basis e1 = (q - p) / |q - p|, e2 in the
// triangle's plane, the rest edges are the columns of Ds = [[l, d / l], [0, m / l]] with
// l = |q - p|, d = (q - p) . (r - p), m = |(q - p) x (r - p)|, so
//   pose = Ds^-1 = [[1 / l, -d / (l m)], [0, l / m]],  area = det(Ds) / 2 = m / 2.
// A degenerate triangle (l = 0 or m = 0), which Warp's builder rejects, gives zeros:
// callers must reject area <= 0.
template <class T>
NUDGE_HD TriangleRest<T> triangle_rest(Vec3<T> p, Vec3<T> q, Vec3<T> r) {
  const Vec3<T> qp = q - p, rp = r - p;
  const T l = length(qp);
  const T m = length(cross(qp, rp));
  if (!(l > T(0) && m > T(0))) return TriangleRest<T>{{0, 0, 0, 0}, 0};
  return TriangleRest<T>{{T(1) / l, -dot(qp, rp) / (l * m), T(0), l / m}, T(0.5) * m};
}

// dL/dp, dL/dq, dL/dr of a triangle's rest positions.
template <class T>
struct TriangleRestAdjoint {
  Vec3<T> x[3];
};

// Adjoint of triangle_rest: dL/dp, dL/dq, dL/dr given dL/d(pose, area) (zero where
// triangle_rest gave zeros). The pose's D10 is the constant 0: its adjoint is ignored.
template <class T>
NUDGE_HD TriangleRestAdjoint<T> triangle_rest_adjoint(Vec3<T> p, Vec3<T> q, Vec3<T> r, const TriangleRest<T>& adj) {
  const Vec3<T> qp = q - p, rp = r - p;
  const Vec3<T> N = cross(qp, rp);
  const T l = length(qp);
  const T m = length(N);
  TriangleRestAdjoint<T> g{};
  if (!(l > T(0) && m > T(0))) return g;
  const T d = dot(qp, rp);
  // pose00 = 1 / l, pose01 = -d / (l m), pose11 = l / m, area = m / 2
  const T adj_l = -adj.pose[0] / (l * l) + adj.pose[1] * d / (l * l * m) + adj.pose[3] / m;
  const T adj_m = adj.pose[1] * d / (l * m * m) - adj.pose[3] * l / (m * m) + T(0.5) * adj.area;
  const T adj_d = -adj.pose[1] / (l * m);
  Vec3<T> adj_qp = (adj_l / l) * qp + adj_d * rp;
  Vec3<T> adj_rp = adj_d * qp;
  adj_cross(qp, rp, (adj_m / m) * N, adj_qp, adj_rp);
  g.x[0] = -(adj_qp + adj_rp);
  g.x[1] = adj_qp;
  g.x[2] = adj_rp;
  return g;
}

}  // namespace nudge
