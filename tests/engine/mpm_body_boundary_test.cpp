// A rigid body's shape as a boundary of the material points' grid
// (mpm_body_boundary.h): a node near a moving, turned box, sphere or capsule is stopped,
// slides or is carried, and gives the body the momentum it loses. Its adjoint (the node's
// velocity and mass, the body's centre, turn, velocity and angular velocity) against
// central differences in double, sticky, slipping and with friction, moving in and out.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <random>
#include <string>

#include "central_difference.h"
#include "families/material_points/mpm_body_boundary.h"

using namespace nudge;

namespace {

using V = Vec3<double>;
using M = Mat33<double>;

std::mt19937_64& rng() {
  static std::mt19937_64 r(20261202);
  return r;
}
double uniform(double lo = -1, double hi = 1) { return std::uniform_real_distribution<double>(lo, hi)(rng()); }
V random_vec(double scale) { return {scale * uniform(), scale * uniform(), scale * uniform()}; }

// exp([theta]x), Rodrigues' formula.
M rotation(V theta) {
  const double angle = length(theta);
  if (angle == 0) return identity33<double>();
  const M k = skew((1 / angle) * theta);
  return identity33<double>() + std::sin(angle) * k + (1 - std::cos(angle)) * (k * k);
}

// The body: centre c, orientation R; its shape at offset o and local turn L in its frame.
struct Body {
  ShapeType type;
  V size;  // box half extents; sphere radius; capsule radius, half length
  V offset;
  M local;
  V centre;
  M orientation;
};

Collider<double> placed(const Body& b) {
  Collider<double> c{};
  c.type = b.type;
  const V p = b.centre + b.orientation * b.offset;
  c.position[0] = p.x, c.position[1] = p.y, c.position[2] = p.z;
  const M r = b.orientation * b.local;
  for (int k = 0; k < 9; ++k) c.rotation[k] = r.m[k];
  c.size[0] = b.size.x, c.size[1] = b.size.y, c.size[2] = b.size.z;
  return c;
}

// A node near the shape's surface (within reach outside, or a little inside), away from
// edges: along the local x axis for a box, any direction for a sphere, sideways for a
// capsule.
V node_near(const Body& b, double reach) {
  const double depth = uniform(-0.6, 0.8) * reach;
  V local{0, 0, 0};
  if (b.type == ShapeType::Box) {
    local = {b.size.x + depth, 0.4 * b.size.y * uniform(), 0.4 * b.size.z * uniform()};
  } else if (b.type == ShapeType::Sphere) {
    V d = random_vec(1.0);
    d = (1 / length(d)) * d;
    local = (b.size.x + depth) * d;
  } else {  // capsule: axis along local y
    const double a = uniform(0, 6.28);
    local = {(b.size.x + depth) * std::cos(a), 0.5 * b.size.y * uniform(), (b.size.x + depth) * std::sin(a)};
  }
  return b.centre + b.orientation * (b.offset + b.local * local);
}

void check_close(double adjoint, double fd, const std::string& what) {
  CAPTURE(what);
  CHECK(adjoint == doctest::Approx(fd).epsilon(1e-6).scale(1.0));
}

}  // namespace

TEST_CASE("mpm body boundary: the node's momentum lost is the body's, and the adjoint matches central differences") {
  const double reach = 0.02, dt = 1e-3;
  int touched = 0, moving_in = 0;
  for (const ShapeType type : {ShapeType::Box, ShapeType::Sphere, ShapeType::Capsule})
    for (const double friction : {-1.0, 0.0, 0.4})
      for (int trial = 0; trial < 6; ++trial) {
        CAPTURE(int(type));
        CAPTURE(friction);
        CAPTURE(trial);
        Body b{type,
               type == ShapeType::Box ? V{0.1, 0.06, 0.08} : V{0.07, 0.09, 0},
               random_vec(0.03),
               rotation(random_vec(1.0)),
               V{0.5, 0.4, 0.5} + random_vec(0.05),
               rotation(random_vec(2.0))};
        BodyPartMotion<double> motion{b.centre, random_vec(0.5), random_vec(2.0)};
        const V x = node_near(b, reach);
        V v = random_vec(1.0);
        double mass = uniform(0.5, 2.0);
        V turn{0, 0, 0};
        const V w_v = random_vec(1.0), w_f = random_vec(1e-3), w_t = random_vec(1e-2);
        const auto effect = [&] {
          Body turned = b;
          turned.orientation = rotation(turn) * b.orientation;
          turned.centre = motion.centre;
          return body_part_effect(placed(turned), motion, friction, reach, dt, x, v, mass);
        };
        const auto loss = [&] {
          const BodyPartEffect<double> e = effect();
          return dot(w_v, e.v) + dot(w_f, e.force) + dot(w_t, e.torque);
        };
        const BodyPartEffect<double> e = effect();
        // Momentum: what the node loses, the body gains.
        const V lost = mass * (v - e.v);
        CHECK(length(lost + (-dt) * e.force) < 1e-12);
        CHECK(length(e.torque + (-1.0) * cross(x - b.centre, e.force)) < 1e-12);
        if (length(e.v + (-1.0) * v) > 0) ++touched;
        if (dot(v - (motion.v + cross(motion.w, x - b.centre)), collider_sdf(placed(b), x).normal) < 0) ++moving_in;

        V adj_v{0, 0, 0};
        double adj_mass = 0;
        BodyPartShares<double> shares;
        adj_body_part_effect(placed(b), motion, friction, reach, dt, x, v, mass, {w_v, w_f, w_t}, adj_v, adj_mass,
                             shares);
        for (int k = 0; k < 3; ++k) {
          const std::string axis = std::to_string(k);
          check_close((&adj_v.x)[k], test::central_difference((&v.x)[k], loss, 1e-7), "v " + axis);
          check_close((&shares.centre.x)[k], test::central_difference((&motion.centre.x)[k], loss, 1e-7),
                      "centre " + axis);
          check_close((&shares.turn.x)[k], test::central_difference((&turn.x)[k], loss, 1e-7), "turn " + axis);
          check_close((&shares.v.x)[k], test::central_difference((&motion.v.x)[k], loss, 1e-7), "body v " + axis);
          check_close((&shares.w.x)[k], test::central_difference((&motion.w.x)[k], loss, 1e-7), "body w " + axis);
        }
        check_close(adj_mass, test::central_difference(mass, loss, 1e-7), "mass");
      }
  CHECK(touched >= 40);    // most nodes are within reach and changed
  CHECK(moving_in >= 15);  // both rules of the surface are exercised
}
