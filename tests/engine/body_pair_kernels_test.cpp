// Kernels between two rigid bodies: a body's contact point against another body's
// shape, and a joint's wrenches. Every input's adjoint (both states, the point or the
// joint's frame, the contact or joint parameters) against central finite differences
// in double, and the conservation that an action-reaction pair owes.
#include <doctest/doctest.h>

#include <cmath>

#include "body_test_support.h"
#include "central_difference.h"
#include "families/colliders/contact_restitution.h"
#include "families/joints/joint_wrench.h"

using namespace nudge;
using namespace nudge::test;

namespace {

double weigh(const PairWrench<double>& w, const PairWrench<double>& f) {
  return test::weigh(w.a, f.a) + test::weigh(w.b, f.b);
}

PairWrench<double> random_pair_wrench() { return {{random_vec(), random_vec()}, {random_vec(), random_vec()}}; }

Collider<double> body_shape(ShapeType type, double s0, double s1, double s2) {
  Collider<double> c{};
  c.type = type;
  const M identity = identity33<double>();
  for (int k = 0; k < 9; ++k) c.rotation[k] = identity.m[k];
  c.size[0] = s0, c.size[1] = s1, c.size[2] = s2;
  return c;
}

}  // namespace

TEST_CASE("body pairs: a point against another body's shape: adjoint matches finite differences") {
  for (const Collider<double>& shape :
       {body_shape(ShapeType::Box, 0.6, 0.35, 0.5), body_shape(ShapeType::Sphere, 0.55, 0, 0),
        body_shape(ShapeType::Capsule, 0.3, 0.4, 0)})
    for (double radius : {0.0, 0.05})
      for (double smoothing : {0.0, 0.02}) {
        CAPTURE(static_cast<int>(shape.type));
        CAPTURE(radius);
        CAPTURE(smoothing);
        State sa = random_state(), sb = random_state();
        V offset{0.2, -0.1, 0.15};
        // A's point just inside B's surface (a point on it, local to B, moved in a little).
        const V surface_local = shape.type == ShapeType::Box       ? V{0.1, 0.33 + radius, 0.1}
                                : shape.type == ShapeType::Capsule ? V{0.0, 0.66 + radius, 0.1}
                                                                   : V{0.0, 0.53 + radius, 0.1};
        sa.x = sb.x + rotate(sb.q, surface_local) - rotate(sa.q, offset);
        double ke = 900, kd = 4, mu = 0.35;
        auto model = [&] {
          ColliderModel<double> cm;
          cm.stiffness = ke, cm.damping = kd, cm.friction = mu, cm.smoothing = smoothing, cm.friction_smoothing = 0.05;
          cm.damp_approach_only = false;
          return cm;
        };
        const PairWrench<double> w = random_pair_wrench();
        auto phi = [&] { return weigh(w, body_pair_contact(model(), shape, sa, sb, offset, radius)); };
        REQUIRE(length(body_pair_contact(model(), shape, sa, sb, offset, radius).a.force) > 0);  // in contact

        State adj_a = zero_body_state<double>(), adj_b = zero_body_state<double>();
        V adj_offset{0, 0, 0};
        double g_radius = 0, g_k = 0, g_d = 0, g_mu = 0;
        adj_body_pair_contact(model(), shape, sa, sb, offset, radius, w, adj_a, adj_b, adj_offset, g_radius, g_k, g_d,
                              g_mu);
        for (int k = 0; k < 13; ++k) {
          check_close("body a", k, entry(adj_a, k), central_difference(entry(sa, k), phi));
          check_close("body b", k, entry(adj_b, k), central_difference(entry(sb, k), phi));
        }
        for (int k = 0; k < 3; ++k)
          check_close("offset", k, (&adj_offset.x)[k], central_difference((&offset.x)[k], phi));
        check_close("radius", 0, g_radius, central_difference(radius, phi));
        check_close("stiffness", 0, g_k, central_difference(ke, phi));
        check_close("damping", 0, g_d, central_difference(kd, phi));
        check_close("friction", 0, g_mu, central_difference(mu, phi));
      }
}

TEST_CASE("body pairs: contact forces are equal and opposite and keep the angular momentum") {
  const Collider<double> sphere = body_shape(ShapeType::Sphere, 0.5, 0, 0);
  ColliderModel<double> cm;
  cm.stiffness = 1e4, cm.damping = 20, cm.friction = 0.5, cm.friction_smoothing = 0.01;
  State sa = random_state(), sb = random_state();
  sa.x = sb.x + V{0.3, 0.6, -0.2};  // 0.72 apart: a 0.3 sphere overlaps the 0.5 one
  const PairWrench<double> f = body_pair_contact(cm, sphere, sa, sb, V{0, 0, 0}, 0.3);
  REQUIRE(length(f.a.force) > 0);
  CHECK(length(f.a.force + f.b.force) == 0.0);
  // About the origin: x_a x F_a + tau_a + x_b x F_b + tau_b.
  const V total = cross(sa.x, f.a.force) + f.a.torque + cross(sb.x, f.b.force) + f.b.torque;
  CHECK(length(total) < 1e-12 * length(f.a.force));
  // Friction on a sliding, spinning pair turns both spheres.
  CHECK(length(f.a.torque) > 0);
}

TEST_CASE("joints: every kind's adjoint matches finite differences, free and at its limits") {
  for (JointKind kind : {JointKind::Ball, JointKind::Hinge, JointKind::Prismatic, JointKind::Fixed})
    for (bool world_parent : {false, true})
      for (bool at_limit : {false, true}) {
        CAPTURE(static_cast<int>(kind));
        CAPTURE(world_parent);
        CAPTURE(at_limit);
        State sp = world_parent ? State{{0, 0, 0}, {0, 0, 0, 1}, {0, 0, 0}, {0, 0, 0}} : random_state();
        State sc = random_state();
        // A frame whose two sides nearly agree: a small violation, as in a running rollout.
        const V axis = normalize(V{0.3, 1.0, -0.2}), ref = normalize(cross(axis, V{1, 0, 0}));
        const V anchor{0.2, 0.5, -0.1};
        const Q turn = quat_from_axis_angle(axis, 0.4);  // the child turned 0.4 rad about the axis
        const Q qc_world = normalize(Q{0.02, -0.03, 0.01, 1.0}) * turn;
        sc.q = qc_world;
        sc.x = anchor + V{0.01, -0.02, 0.015} - rotate(sc.q, V{0.1, -0.4, 0.2});
        JointFrame<double> f{inverse_rotate(sp.q, anchor - sp.x), {0.1, -0.4, 0.2},
                             inverse_rotate(sp.q, axis),          inverse_rotate(sc.q, rotate(turn, axis)),
                             inverse_rotate(sp.q, ref),           inverse_rotate(sc.q, rotate(turn, ref))};
        JointLaw<double> law{kind, 800, 6, 300, 2, 0.7, 1.3, at_limit, 0, 0, 500};
        if (at_limit) law.lower = 0.5, law.upper = 0.9;  // the 0.4 rad turn (or the slide) lies below it
        if (at_limit && kind == JointKind::Prismatic) law.lower = 0.05, law.upper = 0.2;
        const PairWrench<double> w = random_pair_wrench();
        auto phi = [&] { return weigh(w, joint_wrench(law, f, sp, sc)); };

        State adj_p = zero_body_state<double>(), adj_c = zero_body_state<double>();
        JointFrame<double> adj_f = zero_joint_frame<double>();
        double g_damping = 0, g_control = 0;
        adj_joint_wrench(law, f, sp, sc, w, adj_p, adj_c, adj_f, g_damping, g_control);
        // The wrenches are ~1e2 and the step 1e-6: the differences carry ~1e-8 of rounding.
        const double floor = 1e-7;
        for (int k = 0; k < 13; ++k) {
          if (!world_parent) check_close("parent", k, entry(adj_p, k), central_difference(entry(sp, k), phi), floor);
          check_close("child", k, entry(adj_c, k), central_difference(entry(sc, k), phi), floor);
        }
        V* frame[6] = {&f.anchor_p, &f.anchor_c, &f.axis_p, &f.axis_c, &f.ref_p, &f.ref_c};
        V* adj_frame[6] = {&adj_f.anchor_p, &adj_f.anchor_c, &adj_f.axis_p, &adj_f.axis_c, &adj_f.ref_p, &adj_f.ref_c};
        for (int j = 0; j < 6; ++j)
          for (int k = 0; k < 3; ++k)
            check_close("frame", 3 * j + k, (&adj_frame[j]->x)[k], central_difference((&frame[j]->x)[k], phi), floor);
        check_close("joint damping", 0, g_damping, central_difference(law.joint_damping, phi), floor);
        check_close("control", 0, g_control, central_difference(law.control, phi), floor);
        if (at_limit && (kind == JointKind::Hinge || kind == JointKind::Prismatic)) {
          // The limit pushes: the wrench differs from the same joint without limits.
          JointLaw<double> free = law;
          free.limited = false;
          CHECK(length(joint_wrench(law, f, sp, sc).b.force - joint_wrench(free, f, sp, sc).b.force) +
                    length(joint_wrench(law, f, sp, sc).b.torque - joint_wrench(free, f, sp, sc).b.torque) >
                0);
        }
      }
}

// The two sides' forces act at their own anchors, which the penalty lets drift apart by
// e: the pair's moment about any point is e x F, and vanishes as the joint holds.
TEST_CASE("joints: the pair's forces are equal and opposite; their moment is the gap's, e x F") {
  for (JointKind kind : {JointKind::Ball, JointKind::Hinge, JointKind::Prismatic, JointKind::Fixed}) {
    CAPTURE(static_cast<int>(kind));
    const State sp = random_state(), sc = random_state();
    const JointFrame<double> f{
        random_vec(),           random_vec(), normalize(random_vec()), normalize(random_vec()), normalize(random_vec()),
        normalize(random_vec())};
    const JointLaw<double> law{kind, 800, 6, 300, 2, 0.7, 1.3, true, -0.2, 0.2, 500};
    const PairWrench<double> w = joint_wrench(law, f, sp, sc);
    CHECK(length(w.a.force + w.b.force) == 0.0);
    const V total = cross(sp.x, w.a.force) + w.a.torque + cross(sc.x, w.b.force) + w.b.torque;
    const V e = (sc.x + rotate(sc.q, f.anchor_c)) - (sp.x + rotate(sp.q, f.anchor_p));
    CHECK(length(total - cross(e, w.b.force)) < 1e-12 * (length(w.a.force) + length(w.a.torque)));
  }
}

// With a restitution, a contact's damping is 2 zeta(e) sqrt(k m): the adjoints reach the
// restitution (in the damping's accumulator), the stiffness and the masses.
TEST_CASE("restitution: a contact's damping from e, k and the masses; adjoints match finite differences") {
  double e = 0.6, ke = 900, mass_a = 1.7, mass_b = 0.8;
  auto model = [&] {
    ColliderModel<double> cm;
    cm.stiffness = ke, cm.damping = 123.0, cm.friction = 0.35, cm.smoothing = 0.02, cm.friction_smoothing = 0.05;
    cm.damp_approach_only = false;
    cm.use_restitution = true;
    cm.restitution = e;
    return cm;
  };
  // The rebound of the linear spring-dashpot the formula is for: e = exp(-pi zeta / sqrt(1 - zeta^2)).
  const double zeta = restitution_zeta(e);
  CHECK(std::exp(-3.141592653589793 * zeta / std::sqrt(1 - zeta * zeta)) == doctest::Approx(e).epsilon(1e-12));
  CHECK(contact_model_for(model(), 2.0).damping == doctest::Approx(2 * zeta * std::sqrt(900 * 2.0)));

  const Collider<double> sphere = body_shape(ShapeType::Sphere, 0.5, 0, 0);
  SUBCASE("a body's point against a collider") {
    State s = random_state();
    V offset{0.1, 0.2, -0.1};
    const double radius = 0.05;
    s.x = rotate(normalize(Q{0.3, 0.1, 0.2, 1.0}), V{0, 0.52, 0}) - rotate(s.q, offset);  // just inside the sphere
    const Wrench<double> w{random_vec(), random_vec()};
    auto phi = [&] { return weigh(w, body_point_contact(model(), sphere, s, offset, radius, mass_a)); };
    State adj_s = zero_body_state<double>();
    V adj_offset{0, 0, 0};
    double g_radius = 0, g_k = 0, g_e = 0, g_mu = 0, g_mass = 0;
    adj_body_point_contact(model(), sphere, s, offset, radius, w, adj_s, adj_offset, g_radius, g_k, g_e, g_mu, mass_a,
                           &g_mass);
    REQUIRE(g_e != 0.0);  // in contact, and damped
    check_close("restitution", 0, g_e, central_difference(e, phi), 1e-8);
    check_close("stiffness", 0, g_k, central_difference(ke, phi), 1e-8);
    check_close("mass", 0, g_mass, central_difference(mass_a, phi), 1e-8);
    for (int k = 0; k < 13; ++k) check_close("state", k, entry(adj_s, k), central_difference(entry(s, k), phi), 1e-8);
  }
  SUBCASE("two bodies: the reduced mass") {
    State sa = random_state(), sb = random_state();
    sa.x = sb.x + V{0.3, 0.6, -0.2};  // a 0.3 sphere overlapping the 0.5 one
    const PairWrench<double> w{{random_vec(), random_vec()}, {random_vec(), random_vec()}};
    auto phi = [&] { return weigh(w, body_pair_contact(model(), sphere, sa, sb, V{0, 0, 0}, 0.3, mass_a, mass_b)); };
    State adj_a = zero_body_state<double>(), adj_b = zero_body_state<double>();
    V adj_offset{0, 0, 0};
    double g_radius = 0, g_k = 0, g_e = 0, g_mu = 0, g_ma = 0, g_mb = 0;
    adj_body_pair_contact(model(), sphere, sa, sb, V{0, 0, 0}, 0.3, w, adj_a, adj_b, adj_offset, g_radius, g_k, g_e,
                          g_mu, mass_a, mass_b, &g_ma, &g_mb);
    REQUIRE(g_e != 0.0);
    check_close("restitution", 0, g_e, central_difference(e, phi), 1e-8);
    check_close("stiffness", 0, g_k, central_difference(ke, phi), 1e-8);
    check_close("mass a", 0, g_ma, central_difference(mass_a, phi), 1e-8);
    check_close("mass b", 0, g_mb, central_difference(mass_b, phi), 1e-8);
    for (int k = 0; k < 13; ++k) {
      check_close("body a", k, entry(adj_a, k), central_difference(entry(sa, k), phi), 1e-8);
      check_close("body b", k, entry(adj_b, k), central_difference(entry(sb, k), phi), 1e-8);
    }
  }
}
