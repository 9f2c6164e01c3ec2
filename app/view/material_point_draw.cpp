// The material points (nudge/material_points.h) drawn as small spheres at the step, a
// quarter of a grid cell across, coloured by their material: liquids blue, solids in
// warm tones, one per material. Drawn after the particles, so that sphere i is still
// particle i.
#include <algorithm>

#include "view/draw_layers.h"

namespace nudge::view {

namespace {

render::Rgba material_color(MaterialModel model, size_t index) {
  if (model == MaterialModel::Liquid) return {0.25f, 0.55f, 0.95f, 1};
  constexpr render::Rgba kSolids[] = {{0.95f, 0.62f, 0.30f, 1}, {0.55f, 0.85f, 0.45f, 1}, {0.85f, 0.45f, 0.65f, 1}};
  return kSolids[index % 3];
}

}  // namespace

void draw_material_points(const DrawContext& context, render::DrawList& list) {
  const Scene& scene = context.scene;
  const MaterialPoints& mp = scene.material_points;
  if (!mp.enabled() || !context.options.particles) return;
  const int n = mp.count();
  const bool moving = context.traj && context.traj->points == n;
  const std::vector<double>& xyz = moving ? context.traj->point_x : scene.params[ParamId::PointPosition].value;
  const size_t offset = moving ? size_t(context.step) * size_t(n) * 3 : 0;
  const float radius = static_cast<float>(0.25 * mp.dx());
  list.spheres.reserve(list.spheres.size() + size_t(n));
  for (int p = 0; p < n; ++p) {
    const size_t m = size_t(mp.material[size_t(p)]);
    list.spheres.push_back({position(xyz, offset, p), radius, material_color(mp.materials[m].model, m)});
  }
}

}  // namespace nudge::view
