// The material points (nudge/material_points.h) drawn as small spheres at the step, a
// quarter of a grid cell across, coloured by their material: liquids blue, solids in
// warm tones, one per material; and their vessels' parts turned to the step's angle.
// Drawn after the particles, so that sphere i is still particle i.
#include <algorithm>
#include <cmath>

#include "nudge/quat.h"
#include "view/collider_mesh.h"
#include "view/draw_layers.h"

namespace nudge::view {

namespace {

render::Rgba material_color(MaterialModel model, size_t index) {
  if (model == MaterialModel::Liquid) return {0.25f, 0.55f, 0.95f, 1};
  if (model == MaterialModel::Sand) return {0.86f, 0.72f, 0.45f, 1};
  constexpr render::Rgba kSolids[] = {{0.95f, 0.62f, 0.30f, 1}, {0.55f, 0.85f, 0.45f, 1}, {0.85f, 0.45f, 0.65f, 1}};
  return kSolids[index % 3];
}

// A vessel's part turned by `angle` about its hinge.
ColliderShape turned_part(const MaterialVessel& vessel, const ColliderShape& part, double angle) {
  const Vec3<double> axis{vessel.axis[0], vessel.axis[1], vessel.axis[2]};
  const Vec3<double> pivot{vessel.pivot[0], vessel.pivot[1], vessel.pivot[2]};
  const Quat<double> turn = quat_from_axis_angle(axis, angle);
  ColliderShape out = part;
  const Vec3<double> at =
      pivot + rotate(turn, Vec3<double>{part.position[0], part.position[1], part.position[2]} - pivot);
  out.position[0] = at.x, out.position[1] = at.y, out.position[2] = at.z;
  const Quat<double> q =
      turn * Quat<double>{part.orientation[0], part.orientation[1], part.orientation[2], part.orientation[3]};
  out.orientation[0] = q.x, out.orientation[1] = q.y, out.orientation[2] = q.z, out.orientation[3] = q.w;
  return out;
}

void draw_vessels(const DrawContext& context, render::DrawList& list) {
  const MaterialPoints& mp = context.scene.material_points;
  if (!context.options.colliders) return;
  const int count = static_cast<int>(mp.vessels.size());
  const bool moving = context.traj && context.traj->vessels == count;
  const Bounds& bounds = context.options.bounds;
  for (int v = 0; v < count; ++v) {
    const MaterialVessel& vessel = mp.vessels[size_t(v)];
    const double angle =
        moving ? context.traj->vessel_angle[size_t(context.step) * size_t(count) + size_t(v)] : vessel.angle;
    for (const ColliderShape& part : vessel.parts)
      list.meshes.push_back(
          collider_mesh(turned_part(vessel, part, angle), bounds.center(), 2 * bounds.radius(), colors::kCollider));
  }
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
  draw_vessels(context, list);
}

}  // namespace nudge::view
