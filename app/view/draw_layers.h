// Each family's look, as scene_draw_list draws it: a layer function per family that adds
// its part of the scene to the draw list, listed once in scene_draw.cpp in drawing order.
// The order is part of the list's layout (soft_mesh_places counts the meshes before the
// cloth; the particles' spheres come first, so that sphere i is particle i). The bodies'
// layers are in body_draw.cpp, the objectives' in objective_draw.cpp, the particles' and
// the elements' in scene_draw.cpp.
#pragma once

#include <cstddef>
#include <vector>

#include "nudge/link_poses.h"
#include "view/scene_draw.h"

namespace nudge::view {

// Point i of xyz triples that start at `offset`, in float.
inline glm::vec3 position(const std::vector<double>& xyz, size_t offset, int i) {
  const size_t at = offset + 3 * size_t(i);
  return {static_cast<float>(xyz[at]), static_cast<float>(xyz[at + 1]), static_cast<float>(xyz[at + 2])};
}

inline glm::vec3 vec(const double* v) {
  return {static_cast<float>(v[0]), static_cast<float>(v[1]), static_cast<float>(v[2])};
}

inline glm::vec3 vec(Vec3<double> v) {
  return {static_cast<float>(v.x), static_cast<float>(v.y), static_cast<float>(v.z)};
}

// What every layer draws from: the scene at one step of its motion.
struct DrawContext {
  const Scene& scene;
  const Trajectory* traj;  // null: the initial positions
  int step;                // clamped to the motion's steps
  const SceneDrawOptions& options;
  const std::vector<double>& xyz;      // the particles' positions: traj->x, or the initial ones
  size_t offset;                       // where this step's start in xyz
  std::vector<double> channel_values;  // what each channel carries at the step, when shown
};

// A family's layer: adds what it draws of the scene to the list.
using DrawLayer = void (*)(const DrawContext& context, render::DrawList& list);

// body_draw.cpp
void draw_bodies(const DrawContext& context, render::DrawList& list);
void draw_joints(const DrawContext& context, render::DrawList& list);
void draw_attachments(const DrawContext& context, render::DrawList& list);
// objective_draw.cpp
void draw_objectives(const DrawContext& context, render::DrawList& list);
// material_point_draw.cpp
void draw_material_points(const DrawContext& context, render::DrawList& list);
// articulation_draw.cpp (link_poses_at and placed_link_shapes: scene_draw.h)
void draw_articulations(const DrawContext& context, render::DrawList& list);

}  // namespace nudge::view
