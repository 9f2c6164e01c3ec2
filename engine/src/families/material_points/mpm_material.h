// The material points' constitutive models (MLS-MPM, Hu et al. 2018): the Kirchhoff
// stress tau = P F^T of a point from its deformation gradient F (and, for a liquid's
// viscosity, its affine velocity C), with the adjoint of each. In 2D the matrices keep
// their z row and column: F_zz = 1 and C's z row and column are 0, so J = det F is the
// in-plane area ratio and the z parts of tau never reach the grid.
//
//   Neo-Hookean      tau = mu (F F^T - I) + lambda log(J) I
//   fixed corotated  tau = 2 mu (F - R) F^T + lambda (J - 1) J I   (R: F's rotation)
//   liquid           tau = K (J - 1) J I + eta J (C + C^T)        (F reset to J^(1/d) I)
//   sand             tau = U (2 mu eps + lambda tr(eps) I) U^T      (eps = log Sigma; F projected
//                                                                    onto a Drucker-Prager cone)
//   actuation        tau += a (F e_y)(F e_y)^T                     (a muscle along the body's y)
//
// Sand is mpm_sand.h's. Fixed corotated is DiffTaichi's diffmpm model; its rotation is
// the polar angle's in 2D, and in 3D R = F H(C) with h_i = 1 / sigma_i
// (kernels/spectral_function.h), so (F - R) F^T = F (I - H) F^T.
#pragma once

#include <cmath>

#include "families/material_points/mpm_sand.h"
#include "nudge/mat33.h"
#include "nudge/vec3.h"

namespace nudge {

// The values of MaterialModel (nudge/material_points.h), which the family uploads as ints.
enum class MpmModelKind : int { NeoHookean = 0, FixedCorotated = 1, Liquid = 2, Sand = 3 };

template <class T>
struct MpmMaterialLaw {
  MpmModelKind kind = MpmModelKind::NeoHookean;
  T mu = 0, lambda = 0;       // Lame parameters (solids), Pa
  T bulk = 0, viscosity = 0;  // liquid: bulk modulus K (Pa) and dynamic viscosity eta (Pa s)
  T alpha = 0;                // sand: the cone's slope (sand_alpha of the friction angle)
};

// The adjoints a material law's parameters receive.
template <class T>
struct MpmMaterialAdjoint {
  T mu = 0, lambda = 0, bulk = 0, viscosity = 0, alpha = 0;
};

// The rotation of a 2D deformation gradient (the x-y block): R(theta) is the closest
// rotation to F, theta = atan2(F10 - F01, F00 + F11); its cos and sin are
// (F00 + F11, F10 - F01) / their length, with no angle computed (a third of a 2D solid
// point's step went to atan2, sin and cos). 1 and 0 when that length is 0, as
// atan2(0, 0) = 0 gives.
template <class T>
struct PlaneRotation {
  T c, s;
};
template <class T>
NUDGE_HD PlaneRotation<T> polar_rotation_2d(const Mat33<T>& f) {
  const T a = f(1, 0) - f(0, 1), b = f(0, 0) + f(1, 1);
  const T r = std::sqrt(a * a + b * b);
  if (!(r > T(0))) return {T(1), T(0)};
  return {b / r, a / r};
}
template <class T>
NUDGE_HD Mat33<T> rotation_matrix(const PlaneRotation<T>& r) {
  return {{r.c, -r.s, 0, r.s, r.c, 0, 0, 0, 1}};
}

// 3D fixed corotated's shear part: tau = F K F^T with k_i = 2 mu (1 - 1 / sigma_i).
struct CorotatedShearMap {
  bool inverted = false;
  template <class S>
  NUDGE_HD void operator()(const S lam[3], const S theta[3], S k[3]) const {
    inverse_stretch(lam, inverted, k);
    for (int i = 0; i < 3; ++i) k[i] = theta[0] * constant<S>(2.0) * (constant<S>(1.0) - k[i]);
  }
};

template <class T>
NUDGE_HD T trace(const Mat33<T>& a) {
  return a.m[0] + a.m[4] + a.m[8];
}

template <class T>
NUDGE_HD T inner(const Mat33<T>& a, const Mat33<T>& b) {
  T s = 0;
  for (int k = 0; k < 9; ++k) s += a.m[k] * b.m[k];
  return s;
}

// A liquid's deformation gradient keeps only its volume ratio: J^(1/d) I in the d axes
// (in 2D, F_zz stays 1).
template <int D, class T>
NUDGE_HD Mat33<T> liquid_gradient(T j) {
  const T s = D == 2 ? std::sqrt(j) : std::cbrt(j);
  return {{s, 0, 0, 0, s, 0, 0, 0, D == 2 ? T(1) : s}};
}

// dL/dJ of liquid_gradient, given dL/dF'.
template <int D, class T>
NUDGE_HD T adj_liquid_gradient(T j, const Mat33<T>& adj_f) {
  if (D == 2) return (adj_f(0, 0) + adj_f(1, 1)) * T(0.5) / std::sqrt(j);
  const T s = std::cbrt(j);
  return (adj_f(0, 0) + adj_f(1, 1) + adj_f(2, 2)) / (T(3) * s * s);
}

// The Kirchhoff stress of F (and C, for a liquid's viscosity), with a muscle's pull
// `act` (Pa) along the body's y, in D dimensions.
template <int D, class T>
NUDGE_HD Mat33<T> kirchhoff_stress(const MpmMaterialLaw<T>& law, const Mat33<T>& f, const Mat33<T>& c, T act) {
  const T j = determinant(f);
  Mat33<T> tau = zero33<T>();
  switch (law.kind) {
    case MpmModelKind::NeoHookean:
      tau = law.mu * (f * transpose(f) + T(-1) * identity33<T>()) + (law.lambda * std::log(j)) * identity33<T>();
      break;
    case MpmModelKind::FixedCorotated:
      if constexpr (D == 3) {
        const T theta[3] = {law.mu, T(0), T(0)};
        tau = spectral_congruence(f, stretch_eigen(f), CorotatedShearMap{j < T(0)}, theta);
      } else {
        tau = (T(2) * law.mu) * ((f + T(-1) * rotation_matrix(polar_rotation_2d(f))) * transpose(f));
      }
      tau += (law.lambda * (j - T(1)) * j) * identity33<T>();
      break;
    case MpmModelKind::Liquid:
      tau = (law.bulk * (j - T(1)) * j) * identity33<T>() + (law.viscosity * j) * (c + transpose(c));
      break;
    case MpmModelKind::Sand: tau = sand_stress<D>(f, law.mu, law.lambda); break;
  }
  if (act != T(0)) {
    const Vec3<T> fy{f(0, 1), f(1, 1), f(2, 1)};
    tau += act * outer(fy, fy);
  }
  return tau;
}

// Adds the adjoints of kirchhoff_stress's inputs given dL/dtau.
template <int D, class T>
NUDGE_HD void adj_kirchhoff_stress(const MpmMaterialLaw<T>& law, const Mat33<T>& f, const Mat33<T>& c, T act,
                                   const Mat33<T>& adj_tau, Mat33<T>& adj_f, Mat33<T>& adj_c,
                                   MpmMaterialAdjoint<T>& adj_law, T& adj_act) {
  const T j = determinant(f);
  const T tr = trace(adj_tau);
  const Mat33<T> sym = adj_tau + transpose(adj_tau);
  T adj_j = 0;
  switch (law.kind) {
    case MpmModelKind::NeoHookean:
      // mu (F F^T - I): d/dF = mu (G + G^T) F
      adj_law.mu += inner(adj_tau, f * transpose(f) + T(-1) * identity33<T>());
      adj_f += law.mu * (sym * f);
      adj_law.lambda += std::log(j) * tr;
      adj_j += law.lambda * tr / j;
      break;
    case MpmModelKind::FixedCorotated: {
      adj_law.lambda += (j - T(1)) * j * tr;
      adj_j += law.lambda * (T(2) * j - T(1)) * tr;
      if constexpr (D == 3) {
        const T theta[3] = {law.mu, T(0), T(0)};
        T adj_theta[3] = {0, 0, 0};
        adj_spectral_congruence(f, stretch_eigen(f), CorotatedShearMap{j < T(0)}, theta, adj_tau, adj_f, adj_theta);
        adj_law.mu += adj_theta[0];
      } else {
        const PlaneRotation<T> rot = polar_rotation_2d(f);
        const Mat33<T> r = rotation_matrix(rot);
        const Mat33<T> s = f + T(-1) * r;
        adj_law.mu += T(2) * inner(adj_tau, s * transpose(f));
        // 2 mu S F^T: dL/dS = 2 mu G F, dL/dF (the F^T) = 2 mu G^T S
        const Mat33<T> adj_s = (T(2) * law.mu) * (adj_tau * f);
        adj_f += adj_s + (T(2) * law.mu) * (transpose(adj_tau) * s);
        // R(theta), theta = atan2(a, b), a = F10 - F01, b = F00 + F11
        const T cs = rot.c, sn = rot.s;
        const T adj_theta =
            -(adj_s(0, 0) * -sn + adj_s(0, 1) * -cs + adj_s(1, 0) * cs + adj_s(1, 1) * -sn);  // dL/dR = -dL/dS
        const T a = f(1, 0) - f(0, 1), b = f(0, 0) + f(1, 1);
        const T r2 = a * a + b * b;
        const T adj_a = adj_theta * b / r2, adj_b = -adj_theta * a / r2;
        adj_f(1, 0) += adj_a;
        adj_f(0, 1) -= adj_a;
        adj_f(0, 0) += adj_b;
        adj_f(1, 1) += adj_b;
      }
      break;
    }
    case MpmModelKind::Liquid: {
      const Mat33<T> rate = c + transpose(c);
      adj_law.bulk += (j - T(1)) * j * tr;
      adj_j += law.bulk * (T(2) * j - T(1)) * tr + law.viscosity * inner(adj_tau, rate);
      adj_law.viscosity += j * inner(adj_tau, rate);
      adj_c += (law.viscosity * j) * sym;
      break;
    }
    case MpmModelKind::Sand:
      adj_sand_stress<D>(f, law.mu, law.lambda, adj_tau, adj_f, adj_law.mu, adj_law.lambda);
      break;
  }
  if (adj_j != T(0)) adj_determinant(f, adj_j, adj_f);
  const Vec3<T> fy{f(0, 1), f(1, 1), f(2, 1)};
  adj_act += dot(fy, adj_tau * fy);
  if (act != T(0)) {
    const Vec3<T> adj_fy = act * (sym * fy);
    adj_f(0, 1) += adj_fy.x;
    adj_f(1, 1) += adj_fy.y;
    adj_f(2, 1) += adj_fy.z;
  }
}

}  // namespace nudge
