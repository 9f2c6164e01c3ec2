// The articulations' look: each link's shapes at its pose (forward kinematics of the
// motion's joint coordinates at the step, or of the initial q), a line from each link to
// its parent, and each joint's axis through its anchor.
#include <algorithm>
#include <cmath>
#include <span>

#include "nudge/link_poses.h"
#include "nudge/quat.h"
#include "view/collider_mesh.h"
#include "view/draw_layers.h"

namespace nudge::view {

namespace {

Quat<double> quat_of(const double* q) { return {q[0], q[1], q[2], q[3]}; }

render::Rgba rgba_of(const double* c) {
  return {static_cast<float>(c[0]), static_cast<float>(c[1]), static_cast<float>(c[2]), static_cast<float>(c[3])};
}

// A link's shape placed in the world: the collider shapes draw a capsule along their y,
// MJCF's capsules and cylinders lie along z, so those turn by 90 degrees about x first.
ColliderShape placed_shape(const LinkShape& s, const LinkPose& pose) {
  ColliderShape c;
  const Quat<double> link = quat_of(pose.quat);
  const Vec3<double> at =
      Vec3<double>{pose.pos[0], pose.pos[1], pose.pos[2]} + rotate(link, Vec3<double>{s.pos[0], s.pos[1], s.pos[2]});
  Quat<double> turn = link * normalize(quat_of(s.quat));
  switch (s.kind) {
    case LinkShape::Kind::Box:
      c.type = ColliderType::Box;
      for (int k = 0; k < 3; ++k) c.half_extents[k] = s.size[k];
      break;
    case LinkShape::Kind::Capsule:
    case LinkShape::Kind::Cylinder:  // drawn as a capsule for now
      c.type = ColliderType::Capsule;
      c.radius = s.size[0];
      c.half_length = s.size[1];
      turn = turn * Quat<double>{std::sqrt(0.5), 0, 0, std::sqrt(0.5)};
      break;
    case LinkShape::Kind::Sphere:
    case LinkShape::Kind::Mesh:  // its file is not drawn yet: a sphere of its first size
      c.type = ColliderType::Sphere;
      c.radius = s.size[0] > 0 ? s.size[0] : 0.03;
      break;
  }
  c.position[0] = at.x, c.position[1] = at.y, c.position[2] = at.z;
  c.orientation[0] = turn.x, c.orientation[1] = turn.y, c.orientation[2] = turn.z, c.orientation[3] = turn.w;
  return c;
}

}  // namespace

std::vector<LinkPose> link_poses_at(const Scene& scene, const Trajectory* traj, int step) {
  const int positions = articulation_position_count(scene.articulations);
  if (!traj || traj->positions != positions || positions == 0) return link_poses(scene);
  const size_t at = size_t(std::clamp(step, 0, traj->steps)) * size_t(positions);
  return link_poses(scene, std::span<const double>(traj->joint_q.data() + at, size_t(positions)));
}

void draw_articulations(const DrawContext& context, render::DrawList& list) {
  const Scene& scene = context.scene;
  if (!context.options.bodies || scene.articulations.empty()) return;
  const std::vector<LinkPose> poses = link_poses_at(scene, context.traj, context.step);
  const Articulations& a = scene.articulations;
  render::LineBatch lines;
  lines.width_pixels = 2.5f;
  lines.colors = {colors::kJoint};
  const float axis_length = 0.6f * context.options.bounds.radius() / 8.0f;
  for (size_t k = 0; k < a.links.size(); ++k) {
    const ArticulationLink& link = a.links[k];
    const LinkPose& pose = poses[k];
    for (const LinkShape& s : link.shapes)
      list.meshes.push_back(
          collider_mesh(placed_shape(resized_link_shape(s, link, pose.size), pose), {0, 0, 0}, 0, rgba_of(s.rgba)));
    if (link.shapes.empty())  // a link drawn by its frame's origin
      list.spheres.push_back({vec(pose.pos), 0.02f * context.options.bounds.radius(), colors::kBody});
    if (link.parent >= 0) {
      lines.points.push_back(vec(poses[size_t(link.parent)].pos));
      lines.points.push_back(vec(pose.pos));
    }
    if (link.joint != ArticulationJoint::Weld) {
      const glm::vec3 anchor = vec(pose.anchor), axis = vec(pose.axis);
      lines.points.push_back(anchor - axis_length * axis);
      lines.points.push_back(anchor + axis_length * axis);
    }
  }
  list.lines.push_back(std::move(lines));
}

}  // namespace nudge::view
