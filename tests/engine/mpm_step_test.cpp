// The material points' step on the CPU backend (families/material_points/mpm_stepper.h):
// a rollout's gradient with respect to the points' initial state, their materials,
// masses, pulls and gravity against central differences in double, in 2D and 3D; the same
// bits on 1, 2 and 8 threads; momentum kept without gravity or walls; a block that falls
// comes to rest on the floor.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cpu/cpu_exec.h"
#include "families/material_points/mpm_stepper.h"
#include "central_difference.h"
#include "sanitized.h"

using namespace nudge;

namespace {
// d loss / d entry by central differences of step h (central_difference.h).
double central(const std::function<double()>& loss, double& entry, double h) {
  return test::central_difference(entry, loss, h);
}
}  // namespace

namespace {

struct Block {
  int dims = 2;
  MpmGrid<double> grid;
  int n = 0;
  std::vector<double> x, v, c, f;  // initial state, structures of arrays
  std::vector<int> material;
  std::vector<double> mass, volume, act;
  std::vector<int> kind;
  std::vector<double> mu, lambda, bulk, viscosity, alpha;
};

// A block of k^d points half a cell apart, solid (material 0) and, below it, a row of
// liquid (material 1); some points pull.
Block make_block(int dims, int k, int cells = 16) {
  Block b;
  b.dims = dims;
  MpmGrid<double>& g = b.grid;
  g.dims = dims;
  g.cells = cells;
  g.dx = 1.0 / cells, g.inv_dx = cells;
  g.dt = 1e-3;
  g.gravity[1] = -3.8;
  g.friction[2] = 0.5;
  b.kind = {int(dims == 2 ? MpmModelKind::FixedCorotated : MpmModelKind::NeoHookean), int(MpmModelKind::Liquid)};
  b.mu = {30.0, 0.0}, b.lambda = {20.0, 0.0}, b.bulk = {0.0, 50.0}, b.viscosity = {0.0, 0.3};
  b.alpha = {0.0, 0.0};  // no sand here
  std::vector<std::array<double, 3>> points;
  const int kz = dims == 3 ? k : 1;
  for (int i = 0; i < k; ++i)
    for (int j = 0; j < k + 1; ++j)
      for (int l = 0; l < kz; ++l)
        points.push_back({0.4 + 0.5 * g.dx * i, 0.3 + 0.5 * g.dx * j, dims == 3 ? 0.4 + 0.5 * g.dx * l : 0.0});
  b.n = int(points.size());
  const int n = b.n;
  b.x.assign(3 * size_t(n), 0.0), b.v.assign(3 * size_t(n), 0.0);
  b.c.assign(9 * size_t(n), 0.0), b.f.assign(9 * size_t(n), 0.0);
  for (int p = 0; p < n; ++p) {
    for (int a = 0; a < 3; ++a) b.x[size_t(a) * n + p] = points[size_t(p)][size_t(a)];
    b.v[size_t(p)] = 0.3 * std::sin(1.7 * p), b.v[size_t(n) + p] = -0.5 + 0.2 * std::cos(p);
    if (dims == 3) b.v[2 * size_t(n) + p] = 0.1 * std::sin(0.3 * p);
    for (int a = 0; a < 3; ++a) b.f[size_t(4 * a) * n + p] = 1.0;
    const bool liquid = points[size_t(p)][1] < 0.3 + 0.25 * g.dx;  // the bottom row
    b.material.push_back(liquid ? 1 : 0);
    b.mass.push_back(liquid ? 4.0 : 1.0);
    b.volume.push_back(std::pow(0.5 * g.dx, dims));
    b.act.push_back(!liquid && p % 3 == 0 ? 0.8 : 0.0);
  }
  return b;
}

MpmPointsModel<double> model_of(const Block& b) {
  MpmPointsModel<double> m;
  m.n = b.n;
  m.material = b.material.data();
  m.mass = b.mass.data();
  m.volume = b.volume.data();
  m.kind = b.kind.data();
  m.mu = b.mu.data(), m.lambda = b.lambda.data(), m.bulk = b.bulk.data(), m.viscosity = b.viscosity.data();
  m.alpha = b.alpha.data();
  m.act = b.act.data();
  return m;
}

struct States {
  std::vector<std::vector<double>> x, v, c, f;  // per step
};

MpmPointState<double> view(States& s, int t) {
  return {s.x[size_t(t)].data(), s.v[size_t(t)].data(), s.c[size_t(t)].data(), s.f[size_t(t)].data()};
}

States rollout(const Block& b, int steps, int threads = 1) {
  const CpuExec exec{std::make_shared<ThreadPool>(threads)};
  MpmStepper<double, CpuExec> stepper;
  stepper.reserve(exec, b.grid, b.n);
  States s;
  s.x.push_back(b.x), s.v.push_back(b.v), s.c.push_back(b.c), s.f.push_back(b.f);
  for (int t = 0; t < steps; ++t) {
    s.x.push_back(b.x), s.v.push_back(b.v), s.c.push_back(b.c), s.f.push_back(b.f);
    stepper.forward(exec, b.grid, model_of(b), {}, view(s, t), view(s, t + 1));
  }
  return s;
}

// L = sum of fixed weights times the final x and v.
double final_loss(const Block& b, const States& s, int steps) {
  double l = 0;
  for (size_t k = 0; k < s.x[size_t(steps)].size(); ++k)
    l += std::sin(0.37 * double(k) + 1) * s.x[size_t(steps)][k] + std::cos(0.23 * double(k)) * s.v[size_t(steps)][k];
  (void)b;
  return l;
}

struct Gradients {
  std::vector<double> x, v, c, f;                                             // dL/d(initial state)
  std::vector<double> mu, lambda, bulk, viscosity, alpha, mass, volume, act;  // per point, summed over steps
  double gravity[3] = {0, 0, 0};
};

Gradients backward(const Block& b, States& s, int steps) {
  const CpuExec exec{std::make_shared<ThreadPool>(1)};
  MpmStepper<double, CpuExec> stepper;
  stepper.reserve(exec, b.grid, b.n);
  const size_t n = size_t(b.n);
  std::vector<double> ax(3 * n), av(3 * n), ac(9 * n, 0.0), af(9 * n, 0.0);
  for (size_t k = 0; k < 3 * n; ++k) ax[k] = std::sin(0.37 * double(k) + 1), av[k] = std::cos(0.23 * double(k));
  Gradients g;
  for (auto* a : {&g.mu, &g.lambda, &g.bulk, &g.viscosity, &g.alpha, &g.mass, &g.volume, &g.act}) a->assign(n, 0.0);
  std::vector<double> step_act(n);
  for (int t = steps - 1; t >= 0; --t) {
    MpmPointGrad<double> grad;
    grad.mu = g.mu.data(), grad.lambda = g.lambda.data(), grad.bulk = g.bulk.data();
    grad.viscosity = g.viscosity.data(), grad.alpha = g.alpha.data(), grad.mass = g.mass.data();
    grad.volume = g.volume.data(), grad.act = step_act.data();
    stepper.adjoint(exec, b.grid, model_of(b), {}, {}, view(s, t), {ax.data(), av.data(), ac.data(), af.data()}, grad);
    for (size_t p = 0; p < n; ++p) g.act[p] += step_act[p];
    const int nodes = b.grid.node_count();
    // The active nodes' shares (the others' are stale: no point reads them).
    for (int a = 0; a < 3; ++a)
      for (int i = 0; i < stepper.active_count(); ++i)
        g.gravity[a] += stepper.gravity_shares(exec)[size_t(a) * nodes + stepper.active_nodes(exec)[i]];
  }
  g.x = ax, g.v = av, g.c = ac, g.f = af;
  return g;
}

void check_close(double adjoint, double fd, const std::string& what) {
  CAPTURE(what);
  CHECK(adjoint == doctest::Approx(fd).epsilon(2e-5).scale(1e-2));
}

}  // namespace

TEST_CASE("mpm rollout: the gradient of every input against central differences, 2D and 3D") {
  for (const int dims : {2, 3}) {
    CAPTURE(dims);
    Block b = make_block(dims, dims == 2 ? 4 : 2);
    const int steps = test::kSanitized ? 15 : 40;
    States s = rollout(b, steps);
    const Gradients g = backward(b, s, steps);
    const auto loss = [&] {
      States again = rollout(b, steps);
      return final_loss(b, again, steps);
    };
    const size_t n = size_t(b.n);
    for (const size_t p : {size_t(0), n / 2, n - 1}) {
      CAPTURE(p);
      for (int a = 0; a < dims; ++a) {
        check_close(g.x[size_t(a) * n + p], central(loss, b.x[size_t(a) * n + p], 1e-6), "x");
        check_close(g.v[size_t(a) * n + p], central(loss, b.v[size_t(a) * n + p], 1e-6), "v");
        for (int c = 0; c < dims; ++c) {
          check_close(g.f[size_t(3 * a + c) * n + p], central(loss, b.f[size_t(3 * a + c) * n + p], 1e-6), "F");
          check_close(g.c[size_t(3 * a + c) * n + p], central(loss, b.c[size_t(3 * a + c) * n + p], 1e-5), "C");
        }
      }
      check_close(g.mass[p], central(loss, b.mass[p], 1e-6), "mass");
      check_close(g.volume[p], central(loss, b.volume[p], 1e-7), "volume");
      check_close(g.act[p], central(loss, b.act[p], 1e-5), "act");
    }
    // A material's parameter is every point's of that material: the shares sum.
    double mu = 0, lambda = 0, bulk = 0, viscosity = 0;
    for (size_t p = 0; p < n; ++p) {
      if (b.material[p] == 0) {
        mu += g.mu[p];
        lambda += g.lambda[p];
      } else {
        bulk += g.bulk[p];
        viscosity += g.viscosity[p];
      }
    }
    check_close(mu, central(loss, b.mu[0], 1e-4), "mu");
    check_close(lambda, central(loss, b.lambda[0], 1e-4), "lambda");
    check_close(bulk, central(loss, b.bulk[1], 1e-4), "bulk");
    check_close(viscosity, central(loss, b.viscosity[1], 1e-5), "viscosity");
    for (int a = 0; a < dims; ++a) check_close(g.gravity[a], central(loss, b.grid.gravity[a], 1e-5), "gravity");
  }
}

TEST_CASE("mpm rollout: the same bits on 1, 2 and 8 threads") {
  for (const int dims : {2, 3}) {
    const Block b = make_block(dims, dims == 2 ? 8 : 4);
    const States one = rollout(b, 30, 1);
    for (const int threads : {2, 8}) {
      const States many = rollout(b, 30, threads);
      CHECK(many.x.back() == one.x.back());
      CHECK(many.f.back() == one.f.back());
      CHECK(many.c.back() == one.c.back());
    }
  }
}

TEST_CASE("mpm rollout: without gravity or walls the momentum is kept") {
  for (const int dims : {2, 3}) {
    Block b = make_block(dims, dims == 2 ? 6 : 3, 32);
    b.grid.gravity[1] = 0;
    const States s = rollout(b, 50);
    const size_t n = size_t(b.n);
    for (int a = 0; a < dims; ++a) {
      double before = 0, after = 0;
      for (size_t p = 0; p < n; ++p) {
        before += b.mass[p] * s.v.front()[size_t(a) * n + p];
        after += b.mass[p] * s.v.back()[size_t(a) * n + p];
      }
      CAPTURE(a);
      // Up to the grid's 1e-10 kg guard in v = mv / (m + 1e-10), which light nodes feel.
      CHECK(after == doctest::Approx(before).epsilon(1e-7).scale(1.0));
    }
  }
}

// 3000 steps: release only (the sanitizers run the same kernels in the shorter tests).
TEST_CASE("mpm rollout: a block dropped on the sticky floor comes to rest on it" * doctest::skip(test::kSanitized)) {
  Block b = make_block(2, 6, 32);
  b.grid.friction[2] = -1;  // sticky
  b.act.assign(b.act.size(), 0.0);
  const int steps = 3000;  // 3 s
  const States s = rollout(b, steps);
  const size_t n = size_t(b.n);
  double lowest = 1, fastest = 0;
  for (size_t p = 0; p < n; ++p) {
    lowest = std::min(lowest, s.x.back()[n + p]);
    fastest = std::max(fastest, std::hypot(s.v.back()[p], s.v.back()[n + p]));
  }
  // The walls are 3 nodes deep (y < 3 dx): the lowest points rest about 2 dx up, where the
  // wall's nodes carry their whole stencil's weight.
  CHECK(lowest > 1.5 * b.grid.dx);
  CHECK(lowest < 4 * b.grid.dx);
  CHECK(fastest < 0.05);
}
