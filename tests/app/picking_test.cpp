// The viewport's mouse geometry: world to window pixels as the renderer projects, the ray
// under a pixel, picking each kind of element (nearest the eye, small ones with a few
// pixels of slack, planes last) and box selection.
#include <doctest/doctest.h>

#include <cmath>
#include <memory>
#include <numbers>

#include "nudge/convex_mesh.h"
#include "nudge/render/camera.h"
#include "view/picking.h"
#include "view/scene_draw.h"

using namespace nudge;
using view::Pick;

namespace {

constexpr view::PixelRect kViewport{10, 20, 400, 300};

render::Camera camera_at(glm::vec3 eye, glm::vec3 target = {0, 0, 0}) {
  render::Camera camera;
  camera.eye = eye;
  camera.target = target;
  camera.fov_y_degrees = 45;
  camera.near_plane = 0.01f;
  camera.far_plane = 100;
  return camera;
}

glm::dvec2 pixel_of(const view::ViewportProjector& projector, glm::dvec3 world) {
  const std::optional<glm::dvec2> p = projector.to_pixel(world);
  REQUIRE(p);
  return *p;
}

void set_row(std::vector<double>& values, int row, std::initializer_list<double> v) {
  std::copy(v.begin(), v.end(), values.begin() + std::ptrdiff_t(row) * std::ptrdiff_t(v.size()));
}

RigidBody body_of(BodyShape shape) {
  RigidBody body;
  body.shape = shape;
  return body;
}

// A tetrahedron with corners at the origin and 1 along each axis, as a mesh body (its
// centre of mass, (0.25, 0.25, 0.25), at the body's origin).
std::shared_ptr<const BodyMesh> tetrahedron() {
  std::vector<std::array<double, 3>> points = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  for (auto& p : points)
    for (double& c : p) c -= 0.25;
  Result<ConvexMesh> hull = convex_hull(points);
  REQUIRE(hull.ok());
  auto mesh = std::make_shared<BodyMesh>();
  mesh->hull = std::move(*hull);
  return mesh;
}

// Seen from (0, 0, 6) looking at the origin:
//  bodies: 0 a box (half 0.5) at the origin, 1 a sphere (0.3) at (-2, 0, 0), 2 a capsule
//    (radius 0.15, half length 0.5) at (2, 0, 0) turned to lie along x, 3 a tetrahedron
//    at (0, 2, 0);
//  particles: 0 at (0, 0, 1) in front of the box, 1 at (0.2, -0.1, -1.5) behind it, 2 alone at
//    (-1, 1.2, 0), 3 at (1, -1.3, 0) with contact radius 0.2, 4 under the ground at (1.5, -3.2, -3);
//  colliders: 0 the plane y = -3, 1 a sphere (0.3) at (-2, -1.5, 0), 2 a box at (2, -1.5, 0);
//  joint 0 from the world to the box at its corner (0.5, 0.5, 0.5);
//  objectives: 0 a target at (1.2, 1.2, 0.3), 1 positions for particles 2 and 3 at
//    (-1.4, 0.6, 0) and (1.4, 0.8, 0).
Scene picking_scene() {
  Scene scene;
  scene.settings.steps = 1;
  scene.bodies = {body_of(BodyShape::Box), body_of(BodyShape::Sphere), body_of(BodyShape::Capsule),
                  body_of(BodyShape::Mesh)};
  scene.bodies[3].mesh = tetrahedron();
  scene.pinned = {0, 0, 0, 0, 0};
  scene.params[ParamId::InitialPosition].value = {0, 0, 1, 0.2, -0.1, -1.5, -1, 1.2, 0, 1, -1.3, 0, 1.5, -3.2, -3};
  Joint joint;
  joint.type = JointType::Ball;
  joint.parent = -1;
  joint.child = 0;
  scene.joints = {joint};
  shape_parameters(scene);
  set_body_shape_size(scene.params, scene.bodies[0], 0, {0.5, 0.5, 0.5});
  set_body_shape_size(scene.params, scene.bodies[1], 1, {0.3, 0, 0});
  set_body_shape_size(scene.params, scene.bodies[2], 2, {0.15, 0.5, 0});
  scene.params[ParamId::BodyPosition].value = {0, 0, 0, -2, 0, 0, 2, 0, 0, 0, 2, 0};
  std::vector<double>& q = scene.params[ParamId::BodyOrientation].value;
  const double s = std::sin(std::numbers::pi / 4), c = std::cos(std::numbers::pi / 4);
  for (int b = 0; b < 4; ++b) set_row(q, b, {0, 0, 0, 1});
  set_row(q, 2, {0, 0, s, c});  // a quarter turn about z: the capsule's y axis along -x
  scene.params[ParamId::ParticleRadius].value = {0, 0, 0, 0.2, 0};
  scene.params[ParamId::JointAnchor].value = {0.5, 0.5, 0.5};

  ColliderShape ground;
  ground.type = ColliderType::Plane;
  ground.offset = -3;
  ColliderShape ball;
  ball.type = ColliderType::Sphere;
  ball.radius = 0.3;
  ball.position_from({-2, -1.5, 0});
  ColliderShape crate;
  crate.type = ColliderType::Box;
  crate.half_extents[0] = 0.3, crate.half_extents[1] = 0.2, crate.half_extents[2] = 0.3;
  crate.position_from({2, -1.5, 0});
  scene.colliders = {ground, ball, crate};

  Objective target;
  target.type = ObjectiveType::Target;
  target.particles = {0};
  target.target = {1.2, 1.2, 0.3};
  Objective positions;
  positions.type = ObjectiveType::Positions;
  positions.particles = {2, 3};
  positions.target = {-1.4, 0.6, 0, 1.4, 0.8, 0};
  scene.objectives = {target, positions};
  return scene;
}

view::SceneDrawOptions options_for(const Scene& scene, const render::Camera& camera) {
  view::SceneDrawOptions options = view::scene_draw_options(scene, nullptr, float(kViewport.width / kViewport.height));
  options.camera = camera;
  options.particle_radius = 0.05f;
  return options;
}

struct Picker {
  Scene scene = picking_scene();
  render::Camera camera = camera_at({0, 0, 6});
  view::SceneDrawOptions options = options_for(scene, camera);
  view::ViewportProjector projector{camera, kViewport};

  std::optional<Pick> at(glm::dvec2 mouse, view::PickTolerance tolerance = {}) const {
    return view::pick(scene, nullptr, 0, options, projector, mouse, tolerance);
  }
  std::optional<Pick> at_world(glm::dvec3 world, glm::dvec2 shift = {0, 0}) const {
    return at(pixel_of(projector, world) + shift);
  }
};

#define check_pick(...)                 \
  do {                                  \
    INFO("checked at line ", __LINE__); \
    check_pick_at(__VA_ARGS__);         \
  } while (false)
void check_pick_at(const std::optional<Pick>& got, Pick::Kind kind, int index, int row = -1) {
  REQUIRE(got);
  CHECK(int(got->kind) == int(kind));
  CHECK(got->index == index);
  CHECK(got->row == row);
}

}  // namespace

TEST_CASE("picking: world to window pixels agrees with the renderer's projection") {
  for (const render::Camera& camera : {camera_at({0, 0, 6}), camera_at({3, 2, 3}, {0, 0.5f, 0}),
                                       camera_at({-4, 1, -2}, {0.2f, 0, 0.1f}), camera_at({0.3f, 5, 0.4f})}) {
    const view::ViewportProjector projector(camera, kViewport);
    CHECK(projector.aspect() == doctest::Approx(400.0 / 300.0));
    for (const glm::vec3 p : {glm::vec3(0, 0, 0), glm::vec3(0.5f, 0.3f, -0.2f), glm::vec3(-0.7f, -0.4f, 0.6f),
                              glm::vec3(0.1f, 0.9f, 0.2f)}) {
      const std::optional<glm::vec2> expected = render::project_to_pixel(camera, p, 400, 300);
      REQUIRE(expected);
      const glm::dvec2 got = pixel_of(projector, p);
      CHECK(std::fabs(got.x - kViewport.x - expected->x) < 5e-3);
      CHECK(std::fabs(got.y - kViewport.y - expected->y) < 5e-3);
    }
    // Behind the eye: nothing.
    const glm::dvec3 behind = glm::dvec3(camera.eye) - 2.0 * projector.forward();
    CHECK_FALSE(projector.to_pixel(behind));
  }
}

TEST_CASE("picking: the ray under a pixel passes through the world point that lands there") {
  for (const render::Camera& camera :
       {camera_at({0, 0, 6}), camera_at({3, 2, 3}, {0, 0.5f, 0}), camera_at({0.3f, 5, 0.4f})}) {
    const view::ViewportProjector projector(camera, kViewport);
    for (const glm::dvec3 p : {glm::dvec3(0, 0, 0), glm::dvec3(0.5, 0.3, -0.2), glm::dvec3(-0.7, -0.4, 0.6)}) {
      const view::Ray ray = projector.ray(pixel_of(projector, p));
      CHECK(glm::length(ray.direction) == doctest::Approx(1));
      CHECK(glm::length(ray.origin - glm::dvec3(camera.eye)) < 1e-12);
      const double t = glm::dot(p - ray.origin, ray.direction);
      CHECK(t > 0);
      CHECK(glm::length(ray.at(t) - p) < 1e-9);
    }
    // And back: a point along the ray of any pixel lands on that pixel.
    for (const glm::dvec2 pixel : {glm::dvec2(10, 20), glm::dvec2(123.5, 77.25), glm::dvec2(409, 319)}) {
      const glm::dvec2 back = pixel_of(projector, projector.ray(pixel).at(3.7));
      CHECK(glm::length(back - pixel) < 1e-9);
    }
    // One pixel's world size: a step of 10 pixel sizes across the view is 10 pixels.
    const glm::dvec3 p{0.2, 0.1, 0};
    const double size = projector.pixel_size(projector.depth(p));
    CHECK(glm::length(pixel_of(projector, p + 10 * size * projector.right()) - pixel_of(projector, p)) ==
          doctest::Approx(10).epsilon(1e-9));
    CHECK(glm::length(pixel_of(projector, p + 10 * size * projector.up()) - pixel_of(projector, p)) ==
          doctest::Approx(10).epsilon(1e-9));
    CHECK(projector.contains({10, 20}));
    CHECK_FALSE(projector.contains({9.5, 100}));
    CHECK_FALSE(projector.contains({410, 100}));
  }
}

TEST_CASE("picking: particles in front of a body, behind it, and by their contact radius") {
  const Picker picker;
  check_pick(picker.at_world({0, 0, 1}), Pick::Kind::Particle, 0);      // in front of the box
  check_pick(picker.at_world({0.2, -0.1, -1.5}), Pick::Kind::Body, 0);  // behind it: the box
  const std::optional<Pick> particle = picker.at_world({0, 0, 1});
  REQUIRE(particle);
  CHECK(particle->distance == doctest::Approx(5 - 0.05).epsilon(1e-6));
  CHECK(glm::length(particle->point - glm::dvec3(0, 0, 1.05)) < 1e-6);
  // Particle 3's contact radius (0.2) makes it larger than options.particle_radius.
  check_pick(picker.at_world({1.15, -1.3, 0}), Pick::Kind::Particle, 3);
  // Empty space.
  CHECK_FALSE(picker.at_world({-1, -0.5, 0}));
  CHECK_FALSE(picker.at_world({1.0, 0.6, 0}));
  // Outside the viewport.
  CHECK_FALSE(picker.at({5, 5}));
  // A hidden layer is not picked.
  Picker hidden;
  hidden.options.particles = false;
  check_pick(hidden.at_world({0, 0, 1}), Pick::Kind::Body, 0);
  CHECK_FALSE(hidden.at_world({-1, 1.2, 0}));
}

TEST_CASE("picking: a few pixels of tolerance around small particles") {
  const Picker picker;
  // Particle 2 is about 3 pixels in radius here.
  const double radius_pixels = 0.05 / picker.projector.pixel_size(6);
  CHECK(radius_pixels == doctest::Approx(3.02).epsilon(0.01));
  check_pick(picker.at_world({-1, 1.2, 0}), Pick::Kind::Particle, 2);
  check_pick(picker.at_world({-1, 1.2, 0}, {radius_pixels + 3, 0}), Pick::Kind::Particle, 2);
  CHECK_FALSE(picker.at_world({-1, 1.2, 0}, {radius_pixels + 6, 0}));
  CHECK_FALSE(picker.at(pixel_of(picker.projector, {-1, 1.2, 0}) + glm::dvec2(radius_pixels + 3, 0), {0}));
  // A near miss in front of a body is the particle; one behind it is not.
  check_pick(picker.at_world({0, 0, 1}, {0, 3.6 + 2.5}), Pick::Kind::Particle, 0);
  check_pick(picker.at_world({0.2, -0.1, -1.5}, {0, 4}), Pick::Kind::Body, 0);
}

TEST_CASE("picking: bodies by their shapes at their pose") {
  const Picker picker;
  check_pick(picker.at_world({0.4, -0.4, 0.5}), Pick::Kind::Body, 0);
  check_pick(picker.at_world({-2, 0.25, 0}), Pick::Kind::Body, 1);
  CHECK_FALSE(picker.at_world({-2.3, 0.3, 0}));  // off the sphere, in its bounding square
  // The capsule lies along x: its end cap is hit, above its middle is not (it would be
  // if it stood up along its own y).
  check_pick(picker.at_world({2.6, 0, 0}), Pick::Kind::Body, 2);
  check_pick(picker.at_world({2, 0.1, 0}), Pick::Kind::Body, 2);
  CHECK_FALSE(picker.at_world({2, 0.4, 0}));
  CHECK_FALSE(picker.at_world({2.7, 0, 0}));
  // The tetrahedron by its faces: its centre is hit, a point inside its bounding sphere
  // but past its slanted face is not.
  check_pick(picker.at_world({0, 2, 0}), Pick::Kind::Body, 3);
  check_pick(picker.at_world({-0.2, 2.35, 0}), Pick::Kind::Body, 3);
  CHECK_FALSE(picker.at_world({0.5, 2.5, 0}));
}

TEST_CASE("picking: a body's pose comes from the trajectory at that step") {
  Scene scene;
  scene.settings.steps = 1;
  scene.bodies = {body_of(BodyShape::Sphere)};
  scene.pinned = {0};
  scene.params[ParamId::InitialPosition].value = {-1, 0, 0};
  shape_parameters(scene);
  set_body_shape_size(scene.params, scene.bodies[0], 0, {0.2, 0, 0});
  scene.params[ParamId::BodyOrientation].value = {0, 0, 0, 1};
  Trajectory traj;
  traj.steps = 1;
  traj.particles = 1;
  traj.bodies = 1;
  traj.x = {-1, 0, 0, -1, 1, 0};
  traj.body_x = {0, 0, 0, 1, 0, 0};
  traj.body_q = {0, 0, 0, 1, 0, 0, 0, 1};
  const render::Camera camera = camera_at({0, 0, 6});
  const view::SceneDrawOptions options = options_for(scene, camera);
  const view::ViewportProjector projector(camera, kViewport);
  const auto at = [&](int step, glm::dvec3 world) {
    return view::pick(scene, &traj, step, options, projector, pixel_of(projector, world));
  };
  check_pick(at(0, {0, 0, 0}), Pick::Kind::Body, 0);
  CHECK_FALSE(at(0, {1, 0, 0}));
  check_pick(at(1, {1, 0, 0}), Pick::Kind::Body, 0);
  CHECK_FALSE(at(1, {0, 0, 0}));
  check_pick(at(0, {-1, 0, 0}), Pick::Kind::Particle, 0);
  check_pick(at(1, {-1, 1, 0}), Pick::Kind::Particle, 0);
  CHECK_FALSE(at(1, {-1, 0, 0}));
  check_pick(at(7, {-1, 1, 0}), Pick::Kind::Particle, 0);  // steps past the end: the last
  // Without the trajectory: the initial poses.
  check_pick(view::pick(scene, nullptr, 1, options, projector, pixel_of(projector, {0, 0, 0})), Pick::Kind::Body, 0);
}

TEST_CASE("picking: colliders, with planes only where nothing else is") {
  const Picker picker;
  check_pick(picker.at_world({-2, -1.5, 0}), Pick::Kind::Collider, 1);
  check_pick(picker.at_world({2.25, -1.35, 0}), Pick::Kind::Collider, 2);
  check_pick(picker.at_world({2.5, -1.5, 0}), Pick::Kind::Collider, 0);  // past the box: the ground behind it
  check_pick(picker.at_world({0, -3, -2}), Pick::Kind::Collider, 0);     // the ground
  const std::optional<Pick> ground = picker.at_world({0, -3, -2});
  REQUIRE(ground);
  CHECK(glm::length(ground->point - glm::dvec3(0, -3, -2)) < 1e-6);
  // The particle under the ground is seen through it (planes last).
  check_pick(picker.at_world({1.5, -3.2, -3}), Pick::Kind::Particle, 4);
  // The plane only as far as its patch is drawn.
  CHECK_FALSE(picker.at_world({-6, -3, -30}));
}

TEST_CASE("picking: objective targets and joints where they are drawn") {
  const Picker picker;
  check_pick(picker.at_world({1.2, 1.2, 0.3}), Pick::Kind::Objective, 0);
  check_pick(picker.at_world({-1.4, 0.6, 0}), Pick::Kind::Objective, 1, 0);
  check_pick(picker.at_world({1.4, 0.8, 0}), Pick::Kind::Objective, 1, 1);
  // The joint's marker sphere at the box's corner, in front of the box.
  check_pick(picker.at_world({0.5, 0.5, 0.5}), Pick::Kind::Joint, 0);
  Picker hidden;
  hidden.options.joints = false;
  hidden.options.objectives = false;
  check_pick(hidden.at_world({0.45, 0.45, 0.5}), Pick::Kind::Body, 0);
  CHECK_FALSE(hidden.at_world({1.2, 1.2, 0.3}));
}

TEST_CASE("picking: cloth triangles and the tets whose boundary faces are drawn") {
  // Seen from (0, 0, 6): a cloth square of two triangles at x in [-2, -1], y in [-1, 0];
  // two tets at x in [1, 2], each with a face in the plane z = 0 towards the eye, one at
  // y in [-1, 0] and one at y in [0.5, 1.5].
  Scene scene;
  scene.settings.steps = 1;
  scene.params[ParamId::InitialPosition].value = {-2, -1,  0, -1, -1,  0, -1, 0,   0, -2, 0,   0,  // the cloth
                                                  1,  -1,  0, 2,  -1,  0, 1,  0,   0, 1,  -1,  -1,
                                                  1,  0.5, 0, 2,  0.5, 0, 1,  1.5, 0, 1,  0.5, -1};
  scene.pinned.assign(12, 0);
  scene.triangles = {0, 1, 2, 0, 2, 3};
  scene.tets = {4, 5, 6, 7, 8, 9, 10, 11};
  shape_parameters(scene);
  const render::Camera camera = camera_at({0, 0, 6});
  view::SceneDrawOptions options = options_for(scene, camera);
  const view::ViewportProjector projector{camera, kViewport};
  const auto at = [&](glm::dvec3 world) {
    return view::pick(scene, nullptr, 0, options, projector, pixel_of(projector, world));
  };
  check_pick(at({-1.3, -0.7, 0}), Pick::Kind::Triangle, 0);
  check_pick(at({-1.7, -0.3, 0}), Pick::Kind::Triangle, 1);
  check_pick(at({-1.0, -1.0, 0}), Pick::Kind::Particle, 1);  // a corner's particle, in front of the cloth
  CHECK_FALSE(at({-2.5, -0.5, 0}));
  check_pick(at({1.3, -0.7, 0}), Pick::Kind::Tet, 0);
  check_pick(at({1.3, 0.8, 0}), Pick::Kind::Tet, 1);
  CHECK_FALSE(at({1.8, -0.2, 0}));  // past the front face's slanted edge
  const std::optional<Pick> face = at({1.3, 0.8, 0});
  REQUIRE(face);
  CHECK(glm::length(face->point - glm::dvec3(1.3, 0.8, 0)) < 1e-6);  // on the front face
  // A surface made from other tets (the document was edited since) is not used.
  auto stale = std::make_shared<view::TetSurface>(view::tet_surface(scene));
  stale->tets = {4, 5, 6, 7};
  options.tet_surface = stale;
  check_pick(at({1.3, 0.8, 0}), Pick::Kind::Tet, 1);
  // Hidden layers are not picked.
  options.triangles = false;
  options.tets = false;
  CHECK_FALSE(at({-1.3, -0.7, 0}));
  CHECK_FALSE(at({1.3, 0.8, 0}));
}

TEST_CASE("picking: box selection holds the particles and bodies whose centres land inside") {
  const Picker picker;
  const glm::dvec2 a = pixel_of(picker.projector, {-0.6, -0.6, 0}), b = pixel_of(picker.projector, {0.6, 0.6, 0});
  for (const auto& [from, to] :
       {std::pair{a, b}, std::pair{b, a}, std::pair{glm::dvec2(a.x, b.y), glm::dvec2(b.x, a.y)}}) {
    const view::BoxSelection got = view::box_select(picker.scene, nullptr, 0, picker.projector, from, to);
    CHECK(got.particles == std::vector<int>{0, 1});
    CHECK(got.bodies == std::vector<int>{0});
  }
  const glm::dvec2 wide_a = pixel_of(picker.projector, {-2.2, -1.5, 0}),
                   wide_b = pixel_of(picker.projector, {2.2, 2.2, 0});
  const view::BoxSelection wide = view::box_select(picker.scene, nullptr, 0, picker.projector, wide_a, wide_b);
  CHECK(wide.particles == std::vector<int>{0, 1, 2, 3});
  CHECK(wide.bodies == std::vector<int>{0, 1, 2, 3});
  CHECK(view::box_select(picker.scene, nullptr, 0, picker.projector, {10, 20}, {30, 40}).empty());
}

TEST_CASE("picking: an articulation's links by their shapes at the pose of that step") {
  // Seen from (0, 0, 6): link 0 a sphere (0.3) turning about z at the origin, link 1 a box
  // (half 0.2) 1.5 along link 0's x, link 2 welded 1.5 above link 1 with no shape (drawn
  // as a small sphere at its origin).
  Scene scene;
  scene.settings.steps = 1;
  Articulations& a = scene.articulations;
  a.links.resize(3);
  a.links[0].name = "upper", a.links[1].name = "lower", a.links[2].name = "tip";
  a.links[1].parent = 0, a.links[2].parent = 1;
  a.links[2].joint = ArticulationJoint::Weld;
  a.links[0].shapes.resize(1);
  a.links[0].shapes[0].size[0] = 0.3;
  a.links[1].shapes.resize(1);
  a.links[1].shapes[0].kind = LinkShape::Kind::Box;
  for (double& h : a.links[1].shapes[0].size) h = 0.2;
  LinkShape felt;  // felt but not drawn: never picked
  felt.size[0] = 0.6;
  felt.drawn = false;
  a.links[1].shapes.push_back(felt);
  shape_parameters(scene);
  scene.params[ParamId::LinkPosition].value = {0, 0, 0, 1.5, 0, 0, 0, 1.5, 0};
  const render::Camera camera = camera_at({0, 0, 6});
  const view::SceneDrawOptions options = options_for(scene, camera);
  const view::ViewportProjector projector(camera, kViewport);
  // Step 1 of the motion turns link 0 a quarter turn about z: link 1 to (0, 1.5, 0), link
  // 2 to (-1.5, 1.5, 0).
  Trajectory traj;
  traj.steps = 1;
  traj.positions = traj.coordinates = 2;
  traj.joint_q = {0, 0, std::numbers::pi / 2, 0};
  traj.joint_qd = {0, 0, 0, 0};
  const auto at = [&](int step, glm::dvec3 world) {
    return view::pick(scene, &traj, step, options, projector, pixel_of(projector, world));
  };
  check_pick(at(0, {0.1, 0.1, 0}), Pick::Kind::Link, 0);
  check_pick(at(0, {1.65, -0.15, 0}), Pick::Kind::Link, 1);
  CHECK_FALSE(
      at(0, {1.8, 0, 0}));  // past the box (its front face, 0.2 nearer the eye, spans 1.3 to 1.7), in the felt sphere
  check_pick(at(0, {1.5, 1.5, 0}), Pick::Kind::Link, 2);
  check_pick(at(1, {0, 1.5, 0}), Pick::Kind::Link, 1);
  CHECK_FALSE(at(1, {1.5, 0, 0}));
  check_pick(at(1, {-1.5, 1.5, 0}), Pick::Kind::Link, 2);
  // Without the bodies' layer, nothing of them is drawn or picked.
  view::SceneDrawOptions hidden = options;
  hidden.bodies = false;
  CHECK_FALSE(view::pick(scene, &traj, 0, hidden, projector, pixel_of(projector, {0, 0, 0})));
}
