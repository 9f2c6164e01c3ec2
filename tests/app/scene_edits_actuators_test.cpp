// Edits of a scene with actuators and joint motors on channels keep them consistent:
// deleting particles or bodies deletes their actuators and renumbers the rest; a channel
// an actuator or a motor is on cannot be removed; a copy carries the copied elements'
// actuators, and a paste gains the channels they are on.
#include <doctest/doctest.h>

#include <vector>

#include "scene_edits_test_scenes.h"

using namespace nudge;
using namespace nudge::scene_edits_test;
namespace edits = nudge::studio::edits;

namespace {

Actuator on_particle(int particle, int channel) {
  Actuator a;
  a.particle = particle;
  a.channel = channel;
  return a;
}

Actuator on_body(int body, int channel) {
  Actuator a;
  a.body = body;
  a.channel = channel;
  a.type = ActuatorType::Torque;
  return a;
}

}  // namespace

TEST_CASE("scene edits: deleting particles and bodies deletes their actuators and renumbers the rest") {
  TempDir temp;
  Scene chain = chain_scene(temp.path);
  chain.actuators = {on_particle(1, 0), on_particle(3, 1)};
  REQUIRE(check_scene(chain).ok());
  const Scene fewer = ok(edits::delete_particles(chain, {1}));
  REQUIRE(fewer.actuators.size() == 1);
  CHECK(fewer.actuators[0].particle == 2);
  CHECK(fewer.actuators[0].channel == 1);

  Scene bodies = body_scene(temp.path);
  bodies.channels = 2;
  shape_parameters(bodies);
  bodies.actuators = {on_body(0, 0), on_body(2, 1)};
  REQUIRE(check_scene(bodies).ok());
  const Scene two = ok(edits::delete_bodies(bodies, {1}));
  REQUIRE(two.actuators.size() == 2);
  CHECK(two.actuators[1].body == 1);
  const Scene one = ok(edits::delete_bodies(bodies, {0}));
  REQUIRE(one.actuators.size() == 1);
  CHECK(one.actuators[0].body == 1);
}

TEST_CASE("scene edits: a channel an actuator or a joint motor is on cannot be removed") {
  TempDir temp;
  Scene chain = chain_scene(temp.path);
  for (size_t s = 0; s < chain.spring_channel.size(); ++s) chain.spring_channel[s] = -1;  // only the actuator drives
  chain.actuators = {on_particle(2, 1)};
  REQUIRE(check_scene(chain).ok());
  check_error(edits::set_channels(chain, 1),
              "set channels: actuator 0 is driven by channel 1, which would be removed; delete it first");
  CHECK(ok(edits::set_channels(chain, 3)).channels == 3);

  Scene bodies = body_scene(temp.path);
  bodies.channels = 1;
  shape_parameters(bodies);
  bodies.joints[0].channel = 0;
  REQUIRE(check_scene(bodies).ok());
  check_error(edits::set_channels(bodies, 0),
              "set channels: joint 0's motor is driven by channel 0, which would be removed; take it off the channel "
              "first");
}

TEST_CASE("scene edits: a copy carries its elements' actuators, and a paste gains their channels") {
  TempDir temp;
  Scene chain = chain_scene(temp.path);
  chain.actuators = {on_particle(1, 0), on_particle(3, 1)};
  const Scene copy = ok(edits::extract(chain, {2, 3}, {}));
  REQUIRE(copy.actuators.size() == 1);
  CHECK(copy.actuators[0].particle == 1);      // particle 3 is the copy's second
  const Scene bodies = body_scene(temp.path);  // no channels
  const Scene pasted = ok(edits::merge(bodies, copy, {0, 0, 1}));
  CHECK(pasted.channels == 2);
  REQUIRE(pasted.actuators.size() == 1);
  CHECK(pasted.actuators[0].particle == bodies.particle_count() + 1);
  CHECK(pasted.actuators[0].channel == 1);
}
