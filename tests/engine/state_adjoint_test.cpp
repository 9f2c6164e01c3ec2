// Per-call gradient options: the state adjoints dL/dx_t, dL/dv_t recorded by the backward
// pass, and backpropagation truncated to the last W steps. The recorded adjoint at step t
// is checked against the rollout that starts at step t (its own initial-state gradient,
// and central finite differences of its loss); truncation against the full gradient,
// entry by entry; and both for the bitwise properties every gradient has (stored equals
// checkpointed, any thread count).
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "cloth_benchmark.h"
#include "nudge/gradcheck.h"
#include "nudge/simulator.h"
#include "test_scenes.h"

using namespace nudge;

namespace {

std::filesystem::path source_dir() {
  if (const char* dir = std::getenv("NUDGE_SOURCE_DIR")) return dir;
  return std::filesystem::path(__FILE__).parent_path().parent_path().parent_path();
}

Scene example_scene(const char* file) {
  Result<Scene> scene = load_scene(source_dir() / "scenes" / file);
  REQUIRE_MESSAGE(scene.ok(), (scene.ok() ? "" : scene.error().message));
  return std::move(scene.value());
}

SimulatorOptions cpu(Precision precision = Precision::Float64, int checkpoint_every = 0, int threads = 1) {
  return SimulatorOptions{Device::Cpu, precision, threads, checkpoint_every};
}

GradientOptions recording(int horizon = 0) { return GradientOptions{horizon, true}; }

struct Outcome {
  double loss = 0;
  ParameterSet params;  // with their gradients
  StateAdjoints adjoints;
};

Outcome run_gradient(const Scene& scene, const SimulatorOptions& sim_options, const GradientOptions& options) {
  auto sim = Simulator::create(scene, sim_options);
  REQUIRE_MESSAGE(sim.ok(), (sim.ok() ? "" : sim.error().message));
  Outcome out{0.0, scene.params, {}};
  Result<Evaluation> eval = (*sim)->gradient(out.params, options, &out.adjoints);
  REQUIRE_MESSAGE(eval.ok(), (eval.ok() ? "" : eval.error().message));
  out.loss = eval->loss;
  return out;
}

Trajectory run_trajectory(const Scene& scene) {
  auto sim = Simulator::create(scene, cpu());
  REQUIRE(sim.ok());
  Result<Trajectory> traj = (*sim)->trajectory(scene.params);
  REQUIRE(traj.ok());
  return std::move(traj.value());
}

// Entries whose bits differ (so -0 differs from 0, and NaN equals itself).
size_t bits_differing(const std::vector<double>& a, const std::vector<double>& b) {
  REQUIRE(a.size() == b.size());
  size_t differing = 0;
  for (size_t i = 0; i < a.size(); ++i) differing += std::memcmp(&a[i], &b[i], sizeof(double)) == 0 ? 0 : 1;
  return differing;
}

void require_bitwise_equal(const Outcome& a, const Outcome& b) {
  CHECK(bits_differing({a.loss}, {b.loss}) == 0);
  for (int p = 0; p < kParamCount; ++p) {
    INFO(param_name(static_cast<ParamId>(p)));
    CHECK(bits_differing(a.params.items[p].grad, b.params.items[p].grad) == 0);
  }
  CHECK(a.adjoints.steps == b.adjoints.steps);
  CHECK(bits_differing(a.adjoints.x, b.adjoints.x) == 0);
  CHECK(bits_differing(a.adjoints.v, b.adjoints.v) == 0);
}

// The N x 3 block of step t in a (steps + 1) x N x 3 array.
std::vector<double> at_step(const std::vector<double>& all, int particles, int t) {
  const size_t state = size_t(particles) * 3;
  return std::vector<double>(all.begin() + ptrdiff_t(t * state), all.begin() + ptrdiff_t((t + 1) * state));
}

// A chain of four particles hanging from a pinned one, one spring actuated by a control
// per step, drag, no ground; a reference position for the chain's end at every step (one
// Positions term per step) and a velocity target halfway.
Scene make_chain_scene(int steps) {
  Scene scene;
  scene.name = "chain";
  scene.settings.dt = 2e-3;
  scene.settings.steps = steps;
  scene.pinned = {1, 0, 0, 0};
  scene.spring_a = {0, 1, 2, 0};
  scene.spring_b = {1, 2, 3, 2};
  scene.spring_channel = {-1, 0, -1, -1};
  scene.actuation = {0, 0.2, 0, 0};
  scene.channels = 1;
  scene.params[ParamId::InitialPosition].value = {0, 1, 0, 0.05, 0.8, 0.02, 0.12, 0.62, -0.03, 0.2, 0.45, 0.04};
  shape_parameters(scene);  // rest lengths from the positions above
  scene.params[ParamId::InitialVelocity].value = {0, 0, 0, 0.3, 0.1, -0.2, -0.1, 0.2, 0.1, 0.4, -0.3, 0.2};
  scene.params[ParamId::Mass].value = {0.1, 0.12, 0.09, 0.11};
  scene.params[ParamId::Stiffness].value = {80, 90, 70, 40};
  scene.params[ParamId::Damping].value = {0.2, 0.1, 0.3, 0.05};
  scene.params[ParamId::Gravity].value = {0.0, -9.81, 0.0};
  scene.params[ParamId::Drag].value = {0.05};
  for (int t = 0; t < steps; ++t) scene.params[ParamId::Controls].value[t] = 0.6 * std::sin(0.3 * t);
  for (int t = 1; t <= steps; ++t) {
    Objective reference;
    reference.type = ObjectiveType::Positions;
    reference.step = t;
    reference.particles = {3};
    reference.target = {0.25 + 0.002 * t, 0.4, 0.05 * std::sin(0.1 * t)};
    scene.objectives.push_back(reference);
  }
  Objective velocity;
  velocity.type = ObjectiveType::Velocity;
  velocity.step = steps / 2;
  velocity.particles = {2, 3};
  velocity.target = {0.5, 0.0, -0.2};
  velocity.weight = 0.3;
  scene.objectives.push_back(velocity);
  REQUIRE(check_scene(scene).ok());
  return scene;
}

// The scene that starts from the state at step t of `scene`'s rollout and runs the
// remaining steps: controls and objective steps shifted by t, terms observed before t
// dropped. Those terms do not depend on the state at t, so this scene's initial-state
// gradient is dL/dx_t of the whole rollout.
Scene tail_scene(const Scene& scene, const Trajectory& traj, int t) {
  Scene tail = scene;
  tail.settings.steps = scene.settings.steps - t;
  tail.params[ParamId::InitialPosition].value = at_step(traj.x, traj.particles, t);
  tail.params[ParamId::InitialVelocity].value = at_step(traj.v, traj.particles, t);
  const std::vector<double>& controls = scene.params[ParamId::Controls].value;
  tail.params[ParamId::Controls].value.assign(controls.begin() + ptrdiff_t(size_t(t) * scene.channels), controls.end());
  shape_parameters(tail);
  tail.objectives.clear();
  for (Objective o : scene.objectives) {
    // Travel reads the initial state, which a tail scene replaces.
    REQUIRE(
        (o.type == ObjectiveType::Target || o.type == ObjectiveType::Velocity || o.type == ObjectiveType::Positions));
    if (o.step >= 0 && o.step < t) continue;
    if (o.step >= 0) o.step -= t;
    tail.objectives.push_back(o);
  }
  REQUIRE(check_scene(tail).ok());
  return tail;
}

// Central difference of the loss with respect to one entry of one parameter.
double central_difference(Simulator& sim, const ParameterSet& params, ParamId id, size_t index, double h) {
  ParameterSet plus = params, minus = params;
  plus[id].value[index] += h;
  minus[id].value[index] -= h;
  Result<Evaluation> up = sim.evaluate(plus), down = sim.evaluate(minus);
  REQUIRE(up.ok());
  REQUIRE(down.ok());
  return (up->loss - down->loss) / (2 * h);
}

// Checks the recorded dL/dx_t and dL/dv_t of `scene` at step t against the rollout that
// starts there: its own initial-state gradient, and central differences of its loss.
void check_state_adjoint_at(const Scene& scene, const Outcome& whole, const Trajectory& traj, int t) {
  CAPTURE(t);
  const Scene tail = tail_scene(scene, traj, t);
  const Outcome from_t = run_gradient(tail, cpu(), GradientOptions{});
  const std::vector<double> adj_x = at_step(whole.adjoints.x, whole.adjoints.particles, t);
  const std::vector<double> adj_v = at_step(whole.adjoints.v, whole.adjoints.particles, t);

  double largest = 0.0;
  for (double a : adj_x) largest = std::max(largest, std::fabs(a));
  for (double a : adj_v) largest = std::max(largest, std::fabs(a));
  REQUIRE(largest > 0.0);
  // The same adjoint computed by a different rollout: equal to rounding.
  const auto check_same = [&](const char* what, const std::vector<double>& recorded, const std::vector<double>& own,
                              size_t i) {
    INFO(what << "[" << i << "]: recorded " << recorded[i] << ", the tail scene's own " << own[i]);
    CHECK(gradient_relative_error(recorded[i], own[i], 1e-12 * largest) <= 1e-12);
  };
  auto sim = Simulator::create(tail, cpu());
  REQUIRE(sim.ok());
  const auto check_fd = [&](const char* what, ParamId id, double recorded, size_t i) {
    const double h = 1e-5 * std::max(1.0, std::fabs(tail.params[id].value[i]));
    const double fd = central_difference(**sim, tail.params, id, i, h);
    INFO(what << "[" << i << "]: recorded " << recorded << ", central difference " << fd);
    CHECK(gradient_relative_error(recorded, fd, 1e-6 * largest) <= 1e-6);
  };
  for (size_t i = 0; i < adj_x.size(); ++i) {
    check_same("dL/dx", adj_x, from_t.params[ParamId::InitialPosition].grad, i);
    check_fd("dL/dx", ParamId::InitialPosition, adj_x[i], i);
    if (scene.pinned[i / 3]) continue;  // a pin holds the initial velocity at 0: no difference to take
    check_same("dL/dv", adj_v, from_t.params[ParamId::InitialVelocity].grad, i);
    check_fd("dL/dv", ParamId::InitialVelocity, adj_v[i], i);
  }
}

}  // namespace

TEST_CASE("state adjoints: dL/dx_0 and dL/dv_0 are the initial-state gradients") {
  // The feature scene has a pinned particle on damped springs, and every objective type.
  for (const Scene& scene : {test::make_feature_scene(61), example_scene("projectile.json")}) {
    for (Precision precision : {Precision::Float64, Precision::Float32}) {
      for (int checkpoint_every : {0, 7}) {
        CAPTURE(scene.name);
        CAPTURE(precision_name(precision));
        CAPTURE(checkpoint_every);
        const Outcome out = run_gradient(scene, cpu(precision, checkpoint_every), recording());
        const int n = scene.particle_count();
        REQUIRE(out.adjoints.steps == scene.settings.steps);
        REQUIRE(out.adjoints.particles == n);
        REQUIRE(out.adjoints.x.size() == size_t(scene.settings.steps + 1) * n * 3);
        REQUIRE(out.adjoints.v.size() == out.adjoints.x.size());
        CHECK(bits_differing(at_step(out.adjoints.x, n, 0), out.params[ParamId::InitialPosition].grad) == 0);
        const std::vector<double> dv0 = at_step(out.adjoints.v, n, 0);
        const std::vector<double>& grad_v0 = out.params[ParamId::InitialVelocity].grad;
        for (int i = 0; i < n; ++i)
          for (int k = 0; k < 3; ++k) {
            CAPTURE(i);
            const size_t e = 3 * size_t(i) + k;
            if (!scene.pinned[i]) {
              CHECK(bits_differing({dv0[e]}, {grad_v0[e]}) == 0);
            } else {
              // Recorded before the pin's mask: the springs' damping still sees it.
              CHECK(grad_v0[e] == 0.0);
              CHECK(dv0[e] != 0.0);
            }
          }
      }
    }
  }
}

TEST_CASE("state adjoints: dL/dx_t is the gradient of the rollout that starts at step t") {
  SUBCASE("projectile: a final target, no springs") {
    const Scene scene = example_scene("projectile.json");
    const Outcome whole = run_gradient(scene, cpu(), recording());
    const Trajectory traj = run_trajectory(scene);
    for (int t : {1, 250, 499}) check_state_adjoint_at(scene, whole, traj, t);
    // At the final step the adjoint is the objective's alone: 2 (x_T - target).
    const int n = scene.particle_count(), last = scene.settings.steps;
    const std::vector<double> x_last = at_step(traj.x, n, last), adj_last = at_step(whole.adjoints.x, n, last);
    for (int k = 0; k < 3; ++k)
      CHECK(adj_last[k] == doctest::Approx(2.0 * (x_last[k] - scene.objectives[0].target[k])).epsilon(1e-14));
    CHECK(at_step(whole.adjoints.v, n, last) == std::vector<double>{0.0, 0.0, 0.0});
  }
  SUBCASE("a spring chain with a reference position at every step") {
    const Scene scene = make_chain_scene(50);
    const Outcome whole = run_gradient(scene, cpu(), recording());
    const Trajectory traj = run_trajectory(scene);
    for (int t : {1, 17, 25, 49}) check_state_adjoint_at(scene, whole, traj, t);
  }
}

TEST_CASE("truncated gradient: controls inside the window are exact, everything before it is cut") {
  const Scene walker = example_scene("walker.json");  // travel along x, and control effort
  const int steps = walker.settings.steps, channels = walker.channels, n = walker.particle_count();
  const Outcome full = run_gradient(walker, cpu(), recording());
  const double effort_weight = walker.objectives.at(1).weight;
  REQUIRE(walker.objectives.at(1).type == ObjectiveType::Effort);

  for (int horizon : {1, 250, 990}) {
    CAPTURE(horizon);
    const Outcome cut = run_gradient(walker, cpu(), recording(horizon));
    CHECK(bits_differing({cut.loss}, {full.loss}) == 0);  // the loss is the whole rollout's
    const int first = steps - horizon;
    const std::vector<double>& u = walker.params[ParamId::Controls].value;
    const std::vector<double>& g_full = full.params[ParamId::Controls].grad;
    const std::vector<double>& g_cut = cut.params[ParamId::Controls].grad;
    // A control at step t only moves later states, all inside the window: the same bits.
    for (int t = first; t < steps; ++t)
      for (int c = 0; c < channels; ++c) {
        CAPTURE(t);
        const size_t e = size_t(t) * channels + c;
        CHECK(bits_differing({g_cut[e]}, {g_full[e]}) == 0);
      }
    // Before the window only the effort term, on the controls alone, is left; it counts
    // in full (the same expression as Objectives::add_param_grad).
    const double effort_scale = 2.0 * effort_weight / static_cast<double>(u.size());
    size_t wrong_before = 0;
    for (size_t e = 0; e < size_t(first) * channels; ++e)
      wrong_before += bits_differing({g_cut[e]}, {effort_scale * u[e]});
    CHECK(wrong_before == 0);
    // The initial state is beyond the horizon.
    for (ParamId id : {ParamId::InitialPosition, ParamId::InitialVelocity}) {
      INFO(param_name(id));
      CHECK(cut.params[id].grad == std::vector<double>(size_t(n) * 3, 0.0));
    }
    // Parameters used at every step sum over the window's steps only.
    for (ParamId id : {ParamId::Mass, ParamId::Stiffness, ParamId::Damping, ParamId::RestLength, ParamId::Gravity,
                       ParamId::GroundStiffness, ParamId::Friction}) {
      INFO(param_name(id));
      CHECK(bits_differing(cut.params[id].grad, full.params[id].grad) > 0);
    }
    // Recorded adjoints: the full ones inside the window, zeros before it.
    const size_t state = size_t(n) * 3;
    CHECK(bits_differing(
              std::vector<double>(cut.adjoints.x.begin() + ptrdiff_t(first * state), cut.adjoints.x.end()),
              std::vector<double>(full.adjoints.x.begin() + ptrdiff_t(first * state), full.adjoints.x.end())) == 0);
    CHECK(bits_differing(
              std::vector<double>(cut.adjoints.v.begin() + ptrdiff_t(first * state), cut.adjoints.v.end()),
              std::vector<double>(full.adjoints.v.begin() + ptrdiff_t(first * state), full.adjoints.v.end())) == 0);
    CHECK(std::all_of(cut.adjoints.x.begin(), cut.adjoints.x.begin() + ptrdiff_t(first * state),
                      [](double a) { return a == 0.0; }));
    CHECK(std::all_of(cut.adjoints.v.begin(), cut.adjoints.v.begin() + ptrdiff_t(first * state),
                      [](double a) { return a == 0.0; }));
  }

  // A window of every step, or more, is the full gradient.
  for (int horizon : {steps, steps + 1, 5 * steps}) {
    CAPTURE(horizon);
    require_bitwise_equal(full, run_gradient(walker, cpu(), recording(horizon)));
  }
}

TEST_CASE("truncated gradient: without parameter-only terms, controls before the window get exactly 0") {
  Scene scene = make_chain_scene(50);
  const Outcome cut = run_gradient(scene, cpu(), GradientOptions{20, false});
  const std::vector<double>& g = cut.params[ParamId::Controls].grad;
  for (int t = 0; t < 30; ++t) CHECK(g[t] == 0.0);
  // The last control moves particles 1 and 2 in the last step, not the observed end 3.
  for (int t = 30; t < 49; ++t) CHECK(g[t] != 0.0);
  CHECK(cut.adjoints.x.empty());  // not asked to record
}

TEST_CASE("state adjoints and truncated gradients: checkpointed equal stored to the last bit") {
  const Scene scene = test::make_feature_scene(61);  // every objective type, a pinned particle
  for (Precision precision : {Precision::Float64, Precision::Float32}) {
    // Windows that start inside a segment, on a segment's boundary (54: step 7) and next to it.
    for (int horizon : {0, 1, 6, 7, 8, 30, 53, 54, 55, 61, 100}) {
      CAPTURE(precision_name(precision));
      CAPTURE(horizon);
      const Outcome stored = run_gradient(scene, cpu(precision, 0), recording(horizon));
      for (int k : {1, 7, 16, 60}) {  // 61 steps: ragged last segments included
        CAPTURE(k);
        require_bitwise_equal(stored, run_gradient(scene, cpu(precision, k), recording(horizon)));
      }
    }
  }
}

TEST_CASE("state adjoints and truncated gradients: bitwise equal with 1, 2 and 8 threads") {
  // Large enough that every kernel is split across threads, runs of springs and loose ones.
  for (const Scene& scene : {make_cloth_scene(40, 40), test::make_lattice_scene(8, 40, 60)}) {
    for (int horizon : {0, 25}) {
      CAPTURE(scene.name);
      CAPTURE(horizon);
      const Outcome one = run_gradient(scene, cpu(Precision::Float64, 0, 1), recording(horizon));
      for (int threads : {2, 8}) {
        CAPTURE(threads);
        require_bitwise_equal(one, run_gradient(scene, cpu(Precision::Float64, 0, threads), recording(horizon)));
      }
    }
  }
}

TEST_CASE("gradient options: the default options, and recording, leave the gradient as it was") {
  const Scene scene = test::make_feature_scene(61);
  for (Precision precision : {Precision::Float64, Precision::Float32}) {
    CAPTURE(precision_name(precision));
    auto sim = Simulator::create(scene, cpu(precision));
    REQUIRE(sim.ok());
    ParameterSet plain = scene.params, defaults = scene.params, recorded = scene.params;
    Result<Evaluation> a = (*sim)->gradient(plain);
    Result<Evaluation> b = (*sim)->gradient(defaults, GradientOptions{}, nullptr);
    StateAdjoints adjoints;
    Result<Evaluation> c = (*sim)->gradient(recorded, recording(), &adjoints);
    REQUIRE((a.ok() && b.ok() && c.ok()));
    CHECK(bits_differing({a->loss}, {b->loss}) == 0);
    CHECK(bits_differing({a->loss}, {c->loss}) == 0);
    for (int p = 0; p < kParamCount; ++p) {
      INFO(param_name(static_cast<ParamId>(p)));
      CHECK(bits_differing(plain.items[p].grad, defaults.items[p].grad) == 0);
      CHECK(bits_differing(plain.items[p].grad, recorded.items[p].grad) == 0);
    }
  }
}

TEST_CASE("gradient options: a negative horizon, or recording with nowhere to write, is an error") {
  const Scene scene = test::make_feature_scene(20);
  auto sim = Simulator::create(scene, cpu());
  REQUIRE(sim.ok());
  ParameterSet params = scene.params;
  Result<Evaluation> negative = (*sim)->gradient(params, GradientOptions{-3, false});
  REQUIRE_FALSE(negative.ok());
  CHECK(negative.error().message.find("-3") != std::string::npos);
  Result<Evaluation> nowhere = (*sim)->gradient(params, recording(), nullptr);
  REQUIRE_FALSE(nowhere.ok());
  CHECK(nowhere.error().message.find("StateAdjoints") != std::string::npos);
}
