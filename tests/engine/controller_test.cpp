// The controller family (a multilayer perceptron from state features to control
// channels, nudge/controller.h) in the rollout: its activations' slopes against central
// differences; its forward pass against a plain network written here, replayed as
// open-loop controls; the same bits for any thread count and with checkpoints; its
// weights', the controls', the initial state's and the springs' gradients against central
// differences in double; float32 against float64; default weights; and the scene file.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "families/controller/controller_kernels.h"
#include "nudge/controller.h"
#include "nudge/scene.h"
#include "nudge/simulator.h"
#include "central_difference.h"
#include "gradient_outcome.h"
#include "temp_dir.h"
#include "test_scenes.h"

using namespace nudge;

namespace {

// The same network in plain double: the outputs at one state.
std::vector<double> network_outputs(const Scene& scene, const std::vector<double>& x, const std::vector<double>& v,
                                    int step) {
  const Controller& c = scene.controller;
  const int n = scene.particle_count();
  const std::vector<int> observed = c.observed(n);
  double centroid[3] = {0, 0, 0};
  for (int i : observed)
    for (int k = 0; k < 3; ++k) centroid[k] += x[3 * i + k] / double(observed.size());
  std::vector<double> in;
  for (const ControllerInput& input : c.inputs) {
    if (input.type == ControllerInputType::Sine)
      for (int j = 0; j < input.count; ++j)
        in.push_back(std::sin(input.omega * step * scene.settings.dt + 2 * M_PI * j / input.count));
    if (input.type == ControllerInputType::State)
      for (int i : observed) {
        for (int k = 0; k < 3; ++k)
          if (c.axes[k]) in.push_back((x[3 * i + k] - centroid[k]) * input.position_scale);
        for (int k = 0; k < 3; ++k)
          if (c.axes[k]) in.push_back(v[3 * i + k] * input.velocity_scale);
      }
    if (input.type == ControllerInputType::Target)
      for (int k = 0; k < 3; ++k)
        if (c.axes[k]) in.push_back(input.point[k] - centroid[k]);
    if (input.type == ControllerInputType::Contact)
      for (int i : observed) in.push_back(1.0 / (1.0 + std::exp((x[3 * i + 1] - input.height) / input.width)));
    if (input.type == ControllerInputType::Keyframes) {  // linear interpolation's weights
      const double span = input.duration / (input.count - 1);
      const double at = std::min(step * scene.settings.dt, input.duration) / span;
      for (int j = 0; j < input.count; ++j) in.push_back(std::max(0.0, 1.0 - std::fabs(at - j)));
    }
  }
  REQUIRE(int(in.size()) == c.input_count(controller_reads(scene)));
  const std::vector<double>& w = scene.params[ParamId::ControllerWeights].value;
  for (int l = 0; l < int(c.layers.size()); ++l) {
    const int size = c.layers[l].size, inputs = int(in.size()), at = c.layer_offset(l, controller_reads(scene));
    std::vector<double> out(size);
    for (int i = 0; i < size; ++i) {
      double z = w[at + size * inputs + i];
      for (int j = 0; j < inputs; ++j) z += w[at + i * inputs + j] * in[j];
      out[i] = controller_activate(static_cast<int>(c.layers[l].activation), z);
    }
    in = out;
  }
  return in;
}

}  // namespace

TEST_CASE("controller: each activation's slope against central differences") {
  for (int kind = 0; kind < 4; ++kind)
    for (double z : {-2.3, -0.4, 0.3, 1.7}) {
      const double a = controller_activate(kind, z);
      double at = z;
      const double fd = test::central_difference(at, [&] { return controller_activate(kind, at); });
      CAPTURE(kind);
      CAPTURE(z);
      CHECK(controller_activation_slope(kind, a) == doctest::Approx(fd).epsilon(1e-8));
    }
}

TEST_CASE("controller: its outputs, added to the controls, are the network's at each step's state") {
  const Scene scene = test::make_controlled_scene();
  auto sim = Simulator::create(scene, SimulatorOptions{});
  REQUIRE(sim.ok());
  const Result<Trajectory> closed_run = (*sim)->trajectory(scene.params);
  REQUIRE(closed_run.ok());
  const Trajectory& closed = *closed_run;

  // Replay: the network's outputs at each recorded state become open-loop controls.
  Scene open = scene;
  open.controller = Controller{};
  shape_parameters(open);
  open.params[ParamId::Controls] = scene.params[ParamId::Controls];
  const size_t values = 3 * size_t(scene.particle_count());
  double largest_output = 0;
  for (int t = 0; t < scene.settings.steps; ++t) {
    const std::vector<double> x(closed.x.begin() + t * values, closed.x.begin() + (t + 1) * values);
    const std::vector<double> v(closed.v.begin() + t * values, closed.v.begin() + (t + 1) * values);
    const std::vector<double> out = network_outputs(scene, x, v, t);
    for (size_t k = 0; k < out.size(); ++k) {
      open.params[ParamId::Controls].value[size_t(t) * scene.channels + scene.controller.channels[k]] += out[k];
      largest_output = std::max(largest_output, std::fabs(out[k]));
    }
  }
  CHECK(largest_output > 0.1);
  // The engine's host evaluation (the studio's timeline) gives the same outputs.
  const std::vector<double> host = controller_outputs(scene, closed);
  REQUIRE(host.size() == size_t(scene.settings.steps) * 2);
  for (int t = 0; t < scene.settings.steps; t += 7) {
    const std::vector<double> x(closed.x.begin() + t * values, closed.x.begin() + (t + 1) * values);
    const std::vector<double> v(closed.v.begin() + t * values, closed.v.begin() + (t + 1) * values);
    const std::vector<double> out = network_outputs(scene, x, v, t);
    for (size_t k = 0; k < 2; ++k) CHECK(host[size_t(t) * 2 + k] == doctest::Approx(out[k]).epsilon(1e-14));
  }
  REQUIRE(check_scene(open).ok());
  auto replay = Simulator::create(open, SimulatorOptions{});
  REQUIRE(replay.ok());
  const Result<Trajectory> replay_run = (*replay)->trajectory(open.params);
  REQUIRE(replay_run.ok());
  const Trajectory& replayed = *replay_run;
  double worst = 0;
  for (size_t k = 0; k < closed.x.size(); ++k) worst = std::max(worst, std::fabs(closed.x[k] - replayed.x[k]));
  CHECK(worst < 1e-12);

  // And the network changed the motion: without it the end state differs.
  Scene passive = open;
  passive.params[ParamId::Controls] = scene.params[ParamId::Controls];
  auto plain = Simulator::create(passive, SimulatorOptions{});
  const Result<Trajectory> plain_run = (*plain)->trajectory(passive.params);
  REQUIRE(plain_run.ok());
  const Trajectory& unforced = *plain_run;
  double moved = 0;
  for (size_t k = 0; k < closed.x.size(); ++k) moved = std::max(moved, std::fabs(closed.x[k] - unforced.x[k]));
  CHECK(moved > 1e-3);
}

TEST_CASE("controller: the same bits on 1 and 4 threads, with and without checkpoints") {
  const test::Outcome out = test::require_same_bits_for_threads_and_checkpoints(test::make_controlled_scene());
  test::check_has_gradient(out, {ParamId::ControllerWeights, ParamId::Controls, ParamId::InitialPosition});
}

TEST_CASE(
    "controller: every weight's gradient, and those of the controls, initial state and springs, against "
    "central differences in double") {
  const Scene scene = test::make_controlled_scene();
  test::check_against_central_differences(
      scene, {ParamId::ControllerWeights, ParamId::Controls, ParamId::InitialPosition, ParamId::InitialVelocity,
              ParamId::Stiffness, ParamId::Mass});
}

TEST_CASE("controller: a network on some particles and two axes; a truncated horizon keeps the window's gradient") {
  Scene scene = test::make_controlled_scene(50);
  scene.controller.particles = {2, 0};
  scene.controller.axes[2] = false;
  scene.controller.inputs.erase(scene.controller.inputs.begin());  // no clock
  scene.params[ParamId::ControllerWeights].value.clear();
  shape_parameters(scene);
  REQUIRE(scene.params[ParamId::ControllerWeights].size() == (2 * 2 * 2 + 2 + 2 + 4 + 1) * 6 + 7 * 5 + 6 * 2);
  REQUIRE(check_scene(scene).ok());
  test::check_against_central_differences(scene, {ParamId::ControllerWeights, ParamId::InitialVelocity});
}

TEST_CASE("controller: float32 matches float64") {
  test::check_float32_matches_float64(test::make_controlled_scene(), {ParamId::ControllerWeights, ParamId::Controls});
}

TEST_CASE("controller: default weights are seeded Glorot-normal with zero biases, the same for the same seed") {
  Controller c;
  c.inputs.resize(1);
  c.inputs[0].type = ControllerInputType::Sine;
  c.inputs[0].count = 40;
  c.layers = {{50, Activation::Tanh}, {3, Activation::Tanh}};
  c.channels = {0, 1, 2};
  c.seed = 3;
  const std::vector<double> w = default_controller_weights(c, ControllerReads::of_particles(0));
  REQUIRE(w.size() == size_t(41 * 50 + 51 * 3));
  CHECK(w == default_controller_weights(c, ControllerReads::of_particles(0)));
  double sum = 0, sum2 = 0;
  for (int k = 0; k < 40 * 50; ++k) {
    sum += w[k];
    sum2 += w[k] * w[k];
  }
  const double sigma = std::sqrt(2.0 / 90.0);
  CHECK(std::fabs(sum / 2000) < 4 * sigma / std::sqrt(2000.0));
  CHECK(std::sqrt(sum2 / 2000) == doctest::Approx(sigma).epsilon(0.05));
  for (int k = 40 * 50; k < 41 * 50; ++k) CHECK(w[k] == 0.0);
  c.seed = 4;
  CHECK(w != default_controller_weights(c, ControllerReads::of_particles(0)));
}

TEST_CASE("controller: each layer's norm is that of its slice of the weights") {
  const Scene scene = test::make_controlled_scene();
  const Controller& c = scene.controller;
  const std::vector<double>& w = scene.params[ParamId::ControllerWeights].value;
  const std::vector<double> norms = controller_layer_norms(c, ControllerReads::of_particles(4), w);
  REQUIRE(norms.size() == 3);
  double total = 0;
  for (double x : norms) total += x * x;
  double all = 0;
  for (double x : w) all += x * x;
  CHECK(total == doctest::Approx(all).epsilon(1e-12));
  std::vector<double> last_only(w.size(), 0.0);
  last_only.back() = 2.0;  // the last layer's last bias
  const std::vector<double> one = controller_layer_norms(c, ControllerReads::of_particles(4), last_only);
  CHECK(one[0] == 0.0);
  CHECK(one[1] == 0.0);
  CHECK(one[2] == 2.0);
  CHECK(controller_layer_norms(c, ControllerReads::of_particles(4), std::vector<double>(3))
            .empty());  // not this controller's
}

TEST_CASE("controller: the scene file reads, writes and checks every input, contact flags included") {
  const auto scene_text = [](const std::string& contact) {
    return std::string(R"({"format": "nudge-scene", "version": 1, "name": "c",
      "simulation": {"dt": 0.01, "steps": 4, "ground": {"height": 0}},
      "particles": {"position": [[0, 0.1, 0], [0.2, 0.1, 0]]},
      "springs": {"pairs": [[0, 1]], "channel": [0], "actuation": [0.1]},
      "controls": {"channels": 1},
      "controller": {"axes": "xy", "layers": [{"size": 3}, {"size": 1, "activation": "linear"}], "channels": [0],
        "inputs": [{"type": "sine", "count": 2, "omega": 5}, {"type": "state"}, {"type": "target", "point": [1, 0, 0]},
                   )") +
           contact + "]}}";
  };
  const Result<Scene> scene =
      parse_scene(scene_text(R"({"type": "contact", "height": 0.01, "width": 0.002})"), "c.json");
  REQUIRE_MESSAGE(scene.ok(), (scene.ok() ? "" : scene.error().message));
  const ControllerInput& contact = scene->controller.inputs[3];
  CHECK(contact.type == ControllerInputType::Contact);
  CHECK(contact.height == 0.01);
  CHECK(contact.width == 0.002);
  CHECK(scene->controller.input_count(ControllerReads::of_particles(2)) == 2 + 8 + 2 + 2);
  test::TempDir dir("controller-test");
  REQUIRE(save_scene(*scene, dir.path / "a.json").ok());
  const Result<Scene> again = load_scene(dir.path / "a.json");
  REQUIRE_MESSAGE(again.ok(), (again.ok() ? "" : again.error().message));
  CHECK(again->controller.inputs[3].width == 0.002);
  CHECK(again->params[ParamId::ControllerWeights].value == scene->params[ParamId::ControllerWeights].value);

  const Result<Scene> bad = parse_scene(scene_text(R"({"type": "contact", "width": 0})"), "c.json");
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().message.find("controller.inputs[3].width") != std::string::npos);
  Scene checked = *scene;
  checked.controller.inputs[3].width = -1;
  CHECK(check_scene(checked).error().message.find("controller.inputs[3].width") != std::string::npos);

  // Keyframes: a count of at least two and a positive duration, read and written back.
  const Result<Scene> keyed =
      parse_scene(scene_text(R"({"type": "keyframes", "count": 5, "duration": 0.03})"), "c.json");
  REQUIRE_MESSAGE(keyed.ok(), (keyed.ok() ? "" : keyed.error().message));
  CHECK(keyed->controller.inputs[3].type == ControllerInputType::Keyframes);
  CHECK(keyed->controller.input_count(ControllerReads::of_particles(2)) == 2 + 8 + 2 + 5);
  REQUIRE(save_scene(*keyed, dir.path / "k.json").ok());
  const Result<Scene> keyed_again = load_scene(dir.path / "k.json");
  REQUIRE(keyed_again.ok());
  CHECK(keyed_again->controller.inputs[3].count == 5);
  CHECK(keyed_again->controller.inputs[3].duration == 0.03);
  const Result<Scene> one_key = parse_scene(scene_text(R"({"type": "keyframes", "count": 1})"), "c.json");
  REQUIRE_FALSE(one_key.ok());
  CHECK(one_key.error().message.find("controller.inputs[3].count") != std::string::npos);
  Scene no_time = *keyed;
  no_time.controller.inputs[3].duration = 0;
  CHECK(check_scene(no_time).error().message.find("controller.inputs[3].duration: found 0") != std::string::npos);
}
