// Material points against the links' solids (families/material_points/mpm_link_boundary.h):
// one grid node against one solid of a moving link, its adjoint against central
// differences for every shape kind and input; material resting on a sprung platform
// weighs it down by its weight; and a hinged paddle struck by a falling block, whose
// scene gradients (the links' and the material's) match central differences, with the
// same bits on every thread count and with checkpoints, and float32 near float64. A 2D
// grid with colliding links is refused, named.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "families/material_points/mpm_link_boundary.h"
#include "gradient_outcome.h"
#include "link_shape_inputs.h"
#include "nudge/convex_mesh.h"
#include "nudge/quat.h"
#include "nudge/robot_import.h"
#include "nudge/scene.h"
#include "sanitized.h"

namespace nudge {
namespace {

// One grid node (x, v, mass) against one solid of one link, every input in double.
struct NodeTouch : test::LinkShapeInputs {
  double friction = 0.4, reach = 0.05, dt = 1e-3, mass = 0.03;
  Vec3<double> x{0, 0, 0}, v{-0.3, 0.6, 0.2};

  // The node's velocity after the solid, and the link's wrench about the origin.
  struct Effect {
    Vec3<double> v;
    Spatial<double> wrench;
  };
  Effect effect() const {
    View view;
    fill(view);
    const BodyPartEffect<double> e =
        body_part_effect(posed_link_solid(view.ls, 0), link_solid_motion(view.ls, 0), friction, reach, dt, x, v, mass);
    return {e.v, link_wrench_of_part(view.placement.centre, Wrench<double>{e.force, e.torque})};
  }
};

using test::turned;

// The adjoint of L = vbar . v' + wbar . W (the node's velocity after the solid, the
// link's wrench) as the grid's kernels take it (the part's adjoint, then its link's
// shares), against central differences, input by input.
void check_node_adjoint(const NodeTouch& base) {
  const Vec3<double> vbar{0.7, -0.4, 1.1};
  const Spatial<double> wbar{{0.3, 0.8, -0.5}, {-0.6, 0.2, 0.9}};
  const auto loss = [&](const NodeTouch& t) {
    const NodeTouch::Effect e = t.effect();
    return dot(vbar, e.v) + dot(wbar.ang, e.wrench.ang) + dot(wbar.lin, e.wrench.lin);
  };
  NodeTouch::View view;
  base.fill(view);
  view.adj = wbar;
  const Collider<double> posed = posed_link_solid(view.ls, 0);
  const BodyPartMotion<double> motion = link_solid_motion(view.ls, 0);
  REQUIRE(collider_sdf(posed, base.x).distance < base.reach);  // within reach
  const BodyPartEffect<double> e =
      body_part_effect(posed, motion, base.friction, base.reach, base.dt, base.x, base.v, base.mass);
  REQUIRE(length(e.force) > 1e-3);
  const Wrench<double> part = part_adj_wrench(view.placement.centre, wbar);
  Vec3<double> adj_v{0, 0, 0};
  double adj_mass = 0;
  BodyPartShares<double> shares;
  adj_body_part_effect(posed, motion, base.friction, base.reach, base.dt, base.x, base.v, base.mass,
                       BodyPartEffect<double>{vbar, part.force, part.torque}, adj_v, adj_mass, shares, true);
  LinkPartAdjoint<double> a;
  add_link_part_adjoint(view.ls, 0, shares, e.force, a);
  const double h = 1e-6;
  const auto check = [&](std::string what, double adjoint, const std::function<void(NodeTouch&, double)>& move) {
    NodeTouch plus = base, minus = base;
    move(plus, h);
    move(minus, -h);
    const double fd = (loss(plus) - loss(minus)) / (2 * h);
    INFO(what << ": adjoint " << adjoint << ", central difference " << fd);
    CHECK(adjoint == doctest::Approx(fd).epsilon(1e-6).scale(1.0));
  };
  const Vec3<double> unit[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  for (int c = 0; c < 3; ++c) {
    const Vec3<double> u = unit[c];
    check("node v", (&adj_v.x)[c], [&](NodeTouch& t, double s) { t.v += s * u; });
    check("link velocity ang", (&a.velocity.ang.x)[c], [&](NodeTouch& t, double s) { t.velocity.ang += s * u; });
    check("link velocity lin", (&a.velocity.lin.x)[c], [&](NodeTouch& t, double s) { t.velocity.lin += s * u; });
    check("frame twist ang", (&a.frame.ang.x)[c], [&](NodeTouch& t, double s) {
      t.link_rot = turned(s * u) * t.link_rot;
      t.origin = turned(s * u) * t.origin;
    });
    check("frame twist lin", (&a.frame.lin.x)[c], [&](NodeTouch& t, double s) { t.origin += s * u; });
    check("shape centre", (&a.centre.x)[c], [&](NodeTouch& t, double s) { t.pos += s * u; });
    check("shape turn", (&a.turn.x)[c], [&](NodeTouch& t, double s) { t.rot = turned(s * u) * t.rot; });
    const ShapeType type = base.shape.type;
    if (type != ShapeType::Convex && (c == 0 || type == ShapeType::Box || (c == 1 && type == ShapeType::Capsule)))
      check("size", a.size[c], [&](NodeTouch& t, double s) { t.shape.size[c] += s; });
    if (type == ShapeType::Convex)  // its log scale along c
      check("hull scale", a.size[c], [&](NodeTouch& t, double s) { test::scale_hull(t.planes, c, s); });
  }
  check("node mass", adj_mass, [](NodeTouch& t, double s) { t.mass += s; });
}

// The node `gap` from the shape's surface along its outward normal (in the shape's
// frame) `normal` at local surface point `surface`, moving into it.
void place_node(NodeTouch& t, Vec3<double> surface, Vec3<double> normal, double gap) {
  const Mat33<double> r = t.link_rot * t.rot;
  t.x = t.origin + t.link_rot * t.pos + r * (surface + gap * normalize(normal));
  t.v = -1.5 * (r * normalize(normal)) + Vec3<double>{0.2, -0.1, 0.3};
}

TEST_CASE("material points on a link: a node against a moving solid, its adjoint against central differences") {
  NodeTouch sphere;
  for (int e = 0; e < 9; ++e) sphere.shape.rotation[e] = e % 4 == 0 ? 1.0 : 0.0;
  sphere.shape.type = ShapeType::Sphere, sphere.shape.size[0] = 0.05;
  // outside within reach (the band blends the surface's rule in), and inside (the depth
  // blends the solid's velocity in); sliding with friction, and sticky
  for (double gap : {0.02, -0.015})
    for (double friction : {0.4, -1.0}) {
      CAPTURE(gap);
      CAPTURE(friction);
      NodeTouch s = sphere;
      s.friction = friction;
      place_node(s, {0.03, 0.04, 0}, {0.6, 0.8, 0}, gap);
      check_node_adjoint(s);

      NodeTouch capsule = s;
      capsule.shape.type = ShapeType::Capsule, capsule.shape.size[1] = 0.1;
      place_node(capsule, {0.05, 0.06, 0}, {1, 0, 0}, gap);  // on its side
      check_node_adjoint(capsule);

      NodeTouch box = s;
      box.shape.type = ShapeType::Box, box.shape.size[1] = 0.03, box.shape.size[2] = 0.08;
      place_node(box, {0.01, 0.03, -0.02}, {0, 1, 0}, gap);  // over a face
      check_node_adjoint(box);

      NodeTouch hull = s;  // a tetrahedron's hull, the node over one face
      const Result<ConvexMesh> mesh = convex_hull({{0, 0, 0}, {0.1, 0, 0}, {0, 0.1, 0}, {0, 0, 0.1}});
      REQUIRE(mesh.ok());
      hull.shape.type = ShapeType::Convex, hull.shape.plane_count = static_cast<int>(mesh->planes.size());
      for (const ConvexPlane& f : mesh->planes)
        hull.planes.insert(hull.planes.end(), {f.normal[0], f.normal[1], f.normal[2], f.offset});
      const double third = 0.1 / 3;
      place_node(hull, {third, third, third}, {1, 1, 1}, gap > 0 ? gap : -0.008);
      check_node_adjoint(hull);
    }
}

// A block of neo-Hookean material (n x rows x n points, h apart, its lowest row at y0,
// centred on x = z = 0.5) in a 16-cell grid of 1 m.
void add_block(Scene& scene, int n, int rows, double h, double y0, double density, double youngs) {
  MaterialPoints& mp = scene.material_points;
  mp.dims = 3;
  mp.cells = 16;
  mp.size = 1.0;
  mp.collider_friction = 0.5;
  mp.materials = {{"rubber", MaterialModel::NeoHookean}};
  std::vector<double> x;
  const double x0 = 0.5 - h * (n - 1) / 2;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < rows; ++j)
      for (int k = 0; k < n; ++k) {
        x.insert(x.end(), {x0 + h * i, y0 + h * j, x0 + h * k});
        mp.material.push_back(0);
        mp.channel.push_back(-1);
      }
  shape_parameters(scene);
  ParameterSet& p = scene.params;
  p[ParamId::PointPosition].value = x;
  for (int q = 0; q < mp.count(); ++q) {
    p[ParamId::PointMass].value[size_t(q)] = density * h * h * h;
    p[ParamId::PointVolume].value[size_t(q)] = h * h * h;
  }
  p[ParamId::MaterialYoungsModulus].value = {youngs};
  p[ParamId::MaterialPoissonRatio].value = {0.3};
}

// One link on a vertical slide (z up as imported: y in the scene) held by a spring at its
// rest, its shape a platform (a box, or a hull of a box's corners) whose top is at
// y = 0.4 when q = 0.
ImportedRobot sprung_platform(bool hull, double mass, double stiffness, double damping) {
  ImportedRobot r;
  r.name = "platform";
  ArticulationLink link;
  link.name = "platform";
  link.parent = -1;
  link.joint = ArticulationJoint::Slide;
  link.axis[0] = link.axis[1] = 0, link.axis[2] = 1;
  LinkShape top;
  top.kind = LinkShape::Kind::Box;
  top.size[0] = 0.2, top.size[1] = 0.2, top.size[2] = 0.05;
  if (hull) {
    top.kind = LinkShape::Kind::Mesh;
    const Result<ConvexMesh> box = convex_hull(
        {{-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {1, 1, -1}, {-1, -1, 1}, {1, -1, 1}, {-1, 1, 1}, {1, 1, 1}});
    REQUIRE(box.ok());
    top.hull = std::make_shared<const ConvexMesh>(*box);
    top.mesh_scale[0] = 0.2, top.mesh_scale[1] = 0.2, top.mesh_scale[2] = 0.05;
  }
  link.shapes = {top};
  r.articulations.links = {link};
  r.pos = {0.5, -0.5, 0.35};
  r.mass = {mass};
  r.com = {0, 0, 0};
  r.inertia = {0.01, 0.01, 0.02, 0, 0, 0};
  r.damping = {damping};
  r.armature = {0};
  r.frictionloss = {0};
  r.q = {0};
  r.qd = {0};
  r.stiffness = {stiffness};
  r.spring_ref = {0};
  r.gravity[2] = -9.8;
  r.timestep = 1e-3;
  return r;
}

TEST_CASE("material points on a link: a block resting on a sprung platform weighs it down by its weight") {
  // The platform (1 kg, 2000 N/m, damped near critically) alone sits 4.9 mm low; with a
  // block of 2.7 kg on it, 18 mm low. Only the grid carries the block's weight to it.
  for (bool hull : {false, true}) {
    CAPTURE(hull);
    const double k = 2000, platform = 1.0;
    Scene scene = robot_scene(sprung_platform(hull, platform, k, 100), "", test::kSanitized ? 150 : 800);
    add_block(scene, 6, 3, 0.05, 0.43, 200, 5e4);
    const auto checked = check_scene(scene);
    REQUIRE_MESSAGE(checked.ok(), (checked.ok() ? "" : checked.error().message));
    const Trajectory traj = test::simulate_on_cpu(scene);
    double block = 0;
    for (double m : scene.params[ParamId::PointMass].value) block += m;
    CAPTURE(block);
    if (test::kSanitized) {  // still falling onto it: below its own rest, at least
      CHECK(traj.joint_q[size_t(traj.steps)] < -platform * 9.8 / k);
      continue;
    }
    // where it rests: the mean of the last 200 steps
    double q = 0;
    for (int t = traj.steps - 199; t <= traj.steps; ++t) q += traj.joint_q[size_t(t)] / 200;
    const double expected = -(platform + block) * 9.8 / k;
    CAPTURE(q);
    CAPTURE(expected);
    CHECK(q == doctest::Approx(expected).epsilon(0.01));
    // the block rests on the platform, not in it: its lowest point above the platform's
    // top (by about half a cell: a solid reaches a cell beyond its surface)
    const int n = scene.material_points.count();
    double lowest = 1e9;
    for (int p = 0; p < n; ++p) lowest = std::min(lowest, traj.point_x[(size_t(traj.steps) * n + p) * 3 + 1]);
    CAPTURE(lowest);
    CHECK(lowest > 0.4 + traj.joint_q[size_t(traj.steps)]);
  }
}

// A paddle on a damped hinge about the scene's z, lopsided (a box and a sphere on one
// side of the pivot, and with `tail` a hull on the other), struck by a falling block of
// material thrown sideways. The objectives pull the block's centroid to a point and the
// hinge's angle to 0.3.
Scene paddle_struck_by_block(int steps, bool tail_hull) {
  ImportedRobot r;
  r.name = "paddle";
  ArticulationLink link;
  link.name = "paddle";
  link.parent = -1;
  link.joint = ArticulationJoint::Hinge;
  link.axis[0] = 0, link.axis[1] = -1, link.axis[2] = 0;  // the scene's z
  link.length_axis[0] = 1;                                // link_length stretches it along x
  LinkShape board;
  board.kind = LinkShape::Kind::Box;
  board.size[0] = 0.15, board.size[1] = 0.12, board.size[2] = 0.03;
  board.pos[0] = 0.08;
  LinkShape knob;
  knob.kind = LinkShape::Kind::Sphere;
  knob.size[0] = 0.05;
  knob.pos[0] = 0.2, knob.pos[2] = 0.03;
  LinkShape tail;
  tail.kind = LinkShape::Kind::Mesh;
  const Result<ConvexMesh> wedge = convex_hull(
      {{0, -0.1, 0}, {-0.15, -0.1, 0.02}, {0, 0.1, 0}, {-0.15, 0.1, 0.02}, {0, -0.1, 0.05}, {0, 0.1, 0.05}});
  REQUIRE(wedge.ok());
  tail.hull = std::make_shared<const ConvexMesh>(*wedge);
  tail.pos[0] = -0.06;
  link.shapes = {board, knob};
  if (tail_hull) link.shapes.push_back(tail);
  r.articulations.links = {link};
  r.pos = {0.45, -0.5, 0.4};
  r.mass = {0.8};
  r.com = {0.05, 0, 0};
  r.inertia = {0.004, 0.01, 0.012, 0, 0, 0};
  r.damping = {0.05};
  r.armature = {0.002};
  r.frictionloss = {0};
  r.q = {0.1};
  r.qd = {-0.5};
  r.stiffness = {4};
  r.spring_ref = {0};
  r.gravity[2] = -9.8;
  r.timestep = 1e-3;
  Scene scene = robot_scene(r, "", steps);
  scene.params[ParamId::LinkScale].value = {1.05};
  scene.params[ParamId::LinkLength].value = {0.95};
  // a block of 3 x 2 x 3 points just above the board, falling and moving sideways
  add_block(scene, 3, 2, 0.04, 0.47, 800, 5e4);
  for (int q = 0; q < scene.material_points.count(); ++q) {
    double* v = &scene.params[ParamId::PointVelocity].value[3 * size_t(q)];
    v[0] = 0.3 + 0.05 * std::sin(q), v[1] = -1.0, v[2] = 0.1 * std::cos(0.7 * q);
  }
  Objective centroid;
  centroid.type = ObjectiveType::Target;
  for (int q = 0; q < scene.material_points.count(); ++q) centroid.points.push_back(q);
  centroid.target = {0.6, 0.5, 0.45};
  Objective angle;
  angle.type = ObjectiveType::Joints;
  angle.links = {0};
  angle.target = {0.3};
  scene.objectives = {centroid, angle};
  return scene;
}

TEST_CASE("material points on a link: a paddle struck by a block, its gradients against central differences") {
  const Scene scene = paddle_struck_by_block(test::kSanitized ? 12 : 40, false);
  const auto checked = check_scene(scene);
  REQUIRE_MESSAGE(checked.ok(), (checked.ok() ? "" : checked.error().message));
  // The block pushes the paddle, and the paddle the block: each moves otherwise when the
  // shapes are drawn only.
  Scene ghosts = scene;
  for (ArticulationLink& link : ghosts.articulations.links)
    for (LinkShape& shape : link.shapes) shape.collides = false;
  const Trajectory touched = test::simulate_on_cpu(scene), free = test::simulate_on_cpu(ghosts);
  CAPTURE(touched.joint_q[size_t(touched.steps)]);
  CAPTURE(free.joint_q[size_t(free.steps)]);
  CHECK(std::abs(touched.joint_q[size_t(touched.steps)] - free.joint_q[size_t(free.steps)]) > 1e-4);
  const int n = scene.material_points.count();
  const size_t last = size_t(touched.steps) * size_t(n) * 3 + 1;
  CHECK(std::abs(touched.point_x[last] - free.point_x[last]) > 1e-4);

  const test::Outcome out = test::require_same_bits_for_threads_and_checkpoints(scene);
  test::check_has_gradient(out, {ParamId::LinkMass, ParamId::LinkScale, ParamId::PointVelocity});
  const std::vector<ParamId> ids = {ParamId::LinkPosition,
                                    ParamId::LinkMass,
                                    ParamId::LinkCom,
                                    ParamId::LinkInertia,
                                    ParamId::LinkDamping,
                                    ParamId::LinkStiffness,
                                    ParamId::LinkJointPosition,
                                    ParamId::LinkJointVelocity,
                                    ParamId::LinkScale,
                                    ParamId::LinkLength,
                                    ParamId::PointPosition,
                                    ParamId::PointVelocity,
                                    ParamId::PointMass,
                                    ParamId::MaterialYoungsModulus,
                                    ParamId::Gravity};
  test::check_against_central_differences(scene, ids, test::kSanitized ? 3 : 12);
  test::check_float32_matches_float64(scene, {ParamId::LinkJointVelocity, ParamId::PointVelocity});

  // With a hull on the paddle's tail: the links' parameters, the hull's scale among them.
  // (A hull's distance outside it is the largest of its faces' planes, which kinks where
  // the largest changes; the grid's nodes within a cell of it meet those kinks, and the
  // points' positions, 54 entries, straddle one now and then: 2 of 12 sampled were off by
  // 1e-5. The node's adjoint against a hull is checked above.)
  const Scene hull = paddle_struck_by_block(test::kSanitized ? 12 : 40, true);
  test::require_same_bits_for_threads_and_checkpoints(hull);
  test::check_against_central_differences(hull,
                                          {ParamId::LinkScale, ParamId::LinkLength, ParamId::LinkJointVelocity,
                                           ParamId::LinkMass, ParamId::LinkPosition, ParamId::MaterialYoungsModulus},
                                          test::kSanitized ? 3 : 12);
}

TEST_CASE("material points on a link: a 2D grid with colliding links is refused, and says where") {
  Scene scene = paddle_struck_by_block(10, true);
  scene.material_points.dims = 2;
  const auto checked = check_scene(scene);
  REQUIRE_FALSE(checked.ok());
  CAPTURE(checked.error().message);
  CHECK(checked.error().message.find("material_points.dimensions") != std::string::npos);
  CHECK(checked.error().message.find("3D only") != std::string::npos);
}

}  // namespace
}  // namespace nudge
