// How strained each cloth triangle and each tet is at a frame, as one number per element
// for the viewport's "colour elements by stress": the elastic energy density of the
// element's own material at its deformation gradient F, less that at rest, so that an
// element at rest (or moved and turned rigidly) reads 0 and any stretch, shear or
// squash reads more. The rest shape is the element's shape in the initial positions, as
// in the engine.
//
//   tets (families/tets/tet_neohookean.h): F = Ds Dm^-1, Ic = |F|^2, J = det F,
//     Psi(F) - Psi(I) = k_mu/2 (Ic - 3) - k_mu/2 log((Ic + 1) / 4)
//                       + k_lambda/2 (J - 1)^2 - 3/4 k_mu (J - 1)         (J/m^3 = Pa)
//   triangles (families/triangles/triangle_membrane.h): F = [x1 - x0, x2 - x0] D (3 x 2), D the
//     inverse of the rest edges in the rest plane, J = area / rest area,
//     Psi(F) - Psi(rest) = ke/2 (|F|^2 - 2 J) + ka/2 (J - 1)^2                (J/m^2)
// Both are the energies whose gradients the kernels' elastic forces are (the tets' with
// Warp's rest shift alpha multiplied out, so k_lambda = 0 needs no division); the
// triangle's is never negative. Activation is left out: it is the controls' doing, not
// the material's. A flat rest shape (no inverse) reads 0.
#pragma once

#include <array>
#include <vector>

#include "nudge/scene.h"
#include "nudge/simulator.h"
#include "nudge/vec3.h"

namespace nudge::view {

double tet_energy_density(const std::array<Vec3<double>, 4>& rest, const std::array<Vec3<double>, 4>& now, double k_mu,
                          double k_lambda);
double triangle_energy_density(const std::array<Vec3<double>, 3>& rest, const std::array<Vec3<double>, 3>& now,
                               double ke, double ka);

// Every tet's (Tet values) or triangle's (Tri values) at step `step` of traj (clamped to
// its steps), or at the initial positions (all 0) when traj is null.
std::vector<double> tet_stress(const Scene& scene, const Trajectory* traj, int step);
std::vector<double> triangle_stress(const Scene& scene, const Trajectory* traj, int step);

}  // namespace nudge::view
