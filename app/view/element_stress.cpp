#include "view/element_stress.h"

#include <algorithm>
#include <cmath>

#include "nudge/mat33.h"

namespace nudge::view {

namespace {

Mat33<double> columns(Vec3<double> a, Vec3<double> b, Vec3<double> c) {
  return {{a.x, b.x, c.x, a.y, b.y, c.y, a.z, b.z, c.z}};
}

// Particle i at `step` of traj, or at its initial position.
Vec3<double> at(const Scene& scene, const Trajectory* traj, int step, int i) {
  const double* x = traj
                        ? &traj->x[(size_t(std::clamp(step, 0, traj->steps)) * size_t(traj->particles) + size_t(i)) * 3]
                        : &scene.initial_positions()[3 * size_t(i)];
  return {x[0], x[1], x[2]};
}

// Row e of a one-value-per-element parameter, or `fallback` when it has no such row.
double row(const Scene& scene, ParamId id, size_t e, double fallback) {
  const std::vector<double>& v = scene.params[id].value;
  return e < v.size() ? v[e] : fallback;
}

}  // namespace

double tet_energy_density(const std::array<Vec3<double>, 4>& rest, const std::array<Vec3<double>, 4>& now, double k_mu,
                          double k_lambda) {
  const Mat33<double> Dm = columns(rest[1] - rest[0], rest[2] - rest[0], rest[3] - rest[0]);
  const double rest_det = determinant(Dm);
  if (!(std::fabs(rest_det) > 0)) return 0;
  const Mat33<double> F = columns(now[1] - now[0], now[2] - now[0], now[3] - now[0]) * inverse(Dm);
  double Ic = 0;
  for (double f : F.m) Ic += f * f;
  const double J = determinant(F);
  return 0.5 * k_mu * (Ic - 3) - 0.5 * k_mu * std::log((Ic + 1) / 4) + 0.5 * k_lambda * (J - 1) * (J - 1) -
         0.75 * k_mu * (J - 1);
}

double triangle_energy_density(const std::array<Vec3<double>, 3>& rest, const std::array<Vec3<double>, 3>& now,
                               double ke, double ka) {
  // The rest edges in an orthonormal frame of the rest plane (u along the first edge):
  // |F|^2 and J do not depend on which frame.
  const Vec3<double> r1 = rest[1] - rest[0], r2 = rest[2] - rest[0];
  const double l1 = length(r1);
  const double rest_area2 = length(cross(r1, r2));  // twice the rest area
  if (!(l1 > 0) || !(rest_area2 > 0)) return 0;
  const Vec3<double> u = r1 * (1 / l1);
  // Dm = [[l1, r2.u], [0, rest_area2 / l1]]; its inverse D:
  const double a = l1, b = dot(r2, u), d = rest_area2 / l1;
  const double D00 = 1 / a, D01 = -b / (a * d), D11 = 1 / d;  // D10 = 0
  const Vec3<double> x10 = now[1] - now[0], x20 = now[2] - now[0];
  const Vec3<double> F1 = x10 * D00, F2 = x10 * D01 + x20 * D11;
  const double norm2 = length_squared(F1) + length_squared(F2);
  const double J = length(cross(x10, x20)) / rest_area2;
  return 0.5 * ke * (norm2 - 2 * J) + 0.5 * ka * (J - 1) * (J - 1);
}

std::vector<double> tet_stress(const Scene& scene, const Trajectory* traj, int step) {
  std::vector<double> stress(size_t(scene.tet_count()), 0.0);
  if (!traj) return stress;
  for (size_t t = 0; t < stress.size(); ++t) {
    std::array<Vec3<double>, 4> rest, now;
    for (size_t k = 0; k < 4; ++k) {
      const int i = scene.tets[4 * t + k];
      rest[k] = at(scene, nullptr, 0, i);
      now[k] = at(scene, traj, step, i);
    }
    stress[t] = tet_energy_density(rest, now, row(scene, ParamId::TetMu, t, 0), row(scene, ParamId::TetLambda, t, 0));
  }
  return stress;
}

std::vector<double> triangle_stress(const Scene& scene, const Trajectory* traj, int step) {
  std::vector<double> stress(size_t(scene.triangle_count()), 0.0);
  if (!traj) return stress;
  for (size_t t = 0; t < stress.size(); ++t) {
    std::array<Vec3<double>, 3> rest, now;
    for (size_t k = 0; k < 3; ++k) {
      const int i = scene.triangles[3 * t + k];
      rest[k] = at(scene, nullptr, 0, i);
      now[k] = at(scene, traj, step, i);
    }
    stress[t] = triangle_energy_density(rest, now, row(scene, ParamId::TriangleStiffness, t, 0),
                                        row(scene, ParamId::TriangleAreaStiffness, t, 0));
  }
  return stress;
}

}  // namespace nudge::view
