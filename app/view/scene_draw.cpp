#include "view/scene_draw.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "nudge/objective_facts.h"
#include "view/actuator_arrows.h"
#include "view/collider_mesh.h"
#include "view/draw_layers.h"

namespace nudge::view {

namespace {

// 1, 2 or 5 times a power of ten, near `x`: grid spacings a person reads easily.
float nice_step(float x) {
  const float decade = std::pow(10.0f, std::floor(std::log10(std::max(x, 1e-6f))));
  for (float m : {1.0f, 2.0f, 5.0f})
    if (m * decade >= x) return m * decade;
  return 10.0f * decade;
}

// The springs: passive ones in one colour, muscles by what their channel carries.
void draw_springs(const DrawContext& context, render::DrawList& list) {
  const Scene& scene = context.scene;
  const SceneDrawOptions& options = context.options;
  const std::vector<double>& xyz = context.xyz;
  const size_t offset = context.offset;
  const std::vector<double>& carried = context.channel_values;
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
}

// The colliders: a mesh each, in the scene's order (soft_mesh_places counts on it).
void draw_colliders(const DrawContext& context, render::DrawList& list) {
  const Scene& scene = context.scene;
  const SceneDrawOptions& options = context.options;
  const Bounds& bounds = options.bounds;
  if (options.colliders)
    for (const ColliderShape& shape : scene.colliders)
      list.meshes.push_back(collider_mesh(shape, bounds.center(), 2 * bounds.radius(), colors::kCollider));
}

// A lit mesh over every particle at the step: the cloth's triangles, the soft bodies' faces.
render::Mesh particle_mesh(const DrawContext& context, render::Rgba color) {
  render::Mesh mesh;
  const int n = context.scene.particle_count();
  mesh.positions.reserve(size_t(n));
  for (int i = 0; i < n; ++i) mesh.positions.push_back(position(context.xyz, context.offset, i));
  mesh.colors = {color};
  return mesh;
}

// Cloth: every triangle over its particles' positions, lit on both sides (after the
// colliders and bodies, whose meshes keep their places).
void draw_cloth(const DrawContext& context, render::DrawList& list) {
  const Scene& scene = context.scene;
  if (!context.options.triangles || scene.triangle_count() == 0) return;
  render::Mesh cloth = particle_mesh(context, colors::kCloth);
  cloth.indices.assign(scene.triangles.begin(), scene.triangles.end());
  list.meshes.push_back(std::move(cloth));
}

// Soft bodies: the boundary faces of the tets over all the particles (the inner ones
// are hidden inside), after the cloth.
void draw_soft_bodies(const DrawContext& context, render::DrawList& list) {
  const Scene& scene = context.scene;
  if (!context.options.tets || scene.tet_count() == 0) return;
  TetSurface made;
  const TetSurface* surface = context.options.tet_surface.get();
  if (!surface || !surface->matches(scene)) surface = &(made = tet_surface(scene));
  render::Mesh soft = particle_mesh(context, colors::kSoft);
  soft.indices = surface->indices;
  list.meshes.push_back(std::move(soft));
}

void draw_particles(const DrawContext& context, render::DrawList& list) {
  const Scene& scene = context.scene;
  const SceneDrawOptions& options = context.options;
  const int n = scene.particle_count();
  const std::vector<double>& xyz = context.xyz;
  const size_t offset = context.offset;
  const float radius = options.particle_radius;
  if (options.particles) {
    // A particle with a collision radius is drawn at that size, so contact looks right.
    const std::vector<double>& contact_radius = scene.particle_radii();
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
}

// The actuators: arrows of what each pushes with at the step (view/actuator_arrows.h).
void draw_actuators(const DrawContext& context, render::DrawList& list) {
  const Scene& scene = context.scene;
  const Trajectory* traj = context.traj;
  const int step = context.step;
  const SceneDrawOptions& options = context.options;
  const std::vector<double>& carried = context.channel_values;
  if (options.actuators) add_actuator_arrows(list, scene, traj, step, carried, options);
}

// The layers in drawing order: a family's look is one entry here.
constexpr DrawLayer kLayers[] = {draw_springs,     draw_colliders,  draw_bodies,          draw_cloth,
                                 draw_soft_bodies, draw_particles,  draw_joints,          draw_attachments,
                                 draw_actuators,   draw_objectives, draw_material_points, draw_articulations};

}  // namespace

SoftMeshPlaces soft_mesh_places(const Scene& scene, const SceneDrawOptions& options) {
  int next =
      (options.colliders ? static_cast<int>(scene.colliders.size()) : 0) + (options.bodies ? scene.body_count() : 0);
  SoftMeshPlaces places;
  if (options.triangles && scene.triangle_count() > 0) places.cloth = next++;
  if (options.tets && scene.tet_count() > 0) places.tets = next++;
  return places;
}

glm::vec3 particle_position(const Scene& scene, const Trajectory* traj, int step, int i) {
  if (!traj) return position(scene.initial_positions(), 0, i);
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
  const std::vector<double>& xyz = traj ? traj->x : scene.initial_positions();
  // Bodies' centres too, with their own reach around them.
  const std::vector<double>& body_x =
      traj && traj->bodies == scene.body_count() ? traj->body_x : scene.body_positions();
  const float reach = largest_body_reach(scene);
  Bounds b;
  const std::vector<double>& material_points = traj && traj->points == scene.material_points.count()
                                                   ? traj->point_x
                                                   : scene.params[ParamId::PointPosition].value;
  // An empty scene (File > New): the room around the origin where Edit > Add puts things.
  if (xyz.size() + body_x.size() + material_points.size() < 3) return Bounds{glm::vec3(-1, 0, -1), glm::vec3(1, 2, 1)};
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
  include(material_points, 0);
  // The material points' vessels: each part's centre, with its reach (a plane has neither).
  for (const MaterialVessel& vessel : scene.material_points.vessels)
    for (const ColliderShape& part : vessel.parts) {
      if (part.type == ColliderType::Plane) continue;
      const double part_reach = part.type == ColliderType::Box
                                    ? std::hypot(part.half_extents[0], part.half_extents[1], part.half_extents[2])
                                    : part.radius + (part.type == ColliderType::Capsule ? part.half_length : 0.0);
      include({part.position[0], part.position[1], part.position[2]}, static_cast<float>(part_reach));
    }
  include(body_x, reach);
  include(scene.joint_anchors(), 0);  // a pivot in the world may be off every body
  // The links' frames along the motion (some 200 steps of it), with their shapes' reach.
  if (!scene.articulations.empty()) {
    double shape_reach = 0;
    const std::vector<LinkPose> rest = link_poses(scene);
    for (size_t k = 0; k < rest.size(); ++k)
      for (const LinkShape& shape : scene.articulations.links[k].shapes) {
        const LinkShape s = resized_link_shape(shape, scene.articulations.links[k], rest[k].size);
        shape_reach = std::max(shape_reach, std::hypot(s.pos[0], s.pos[1], s.pos[2]) + s.size[0] + s.size[1]);
      }
    const int steps = traj ? traj->steps : 0, stride = std::max(1, steps / 200);
    for (int t = 0; t <= steps; t += stride)
      for (const LinkPose& pose : link_poses_at(scene, traj, t))
        include({pose.pos[0], pose.pos[1], pose.pos[2]}, static_cast<float>(shape_reach));
  }
  // Where the objectives want things to be: framing shows the goal with the motion.
  for (const Objective& o : scene.objectives) {
    const ObjectiveTarget target = objective_layout(o.type).target;
    if (target == ObjectiveTarget::Position || target == ObjectiveTarget::PerParticle) include(o.target, 0);
    for (const MarkerSample& sample : o.samples)
      include({sample.position[0], sample.position[1], sample.position[2]}, 0);
  }
  if (b.lo.x > b.hi.x) b.lo = b.hi = glm::vec3(0);  // nothing finite
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
  const std::vector<double>& x = scene.initial_positions();
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
  const std::vector<double>& xyz = traj ? traj->x : scene.initial_positions();
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
  std::vector<double> carried = shows_channels ? channel_values_at(scene, traj, step) : std::vector<double>{};

  const DrawContext context{scene, traj, step, options, xyz, offset, std::move(carried)};
  for (DrawLayer layer : kLayers) layer(context, list);
  return list;
}

}  // namespace nudge::view
