#include "view/scene_draw.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "nudge/objective_facts.h"
#include "view/actuator_arrows.h"
#include "view/collider_mesh.h"

namespace nudge::view {

namespace {

constexpr size_t kMaxErrorLines = 200;
constexpr size_t kMaxMarkerTracks = 64;  // more hide the scene

glm::vec3 position(const std::vector<double>& xyz, size_t offset, int i) {
  const size_t at = offset + 3 * size_t(i);
  return {static_cast<float>(xyz[at]), static_cast<float>(xyz[at + 1]), static_cast<float>(xyz[at + 2])};
}

glm::vec3 vec(const double* v) {
  return {static_cast<float>(v[0]), static_cast<float>(v[1]), static_cast<float>(v[2])};
}

// 1, 2 or 5 times a power of ten, near `x`: grid spacings a person reads easily.
float nice_step(float x) {
  const float decade = std::pow(10.0f, std::floor(std::log10(std::max(x, 1e-6f))));
  for (float m : {1.0f, 2.0f, 5.0f})
    if (m * decade >= x) return m * decade;
  return 10.0f * decade;
}

glm::vec3 centroid(const std::vector<int>& particles, const std::vector<double>& xyz, size_t offset) {
  glm::vec3 c{0, 0, 0};
  for (int p : particles) c += position(xyz, offset, p);
  return particles.empty() ? c : c / static_cast<float>(particles.size());
}

// The whole reference track of each bound marker (faint green), and the path its particle
// takes in the motion at the marker frames (faint white): where they part, the fit is off.
void add_marker_tracks(render::DrawList& list, const Objective& o, const Trajectory* traj) {
  std::map<int, std::vector<std::pair<int, glm::vec3>>> track_of;  // marker: (frame, position)
  for (const MarkerSample& sample : o.samples) track_of[sample.marker].emplace_back(sample.frame, vec(sample.position));
  int drawn = 0;
  for (const auto& [marker, particle] : o.bind) {
    const auto it = track_of.find(marker);
    if (it == track_of.end() || it->second.size() < 2 || drawn++ >= int(kMaxMarkerTracks)) continue;
    std::vector<std::pair<int, glm::vec3>> samples = it->second;
    std::sort(samples.begin(), samples.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    render::LineBatch reference;
    reference.strip = true;
    reference.width_pixels = 1.5f;
    reference.colors = {colors::kReferenceTrack};
    render::LineBatch simulated = reference;
    simulated.colors = {colors::kSimulatedTrack};
    for (const auto& [frame, where] : samples) {
      reference.points.push_back(where);
      const int step = frame * std::max(o.steps_per_frame, 1);
      if (traj && step <= traj->steps)
        simulated.points.push_back(position(traj->x, size_t(step) * size_t(traj->particles) * 3, particle));
    }
    list.lines.push_back(std::move(reference));
    if (simulated.points.size() >= 2) list.lines.push_back(std::move(simulated));
  }
}

glm::vec3 vec(Vec3<double> v) { return {static_cast<float>(v.x), static_cast<float>(v.y), static_cast<float>(v.z)}; }

}  // namespace

BodyPose body_pose(const Scene& scene, const Trajectory* traj, int step, int b) {
  const bool moving = traj && traj->bodies == scene.body_count() && !traj->body_x.empty();
  const size_t at = moving ? size_t(std::clamp(step, 0, traj->steps)) * size_t(traj->bodies) + size_t(b) : size_t(b);
  const double* x = moving ? &traj->body_x[3 * at] : &scene.params[ParamId::BodyPosition].value[3 * at];
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
  const std::vector<double>& contact_radius = scene.params[ParamId::ParticleRadius].value;
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
  const double* x0 = &scene.params[ParamId::InitialPosition].value[3 * size_t(attachment.particle)];
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

SoftMeshPlaces soft_mesh_places(const Scene& scene, const SceneDrawOptions& options) {
  int next =
      (options.colliders ? static_cast<int>(scene.colliders.size()) : 0) + (options.bodies ? scene.body_count() : 0);
  SoftMeshPlaces places;
  if (options.triangles && scene.triangle_count() > 0) places.cloth = next++;
  if (options.tets && scene.tet_count() > 0) places.tets = next++;
  return places;
}

JointPlace joint_place(const Scene& scene, const Trajectory* traj, int step, int j) {
  const Joint& joint = scene.joints[size_t(j)];
  const double* a = &scene.params[ParamId::JointAnchor].value[3 * size_t(j)];
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

glm::vec3 particle_position(const Scene& scene, const Trajectory* traj, int step, int i) {
  if (!traj) return position(scene.params[ParamId::InitialPosition].value, 0, i);
  return position(traj->x, size_t(std::clamp(step, 0, traj->steps)) * size_t(traj->particles) * 3, i);
}

float Bounds::radius() const { return std::max(0.5f * glm::length(hi - lo), 0.05f); }

// How far the largest body reaches from its centre: an arrow from a body's centre must
// be longer than that to be seen.
float largest_body_reach(const Scene& scene) {
  float reach = 0;
  for (int b = 0; b < scene.body_count(); ++b) {
    const RigidBody& body = scene.bodies[size_t(b)];
    reach = std::max(reach, float(body_reach(body, body_shape_size(body, scene.params, b))));
  }
  return reach;
}

Bounds scene_bounds(const Scene& scene, const Trajectory* traj) {
  const std::vector<double>& xyz = traj ? traj->x : scene.params[ParamId::InitialPosition].value;
  // Bodies' centres too, with their own reach around them.
  const std::vector<double>& body_x =
      traj && traj->bodies == scene.body_count() ? traj->body_x : scene.params[ParamId::BodyPosition].value;
  const float reach = largest_body_reach(scene);
  Bounds b;
  if (xyz.size() + body_x.size() < 3) return b;
  b.lo = glm::vec3(std::numeric_limits<float>::max());
  b.hi = glm::vec3(std::numeric_limits<float>::lowest());
  const auto include = [&](const std::vector<double>& points, float margin) {
    for (size_t k = 0; k < points.size() / 3; ++k) {
      const glm::vec3 p = position(points, 0, static_cast<int>(k));
      if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) continue;
      b.lo = glm::min(b.lo, p - glm::vec3(margin));
      b.hi = glm::max(b.hi, p + glm::vec3(margin));
    }
  };
  include(xyz, 0);
  include(body_x, reach);
  include(scene.params[ParamId::JointAnchor].value, 0);  // a pivot in the world may be off every body
  if (b.lo.x > b.hi.x) b.lo = b.hi = glm::vec3(0);       // nothing finite
  return b;
}

render::Camera framing_camera(const Bounds& bounds, float aspect, float fov_y_degrees) {
  render::Camera camera;
  camera.fov_y_degrees = fov_y_degrees;
  const float half_y = glm::radians(fov_y_degrees) * 0.5f;
  const float half_x = std::atan(std::tan(half_y) * std::max(aspect, 0.1f));
  const float distance = 1.15f * bounds.radius() / std::sin(std::min(half_x, half_y));
  const glm::vec3 direction = glm::normalize(glm::vec3(0.55f, 0.45f, 1.0f));
  camera.target = bounds.center();
  camera.eye = camera.target + distance * direction;
  camera.near_plane = std::max(1e-4f, distance * 1e-3f);
  camera.far_plane = distance * 100.0f;
  return camera;
}

render::Camera scene_camera(const Scene& scene, const Bounds& bounds, float aspect) {
  if (!scene.camera.set) return framing_camera(bounds, aspect);
  render::Camera camera;
  camera.eye = vec(scene.camera.eye);
  camera.target = vec(scene.camera.target);
  camera.fov_y_degrees = static_cast<float>(scene.camera.fov_degrees);
  const float distance = glm::length(camera.eye - camera.target);
  camera.near_plane = std::max(1e-4f, distance * 1e-3f);
  camera.far_plane = std::max(distance, bounds.radius()) * 100.0f;
  return camera;
}

float default_particle_radius(const Scene& scene, const Bounds& bounds) {
  std::vector<double> rest = scene.params[ParamId::RestLength].value;
  // A cloth without springs: its triangles' edges at the start give the spacing.
  const std::vector<double>& x = scene.params[ParamId::InitialPosition].value;
  if (rest.empty())
    for (size_t t = 0; t + 2 < scene.triangles.size(); t += 3)
      for (size_t e = 0; e < 3; ++e) {
        const size_t a = size_t(scene.triangles[t + e]) * 3, b = size_t(scene.triangles[t + (e + 1) % 3]) * 3;
        rest.push_back(std::hypot(x[a] - x[b], x[a + 1] - x[b + 1], x[a + 2] - x[b + 2]));
      }
  // A soft body without springs or triangles: its tets' edges at the start.
  if (rest.empty())
    for (size_t t = 0; t + 3 < scene.tets.size(); t += 4)
      for (size_t a = 0; a < 4; ++a)
        for (size_t b = a + 1; b < 4; ++b) {
          const size_t i = size_t(scene.tets[t + a]) * 3, j = size_t(scene.tets[t + b]) * 3;
          rest.push_back(std::hypot(x[i] - x[j], x[i + 1] - x[j + 1], x[i + 2] - x[j + 2]));
        }
  const float cap = 0.04f * bounds.radius() + 1e-3f;
  if (rest.empty()) return cap;
  std::nth_element(rest.begin(), rest.begin() + rest.size() / 2, rest.end());
  return std::clamp(0.22f * static_cast<float>(rest[rest.size() / 2]), 1e-3f, cap);
}

SceneDrawOptions scene_draw_options(const Scene& scene, const Trajectory* traj, float aspect) {
  SceneDrawOptions options;
  options.bounds = scene_bounds(scene, traj);
  options.camera = scene_camera(scene, options.bounds, aspect);
  options.particle_radius = default_particle_radius(scene, options.bounds);
  if (scene.tet_count() > 0) options.tet_surface = std::make_shared<const TetSurface>(tet_surface(scene));
  return options;
}

render::DrawList scene_draw_list(const Scene& scene, const Trajectory* traj, int step,
                                 const SceneDrawOptions& options) {
  render::DrawList list;
  list.camera = options.camera;
  const int n = scene.particle_count();
  const int steps = traj ? traj->steps : 0;
  step = std::clamp(step, 0, steps);
  const std::vector<double>& xyz = traj ? traj->x : scene.params[ParamId::InitialPosition].value;
  const size_t offset = traj ? size_t(step) * n * 3 : 0;
  const Bounds& bounds = options.bounds;
  const float radius = options.particle_radius;

  // The grid on the ground, or just under the lowest point when there is no ground.
  list.grid.visible = options.grid;
  list.grid.height =
      scene.settings.ground.enabled ? static_cast<float>(scene.settings.ground.height) : bounds.lo.y - radius;
  list.grid.spacing = nice_step(bounds.radius() / 4);
  list.grid.half_lines = std::clamp(static_cast<int>(std::ceil(3 * bounds.radius() / list.grid.spacing)), 8, 60);

  // What each channel carries at this step (the controls, plus a controller's outputs):
  // the muscles' colours and the actuators' arrows; one evaluation of the network.
  const bool shows_channels =
      (options.springs && scene.spring_count() > 0) || (options.actuators && !scene.actuators.empty());
  const std::vector<double> carried = shows_channels ? channel_values_at(scene, traj, step) : std::vector<double>{};

  if (options.springs && scene.spring_count() > 0) {
    render::LineBatch passive, muscles;
    passive.width_pixels = 1.5f;
    muscles.width_pixels = 3.0f;
    float largest = 0;  // the largest |actuation * control| at this step, for the legend
    auto signal = [&](int s) {
      const int ch = scene.spring_channel[s];
      if (ch < 0) return 0.0f;
      return static_cast<float>(scene.actuation[s] * carried[size_t(ch)]);
    };
    for (int s = 0; s < scene.spring_count(); ++s)
      if (scene.spring_channel[s] >= 0) largest = std::max(largest, std::fabs(signal(s)));
    const float range = largest > 0 ? largest : 1.0f;
    for (int s = 0; s < scene.spring_count(); ++s) {
      const glm::vec3 a = position(xyz, offset, scene.spring_a[s]), b = position(xyz, offset, scene.spring_b[s]);
      if (scene.spring_channel[s] < 0) {
        passive.points.insert(passive.points.end(), {a, b});
        continue;
      }
      // Muscles: blue when the control shortens the spring, red when it lengthens it.
      const render::Rgba c = render::map_value(render::ColorMap::Diverging, signal(s), -range, range);
      muscles.points.insert(muscles.points.end(), {a, b});
      muscles.colors.insert(muscles.colors.end(), {c, c});
    }
    passive.colors = {colors::kSpring};
    if (!passive.points.empty()) list.lines.push_back(std::move(passive));
    if (!muscles.points.empty()) {
      list.lines.push_back(std::move(muscles));
      list.legends.push_back({render::ColorMap::Diverging, -range, range, "muscle: actuation x control"});
    }
  }

  if (options.colliders)
    for (const ColliderShape& shape : scene.colliders)
      list.meshes.push_back(collider_mesh(shape, bounds.center(), 2 * bounds.radius(), colors::kCollider));

  if (options.bodies)
    for (int b = 0; b < scene.body_count(); ++b) {
      const BodyPose pose = body_pose(scene, traj, step, b);  // x and (x, y, z, w) laid out as arrays
      const RigidBody& body = scene.bodies[size_t(b)];
      list.meshes.push_back(
          body_mesh(body, body_shape_size(body, scene.params, b), &pose.x.x, &pose.q.x, colors::kBody));
    }

  // Cloth: every triangle over its particles' positions, lit on both sides (after the
  // colliders and bodies, whose meshes keep their places).
  if (options.triangles && scene.triangle_count() > 0) {
    render::Mesh cloth;
    cloth.positions.reserve(size_t(n));
    for (int i = 0; i < n; ++i) cloth.positions.push_back(position(xyz, offset, i));
    cloth.indices.assign(scene.triangles.begin(), scene.triangles.end());
    cloth.colors = {colors::kCloth};
    list.meshes.push_back(std::move(cloth));
  }

  // Soft bodies: the boundary faces of the tets over all the particles (the inner ones
  // are hidden inside), after the cloth.
  if (options.tets && scene.tet_count() > 0) {
    TetSurface made;
    const TetSurface* surface = options.tet_surface.get();
    if (!surface || !surface->matches(scene)) surface = &(made = tet_surface(scene));
    render::Mesh soft;
    soft.positions.reserve(size_t(n));
    for (int i = 0; i < n; ++i) soft.positions.push_back(position(xyz, offset, i));
    soft.indices = surface->indices;
    soft.colors = {colors::kSoft};
    list.meshes.push_back(std::move(soft));
  }

  if (options.particles) {
    // A particle with a collision radius is drawn at that size, so contact looks right.
    const std::vector<double>& contact_radius = scene.params[ParamId::ParticleRadius].value;
    list.spheres.reserve(n);
    // A cloth's or soft body's particles small, so that its surface shows between them.
    std::vector<unsigned char> on_cloth(size_t(n), 0);
    if (options.triangles)
      for (int corner : scene.triangles) on_cloth[size_t(corner)] = 1;
    if (options.tets)
      for (int corner : scene.tets) on_cloth[size_t(corner)] = 1;
    for (int i = 0; i < n; ++i) {
      const float r = size_t(i) < contact_radius.size() && contact_radius[i] > 0 ? static_cast<float>(contact_radius[i])
                      : on_cloth[size_t(i)]                                      ? 0.3f * radius
                                                                                 : radius;
      list.spheres.push_back({position(xyz, offset, i), r, scene.pinned[i] ? colors::kPinned : colors::kParticle});
    }
  }

  // After the particles, so that sphere i is still particle i.
  if (options.joints && scene.joint_count() > 0) {
    render::LineBatch lines;
    lines.width_pixels = 2.5f;
    lines.colors = {colors::kJoint};
    for (int j = 0; j < scene.joint_count(); ++j)
      add_joint_glyph(lines, list.spheres, scene, traj, step, j, options, colors::kJoint, 1);
    list.lines.push_back(std::move(lines));
  }
  if (options.attachments && !scene.attachments.empty()) {
    render::LineBatch lines;
    lines.width_pixels = 2.5f;
    lines.colors = {colors::kJoint};
    for (int a = 0; a < static_cast<int>(scene.attachments.size()); ++a)
      add_attachment_glyph(lines, list.spheres, scene, traj, step, a, options, colors::kJoint, 1);
    list.lines.push_back(std::move(lines));
  }

  if (options.actuators) add_actuator_arrows(list, scene, traj, step, carried, options);

  if (options.objectives) {
    render::LineBatch errors;
    errors.width_pixels = 1.5f;
    errors.colors = {colors::kError};
    auto target_at = [&](glm::vec3 goal, glm::vec3 from) {
      list.spheres.push_back({goal, 0.7f * radius, colors::kTarget});
      errors.points.insert(errors.points.end(), {from, goal});
    };
    // Each part of an objective's layout that has a place in the scene is drawn there:
    // its target, its reference markers, its direction (the velocity, the controls and
    // footage tracks have none; tracks are drawn over the plate, through its camera).
    const bool moving_bodies = traj && traj->bodies == scene.body_count();
    const auto body_at = [&](int b) {
      return moving_bodies ? position(traj->body_x, size_t(step) * traj->bodies * 3, b)
                           : position(scene.params[ParamId::BodyPosition].value, 0, b);
    };
    for (const Objective& o : scene.objectives) {
      const ObjectiveLayout& layout = objective_layout(o.type);
      if (layout.target == ObjectiveTarget::Position && o.target.size() == 3) {
        // The centroid of the term's particles and bodies, as the engine takes it.
        glm::vec3 c = centroid(o.particles, xyz, offset) * static_cast<float>(o.particles.size());
        for (int b : o.bodies) c += body_at(b);
        const size_t count = o.particles.size() + o.bodies.size();
        target_at(vec(o.target.data()), count ? c / static_cast<float>(count) : c);
      }
      if (layout.target == ObjectiveTarget::PerParticle)
        for (size_t k = 0; k < o.particles.size() && 3 * k + 2 < o.target.size(); ++k)
          target_at(vec(&o.target[3 * k]), position(xyz, offset, o.particles[k]));
      if (layout.binding == ObjectiveBinding::MarkerFile) {
        add_marker_tracks(list, o, traj);
        // The marker frame at or before this step.
        const int frame = step / std::max(o.steps_per_frame, 1);
        std::map<int, int> particle_of(o.bind.begin(), o.bind.end());
        for (const MarkerSample& sample : o.samples) {
          if (sample.frame != frame) continue;
          const auto it = particle_of.find(sample.marker);
          if (it != particle_of.end()) target_at(vec(sample.position), position(xyz, offset, it->second));
        }
      }
      if (layout.direction && !o.particles.empty()) {  // the way the particles should go, from their start
        render::ArrowBatch arrow;
        arrow.origins = {centroid(o.particles, xyz, 0)};
        arrow.vectors = {glm::normalize(vec(o.direction)) * bounds.radius() * 0.5f};
        arrow.colors = {colors::kTarget};
        list.arrows.push_back(std::move(arrow));
      }
      if (layout.direction && !o.bodies.empty()) {  // the way each body's axis should point, from its centre
        render::ArrowBatch arrow;
        for (int b : o.bodies) {
          arrow.origins.push_back(body_at(b));
          arrow.vectors.push_back(glm::normalize(vec(o.direction)) * bounds.radius() * 0.3f);
          arrow.colors.push_back(colors::kTarget);
        }
        list.arrows.push_back(std::move(arrow));
      }
    }
    // Past a few hundred, error lines hide the scene; the targets alone still show the goal.
    if (!errors.points.empty() && errors.points.size() <= 2 * kMaxErrorLines) list.lines.push_back(std::move(errors));
  }
  return list;
}

}  // namespace nudge::view
