#include "view/picking.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <set>

#include <glm/gtc/quaternion.hpp>

#include "nudge/objective_facts.h"

namespace nudge::view {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

glm::dvec3 dvec(const double* v) { return {v[0], v[1], v[2]}; }
glm::dvec3 dvec(glm::vec3 v) { return {v.x, v.y, v.z}; }
glm::dvec3 dvec(Vec3<double> v) { return {v.x, v.y, v.z}; }

// The first point at or after the ray's origin where it meets a surface, from the
// parameters of its entry and exit (entry <= exit).
std::optional<double> first_crossing(double entry, double exit) {
  if (entry > exit || exit < 0) return std::nullopt;
  return entry >= 0 ? entry : exit;
}

std::optional<double> ray_sphere(const Ray& ray, glm::dvec3 center, double r) {
  const glm::dvec3 oc = ray.origin - center;
  const double b = glm::dot(oc, ray.direction), c = glm::dot(oc, oc) - r * r;
  const double disc = b * b - c;
  if (disc < 0) return std::nullopt;
  const double root = std::sqrt(disc);
  return first_crossing(-b - root, -b + root);
}

// An axis-aligned box of half extents e about the origin (the ray in its frame).
std::optional<double> ray_box(const Ray& ray, glm::dvec3 e) {
  double entry = -kInf, exit = kInf;
  for (int k = 0; k < 3; ++k) {
    const double o = ray.origin[k], d = ray.direction[k];
    if (std::fabs(d) < 1e-300) {
      if (o < -e[k] || o > e[k]) return std::nullopt;
      continue;
    }
    double t0 = (-e[k] - o) / d, t1 = (e[k] - o) / d;
    if (t0 > t1) std::swap(t0, t1);
    entry = std::max(entry, t0);
    exit = std::min(exit, t1);
  }
  return first_crossing(entry, exit);
}

// A capsule about the origin: radius r around the segment from (0, -h, 0) to (0, h, 0).
std::optional<double> ray_capsule(const Ray& ray, double r, double h) {
  double best = kInf;
  const auto consider = [&](double t, bool valid) {
    if (valid && t >= 0) best = std::min(best, t);
  };
  // The side: x^2 + z^2 = r^2 with |y| <= h.
  const glm::dvec2 o{ray.origin.x, ray.origin.z}, d{ray.direction.x, ray.direction.z};
  const double a = glm::dot(d, d);
  if (a > 1e-300) {
    const double b = glm::dot(o, d), c = glm::dot(o, o) - r * r, disc = b * b - a * c;
    if (disc >= 0)
      for (double sign : {-1.0, 1.0}) {
        const double t = (-b + sign * std::sqrt(disc)) / a;
        consider(t, std::fabs(ray.origin.y + t * ray.direction.y) <= h);
      }
  }
  // The caps: the outer half of each end's sphere.
  for (double end : {-1.0, 1.0}) {
    const glm::dvec3 oc = ray.origin - glm::dvec3(0, end * h, 0);
    const double b = glm::dot(oc, ray.direction), c = glm::dot(oc, oc) - r * r, disc = b * b - c;
    if (disc < 0) continue;
    for (double sign : {-1.0, 1.0}) {
      const double t = -b + sign * std::sqrt(disc);
      consider(t, end * (ray.origin.y + t * ray.direction.y) >= h);
    }
  }
  if (best == kInf) return std::nullopt;
  return best;
}

// A convex hull given by its face planes (the ray in its frame).
std::optional<double> ray_convex(const Ray& ray, const std::vector<ConvexPlane>& planes) {
  if (planes.empty()) return std::nullopt;
  double entry = -kInf, exit = kInf;
  for (const ConvexPlane& plane : planes) {
    const glm::dvec3 n = dvec(plane.normal);
    const double outside = glm::dot(n, ray.origin) - plane.offset, rate = glm::dot(n, ray.direction);
    if (std::fabs(rate) < 1e-300) {
      if (outside > 0) return std::nullopt;
      continue;
    }
    const double t = -outside / rate;
    if (rate < 0)
      entry = std::max(entry, t);
    else
      exit = std::min(exit, t);
  }
  return first_crossing(entry, exit);
}

// Where the ray meets triangle (a, b, c) from either side (Moller and Trumbore's test).
std::optional<double> ray_triangle(const Ray& ray, glm::dvec3 a, glm::dvec3 b, glm::dvec3 c) {
  const glm::dvec3 ab = b - a, ac = c - a;
  const glm::dvec3 p = glm::cross(ray.direction, ac);
  const double det = glm::dot(ab, p);
  if (std::abs(det) < 1e-300) return std::nullopt;  // the ray runs along its plane (or it has no area)
  const glm::dvec3 s = ray.origin - a;
  const double u = glm::dot(s, p) / det;
  if (u < 0 || u > 1) return std::nullopt;
  const glm::dvec3 q = glm::cross(s, ab);
  const double v = glm::dot(ray.direction, q) / det;
  if (v < 0 || u + v > 1) return std::nullopt;
  const double t = glm::dot(ac, q) / det;
  if (t <= 0) return std::nullopt;
  return t;
}

glm::dquat quat_xyzw(const double* q) { return glm::normalize(glm::dquat(q[3], q[0], q[1], q[2])); }

// The ray in the frame of a shape placed at `position`, turned by `orientation`.
Ray local_ray(const Ray& ray, glm::dvec3 position, glm::dquat orientation) {
  const glm::dquat inverse = glm::conjugate(orientation);
  return {inverse * (ray.origin - position), inverse * ray.direction};
}

std::optional<double> ray_body(const Ray& ray, const Scene& scene, int b, const BodyPlacement& place) {
  const RigidBody& body = scene.bodies[size_t(b)];
  const ShapeSize size = body_shape_size(body, scene.params, b);
  const glm::dvec4 q = place.orientation;
  const Ray local = local_ray(ray, place.position, glm::dquat(q.w, q.x, q.y, q.z));
  switch (body.shape) {
    case BodyShape::Sphere: return ray_sphere(local, {0, 0, 0}, size[0]);
    case BodyShape::Box: return ray_box(local, {size[0], size[1], size[2]});
    case BodyShape::Capsule: return ray_capsule(local, size[0], size[1]);
    case BodyShape::Mesh: return body.mesh ? ray_convex(local, body.mesh->hull.planes) : std::nullopt;
  }
  return std::nullopt;
}

std::optional<double> ray_collider(const Ray& ray, const ColliderShape& shape, const Bounds& bounds) {
  if (shape.type == ColliderType::Plane) {
    // The square patch collider_mesh draws: centred at the point of the plane nearest the
    // bounds' centre, 2 x the bounds' radius from its centre to each side.
    const glm::dvec3 n = glm::normalize(dvec(shape.normal));
    const double rate = glm::dot(n, ray.direction);
    if (std::fabs(rate) < 1e-12) return std::nullopt;
    const double t = (shape.offset - glm::dot(n, ray.origin)) / rate;
    if (t < 0) return std::nullopt;
    const glm::dvec3 c = dvec(bounds.center());
    const glm::dvec3 center = c - (glm::dot(n, c) - shape.offset) * n;
    const glm::dvec3 helper = std::fabs(n.x) < 0.9 ? glm::dvec3(1, 0, 0) : glm::dvec3(0, 1, 0);
    const glm::dvec3 t1 = glm::normalize(glm::cross(helper, n)), t2 = glm::cross(n, t1);
    const glm::dvec3 from_center = ray.at(t) - center;
    const double half = 2.0 * static_cast<double>(bounds.radius());
    if (std::fabs(glm::dot(from_center, t1)) > half || std::fabs(glm::dot(from_center, t2)) > half) return std::nullopt;
    return t;
  }
  const Ray local = local_ray(ray, dvec(shape.position), quat_xyzw(shape.orientation));
  switch (shape.type) {
    case ColliderType::Box: return ray_box(local, dvec(shape.half_extents));
    case ColliderType::Sphere: return ray_sphere(local, {0, 0, 0}, shape.radius);
    case ColliderType::Capsule: return ray_capsule(local, shape.radius, shape.half_length);
    case ColliderType::Plane: break;
  }
  return std::nullopt;
}

// The best pick so far, by the rule pick() describes.
class Chooser {
public:
  Chooser(const ViewportProjector& projector, const Ray& ray, double tolerance_pixels)
      : projector_(projector), ray_(ray), tolerance_(tolerance_pixels) {}

  // An element the ray meets at t (bodies, colliders).
  void exact(Pick::Kind kind, int index, std::optional<double> t, int row = -1) {
    if (!t || *t >= exact_t_) return;
    exact_ = make(kind, index, row, *t);
    exact_t_ = *t;
    exact_small_ = false;
  }
  // A small sphere: exact when the ray meets it, else a near miss within tolerance.
  void small(Pick::Kind kind, int index, glm::dvec3 center, double radius, int row = -1) {
    const glm::dvec3 oc = center - ray_.origin;
    const double along = glm::dot(oc, ray_.direction);
    if (projector_.depth(center) <= 0 || along <= 0) return;
    const double off = std::sqrt(std::max(glm::dot(oc, oc) - along * along, 0.0));
    if (off <= radius) {
      const double t = std::max(along - std::sqrt(radius * radius - off * off), 0.0);
      if (t < exact_t_) {
        exact_ = make(kind, index, row, t);
        exact_t_ = t;
        exact_small_ = true;
      }
      return;
    }
    const double miss = (off - radius) / projector_.pixel_size(projector_.depth(center));
    if (miss > tolerance_) return;
    near_.push_back({make(kind, index, row, along), miss});
  }
  // A plane's patch: only when nothing else is hit.
  void last(Pick::Kind kind, int index, std::optional<double> t) {
    if (t && *t < last_t_) {
      last_ = make(kind, index, -1, *t);
      last_t_ = *t;
    }
  }

  std::optional<Pick> result() const {
    if (exact_ && exact_small_) return exact_;
    const NearMiss* best = nullptr;
    for (const NearMiss& n : near_)
      if (n.pick.distance < exact_t_ &&
          (!best || n.miss < best->miss || (n.miss == best->miss && n.pick.distance < best->pick.distance)))
        best = &n;
    if (best) return best->pick;
    if (exact_) return exact_;
    return last_;
  }

private:
  struct NearMiss {
    Pick pick;
    double miss;  // pixels
  };
  Pick make(Pick::Kind kind, int index, int row, double t) const {
    Pick p;
    p.kind = kind;
    p.index = index;
    p.row = row;
    p.distance = t;
    p.point = ray_.at(t);
    return p;
  }

  const ViewportProjector& projector_;
  Ray ray_;
  double tolerance_;
  std::optional<Pick> exact_, last_;
  double exact_t_ = kInf, last_t_ = kInf;
  bool exact_small_ = false;
  std::vector<NearMiss> near_;
};

}  // namespace

ViewportProjector::ViewportProjector(const render::Camera& camera, PixelRect viewport)
    : camera_(camera), viewport_(viewport) {
  viewport_.width = std::max(viewport_.width, 1.0);
  viewport_.height = std::max(viewport_.height, 1.0);
  eye_ = dvec(camera.eye);
  // glm::lookAtRH's basis, in double precision.
  forward_ = glm::normalize(dvec(camera.target) - eye_);
  right_ = glm::normalize(glm::cross(forward_, dvec(camera.up)));
  up_ = glm::cross(right_, forward_);
  tan_half_y_ = std::tan(glm::radians(static_cast<double>(camera.fov_y_degrees)) / 2);
}

double ViewportProjector::depth(glm::dvec3 world) const { return glm::dot(world - eye_, forward_); }

std::optional<glm::dvec2> ViewportProjector::to_pixel(glm::dvec3 world) const {
  const glm::dvec3 v = world - eye_;
  const double z = glm::dot(v, forward_);
  if (!(z > 1e-6 * static_cast<double>(camera_.near_plane))) return std::nullopt;
  // Normalised device coordinates as projection_matrix gives them (y down).
  const double ndc_x = glm::dot(v, right_) / (z * tan_half_y_ * aspect());
  const double ndc_y = -glm::dot(v, up_) / (z * tan_half_y_);
  return glm::dvec2{viewport_.x + (ndc_x * 0.5 + 0.5) * viewport_.width,
                    viewport_.y + (ndc_y * 0.5 + 0.5) * viewport_.height};
}

Ray ViewportProjector::ray(glm::dvec2 pixel) const {
  const double ndc_x = (pixel.x - viewport_.x) / viewport_.width * 2 - 1;
  const double ndc_y = (pixel.y - viewport_.y) / viewport_.height * 2 - 1;
  const glm::dvec3 d = forward_ + (ndc_x * tan_half_y_ * aspect()) * right_ - (ndc_y * tan_half_y_) * up_;
  return {eye_, glm::normalize(d)};
}

double ViewportProjector::pixel_size(double depth) const {
  return 2 * std::fabs(depth) * tan_half_y_ / viewport_.height;
}

bool ViewportProjector::contains(glm::dvec2 pixel) const {
  return pixel.x >= viewport_.x && pixel.y >= viewport_.y && pixel.x < viewport_.x + viewport_.width &&
         pixel.y < viewport_.y + viewport_.height;
}

BodyPlacement body_placement(const Scene& scene, const Trajectory* traj, int step, int b) {
  const BodyPose pose = body_pose(scene, traj, step, b);
  return {dvec(pose.x), {pose.q.x, pose.q.y, pose.q.z, pose.q.w}};
}

namespace {

// The trajectory for particles: null (the initial positions) when it does not match the scene.
const Trajectory* particle_traj(const Scene& scene, const Trajectory* traj) {
  return traj && traj->particles == scene.particle_count() &&
                 traj->x.size() >= size_t(traj->steps + 1) * size_t(traj->particles) * 3
             ? traj
             : nullptr;
}

}  // namespace

namespace {

// What every pick layer works from: the scene at the step shown, the ray under the cursor,
// and the chooser that keeps the nearest hit.
struct PickContext {
  const Scene& scene;
  const Trajectory* traj;    // for bodies and joints
  const Trajectory* moving;  // for particles: null when it does not match the scene
  int step;
  const SceneDrawOptions& options;
  const Ray& ray;
  Chooser& chooser;
  glm::dvec3 particle(int i) const { return dvec(particle_position(scene, moving, step, i)); }
};

// A family's pick layer: offers its elements, as scene_draw_list draws them, to the chooser.
using PickLayer = void (*)(const PickContext& context);

void pick_particles(const PickContext& c) {
  if (!c.options.particles) return;
  const std::vector<double>& contact_radius = c.scene.particle_radii();
  for (int i = 0; i < c.scene.particle_count(); ++i) {
    const double r = size_t(i) < contact_radius.size() && contact_radius[size_t(i)] > 0 ? contact_radius[size_t(i)]
                                                                                        : c.options.particle_radius;
    c.chooser.small(Pick::Kind::Particle, i, c.particle(i), r);
  }
}

void pick_bodies(const PickContext& c) {
  if (!c.options.bodies) return;
  for (int b = 0; b < c.scene.body_count(); ++b)
    c.chooser.exact(Pick::Kind::Body, b, ray_body(c.ray, c.scene, b, body_placement(c.scene, c.traj, c.step, b)));
}

void pick_colliders(const PickContext& c) {
  if (!c.options.colliders) return;
  for (int i = 0; i < static_cast<int>(c.scene.colliders.size()); ++i) {
    const ColliderShape& shape = c.scene.colliders[size_t(i)];
    const std::optional<double> t = ray_collider(c.ray, shape, c.options.bounds);
    if (shape.type == ColliderType::Plane)
      c.chooser.last(Pick::Kind::Collider, i, t);
    else
      c.chooser.exact(Pick::Kind::Collider, i, t);
  }
}

void pick_triangles(const PickContext& c) {
  if (!c.options.triangles) return;
  for (int t = 0; t < c.scene.triangle_count(); ++t) {
    const int* k = &c.scene.triangles[3 * size_t(t)];
    c.chooser.exact(Pick::Kind::Triangle, t, ray_triangle(c.ray, c.particle(k[0]), c.particle(k[1]), c.particle(k[2])));
  }
}

// A soft body's boundary face picks the tet behind it.
void pick_tets(const PickContext& c) {
  if (!c.options.tets || c.scene.tet_count() == 0) return;
  // The faces scene_draw_list draws: the options' surface when it is this scene's.
  std::shared_ptr<const TetSurface> surface = c.options.tet_surface;
  if (!surface || !surface->matches(c.scene)) surface = std::make_shared<const TetSurface>(tet_surface(c.scene));
  for (int f = 0; f < surface->face_count(); ++f) {
    const std::uint32_t* k = &surface->indices[3 * size_t(f)];
    c.chooser.exact(Pick::Kind::Tet, surface->face_tet[size_t(f)],
                    ray_triangle(c.ray, c.particle(int(k[0])), c.particle(int(k[1])), c.particle(int(k[2]))));
  }
}

void pick_joints(const PickContext& c) {
  if (!c.options.joints) return;
  for (int j = 0; j < c.scene.joint_count(); ++j)
    c.chooser.small(Pick::Kind::Joint, j, dvec(joint_place(c.scene, c.traj, c.step, j).child_anchor),
                    joint_marker_radius(c.scene, j, c.options.bounds));
}

// A link's shapes as drawn, exactly; a link without shapes by the sphere at its origin.
void pick_links(const PickContext& c) {
  if (!c.options.bodies || c.scene.articulations.empty()) return;
  const std::vector<LinkPose> poses = link_poses_at(c.scene, c.traj, c.step);
  for (int k = 0; k < c.scene.articulations.link_count(); ++k) {
    const LinkPose& pose = poses[size_t(k)];
    if (drawn_shape_count(c.scene.articulations.links[size_t(k)]) == 0) {
      c.chooser.small(Pick::Kind::Link, k, glm::dvec3(pose.pos[0], pose.pos[1], pose.pos[2]),
                      0.02 * c.options.bounds.radius());
      continue;
    }
    std::optional<double> nearest;
    for (const ColliderShape& shape : placed_link_shapes(c.scene, pose, k))
      if (const std::optional<double> t = ray_collider(c.ray, shape, c.options.bounds);
          t && (!nearest || *t < *nearest))
        nearest = t;
    c.chooser.exact(Pick::Kind::Link, k, nearest);
  }
}

// The handles scene_draw shows, from each kind's layout: a target, one per particle, the
// bound markers' samples at this step's frame.
void pick_objectives(const PickContext& c) {
  if (!c.options.objectives) return;
  const double target_radius = 0.7 * c.options.particle_radius;
  for (int o = 0; o < static_cast<int>(c.scene.objectives.size()); ++o) {
    const Objective& objective = c.scene.objectives[size_t(o)];
    const ObjectiveLayout& layout = objective_layout(objective.type);
    if (layout.target == ObjectiveTarget::Position && objective.target.size() >= 3)
      c.chooser.small(Pick::Kind::Objective, o, dvec(objective.target.data()), target_radius);
    if (layout.target == ObjectiveTarget::PerParticle)
      for (size_t k = 0; k < objective.particles.size() && 3 * k + 2 < objective.target.size(); ++k)
        c.chooser.small(Pick::Kind::Objective, o, dvec(&objective.target[3 * k]), target_radius, int(k));
    if (layout.binding == ObjectiveBinding::MarkerFile) {
      const int frame = c.step / std::max(objective.steps_per_frame, 1);
      std::set<int> bound;
      for (const auto& [marker, p] : objective.bind) bound.insert(marker);
      for (size_t k = 0; k < objective.samples.size(); ++k) {
        const MarkerSample& sample = objective.samples[k];
        if (sample.frame == frame && bound.count(sample.marker))
          c.chooser.small(Pick::Kind::Objective, o, dvec(sample.position), target_radius, int(k));
      }
    }
  }
}

// Every family's pick layer. The chooser keeps the nearest hit; of two at the same distance,
// the one offered first.
constexpr PickLayer kPickLayers[] = {pick_particles, pick_bodies, pick_colliders,  pick_triangles,
                                     pick_tets,      pick_joints, pick_objectives, pick_links};

}  // namespace

std::optional<Pick> pick(const Scene& scene, const Trajectory* traj, int step, const SceneDrawOptions& options,
                         const ViewportProjector& projector, glm::dvec2 mouse, PickTolerance tolerance) {
  if (!projector.contains(mouse)) return std::nullopt;
  const Trajectory* moving = particle_traj(scene, traj);
  step = std::clamp(step, 0, moving ? moving->steps : 0);
  const Ray ray = projector.ray(mouse);
  Chooser chooser(projector, ray, tolerance.pixels);
  const PickContext context{scene, traj, moving, step, options, ray, chooser};
  for (PickLayer layer : kPickLayers) layer(context);
  return chooser.result();
}

BoxSelection box_select(const Scene& scene, const Trajectory* traj, int step, const ViewportProjector& projector,
                        glm::dvec2 corner_a, glm::dvec2 corner_b) {
  const glm::dvec2 lo = glm::min(corner_a, corner_b), hi = glm::max(corner_a, corner_b);
  const auto inside = [&](glm::dvec3 world) {
    const std::optional<glm::dvec2> p = projector.to_pixel(world);
    return p && p->x >= lo.x && p->y >= lo.y && p->x <= hi.x && p->y <= hi.y;
  };
  const Trajectory* moving = particle_traj(scene, traj);
  BoxSelection selection;
  for (int i = 0; i < scene.particle_count(); ++i)
    if (inside(dvec(particle_position(scene, moving, moving ? std::clamp(step, 0, moving->steps) : 0, i))))
      selection.particles.push_back(i);
  for (int b = 0; b < scene.body_count(); ++b)
    if (inside(body_placement(scene, traj, step, b).position)) selection.bodies.push_back(b);
  return selection;
}

}  // namespace nudge::view
