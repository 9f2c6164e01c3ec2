// The articulations' recursions on their own: the mass matrix, the bias forces and a
// rollout of a double pendulum against MuJoCo's numbers, and the step's adjoint against
// central differences in double, input by input; the same for the RK4 step
// (articulation_rk4.h).
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "central_difference.h"
#include "families/articulations/articulation_dynamics.h"
#include "families/articulations/articulation_rk4.h"

namespace nudge {
namespace {

// RK4's scratch for a tree of `dofs` coordinates and `positions` positions.
struct Rk4Buffers {
  int dofs;
  std::vector<double> v = std::vector<double>(4 * size_t(dofs)), a = v, adj_v = v, adj_a = v,
                      rate = std::vector<double>(size_t(dofs)), adj_rate = rate;
  std::vector<double> q, adj_q;
  Rk4Buffers(int coordinates, int positions) : dofs(coordinates), q(size_t(positions)), adj_q(size_t(positions)) {}
  Rk4Scratch<double> scratch() {
    return {v.data(), a.data(), adj_v.data(), adj_a.data(), rate.data(), adj_rate.data(), q.data(), adj_q.data(), dofs};
  }
};

// One step of the fixture's tree, by RK4 where it says so (runge_kutta), and its adjoint.
template <class Tree>
bool step(Tree& b, const double* q, const double* qd, double* q_next, double* qd_next) {
  if (b.runge_kutta) return tree_step_rk4(b.tree, b.inputs(), q, qd, b.scratch(), b.rk4.scratch(), q_next, qd_next);
  return tree_step(b.tree, b.inputs(), q, qd, b.scratch(), q_next, qd_next);
}
template <class Tree>
bool adjoint_step(Tree& b, const double* q, const double* qd, double* adj_q, double* adj_qd,
                  const TreeGrad<double>& grad) {
  if (b.runge_kutta)
    return adjoint_tree_step_rk4(b.tree, b.inputs(), q, qd, b.scratch(), b.rk4.scratch(), adj_q, adj_qd, grad, 0);
  return adjoint_tree_step(b.tree, b.inputs(), q, qd, b.scratch(), adj_q, adj_qd, grad, 0);
}

LinkModel<double> hinge_link(int parent, int dof, Vec3<double> pos, Vec3<double> com, double mass,
                             Vec3<double> diag_inertia) {
  LinkModel<double> l;
  l.parent = parent;
  l.joint = int(LinkJoint::Hinge);
  l.dof = dof;
  l.dofs = dof >= 0 ? 1 : 0;
  l.position = dof;
  l.pos = pos;
  l.quat = {0, 0, 0, 1};
  l.anchor = {0, 0, 0};
  l.axis = {0, 1, 0};
  l.mass = mass;
  l.com = com;
  l.inertia = diagonal33(diag_inertia);
  return l;
}

// A plane collider through `on` with unit normal n (its rotation's second column).
Collider<double> plane_through(Vec3<double> on, Vec3<double> n) {
  const Vec3<double> a = normalize(cross(n, Vec3<double>{1, 0, 0})), b = cross(a, n);
  Collider<double> plane{};
  plane.type = ShapeType::Plane;
  plane.position[0] = on.x, plane.position[1] = on.y, plane.position[2] = on.z;
  const Vec3<double> cols[3] = {b, n, a};
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) plane.rotation[3 * r + c] = r == 0 ? cols[c].x : r == 1 ? cols[c].y : cols[c].z;
  return plane;
}

// The fixtures' contacts: smooth (damping both ways, a softplus switch) so that central
// differences apply, on the given colliders and points.
LinkContacts<double> smooth_contacts(const std::vector<Collider<double>>& shapes, const std::vector<int>& start,
                                     const std::vector<Vec3<double>>& offset, const std::vector<double>& radius) {
  LinkContacts<double> c;
  c.colliders.count = static_cast<int>(shapes.size());
  c.colliders.shapes = shapes.data();
  c.colliders.stiffness = 3000;
  c.colliders.damping = 20;
  c.colliders.friction = 0.6;
  c.colliders.smoothing = 0.01;
  c.colliders.friction_smoothing = 0.1;
  c.colliders.damp_approach_only = false;
  c.point_start = start.data();
  c.offset = offset.data();
  c.radius = radius.data();
  return c;
}

// tests/data/articulations/double_pendulum.xml, as MuJoCo models it.
struct DoublePendulum {
  std::vector<LinkModel<double>> links{hinge_link(-1, 0, {0, 0, 2}, {0, 0, -0.25}, 1.0, {0.021, 0.021, 0.001}),
                                       hinge_link(0, 1, {0, 0, -0.5}, {0, 0, -0.2}, 0.5, {0.007, 0.007, 0.0005})};
  std::vector<DofModel<double>> dofs{{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, {0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0}};
  TreeModel tree{0, 2, 0, 2, 0, 2, 0};
  bool runge_kutta = false;
  Rk4Buffers rk4{2, 2};
  std::vector<LinkFrame<double>> frames = std::vector<LinkFrame<double>>(2);
  std::vector<double> matrix = std::vector<double>(4), tau = std::vector<double>(2), qdd = std::vector<double>(2),
                      work = std::vector<double>(2), mass = std::vector<double>(4), step = std::vector<double>(2),
                      base = std::vector<double>(2);
  TreeScratch<double> scratch() {
    return {frames.data(), matrix.data(), tau.data(), qdd.data(), work.data(), mass.data(), step.data(), base.data()};
  }
  TreeStepInputs<double> inputs() { return {links.data(), dofs.data(), nullptr, 0, nullptr, {0, 0, -9.81}, 1e-3, {}}; }
};

TEST_CASE("a double pendulum's mass matrix and bias forces are MuJoCo's") {
  DoublePendulum p;
  const double q[2] = {0.7, -0.4}, qd[2] = {0, 0}, zero[2] = {0, 0};
  link_frames(p.tree, p.links.data(), q, p.frames.data());
  double m[4];
  mass_matrix(p.tree, p.links.data(), p.frames.data(), m);
  // mujoco.mj_fullM after mj_forward at q = (0.7, -0.4)
  CHECK(m[0] == doctest::Approx(0.327606099400288).epsilon(1e-12));
  CHECK(m[1] == doctest::Approx(0.073053049700144).epsilon(1e-12));
  CHECK(m[2] == doctest::Approx(0.073053049700144).epsilon(1e-12));
  CHECK(m[3] == doctest::Approx(0.027).epsilon(1e-12));
  double c[2];
  inverse_dynamics(p.tree, p.links.data(), qd, zero, Vec3<double>{0, 0, -9.81}, p.frames.data(), c);
  CHECK(c[0] == doctest::Approx(3.449793078635649).epsilon(1e-12));  // qfrc_bias
  CHECK(c[1] == doctest::Approx(0.289905322734774).epsilon(1e-12));
}

TEST_CASE("a double pendulum swings for 2 s as MuJoCo's Euler at dt = 1 ms does, to 1e-9") {
  DoublePendulum p;
  std::vector<double> q{0.7, -0.4}, qd{0, 0}, qn(2), qdn(2);
  const TreeStepInputs<double> in = p.inputs();
  double k0, u0;
  tree_energy(p.tree, p.links.data(), q.data(), qd.data(), in.gravity, p.frames.data(), k0, u0);
  for (int t = 0; t < 2000; ++t) {
    REQUIRE(tree_step(p.tree, in, q.data(), qd.data(), p.scratch(), qn.data(), qdn.data()));
    q = qn, qd = qdn;
  }
  // mujoco 4.0.0: double_pendulum.xml, qpos = (0.7, -0.4), 2000 x mj_step
  CHECK(q[0] == doctest::Approx(-0.061458341558146).epsilon(1e-9));
  CHECK(q[1] == doctest::Approx(-0.283473323778461).epsilon(1e-9));
  CHECK(qd[0] == doctest::Approx(-0.354647305298189).epsilon(1e-9));
  CHECK(qd[1] == doctest::Approx(-8.157621273254763).epsilon(1e-9));
  double k1, u1;
  tree_energy(p.tree, p.links.data(), q.data(), qd.data(), in.gravity, p.frames.data(), k1, u1);
  CHECK((k1 + u1) - (k0 + u0) == doctest::Approx(0.00344).epsilon(0.02));  // MuJoCo's drift, J
}

TEST_CASE("a double pendulum swings for 2 s as MuJoCo's RK4 at dt = 1 ms does, to 1e-9, and keeps its energy") {
  DoublePendulum p;
  p.runge_kutta = true;
  std::vector<double> q{0.7, -0.4}, qd{0, 0}, qn(2), qdn(2);
  double k0, u0;
  tree_energy(p.tree, p.links.data(), q.data(), qd.data(), p.inputs().gravity, p.frames.data(), k0, u0);
  for (int t = 0; t < 2000; ++t) {
    REQUIRE(step(p, q.data(), qd.data(), qn.data(), qdn.data()));
    q = qn, qd = qdn;
  }
  // mujoco 4.0.0: double_pendulum.xml with integrator RK4, qpos = (0.7, -0.4), 2000 x mj_step
  CHECK(q[0] == doctest::Approx(-0.062249998692905).epsilon(1e-9));
  CHECK(q[1] == doctest::Approx(-0.275849119850069).epsilon(1e-9));
  CHECK(qd[0] == doctest::Approx(-0.332311140675306).epsilon(1e-9));
  CHECK(qd[1] == doctest::Approx(-8.206085265965406).epsilon(1e-9));
  double k1, u1;
  tree_energy(p.tree, p.links.data(), q.data(), qd.data(), p.inputs().gravity, p.frames.data(), k1, u1);
  // MuJoCo's RK4 drifts by -2.0e-11 J here, its Euler by +6.0e-3 J.
  CHECK(std::fabs((k1 + u1) - (k0 + u0)) < 1e-9);
}

TEST_CASE("RK4's error falls as dt^4") {
  // The double pendulum over 0.5 s at dt = 8, 4 and 2 ms against dt = 0.25 ms.
  const auto final_q = [](double dt) {
    DoublePendulum p;
    p.runge_kutta = true;
    std::vector<double> q{0.7, -0.4}, qd{0, 0}, qn(2), qdn(2);
    TreeStepInputs<double> in = p.inputs();
    in.dt = dt;
    for (int t = 0; t < int(std::lround(0.5 / dt)); ++t) {
      REQUIRE(tree_step_rk4(p.tree, in, q.data(), qd.data(), p.scratch(), p.rk4.scratch(), qn.data(), qdn.data()));
      q = qn, qd = qdn;
    }
    return q;
  };
  const std::vector<double> truth = final_q(2.5e-4);
  const auto error = [&](double dt) {
    const std::vector<double> q = final_q(dt);
    return std::max(std::fabs(q[0] - truth[0]), std::fabs(q[1] - truth[1]));
  };
  const double e8 = error(8e-3), e4 = error(4e-3), e2 = error(2e-3);
  INFO("errors " << e8 << ", " << e4 << ", " << e2);
  CHECK(e8 / e4 > 12);  // 16 for fourth order
  CHECK(e4 / e2 > 12);
}

// A tree with every kind of joint and term: a slide carrying a hinge with an offset anchor,
// a welded link, and a second branch; damping, armature, actuators of both kinds.
struct Branchy {
  std::vector<LinkModel<double>> links;
  std::vector<DofModel<double>> dofs{{0.01, 0.3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
                                     {0.02, 0.1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0},
                                     {0.0, 0.05, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0},
                                     {0.03, 0.0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0}};
  std::vector<DofActuator<double>> actuators{{0, 0, 0, 1.5, 1.0, 0.0, 0.0, 0, 0, 0, 0, 0, 0},
                                             {1, 1, 1, 0.8, 20.0, -20.0, -2.0, 0, 0, 0, 0, 0, 0},
                                             {3, 3, 0, 1.0, 1.0, 0.0, 0.0, 0, 0, 0, 0, 0, 0}};
  std::vector<double> controls{0.7, 0.2};
  TreeModel tree{0, 5, 0, 4, 0, 4, 0};
  bool runge_kutta = false;
  Rk4Buffers rk4{4, 4};
  std::vector<double> q0{0.1, 0.4, -0.7, 1.1}, qd0{0.3, -0.5, 0.8, 0.2};
  Vec3<double> gravity{0.3, -0.2, -9.81};
  double dt = 0.01;
  std::vector<LinkFrame<double>> frames = std::vector<LinkFrame<double>>(5);
  std::vector<double> matrix = std::vector<double>(16), tau = std::vector<double>(4), qdd = std::vector<double>(4),
                      work = std::vector<double>(4), mass = std::vector<double>(16), step = std::vector<double>(4),
                      base = std::vector<double>(4);

  Branchy() {
    LinkModel<double> slide = hinge_link(-1, 0, {0.1, 0.2, 1.0}, {0.05, 0.0, 0.02}, 2.0, {0.05, 0.04, 0.03});
    slide.joint = int(LinkJoint::Slide);
    slide.axis = normalize(Vec3<double>{1, 0.2, 0.1});
    LinkModel<double> arm = hinge_link(0, 1, {0.0, 0.1, -0.2}, {0.1, 0.02, -0.3}, 1.2, {0.03, 0.02, 0.01});
    arm.quat = normalize(Quat<double>{0.1, 0.2, -0.1, 0.95});
    arm.anchor = {0.02, -0.01, 0.05};
    arm.axis = normalize(Vec3<double>{0.2, 1, 0.3});
    arm.inertia(0, 1) = arm.inertia(1, 0) = 0.004;
    LinkModel<double> welded = hinge_link(1, -1, {0.1, 0, -0.5}, {0, 0.05, -0.1}, 0.4, {0.01, 0.01, 0.02});
    welded.joint = int(LinkJoint::Weld);
    LinkModel<double> hand = hinge_link(2, 2, {0, 0, -0.3}, {0.0, 0.0, -0.15}, 0.6, {0.01, 0.012, 0.004});
    hand.axis = normalize(Vec3<double>{1, 0, 0.4});
    LinkModel<double> side = hinge_link(0, 3, {-0.2, 0, 0}, {-0.1, 0.03, 0}, 0.7, {0.006, 0.01, 0.008});
    side.axis = {0, 0, 1};
    links = {slide, arm, welded, hand, side};
  }
  TreeScratch<double> scratch() {
    return {frames.data(), matrix.data(), tau.data(), qdd.data(), work.data(), mass.data(), step.data(), base.data()};
  }
  TreeStepInputs<double> inputs() {
    return {links.data(), dofs.data(), actuators.data(), int(actuators.size()), controls.data(), gravity, dt, contacts};
  }

  // Contact points on the slide, the arm, the hand and the side link, and two colliders
  // placed at q: a tilted plane 1.5 cm into the hand's sphere and a sphere 1 cm into the
  // side link's, the others within the switch's width or clear of both. Smooth (damping
  // both ways, a softplus switch) so that central differences apply.
  std::vector<int> point_start;
  std::vector<Vec3<double>> point_offset;
  std::vector<double> point_radius;
  std::vector<Collider<double>> shapes;
  LinkContacts<double> contacts;

  void add_contacts(const double* q) {
    point_start = {0, 1, 3, 3, 4, 5};
    point_offset = {{0, 0, -0.1}, {0.1, 0.02, -0.3}, {0.05, 0.05, -0.35}, {0, 0, -0.3}, {-0.1, 0, 0}};
    point_radius = {0.05, 0.04, 0.0, 0.03, 0.02};
    link_frames(tree, links.data(), q, frames.data());
    const auto world = [&](int link, int point) {
      return frames[size_t(link)].origin + frames[size_t(link)].rot * point_offset[size_t(point)];
    };
    // The plane through the hand's point, 1.5 cm deep.
    const Vec3<double> n = normalize(Vec3<double>{0.1, -0.2, 1});
    const Collider<double> plane = plane_through(world(3, 3) - (point_radius[3] - 0.015) * n, n);
    Collider<double> ball{};
    ball.type = ShapeType::Sphere;
    ball.size[0] = 0.2;
    const Vec3<double> side = world(4, 4), centre = side + (0.2 + point_radius[4] - 0.01) * Vec3<double>{0, 0, -1};
    ball.position[0] = centre.x, ball.position[1] = centre.y, ball.position[2] = centre.z;
    for (int k = 0; k < 9; ++k) ball.rotation[k] = k % 4 == 0 ? 1 : 0;
    shapes = {plane, ball};
    contacts = smooth_contacts(shapes, point_start, point_offset, point_radius);
  }
};

TEST_CASE("the mass matrix is RNEA's response to each unit acceleration") {
  Branchy b;
  const double q[4] = {0.1, 0.4, -0.7, 1.1}, zero[4] = {0, 0, 0, 0};
  link_frames(b.tree, b.links.data(), q, b.frames.data());
  double m[16];
  mass_matrix(b.tree, b.links.data(), b.frames.data(), m);
  for (int j = 0; j < 4; ++j) {
    double e[4] = {0, 0, 0, 0}, r[4];
    e[j] = 1;
    inverse_dynamics(b.tree, b.links.data(), zero, e, Vec3<double>{0, 0, 0}, b.frames.data(), r);
    for (int i = 0; i < 4; ++i) CHECK(m[i * 4 + j] == doctest::Approx(r[i]).epsilon(1e-12));
  }
}

// L = a . q' + c . qd' after `steps` steps from the fixture's (q0, qd0).
template <class Tree>
struct StepLoss {
  Tree& b;
  std::vector<double> q = b.q0, qd = b.qd0, a = weights(q.size(), 0.3), c = weights(qd.size(), 1.1);
  int steps = 3;
  static std::vector<double> weights(size_t n, double phase) {
    std::vector<double> w(n);
    for (size_t i = 0; i < n; ++i) w[i] = std::sin(1.7 * double(i) + phase);
    return w;
  }
  double operator()() {
    std::vector<double> x = q, xd = qd, xn(q.size()), xdn(qd.size());
    for (int t = 0; t < steps; ++t) {
      REQUIRE(step(b, x.data(), xd.data(), xn.data(), xdn.data()));
      x = xn, xd = xdn;
    }
    double l = 0;
    for (size_t i = 0; i < x.size(); ++i) l += a[i] * x[i];
    for (size_t i = 0; i < xd.size(); ++i) l += c[i] * xd[i];
    return l;
  }
};

struct StepGradients {
  std::vector<double> q, qd, mass, armature, damping, stiffness, spring_ref, frictionloss, gain, bias_q, bias_qd,
      controls;
  std::vector<Vec3<double>> com, pos;
  std::vector<Mat33<double>> inertia;
  Vec3<double> gravity{0, 0, 0};
  double contact_stiffness = 0, contact_damping = 0, contact_friction = 0;
  std::vector<Vec3<double>> point_offset;  // per contact point
  std::vector<double> point_radius;
};

template <class Tree>
StepGradients adjoint_gradients(Tree& b, StepLoss<Tree>& loss) {
  // Forward, keeping each step's state; then the steps' adjoints back.
  std::vector<std::vector<double>> qs{loss.q}, qds{loss.qd};
  for (int t = 0; t < loss.steps; ++t) {
    std::vector<double> xn(loss.q.size()), xdn(loss.qd.size());
    REQUIRE(step(b, qs.back().data(), qds.back().data(), xn.data(), xdn.data()));
    qs.push_back(xn), qds.push_back(xdn);
  }
  StepGradients g;
  g.q = loss.a, g.qd = loss.c;
  const size_t links = b.links.size(), dofs = b.dofs.size();
  g.mass.assign(links, 0.0), g.com.assign(links, {0, 0, 0}), g.pos.assign(links, {0, 0, 0});
  g.inertia.assign(links, zero33<double>());
  g.armature.assign(dofs, 0.0), g.damping.assign(dofs, 0.0), g.stiffness.assign(dofs, 0.0),
      g.spring_ref.assign(dofs, 0.0), g.frictionloss.assign(dofs, 0.0), g.gain.assign(b.actuators.size(), 0.0);
  g.bias_q.assign(b.actuators.size(), 0.0), g.bias_qd.assign(b.actuators.size(), 0.0);
  g.controls.assign(b.controls.size(), 0.0);
  g.point_offset.assign(b.point_offset.size(), {0, 0, 0}), g.point_radius.assign(b.point_radius.size(), 0.0);
  const TreeGrad<double> grad{g.mass.data(),
                              g.com.data(),
                              g.inertia.data(),
                              g.pos.data(),
                              g.armature.data(),
                              g.damping.data(),
                              {g.gain.data(), g.bias_q.data(), g.bias_qd.data()},
                              g.controls.data(),
                              &g.gravity,
                              {&g.contact_stiffness, &g.contact_damping, &g.contact_friction},
                              {g.point_offset.data(), g.point_radius.data()},
                              g.stiffness.data(),
                              g.spring_ref.data(),
                              g.frictionloss.data()};
  for (int t = loss.steps - 1; t >= 0; --t)
    REQUIRE(adjoint_step(b, qs[size_t(t)].data(), qds[size_t(t)].data(), g.q.data(), g.qd.data(), grad));
  return g;
}

void check_close(double adjoint, double difference, const char* what, int index) {
  INFO(what << "[" << index << "]: adjoint " << adjoint << ", central difference " << difference);
  CHECK(std::fabs(adjoint - difference) <= 1e-6 * std::max(1.0, std::fabs(difference)));
}

template <class Tree>
void check_step_adjoint(Tree& b) {
  StepLoss<Tree> loss{b};
  const StepGradients g = adjoint_gradients(b, loss);
  const auto f = [&] { return loss(); };
  for (int i = 0; i < int(loss.q.size()); ++i)
    check_close(g.q[size_t(i)], test::central_difference(loss.q[size_t(i)], f), "q", i);
  for (int i = 0; i < int(loss.qd.size()); ++i) {
    check_close(g.qd[size_t(i)], test::central_difference(loss.qd[size_t(i)], f), "qd", i);
    check_close(g.armature[size_t(i)], test::central_difference(b.dofs[size_t(i)].armature, f), "armature", i);
    check_close(g.damping[size_t(i)], test::central_difference(b.dofs[size_t(i)].damping, f), "damping", i);
    // Every coordinate's stiffness: a hinge's or slide's spring, a ball's on its first (no
    // other coordinate reads it, and both sides are 0 there).
    check_close(g.stiffness[size_t(i)], test::central_difference(b.dofs[size_t(i)].stiffness, f), "stiffness", i);
    // Its dry friction, at frictionloss 0 too (a fixture without a friction_velocity has none).
    if (b.dofs[size_t(i)].friction_velocity > 0)
      check_close(g.frictionloss[size_t(i)], test::central_difference(b.dofs[size_t(i)].frictionloss, f),
                  "frictionloss", i);
    if (b.dofs[size_t(i)].position < 0) continue;  // a hinge's or slide's spring_ref
    check_close(g.spring_ref[size_t(i)], test::central_difference(b.dofs[size_t(i)].spring_ref, f), "spring_ref", i);
  }
  for (int k = 0; k < int(b.links.size()); ++k) {
    LinkModel<double>& l = b.links[size_t(k)];
    check_close(g.mass[size_t(k)], test::central_difference(l.mass, f), "mass", k);
    check_close(g.com[size_t(k)].x, test::central_difference(l.com.x, f), "com.x", k);
    check_close(g.com[size_t(k)].y, test::central_difference(l.com.y, f), "com.y", k);
    check_close(g.com[size_t(k)].z, test::central_difference(l.com.z, f), "com.z", k);
    check_close(g.pos[size_t(k)].x, test::central_difference(l.pos.x, f), "pos.x", k);
    check_close(g.pos[size_t(k)].y, test::central_difference(l.pos.y, f), "pos.y", k);
    check_close(g.pos[size_t(k)].z, test::central_difference(l.pos.z, f), "pos.z", k);
    // An inertia is symmetric: move (r, c) and (c, r) together, which the adjoint's two
    // entries add up for. (Alone, one entry makes M no longer r's Jacobian in qdd.)
    for (int r = 0; r < 3; ++r)
      for (int c = r; c < 3; ++c) {
        double shift = 0;
        const double base_rc = l.inertia(r, c), base_cr = l.inertia(c, r);
        const auto moved = [&] {
          l.inertia(r, c) = base_rc + shift, l.inertia(c, r) = base_cr + shift;
          const double value = loss();
          l.inertia(r, c) = base_rc, l.inertia(c, r) = base_cr;
          return value;
        };
        const double adjoint =
            r == c ? g.inertia[size_t(k)](r, r) : g.inertia[size_t(k)](r, c) + g.inertia[size_t(k)](c, r);
        check_close(adjoint, test::central_difference(shift, moved), "inertia", 9 * k + 3 * r + c);
      }
  }
  for (int a = 0; a < int(b.actuators.size()); ++a) {
    DofActuator<double>& act = b.actuators[size_t(a)];
    check_close(g.gain[size_t(a)], test::central_difference(act.gain, f), "gain", a);
    check_close(g.bias_q[size_t(a)], test::central_difference(act.bias_q, f), "bias_q", a);
    check_close(g.bias_qd[size_t(a)], test::central_difference(act.bias_qd, f), "bias_qd", a);
  }
  for (int c = 0; c < int(b.controls.size()); ++c)  // each step reads the same row here
    check_close(g.controls[size_t(c)], test::central_difference(b.controls[size_t(c)], f), "controls", c);
  check_close(g.gravity.x, test::central_difference(b.gravity.x, f), "gravity.x", 0);
  check_close(g.gravity.y, test::central_difference(b.gravity.y, f), "gravity.y", 0);
  check_close(g.gravity.z, test::central_difference(b.gravity.z, f), "gravity.z", 0);
  if (!b.contacts.active()) return;
  ColliderModel<double>& c = b.contacts.colliders;
  check_close(g.contact_stiffness, test::central_difference(c.stiffness, f), "contact stiffness", 0);
  check_close(g.contact_damping, test::central_difference(c.damping, f), "contact damping", 0);
  check_close(g.contact_friction, test::central_difference(c.friction, f), "contact friction", 0);
  // Each point's place on its link and its radius (what a link's scale moves).
  for (int j = 0; j < int(b.point_offset.size()); ++j) {
    Vec3<double>& o = b.point_offset[size_t(j)];
    check_close(g.point_offset[size_t(j)].x, test::central_difference(o.x, f), "point offset.x", j);
    check_close(g.point_offset[size_t(j)].y, test::central_difference(o.y, f), "point offset.y", j);
    check_close(g.point_offset[size_t(j)].z, test::central_difference(o.z, f), "point offset.z", j);
    check_close(g.point_radius[size_t(j)], test::central_difference(b.point_radius[size_t(j)], f), "point radius", j);
  }
}

TEST_CASE("a tree step's adjoint matches central differences for every input") {
  Branchy b;
  check_step_adjoint(b);
}

TEST_CASE("with contacts, a tree step's adjoint matches central differences for every input") {
  Branchy b;
  const StepLoss<Branchy> at{b};
  b.add_contacts(at.q.data());
  // The contacts act: the step differs from one without them.
  std::vector<double> with(4), with_d(4), without(4), without_d(4);
  REQUIRE(tree_step(b.tree, b.inputs(), at.q.data(), at.qd.data(), b.scratch(), with.data(), with_d.data()));
  TreeStepInputs<double> bare = b.inputs();
  bare.contacts = {};
  REQUIRE(tree_step(b.tree, bare, at.q.data(), at.qd.data(), b.scratch(), without.data(), without_d.data()));
  double change = 0;
  for (int i = 0; i < 4; ++i) change = std::max(change, std::fabs(with_d[size_t(i)] - without_d[size_t(i)]));
  CHECK(change > 0.05);
  check_step_adjoint(b);
}

TEST_CASE("with contacts the step solves its implicit residual, and stiff friction stays stable") {
  Branchy b;
  const StepLoss<Branchy> at{b};
  b.add_contacts(at.q.data());
  std::vector<double> q1(4), qd1(4);
  REQUIRE(tree_step(b.tree, b.inputs(), at.q.data(), at.qd.data(), b.scratch(), q1.data(), qd1.data()));
  // The contacts see the new rate: the residual at the solved qdd is zero.
  std::vector<double> r(4);
  const double largest = contact_step_residual(b.tree, b.inputs(), at.qd.data(), b.scratch(), b.qdd.data(), r.data());
  CHECK(largest < 1e-9);
  // Friction viscous below 1 mm/s (friction_smoothing 1e-3) and stiff damping: an explicit
  // step would turn the slip around by far more than it had; the implicit one settles.
  b.contacts.colliders.friction_smoothing = 1e-3;
  b.contacts.colliders.damping = 2000;
  std::vector<double> x = at.q, xd = at.qd, xn(4), xdn(4);
  for (int t = 0; t < 50; ++t) {
    REQUIRE(tree_step(b.tree, b.inputs(), x.data(), xd.data(), b.scratch(), xn.data(), xdn.data()));
    x = xn, xd = xdn;
  }
  for (double v : xd) CHECK(std::fabs(v) < 20);
  check_step_adjoint(b);
}

TEST_CASE("with limits pushing and a control clamped, a tree step's adjoint matches central differences") {
  Branchy b;
  // At q = (0.1, 0.4, -0.7, 1.1) the arm is past its upper bound and the side link below
  // its lower one, and both stay past them over the three steps.
  b.dofs[1].limited = 1, b.dofs[1].lower = -1.0, b.dofs[1].upper = 0.3;
  b.dofs[3].limited = 1, b.dofs[3].lower = 1.2, b.dofs[3].upper = 2.0;
  for (int i : {1, 3}) b.dofs[size_t(i)].limit_stiffness = 50, b.dofs[size_t(i)].limit_damping = 2;
  // The servo's control 0.2 is clamped to 0.1; the motors' 0.7 is inside [-1, 1].
  b.actuators[1].ctrl_limited = 1, b.actuators[1].ctrl_lower = -0.1, b.actuators[1].ctrl_upper = 0.1;
  b.actuators[0].ctrl_limited = 1, b.actuators[0].ctrl_lower = -1, b.actuators[0].ctrl_upper = 1;
  const StepLoss<Branchy> at{b};
  double dq, dqd;
  CHECK(limit_force(b.dofs[1], at.q[1], at.qd[1], dq, dqd) < 0);  // pushes the arm back down
  CHECK(limit_force(b.dofs[3], at.q[3], at.qd[3], dq, dqd) > 0);
  CHECK(limit_force(b.dofs[2], at.q[2], at.qd[2], dq, dqd) == 0);  // not limited
  check_step_adjoint(b);
  // A limit never pulls: past it but moving back in fast enough, the force is 0.
  CHECK(limit_force(b.dofs[1], 0.31, -10.0, dq, dqd) == 0);
  CHECK(dq == 0);
}

TEST_CASE("with joint springs, a tree step's adjoint matches central differences") {
  Branchy b;
  // MuJoCo's joint stiffness and springref on the slide, the arm and the hand.
  b.dofs[0].stiffness = 3.0, b.dofs[0].spring_ref = 0.4;
  b.dofs[1].stiffness = 1.5, b.dofs[1].spring_ref = -0.2;
  b.dofs[2].stiffness = 0.8, b.dofs[2].spring_ref = 0.1;
  // The spring's torque is -k (q - ref): nothing at ref (the actuators off here).
  Branchy quiet = b;
  for (DofActuator<double>& act : quiet.actuators) act.gain = act.bias_q = act.bias_qd = 0;
  std::vector<double> q{0.4, -0.2, 0.1, 1.1}, qd(4, 0.0), tau(4);
  actuator_forces(quiet.tree, quiet.inputs(), q.data(), qd.data(), tau.data());
  CHECK(tau[0] == 0);
  CHECK(tau[1] == 0);
  q[0] = 0.5;
  actuator_forces(quiet.tree, quiet.inputs(), q.data(), qd.data(), tau.data());
  CHECK(tau[0] == doctest::Approx(-3.0 * 0.1));
  check_step_adjoint(b);
}

TEST_CASE("with an actuator's force clamped to its forcerange, a tree step's adjoint matches central differences") {
  Branchy b;
  // The first motor's force 1.0 x 0.7 is clamped to 0.3; the servo's (about -1.6) and the
  // side motor's are inside their ranges.
  b.actuators[0].force_limited = 1, b.actuators[0].force_lower = -0.3, b.actuators[0].force_upper = 0.3;
  b.actuators[1].force_limited = 1, b.actuators[1].force_lower = -5, b.actuators[1].force_upper = 5;
  bool free = true;
  CHECK(actuator_force(b.actuators[0], 0.7, 0.1, 0.3, free) == 0.3);
  CHECK_FALSE(free);
  CHECK(actuator_force(b.actuators[1], 0.2, 0.4, -0.5, free) ==
        doctest::Approx(20 * 0.2 - 20 * 0.8 * 0.4 + 2 * 0.8 * 0.5));
  CHECK(free);
  StepLoss<Branchy> loss{b};
  const StepGradients g = adjoint_gradients(b, loss);
  CHECK(g.gain[0] == 0);  // a clamped force moves with nothing
  CHECK(g.gain[1] != 0);
  check_step_adjoint(b);
}

TEST_CASE("an RK4 tree step's adjoint matches central differences for every input") {
  Branchy b;
  b.runge_kutta = true;
  check_step_adjoint(b);
}

TEST_CASE("with contacts (explicit in RK4's stages), an RK4 tree step's adjoint matches central differences") {
  Branchy b;
  b.runge_kutta = true;
  const StepLoss<Branchy> at{b};
  b.add_contacts(at.q.data());
  check_step_adjoint(b);
}

TEST_CASE("with limits, springs and clamps, an RK4 tree step's adjoint matches central differences") {
  Branchy b;
  b.runge_kutta = true;
  b.dofs[1].limited = 1, b.dofs[1].lower = -1.0, b.dofs[1].upper = 0.3;
  b.dofs[1].limit_stiffness = 50, b.dofs[1].limit_damping = 2;
  b.dofs[0].stiffness = 3.0, b.dofs[0].spring_ref = 0.4;
  b.actuators[1].ctrl_limited = 1, b.actuators[1].ctrl_lower = -0.1, b.actuators[1].ctrl_upper = 0.1;
  b.actuators[0].force_limited = 1, b.actuators[0].force_lower = -0.3, b.actuators[0].force_upper = 0.3;
  check_step_adjoint(b);
}

// A floating base: a free root (its anchor off the origin) carrying a ball-jointed limb
// with a hinge at its end, and a slide; its rotations start off unit length, as an
// optimiser may leave them. Damping, armature and actuators on the hinge and the slide.
struct Floating {
  std::vector<LinkModel<double>> links;
  std::vector<DofModel<double>> dofs;
  std::vector<DofActuator<double>> actuators{{9, 11, 0, 1.2, 1.0, 0.0, 0.0, 0, 0, 0, 0, 0, 0},
                                             {10, 12, 1, 0.9, 15.0, -15.0, -1.5, 0, 0, 0, 0, 0, 0}};
  std::vector<double> controls{0.4, -0.3};
  TreeModel tree{0, 4, 0, 11, 0, 13, 0};
  bool runge_kutta = false;
  Rk4Buffers rk4{11, 13};
  Vec3<double> gravity{0.2, -9.81, 0.1};
  double dt = 0.01;
  std::vector<double> q0{0.1, 0.2, -0.05, 0.1, -0.2, 0.3, 0.9, 0.2, 0.1, -0.1, 0.95, 0.4, -0.1};
  std::vector<double> qd0{0.5, -0.3, 0.2, 1.0, -2.0, 0.5, 0.3, 0.8, -1.2, 0.7, -0.2};
  std::vector<LinkFrame<double>> frames = std::vector<LinkFrame<double>>(4);
  std::vector<double> matrix = std::vector<double>(121), tau = std::vector<double>(11), qdd = std::vector<double>(11),
                      work = std::vector<double>(11), mass = std::vector<double>(121), step = std::vector<double>(11),
                      base = std::vector<double>(11);
  std::vector<int> point_start;
  std::vector<Vec3<double>> point_offset;
  std::vector<double> point_radius;
  std::vector<Collider<double>> shapes;
  LinkContacts<double> contacts;

  Floating() {
    LinkModel<double> body = hinge_link(-1, 0, {0.1, 1.0, -0.2}, {0.05, -0.02, 0.03}, 3.0, {0.08, 0.05, 0.06});
    body.joint = int(LinkJoint::Free), body.dofs = 6, body.position = 0;
    body.quat = normalize(Quat<double>{0.2, -0.1, 0.05, 0.97});
    body.anchor = {0.02, -0.01, 0.03};
    body.inertia(0, 2) = body.inertia(2, 0) = 0.01;
    LinkModel<double> limb = hinge_link(0, 6, {0.3, 0.0, -0.1}, {0.1, 0.0, -0.2}, 1.0, {0.02, 0.03, 0.01});
    limb.joint = int(LinkJoint::Ball), limb.dofs = 3, limb.position = 7;
    limb.quat = normalize(Quat<double>{0.0, 0.3, 0.1, 0.9});
    limb.anchor = {0.0, 0.05, 0.02};
    limb.inertia(0, 1) = limb.inertia(1, 0) = 0.004;
    LinkModel<double> hand = hinge_link(1, 9, {0.2, 0.0, -0.3}, {0.0, 0.05, -0.1}, 0.5, {0.004, 0.005, 0.002});
    hand.position = 11;
    hand.axis = normalize(Vec3<double>{1, 0.2, 0.3});
    LinkModel<double> slide = hinge_link(0, 10, {-0.2, 0.1, 0.0}, {-0.05, 0.0, 0.02}, 0.4, {0.003, 0.002, 0.004});
    slide.joint = int(LinkJoint::Slide), slide.position = 12;
    slide.axis = normalize(Vec3<double>{0.3, -1, 0.2});
    links = {body, limb, hand, slide};
    for (int i = 0; i < 11; ++i)
      dofs.push_back({0.01 * (i % 3), 0.05 * (i % 4), i == 9 ? 11 : i == 10 ? 12 : -1, 0, 0, 0, 0, 0, 0, 0, 0, 0});
  }
  TreeScratch<double> scratch() {
    return {frames.data(), matrix.data(), tau.data(), qdd.data(), work.data(), mass.data(), step.data(), base.data()};
  }
  TreeStepInputs<double> inputs() {
    return {links.data(), dofs.data(), actuators.data(), int(actuators.size()), controls.data(), gravity, dt, contacts};
  }

  // A plane 1 cm into the limb's sphere, and a point on the body within the switch's
  // width of it; smooth, as Branchy's.
  void add_contacts(const double* q) {
    point_start = {0, 1, 2, 2, 2};
    point_offset = {{0.1, -0.1, 0.05}, {0.05, 0.0, -0.35}};
    point_radius = {0.0, 0.04};
    link_frames(tree, links.data(), q, frames.data());
    const Vec3<double> n = normalize(Vec3<double>{0.1, 1, -0.2});
    const Vec3<double> limb = frames[1].origin + frames[1].rot * point_offset[1];
    shapes = {plane_through(limb - (point_radius[1] - 0.01) * n, n)};
    contacts = smooth_contacts(shapes, point_start, point_offset, point_radius);
  }
};

TEST_CASE("with a free base and a ball, the mass matrix is RNEA's response to each unit acceleration") {
  Floating b;
  link_frames(b.tree, b.links.data(), b.q0.data(), b.frames.data());
  std::vector<double> m(121), zero(11, 0.0), r(11);
  mass_matrix(b.tree, b.links.data(), b.frames.data(), m.data());
  for (int j = 0; j < 11; ++j) {
    std::vector<double> e(11, 0.0);
    e[size_t(j)] = 1;
    inverse_dynamics(b.tree, b.links.data(), zero.data(), e.data(), Vec3<double>{0, 0, 0}, b.frames.data(), r.data());
    for (int i = 0; i < 11; ++i) CHECK(m[size_t(i * 11 + j)] == doctest::Approx(r[size_t(i)]).epsilon(1e-12));
  }
}

// The velocity terms of a free base and a ball (their motions' own rates): wrong, an
// unforced, undamped tree would gain or lose energy at any dt; right, semi-implicit
// Euler's drift shrinks with dt, to first order.
TEST_CASE("a tumbling free tree keeps its energy, to first order in dt") {
  Floating b;
  b.gravity = {0, 0, 0};
  b.actuators.clear();
  for (DofModel<double>& d : b.dofs) d.damping = d.armature = 0;
  const auto drift = [&](double dt, int steps) {
    b.dt = dt;
    std::vector<double> q = b.q0, qd = b.qd0, qn(13), qdn(11);
    double k0, u0, k1, u1;
    tree_energy(b.tree, b.links.data(), q.data(), qd.data(), b.gravity, b.frames.data(), k0, u0);
    for (int t = 0; t < steps; ++t) {
      REQUIRE(tree_step(b.tree, b.inputs(), q.data(), qd.data(), b.scratch(), qn.data(), qdn.data()));
      q = qn, qd = qdn;
    }
    tree_energy(b.tree, b.links.data(), q.data(), qd.data(), b.gravity, b.frames.data(), k1, u1);
    return std::fabs(k1 - k0) / k0;
  };
  const double coarse = drift(1e-3, 500), fine = drift(1e-4, 5000);
  INFO("relative energy drift over 0.5 s: " << coarse << " at 1 ms, " << fine << " at 0.1 ms");
  CHECK(coarse < 0.05);
  CHECK(fine < coarse / 5);  // first order in dt
}

TEST_CASE("with a free base and a ball, a tree step's adjoint matches central differences for every input") {
  Floating b;
  check_step_adjoint(b);
}

TEST_CASE("with a free base, a ball and contacts, a tree step's adjoint matches central differences") {
  Floating b;
  b.add_contacts(b.q0.data());
  check_step_adjoint(b);
}

TEST_CASE("with a ball past its cone limit, a tree step's adjoint matches central differences, Euler and RK4") {
  Floating b;
  // The limb's ball starts turned by 2 atan2(|v|, w) = 0.50 rad and turning further out;
  // its cone is 0.3 rad. Its first coordinate holds the cone (dof_models).
  DofModel<double>& cone = b.dofs[6];
  cone.limited = 1, cone.lower = 0, cone.upper = 0.3, cone.limit_stiffness = 20, cone.limit_damping = 0.5;
  ConeLimit<double> c;
  REQUIRE(cone_limit(cone, &b.q0[7], &b.qd0[6], c));
  CHECK(c.f < 0);  // it pushes back along the rotation's axis
  std::vector<double> tau(11);
  actuator_forces(b.tree, b.inputs(), b.q0.data(), b.qd0.data(), tau.data());
  const Vec3<double> pushed{tau[6], tau[7], tau[8]};
  CHECK(dot(pushed, c.axis) == doctest::Approx(c.f));
  CHECK(length(cross(pushed, c.axis)) < 1e-12);
  // Inside the cone, or when its rate turns back fast enough: nothing.
  const double back[3] = {-30 * c.axis.x, -30 * c.axis.y, -30 * c.axis.z};
  ConeLimit<double> other;
  CHECK_FALSE(cone_limit(cone, &b.q0[7], back, other));
  DofModel<double> wide = cone;
  wide.upper = 0.6;
  CHECK_FALSE(cone_limit(wide, &b.q0[7], &b.qd0[6], other));
  check_step_adjoint(b);
  b.runge_kutta = true;
  check_step_adjoint(b);
}

TEST_CASE("a ball's spring pulls toward no turn; its adjoint matches central differences, Euler and RK4") {
  Floating b;
  DofModel<double>& spring = b.dofs[6];  // the limb's ball: its first coordinate holds the spring
  spring.stiffness = 3.0;
  // The torque is -k theta a: along the rotation's axis, by its angle.
  std::vector<double> tau(11);
  actuator_forces(b.tree, b.inputs(), b.q0.data(), b.qd0.data(), tau.data());
  const Quat<double> n = normalize(Quat<double>{b.q0[7], b.q0[8], b.q0[9], b.q0[10]});
  const Vec3<double> v{n.x, n.y, n.z};
  const double theta = 2 * std::atan2(length(v), n.w);
  const Vec3<double> expected = (-3.0 * theta / length(v)) * v;
  CHECK(tau[6] == doctest::Approx(expected.x).epsilon(1e-12));
  CHECK(tau[7] == doctest::Approx(expected.y).epsilon(1e-12));
  CHECK(tau[8] == doctest::Approx(expected.z).epsilon(1e-12));
  // q and -q are one rotation: the same torque.
  std::vector<double> flipped = b.q0, tau_flipped(11);
  for (int c = 7; c < 11; ++c) flipped[size_t(c)] = -flipped[size_t(c)];
  actuator_forces(b.tree, b.inputs(), flipped.data(), b.qd0.data(), tau_flipped.data());
  for (int i = 6; i < 9; ++i) CHECK(tau_flipped[size_t(i)] == doctest::Approx(tau[size_t(i)]).epsilon(1e-12));
  check_step_adjoint(b);
  b.runge_kutta = true;
  check_step_adjoint(b);
}

TEST_CASE("with a free base, a ball and contacts, an RK4 tree step's adjoint matches central differences") {
  Floating b;
  b.runge_kutta = true;
  check_step_adjoint(b);
  b.add_contacts(b.q0.data());
  check_step_adjoint(b);
}

// Dry friction on every coordinate, with a friction_velocity near the fixtures' rates so
// that both the tanh and its slope move; and at frictionloss 0, where only its gradient is.
template <class Tree>
void add_friction(Tree& b, double frictionloss, double velocity) {
  for (size_t i = 0; i < b.dofs.size(); ++i) {
    b.dofs[i].frictionloss = frictionloss * (1 + 0.3 * double(i % 3));
    b.dofs[i].friction_velocity = velocity;
  }
}

TEST_CASE("with joint friction, a tree step's adjoint matches central differences, Euler and RK4") {
  for (const double frictionloss : {0.0, 0.4}) {
    INFO("frictionloss " << frictionloss);
    Branchy b;
    add_friction(b, frictionloss, 0.5);
    check_step_adjoint(b);
    b.runge_kutta = true;
    check_step_adjoint(b);
    Floating f;
    add_friction(f, frictionloss, 0.5);
    check_step_adjoint(f);
    f.runge_kutta = true;
    check_step_adjoint(f);
  }
}

TEST_CASE("with joint friction and contacts, a tree step's adjoint matches central differences") {
  Branchy b;
  add_friction(b, 0.4, 0.5);
  const StepLoss<Branchy> at{b};
  b.add_contacts(at.q.data());
  check_step_adjoint(b);
  Floating f;
  add_friction(f, 0.4, 0.5);
  f.add_contacts(f.q0.data());
  check_step_adjoint(f);
}

// One link of the double pendulum, with a dt to choose.
struct Pendulum : DoublePendulum {
  double dt = 1e-3;
  Pendulum() {
    links.resize(1), dofs.resize(1);
    tree = {0, 1, 0, 1, 0, 1, 0};
  }
  TreeStepInputs<double> inputs() { return {links.data(), dofs.data(), nullptr, 0, nullptr, {0, 0, -9.81}, dt, {}}; }
};

TEST_CASE("dry friction holds a joint below its breakaway torque, lets it slip above, and stays stable") {
  // Held out at 30 degrees, gravity's torque on the hinge is m g r sin 30 = 1 x 9.81 x
  // 0.25 x 0.5 = 1.23 N m.
  Pendulum p;
  const auto angle_after = [&](double frictionloss, double velocity, double dt, double seconds) {
    p.dofs[0].frictionloss = frictionloss, p.dofs[0].friction_velocity = velocity;
    p.dt = dt;
    double q = std::numbers::pi / 6, qd = 0;
    for (int t = 0; t < int(std::lround(seconds / dt)); ++t) {
      double qn, qdn;
      REQUIRE(step(p, &q, &qd, &qn, &qdn));
      q = qn, qd = qdn;
      REQUIRE(std::isfinite(q));
    }
    return q;
  };
  const double start = std::numbers::pi / 6;
  // A smooth friction creeps, at v atanh(tau / F) = 0.01 atanh(0.245) = 2.5 mrad/s here.
  const double held = angle_after(5.0, 0.01, 1e-3, 1.0);
  CHECK(held < start);
  CHECK(held > start - 0.004);
  CHECK(angle_after(0.5, 0.01, 1e-3, 1.0) < start - 0.3);  // below gravity's torque: it slips
  // Linearly implicit: a friction_velocity 100 times smaller at a dt ten times larger
  // holds as well (the force's slope F / v is 5e4 N m s/rad, dt F / v / I about 6000).
  const double stiff = angle_after(5.0, 1e-4, 1e-2, 1.0);
  CHECK(stiff < start);
  CHECK(stiff > start - 0.004);
}

TEST_CASE("a joint's rotation integrates by the exact exponential, and its adjoint matches central differences") {
  const double q[4] = {0.1, -0.3, 0.2, 0.8};  // not unit length
  const Vec3<double> w{2.0, -1.0, 0.5};
  double next[4];
  integrate_joint_rotation(q, w, 0.1, next);
  // One step at w turns by |w| dt about w, in the joint's frame: n^-1 next = exp(w dt).
  const Quat<double> turn = conjugate(joint_rotation(q)) * Quat<double>{next[0], next[1], next[2], next[3]};
  const Quat<double> expected = quat_from_axis_angle(normalize(w), length(w) * 0.1);
  CHECK(turn.x == doctest::Approx(expected.x).epsilon(1e-14));
  CHECK(turn.w == doctest::Approx(expected.w).epsilon(1e-14));
  for (const double dt : {0.1, 1e-6}) {  // the second through rotation_exp's series
    const double adj_next[4] = {0.3, -0.7, 0.2, 0.5};
    double adj_q[4];
    Vec3<double> adj_w{0, 0, 0};
    adj_integrate_joint_rotation(q, w, dt, adj_next, adj_q, adj_w);
    std::vector<double> x(q, q + 4);
    Vec3<double> rate = w;
    const auto loss = [&] {
      double out[4];
      integrate_joint_rotation(x.data(), rate, dt, out);
      return adj_next[0] * out[0] + adj_next[1] * out[1] + adj_next[2] * out[2] + adj_next[3] * out[3];
    };
    for (int i = 0; i < 4; ++i) check_close(adj_q[i], test::central_difference(x[size_t(i)], loss), "q", i);
    check_close(adj_w.x, test::central_difference(rate.x, loss), "w.x", 0);
    check_close(adj_w.y, test::central_difference(rate.y, loss), "w.y", 0);
    check_close(adj_w.z, test::central_difference(rate.z, loss), "w.z", 0);
  }
}

// A contact's generalised force is J^T F: RNEA without the contacts, less RNEA with them,
// at qdd = 0 and qd = 0, is the sum over contacts of F . dc/dq_i, where c is the point of
// the link where the force acts (the point's sphere touching the collider, p - radius n).
TEST_CASE("a link's contact wrench enters RNEA as the generalised force J^T F") {
  Branchy b;
  const StepLoss<Branchy> at{b};
  b.add_contacts(at.q.data());
  const double zero[4] = {0, 0, 0, 0};
  double with[4], without[4];
  link_frames(b.tree, b.links.data(), at.q.data(), b.frames.data());
  inverse_dynamics(b.tree, b.links.data(), zero, zero, b.gravity, b.frames.data(), with, &b.contacts);
  inverse_dynamics(b.tree, b.links.data(), zero, zero, b.gravity, b.frames.data(), without);
  double expected[4] = {0, 0, 0, 0};
  for (int k = 0; k < 5; ++k)
    for (int j = b.point_start[size_t(k)]; j < b.point_start[size_t(k) + 1]; ++j)
      for (int c = 0; c < 2; ++c) {
        link_frames(b.tree, b.links.data(), at.q.data(), b.frames.data());
        const Mat33<double> rot = b.frames[size_t(k)].rot;
        const Vec3<double> origin = b.frames[size_t(k)].origin;
        const Vec3<double> p = origin + rot * b.point_offset[size_t(j)];
        const double radius = b.point_radius[size_t(j)];
        const Vec3<double> force = body_point_contact(b.contacts.colliders, b.shapes[size_t(c)],
                                                      contact_point_state(p, zero_spatial<double>()),
                                                      Vec3<double>{0, 0, 0}, radius, b.links[size_t(k)].mass)
                                       .force;
        const Vec3<double> touching =
            mul_transpose(rot, p - radius * collider_sdf(b.shapes[size_t(c)], p).normal - origin);
        for (int i = 0; i < 4; ++i) {
          std::vector<double> q = at.q;
          const auto point = [&](double h) {
            q[size_t(i)] = at.q[size_t(i)] + h;
            link_frames(b.tree, b.links.data(), q.data(), b.frames.data());
            return b.frames[size_t(k)].origin + b.frames[size_t(k)].rot * touching;
          };
          const double h = 1e-6;
          expected[i] += dot(force, (1 / (2 * h)) * (point(h) - point(-h)));
        }
      }
  for (int i = 0; i < 4; ++i) {
    INFO("coordinate " << i);
    CHECK(without[i] - with[i] == doctest::Approx(expected[i]).epsilon(1e-7));
    CHECK(std::fabs(expected[i]) > 0);
  }
}

}  // namespace
}  // namespace nudge
