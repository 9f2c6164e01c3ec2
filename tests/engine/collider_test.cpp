// Static colliders: signed distances, the contact law's adjoint against central finite
// differences in double (every shape, in and near contact, both switches, both damping
// modes), whole rollouts through gradcheck, and the physics a user would check first.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <memory>
#include <vector>

#include "families/colliders/collider_contact.h"
#include "central_difference.h"
#include "nudge/gradcheck.h"
#include "nudge/simulator.h"

using namespace nudge;
using test::central_difference;

namespace {

void check_close(const char* what, int index, double adjoint, double fd) {
  INFO(what << "[" << index << "]: adjoint " << adjoint << ", finite difference " << fd);
  CHECK(gradient_relative_error(adjoint, fd, 1e-8) <= 1e-6);
}

// A rotation about the unit axis (ax, ay, az) by angle, row-major.
void rotation(double ax, double ay, double az, double angle, double* r) {
  const double c = std::cos(angle), s = std::sin(angle), t = 1 - c;
  const double m[9] = {t * ax * ax + c,      t * ax * ay - s * az, t * ax * az + s * ay,
                       t * ax * ay + s * az, t * ay * ay + c,      t * ay * az - s * ax,
                       t * ax * az - s * ay, t * ay * az + s * ax, t * az * az + c};
  for (int k = 0; k < 9; ++k) r[k] = m[k];
}

Collider<double> shape(ShapeType type, double sx, double sy, double sz) {
  Collider<double> c{};
  c.type = type;
  c.position[0] = 0.2, c.position[1] = -0.1, c.position[2] = 0.3;
  const double inv = 1 / std::sqrt(0.3 * 0.3 + 0.8 * 0.8 + 0.5 * 0.5);
  rotation(0.3 * inv, 0.8 * inv, 0.5 * inv, 0.7, c.rotation);
  c.size[0] = sx, c.size[1] = sy, c.size[2] = sz;
  return c;
}

// Every shape, turned and moved, with sample points that lie outside and inside each,
// away from the places where the distance has a kink (edges, the inside's medial
// planes), where no finite difference is meaningful.
struct Case {
  Collider<double> c;
  std::vector<Vec3<double>> local_points;  // in the shape's frame
};

std::vector<Case> cases() {
  return {
      {shape(ShapeType::Plane, 0, 0, 0), {{0.1, 0.03, -0.2}, {-0.3, -0.02, 0.4}}},
      {shape(ShapeType::Sphere, 0.5, 0, 0), {{0.3, 0.35, 0.2}, {0.1, -0.2, 0.25}}},
      {shape(ShapeType::Capsule, 0.3, 0.6, 0), {{0.2, 0.1, 0.25}, {0.15, 0.8, -0.1}, {0.1, -0.3, 0.12}}},
      {shape(ShapeType::Box, 0.4, 0.3, 0.5),
       {{0.45, 0.1, 0.2}, {0.5, 0.35, -0.1}, {0.55, 0.36, 0.58}, {0.1, 0.25, 0.05}}},
  };
}

Vec3<double> world(const Collider<double>& c, Vec3<double> q) {
  return to_world(c, q) + Vec3<double>{c.position[0], c.position[1], c.position[2]};
}

}  // namespace

TEST_CASE("colliders: signed distances and normals of each shape") {
  Collider<double> box = shape(ShapeType::Box, 0.4, 0.3, 0.5);
  SdfSample<double> s = collider_sdf(box, world(box, {0.7, 0.1, 0.0}));
  CHECK(s.distance == doctest::Approx(0.3));
  Vec3<double> n = to_local(box, s.normal);
  CHECK(n.x == doctest::Approx(1.0));
  s = collider_sdf(box, world(box, {0.7, 0.7, 0.0}));  // past an edge: distance to the edge
  CHECK(s.distance == doctest::Approx(0.5));
  s = collider_sdf(box, world(box, {0.0, 0.25, 0.1}));  // inside, nearest the +y face
  CHECK(s.distance == doctest::Approx(-0.05));
  CHECK(to_local(box, s.normal).y == doctest::Approx(1.0));

  Collider<double> capsule = shape(ShapeType::Capsule, 0.3, 0.6, 0);
  CHECK(collider_sdf(capsule, world(capsule, {0.0, 1.2, 0.0})).distance == doctest::Approx(0.3));
  CHECK(collider_sdf(capsule, world(capsule, {0.5, 0.2, 0.0})).distance == doctest::Approx(0.2));
  Collider<double> sphere = shape(ShapeType::Sphere, 0.5, 0, 0);
  CHECK(collider_sdf(sphere, world(sphere, {0.0, 0.0, -0.2})).distance == doctest::Approx(-0.3));
  Collider<double> plane = shape(ShapeType::Plane, 0, 0, 0);
  CHECK(collider_sdf(plane, world(plane, {3.0, -0.25, 1.0})).distance == doctest::Approx(-0.25));
}

TEST_CASE("colliders: the signed distance's adjoint matches finite differences") {
  const Vec3<double> w{0.7, -0.4, 0.9};
  const double w_phi = 1.3;
  for (const Case& k : cases())
    for (Vec3<double> q : k.local_points) {
      const int type = static_cast<int>(k.c.type);
      CAPTURE(type);
      CAPTURE(q.x);
      CAPTURE(q.y);
      CAPTURE(q.z);
      double x[3];
      const Vec3<double> p = world(k.c, q);
      x[0] = p.x, x[1] = p.y, x[2] = p.z;
      auto phi = [&] {
        const SdfSample<double> s = collider_sdf(k.c, Vec3<double>{x[0], x[1], x[2]});
        return w_phi * s.distance + dot(w, s.normal);
      };
      const Vec3<double> adj = collider_sdf_adjoint(k.c, Vec3<double>{x[0], x[1], x[2]}, w_phi, w);
      const double a[3] = {adj.x, adj.y, adj.z};
      for (int j = 0; j < 3; ++j) check_close("x", j, a[j], central_difference(x[j], phi));
    }
}

TEST_CASE("colliders: the signed distance's adjoint to the shape's size matches finite differences") {
  const Vec3<double> w{0.7, -0.4, 0.9};
  const double w_phi = 1.3;
  for (const Case& k : cases())
    for (Vec3<double> q : k.local_points) {
      CAPTURE(static_cast<int>(k.c.type));
      CAPTURE(q.x);
      CAPTURE(q.y);
      CAPTURE(q.z);
      Collider<double> c = k.c;
      const Vec3<double> p = world(c, q);
      auto phi = [&] {
        const SdfSample<double> s = collider_sdf(c, p);
        return w_phi * s.distance + dot(w, s.normal);
      };
      double adj_size[3] = {0, 0, 0};
      collider_sdf_adjoint(c, p, w_phi, w, adj_size);
      for (int j = 0; j < 3; ++j) check_close("size", j, adj_size[j], central_difference(c.size[j], phi));
    }
}

// A convex hull as its face planes: the cube [-0.4, 0.4] x [-0.3, 0.3] x [-0.5, 0.5] cut
// by a slanted face across its (+x, +y) edge.
TEST_CASE("colliders: a convex hull's distance is its farthest face plane's, exact inside and on faces") {
  const double s = 1 / std::sqrt(2.0);
  const double planes[] = {1, 0,   0, 0.4, -1, 0,   0, 0.4, 0,  1,   0, 0.3, 0, -1,
                           0, 0.3, 0, 0,   1,  0.5, 0, 0,   -1, 0.5, s, s,   0, 0.5 * s};
  Collider<double> hull = shape(ShapeType::Convex, 0, 0, 0);
  hull.planes = planes, hull.plane_count = 7;
  SdfSample<double> d = collider_sdf(hull, world(hull, {0.0, 0.0, 0.45}));  // inside, nearest +z
  CHECK(d.distance == doctest::Approx(-0.05));
  CHECK(to_local(hull, d.normal).z == doctest::Approx(1.0));
  d = collider_sdf(hull, world(hull, {-0.6, 0.0, 0.0}));  // outside the -x face
  CHECK(d.distance == doctest::Approx(0.2));
  CHECK(to_local(hull, d.normal).x == doctest::Approx(-1.0));
  d = collider_sdf(hull, world(hull, {0.35, 0.25, 0.0}));  // past the slanted face
  CHECK(d.distance == doctest::Approx((0.35 + 0.25) * s - 0.5 * s));
  CHECK(to_local(hull, d.normal).x == doctest::Approx(s));
  // Past a corner the farthest plane is nearer than the corner: an underestimate.
  d = collider_sdf(hull, world(hull, {-0.7, -0.6, 0.0}));
  CHECK(d.distance == doctest::Approx(0.3));
  CHECK(d.distance < std::hypot(0.3, 0.3));

  // The adjoint: the face's normal times dL/dphi (the normal is constant on a face).
  const Vec3<double> w{0.7, -0.4, 0.9};
  for (Vec3<double> q : {Vec3<double>{0.0, 0.0, 0.45}, Vec3<double>{-0.6, 0.1, 0.0}, Vec3<double>{0.35, 0.25, 0.1}}) {
    CAPTURE(q.x);
    const Vec3<double> p = world(hull, q);
    double x[3] = {p.x, p.y, p.z};
    auto phi = [&] {
      const SdfSample<double> sd = collider_sdf(hull, Vec3<double>{x[0], x[1], x[2]});
      return 1.3 * sd.distance + dot(w, sd.normal);
    };
    const Vec3<double> adj = collider_sdf_adjoint(hull, p, 1.3, w);
    const double a[3] = {adj.x, adj.y, adj.z};
    for (int j = 0; j < 3; ++j) check_close("x", j, a[j], central_difference(x[j], phi));
  }
}

TEST_CASE("colliders: the contact force's adjoint matches finite differences") {
  const Vec3<double> w{0.6, 1.1, -0.8};
  for (const Case& k : cases())
    for (double smoothing : {0.0, 0.02})
      for (bool approach_only : {true, false})
        for (Vec3<double> q : k.local_points) {
          const int type = static_cast<int>(k.c.type);
          CAPTURE(type);
          CAPTURE(smoothing);
          CAPTURE(approach_only);
          CAPTURE(q.x);
          CAPTURE(q.y);
          CAPTURE(q.z);
          double ke = 800, kd = 3, mu = 0.4, radius = 0.12;
          const Vec3<double> p = world(k.c, q);
          double x[3] = {p.x, p.y, p.z};
          // Moving into the shape: towards its centre, plus some slip.
          const Vec3<double> in = to_world(k.c, q * -1.0);
          double v[3] = {0.8 * in.x + 0.3, 0.8 * in.y - 0.2, 0.8 * in.z + 0.1};
          auto model = [&] {
            ColliderModel<double> cm;
            cm.stiffness = ke, cm.damping = kd, cm.friction = mu;
            cm.smoothing = smoothing, cm.friction_smoothing = 0.05, cm.damp_approach_only = approach_only;
            return cm;
          };
          auto phi = [&] {
            return dot(w, collider_contact_force(model(), k.c, Vec3<double>{x[0], x[1], x[2]},
                                                 Vec3<double>{v[0], v[1], v[2]}, radius));
          };
          Vec3<double> ax{0, 0, 0}, av{0, 0, 0};
          double gk = 0, gd = 0, gmu = 0, gr = 0;
          collider_contact_adjoint(model(), k.c, Vec3<double>{x[0], x[1], x[2]}, Vec3<double>{v[0], v[1], v[2]}, radius,
                                   w, ax, av, gk, gd, gmu, gr);
          const double adj_x[3] = {ax.x, ax.y, ax.z}, adj_v[3] = {av.x, av.y, av.z};
          for (int j = 0; j < 3; ++j) {
            check_close("x", j, adj_x[j], central_difference(x[j], phi));
            check_close("v", j, adj_v[j], central_difference(v[j], phi));
          }
          check_close("stiffness", 0, gk, central_difference(ke, phi));
          check_close("damping", 0, gd, central_difference(kd, phi));
          check_close("friction", 0, gmu, central_difference(mu, phi));
          check_close("radius", 0, gr, central_difference(radius, phi));
        }
}

namespace {

// A particle thrown at a wall (a turned box) and the ground (a tilted plane), off a
// sphere and past a capsule: every shape, both walls hit, friction in play.
Scene make_bounce_scene(double smoothing, int steps = 240) {
  Scene scene;
  scene.name = "collider bounce";
  scene.settings.dt = 1.0 / 480;
  scene.settings.steps = steps;
  scene.pinned = {0, 0};
  scene.params[ParamId::InitialPosition].value = {-0.5, 1.0, 0.0, -0.6, 1.4, 0.2};
  shape_parameters(scene);
  scene.params[ParamId::InitialVelocity].value = {5.0, -5.0, 0.3, 4.0, -2.0, -0.2};
  scene.params[ParamId::ParticleRadius].value = {0.1, 0.08};
  scene.params[ParamId::ContactStiffness].value = {1e4};
  scene.params[ParamId::ContactDamping].value = {10.0};
  scene.params[ParamId::ContactFriction].value = {0.2};
  scene.contact.smoothing = smoothing;
  scene.contact.friction_smoothing = 0.05;
  ColliderShape ground;
  ground.normal[0] = 0.05, ground.normal[1] = 1.0, ground.normal[2] = 0.0;
  const double len = std::hypot(ground.normal[0], ground.normal[1]);
  ground.normal[0] /= len, ground.normal[1] /= len;
  ColliderShape wall;
  wall.type = ColliderType::Box;
  wall.position[0] = 2.0, wall.position[1] = 1.0;
  wall.half_extents[0] = 0.25, wall.half_extents[1] = 1.0, wall.half_extents[2] = 1.0;
  wall.orientation[0] = 0, wall.orientation[1] = std::sin(0.1), wall.orientation[2] = 0,
  wall.orientation[3] = std::cos(0.1);
  ColliderShape ball;
  ball.type = ColliderType::Sphere;
  ball.position[0] = 0.6, ball.position[1] = 0.1, ball.position[2] = -0.9;
  ball.radius = 0.3;
  ColliderShape post;
  post.type = ColliderType::Capsule;
  post.position[0] = 0.9, post.position[1] = 0.5, post.position[2] = 0.8;
  post.radius = 0.1, post.half_length = 0.5;
  scene.colliders = {ground, wall, ball, post};
  Objective target;
  target.type = ObjectiveType::Target;
  target.particles = {0};
  target.target = {-2.0, 1.5, 0.0};
  Objective second = target;
  second.particles = {1};
  scene.objectives = {target, second};
  return scene;
}

std::unique_ptr<Simulator> simulator(const Scene& scene) {
  SimulatorOptions options;
  options.device = Device::Cpu;
  options.threads = 1;
  Result<std::unique_ptr<Simulator>> sim = Simulator::create(scene, options);
  REQUIRE_MESSAGE(sim.ok(), (sim.ok() ? "" : sim.error().message));
  return std::move(sim.value());
}

}  // namespace

TEST_CASE("colliders: whole rollouts' gradients match finite differences, smooth and sharp switches") {
  for (double smoothing : {0.01, 0.0}) {
    CAPTURE(smoothing);
    const Scene scene = make_bounce_scene(smoothing);
    REQUIRE(check_scene(scene).ok());
    GradCheckOptions options;
    options.samples_per_parameter = 100;
    Result<GradCheckReport> report = gradient_check(scene, options);
    REQUIRE_MESSAGE(report.ok(), (report.ok() ? "" : report.error().message));
    int contact_entries = 0;
    for (const GradCheckEntry& e : report->entries) {
      INFO(param_name(e.param) << "[" << e.index << "] adjoint " << e.adjoint << ", finite difference "
                               << e.finite_difference << ", uncertainty " << e.uncertainty);
      CHECK(e.passed);
      if (e.param == ParamId::ContactStiffness || e.param == ParamId::ContactDamping ||
          e.param == ParamId::ContactFriction || e.param == ParamId::ParticleRadius)
        contact_entries += e.adjoint != 0.0;
    }
    CHECK(contact_entries == 5);  // the motion depends on every contact parameter
  }
}

TEST_CASE("colliders: the particle hits every shape, and rests on the ground where the springs say") {
  // The bounce: off the ground, then the particle's x velocity turns around at the wall
  // (which it reaches at about 0.6 s).
  const Scene bounce = make_bounce_scene(0.0, 400);
  std::unique_ptr<Simulator> sim = simulator(bounce);
  Result<Trajectory> traj = sim->trajectory(bounce.params);
  REQUIRE(traj.ok());
  double max_x = -1e9;
  for (int t = 0; t <= traj->steps; ++t) max_x = std::max(max_x, traj->x[size_t(t) * 6]);
  CHECK(max_x < 2.0 - 0.25 + 0.05);             // stopped by the wall's face (x = 1.75), radius 0.1
  CHECK(traj->v[size_t(traj->steps) * 6] < 0);  // and sent back

  // At rest on a flat plane a particle sinks by m g / k below its radius.
  Scene rest;
  rest.settings.dt = 1e-3;
  rest.settings.steps = 3000;
  rest.pinned = {0};
  rest.params[ParamId::InitialPosition].value = {0.0, 0.3, 0.0};
  shape_parameters(rest);
  rest.params[ParamId::Mass].value = {2.0};
  rest.params[ParamId::ParticleRadius].value = {0.05};
  rest.params[ParamId::ContactStiffness].value = {2e4};
  rest.params[ParamId::ContactDamping].value = {40.0};
  rest.colliders = {ColliderShape{}};
  rest.contact.damp_approach_only = false;
  sim = simulator(rest);
  traj = sim->trajectory(rest.params);
  REQUIRE(traj.ok());
  CHECK(traj->x[size_t(rest.settings.steps) * 3 + 1] == doctest::Approx(0.05 - 2.0 * 9.81 / 2e4).epsilon(1e-4));

  // On a slope steeper than the friction holds, a particle slides down; on a gentler one
  // it creeps at the regularised friction's slip speed only.
  for (double mu : {0.2, 0.8}) {
    Scene slope = rest;
    ColliderShape plane;
    const double angle = 0.4;  // tan 0.4 = 0.42
    plane.normal[0] = -std::sin(angle), plane.normal[1] = std::cos(angle), plane.normal[2] = 0;
    slope.colliders = {plane};
    slope.params[ParamId::InitialPosition].value = {0.0, 0.05 / std::cos(angle), 0.0};
    slope.params[ParamId::ContactFriction].value = {mu};
    slope.contact.friction_smoothing = 1e-3;
    sim = simulator(slope);
    traj = sim->trajectory(slope.params);
    REQUIRE(traj.ok());
    const double x_end = traj->x[size_t(slope.settings.steps) * 3];
    CAPTURE(mu);
    CAPTURE(x_end);
    if (mu < std::tan(angle))
      CHECK(x_end < -1.0);  // slid downhill (-x): a ~ g (sin - mu cos) ~ 2 m/s^2 for 3 s
    else
      CHECK(std::fabs(x_end) < 0.01);
  }
}

TEST_CASE("colliders: what the smoothing width does to gradients") {
  // A particle dropped towards a plane. Its loss is its final height; the question is
  // how that height depends on the contact stiffness.
  const auto drop = [](double start_height, double smoothing) {
    Scene scene;
    scene.settings.dt = 1e-3;
    scene.settings.steps = 300;
    scene.pinned = {0};
    scene.params[ParamId::InitialPosition].value = {0.0, start_height, 0.0};
    shape_parameters(scene);
    scene.params[ParamId::ParticleRadius].value = {0.05};
    scene.params[ParamId::ContactStiffness].value = {2e3};
    scene.params[ParamId::ContactDamping].value = {5.0};
    scene.contact.smoothing = smoothing;
    scene.colliders = {ColliderShape{}};
    Objective height;
    height.type = ObjectiveType::Target;
    height.particles = {0};
    height.target = {0.0, 1.0, 0.0};
    scene.objectives = {height};
    ParameterSet params = scene.params;
    Result<Evaluation> eval = simulator(scene)->gradient(params);
    REQUIRE(eval.ok());
    return params[ParamId::ContactStiffness].grad[0];
  };
  // A near miss: it falls 0.44 m in 0.3 s and stops 1 cm above the surface. With the sharp
  // switch the stiffness cannot matter, and its gradient is exactly 0: nothing tells an
  // optimiser that a stiffer floor is 1 cm away. A smoothing width of 2 cm lets the
  // force, and so the gradient, reach across the gap.
  const double miss = 0.05 + 0.5 * 9.81 * 0.3 * 0.3 + 0.01;
  CHECK(drop(miss, 0.0) == 0.0);
  CHECK(std::fabs(drop(miss, 0.02)) > 1e-6);
  // In contact, a width small next to the penetration changes the gradient little: the
  // smooth and the sharp gradients agree to a few percent.
  const double hit = 0.05 + 0.2;
  const double sharp = drop(hit, 0.0), smooth = drop(hit, 1e-4);
  INFO("sharp " << sharp << ", smooth " << smooth);
  CHECK(sharp != 0.0);
  CHECK(std::fabs(smooth - sharp) <= 0.05 * std::fabs(sharp));
}
