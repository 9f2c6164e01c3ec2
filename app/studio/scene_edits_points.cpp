// Material point generators (scene_edits.h): a box or a closed mesh filled with liquid,
// sand or a soft solid, as new material points of a new material (Edit > Add > Liquid,
// Sand, Soft Solid).
#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "nudge/triangle_mesh.h"
#include "studio/scene_edits.h"
#include "studio/scene_edits_support.h"

namespace nudge::studio::edits {

using namespace support;

namespace {

std::string_view kind_name(MaterialBlock::Kind kind) {
  switch (kind) {
    case MaterialBlock::Kind::Liquid: return "liquid";
    case MaterialBlock::Kind::Sand: return "sand";
    case MaterialBlock::Kind::SoftSolid: return "jelly";
  }
  return "liquid";
}

std::optional<Error> check_block(std::string_view action, const MaterialBlock& b) {
  const auto bad = [&](std::string_view what, double x, const std::string& expected) {
    return fail(action, "found " + std::string(what) + " " + number_text(x) + "; expected " + expected);
  };
  if (!(std::isfinite(b.density) && b.density > 0)) return bad("density", b.density, "a density > 0 (kg/m^3)");
  if (b.kind == MaterialBlock::Kind::Liquid) {
    if (!(std::isfinite(b.bulk) && b.bulk > 0)) return bad("bulk modulus", b.bulk, "a bulk modulus > 0 (Pa)");
    if (!(std::isfinite(b.viscosity) && b.viscosity >= 0))
      return bad("viscosity", b.viscosity, "a viscosity >= 0 (Pa s)");
    return std::nullopt;
  }
  if (!(std::isfinite(b.young) && b.young > 0)) return bad("Young's modulus", b.young, "a modulus > 0 (Pa)");
  if (!(b.poisson > -1 && b.poisson < 0.5)) return bad("Poisson ratio", b.poisson, "a ratio in (-1, 0.5)");
  if (b.kind == MaterialBlock::Kind::Sand && !(b.friction_angle >= 0 && b.friction_angle < 90))
    return bad("friction angle", b.friction_angle, "an angle in [0, 90) degrees");
  return std::nullopt;
}

// The lattice of two points per grid cell along each axis over the box from corner to
// corner + size (every point, or those inside `mesh`), as a new material of the block's
// kind; the grid is made around the box when the scene has none. `what` names the box's
// source in errors ("the box", "the mesh's bounds").
Result<Scene> fill_material(const Scene& scene, std::string_view action, const Vec3& corner, const Vec3& size,
                            const MaterialBlock& block, const TriangleMesh* mesh, const std::string& what) {
  Scene edited = scene;
  MaterialPoints& mp = edited.material_points;
  const bool fresh = !mp.enabled();
  if (fresh) {  // a grid around the box: twice its largest side, 64 cells (32 in 3D)
    const MaterialPoints defaults;
    mp = defaults;
    mp.dims = size[2] > 0 ? 3 : 2;
    mp.cells = mp.dims == 2 ? 64 : 32;  // a cube of the box's side is 32^3 points
    mp.size = 2 * std::max({size[0], size[1], size[2]});
    for (int k = 0; k < 3; ++k) mp.origin[k] = corner[size_t(k)] + size[size_t(k)] / 2 - mp.size / 2;
    if (mp.dims == 2) mp.origin[2] = corner[2];
  }
  const int dims = mp.dims;
  // Two points per cell along each axis, at the cells' quarters.
  const double spacing = mp.dx() / 2;
  long long counts[3] = {1, 1, 1};
  for (int k = 0; k < dims; ++k) counts[k] = std::max(1LL, std::llround(size[size_t(k)] / spacing));
  const long long lattice = counts[0] * counts[1] * counts[2];
  // A mesh keeps a share of its bounds' lattice; the bounds may hold a few times more.
  if (lattice > (mesh ? 8 : 1) * kMaxGeneratedParticles)
    return fail(action, "found " + std::to_string(lattice) +
                            " points (2 per grid cell along each axis); expected at most " +
                            std::to_string(kMaxGeneratedParticles) + ": a smaller box");
  // Inside the grid, clear of its walls (a point there is held).
  const double wall = (mp.wall_cells + 0.5) * mp.dx();
  for (int k = 0; k < dims; ++k)
    if (corner[size_t(k)] < mp.origin[k] + wall || corner[size_t(k)] + size[size_t(k)] > mp.origin[k] + mp.size - wall)
      return fail(action, what + " from " + vec3_text(corner) + " to " +
                              vec3_text({corner[0] + size[0], corner[1] + size[1], corner[2] + size[2]}) +
                              " reaches outside the material points' grid (from " +
                              vec3_text({mp.origin[0], mp.origin[1], mp.origin[2]}) + ", side " + number_text(mp.size) +
                              " m, less its walls); expected a box inside it");
  const std::array<double, 3> first{corner[0] + 0.5 * spacing, corner[1] + 0.5 * spacing,
                                    dims == 3 ? corner[2] + 0.5 * spacing : mp.origin[2]};
  std::vector<std::array<double, 3>> positions;
  if (mesh) {
    positions = lattice_points_inside(*mesh, first, spacing, {counts[0], counts[1], counts[2]});
  } else {
    for (long long i = 0; i < counts[0]; ++i)
      for (long long j = 0; j < counts[1]; ++j)
        for (long long l = 0; l < counts[2]; ++l)
          positions.push_back(
              {first[0] + double(i) * spacing, first[1] + double(j) * spacing, first[2] + double(l) * spacing});
  }
  const long long total = static_cast<long long>(positions.size());
  if (total == 0)
    return fail(action, "found no lattice point inside the mesh (2 per grid cell along each axis, " +
                            number_text(spacing) + " m apart); expected a mesh larger than that, or a finer grid");
  if (total > kMaxGeneratedParticles)
    return fail(action, "found " + std::to_string(total) +
                            " points (2 per grid cell along each axis); expected at most " +
                            std::to_string(kMaxGeneratedParticles) + ": a smaller mesh");

  const int material = static_cast<int>(mp.materials.size());
  ContinuumMaterial m;
  m.name = std::string(kind_name(block.kind)) + (material > 0 ? " " + std::to_string(material + 1) : "");
  m.model = block.kind == MaterialBlock::Kind::Liquid ? MaterialModel::Liquid
            : block.kind == MaterialBlock::Kind::Sand ? MaterialModel::Sand
            : dims == 2                               ? MaterialModel::FixedCorotated
                                                      : MaterialModel::NeoHookean;
  mp.materials.push_back(m);
  append_rows(edited.params, ParamElement::Material, 1);
  ParameterSet& p = edited.params;
  const size_t row = size_t(material);
  p[ParamId::MaterialYoungsModulus].value[row] = block.kind == MaterialBlock::Kind::Liquid ? 0.0 : block.young;
  p[ParamId::MaterialPoissonRatio].value[row] = block.kind == MaterialBlock::Kind::Liquid ? 0.0 : block.poisson;
  p[ParamId::MaterialBulkModulus].value[row] = block.kind == MaterialBlock::Kind::Liquid ? block.bulk : 0.0;
  p[ParamId::MaterialViscosity].value[row] = block.kind == MaterialBlock::Kind::Liquid ? block.viscosity : 0.0;
  p[ParamId::MaterialFrictionAngle].value[row] = block.friction_angle;

  append_rows(p, ParamElement::MaterialPoint, static_cast<int>(total));
  const double volume = std::pow(spacing, dims);
  for (const std::array<double, 3>& x : positions) {
    const size_t q = size_t(mp.count());
    std::copy(x.begin(), x.end(), p[ParamId::PointPosition].value.begin() + std::ptrdiff_t(3 * q));
    p[ParamId::PointMass].value[q] = block.density * volume;
    p[ParamId::PointVolume].value[q] = volume;
    mp.material.push_back(material);
    mp.channel.push_back(-1);
  }
  return finish(std::move(edited), action);
}

}  // namespace

Result<Scene> add_material_block(const Scene& scene, const Vec3& corner, const Vec3& size, const MaterialBlock& block) {
  constexpr std::string_view action = "add material points";
  if (auto error = check_input(scene, action)) return *error;
  if (!finite(corner)) return fail(action, "found corner " + vec3_text(corner) + "; expected a finite point (m)");
  if (!(finite(size) && size[0] > 0 && size[1] > 0 && size[2] >= 0))
    return fail(action, "found size " + vec3_text(size) + "; expected x and y > 0 and z >= 0 (0: a 2D slice) (m)");
  if (auto error = check_block(action, block)) return *error;
  return fill_material(scene, action, corner, size, block, nullptr, "the box");
}

Result<Scene> add_material_mesh(const Scene& scene, const std::filesystem::path& path, double scale, const Vec3& offset,
                                bool slice, const MaterialBlock& block) {
  constexpr std::string_view action = "add material points";
  if (auto error = check_input(scene, action)) return *error;
  if (!(std::isfinite(scale) && scale > 0))
    return fail(action, "found scale " + number_text(scale) + "; expected a scale > 0");
  if (!finite(offset)) return fail(action, "found offset " + vec3_text(offset) + "; expected a finite point (m)");
  if (auto error = check_block(action, block)) return *error;
  Result<TriangleMesh> read = read_obj_mesh(path);
  if (!read) return fail(action, read.error().message);
  TriangleMesh mesh = std::move(*read);
  if (std::optional<std::string> open = open_mesh_problem(mesh))
    return fail(action, path.string() + ": " + *open + "; expected a closed surface (the points fill what it bounds)");
  Vec3 low{1e300, 1e300, 1e300}, high{-1e300, -1e300, -1e300};
  for (std::array<double, 3>& v : mesh.vertices)
    for (size_t k = 0; k < 3; ++k) {
      v[k] = v[k] * scale + offset[k];
      low[k] = std::min(low[k], v[k]), high[k] = std::max(high[k], v[k]);
    }
  // A 2D scene (or slice) fills the mesh's cross-section in the x-y plane: the grid's z,
  // else the offset's.
  const bool grid_2d = scene.material_points.enabled() && scene.material_points.dims == 2;
  const bool flat = slice || grid_2d;
  const double plane_z = grid_2d ? scene.material_points.origin[2] : offset[2];
  if (flat && !(plane_z > low[2] && plane_z < high[2]))
    return fail(action, "the plane z = " + number_text(plane_z) + " misses the mesh (z from " + number_text(low[2]) +
                            " to " + number_text(high[2]) + "); expected a plane through it");
  const Vec3 corner{low[0], low[1], flat ? plane_z : low[2]};
  const Vec3 size{high[0] - low[0], high[1] - low[1], flat ? 0.0 : high[2] - low[2]};
  return fill_material(scene, action, corner, size, block, &mesh, "the mesh's bounds");
}

}  // namespace nudge::studio::edits
