// Material points: continua (a liquid, an elastic solid) sampled by points that carry
// their own deformation, simulated by MLS-MPM on a background grid (Hu et al. 2018, as
// DiffTaichi's diffmpm): each step the points' mass and momentum go to the grid, the grid
// moves under gravity and its walls, and the points take their new velocity and
// deformation back. The grid's walls hold them in its box; the scene's colliders and the
// vessels (rigid containers a control channel turns about a hinge, MaterialVessel) are
// boundaries of the grid. Particles and bodies pass through them.
//
// Per point: its material, a control channel (its muscle, along the body's y), and the
// parameters point_position, point_velocity, point_mass and point_volume. Per material:
// its model and material_youngs_modulus, material_poisson_ratio (solids),
// material_bulk_modulus and material_viscosity (liquids).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "nudge/colliders.h"

namespace nudge {

enum class MaterialModel {
  NeoHookean,      // elastic solid, 2D and 3D
  FixedCorotated,  // elastic solid, DiffTaichi's diffmpm model
  Liquid,          // weakly compressible, viscous
  Sand,            // granular: Drucker-Prager plasticity on Hencky elasticity
};

std::string_view material_model_name(MaterialModel model);  // "neo_hookean", "fixed_corotated", "liquid", "sand"
std::optional<MaterialModel> material_model_from_name(std::string_view name);

struct ContinuumMaterial {
  std::string name;
  MaterialModel model = MaterialModel::NeoHookean;
};

// A rigid container the points meet (a cup, a mug, a paddle): collider shapes fixed to
// each other, placed as at angle 0, turned about a hinge (pivot, axis) from `angle` at
// the rate gain * controls[t][channel] during step t (rad/s; none without a channel): its
// angle is part of the state. A grid node within a cell of a part, moving into it, is
// stopped (sticky, friction < 0) or slides with Coulomb friction, relative to the part's
// own motion.
struct MaterialVessel {
  std::string name;
  std::vector<ColliderShape> parts;  // boxes, spheres, capsules
  double pivot[3] = {0, 0, 0};       // m
  double axis[3] = {0, 0, 1};        // unit; a 2D grid turns about z
  double angle = 0.0;                // rad, at the start
  int channel = -1;
  double gain = 1.0;       // rad/s per unit of control
  double friction = -1.0;  // a Coulomb coefficient >= 0, or < 0 for sticky
};

struct MaterialPoints {
  int dims = 3;  // 2: the x-y plane (every z is 0)
  // The grid: cells per side of a square (cube) of side `size` from `origin`; its walls
  // are wall_cells nodes deep. wall_friction per wall (x low, x high, y low, y high, z
  // low, z high): a Coulomb coefficient >= 0, or < 0 for sticky (what moves into it stops).
  int cells = 64;
  double origin[3] = {0, 0, 0};
  double size = 1.0;  // m
  int wall_cells = 3;
  double wall_friction[6] = {-1, -1, -1, -1, -1, -1};
  std::vector<ContinuumMaterial> materials;
  std::vector<int> material;  // per point: an index into materials
  std::vector<int> channel;   // per point: its muscle's control channel, -1 for none
  double actuation = 0;       // Pa per unit of control: a muscle's pull along the body's y
  std::vector<MaterialVessel> vessels;
  // How the grid meets the scene's colliders: a Coulomb coefficient >= 0, or < 0 sticky.
  double collider_friction = 0.0;

  int count() const { return static_cast<int>(material.size()); }
  bool enabled() const { return !material.empty(); }
  double dx() const { return size / cells; }
};

}  // namespace nudge
