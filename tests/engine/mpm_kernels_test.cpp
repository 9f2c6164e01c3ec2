// The material point method's pieces (families/material_points/): every constitutive
// model's stress, a point's preparation, its share of a node, the grid's velocity with
// its walls and its boundaries (turning collider shapes), the gather back, and one whole
// step composed of them, each adjoint against
// central differences in double, in 2D and 3D.
#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "families/material_points/mpm_boundary.h"
#include "families/material_points/mpm_transfer.h"
#include "central_difference.h"

using namespace nudge;

namespace {
// d loss / d entry by central differences of step h (central_difference.h).
double central(const std::function<double()>& loss, double& entry, double h) {
  return test::central_difference(entry, loss, h);
}
}  // namespace

namespace {

using M = Mat33<double>;
using V = Vec3<double>;

std::mt19937_64& rng() {
  static std::mt19937_64 r(20261128);
  return r;
}
double uniform(double lo = -1, double hi = 1) { return std::uniform_real_distribution<double>(lo, hi)(rng()); }
M random_matrix(double scale) {
  M m;
  for (double& e : m.m) e = scale * uniform();
  return m;
}
// A deformation near the identity; in 2D its z row and column are the identity's.
M random_gradient(int dims, double scale = 0.2) {
  M f = identity33<double>() + random_matrix(scale);
  if (dims == 2) f(0, 2) = f(1, 2) = f(2, 0) = f(2, 1) = 0, f(2, 2) = 1;
  return f;
}
M random_affine(int dims, double scale) {
  M c = random_matrix(scale);
  if (dims == 2) c(0, 2) = c(1, 2) = c(2, 0) = c(2, 1) = c(2, 2) = 0;
  return c;
}

// Relative 1e-5, with an absolute floor of 1e-6 for the differences' rounding noise (a
// loss of a few hundred terms, differenced over 2e-7).
void check_close(double adjoint, double fd, const std::string& what, int k) {
  CAPTURE(what);
  CAPTURE(k);
  CHECK(adjoint == doctest::Approx(fd).epsilon(1e-5).scale(0.1));
}

MpmMaterialLaw<double> law_of(MpmModelKind kind) {
  MpmMaterialLaw<double> law;
  law.kind = kind;
  law.mu = 3.0, law.lambda = 5.0, law.bulk = 7.0, law.viscosity = 0.4, law.alpha = 0.4;
  return law;
}

// The stress, its adjoint and the affine momentum in the grid's dimensions.
M stress_of(int dims, const MpmMaterialLaw<double>& law, const M& f, const M& c, double a) {
  return dims == 2 ? kirchhoff_stress<2>(law, f, c, a) : kirchhoff_stress<3>(law, f, c, a);
}
void adj_stress_of(int dims, const MpmMaterialLaw<double>& law, const M& f, const M& c, double a, const M& adj_tau,
                   M& adj_f, M& adj_c, MpmMaterialAdjoint<double>& adj_law, double& adj_act) {
  if (dims == 2)
    adj_kirchhoff_stress<2>(law, f, c, a, adj_tau, adj_f, adj_c, adj_law, adj_act);
  else
    adj_kirchhoff_stress<3>(law, f, c, a, adj_tau, adj_f, adj_c, adj_law, adj_act);
}
M affine_of(const MpmGrid<double>& g, const PointMaterial<double>& pm, const M& c, const M& f_new) {
  return g.dims == 2 ? affine_momentum<2>(g, pm, c, f_new) : affine_momentum<3>(g, pm, c, f_new);
}

constexpr MpmModelKind kAllModels[] = {MpmModelKind::NeoHookean, MpmModelKind::FixedCorotated, MpmModelKind::Liquid,
                                       MpmModelKind::Sand};

MpmGrid<double> test_grid(int dims) {
  MpmGrid<double> g;
  g.dims = dims;
  g.cells = 16;
  g.dx = 1.0 / 16, g.inv_dx = 16;
  g.bound = 3;
  g.dt = 2e-3;
  g.gravity[1] = -3.8;
  g.friction[2] = 0.5;  // the floor slips with friction; the other walls are sticky
  return g;
}

}  // namespace

TEST_CASE("mpm: each material's stress adjoint matches central differences") {
  for (const int dims : {2, 3})
    for (const MpmModelKind kind : kAllModels)
      for (const double act : {0.0, 1.7}) {
        CAPTURE(dims);
        CAPTURE(int(kind));
        CAPTURE(act);
        MpmMaterialLaw<double> law = law_of(kind);
        M f = random_gradient(dims);
        M c = random_affine(dims, 0.5);
        double a = act;
        const M weight = random_matrix(1.0);
        const auto loss = [&] { return inner(weight, stress_of(dims, law, f, c, a)); };
        M adj_f = zero33<double>(), adj_c = zero33<double>();
        MpmMaterialAdjoint<double> adj_law;
        double adj_act = 0;
        adj_stress_of(dims, law, f, c, a, weight, adj_f, adj_c, adj_law, adj_act);
        for (int k = 0; k < 9; ++k) {
          if (dims == 2 && (k % 3 == 2 || k / 3 == 2)) continue;  // z: F_zz = 1, C's z parts 0
          check_close(adj_f.m[k], central(loss, f.m[k], 1e-6), "F", k);
          check_close(adj_c.m[k], central(loss, c.m[k], 1e-6), "C", k);
        }
        check_close(adj_law.mu, central(loss, law.mu, 1e-6), "mu", 0);
        check_close(adj_law.lambda, central(loss, law.lambda, 1e-6), "lambda", 0);
        check_close(adj_law.bulk, central(loss, law.bulk, 1e-6), "bulk", 0);
        check_close(adj_law.viscosity, central(loss, law.viscosity, 1e-6), "viscosity", 0);
        check_close(adj_law.alpha, central(loss, law.alpha, 1e-6), "alpha", 0);
        check_close(adj_act, central(loss, a, 1e-6), "act", 0);
      }
}

TEST_CASE("mpm: a point's preparation (F' and the affine momentum) against central differences") {
  for (const int dims : {2, 3})
    for (const MpmModelKind kind : kAllModels)
      // Sand's return mapping has three cases: squeezed (onto the cone, or inside it),
      // as it is, and stretched (no tension): F near 0.85 I, I and 1.15 I reach each.
      for (const double squeeze : {0.85, 1.0, 1.15}) {
        if (squeeze != 1.0 && kind != MpmModelKind::Sand) continue;
        CAPTURE(dims);
        CAPTURE(int(kind));
        CAPTURE(squeeze);
        const MpmGrid<double> g = test_grid(dims);
        PointMaterial<double> pm{law_of(kind), 0.8, 2e-3, 0.9};
        M f = random_gradient(dims), c = random_affine(dims, 3.0);
        for (int k = 0; k < dims * 3; ++k)
          if (k % 3 < dims) f.m[k] *= squeeze;
        const M weight_a = random_matrix(1.0), weight_f = random_matrix(1.0);
        const auto loss = [&] {
          const M f_new = dims == 2 ? advanced_gradient<2>(g, pm, c, f) : advanced_gradient<3>(g, pm, c, f);
          return inner(weight_a, affine_of(g, pm, c, f_new)) + inner(weight_f, f_new);
        };
        PointAdjoint<double> adj;
        if (dims == 2)
          adj_point_prepare<2>(g, pm, c, f, weight_a, weight_f, adj);
        else
          adj_point_prepare<3>(g, pm, c, f, weight_a, weight_f, adj);
        for (int k = 0; k < 9; ++k) {
          if (dims == 2 && (k % 3 == 2 || k / 3 == 2)) continue;
          check_close(adj.f.m[k], central(loss, f.m[k], 1e-6), "F", k);
          check_close(adj.c.m[k], central(loss, c.m[k], 1e-6), "C", k);
        }
        check_close(adj.mass, central(loss, pm.mass, 1e-6), "mass", 0);
        check_close(adj.volume, central(loss, pm.volume, 1e-8), "volume", 0);
        check_close(adj.act, central(loss, pm.act, 1e-6), "act", 0);
        check_close(adj.law.mu, central(loss, pm.law.mu, 1e-6), "mu", 0);
        check_close(adj.law.lambda, central(loss, pm.law.lambda, 1e-6), "lambda", 0);
        check_close(adj.law.bulk, central(loss, pm.law.bulk, 1e-6), "bulk", 0);
        check_close(adj.law.viscosity, central(loss, pm.law.viscosity, 1e-6), "viscosity", 0);
        check_close(adj.law.alpha, central(loss, pm.law.alpha, 1e-6), "alpha", 0);
      }
}

TEST_CASE("mpm: the weights are a partition of unity with the right first moment") {
  for (const int dims : {2, 3}) {
    const MpmGrid<double> g = test_grid(dims);
    for (int trial = 0; trial < 20; ++trial) {
      const V x{uniform(0.3, 0.7), uniform(0.3, 0.7), dims == 3 ? uniform(0.3, 0.7) : 0.0};
      const GridPlace<double> p = grid_place(g, x);
      double sum = 0;
      V moment{0, 0, 0}, dsum{0, 0, 0};
      for (int q = 0; q < stencil_size(g); ++q) {
        int o[3];
        stencil_offset(g, q, o);
        const NodeWeight<double> nw = node_weight(g, p, o);
        sum += nw.w;
        moment += nw.w * nw.rel;
        dsum += nw.dw;
      }
      CHECK(sum == doctest::Approx(1.0).epsilon(1e-14));
      CHECK(length(moment) < 1e-14);  // sum w (x_i - x_p) = 0: APIC's exactness for affine fields
      CHECK(length(dsum) < 1e-13);
    }
  }
}

TEST_CASE("mpm: a node's velocity with gravity and the walls, against central differences") {
  for (const int dims : {2, 3}) {
    const MpmGrid<double> g = test_grid(dims);
    // Inside, by the sticky left wall, on the slipping floor (sliding and stuck), in a corner.
    const std::array<std::array<int, 3>, 5> nodes = {{{8, 8, 8}, {1, 8, 8}, {8, 1, 8}, {8, 2, 8}, {1, 1, 8}}};
    for (const auto& node : nodes)
      for (int trial = 0; trial < 4; ++trial) {
        CAPTURE(dims);
        CAPTURE(node[0]);
        CAPTURE(node[1]);
        double mass = uniform(0.5, 2.0);
        V momentum{uniform(), uniform(), dims == 3 ? uniform() : 0.0};
        if (trial == 3) momentum.x *= 0.01;  // on the floor: nearly straight down, so friction stops it
        const V weight{uniform(), uniform(), uniform()};
        MpmGrid<double> gg = g;
        const auto loss = [&] { return dot(weight, grid_velocity(gg, node.data(), momentum, mass)); };
        V adj_momentum{0, 0, 0}, adj_gravity{0, 0, 0};
        double adj_mass = 0;
        adj_grid_velocity(gg, node.data(), momentum, mass, weight, adj_momentum, adj_mass, adj_gravity);
        for (int k = 0; k < dims; ++k) {
          check_close((&adj_momentum.x)[k], central(loss, (&momentum.x)[k], 1e-7), "momentum", k);
          check_close((&adj_gravity.x)[k], central(loss, gg.gravity[k], 1e-5), "gravity", k);
        }
        check_close(adj_mass, central(loss, mass, 1e-7), "mass", 0);
      }
  }
}

TEST_CASE("mpm: a node's velocity at a turning boundary, against central differences") {
  // One group turning about a pivot on a tilted axis, with a box, a sphere and a capsule;
  // nodes in each one's band outside it, a cell deep inside it (moving with it), half a
  // reach inside (both rules blended), and one within reach of two parts at once.
  Collider<double> box{}, sphere{}, capsule{};
  box.type = ShapeType::Box, sphere.type = ShapeType::Sphere, capsule.type = ShapeType::Capsule;
  for (Collider<double>* c : {&box, &sphere, &capsule})
    for (int k = 0; k < 9; ++k) c->rotation[k] = k % 4 == 0 ? 1.0 : 0.0;
  const double q = 0.3;  // the box turned about z by q
  box.rotation[0] = std::cos(q), box.rotation[1] = -std::sin(q), box.rotation[3] = std::sin(q),
  box.rotation[4] = std::cos(q);
  box.position[0] = 0.2, box.position[1] = 0.1, box.size[0] = 0.2, box.size[1] = 0.05, box.size[2] = 0.3;
  sphere.position[0] = -0.3, sphere.size[0] = 0.15;
  capsule.position[1] = 0.5, capsule.size[0] = 0.1, capsule.size[1] = 0.2;
  // A second sphere just above the box's +y face: a node there is within reach of both.
  Collider<double> cap = sphere;
  cap.position[0] = 0.23004, cap.position[1] = 0.172096 + 0.11, cap.position[2] = 0.05, cap.size[0] = 0.1;
  // The two groups: the first turns, the second (the capsule) turns about another axis.
  const std::vector<MpmBoundaryPart<double>> parts = {{box, 0}, {sphere, 0}, {capsule, 1}, {cap, 0}};
  const V axis = normalize(V{0.2, 0.1, 1.0});
  MpmBoundaryGroup<double> groups[2] = {{{0.05, -0.02, 0.0}, {axis.x, axis.y, axis.z}, 0.4, 0, 1.0},
                                        {{0.0, 0.3, 0.1}, {0.0, 0.0, 1.0}, 0.4, 0, 1.0}};
  constexpr double reach = 0.02;
  // Positions as at angle 0 (each is turned with its group's angle below): past the box's
  // +y face (and 1 cm from the second sphere: two contacts), off the sphere, off the
  // capsule's side (6 to 10 mm out); deep inside each; 6 mm inside the box.
  struct Case {
    V at;
    int group;
  };
  const std::vector<Case> cases = {{{0.23004, 0.172096, 0.05}, 0}, {{-0.43714, 0.06857, 0.04571}, 0},
                                   {{0.08, 0.6, 0.07}, 1},         {{0.25, 0.12, 0.05}, 0},
                                   {{-0.35, 0.05, 0.03}, 0},       {{0.02, 0.68, 0.01}, 1},
                                   {{0.21, 0.144, 0.05}, 0}};
  for (const double friction : {-1.0, 0.0, 0.4})
    for (size_t which = 0; which < cases.size(); ++which)
      for (int trial = 0; trial < 3; ++trial) {
        CAPTURE(friction);
        CAPTURE(which);
        groups[0].friction = groups[1].friction = friction;
        MpmGroupMotion<double> motion[2] = {{0.05 * uniform(), uniform()}, {0.05 * uniform(), uniform()}};
        std::vector<Collider<double>> turned(parts.size());
        const auto bounds_now = [&] {  // the shapes follow the angles
          for (size_t i = 0; i < parts.size(); ++i)
            turned[i] = turned_shape(parts[i], groups[parts[i].group], motion[parts[i].group].angle);
          return MpmBoundaries<double>{4, 2, reach, parts.data(), groups, motion, turned.data()};
        };
        const MpmBoundaries<double> bounds = bounds_now();
        const MpmBoundaryGroup<double>& g = groups[cases[which].group];
        const V pivot{g.pivot[0], g.pivot[1], g.pivot[2]}, gaxis{g.axis[0], g.axis[1], g.axis[2]};
        const V x = pivot + turn_about(gaxis, motion[cases[which].group].angle, cases[which].at - pivot);
        int within = 0;
        SdfSample<double> sdf{};
        for (size_t i = 0; i < parts.size(); ++i) {
          const SdfSample<double> s = collider_sdf(turned[i], x);
          if (s.distance < reach) ++within, sdf = s;
          // No node sits on a switch: a face, the reach, a cell deep.
          CHECK(std::fabs(s.distance) > 1e-3);
          CHECK(std::fabs(s.distance - reach) > 1e-3);
          CHECK(std::fabs(s.distance + reach) > 1e-3);
        }
        REQUIRE(within >= 1);
        if (which == 0) CHECK(within == 2);
        // Moving into the (last) part it meets, with some slip along it.
        V v = -0.8 * sdf.normal + 0.5 * V{uniform(), uniform(), uniform()};
        if (trial == 2) v = -0.8 * sdf.normal + 0.1 * V{uniform(), uniform(), uniform()};  // friction may stop it
        const V weight{uniform(), uniform(), uniform()};
        const auto loss = [&] { return dot(weight, boundary_velocity(bounds_now(), x, v)); };
        V adj_v{0, 0, 0};
        double angle[2] = {0, 0}, rate[2] = {0, 0};
        adj_boundary_velocity(bounds, x, v, weight, adj_v, angle, rate);
        for (int k = 0; k < 3; ++k) check_close((&adj_v.x)[k], central(loss, (&v.x)[k], 1e-7), "v", k);
        for (int k = 0; k < 2; ++k) {
          check_close(rate[k], central(loss, motion[k].rate, 1e-7), "rate", k);
          check_close(angle[k], central(loss, motion[k].angle, 1e-7), "angle", k);
        }
        bounds_now();
      }
  // A node a cell deep moves with its part; one out of reach keeps its velocity.
  MpmGroupMotion<double> motion[2] = {{0.02, 0.7}, {0.0, 0.0}};
  std::vector<Collider<double>> turned;
  for (const MpmBoundaryPart<double>& part : parts)
    turned.push_back(turned_shape(part, groups[part.group], motion[part.group].angle));
  const MpmBoundaries<double> bounds{4, 2, reach, parts.data(), groups, motion, turned.data()};
  const V deep = V{groups[0].pivot[0], groups[0].pivot[1], 0} +
                 turn_about(axis, 0.02, V{-0.35, 0.05, 0.03} - V{groups[0].pivot[0], groups[0].pivot[1], 0});
  const V solid = 0.7 * cross(axis, deep - V{groups[0].pivot[0], groups[0].pivot[1], groups[0].pivot[2]});
  CHECK(length(boundary_velocity(bounds, deep, V{3, -2, 1}) - solid) < 1e-15);
  const V far{2, 2, 2};
  CHECK(length(boundary_velocity(bounds, far, V{3, -2, 1}) - V{3, -2, 1}) == 0);
}

// One whole step of a few points, composed of the pieces in the order the family runs
// them (scatter here, a gather by node there: the same sums), its adjoint against
// central differences for every input of every point.
namespace {

struct Points {
  int dims = 2;
  std::vector<V> x, v;
  std::vector<M> c, f;
  std::vector<PointMaterial<double>> material;
};

struct Step {
  std::vector<V> x, v;
  std::vector<M> c, f;
};

Step forward_step(const MpmGrid<double>& g, const Points& p) {
  const int n = int(p.x.size()), nodes = g.node_count();
  std::vector<V> momentum(size_t(nodes), V{0, 0, 0});
  std::vector<double> mass(size_t(nodes), 0.0);
  Step out;
  std::vector<M> affine(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    const M f_new = p.dims == 2 ? advanced_gradient<2>(g, p.material[size_t(i)], p.c[size_t(i)], p.f[size_t(i)])
                                : advanced_gradient<3>(g, p.material[size_t(i)], p.c[size_t(i)], p.f[size_t(i)]);
    out.f.push_back(f_new);
    affine[size_t(i)] = affine_of(g, p.material[size_t(i)], p.c[size_t(i)], f_new);
    const GridPlace<double> place = grid_place(g, p.x[size_t(i)]);
    for (int q = 0; q < stencil_size(g); ++q) {
      int o[3];
      stencil_offset(g, q, o);
      const NodeShare<double> s =
          node_share(g, node_weight(g, place, o), p.material[size_t(i)].mass, p.v[size_t(i)], affine[size_t(i)]);
      const int node = g.node_index(place.base[0] + o[0], place.base[1] + o[1], place.base[2] + o[2]);
      momentum[size_t(node)] += s.momentum;
      mass[size_t(node)] += s.mass;
    }
  }
  std::vector<V> velocity(static_cast<size_t>(nodes));
  for (int a = 0; a < g.cells; ++a)
    for (int b = 0; b < g.cells; ++b)
      for (int k = 0; k < (g.dims == 3 ? g.cells : 1); ++k) {
        const int node[3] = {a, b, k};
        const int id = g.node_index(a, b, k);
        velocity[size_t(id)] = grid_velocity(g, node, momentum[size_t(id)], mass[size_t(id)]);
      }
  for (int i = 0; i < n; ++i) {
    const GridPlace<double> place = grid_place(g, p.x[size_t(i)]);
    V vn{0, 0, 0};
    M cn = zero33<double>();
    for (int q = 0; q < stencil_size(g); ++q) {
      int o[3];
      stencil_offset(g, q, o);
      const int node = g.node_index(place.base[0] + o[0], place.base[1] + o[1], place.base[2] + o[2]);
      const PointUpdate<double> u = node_gather(g, node_weight(g, place, o), velocity[size_t(node)]);
      vn += u.v;
      cn += u.c;
    }
    out.v.push_back(vn);
    out.c.push_back(cn);
    out.x.push_back(p.x[size_t(i)] + g.dt * vn);
  }
  return out;
}

}  // namespace

TEST_CASE("mpm: one whole step's adjoint, composed of the pieces, against central differences") {
  for (const int dims : {2, 3}) {
    CAPTURE(dims);
    MpmGrid<double> g = test_grid(dims);
    Points p;
    p.dims = dims;
    const MpmModelKind kinds[4] = {MpmModelKind::NeoHookean, MpmModelKind::FixedCorotated, MpmModelKind::Liquid,
                                   MpmModelKind::Sand};
    for (int i = 0; i < 6; ++i) {
      // Near one another (their stencils overlap), one near the floor.
      p.x.push_back(V{0.45 + 0.04 * uniform(), (i == 5 ? 0.16 : 0.45) + 0.04 * uniform(),
                      dims == 3 ? 0.45 + 0.04 * uniform() : 0.0});
      p.v.push_back(V{uniform(), uniform(), dims == 3 ? uniform() : 0.0});
      p.c.push_back(random_affine(dims, 2.0));
      p.f.push_back(random_gradient(dims, 0.1));
      p.material.push_back({law_of(kinds[i % 4]), 0.5 + 0.1 * i, 1e-3, i % 2 ? 0.7 : 0.0});
    }
    // L = sum of random weights times every output.
    Step weight;
    for (int i = 0; i < 6; ++i) {
      weight.x.push_back(V{uniform(), uniform(), dims == 3 ? uniform() : 0.0});
      weight.v.push_back(V{uniform(), uniform(), dims == 3 ? uniform() : 0.0});
      weight.c.push_back(random_affine(dims, 1.0));
      weight.f.push_back(random_affine(dims, 1.0));
    }
    const auto loss = [&] {
      const Step s = forward_step(g, p);
      double l = 0;
      for (size_t i = 0; i < 6; ++i)
        l += dot(weight.x[i], s.x[i]) + dot(weight.v[i], s.v[i]) + inner(weight.c[i], s.c[i]) +
             inner(weight.f[i], s.f[i]);
      return l;
    };

    // The adjoint, in the family's order: the gather's, the grid's, the scatter's, the
    // points' preparation.
    const int nodes = g.node_count();
    std::vector<V> momentum(size_t(nodes), V{0, 0, 0});
    std::vector<double> mass(size_t(nodes), 0.0);
    std::vector<M> affine(6);
    std::vector<M> f_new(6);
    for (size_t i = 0; i < 6; ++i) {
      f_new[i] = dims == 2 ? advanced_gradient<2>(g, p.material[i], p.c[i], p.f[i])
                           : advanced_gradient<3>(g, p.material[i], p.c[i], p.f[i]);
      affine[i] = affine_of(g, p.material[i], p.c[i], f_new[i]);
      const GridPlace<double> place = grid_place(g, p.x[i]);
      for (int q = 0; q < stencil_size(g); ++q) {
        int o[3];
        stencil_offset(g, q, o);
        const NodeShare<double> s = node_share(g, node_weight(g, place, o), p.material[i].mass, p.v[i], affine[i]);
        const int node = g.node_index(place.base[0] + o[0], place.base[1] + o[1], place.base[2] + o[2]);
        momentum[size_t(node)] += s.momentum;
        mass[size_t(node)] += s.mass;
      }
    }
    std::vector<V> velocity(static_cast<size_t>(nodes));
    const auto each_node = [&](auto&& body) {
      for (int a = 0; a < g.cells; ++a)
        for (int b = 0; b < g.cells; ++b)
          for (int k = 0; k < (g.dims == 3 ? g.cells : 1); ++k) {
            const int node[3] = {a, b, k};
            body(node, g.node_index(a, b, k));
          }
    };
    each_node([&](const int* node, int id) {
      velocity[size_t(id)] = grid_velocity(g, node, momentum[size_t(id)], mass[size_t(id)]);
    });
    std::vector<V> adj_x(6, V{0, 0, 0}), adj_v(6, V{0, 0, 0});
    std::vector<V> adj_node_v(size_t(nodes), V{0, 0, 0});
    for (size_t i = 0; i < 6; ++i) {
      const V adj_vn = weight.v[i] + g.dt * weight.x[i];
      adj_x[i] += weight.x[i];
      const GridPlace<double> place = grid_place(g, p.x[i]);
      V adj_fx{0, 0, 0};
      for (int q = 0; q < stencil_size(g); ++q) {
        int o[3];
        stencil_offset(g, q, o);
        const int node = g.node_index(place.base[0] + o[0], place.base[1] + o[1], place.base[2] + o[2]);
        adj_node_gather(g, node_weight(g, place, o), velocity[size_t(node)], adj_vn, weight.c[i],
                        adj_node_v[size_t(node)], adj_fx);
      }
      adj_x[i] += g.inv_dx * adj_fx;
    }
    std::vector<V> adj_momentum(size_t(nodes), V{0, 0, 0});
    std::vector<double> adj_mass(size_t(nodes), 0.0);
    V adj_gravity{0, 0, 0};
    each_node([&](const int* node, int id) {
      adj_grid_velocity(g, node, momentum[size_t(id)], mass[size_t(id)], adj_node_v[size_t(id)],
                        adj_momentum[size_t(id)], adj_mass[size_t(id)], adj_gravity);
    });
    std::vector<PointAdjoint<double>> adj_point(6);
    for (size_t i = 0; i < 6; ++i) {
      const GridPlace<double> place = grid_place(g, p.x[i]);
      V adj_fx{0, 0, 0};
      M adj_a = zero33<double>();
      for (int q = 0; q < stencil_size(g); ++q) {
        int o[3];
        stencil_offset(g, q, o);
        const int node = g.node_index(place.base[0] + o[0], place.base[1] + o[1], place.base[2] + o[2]);
        adj_node_share(g, node_weight(g, place, o), p.material[i].mass, p.v[i], affine[i], adj_momentum[size_t(node)],
                       adj_mass[size_t(node)], adj_v[i], adj_a, adj_point[i].mass, adj_fx);
      }
      adj_x[i] += g.inv_dx * adj_fx;
      if (dims == 2)
        adj_point_prepare<2>(g, p.material[i], p.c[i], p.f[i], adj_a, weight.f[i], adj_point[i]);
      else
        adj_point_prepare<3>(g, p.material[i], p.c[i], p.f[i], adj_a, weight.f[i], adj_point[i]);
    }

    for (size_t i = 0; i < 6; ++i) {
      CAPTURE(i);
      for (int k = 0; k < dims; ++k) {
        check_close((&adj_x[i].x)[k], central(loss, (&p.x[i].x)[k], 1e-7), "x", k);
        check_close((&adj_v[i].x)[k], central(loss, (&p.v[i].x)[k], 1e-7), "v", k);
        for (int l = 0; l < dims; ++l) {
          check_close(adj_point[i].c(k, l), central(loss, p.c[i](k, l), 1e-7), "C", 3 * k + l);
          check_close(adj_point[i].f(k, l), central(loss, p.f[i](k, l), 1e-7), "F", 3 * k + l);
        }
      }
      check_close(adj_point[i].mass, central(loss, p.material[i].mass, 1e-7), "mass", 0);
      check_close(adj_point[i].act, central(loss, p.material[i].act, 1e-6), "act", 0);
      check_close(adj_point[i].law.mu, central(loss, p.material[i].law.mu, 1e-6), "mu", 0);
    }
    for (int k = 0; k < dims; ++k) check_close((&adj_gravity.x)[k], central(loss, g.gravity[k], 1e-5), "gravity", k);
  }
}
