// Each kernel's hand-derived adjoint against central finite differences in double.
// A kernel is turned into a scalar by dotting its outputs with fixed random weights;
// the adjoint of that scalar must match the finite difference of each input.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <random>
#include <vector>

#include "kernels/step_kernels.h"
#include "central_difference.h"
#include "nudge/gradcheck.h"

using namespace nudge;
using test::central_difference;

namespace {

constexpr double kTolerance = 1e-6;

void check_entry(const char* what, int index, double adjoint, double fd) {
  const double err = gradient_relative_error(adjoint, fd, 1e-9);
  INFO(what << "[" << index << "]: adjoint " << adjoint << ", finite difference " << fd);
  CHECK(err <= kTolerance);
}

// A small two-particle model with one actuated spring and a ground plane.
struct TinyModel {
  std::vector<double> mass{0.7, 1.3}, free{1, 1}, ext{0.1, -0.2, 0.3, -0.1, 0.05, 0.2};
  std::vector<int> a{0}, b{1}, channel{0}, inc_start{0, 1, 2}, inc_spring{0, 0};
  std::vector<double> k{35.0}, c{0.4}, rest{0.8}, actuation{0.3}, inc_sign{1, -1};
  std::vector<double> controls{0.2, -0.5};  // 2 steps x 1 channel
  double length_offset = 0.0;

  ModelView<double> view() {
    ModelView<double> m;
    m.dt = 0.01;
    ParticleModel<double>& p = m.particles;
    p.n = 2;
    p.mass = mass.data(), p.free = free.data(), p.ext_force = ext.data();
    p.gravity[0] = 0.1, p.gravity[1] = -9.81, p.gravity[2] = 0.2;
    p.drag = 0.3;
    SpringModel<double>& sp = m.springs;
    sp.s = 1, sp.channels = 1;
    sp.a = a.data(), sp.b = b.data(), sp.channel = channel.data();
    sp.stiffness = k.data(), sp.damping = c.data(), sp.rest = rest.data(), sp.actuation = actuation.data();
    sp.inc_start = inc_start.data(), sp.inc_spring = inc_spring.data(), sp.inc_sign = inc_sign.data();
    sp.controls = controls.data();
    sp.length_offset = length_offset;
    GroundModel<double>& g = m.ground;
    g.enabled = true;
    g.height = 0.0, g.stiffness = 500.0, g.damping = 2.0, g.friction = 0.6;
    g.contact_smoothing = 0.01, g.friction_smoothing = 0.05;
    return m;
  }
};

}  // namespace

TEST_CASE("kernel: spring_force adjoint matches finite differences (with and without a length offset)") {
  TinyModel tiny;
  std::vector<double> x{0.1, 0.9, 0.2, 0.5, -0.1, 0.3}, v{0.3, -0.4, -0.2, 0.6, 0.1, 0.2};  // 3 x n
  const Vec3<double> w{0.7, -1.1, 0.4};                                                     // weights on the force
  for (int variant = 0; variant < 4; ++variant) {
    const int passive = variant % 2;
    tiny.channel[0] = passive ? -1 : 0;
    tiny.length_offset = variant < 2 ? 0.0 : 0.05;  // DiffTaichi's |d| + 1e-4, larger
    const int step = 1;
    auto phi = [&] {
      ModelView<double> m = tiny.view();
      return dot(w, spring_force(m, 0, step, StateView<const double>{x.data(), v.data()}));
    };
    ModelView<double> m = tiny.view();
    const SpringAdjoint<double> r = spring_force_adjoint(m, 0, step, StateView<const double>{x.data(), v.data()}, w);
    const double gk = r.stiffness, gc = r.damping, grest = r.rest, grest_eff = r.rest_eff;
    // States are structures of arrays (3 x n): x of both particles, then y, then z.
    const double adj_x[6] = {-r.adj_d.x, r.adj_d.x, -r.adj_d.y, r.adj_d.y, -r.adj_d.z, r.adj_d.z};
    const double adj_v[6] = {-r.adj_dv.x, r.adj_dv.x, -r.adj_dv.y, r.adj_dv.y, -r.adj_dv.z, r.adj_dv.z};
    for (int i = 0; i < 6; ++i) {
      check_entry("x", i, adj_x[i], central_difference(x[i], phi));
      check_entry("v", i, adj_v[i], central_difference(v[i], phi));
    }
    check_entry("stiffness", 0, gk, central_difference(tiny.k[0], phi));
    check_entry("damping", 0, gc, central_difference(tiny.c[0], phi));
    check_entry("rest", 0, grest, central_difference(tiny.rest[0], phi));
    const double g_control = grest_eff * tiny.rest[0] * tiny.actuation[0];
    check_entry("control", step, g_control, central_difference(tiny.controls[step], phi));
  }
}

TEST_CASE("kernel: contact_force adjoint matches finite differences in, near and out of contact") {
  TinyModel tiny;
  for (double height : {-0.05, -0.004, 0.0, 0.006, 0.08}) {
    CAPTURE(height);
    std::vector<double> x{0.2, height, -0.3}, v{0.4, -0.7, -0.25};
    double kc = 500.0, mu = 0.6;
    const Vec3<double> w{0.9, 1.2, -0.5};
    auto phi = [&] {
      ModelView<double> m = tiny.view();
      m.ground.stiffness = kc, m.ground.friction = mu;
      return dot(w, contact_force(m.ground, load3(x.data(), 0, 1), load3(v.data(), 0, 1)));
    };
    ModelView<double> m = tiny.view();
    Vec3<double> ax{0, 0, 0}, av{0, 0, 0};
    double gk = 0, gmu = 0;
    contact_force_adjoint(m.ground, load3(x.data(), 0, 1), load3(v.data(), 0, 1), w, ax, av, gk, gmu);
    const double adj_x[3] = {ax.x, ax.y, ax.z}, adj_v[3] = {av.x, av.y, av.z};
    for (int i = 0; i < 3; ++i) {
      check_entry("x", i, adj_x[i], central_difference(x[i], phi));
      check_entry("v", i, adj_v[i], central_difference(v[i], phi));
    }
    check_entry("ground_stiffness", 0, gk, central_difference(kc, phi));
    check_entry("friction", 0, gmu, central_difference(mu, phi));
  }
}

TEST_CASE("kernel: particle_step adjoint matches finite differences") {
  TinyModel tiny;
  // 3 x n: x of both particles, then y, then z; particle 0 sits at height 0.003, in contact.
  std::vector<double> x{0.1, 0.9, 0.003, 0.5, -0.1, 0.3}, v{0.3, -0.4, -0.2, 0.6, 0.1, 0.2};
  std::vector<double> fs{1.5, -0.7, 0.4};  // the spring's force on end a (3 x 1)
  const std::vector<double> wx{0.3, -0.8, 0.5, 0.2, 0.9, -0.4}, wv{-0.6, 0.1, 0.7, 0.5, -0.3, 0.8};
  double gravity[3] = {0.1, -9.81, 0.2}, drag = 0.3, kc = 500.0, mu = 0.6;
  auto view = [&] {
    ModelView<double> m = tiny.view();
    for (int k = 0; k < 3; ++k) m.particles.gravity[k] = gravity[k];
    m.particles.drag = drag, m.ground.stiffness = kc, m.ground.friction = mu;
    return m;
  };
  for (int pinned = 0; pinned < 2; ++pinned) {
    tiny.free[0] = pinned ? 0.0 : 1.0;
    auto phi = [&] {
      ModelView<double> m = view();
      std::vector<double> x1(6), v1(6);
      for (int i = 0; i < 2; ++i)
        ParticleStepKernel<double>{m, {x.data(), v.data()}, fs.data(), {x1.data(), v1.data()}}(i);
      double total = 0;
      for (int j = 0; j < 6; ++j) total += wx[j] * x1[j] + wv[j] * v1[j];
      return total;
    };
    ModelView<double> m = view();
    std::vector<double> x1(6), v1(6), ax = wx, av = wv, af(6);
    for (int i = 0; i < 2; ++i)
      ParticleStepKernel<double>{m, {x.data(), v.data()}, fs.data(), {x1.data(), v1.data()}}(i);
    std::vector<double> g_mass(2), g_ext(6), g_drag(2), g_kc(2), g_mu(2);
    GradView<double> grad;
    grad.particles = {g_mass.data(), g_ext.data(), g_drag.data()};
    grad.ground = {g_kc.data(), g_mu.data()};
    for (int i = 0; i < 2; ++i)
      particle_step_adjoint(m, i, {x.data(), v.data()}, v1.data(), {ax.data(), av.data()}, af.data(), grad);
    for (int j = 0; j < 6; ++j) {
      check_entry("x", j, ax[j], central_difference(x[j], phi));
      check_entry("v", j, av[j], central_difference(v[j], phi));
      check_entry("external_force", j, g_ext[j], central_difference(tiny.ext[j], phi));
    }
    for (int i = 0; i < 2; ++i) check_entry("mass", i, g_mass[i], central_difference(tiny.mass[i], phi));
    for (int k = 0; k < 3; ++k) {
      // The spring force enters particle a with +1 and particle b with -1.
      check_entry("spring force", k, af[2 * k] - af[2 * k + 1], central_difference(fs[k], phi));
      // dL/dg = sum_i m_i dL/df_ext,i: the rollout forms it so (ParticleGrad has no slot).
      const double g_grav = tiny.mass[0] * g_ext[2 * k] + tiny.mass[1] * g_ext[2 * k + 1];
      check_entry("gravity", k, g_grav, central_difference(gravity[k], phi));
    }
    check_entry("drag", 0, g_drag[0] + g_drag[1], central_difference(drag, phi));
    check_entry("ground_stiffness", 0, g_kc[0] + g_kc[1], central_difference(kc, phi));
    check_entry("friction", 0, g_mu[0] + g_mu[1], central_difference(mu, phi));
  }
}

TEST_CASE("kernel: particle_gather adjoint matches finite differences") {
  // The gather is the adjoint of d = x_b - x_a and dv = v_b - v_a over the incidence lists.
  TinyModel tiny;
  ModelView<double> m = tiny.view();
  std::vector<double> adj_d{0.4, -0.3, 0.8}, adj_dv{-0.2, 0.6, 0.1};
  std::vector<double> ax(6, 0.0), av(6, 0.0);
  for (int i = 0; i < 2; ++i) particle_gather_adjoint(m, i, adj_d.data(), adj_dv.data(), {ax.data(), av.data()});
  std::vector<double> x{0.1, 0.9, 0.2, 0.5, -0.1, 0.3};  // 3 x n
  auto phi = [&] {
    double total = 0;
    for (int k = 0; k < 3; ++k) total += adj_d[k] * (x[2 * k + 1] - x[2 * k]);
    return total;
  };
  for (int j = 0; j < 6; ++j) check_entry("x", j, ax[j], central_difference(x[j], phi));
  for (int k = 0; k < 3; ++k) {
    CHECK(av[2 * k] == doctest::Approx(-adj_dv[k]));
    CHECK(av[2 * k + 1] == doctest::Approx(adj_dv[k]));
  }
}
