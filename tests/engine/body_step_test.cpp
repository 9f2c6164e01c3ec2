// Rigid bodies, kernel by kernel: the integrator's and a contact point's adjoints
// against central finite differences in double (every input: the state, the inertia,
// the wrench, the point, the contact parameters), and the motion a free body must have.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <random>

#include "body_test_support.h"
#include "central_difference.h"

using namespace nudge;

namespace {

using namespace test;

// A box's inertia, turned a little so that it is not diagonal in the body frame.
BodyInertia<double> box_inertia(double mass, V half) {
  const V d{mass / 3 * (half.y * half.y + half.z * half.z), mass / 3 * (half.x * half.x + half.z * half.z),
            mass / 3 * (half.x * half.x + half.y * half.y)};
  const M r = to_matrix(normalize(Q{0.1, -0.2, 0.15, 1.0}));
  const M inertia = r * diagonal33(d) * transpose(r);
  return {mass, inertia, inverse(inertia)};
}

}  // namespace

TEST_CASE("bodies: the integrator's adjoint matches finite differences for every input") {
  for (int draw = 0; draw < 4; ++draw) {
    State s = random_state();
    BodyInertia<double> inertia = box_inertia(1.3 + 0.2 * draw, {0.3, 0.5, 0.2});
    Wrench<double> f{random_vec(5), random_vec(2)};
    const double dt = 0.01;
    const State w = random_state();  // weights on the next state
    auto phi = [&] { return weigh(w, body_integrate(s, inertia, f, dt)); };

    State adj_s = zero_body_state<double>();
    BodyInertia<double> adj_inertia{0, zero33<double>(), zero33<double>()};
    Wrench<double> adj_f{{0, 0, 0}, {0, 0, 0}};
    adj_body_integrate(s, inertia, f, dt, w, adj_s, adj_inertia, adj_f);

    for (int k = 0; k < 13; ++k) check_close("state", k, entry(adj_s, k), central_difference(entry(s, k), phi));
    check_close("mass", 0, adj_inertia.mass, central_difference(inertia.mass, phi));
    for (int k = 0; k < 9; ++k) {
      check_close("inertia", k, adj_inertia.inertia.m[k], central_difference(inertia.inertia.m[k], phi));
      check_close("inverse inertia", k, adj_inertia.inv_inertia.m[k],
                  central_difference(inertia.inv_inertia.m[k], phi));
    }
    for (int k = 0; k < 3; ++k) {
      check_close("force", k, (&adj_f.force.x)[k], central_difference((&f.force.x)[k], phi));
      check_close("torque", k, (&adj_f.torque.x)[k], central_difference((&f.torque.x)[k], phi));
    }
  }
}

TEST_CASE("bodies: a contact point's adjoint matches finite differences against every shape") {
  const auto make = [](ShapeType type, double sx, double sy, double sz) {
    Collider<double> c{};
    c.type = type;
    c.position[0] = 0.1, c.position[1] = -0.4, c.position[2] = 0.2;
    const M r = to_matrix(normalize(Q{0.2, 0.1, -0.3, 1.0}));
    for (int k = 0; k < 9; ++k) c.rotation[k] = r.m[k];
    c.size[0] = sx, c.size[1] = sy, c.size[2] = sz;
    return c;
  };
  for (const Collider<double>& c : {make(ShapeType::Plane, 0, 0, 0), make(ShapeType::Box, 0.6, 0.35, 0.5),
                                    make(ShapeType::Sphere, 0.55, 0, 0), make(ShapeType::Capsule, 0.3, 0.4, 0)})
    for (double smoothing : {0.0, 0.02}) {
      const int type = static_cast<int>(c.type);
      CAPTURE(type);
      CAPTURE(smoothing);
      // A body whose point at `offset` sits just inside the shape's surface, moving in.
      State s = random_state();
      V offset{0.2, -0.1, 0.15};
      double radius = 0.05;
      const V surface_local = c.type == ShapeType::Plane     ? V{0.1, -0.01, 0.2}
                              : c.type == ShapeType::Box     ? V{0.0, 0.33, 0.1}
                              : c.type == ShapeType::Capsule ? V{0.0, 0.66, 0.1}
                                                             : V{0.0, 0.57, 0.1};
      const V target = to_world(c, surface_local) + V{c.position[0], c.position[1], c.position[2]};
      s.x = target - rotate(s.q, offset);
      s.v = -1.0 * to_world(c, V{0.1, 1.0, 0.05}) + V{0.3, 0.0, 0.2};
      double ke = 900, kd = 4, mu = 0.35;
      auto model = [&] {
        ColliderModel<double> cm;
        cm.stiffness = ke, cm.damping = kd, cm.friction = mu, cm.smoothing = smoothing, cm.friction_smoothing = 0.05;
        return cm;
      };
      const Wrench<double> w{random_vec(), random_vec()};
      auto phi = [&] { return weigh(w, body_point_contact(model(), c, s, offset, radius)); };
      REQUIRE(length(body_point_contact(model(), c, s, offset, radius).force) > 0);  // in contact
      State adj_s = zero_body_state<double>();
      V adj_offset{0, 0, 0};
      double g_radius = 0, g_k = 0, g_d = 0, g_mu = 0;
      adj_body_point_contact(model(), c, s, offset, radius, w, adj_s, adj_offset, g_radius, g_k, g_d, g_mu);
      // Forces of ~1e2 over a step of 1e-6 leave ~1e-9 of rounding in a difference.
      for (int k = 0; k < 13; ++k) check_close("state", k, entry(adj_s, k), central_difference(entry(s, k), phi), 1e-8);
      for (int k = 0; k < 3; ++k) check_close("offset", k, (&adj_offset.x)[k], central_difference((&offset.x)[k], phi));
      check_close("radius", 0, g_radius, central_difference(radius, phi));
      check_close("stiffness", 0, g_k, central_difference(ke, phi));
      check_close("damping", 0, g_d, central_difference(kd, phi));
      check_close("friction", 0, g_mu, central_difference(mu, phi));
    }
}

TEST_CASE("bodies: a free body keeps its momentum, its spin about a principal axis, and its angular momentum") {
  const double dt = 1e-3;
  BodyInertia<double> inertia;
  inertia.mass = 2.0;
  inertia.inertia = diagonal33(V{0.1, 0.3, 0.5});
  inertia.inv_inertia = inverse(inertia.inertia);
  const Wrench<double> none{{0, 0, 0}, {0, 0, 0}};

  // Spin about a principal axis (body y, turned to the world by q) stays as it is.
  State spin{{0, 0, 0}, normalize(Q{0.3, 0.1, -0.2, 1.0}), {1, 2, 3}, {0, 0, 0}};
  spin.w = 5.0 * rotate(spin.q, V{0, 1, 0});
  State s = spin;
  for (int t = 0; t < 1000; ++t) s = body_integrate(s, inertia, none, dt);
  CHECK(length(s.v - spin.v) == 0.0);                    // no force: the velocity is exact
  CHECK(length(s.x - (spin.x + 1.0 * spin.v)) < 1e-12);  // 1000 steps of 1 ms
  CHECK(length(s.w - spin.w) < 1e-9);
  CHECK(std::fabs(length(s.q) - 1) < 1e-14);

  // A tumbling body: its world angular momentum R I R^T w drifts only at first order.
  State tumble{{0, 0, 0}, normalize(Q{0.1, 0.4, 0.2, 1.0}), {0, 0, 0}, {1.0, 2.0, 0.5}};
  const auto momentum = [&](const State& b) {
    const M r = to_matrix(b.q);
    return r * (inertia.inertia * mul_transpose(r, b.w));
  };
  const V l0 = momentum(tumble);
  s = tumble;
  for (int t = 0; t < 1000; ++t) s = body_integrate(s, inertia, none, dt);
  const double drift = length(momentum(s) - l0) / length(l0);
  INFO("relative drift of the angular momentum over 1 s: " << drift);
  CHECK(drift < 0.02);
  CHECK(drift > 0.0);  // the explicit gyroscopic term is first order: it is not exact
}

TEST_CASE("bodies: mass properties' derivatives with respect to the shape's size match finite differences") {
  for (BodyShape shape : {BodyShape::Sphere, BodyShape::Box, BodyShape::Capsule}) {
    CAPTURE(static_cast<int>(shape));
    RigidBody body;
    body.shape = shape;
    ShapeSize size = shape == BodyShape::Box ? ShapeSize{0.15, 0.08, 0.12} : ShapeSize{0.1, 0.15, 0};
    const std::array<UnitMassProperties, 3> d = unit_mass_derivatives(body, size);
    for (int s = 0; s < (shape == BodyShape::Box ? 3 : shape == BodyShape::Capsule ? 2 : 1); ++s) {
      CAPTURE(s);
      const auto volume = [&] { return unit_mass_properties(body, size).volume; };
      CHECK(d[size_t(s)].volume == doctest::Approx(test::central_difference(size[size_t(s)], volume)).epsilon(1e-7));
      for (int k = 0; k < 9; ++k) {
        const auto inertia = [&] { return unit_mass_properties(body, size).inertia[k]; };
        CHECK(d[size_t(s)].inertia[k] ==
              doctest::Approx(test::central_difference(size[size_t(s)], inertia)).epsilon(1e-7).scale(1e-9));
      }
    }
  }
  // A capsule's volume and moments against a cylinder plus a sphere, by hand.
  RigidBody capsule;
  capsule.shape = BodyShape::Capsule;
  const UnitMassProperties m = unit_mass_properties(capsule, {0.1, 0.15, 0});
  CHECK(m.volume == doctest::Approx(M_PI * 0.01 * 0.3 + 4.0 / 3.0 * M_PI * 0.001));
}
