// Edits of a scene with a controller keep what its trained weights multiply: deleting
// particles drops exactly their inputs' columns of the first layer; adding or pasting
// particles does not make them inputs; a driven channel cannot be removed; the clipboard
// carries no controller.
#include <doctest/doctest.h>

#include <vector>

#include "scene_edits_test_scenes.h"
#include "studio/document.h"

using namespace nudge;
using namespace nudge::scene_edits_test;
namespace edits = nudge::studio::edits;

namespace {

// The chain with a controller that reads the clock, every particle's x and y, and their
// contact flags.
Scene controlled_chain(const fs::path& dir) {
  Scene scene = chain_scene(dir);
  Controller& c = scene.controller;
  c.axes[2] = false;
  c.inputs.resize(3);
  c.inputs[0].type = ControllerInputType::Sine;
  c.inputs[0].count = 2;
  c.inputs[1].type = ControllerInputType::State;
  c.inputs[2].type = ControllerInputType::Contact;
  c.layers = {{3, Activation::Tanh}, {2, Activation::Tanh}};
  c.channels = {0, 1};
  shape_parameters(scene);
  std::vector<double>& w = scene.params[ParamId::ControllerWeights].value;
  for (size_t k = 0; k < w.size(); ++k) w[k] = double(k);  // each weight tells where it came from
  REQUIRE(check_scene(scene).ok());
  return scene;
}

}  // namespace

TEST_CASE("scene edits: deleting particles drops their inputs' weights and keeps the rest") {
  TempDir temp;
  const Scene scene = controlled_chain(temp.path);
  const int inputs = 2 + 5 * 4 + 5;  // the clock, 4 values per particle, a contact flag per particle
  REQUIRE(scene.controller.input_count(ControllerReads::of_particles(5)) == inputs);
  const Scene fewer = ok(edits::delete_particles(scene, {1, 3}));
  CHECK(fewer.controller.particles.empty());  // still every particle
  REQUIRE(fewer.controller.input_count(ControllerReads::of_particles(3)) == 2 + 3 * 4 + 3);
  const std::vector<double>& w = values(fewer, ParamId::ControllerWeights);
  REQUIRE(w.size() == size_t(fewer.controller.weight_count(ControllerReads::of_particles(3))));
  // Row 1 of the first layer: the clock's two columns, then particles 0, 2 and 4's states
  // and contact flags.
  const std::vector<int> kept_columns = {0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 18, 19, 20, 21, 22, 24, 26};
  for (size_t j = 0; j < kept_columns.size(); ++j) CHECK(w[17 + j] == double(inputs + kept_columns[j]));
  // The biases and the second layer are untouched.
  const size_t first_bias = 3 * size_t(inputs), bias_now = 3 * 17;
  for (size_t k = 0; k < values(scene, ParamId::ControllerWeights).size() - first_bias; ++k)
    CHECK(w[bias_now + k] == double(first_bias + k));

  Scene listed = scene;
  listed.controller.particles = {3, 1};
  listed.params[ParamId::ControllerWeights].value.clear();
  shape_parameters(listed);
  const Scene renumbered = ok(edits::delete_particles(listed, {0, 1}));
  CHECK(renumbered.controller.particles == std::vector<int>{1});  // particle 3 is now 1
  Scene only = listed;
  only.controller.particles = {3};
  shape_parameters(only);
  check_error(edits::delete_particles(only, {3}),
              "delete particles: none of the particles the controller observes would be left; a controller needs a "
              "particle to observe");
}

TEST_CASE("scene edits: added and pasted particles are not a controller's new inputs") {
  TempDir temp;
  const Scene scene = controlled_chain(temp.path);
  const Scene more = ok(edits::add_particle(scene, {1, 2, 0}, 0.5));
  CHECK(more.controller.particles == std::vector<int>{0, 1, 2, 3, 4});
  CHECK(values(more, ParamId::ControllerWeights) == values(scene, ParamId::ControllerWeights));

  const Scene fragment = ok(edits::extract(scene, {1, 2}, {}));
  CHECK_FALSE(fragment.controller.enabled());  // the clipboard carries no controller
  const Scene pasted = ok(edits::merge(scene, fragment, {0, 1, 0}));
  CHECK(pasted.particle_count() == 7);
  CHECK(pasted.controller.particles == std::vector<int>{0, 1, 2, 3, 4});
  CHECK(values(pasted, ParamId::ControllerWeights) == values(scene, ParamId::ControllerWeights));
}

TEST_CASE("scene edits: a channel the controller drives cannot be removed") {
  TempDir temp;
  Scene scene = controlled_chain(temp.path);
  scene.spring_channel = {-1, 0, -1, -1};
  check_error(edits::set_channels(scene, 1),
              "set channels: the controller drives channel 1, which would be removed; remove the controller first");
  CHECK(ok(edits::set_channels(scene, 3)).controller.channels == std::vector<int>{0, 1});
}
