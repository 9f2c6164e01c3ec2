// Particles and cloth against the links' shapes (families/articulations/particle_link_contact.h):
// the contact's adjoint against central differences for every shape kind, input by input;
// a particle resting on a sprung platform weighs it down by its weight; and a swinging
// double pendulum through particles, whose scene gradients match central differences,
// with the same bits on every thread count and with checkpoints, and float32 near float64.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "families/articulations/link_solid_shapes.h"
#include "families/articulations/particle_link_contact.h"
#include "gradient_outcome.h"
#include "link_shape_inputs.h"
#include "nudge/convex_mesh.h"
#include "nudge/link_poses.h"
#include "nudge/live_simulation.h"
#include "nudge/objective_facts.h"
#include "nudge/quat.h"
#include "nudge/robot_import.h"
#include "nudge/scene.h"
#include "test_scenes.h"

namespace nudge {
namespace {

// One particle against one shape of one link, every input of the contact in double.
struct Touch : test::LinkShapeInputs {
  ColliderModel<double> cm;
  double mass = 0.05, radius = 0.02;
  Vec3<double> x{0, 0, 0}, v{-0.3, 0.6, 0.2};
  // the point's body's spin and centre (a particle's: none)
  Vec3<double> w{0.8, -0.5, 1.2}, pivot{0.1, 0.2, -0.1};

  PointMotion<double> motion() const { return {v, w, pivot}; }
  ParticleLinkTouch<double> touch() const {
    View view;
    fill(view);
    return point_link_contact(cm, view.ls, 0, x, motion(), radius, mass);
  }
};

using test::turned;

// Checks adj_point_link_contact against central differences of L = pbar . P + wbar . W
// (the point's body's wrench about its pivot, the link's wrench), for each input.
void check_touch_adjoint(const Touch& base) {
  const Wrench<double> pbar{{0.7, -0.4, 1.1}, {-0.2, 0.5, 0.3}};
  const Spatial<double> wbar{{0.3, 0.8, -0.5}, {-0.6, 0.2, 0.9}};
  const auto loss = [&](const Touch& t) {
    const ParticleLinkTouch<double> touch = t.touch();
    const Spatial<double> w = link_side_wrench(touch);
    const Vec3<double> torque = cross(touch.point - t.pivot, touch.force);
    return dot(pbar.force, touch.force) + dot(pbar.torque, torque) + dot(wbar.ang, w.ang) + dot(wbar.lin, w.lin);
  };
  REQUIRE(length(base.touch().force) > 0.1);  // in contact
  Touch::View view;
  base.fill(view);
  ParticleLinkAdjoint<double> a;
  adj_point_link_contact(base.cm, view.ls, 0, base.x, base.motion(), base.radius, base.mass, pbar, wbar, a);
  const double h = 1e-6;
  const auto check = [&](std::string what, double adjoint, const std::function<void(Touch&, double)>& move) {
    Touch plus = base, minus = base;
    move(plus, h);
    move(minus, -h);
    const double fd = (loss(plus) - loss(minus)) / (2 * h);
    INFO(what << ": adjoint " << adjoint << ", central difference " << fd);
    CHECK(adjoint == doctest::Approx(fd).epsilon(1e-6).scale(1.0));
  };
  const Vec3<double> e[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  for (int c = 0; c < 3; ++c) {
    check("x", (&a.x.x)[c], [&](Touch& t, double s) { t.x += s * e[c]; });
    check("v", (&a.v.x)[c], [&](Touch& t, double s) { t.v += s * e[c]; });
    check("spin", (&a.w.x)[c], [&](Touch& t, double s) { t.w += s * e[c]; });
    check("pivot", (&a.pivot.x)[c], [&](Touch& t, double s) { t.pivot += s * e[c]; });
    check("link velocity ang", (&a.velocity.ang.x)[c], [&](Touch& t, double s) { t.velocity.ang += s * e[c]; });
    check("link velocity lin", (&a.velocity.lin.x)[c], [&](Touch& t, double s) { t.velocity.lin += s * e[c]; });
    // a twist of the link's frame: a turn about the origin, then a shift
    check("frame twist ang", (&a.frame.ang.x)[c], [&](Touch& t, double s) {
      t.link_rot = turned(s * e[c]) * t.link_rot;
      t.origin = turned(s * e[c]) * t.origin;
    });
    check("frame twist lin", (&a.frame.lin.x)[c], [&](Touch& t, double s) { t.origin += s * e[c]; });
    check("shape centre", (&a.centre.x)[c], [&](Touch& t, double s) { t.pos += s * e[c]; });
    check("shape turn", (&a.turn.x)[c], [&](Touch& t, double s) { t.rot = turned(s * e[c]) * t.rot; });
    const ShapeType type = base.shape.type;
    if (type != ShapeType::Convex && (c == 0 || type == ShapeType::Box || (c == 1 && type == ShapeType::Capsule)))
      check("size", a.size[c], [&](Touch& t, double s) { t.shape.size[c] += s; });
    if (base.shape.type == ShapeType::Convex)  // its log scale along c
      check("hull scale", a.size[c], [&](Touch& t, double s) { test::scale_hull(t.planes, c, s); });
  }
  check("radius", a.radius, [](Touch& t, double s) { t.radius += s; });
  check("stiffness", a.stiffness, [](Touch& t, double s) { t.cm.stiffness += s; });
  check("friction", a.friction, [](Touch& t, double s) { t.cm.friction += s; });
  if (base.cm.use_restitution) {
    check("restitution", a.damping, [](Touch& t, double s) { t.cm.restitution += s; });
    check("mass", a.mass, [](Touch& t, double s) { t.mass += s; });
    check("link mass", a.link_mass, [](Touch& t, double s) { t.link_mass += s; });
  } else {
    check("damping", a.damping, [](Touch& t, double s) { t.cm.damping += s; });
  }
}

// The particle 5 mm into the shape's surface where its outward normal (in the shape's
// frame) is `normal`, at local surface point `surface`.
void place_particle(Touch& t, Vec3<double> surface, Vec3<double> normal) {
  const Mat33<double> r = t.link_rot * t.rot;
  t.x = t.origin + t.link_rot * t.pos + r * (surface + (t.radius - 0.005) * normal);
}

Touch smooth_touch() {
  Touch t;
  t.cm.stiffness = 2e3, t.cm.damping = 3, t.cm.friction = 0.4;
  t.cm.smoothing = 0.004, t.cm.friction_smoothing = 0.05, t.cm.damp_approach_only = false;
  for (int e = 0; e < 9; ++e) t.shape.rotation[e] = e % 4 == 0 ? 1.0 : 0.0;
  return t;
}

TEST_CASE("particle on a link: the contact's adjoint against central differences, every shape kind") {
  for (bool restitution : {false, true}) {
    CAPTURE(restitution);
    Touch sphere = smooth_touch();
    sphere.cm.use_restitution = restitution, sphere.cm.restitution = 0.5;
    sphere.shape.type = ShapeType::Sphere, sphere.shape.size[0] = 0.05;
    place_particle(sphere, {0.03, 0.04, 0}, {0.6, 0.8, 0});
    check_touch_adjoint(sphere);

    Touch capsule = sphere;
    capsule.shape.type = ShapeType::Capsule, capsule.shape.size[1] = 0.1;
    place_particle(capsule, {0.05, 0.06, 0}, {1, 0, 0});  // on its side
    check_touch_adjoint(capsule);

    Touch box = sphere;
    box.shape.type = ShapeType::Box, box.shape.size[1] = 0.03, box.shape.size[2] = 0.08;
    place_particle(box, {0.01, 0.03, -0.02}, {0, 1, 0});  // on a face
    check_touch_adjoint(box);

    // a tetrahedron's hull, a particle on one face
    Touch hull = sphere;
    const Result<ConvexMesh> mesh = convex_hull({{0, 0, 0}, {0.1, 0, 0}, {0, 0.1, 0}, {0, 0, 0.1}});
    REQUIRE(mesh.ok());
    hull.shape.type = ShapeType::Convex, hull.shape.plane_count = static_cast<int>(mesh->planes.size());
    for (const ConvexPlane& f : mesh->planes)
      hull.planes.insert(hull.planes.end(), {f.normal[0], f.normal[1], f.normal[2], f.offset});
    const double third = 0.1 / 3, unit = 1 / std::sqrt(3.0);
    place_particle(hull, {third, third, third}, {unit, unit, unit});
    check_touch_adjoint(hull);
  }
}

TEST_CASE("particle on a link: a shape is the collider of its kind, placed in its link's frame") {
  Articulations a;
  ArticulationLink link;
  link.joint = ArticulationJoint::Hinge;
  LinkShape capsule;
  capsule.kind = LinkShape::Kind::Capsule;
  capsule.size[0] = 0.03, capsule.size[1] = 0.2;
  capsule.pos[2] = -0.2;
  LinkShape drawn = capsule;
  drawn.collides = false;
  LinkShape mesh;
  mesh.kind = LinkShape::Kind::Mesh;
  mesh.mesh_scale[0] = 2;
  Result<ConvexMesh> hull =
      convex_hull({{-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {1, 1, -1}, {-1, -1, 1}, {1, -1, 1}, {-1, 1, 1}, {1, 1, 1}});
  REQUIRE(hull.ok());
  mesh.hull = std::make_shared<const ConvexMesh>(*hull);
  link.shapes = {capsule, drawn, mesh};
  a.links = {link};
  Scene scene;
  scene.articulations = a;
  shape_parameters(scene);
  const LinkSolidShapes solid = link_solid_shapes(a, scene.params);
  REQUIRE(solid.count() == 2);  // the drawn-only shape is not solid
  CHECK(solid.start == std::vector<int>{0, 2});
  // the capsule's axis (the collider's y) is the shape's z
  const Vec3<double> axis = solid.rot[0] * Vec3<double>{0, 1, 0};
  CHECK(axis.z == doctest::Approx(1.0));
  CHECK(solid.bound[0] == doctest::Approx(0.23));
  // the 2 x 1 x 1 box as planes: x's faces at 2, the others at 1
  REQUIRE(solid.shape[1].type == ShapeType::Convex);
  for (int f = 0; f < solid.shape[1].plane_count; ++f) {
    const double* plane = &solid.planes[size_t(4 * (solid.plane_start[1] + f))];
    CHECK(plane[3] == doctest::Approx(std::fabs(plane[0]) > 0.5 ? 2.0 : 1.0));
  }
  CHECK(solid.bound[1] == doctest::Approx(std::sqrt(6.0)));
}

// The double pendulum (link1 from the pivot 2 m up, link2 below it; z up as imported)
// with a capsule on link1 and a box, a sphere and a hull on link2, swinging through
// particles that touch each shape at the start.
ImportedRobot pendulum_with_shapes() {
  ImportedRobot r;
  r.name = "pendulum";
  ArticulationLink upper, lower;
  upper.name = "link1", lower.name = "link2";
  upper.parent = -1, lower.parent = 0;
  upper.axis[1] = lower.axis[1] = 1;
  LinkShape rod;
  rod.kind = LinkShape::Kind::Capsule;
  rod.size[0] = 0.04, rod.size[1] = 0.25;
  rod.pos[2] = -0.25;
  upper.shapes = {rod};
  LinkShape box;
  box.kind = LinkShape::Kind::Box;
  box.size[0] = 0.05, box.size[1] = 0.04, box.size[2] = 0.1;
  box.pos[2] = -0.15;
  LinkShape ball;
  ball.kind = LinkShape::Kind::Sphere;
  ball.size[0] = 0.05;
  ball.pos[2] = -0.4;
  LinkShape tip;
  tip.kind = LinkShape::Kind::Mesh;
  const Result<ConvexMesh> hull = convex_hull({{0, 0, 0}, {0.06, 0, 0}, {0, 0.06, 0}, {0, 0, -0.06}});
  REQUIRE(hull.ok());
  tip.hull = std::make_shared<const ConvexMesh>(*hull);
  tip.pos[2] = -0.45;
  lower.shapes = {box, ball, tip};
  r.articulations.links = {upper, lower};
  r.pos = {0, 0, 2, 0, 0, -0.5};
  r.mass = {1.0, 0.5};
  r.com = {0, 0, -0.25, 0, 0, -0.2};
  r.inertia = {0.021, 0.021, 0.001, 0, 0, 0, 0.007, 0.007, 0.0005, 0, 0, 0};
  r.damping = {0.02, 0.01};
  r.armature = {0.01, 0.01};
  r.q = {0.7, -0.4};
  r.qd = {1.5, -1.0};
  r.timestep = 0.001;
  return r;
}

void smooth_contact(Scene& scene) {
  scene.contact.smoothing = 0.004;
  scene.contact.friction_smoothing = 0.05;
  scene.contact.damp_approach_only = false;
  scene.params[ParamId::ContactStiffness].value = {2e3};
  scene.params[ParamId::ContactDamping].value = {1.0};
  scene.params[ParamId::ContactFriction].value = {0.3};
}

// Particles (in the scene's frame, y up) at x, with velocities v.
void add_particles(Scene& scene, const std::vector<Vec3<double>>& x, const std::vector<Vec3<double>>& v) {
  const size_t n = x.size();
  scene.pinned.assign(n, 0);
  std::vector<double> flat, rates;
  for (size_t i = 0; i < n; ++i) flat.insert(flat.end(), {x[i].x, x[i].y, x[i].z});
  for (size_t i = 0; i < n; ++i) rates.insert(rates.end(), {v[i].x, v[i].y, v[i].z});
  scene.params[ParamId::InitialPosition].value = flat;
  shape_parameters(scene);
  scene.params[ParamId::InitialVelocity].value = rates;
  for (size_t i = 0; i < n; ++i) {
    scene.params[ParamId::Mass].value[i] = 0.02 + 0.005 * double(i);
    scene.params[ParamId::ParticleRadius].value[i] = 0.015 + 0.001 * double(i);
  }
}

// A weights objective on every joint's q and qd at every step (0.2 cos(1.3 k)), so every
// coordinate's adjoint is seeded at every step.
void drive_and_weigh_joints(Scene& scene) {
  Objective w;
  w.type = ObjectiveType::Weights;
  const size_t values = size_t(scene.settings.steps + 1) * weights_per_step(scene, true);
  for (size_t k = 0; k < values; ++k) w.target.push_back(0.2 * std::cos(1.3 * double(k)));
  scene.objectives = {w};
}

Scene pendulum_through_particles(int steps) {
  ImportedRobot r = pendulum_with_shapes();
  // stretched along a tilted axis, so a capsule's turn and a box's extents move with link_length
  r.articulations.links[0].length_axis[2] = 1;
  r.articulations.links[1].length_axis[0] = 0.3, r.articulations.links[1].length_axis[2] = 1;
  Scene scene = robot_scene(r, "", steps);
  scene.params[ParamId::LinkScale].value = {1.1, 0.95};
  scene.params[ParamId::LinkLength].value = {0.9, 1.2};
  smooth_contact(scene);
  // each shape's surface in its link's frame, an outward normal there, and the link
  struct Spot {
    int link;
    Vec3<double> point, normal;
  };
  const std::vector<Spot> spots = {{0, {0.04, 0, -0.2}, {1, 0, 0}},
                                   {0, {0, -0.04, -0.35}, {0, -1, 0}},
                                   {1, {0.05, 0.01, -0.12}, {1, 0, 0}},
                                   {1, {-0.05, 0, -0.4}, {-1, 0, 0}},
                                   {1, {0.02, 0.02, -0.47}, {1, 1, -1}}};  // the hull's slanted face
  const std::vector<double> q(scene.params[ParamId::LinkJointPosition].value);
  const std::vector<LinkPose> poses = link_poses(scene, q);
  std::vector<Vec3<double>> x, v;
  for (const Spot& s : spots) {
    const LinkPose& pose = poses[size_t(s.link)];
    const Quat<double> turn{pose.quat[0], pose.quat[1], pose.quat[2], pose.quat[3]};
    const Vec3<double> at = s.point + (0.015 - 0.004) * normalize(s.normal);
    x.push_back(Vec3<double>{pose.pos[0], pose.pos[1], pose.pos[2]} + rotate(turn, at));
    v.push_back({0.1 * double(x.size()), -0.2, 0.05});
  }
  add_particles(scene, x, v);
  drive_and_weigh_joints(scene);
  Objective target;
  target.type = ObjectiveType::Target;
  target.particles = {0, 2, 4};
  target.target = {0.3, 1.5, 0.2};
  scene.objectives.push_back(target);
  return scene;
}

// A platform on a vertical slide with a spring under it, and a particle dropped on it.
Scene sprung_platform(bool solid, int steps) {
  ImportedRobot r;
  r.name = "platform";
  ArticulationLink platform;
  platform.name = "platform";
  platform.joint = ArticulationJoint::Slide;
  platform.axis[2] = 1;
  LinkShape top;
  top.kind = LinkShape::Kind::Box;
  top.size[0] = top.size[1] = 0.2, top.size[2] = 0.02;
  top.collides = solid;
  platform.shapes = {top};
  r.articulations.links = {platform};
  r.pos = {0, 0, 1};
  r.mass = {0.5};
  r.com = {0, 0, 0};
  r.inertia = {0.01, 0.01, 0.01, 0, 0, 0};
  r.damping = {5};
  r.armature = {0};
  r.stiffness = {50};
  r.spring_ref = {0};
  r.q = {0};
  r.qd = {0};
  r.timestep = 0.001;
  Scene scene = robot_scene(r, "", steps);
  scene.contact.friction_smoothing = 0.05;
  scene.contact.damp_approach_only = false;
  scene.params[ParamId::ContactStiffness].value = {2e4};
  scene.params[ParamId::ContactDamping].value = {2.0};
  scene.params[ParamId::ContactFriction].value = {0.3};
  add_particles(scene, {{0.03, 1.08, -0.02}}, {{0, 0, 0}});
  scene.params[ParamId::Mass].value = {0.1};
  scene.params[ParamId::ParticleRadius].value = {0.02};
  scene.objectives.clear();
  return scene;
}

// The platform with a 10 cm box of 0.4 kg on it (2 mm above its top) instead of the particle.
Scene box_on_platform(bool solid, int steps) {
  Scene scene = sprung_platform(solid, steps);
  scene.pinned.clear();
  scene.params[ParamId::InitialPosition].value.clear();
  scene.bodies = {test::rigid_body(BodyShape::Box)};
  shape_parameters(scene);
  test::set_sizes(scene, {{0.05, 0.05, 0.05}});
  scene.params[ParamId::BodyPosition].value = {0.03, 1.0 + 0.02 + 0.05 + 0.002, -0.02};
  scene.params[ParamId::BodyDensity].value = {400};
  return scene;
}

TEST_CASE("particle on a link: a particle resting on a sprung platform weighs it down by its weight") {
  const int steps = 3000;
  const Scene solid = sprung_platform(true, steps), ghost = sprung_platform(false, steps);
  REQUIRE(check_scene(solid).ok());
  const Trajectory held = test::simulate_on_cpu(solid), fell = test::simulate_on_cpu(ghost);
  const double g = 9.81, k = 50;
  const double platform = held.joint_q[size_t(steps)], alone = fell.joint_q[size_t(steps)];
  const double particle_y = held.x[size_t(steps) * 3 + 1], fallen_y = fell.x[size_t(steps) * 3 + 1];
  INFO("the platform rests at " << platform << " m with the particle, " << alone << " m without; the particle at "
                                << particle_y << " m on it, " << fallen_y << " m through it");
  // the spring carries the platform's weight and the particle's: k q = -(m + m_p) g
  CHECK(platform == doctest::Approx(-(0.5 + 0.1) * g / k).epsilon(1e-3));
  CHECK(alone == doctest::Approx(-0.5 * g / k).epsilon(1e-3));
  // the particle sits on the box's top (1 m + q + 2 cm + its radius), in by its weight / stiffness
  CHECK(particle_y == doctest::Approx(1.0 + platform + 0.02 + 0.02 - 0.1 * g / 2e4).epsilon(1e-4));
  CHECK(fallen_y < 0);
  // live play reports the contact, carrying the particle's weight
  Result<std::unique_ptr<LiveSimulation>> live = LiveSimulation::create(solid, nullptr);
  REQUIRE(live.ok());
  for (int t = 0; t < steps; ++t) REQUIRE((*live)->step().ok());
  const std::vector<Contact> contacts = (*live)->contacts();
  REQUIRE(contacts.size() == 1);
  CHECK(contacts[0].kind == Contact::Kind::ParticleLink);
  CHECK(contacts[0].a == 0);
  CHECK(contacts[0].b == 0);
  CHECK(contacts[0].force[1] == doctest::Approx(0.1 * g).epsilon(1e-3));
  CHECK(contacts[0].point[1] == doctest::Approx(1.0 + platform + 0.02).epsilon(1e-4));
}

TEST_CASE("body on a link: a box resting on a sprung platform weighs it down by its weight") {
  const int steps = 3000;
  const Scene solid = box_on_platform(true, steps), ghost = box_on_platform(false, steps);
  REQUIRE(check_scene(solid).ok());
  const Trajectory held = test::simulate_on_cpu(solid), fell = test::simulate_on_cpu(ghost);
  const double g = 9.81, k = 50, box = 0.4;
  const double platform = held.joint_q[size_t(steps)], alone = fell.joint_q[size_t(steps)];
  const double box_y = held.body_x[size_t(steps) * 3 + 1], fallen_y = fell.body_x[size_t(steps) * 3 + 1];
  INFO("the platform rests at " << platform << " m with the box, " << alone << " m without; the box at " << box_y
                                << " m on it, " << fallen_y << " m through it");
  CHECK(platform == doctest::Approx(-(0.5 + box) * g / k).epsilon(1e-3));
  CHECK(alone == doctest::Approx(-0.5 * g / k).epsilon(1e-3));
  // on its four lower corners, each in by a quarter of its weight / stiffness
  CHECK(box_y == doctest::Approx(1.0 + platform + 0.02 + 0.05 - box * g / 4 / 2e4).epsilon(1e-4));
  CHECK(fallen_y < 0);
  // live play reports the box's four lower corners on the platform, carrying its weight
  Result<std::unique_ptr<LiveSimulation>> live = LiveSimulation::create(solid, nullptr);
  REQUIRE(live.ok());
  for (int t = 0; t < steps; ++t) REQUIRE((*live)->step().ok());
  double carried = 0;
  int corners = 0;
  for (const Contact& c : (*live)->contacts()) {
    CHECK(c.kind == Contact::Kind::BodyLink);
    carried += c.force[1];
    corners += c.depth > 0 ? 1 : 0;
  }
  CHECK(corners == 4);
  CHECK(carried == doctest::Approx(box * g).epsilon(1e-3));
}

TEST_CASE("live play: a link's contacts with the floor carry its weight") {
  ImportedRobot r;
  r.name = "block";
  ArticulationLink block;
  block.name = "block";
  block.joint = ArticulationJoint::Free;
  LinkShape cube;
  cube.kind = LinkShape::Kind::Box;
  cube.size[0] = cube.size[1] = cube.size[2] = 0.05;
  block.shapes = {cube};
  r.articulations.links = {block};
  r.pos = {0.3, 0.2, 0.06};  // (0.3, 0.06, -0.2) in the scene's y up
  r.mass = {1.0};
  r.com = {0, 0, 0};
  r.inertia = {0.002, 0.002, 0.002, 0, 0, 0};
  r.damping = {0};
  r.armature = {0};
  r.timestep = 0.001;
  Scene scene = robot_scene(r, "", 1500);
  scene.colliders = {ColliderShape{}};  // the plane y = 0
  scene.params[ParamId::ContactStiffness].value = {2e4};
  scene.params[ParamId::ContactDamping].value = {50};
  scene.params[ParamId::ContactFriction].value = {0.5};
  scene.contact.damp_approach_only = false;
  REQUIRE(check_scene(scene).ok());
  Result<std::unique_ptr<LiveSimulation>> live = LiveSimulation::create(scene, nullptr);
  REQUIRE(live.ok());
  for (int t = 0; t < 1500; ++t) REQUIRE((*live)->step().ok());
  double carried = 0;
  int corners = 0;
  for (const Contact& c : (*live)->contacts()) {
    CHECK(c.kind == Contact::Kind::LinkCollider);
    CHECK(c.a == 0);
    CHECK(c.point[1] == doctest::Approx(-c.depth).epsilon(1e-9));  // a corner, sunk by its depth
    CHECK(std::fabs(c.point[0] - 0.3) == doctest::Approx(0.05).epsilon(1e-3));
    CHECK(std::fabs(c.point[2] + 0.2) == doctest::Approx(0.05).epsilon(1e-3));
    CHECK(c.depth == doctest::Approx(9.81 / 4 / 2e4).epsilon(1e-2));
    carried += c.force[1];
    ++corners;
  }
  CHECK(corners == 4);
  CHECK(carried == doctest::Approx(9.81).epsilon(1e-3));
}

// The swinging pendulum with a sphere body against link1's capsule and a box body
// against link2's ball: the bodies' points meet the links' solids and the links' points
// the bodies' shapes.
Scene pendulum_against_bodies(int steps) {
  ImportedRobot r = pendulum_with_shapes();
  r.articulations.links[0].length_axis[2] = 1;
  r.articulations.links[1].length_axis[0] = 0.3, r.articulations.links[1].length_axis[2] = 1;
  Scene scene = robot_scene(r, "", steps);
  scene.params[ParamId::LinkScale].value = {1.0, 1.05};
  smooth_contact(scene);
  const std::vector<double> q(scene.params[ParamId::LinkJointPosition].value);
  const std::vector<LinkPose> poses = link_poses(scene, q);
  const auto world = [&](int link, Vec3<double> local) {
    const LinkPose& pose = poses[size_t(link)];
    const Quat<double> turn{pose.quat[0], pose.quat[1], pose.quat[2], pose.quat[3]};
    return Vec3<double>{pose.pos[0], pose.pos[1], pose.pos[2]} + rotate(turn, local);
  };
  scene.bodies = {test::rigid_body(BodyShape::Sphere), test::rigid_body(BodyShape::Box)};
  shape_parameters(scene);
  test::set_sizes(scene, {{0.05, 0, 0}, {0.04, 0.04, 0.04}});
  // the sphere 4 mm into the capsule's side; the box 4 mm into the (scaled) ball's side
  const Vec3<double> sphere = world(0, {0.04 + 0.05 - 0.004, 0, -0.2});
  const Vec3<double> box = world(1, {1.05 * (-0.05) - 0.04 + 0.004, 0, 1.05 * -0.4});
  scene.params[ParamId::BodyPosition].value = {sphere.x, sphere.y, sphere.z, box.x, box.y, box.z};
  scene.params[ParamId::BodyOrientation].value = {0, 0, 0, 1, 0.05, 0.1, 0, 1};
  scene.params[ParamId::BodyVelocity].value = {0.2, -0.1, 0.05, -0.1, 0.3, 0.0};
  scene.params[ParamId::BodyAngularVelocity].value = {0.5, 0, 1.0, 0, 0.8, 0};
  scene.params[ParamId::BodyDensity].value = {600, 900};
  drive_and_weigh_joints(scene);
  Objective target;
  target.type = ObjectiveType::Target;
  target.bodies = {0, 1};
  target.target = {0.3, 1.5, 0.2};
  scene.objectives.push_back(target);
  Objective turn;
  turn.type = ObjectiveType::Orientation;
  turn.bodies = {1};
  scene.objectives.push_back(turn);
  return scene;
}

TEST_CASE("body on a link: a pendulum swinging against bodies, its gradients against central differences") {
  const Scene scene = pendulum_against_bodies(40);
  REQUIRE(check_scene(scene).ok());
  // both bodies are pushed by the links: each moves otherwise when the shapes are drawn only
  Scene ghosts = scene;
  for (ArticulationLink& link : ghosts.articulations.links)
    for (LinkShape& shape : link.shapes) shape.collides = false;
  const Trajectory touched = test::simulate_on_cpu(scene), free = test::simulate_on_cpu(ghosts);
  for (size_t b = 0; b < 2; ++b) {
    const size_t at = (size_t(touched.steps) * 2 + b) * 3;
    CAPTURE(b);
    CHECK(length(Vec3<double>{touched.body_x[at] - free.body_x[at], touched.body_x[at + 1] - free.body_x[at + 1],
                              touched.body_x[at + 2] - free.body_x[at + 2]}) > 1e-4);
  }
  const test::Outcome out = test::require_same_bits_for_threads_and_checkpoints(scene);
  test::check_has_gradient(out, {ParamId::ContactStiffness, ParamId::BodyPosition, ParamId::LinkJointVelocity});
  const std::vector<ParamId> ids = {
      ParamId::BodyPosition,      ParamId::BodyOrientation,   ParamId::BodyVelocity,    ParamId::BodyAngularVelocity,
      ParamId::BodyDensity,       ParamId::BodyRadius,        ParamId::BodyHalfExtents, ParamId::ContactStiffness,
      ParamId::ContactDamping,    ParamId::ContactFriction,   ParamId::LinkPosition,    ParamId::LinkMass,
      ParamId::LinkJointPosition, ParamId::LinkJointVelocity, ParamId::LinkScale,       ParamId::LinkLength};
  test::check_against_central_differences(scene, ids);
  test::check_float32_matches_float64(scene, {ParamId::BodyPosition, ParamId::LinkJointVelocity});
}

TEST_CASE("particle on a link: a pendulum swinging through particles, its gradients against central differences") {
  const Scene scene = pendulum_through_particles(40);
  REQUIRE(check_scene(scene).ok());
  // every particle is pushed by its shape: each moves otherwise when the shapes are drawn only
  Scene ghosts = scene;
  for (ArticulationLink& link : ghosts.articulations.links)
    for (LinkShape& shape : link.shapes) shape.collides = false;
  const Trajectory touched = test::simulate_on_cpu(scene), free = test::simulate_on_cpu(ghosts);
  for (size_t i = 0; i < 5; ++i) {
    const size_t at = size_t(touched.steps) * 15 + 3 * i;
    const double apart = length(Vec3<double>{touched.x[at] - free.x[at], touched.x[at + 1] - free.x[at + 1],
                                             touched.x[at + 2] - free.x[at + 2]});
    CAPTURE(i);
    CHECK(apart > 1e-4);
  }
  const test::Outcome out = test::require_same_bits_for_threads_and_checkpoints(scene);
  test::check_has_gradient(out, {ParamId::ContactStiffness, ParamId::LinkMass, ParamId::InitialPosition});
  const std::vector<ParamId> ids = {ParamId::InitialPosition,   ParamId::InitialVelocity,   ParamId::Mass,
                                    ParamId::ParticleRadius,    ParamId::ContactStiffness,  ParamId::ContactDamping,
                                    ParamId::ContactFriction,   ParamId::LinkPosition,      ParamId::LinkMass,
                                    ParamId::LinkCom,           ParamId::LinkInertia,       ParamId::LinkDamping,
                                    ParamId::LinkJointPosition, ParamId::LinkJointVelocity, ParamId::Gravity,
                                    ParamId::LinkScale,         ParamId::LinkLength};
  test::check_against_central_differences(scene, ids);
  test::check_float32_matches_float64(scene, {ParamId::InitialPosition, ParamId::LinkJointVelocity});
  // (rk4 and implicit_euler refuse a scene with articulations and particles)
}

}  // namespace
}  // namespace nudge
