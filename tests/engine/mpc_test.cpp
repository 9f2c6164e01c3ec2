// Model predictive control (nudge/mpc.h): the window scene each plan optimises; a loop
// with one plan over the whole horizon is plain optimisation; each plan starts from the
// motion already executed, to the bit; re-planning lowers the loss on a drone-like body;
// and the settings and scenes it refuses.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "nudge/mpc.h"
#include "nudge/optimize_scene.h"
#include "nudge/scene.h"
#include "nudge/simulator.h"

using namespace nudge;

namespace {

// A particle pushed by forces on two channels (x and y) under gravity, to be brought to
// a target at the end and to rest there, with a smoothness term.
Scene make_pushed_particle(int steps = 80) {
  Scene scene;
  scene.name = "pushed";
  scene.settings.dt = 0.01;
  scene.settings.steps = steps;
  scene.pinned = {0};
  scene.channels = 2;
  scene.params[ParamId::InitialPosition].value = {0, 1, 0};
  shape_parameters(scene);
  Actuator x, y;
  x.particle = y.particle = 0;
  x.channel = 0, y.channel = 1;
  x.direction[0] = 1, x.direction[1] = 0, x.direction[2] = 0;
  y.direction[0] = 0, y.direction[1] = 1, y.direction[2] = 0;
  scene.actuators = {x, y};
  Parameter& controls = scene.params[ParamId::Controls];
  for (int t = 0; t < steps; ++t) controls.value[size_t(t) * 2 + 1] = 9.81;  // holds it up
  controls.optimize = true;
  controls.lower = -30, controls.upper = 30;
  Objective target;
  target.type = ObjectiveType::Target;
  target.particles = {0};
  target.target = {0.5, 1.3, 0};
  Objective halfway = target;  // a term inside the first windows too
  halfway.step = steps / 2;
  halfway.target = {0.2, 1.1, 0};
  halfway.weight = 0.5;
  Objective rest;
  rest.type = ObjectiveType::Velocity;
  rest.particles = {0};
  rest.target = {0, 0, 0};
  rest.weight = 0.1;
  Objective smooth;
  smooth.type = ObjectiveType::Smoothness;
  smooth.weight = 1e-3;
  scene.objectives = {target, halfway, rest, smooth};
  scene.optimizer.method = OptimizerMethod::Adam;
  scene.optimizer.learning_rate = 0.5;
  return scene;
}

SimulatorOptions cpu() {
  SimulatorOptions options;
  options.device = Device::Cpu;
  options.threads = 1;
  return options;
}

}  // namespace

TEST_CASE("mpc: the window scene is cut at the window's end, with its objectives seen from the window") {
  const Scene scene = make_pushed_particle(80);
  const Scene w = mpc_window_scene(scene, scene.params, 30, 50);
  CHECK(w.settings.steps == 50);
  const Parameter& controls = w.params[ParamId::Controls];
  CHECK(controls.rows == 50);
  CHECK(controls.value.size() == 100);
  REQUIRE(controls.optimize_rows.size() == 20);
  CHECK(controls.optimize_rows.front() == 30);
  CHECK(controls.optimize_rows.back() == 49);
  // The halfway target (step 40) is inside: it is the window's goal, and the final terms
  // wait; smoothness stays.
  REQUIRE(w.objectives.size() == 2);
  CHECK(w.objectives[0].step == 40);
  CHECK(w.objectives[0].target == std::vector<double>{0.2, 1.1, 0});
  CHECK(w.objectives[1].type == ObjectiveType::Smoothness);
  const Status ok = check_scene(w);
  CHECK_MESSAGE(ok.ok(), (ok.ok() ? "" : ok.error().message));
  // From step 40 on, the halfway term is behind: dropped; the final ones apply, at the
  // window's end when it ends before them.
  const Scene later = mpc_window_scene(scene, scene.params, 40, 80);
  CHECK(later.objectives.size() == 3);
  CHECK(later.objectives[0].step == 80);
  const Scene short_window = mpc_window_scene(scene, scene.params, 40, 60);
  REQUIRE(short_window.objectives.size() == 3);
  CHECK(short_window.objectives[0].step == 60);
  CHECK(check_scene(short_window).ok());
  // Before it, the halfway term is the next goal: it applies at the window's end, and the
  // final terms wait.
  const Scene early = mpc_window_scene(scene, scene.params, 0, 20);
  REQUIRE(early.objectives.size() == 2);
  CHECK(early.objectives[0].type == ObjectiveType::Target);
  CHECK(early.objectives[0].step == 20);
  CHECK(early.objectives[0].target == std::vector<double>{0.2, 1.1, 0});
  CHECK(early.objectives[1].type == ObjectiveType::Smoothness);
}

TEST_CASE("mpc: one plan over the whole horizon is the scene's own optimisation") {
  const Scene scene = make_pushed_particle(40);
  MpcSettings settings;
  settings.horizon = settings.replan_every = 40;
  settings.iterations = 15;
  const Result<MpcResult> mpc = run_mpc(scene, settings, cpu());
  REQUIRE_MESSAGE(mpc.ok(), (mpc.ok() ? "" : mpc.error().message));
  REQUIRE(mpc->plans.size() == 1);
  auto sim = Simulator::create(scene, cpu());
  REQUIRE(sim.ok());
  ParameterSet params = scene.params;
  OptimizerSettings optimizer = scene.optimizer;
  optimizer.iterations = 15;
  const Result<OptimizeResult> plain = optimize_parameters(**sim, params, optimizer);
  REQUIRE(plain.ok());
  CHECK(mpc->loss == plain->loss);
  CHECK(mpc->params[ParamId::Controls].value == params[ParamId::Controls].value);
}

TEST_CASE("mpc: each plan starts from the motion executed so far, to the bit, and re-planning lowers the loss") {
  const Scene scene = make_pushed_particle(80);
  MpcSettings settings;
  settings.horizon = 30;
  settings.replan_every = 10;
  settings.iterations = 20;
  std::vector<Trajectory> planned;
  std::vector<MpcPlan> plans;
  const Result<MpcResult> mpc = run_mpc(scene, settings, cpu(), [&](const MpcPlan& plan, const Trajectory& motion) {
    plans.push_back(plan);
    planned.push_back(motion);
    return true;
  });
  REQUIRE(mpc.ok());
  REQUIRE(plans.size() == 8);
  CHECK(plans.back().start == 70);
  CHECK(plans.back().steps == 10);
  auto sim = Simulator::create(scene, cpu());
  REQUIRE(sim.ok());
  const Result<Trajectory> executed = (*sim)->trajectory(mpc->params);
  REQUIRE(executed.ok());
  for (size_t k = 0; k < plans.size(); ++k) {
    const size_t values = size_t(plans[k].start + 1) * 3;  // states 0 .. start of the one particle
    CAPTURE(k);
    CHECK(std::memcmp(planned[k].x.data(), executed->x.data(), values * sizeof(double)) == 0);
    CHECK(std::memcmp(planned[k].v.data(), executed->v.data(), values * sizeof(double)) == 0);
    CHECK(plans[k].final_loss <= plans[k].initial_loss);
  }
  const Result<Evaluation> open_loop = (*sim)->evaluate(scene.params);
  REQUIRE(open_loop.ok());
  CHECK(mpc->loss < 0.2 * open_loop->loss);
  // The end state is near the target.
  const double* end = &executed->x[size_t(80) * 3];
  CHECK(std::hypot(end[0] - 0.5, end[1] - 1.3) < 0.05);
}

TEST_CASE("mpc: settings out of range and scenes with no per-step controls to plan are refused") {
  Scene scene = make_pushed_particle(20);
  MpcSettings settings;
  settings.horizon = 10;
  settings.replan_every = 11;
  CHECK(check_mpc(scene, settings).error().message.find("re-plans every 11") != std::string::npos);
  settings.replan_every = 5;
  settings.iterations = 0;
  CHECK(!check_mpc(scene, settings).ok());
  settings.iterations = 3;
  CHECK(check_mpc(scene, settings).ok());
  scene.params[ParamId::Controls].optimize = false;
  CHECK(check_mpc(scene, settings).error().message.find("optimises none") != std::string::npos);
  CHECK(!run_mpc(scene, settings, cpu()).ok());
}
