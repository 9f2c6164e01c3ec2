// Material point generators (scene_edits.h): a box filled with liquid, sand or a soft
// solid, as new material points of a new material (Edit > Add > Liquid, Sand, Soft Solid).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

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

}  // namespace

Result<Scene> add_material_block(const Scene& scene, const Vec3& corner, const Vec3& size, const MaterialBlock& block) {
  constexpr std::string_view action = "add material points";
  if (auto error = check_input(scene, action)) return *error;
  if (!finite(corner)) return fail(action, "found corner " + vec3_text(corner) + "; expected a finite point (m)");
  if (!(finite(size) && size[0] > 0 && size[1] > 0 && size[2] >= 0))
    return fail(action, "found size " + vec3_text(size) + "; expected x and y > 0 and z >= 0 (0: a 2D slice) (m)");
  if (auto error = check_block(action, block)) return *error;

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
  const long long total = counts[0] * counts[1] * counts[2];
  if (total > kMaxGeneratedParticles)
    return fail(action, "found " + std::to_string(total) +
                            " points (2 per grid cell along each axis); expected at "
                            "most " +
                            std::to_string(kMaxGeneratedParticles) + ": a smaller box");
  // Inside the grid, clear of its walls (a point there is held).
  const double wall = (mp.wall_cells + 0.5) * mp.dx();
  for (int k = 0; k < dims; ++k)
    if (corner[size_t(k)] < mp.origin[k] + wall || corner[size_t(k)] + size[size_t(k)] > mp.origin[k] + mp.size - wall)
      return fail(action, "the box from " + vec3_text(corner) + " to " +
                              vec3_text({corner[0] + size[0], corner[1] + size[1], corner[2] + size[2]}) +
                              " reaches outside the material points' grid (from " +
                              vec3_text({mp.origin[0], mp.origin[1], mp.origin[2]}) + ", side " + number_text(mp.size) +
                              " m, less its walls); expected a box inside it");

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
  for (long long i = 0; i < counts[0]; ++i)
    for (long long j = 0; j < counts[1]; ++j)
      for (long long l = 0; l < counts[2]; ++l) {
        const size_t q = size_t(mp.count());
        const double x[3] = {corner[0] + (double(i) + 0.5) * spacing, corner[1] + (double(j) + 0.5) * spacing,
                             dims == 3 ? corner[2] + (double(l) + 0.5) * spacing : mp.origin[2]};
        std::copy(x, x + 3, p[ParamId::PointPosition].value.begin() + std::ptrdiff_t(3 * q));
        p[ParamId::PointMass].value[q] = block.density * volume;
        p[ParamId::PointVolume].value[q] = volume;
        mp.material.push_back(material);
        mp.channel.push_back(-1);
      }
  return finish(std::move(edited), action);
}

}  // namespace nudge::studio::edits
