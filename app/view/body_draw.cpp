// How bodies, joints and attachments look: their poses along a motion, their glyphs, and
// their layers of the scene's draw list (draw_layers.h).
#include <algorithm>
#include <cmath>

#include "view/collider_mesh.h"
#include "view/draw_layers.h"

namespace nudge::view {

BodyPose body_pose(const Scene& scene, const Trajectory* traj, int step, int b) {
  const bool moving = traj && traj->bodies == scene.body_count() && !traj->body_x.empty();
  const size_t at = moving ? size_t(std::clamp(step, 0, traj->steps)) * size_t(traj->bodies) + size_t(b) : size_t(b);
  const double* x = moving ? &traj->body_x[3 * at] : &scene.body_positions()[3 * at];
  const double* q = moving ? &traj->body_q[4 * at] : &scene.params[ParamId::BodyOrientation].value[4 * at];
  return {{x[0], x[1], x[2]}, normalize(Quat<double>{q[0], q[1], q[2], q[3]})};
}

namespace {

// Where a world point (or, with `direction`, a direction) given at the start, fixed in
// body b's frame from then on, is at `step`: how joints and attachments stay on bodies.
Vec3<double> carried(const Scene& scene, const Trajectory* traj, int step, int b, Vec3<double> at_start,
                     bool direction = false) {
  const BodyPose start = body_pose(scene, nullptr, 0, b), now = body_pose(scene, traj, step, b);
  if (direction) return rotate(now.q, inverse_rotate(start.q, at_start));
  return now.x + rotate(now.q, inverse_rotate(start.q, at_start - start.x));
}

// How near a body's surface comes to its centre: a marker at an anchor inside the body
// must reach that far to be seen.
double body_thickness(const Scene& scene, int b) {
  const RigidBody& body = scene.bodies[size_t(b)];
  const ShapeSize size = body_shape_size(body, scene.params, b);
  switch (body.shape) {
    case BodyShape::Box: return std::min({size[0], size[1], size[2]});
    case BodyShape::Sphere:
    case BodyShape::Capsule: return size[0];
    case BodyShape::Mesh: break;
  }
  double nearest = INFINITY;  // the nearest face plane
  for (const ConvexPlane& plane : body.mesh->hull.planes) nearest = std::min(nearest, plane.offset);
  return nearest;
}

// Joint j's marker sphere into `spheres` and its lines into `lines` (segments).
void add_joint_glyph(render::LineBatch& lines, std::vector<render::Sphere>& spheres, const Scene& scene,
                     const Trajectory* traj, int step, int j, const SceneDrawOptions& options, render::Rgba color,
                     float emphasis) {
  const Joint& joint = scene.joints[size_t(j)];
  const JointPlace place = joint_place(scene, traj, step, j);
  double thickest = 0;
  for (int b : {joint.parent, joint.child})
    if (b >= 0) thickest = std::max(thickest, body_thickness(scene, b));
  const float marker = emphasis * static_cast<float>(joint_marker_radius(scene, j, options.bounds));
  spheres.push_back({vec(place.child_anchor), marker, color});
  if (joint.parent >= 0) lines.points.insert(lines.points.end(), {vec(place.parent_center), vec(place.parent_anchor)});
  lines.points.insert(lines.points.end(), {vec(place.child_center), vec(place.child_anchor)});
  if (joint.type == JointType::Hinge || joint.type == JointType::Prismatic) {
    // Long enough to stick out of the thicker body on both sides; for a limited slide, at
    // least its whole range: the rail the child's anchor moves along.
    const float half = std::max(3.5f * marker, 1.4f * static_cast<float>(thickest));
    float from = -half, to = half;
    if (joint.type == JointType::Prismatic && joint.limited) {
      from = std::min(from, static_cast<float>(joint.lower));
      to = std::max(to, static_cast<float>(joint.upper));
    }
    const glm::vec3 at = vec(place.parent_anchor), along = vec(place.axis);
    lines.points.insert(lines.points.end(), {at + from * along, at + to * along});
  }
}

// The lines of one highlighted joint or attachment, in their own batch of `color`.
template <class AddGlyph>
render::LineBatch glyph_lines(render::Rgba color, float emphasis, AddGlyph add_glyph) {
  render::LineBatch lines;
  lines.width_pixels = 2.5f * emphasis;
  lines.colors = {color};
  add_glyph(lines);
  return lines;
}

// Attachment a's marker sphere into `spheres` and its line into `lines` (a segment).
void add_attachment_glyph(render::LineBatch& lines, std::vector<render::Sphere>& spheres, const Scene& scene,
                          const Trajectory* traj, int step, int a, const SceneDrawOptions& options, render::Rgba color,
                          float emphasis) {
  const AttachmentPlace place = attachment_place(scene, traj, step, a);
  // A little larger than the particle as drawn (its contact radius when it has one), so
  // that it shows around the particle while the spring holds it at the point.
  const int i = scene.attachments[size_t(a)].particle;
  const std::vector<double>& contact_radius = scene.particle_radii();
  const float particle = size_t(i) < contact_radius.size() && contact_radius[size_t(i)] > 0
                             ? static_cast<float>(contact_radius[size_t(i)])
                             : options.particle_radius;
  const float marker = emphasis * std::max(1.35f * particle, 0.01f * options.bounds.radius());
  spheres.push_back({vec(place.point), marker, color});
  lines.points.insert(lines.points.end(), {vec(place.particle), vec(place.point)});
}

}  // namespace

AttachmentPlace attachment_place(const Scene& scene, const Trajectory* traj, int step, int a) {
  const Attachment& attachment = scene.attachments[size_t(a)];
  const double* x0 = &scene.initial_positions()[3 * size_t(attachment.particle)];
  const BodyPose start = body_pose(scene, nullptr, 0, attachment.body);
  AttachmentPlace place;
  place.offset = inverse_rotate(start.q, Vec3<double>{x0[0], x0[1], x0[2]} - start.x);
  place.point = carried(scene, traj, step, attachment.body, {x0[0], x0[1], x0[2]});
  place.particle = {x0[0], x0[1], x0[2]};
  if (traj && traj->particles == scene.particle_count()) {
    const double* x =
        &traj->x[(size_t(std::clamp(step, 0, traj->steps)) * size_t(traj->particles) + size_t(attachment.particle)) *
                 3];
    place.particle = {x[0], x[1], x[2]};
  }
  return place;
}

void add_attachment(render::DrawList& list, const Scene& scene, const Trajectory* traj, int step, int a,
                    const SceneDrawOptions& options, render::Rgba color, float emphasis) {
  list.lines.push_back(glyph_lines(color, emphasis, [&](render::LineBatch& lines) {
    add_attachment_glyph(lines, list.spheres, scene, traj, step, a, options, color, emphasis);
  }));
}

double joint_marker_radius(const Scene& scene, int j, const Bounds& bounds) {
  const Joint& joint = scene.joints[size_t(j)];
  double thinnest = INFINITY;
  for (int b : {joint.parent, joint.child})
    if (b >= 0 && b < scene.body_count()) thinnest = std::min(thinnest, body_thickness(scene, b));
  const double size = bounds.radius();
  return std::clamp(1.3 * thinnest, 0.015 * size, 0.05 * size);
}

JointPlace joint_place(const Scene& scene, const Trajectory* traj, int step, int j) {
  const Joint& joint = scene.joints[size_t(j)];
  const double* a = &scene.joint_anchors()[3 * size_t(j)];
  const Vec3<double> anchor{a[0], a[1], a[2]};
  const Vec3<double> axis = normalize(Vec3<double>{joint.axis[0], joint.axis[1], joint.axis[2]});
  JointPlace place;
  place.parent_anchor = place.parent_center = place.child_anchor = place.child_center = anchor;
  place.axis = axis;
  // Each side keeps the anchor (the parent also the axis) where its initial pose put it in
  // its own frame.
  if (joint.parent >= 0) {
    place.parent_center = body_pose(scene, traj, step, joint.parent).x;
    place.parent_anchor = carried(scene, traj, step, joint.parent, anchor);
    place.axis = carried(scene, traj, step, joint.parent, axis, /*direction=*/true);
  }
  place.child_center = body_pose(scene, traj, step, joint.child).x;
  place.child_anchor = carried(scene, traj, step, joint.child, anchor);
  return place;
}

void add_joint(render::DrawList& list, const Scene& scene, const Trajectory* traj, int step, int j,
               const SceneDrawOptions& options, render::Rgba color, float emphasis) {
  list.lines.push_back(glyph_lines(color, emphasis, [&](render::LineBatch& lines) {
    add_joint_glyph(lines, list.spheres, scene, traj, step, j, options, color, emphasis);
  }));
}

// The bodies: a mesh each, at their pose, after the colliders.
void draw_bodies(const DrawContext& context, render::DrawList& list) {
  const Scene& scene = context.scene;
  const Trajectory* traj = context.traj;
  const int step = context.step;
  const SceneDrawOptions& options = context.options;
  if (options.bodies)
    for (int b = 0; b < scene.body_count(); ++b) {
      const BodyPose pose = body_pose(scene, traj, step, b);  // x and (x, y, z, w) laid out as arrays
      const RigidBody& body = scene.bodies[size_t(b)];
      list.meshes.push_back(
          body_mesh(body, body_shape_size(body, scene.params, b), &pose.x.x, &pose.q.x, colors::kBody));
    }
}

// After the particles, so that sphere i is still particle i.
void draw_joints(const DrawContext& context, render::DrawList& list) {
  const Scene& scene = context.scene;
  const Trajectory* traj = context.traj;
  const int step = context.step;
  const SceneDrawOptions& options = context.options;
  if (options.joints && scene.joint_count() > 0) {
    render::LineBatch lines;
    lines.width_pixels = 2.5f;
    lines.colors = {colors::kJoint};
    for (int j = 0; j < scene.joint_count(); ++j)
      add_joint_glyph(lines, list.spheres, scene, traj, step, j, options, colors::kJoint, 1);
    list.lines.push_back(std::move(lines));
  }
}

void draw_attachments(const DrawContext& context, render::DrawList& list) {
  const Scene& scene = context.scene;
  const Trajectory* traj = context.traj;
  const int step = context.step;
  const SceneDrawOptions& options = context.options;
  if (options.attachments && !scene.attachments.empty()) {
    render::LineBatch lines;
    lines.width_pixels = 2.5f;
    lines.colors = {colors::kJoint};
    for (int a = 0; a < static_cast<int>(scene.attachments.size()); ++a)
      add_attachment_glyph(lines, list.spheres, scene, traj, step, a, options, colors::kJoint, 1);
    list.lines.push_back(std::move(lines));
  }
}

}  // namespace nudge::view
