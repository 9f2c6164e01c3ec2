// The articulations' look: each link's shapes at its pose (forward kinematics of the
// motion's joint coordinates at the step, or of the initial q), a line from each link to
// its parent, each joint's axis through its anchor, and each limited joint's range.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <span>
#include <vector>

#include "nudge/convex_mesh.h"
#include "nudge/link_poses.h"
#include "nudge/quat.h"
#include "view/collider_mesh.h"
#include "view/draw_layers.h"

namespace nudge::view {

namespace {

Quat<double> quat_of(const double* q) { return {q[0], q[1], q[2], q[3]}; }

// The sphere that marks a link without shapes at its frame's origin.
float link_marker_radius(const SceneDrawOptions& options) { return 0.02f * options.bounds.radius(); }

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
    case LinkShape::Kind::Cylinder:  // picked by the capsule around it; drawn by cylinder_mesh
      c.type = ColliderType::Capsule;
      c.radius = s.size[0];
      c.half_length = s.size[1];
      turn = turn * Quat<double>{std::sqrt(0.5), 0, 0, std::sqrt(0.5)};
      break;
    case LinkShape::Kind::Sphere:
      c.type = ColliderType::Sphere;
      c.radius = s.size[0] > 0 ? s.size[0] : 0.03;
      break;
    case LinkShape::Kind::Mesh:  // drawn by its hull (draw_articulations); picked by the sphere around it
      c.type = ColliderType::Sphere;
      c.radius = 0.03;
      if (s.hull) {
        double r2 = 0;
        for (const std::array<double, 3>& v : s.hull->vertices) {
          const double x = v[0] * s.mesh_scale[0], y = v[1] * s.mesh_scale[1], z = v[2] * s.mesh_scale[2];
          r2 = std::max(r2, x * x + y * y + z * z);
        }
        c.radius = std::sqrt(r2);
      }
      break;
  }
  c.position[0] = at.x, c.position[1] = at.y, c.position[2] = at.z;
  c.orientation[0] = turn.x, c.orientation[1] = turn.y, c.orientation[2] = turn.z, c.orientation[3] = turn.w;
  return c;
}

using V = Vec3<double>;

V v3(const double* v) { return {v[0], v[1], v[2]}; }

// A unit vector across the unit axis a: toward d where d has a part across it.
V across(const V& a, const V& d) {
  const V part = d - dot(d, a) * a;
  if (length_squared(part) > 1e-18) return normalize(part);
  const V other = std::fabs(a.x) < 0.9 ? V{1, 0, 0} : V{0, 1, 0};
  return normalize(other - dot(other, a) * a);
}

// Link k's joint position entries at the step: the motion's, else its starting ones
// (link_q; a ball's link_rotation).
std::vector<double> joint_q_at(const Scene& scene, const Trajectory* traj, int step, int k) {
  const Articulations& a = scene.articulations;
  const int positions = articulation_position_count(a), at = articulation_positions(a)[size_t(k)];
  const int count = joint_position_count(a.links[size_t(k)].joint);
  if (traj && traj->positions == positions && positions > 0) {
    const double* q = &traj->joint_q[size_t(std::clamp(step, 0, traj->steps)) * size_t(positions) + size_t(at)];
    return {q, q + count};
  }
  if (a.links[size_t(k)].joint == ArticulationJoint::Ball) {
    const double* r = &scene.params[ParamId::LinkRotation].value[4 * size_t(k)];
    return {r, r + 4};
  }
  return {scene.params[ParamId::LinkJointPosition].value[size_t(k)]};
}

// Each limited joint's range about its anchor, `reach` long: a hinge's as an arc from its
// lower to its upper bound with a spoke at each (turned about its axis from where its
// centre of mass lies at the step), a slide's as a bar along its axis from bound to bound,
// a ball's cone as a rim with four spokes around the way its centre of mass points when
// the ball is not turned.
void add_joint_limits(const DrawContext& context, const std::vector<LinkPose>& poses, double reach,
                      render::LineBatch& lines) {
  const Scene& scene = context.scene;
  const Articulations& a = scene.articulations;
  constexpr int kSegments = 24;
  const auto segment = [&](const V& from, const V& to) {
    lines.points.push_back(vec(from));
    lines.points.push_back(vec(to));
  };
  for (size_t k = 0; k < a.links.size(); ++k) {
    const ArticulationLink& link = a.links[k];
    if (!link.limited) continue;
    const LinkPose& pose = poses[k];
    const Quat<double> turn = normalize(quat_of(pose.quat));
    const V anchor = v3(pose.anchor),
            com = v3(pose.pos) + rotate(turn, v3(&scene.params[ParamId::LinkCom].value[3 * k]));
    const std::vector<double> q = joint_q_at(scene, context.traj, context.step, int(k));
    if (link.joint == ArticulationJoint::Hinge) {
      const V axis = normalize(v3(pose.axis)), u = across(axis, com - anchor), w = cross(axis, u);
      const auto at = [&](double angle) {
        const double t = angle - q[0];
        return anchor + reach * (std::cos(t) * u + std::sin(t) * w);
      };
      for (int i = 0; i < kSegments; ++i) {
        const double f0 = double(i) / kSegments, f1 = double(i + 1) / kSegments;
        segment(at(link.range[0] + f0 * (link.range[1] - link.range[0])),
                at(link.range[0] + f1 * (link.range[1] - link.range[0])));
      }
      segment(anchor, at(link.range[0]));
      segment(anchor, at(link.range[1]));
    } else if (link.joint == ArticulationJoint::Slide) {
      const V axis = normalize(v3(pose.axis)), tick = 0.15 * reach * across(axis, com - anchor);
      const V low = anchor + (link.range[0] - q[0]) * axis, high = anchor + (link.range[1] - q[0]) * axis;
      segment(low, high);
      segment(low - tick, low + tick);
      segment(high - tick, high + tick);
    } else if (link.joint == ArticulationJoint::Ball) {
      // Not turned, the link's axes are its axes now turned back by the ball's rotation.
      const Quat<double> rest = turn * conjugate(normalize(quat_of(q.data())));
      const V centre = inverse_rotate(turn, com - anchor);  // the way to the centre of mass, in the link's axes
      const V dir = length_squared(centre) > 1e-18 ? normalize(rotate(rest, centre)) : rotate(rest, V{0, -1, 0});
      const V e1 = across(dir, V{1, 0, 0}), e2 = cross(dir, e1);
      const double cone = link.range[1];
      const auto rim = [&](double phi) {
        return anchor + reach * (std::cos(cone) * dir + std::sin(cone) * (std::cos(phi) * e1 + std::sin(phi) * e2));
      };
      const double step = 2 * std::numbers::pi / kSegments;
      for (int i = 0; i < kSegments; ++i) segment(rim(i * step), rim((i + 1) * step));
      for (int i = 0; i < 4; ++i) segment(anchor, rim(i * std::numbers::pi / 2));
    }
  }
}

// A link's shape at its pose and size, in one colour: a mesh as its hull (by its resized
// mesh_scale), a cylinder with its flat caps, the others as the collider shape they are.
render::Mesh link_shape_mesh(const LinkShape& shape, const ArticulationLink& link, const LinkPose& pose,
                             render::Rgba color) {
  const LinkShape resized = resized_link_shape(shape, link, pose.size);
  const ColliderShape placed = placed_shape(resized, pose);
  if (resized.kind == LinkShape::Kind::Mesh && resized.hull)
    return hull_mesh(*resized.hull, placed.position, placed.orientation, color, resized.mesh_scale);
  if (resized.kind == LinkShape::Kind::Cylinder)
    return cylinder_mesh(placed.radius, placed.half_length, placed.position, placed.orientation, color);
  return collider_mesh(placed, {0, 0, 0}, 0, color);
}

}  // namespace

bool has_collision_shapes(const Scene& scene) {
  for (const ArticulationLink& link : scene.articulations.links)
    if (drawn_shape_count(link) < static_cast<int>(link.shapes.size())) return true;
  return false;
}

std::vector<ColliderShape> placed_link_shapes(const Scene& scene, const LinkPose& pose, int k) {
  const ArticulationLink& link = scene.articulations.links[size_t(k)];
  std::vector<ColliderShape> placed;
  for (const LinkShape& s : link.shapes)
    if (s.drawn) placed.push_back(placed_shape(resized_link_shape(s, link, pose.size), pose));
  return placed;
}

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
  // The felt-only shapes first: first_link_mesh finds the drawn ones at the list's end.
  if (context.options.collision_shapes)
    for (size_t k = 0; k < a.links.size(); ++k)
      for (const LinkShape& shape : a.links[k].shapes)
        if (!shape.drawn) list.meshes.push_back(link_shape_mesh(shape, a.links[k], poses[k], colors::kCollisionShape));
  for (size_t k = 0; k < a.links.size(); ++k) {
    const ArticulationLink& link = a.links[k];
    const LinkPose& pose = poses[k];
    for (const LinkShape& shape : link.shapes) {
      if (shape.drawn) list.meshes.push_back(link_shape_mesh(shape, link, pose, rgba_of(shape.rgba)));
    }
    if (drawn_shape_count(link) == 0)  // a link drawn by its frame's origin
      list.spheres.push_back({vec(pose.pos), link_marker_radius(context.options), colors::kBody});
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
  render::LineBatch limits;
  limits.width_pixels = 1.5f;
  limits.colors = {{colors::kJoint.r, colors::kJoint.g, colors::kJoint.b, 0.6f}};
  add_joint_limits(context, poses, axis_length, limits);
  if (!limits.points.empty()) list.lines.push_back(std::move(limits));
}

std::optional<size_t> first_link_mesh(const Scene& scene, const render::DrawList& list) {
  size_t shapes = 0;
  for (const ArticulationLink& link : scene.articulations.links) shapes += size_t(drawn_shape_count(link));
  if (list.meshes.size() < shapes) return std::nullopt;
  return list.meshes.size() - shapes;
}

void add_link_highlight(render::DrawList& list, const Scene& scene, const Trajectory* traj, int step, int k,
                        const SceneDrawOptions& options, render::Rgba color) {
  const Articulations& a = scene.articulations;
  if (k < 0 || k >= a.link_count()) return;
  const LinkPose pose = link_poses_at(scene, traj, step)[size_t(k)];
  const ArticulationLink& link = a.links[size_t(k)];
  if (const std::optional<size_t> first = first_link_mesh(scene, list); first && options.bodies) {
    size_t at = *first;
    for (int j = 0; j < k; ++j) at += size_t(drawn_shape_count(a.links[size_t(j)]));
    for (int s = 0; s < drawn_shape_count(link); ++s) list.meshes[at + size_t(s)].colors = {color};
  }
  if (drawn_shape_count(link) == 0 || !options.bodies)
    list.spheres.push_back({vec(pose.pos), 1.6f * link_marker_radius(options), color});
  if (link.joint == ArticulationJoint::Weld) return;
  render::LineBatch axis;
  const float half = 0.8f * options.bounds.radius() / 8.0f;
  const glm::vec3 anchor = vec(pose.anchor), along = vec(pose.axis);
  axis.points = {anchor - half * along, anchor + half * along};
  axis.colors = {color};
  axis.width_pixels = 4.5f;
  list.lines.push_back(std::move(axis));
  list.spheres.push_back({anchor, 0.6f * link_marker_radius(options), color});
}

}  // namespace nudge::view
