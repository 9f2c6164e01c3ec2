// Tetrahedral element with the stable Neo-Hookean material of Smith, de Goes and Kim,
// "Stable Neo-Hookean Flesh Simulation" (2018), exactly as NVIDIA Warp's eval_tetrahedra
// (warp/sim/integrator_euler.py, warp-lang 1.9.1) evaluates it, with its hand-derived
// adjoint. Not yet used by the rollout: a later tet family calls these per element.
//
// Per element: particles x0..x3, velocities v0..v3, the rest inverse B = Dm^-1 (Dm's
// columns are the rest edges X1-X0, X2-X0, X3-X0), the rest volume V, the Lame-like
// parameters k_mu, k_lambda, the damping k_damp and an activation a (0 for a passive tet).
//   Ds = [x1-x0, x2-x0, x3-x0],  F = Ds B,  Fdot = [v1-v0, v2-v0, v3-v0] B
//   Ic = |F|^2 (Frobenius),  J = det F
//   alpha = 1 + k_mu / k_lambda - k_mu / (4 k_lambda)       (the rest-stability shift)
//   P_dev = V k_mu (1 - 1 / (Ic + 1)) F + V k_damp Fdot,  H = P_dev B^T, g_j = column j of H
//   dJ/dx_j = det(B) n_j,  n_1 = e2 x e3,  n_2 = e3 x e1,  n_3 = e1 x e2  (e_j = x_j - x0)
//   s = V k_lambda (J - alpha + a) + V k_damp det(B) (n_1.v1 + n_2.v2 + n_3.v3)
//   e_j = g_j + s det(B) n_j  (dE/dx_j for j = 1..3),  forces f_j = -e_j, f_0 = e_1 + e_2 + e_3
// The elastic part is -dPsi/dx of V Psi(F), Psi = k_mu/2 (Ic - 3) - k_mu/2 log(Ic + 1)
// + k_lambda/2 (J - alpha + a)^2. At F = I the deviatoric stress is (3/4) k_mu I and the
// volumetric one k_lambda (1 - alpha) I = -(3/4) k_mu I: alpha is what makes the rest
// pose force free. Nothing divides by J, so inverted and flat elements give finite forces.
// Two quirks of Warp are kept on purpose so the numbers match it: the volumetric damping
// dots n_j with the absolute velocities v_j (not v_j - v0, so it is not Galilean
// invariant), and k_lambda = 0 divides by zero in alpha.
//
// Warp stores only B and derives V = 1 / (6 det B); here V is an input of its own (the
// rest helper computes both consistently) so that its gradient is separate: the adjoint's
// dL/dB holds V fixed. A caller that ties V to B adds dL/dV dV/dB = -V dL/dV B^-T.
#pragma once

#include <cmath>

#include "nudge/mat33.h"
#include "nudge/vec3.h"

namespace nudge {

// One element's parameters. The adjoint hands back a TetParams of their gradients.
template <class T>
struct TetParams {
  Mat33<T> rest_inverse;  // B = Dm^-1, row-major
  T rest_volume;          // V
  T k_mu, k_lambda, k_damp;
  T activation;  // added to J - alpha: a > 0 pulls the volume down
};

template <class T>
struct TetForces {
  Vec3<T> f[4];
};

// dL/dx_i, dL/dv_i and dL/dparameters for one element, given dL/df_i.
template <class T>
struct TetAdjoint {
  Vec3<T> x[4], v[4];
  TetParams<T> params;
};

// Matrix with the given columns.
template <class T>
NUDGE_HD Mat33<T> from_columns(Vec3<T> c0, Vec3<T> c1, Vec3<T> c2) {
  return {{c0.x, c1.x, c2.x, c0.y, c1.y, c2.y, c0.z, c1.z, c2.z}};
}
template <class T>
NUDGE_HD Vec3<T> column(const Mat33<T>& a, int j) {
  return {a(0, j), a(1, j), a(2, j)};
}
// Frobenius inner product <A, B> = tr(A^T B).
template <class T>
NUDGE_HD T frobenius_dot(const Mat33<T>& a, const Mat33<T>& b) {
  T s = 0;
  for (int k = 0; k < 9; ++k) s += a.m[k] * b.m[k];
  return s;
}
// d det(A) / dA, defined for singular A too (rows r_i: the cofactor rows are r1 x r2,
// r2 x r0, r0 x r1).
template <class T>
NUDGE_HD Mat33<T> cofactor(const Mat33<T>& a) {
  const Vec3<T> r0{a.m[0], a.m[1], a.m[2]}, r1{a.m[3], a.m[4], a.m[5]}, r2{a.m[6], a.m[7], a.m[8]};
  const Vec3<T> c0 = cross(r1, r2), c1 = cross(r2, r0), c2 = cross(r0, r1);
  return {{c0.x, c0.y, c0.z, c1.x, c1.y, c1.z, c2.x, c2.y, c2.z}};
}

// Warp's alpha: 1 + mu/lambda - mu/(4 lambda), written as Warp writes it so the float
// rounding follows the same order.
template <class T>
NUDGE_HD T tet_alpha(T k_mu, T k_lambda) {
  return T(1) + k_mu / k_lambda - k_mu / (T(4) * k_lambda);
}

// Forces on the four particles of one element (Warp's eval_tetrahedra).
template <class T>
NUDGE_HD TetForces<T> tet_neohookean_forces(const Vec3<T> x[4], const Vec3<T> v[4], const TetParams<T>& p) {
  const Vec3<T> e1 = x[1] - x[0], e2 = x[2] - x[0], e3 = x[3] - x[0];
  const Mat33<T>& B = p.rest_inverse;
  const T V = p.rest_volume;
  const Mat33<T> F = from_columns(e1, e2, e3) * B;
  const Mat33<T> Fdot = from_columns(v[1] - v[0], v[2] - v[0], v[3] - v[0]) * B;
  const T Ic = frobenius_dot(F, F);
  const Mat33<T> P = (V * p.k_mu * (T(1) - T(1) / (Ic + T(1)))) * F + (V * p.k_damp) * Fdot;
  const Mat33<T> H = P * transpose(B);
  const T detB = determinant(B);
  const Vec3<T> n1 = cross(e2, e3), n2 = cross(e3, e1), n3 = cross(e1, e2);
  const T J = determinant(F);
  const T volume_term = (J - tet_alpha(p.k_mu, p.k_lambda) + p.activation) * (p.k_lambda * V);
  const T damp_term = detB * (dot(n1, v[1]) + dot(n2, v[2]) + dot(n3, v[3])) * (p.k_damp * V);
  const T s = (volume_term + damp_term) * detB;
  TetForces<T> r;
  r.f[1] = -(column(H, 0) + s * n1);
  r.f[2] = -(column(H, 1) + s * n2);
  r.f[3] = -(column(H, 2) + s * n3);
  r.f[0] = -(r.f[1] + r.f[2] + r.f[3]);
  return r;
}

// Adjoint of tet_neohookean_forces given adj_f[i] = dL/df_i. Returns values only (nothing
// is accumulated), as spring_force_adjoint does; the caller scatters them.
template <class T>
NUDGE_HD TetAdjoint<T> tet_neohookean_adjoint(const Vec3<T> x[4], const Vec3<T> v[4], const TetParams<T>& p,
                                              const Vec3<T> adj_f[4]) {
  // Forward, keeping the intermediates.
  const Vec3<T> e1 = x[1] - x[0], e2 = x[2] - x[0], e3 = x[3] - x[0];
  const Mat33<T>& B = p.rest_inverse;
  const T V = p.rest_volume;
  const Mat33<T> Ds = from_columns(e1, e2, e3);
  const Mat33<T> Dv = from_columns(v[1] - v[0], v[2] - v[0], v[3] - v[0]);
  const Mat33<T> F = Ds * B, Fdot = Dv * B;
  const T Ic = frobenius_dot(F, F);
  const T shape = T(1) - T(1) / (Ic + T(1));
  const T c = V * p.k_mu * shape;
  const Mat33<T> P = c * F + (V * p.k_damp) * Fdot;
  const T detB = determinant(B);
  const Vec3<T> n1 = cross(e2, e3), n2 = cross(e3, e1), n3 = cross(e1, e2);
  const T detDs = dot(e1, n1);
  const T J = determinant(F);
  const T alpha = tet_alpha(p.k_mu, p.k_lambda);
  const T strain = J - alpha + p.activation;
  const T q = dot(n1, v[1]) + dot(n2, v[2]) + dot(n3, v[3]);
  const T volume_term = strain * (p.k_lambda * V);
  const T damp_term = detB * q * (p.k_damp * V);
  const T s = (volume_term + damp_term) * detB;

  TetAdjoint<T> r{};
  TetParams<T>& g = r.params;
  g.rest_inverse = zero33<T>();
  // f_0 = e_1 + e_2 + e_3 and f_j = -e_j: dL/de_j = dL/df_0 - dL/df_j.
  const Vec3<T> adj_e1 = adj_f[0] - adj_f[1], adj_e2 = adj_f[0] - adj_f[2], adj_e3 = adj_f[0] - adj_f[3];
  // e_j = column j of H + s n_j
  const Mat33<T> adj_H = from_columns(adj_e1, adj_e2, adj_e3);
  const T adj_s = dot(adj_e1, n1) + dot(adj_e2, n2) + dot(adj_e3, n3);
  Vec3<T> adj_n1 = s * adj_e1, adj_n2 = s * adj_e2, adj_n3 = s * adj_e3;
  // s = (volume_term + damp_term) detB
  const T adj_term = adj_s * detB;
  T adj_detB = adj_s * (volume_term + damp_term);
  // volume_term = (J - alpha + a) k_lambda V
  const T adj_strain = adj_term * p.k_lambda * V;
  const T adj_J = adj_strain;
  const T adj_alpha = -adj_strain;
  g.activation = adj_strain;
  g.k_lambda = adj_term * strain * V;
  g.rest_volume = adj_term * strain * p.k_lambda;
  // damp_term = detB q k_damp V
  const T adj_q = adj_term * detB * p.k_damp * V;
  adj_detB += adj_term * q * p.k_damp * V;
  g.k_damp = adj_term * detB * q * V;
  g.rest_volume += adj_term * detB * q * p.k_damp;
  // q = n_1.v1 + n_2.v2 + n_3.v3 (absolute velocities, as Warp)
  adj_n1 += adj_q * v[1], adj_n2 += adj_q * v[2], adj_n3 += adj_q * v[3];
  r.v[1] = adj_q * n1, r.v[2] = adj_q * n2, r.v[3] = adj_q * n3;
  // alpha = 1 + (3/4) k_mu / k_lambda
  g.k_mu = adj_alpha * (T(1) - T(0.25)) / p.k_lambda;
  g.k_lambda += -adj_alpha * (T(1) - T(0.25)) * p.k_mu / (p.k_lambda * p.k_lambda);
  // J = det(Ds) det(B), det(Ds) = e1 . n1, d det(Ds)/de_j = n_j
  adj_detB += adj_J * detDs;
  Vec3<T> adj_e[3] = {(adj_J * detB) * n1, (adj_J * detB) * n2, (adj_J * detB) * n3};
  // H = P B^T:  dL/dP = dL/dH B,  dL/dB += dL/dH^T P
  const Mat33<T> adj_P = adj_H * B;
  g.rest_inverse += transpose(adj_H) * P;
  // P = c F + k_damp V Fdot, c = V k_mu (1 - 1/(Ic + 1)), Ic = |F|^2
  const T adj_c = frobenius_dot(adj_P, F);
  const T adj_Ic = adj_c * V * p.k_mu / ((Ic + T(1)) * (Ic + T(1)));
  g.k_mu += adj_c * V * shape;
  g.rest_volume += adj_c * p.k_mu * shape + frobenius_dot(adj_P, Fdot) * p.k_damp;
  g.k_damp += frobenius_dot(adj_P, Fdot) * V;
  const Mat33<T> adj_F = c * adj_P + (T(2) * adj_Ic) * F;
  const Mat33<T> adj_Fdot = (V * p.k_damp) * adj_P;
  // F = Ds B, Fdot = Dv B
  const Mat33<T> adj_Ds = adj_F * transpose(B), adj_Dv = adj_Fdot * transpose(B);
  g.rest_inverse += transpose(Ds) * adj_F + transpose(Dv) * adj_Fdot;
  g.rest_inverse += adj_detB * cofactor(B);
  // n_1 = e2 x e3, n_2 = e3 x e1, n_3 = e1 x e2
  adj_cross(e2, e3, adj_n1, adj_e[1], adj_e[2]);
  adj_cross(e3, e1, adj_n2, adj_e[2], adj_e[0]);
  adj_cross(e1, e2, adj_n3, adj_e[0], adj_e[1]);
  // e_j = x_j - x0, and the columns of Dv are v_j - v0
  r.x[0] = Vec3<T>{0, 0, 0};
  r.v[0] = Vec3<T>{0, 0, 0};
  for (int j = 0; j < 3; ++j) {
    const Vec3<T> ax = adj_e[j] + column(adj_Ds, j), av = column(adj_Dv, j);
    r.x[j + 1] = ax;
    r.x[0] -= ax;
    r.v[j + 1] += av;
    r.v[0] -= av;
  }
  return r;
}

// Host helpers for building elements (as Warp's ModelBuilder.add_tetrahedron).

enum class TetRestStatus {
  ok,
  degenerate,  // flat within the tolerance (or a repeated vertex): no rest inverse
  inverted,    // negative volume: X1-X0, X2-X0, X3-X0 is a left-handed frame
};

template <class T>
struct TetRest {
  TetRestStatus status;
  Mat33<T> rest_inverse;  // Dm^-1; zero unless status is ok
  T volume;               // signed rest volume det(Dm) / 6, also reported for a bad tet
};

// Rest inverse and volume from four rest positions. Warp drops any element with volume
// <= 0; here a tet is also refused as degenerate when det(Dm) <= flat_tolerance
// |X1-X0| |X2-X0| |X3-X0| (that ratio is the sine-like solid-angle measure at X0, 1 for
// orthogonal edges), since its inverse would be huge and its forces meaningless.
template <class T>
TetRest<T> tet_rest(Vec3<T> X0, Vec3<T> X1, Vec3<T> X2, Vec3<T> X3, T flat_tolerance = T(1e-6)) {
  const Vec3<T> e1 = X1 - X0, e2 = X2 - X0, e3 = X3 - X0;
  const Mat33<T> Dm = from_columns(e1, e2, e3);
  const T det = determinant(Dm);
  const T scale = length(e1) * length(e2) * length(e3);
  TetRest<T> r{TetRestStatus::ok, zero33<T>(), det / T(6)};
  if (!(std::fabs(det) > flat_tolerance * scale))
    r.status = TetRestStatus::degenerate;  // NaN lands here too
  else if (det < T(0))
    r.status = TetRestStatus::inverted;
  else
    r.rest_inverse = inverse(Dm);
  return r;
}

// The mass a density gives each vertex of a tet: a quarter of rho V (lumped mass).
template <class T>
NUDGE_HD T tet_vertex_mass(T density, T rest_volume) {
  return T(0.25) * density * rest_volume;
}

// Lame parameters from Young's modulus E and Poisson's ratio nu (-1 < nu < 1/2):
//   mu = E / (2 (1 + nu)),  lambda = E nu / ((1 + nu) (1 - 2 nu)).
template <class T>
struct Lame {
  T mu, lambda;
};
template <class T>
NUDGE_HD Lame<T> lame_from_young_poisson(T young, T poisson) {
  return {young / (T(2) * (T(1) + poisson)), young * poisson / ((T(1) + poisson) * (T(1) - T(2) * poisson))};
}

// Warp passes k_mu, k_lambda to the energy as they are, so linearised at rest the stable
// Neo-Hookean is a linear material with mu_lin = (3/4) k_mu and lambda_lin = k_lambda -
// (5/8) k_mu (Smith et al. 2018, section 3.4). To get the small-strain behaviour of given
// Lame parameters, use k_mu = (4/3) mu and k_lambda = lambda + (5/6) mu.
template <class T>
NUDGE_HD Lame<T> stable_neohookean_from_lame(Lame<T> lame) {
  return {T(4) / T(3) * lame.mu, lame.lambda + T(5) / T(6) * lame.mu};
}

}  // namespace nudge
