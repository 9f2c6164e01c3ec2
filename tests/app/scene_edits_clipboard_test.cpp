// Copy, paste and duplicate (studio/scene_edits.h: extract, merge, duplicate): what a
// copy holds, that pasting a whole scene into an empty one gives its elements back, that
// a paste renumbers, moves and keeps the target's optimisation and gains the channels it
// needs, and that a duplicated chain, cloth, walker or pendulum moves as the original
// does, shifted.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "nudge/parameter_facts.h"
#include "nudge/simulator.h"
#include "scene_edits_test_scenes.h"
#include "studio/scene_edits.h"
#include "studio_test_scenes.h"

using namespace nudge;
using namespace nudge::scene_edits_test;
namespace edits = nudge::studio::edits;
using edits::Vec3;
using nudge::studio_test::load_example;

namespace {

std::vector<int> all(int count) {
  std::vector<int> indices(static_cast<size_t>(count));
  for (int i = 0; i < count; ++i) indices[size_t(i)] = i;
  return indices;
}

// A scene with nothing in it, stepping as `scene` does, loaded from the same file.
Scene empty_like(const Scene& scene) {
  Scene empty;
  empty.settings = scene.settings;
  empty.source = scene.source;
  shape_parameters(empty);
  return empty;
}

bool is_element_parameter(ParamId id) {
  const ParamElement element = param_facts(id).element;
  return element == ParamElement::Particle || element == ParamElement::Spring || element == ParamElement::Body ||
         element == ParamElement::Joint || element == ParamElement::StepJoint;
}

// The same particles, springs, bodies, joints and attachments with the same values.
void check_same_elements(const Scene& a, const Scene& b) {
  CHECK(a.pinned == b.pinned);
  CHECK(a.spring_a == b.spring_a);
  CHECK(a.spring_b == b.spring_b);
  CHECK(a.spring_channel == b.spring_channel);
  CHECK(a.actuation == b.actuation);
  REQUIRE(a.body_count() == b.body_count());
  for (int k = 0; k < a.body_count(); ++k) {
    CHECK(a.bodies[size_t(k)].name == b.bodies[size_t(k)].name);
    CHECK(a.bodies[size_t(k)].shape == b.bodies[size_t(k)].shape);
    const std::shared_ptr<const BodyMesh>& x = a.bodies[size_t(k)].mesh;
    const std::shared_ptr<const BodyMesh>& y = b.bodies[size_t(k)].mesh;
    REQUIRE(bool(x) == bool(y));
    if (x) {
      CHECK(x->file == y->file);
      CHECK(x->hull.planes.size() == y->hull.planes.size());
    }
  }
  REQUIRE(a.joint_count() == b.joint_count());
  for (int j = 0; j < a.joint_count(); ++j) {
    const Joint &x = a.joints[size_t(j)], &y = b.joints[size_t(j)];
    CHECK(x.name == y.name);
    CHECK(x.type == y.type);
    CHECK(x.parent == y.parent);
    CHECK(x.child == y.child);
    CHECK(std::equal(x.axis, x.axis + 3, y.axis));
    CHECK(x.limited == y.limited);
    CHECK(x.lower == y.lower);
    CHECK(x.upper == y.upper);
    CHECK(x.collide == y.collide);
  }
  REQUIRE(a.attachments.size() == b.attachments.size());
  for (size_t k = 0; k < a.attachments.size(); ++k) {
    CHECK(a.attachments[k].particle == b.attachments[k].particle);
    CHECK(a.attachments[k].body == b.attachments[k].body);
  }
  for (int i = 0; i < kParamCount; ++i) {
    const auto id = static_cast<ParamId>(i);
    if (!is_element_parameter(id)) continue;
    CAPTURE(param_name(id));
    CHECK(a.params[id].value == b.params[id].value);
    CHECK(a.params[id].unused == b.params[id].unused);
  }
}

Trajectory trajectory_of(const Scene& scene) {
  SimulatorOptions options;
  options.device = Device::Cpu;
  Result<std::unique_ptr<Simulator>> simulator = Simulator::create(scene, options);
  REQUIRE_MESSAGE(simulator.ok(), (simulator.ok() ? "" : simulator.error().message));
  Result<Trajectory> trajectory = (*simulator)->trajectory(scene.params);
  REQUIRE_MESSAGE(trajectory.ok(), (trajectory.ok() ? "" : trajectory.error().message));
  return std::move(*trajectory);
}

// The duplicate's rollout: its first elements move as the original's, and the copies
// (the particles and bodies after them, in the same order) the same, moved by offset.
void check_moves_as_original(const Scene& original, const Scene& duplicated, const Vec3& offset) {
  const Trajectory a = trajectory_of(original), b = trajectory_of(duplicated);
  const int n = original.particle_count(), nb = original.body_count();
  REQUIRE(b.particles == 2 * n);
  REQUIRE(b.bodies == 2 * nb);
  const auto near = [](double x, double y) { return std::abs(x - y) <= 1e-9 * (1 + std::abs(x)); };
  int differing = 0;
  for (int t = 0; t <= a.steps; ++t) {
    for (int i = 0; i < n; ++i)
      for (int k = 0; k < 3; ++k) {
        const double x = a.x[(size_t(t) * size_t(n) + size_t(i)) * 3 + size_t(k)];
        const size_t at = size_t(t) * size_t(2 * n) + size_t(i);
        differing += !near(b.x[at * 3 + size_t(k)], x);
        differing += !near(b.x[(at + size_t(n)) * 3 + size_t(k)], x + offset[size_t(k)]);
      }
    for (int i = 0; i < nb; ++i) {
      const size_t at = size_t(t) * size_t(2 * nb) + size_t(i), from = size_t(t) * size_t(nb) + size_t(i);
      for (int k = 0; k < 3; ++k) {
        const double x = a.body_x[from * 3 + size_t(k)];
        differing += !near(b.body_x[at * 3 + size_t(k)], x);
        differing += !near(b.body_x[(at + size_t(nb)) * 3 + size_t(k)], x + offset[size_t(k)]);
      }
      for (int k = 0; k < 4; ++k) {
        const double q = a.body_q[from * 4 + size_t(k)];
        differing += !near(b.body_q[at * 4 + size_t(k)], q);
        differing += !near(b.body_q[(at + size_t(nb)) * 4 + size_t(k)], q);
      }
    }
  }
  CHECK(differing == 0);
  // And it moved at all: the test would pass on a frozen scene otherwise.
  const size_t last = size_t(a.steps) * size_t(n) * 3;
  const size_t last_body = size_t(a.steps) * size_t(nb) * 3;
  CHECK((!std::equal(a.x.begin(), a.x.begin() + std::ptrdiff_t(3 * n), a.x.begin() + std::ptrdiff_t(last)) ||
         !std::equal(a.body_x.begin(), a.body_x.begin() + std::ptrdiff_t(3 * nb),
                     a.body_x.begin() + std::ptrdiff_t(last_body))));
}

}  // namespace

TEST_CASE("scene edits: extract copies a selection with the springs, joints and attachments between it") {
  TempDir temp;
  const Scene scene = body_scene(temp.path);
  const std::string before = check_stable(scene, temp.path);
  const Scene copy = ok(edits::extract(scene, {3, 1, 3}, {2, 0}));
  REQUIRE(copy.particle_count() == 2);  // particles 1 and 3, in the scene's order
  CHECK(values(copy, ParamId::InitialPosition) == std::vector<double>{0.1, 2, 0, 0.3, 2, 0});
  CHECK(copy.pinned == std::vector<unsigned char>{0, 0});
  CHECK(copy.spring_count() == 0);  // 0-1, 1-2 and 2-3 each have an end not copied
  REQUIRE(copy.body_count() == 2);
  CHECK(copy.bodies[0].name == "ball");
  CHECK(copy.bodies[1].name == "rod");
  CHECK(values(copy, ParamId::BodyPosition) == std::vector<double>{0, 1, 0, 2, 1, 0});
  CHECK(values(copy, ParamId::BodyDensity) == std::vector<double>{100, 300});
  CHECK(values(copy, ParamId::BodyRadius) == std::vector<double>{0.1, 0.05});
  CHECK(values(copy, ParamId::BodyHalfLength) == std::vector<double>{0, 0.2});
  CHECK(copy.params[ParamId::BodyHalfLength].unused == std::vector<bool>{true, false});
  // The hinge to the world and the weld (0-2, now 0-1); the ball and the slide held body 1.
  REQUIRE(copy.joint_count() == 2);
  CHECK(copy.joints[0].name == "hinge");
  CHECK(copy.joints[0].parent == -1);
  CHECK(copy.joints[0].child == 0);
  CHECK(copy.joints[1].name == "weld");
  CHECK(copy.joints[1].parent == 0);
  CHECK(copy.joints[1].child == 1);
  CHECK(values(copy, ParamId::JointAnchor) == std::vector<double>{0, 1.2, 0, 1, 1, 0});
  CHECK(values(copy, ParamId::JointDamping) == std::vector<double>{0.1, 0.4});
  const std::vector<double>& u = values(copy, ParamId::JointControl);
  REQUIRE(u.size() == 2 * 40);
  for (int t = 0; t < 40; ++t) {
    CHECK(u[size_t(2 * t)] == 0.01 * t);
    CHECK(u[size_t(2 * t + 1)] == 30 + 0.01 * t);
  }
  REQUIRE(copy.attachments.size() == 2);
  CHECK(copy.attachments[0].particle == 0);
  CHECK(copy.attachments[0].body == 0);
  CHECK(copy.attachments[1].particle == 1);
  CHECK(copy.attachments[1].body == 1);
  // The scene's settings; no objectives; nothing optimised or bounded.
  CHECK(copy.settings.steps == 40);
  CHECK(copy.objectives.empty());
  CHECK(copy.colliders.empty());
  for (const Parameter& p : copy.params.items) {
    CAPTURE(param_name(p.id));
    CHECK_FALSE(p.optimize);
    CHECK(p.optimize_rows.empty());
    CHECK(std::isinf(p.lower));
  }
  check_stable(copy, temp.path);
  CHECK(saved_text(scene, temp.path / "again.json") == before);

  // Springs between copied particles keep their values, muscles their channels.
  const Scene chain = chain_scene(temp.path);
  const Scene links = ok(edits::extract(chain, {1, 2, 3}, {}));
  CHECK(links.spring_a == std::vector<int>{0, 1});
  CHECK(links.spring_b == std::vector<int>{1, 2});
  CHECK(links.spring_channel == std::vector<int>{0, 1});
  CHECK(links.actuation == std::vector<double>{0.2, 0.3});
  CHECK(values(links, ParamId::Stiffness) == std::vector<double>{101, 102});
  CHECK(values(links, ParamId::Mass) == std::vector<double>{2, 3, 4});
  CHECK(links.channels == 2);
  CHECK(values(links, ParamId::Controls) == values(chain, ParamId::Controls));
  check_stable(links, temp.path);

  check_error(edits::extract(scene, {}, {}),
              "extract: nothing is selected; expected at least one particle or body to copy");
  check_error(edits::extract(scene, {4}, {}), "extract: particle 4 does not exist; expected an index in [0, 4)");
  check_error(edits::extract(scene, {}, {-1}), "extract: body -1 does not exist; expected an index in [0, 3)");
}

TEST_CASE("scene edits: the clipboard outlives its scene, and its mesh files are found from the target's folder") {
  TempDir temp;
  Scene clipboard;
  {
    const Scene source = load_example("rock_throw");  // a mesh body
    REQUIRE(source.bodies[0].shape == BodyShape::Mesh);
    clipboard = ok(edits::extract(source, {}, {0}));
  }
  const Scene chain = chain_scene(temp.path);
  const Scene pasted = ok(edits::merge(chain, clipboard, {0, 1, 0}));
  REQUIRE(pasted.body_count() == 1);
  REQUIRE(pasted.bodies[0].mesh);
  CHECK(pasted.bodies[0].mesh->hull.planes.size() == clipboard.bodies[0].mesh->hull.planes.size());
  check_stable(pasted, temp.path);  // loading finds the mesh from the temporary folder
  Result<Scene> loaded = load_scene(temp.path / "first.json");
  REQUIRE(loaded.ok());
  CHECK(loaded->bodies[0].mesh->hull.planes.size() == clipboard.bodies[0].mesh->hull.planes.size());

  // Into a scene from no file: the mesh is named absolutely.
  Scene nowhere = chain;
  nowhere.source.clear();
  nowhere.objectives.erase(nowhere.objectives.begin() + 3);  // its marker track is named from chain.json's folder
  const Scene absolute = ok(edits::merge(nowhere, clipboard, {0, 1, 0}));
  CHECK(absolute.bodies[0].mesh->file.is_absolute());
  check_stable(absolute, temp.path);
}

TEST_CASE("scene edits: extracting a whole scene and pasting it into an empty one gives its elements back") {
  TempDir temp;
  std::vector<std::pair<std::string, Scene>> scenes = {{"chain", chain_scene(temp.path)},
                                                       {"bodies", body_scene(temp.path)}};
  for (const fs::directory_entry& entry : fs::directory_iterator(nudge::studio_test::source_dir() / "scenes"))
    if (entry.path().extension() == ".json")
      scenes.emplace_back(entry.path().stem().string(), load_example(entry.path().stem().string()));
  for (const auto& [name, scene] : scenes) {
    CAPTURE(name);
    // Material points alone (diffmpm): the clipboard carries particles and bodies only.
    if (scene.particle_count() + scene.body_count() == 0) continue;
    const Scene copy = ok(edits::extract(scene, all(scene.particle_count()), all(scene.body_count())));
    const Scene pasted = ok(edits::merge(empty_like(scene), copy, {0, 0, 0}));
    check_same_elements(pasted, scene);
    check_stable(pasted, temp.path);
    CHECK(pasted.objectives.empty());
    // The links (paddle_flick) stay behind, and with them their actuators' channels.
    if (!scene.articulations.empty()) {
      CHECK(pasted.articulations.empty());
      continue;
    }
    CHECK(pasted.channels == scene.channels);
    REQUIRE(pasted.actuators.size() == scene.actuators.size());
    for (size_t a = 0; a < scene.actuators.size(); ++a) {
      CHECK(pasted.actuators[a].particle == scene.actuators[a].particle);
      CHECK(pasted.actuators[a].body == scene.actuators[a].body);
      CHECK(pasted.actuators[a].channel == scene.actuators[a].channel);
    }
    CHECK(values(pasted, ParamId::Controls) == values(scene, ParamId::Controls));
    // Pasting the copy into the scene itself: the originals stay as they were, and the
    // copies after them are the same.
    const Scene twice = ok(edits::merge(scene, copy, {0, 0, 0}));
    CHECK(twice.particle_count() == 2 * scene.particle_count());
    CHECK(twice.spring_count() == 2 * scene.spring_count());
    CHECK(twice.joint_count() == 2 * scene.joint_count());
    CHECK(twice.attachments.size() == 2 * scene.attachments.size());
    CHECK(twice.actuators.size() == 2 * scene.actuators.size());
    for (size_t a = 0; a < scene.actuators.size(); ++a)
      CHECK(twice.actuators[scene.actuators.size() + a].body ==
            (scene.actuators[a].body < 0 ? -1 : scene.actuators[a].body + scene.body_count()));
    CHECK(twice.objectives.size() == scene.objectives.size());
    for (int i = 0; i < kParamCount; ++i) {
      const auto id = static_cast<ParamId>(i);
      CAPTURE(param_name(id));
      CHECK(twice.params[id].optimize == scene.params[id].optimize);
      CHECK(twice.params[id].optimize_rows == scene.params[id].optimize_rows);
      if (param_facts(id).element == ParamElement::StepJoint) continue;  // its columns interleave
      const std::vector<double>& before = values(scene, id);
      const std::vector<double>& after = values(twice, id);
      REQUIRE(after.size() >= before.size());
      CHECK(std::equal(before.begin(), before.end(), after.begin()));
      if (is_element_parameter(id))
        CHECK(std::equal(before.begin(), before.end(), after.begin() + std::ptrdiff_t(before.size())));
    }
    check_stable(twice, temp.path);
  }
}

TEST_CASE("scene edits: a paste renumbers, moves, keeps the target's optimisation and gains the channels it needs") {
  TempDir temp;
  const Scene bodies = body_scene(temp.path);  // no channels, 40 steps
  const Scene chain = chain_scene(temp.path);  // springs 1-2 and 2-3 on channels 0 and 1, 60 steps
  const std::string before = check_stable(bodies, temp.path);
  const Scene links = ok(edits::extract(chain, {1, 2, 3}, {}));
  const Scene pasted = ok(edits::merge(bodies, links, {0, 0, 1}));
  REQUIRE(pasted.particle_count() == 7);
  CHECK(std::vector<double>(values(pasted, ParamId::InitialPosition).begin() + 12,
                            values(pasted, ParamId::InitialPosition).end()) ==
        std::vector<double>{0.1, 1, 1, 0.2, 1, 1, 0.3, 1, 1});
  CHECK(std::vector<double>(values(pasted, ParamId::Mass).begin() + 4, values(pasted, ParamId::Mass).end()) ==
        std::vector<double>{2, 3, 4});
  CHECK(pasted.spring_a == std::vector<int>{0, 1, 2, 4, 5});
  CHECK(pasted.spring_b == std::vector<int>{1, 2, 3, 5, 6});
  CHECK(pasted.spring_channel == std::vector<int>{-1, -1, -1, 0, 1});
  // Two channels gained, with the chain's controls for the 40 steps the scenes share.
  REQUIRE(pasted.channels == 2);
  const std::vector<double>& controls = values(pasted, ParamId::Controls);
  REQUIRE(controls.size() == 80);
  CHECK(std::equal(controls.begin(), controls.end(), values(chain, ParamId::Controls).begin()));
  CHECK(pasted.params[ParamId::BodyDensity].optimize_rows == std::vector<int>{1, 2});
  CHECK(pasted.params[ParamId::JointDamping].optimize_rows == std::vector<int>{1, 3});
  CHECK(pasted.objectives.size() == bodies.objectives.size());
  check_stable(pasted, temp.path);
  CHECK(saved_text(bodies, temp.path / "again.json") == before);

  // A channel the target has keeps its controls (the pasted muscle shares them); one it
  // lacks is gained with the fragment's.
  const Scene one_channel = ok(edits::set_channels(ok(edits::set_spring_actuation(chain, {2}, 0, 0.3)), 1));
  const std::vector<double> own = values(one_channel, ParamId::Controls);
  const Scene shared = ok(edits::merge(one_channel, links, {0, 0, 1}));
  REQUIRE(shared.channels == 2);
  const std::vector<double>& both = values(shared, ParamId::Controls);
  for (size_t t = 0; t < 60; ++t) {
    CHECK(both[2 * t] == own[t]);
    CHECK(both[2 * t + 1] == values(chain, ParamId::Controls)[2 * t + 1]);
  }
  check_stable(shared, temp.path);

  // Bodies with a joint between them, its anchor moved and its motor column carried; the
  // target's optimised rows stay the same rows, and a parameter optimised in every row
  // is optimised in the new rows too.
  const Scene every_velocity = ok(edits::set_optimized(bodies, ParamId::BodyVelocity, true, -1, 1));
  const Scene crate_and_rod = ok(edits::extract(bodies, {}, {1, 2}));
  const Scene two_more = ok(edits::merge(every_velocity, crate_and_rod, {1, 0, 0}));
  REQUIRE(two_more.body_count() == 5);
  CHECK(two_more.bodies[3].name == "crate");
  CHECK(two_more.bodies[4].name == "rod");
  CHECK(std::vector<double>(values(two_more, ParamId::BodyPosition).begin() + 9,
                            values(two_more, ParamId::BodyPosition).end()) == std::vector<double>{2, 1, 0, 3, 1, 0});
  CHECK(values(two_more, ParamId::BodyHalfExtents)[9] == 0.1);
  CHECK(values(two_more, ParamId::BodyRadius)[3] == 0);
  CHECK(two_more.params[ParamId::BodyRadius].unused[3]);
  CHECK_FALSE(two_more.params[ParamId::BodyRadius].unused[4]);
  REQUIRE(two_more.joint_count() == 5);
  CHECK(two_more.joints[4].name == "slide");
  CHECK(two_more.joints[4].parent == 3);
  CHECK(two_more.joints[4].child == 4);
  CHECK(std::vector<double>(values(two_more, ParamId::JointAnchor).begin() + 12,
                            values(two_more, ParamId::JointAnchor).end()) == std::vector<double>{2.5, 1, 0});
  CHECK(values(two_more, ParamId::JointDamping)[4] == 0.3);
  const std::vector<double>& u = values(two_more, ParamId::JointControl);
  REQUIRE(u.size() == 5 * 40);
  for (int t = 0; t < 40; ++t) {
    CHECK(u[size_t(5 * t + 3)] == 30 + 0.01 * t);  // the target's weld
    CHECK(u[size_t(5 * t + 4)] == 20 + 0.01 * t);  // the pasted slide
  }
  CHECK(two_more.params[ParamId::BodyDensity].optimize_rows == std::vector<int>{1, 2});
  CHECK(two_more.params[ParamId::JointDamping].optimize_rows == std::vector<int>{1, 3});
  const Parameter& velocity = two_more.params[ParamId::BodyVelocity];
  CHECK(velocity.optimized_entry(3 * 4 + 2));
  check_stable(two_more, temp.path);

  check_error(edits::merge(bodies, links, {0, std::numeric_limits<double>::quiet_NaN(), 0}),
              "merge: found offset [0, nan, 0]; expected finite values (m)");
  Scene broken = links;
  broken.spring_b[0] = 17;
  check_error(edits::merge(bodies, broken, {0, 0, 0}),
              "merge: the fragment to paste is invalid: springs.pairs[0][1]: found 17; expected a particle index in "
              "[0, 3)");
  check_error(edits::duplicate(bodies, {}, {3}, {0, 0, 0}),
              "duplicate: body 3 does not exist; expected an index in [0, 3)");
}

TEST_CASE("scene edits: a duplicated chain, cloth, walker or pendulum moves as the original, shifted") {
  TempDir temp;
  const Vec3 offset{0, 0, 2.5};  // sideways: the ground and gravity act on the copy as on the original
  const Scene chain = chain_scene(temp.path);
  const Scene chains = ok(edits::duplicate(chain, all(chain.particle_count()), {}, offset));
  check_stable(chains, temp.path);
  check_moves_as_original(chain, chains, offset);

  for (const std::string name : {"cloth", "walker", "double_pendulum_sysid"}) {
    CAPTURE(name);
    const Scene scene = load_example(name);
    const Scene twice = ok(edits::duplicate(scene, all(scene.particle_count()), all(scene.body_count()), offset));
    check_stable(twice, temp.path);
    check_moves_as_original(scene, twice, offset);
  }
}

TEST_CASE(
    "scene edits: triangles and bending edges follow their particles when particles are deleted, copied and "
    "duplicated") {
  // A strip of three triangles over five particles: 0-1-2, 1-3-2, 2-3-4, with bending
  // on its two interior edges (1-2 between 0 and 3, 2-3 between 1 and 4).
  Scene scene;
  scene.settings.dt = 0.01;
  scene.settings.steps = 10;
  scene.pinned.assign(5, 0);
  scene.params[ParamId::InitialPosition].value = {0, 1, 0, 1, 1, 0, 0, 1, 1, 1, 1, 1, 0, 1, 2};
  scene.triangles = {0, 1, 2, 1, 3, 2, 2, 3, 4};
  shape_parameters(scene);
  scene.params[ParamId::TriangleStiffness].value = {10, 11, 12};
  scene.params[ParamId::TriangleLift].value = {1, 2, 3};
  scene.params[ParamId::Wind].value = {1, 0, 0};
  scene.bending = {0, 3, 1, 2, 1, 4, 2, 3};
  shape_parameters(scene);
  scene.params[ParamId::BendingStiffness].value = {0.5, 0.7};
  REQUIRE(check_scene(scene).ok());

  // Deleting particle 1 takes the two triangles it is a corner of; 2-3-4 is now 1-2-3.
  const Scene fewer = ok(edits::delete_particles(scene, {1}));
  CHECK(fewer.triangles == std::vector<int>{1, 2, 3});
  CHECK(fewer.params[ParamId::TriangleStiffness].value == std::vector<double>{12});
  CHECK(fewer.params[ParamId::TriangleLift].value == std::vector<double>{3});
  CHECK(fewer.params[ParamId::Wind].value == std::vector<double>{1, 0, 0});
  CHECK(fewer.bending.empty());  // both edges had particle 1
  CHECK(fewer.params[ParamId::BendingStiffness].value.empty());
  const Scene no_zero = ok(edits::delete_particles(scene, {0}));
  CHECK(no_zero.bending == std::vector<int>{0, 3, 1, 2});
  CHECK(no_zero.params[ParamId::BendingStiffness].value == std::vector<double>{0.7});

  // A copy of particles 1..4 holds the triangles among them, renumbered.
  const Scene copy = ok(edits::extract(scene, {1, 2, 3, 4}, {}));
  CHECK(copy.triangles == std::vector<int>{0, 2, 1, 1, 2, 3});
  CHECK(copy.params[ParamId::TriangleStiffness].value == std::vector<double>{11, 12});
  CHECK(copy.bending == std::vector<int>{0, 3, 1, 2});
  CHECK(copy.params[ParamId::BendingStiffness].value == std::vector<double>{0.7});

  // Duplicating every particle appends the triangles, shifted to the copies.
  const Scene twice = ok(edits::duplicate(scene, {0, 1, 2, 3, 4}, {}, Vec3{2, 0, 0}));
  CHECK(twice.triangles == std::vector<int>{0, 1, 2, 1, 3, 2, 2, 3, 4, 5, 6, 7, 6, 8, 7, 7, 8, 9});
  CHECK(twice.params[ParamId::TriangleLift].value == std::vector<double>{1, 2, 3, 1, 2, 3});
  CHECK(twice.bending == std::vector<int>{0, 3, 1, 2, 1, 4, 2, 3, 5, 8, 6, 7, 6, 9, 7, 8});
  CHECK(twice.params[ParamId::BendingStiffness].value == std::vector<double>{0.5, 0.7, 0.5, 0.7});
}

TEST_CASE("scene edits: tets follow their particles when particles are deleted, copied, duplicated and pasted") {
  // Three tets over six particles: 0-1-2-3, 1-4-2-3 and 2-4-5-3, the first two actuated.
  Scene scene;
  scene.settings.dt = 0.01;
  scene.settings.steps = 4;
  scene.pinned.assign(6, 0);
  scene.params[ParamId::InitialPosition].value = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 0, 0, 2, 0};
  scene.tets = {0, 1, 2, 3, 1, 4, 2, 3, 2, 4, 5, 3};
  scene.channels = 2;
  scene.tet_channel = {1, 0, -1};
  scene.tet_actuation = {0.5, 0.25, 0};
  shape_parameters(scene);
  scene.params[ParamId::TetMu].value = {10, 11, 12};
  scene.params[ParamId::TetDamping].value = {1, 2, 3};
  scene.params[ParamId::Controls].value = {1, 2, 3, 4, 5, 6, 7, 8};
  REQUIRE(check_scene(scene).ok());

  // Deleting particle 0 takes the tet it is a corner of; the others are renumbered.
  const Scene fewer = ok(edits::delete_particles(scene, {0}));
  CHECK(fewer.tets == std::vector<int>{0, 3, 1, 2, 1, 3, 4, 2});
  CHECK(fewer.tet_channel == std::vector<int>{0, -1});
  CHECK(fewer.tet_actuation == std::vector<double>{0.25, 0});
  CHECK(fewer.params[ParamId::TetMu].value == std::vector<double>{11, 12});
  CHECK(fewer.params[ParamId::TetDamping].value == std::vector<double>{2, 3});

  // A copy of particles 1..5 holds the two tets among them, renumbered.
  const Scene copy = ok(edits::extract(scene, {1, 2, 3, 4, 5}, {}));
  CHECK(copy.tets == std::vector<int>{0, 3, 1, 2, 1, 3, 4, 2});
  CHECK(copy.tet_channel == std::vector<int>{0, -1});
  CHECK(copy.params[ParamId::TetMu].value == std::vector<double>{11, 12});

  // Duplicating every particle appends the tets, shifted to the copies, with their channels.
  const Scene twice = ok(edits::duplicate(scene, {0, 1, 2, 3, 4, 5}, {}, Vec3{3, 0, 0}));
  CHECK(twice.tets == std::vector<int>{0, 1, 2, 3, 1, 4, 2, 3, 2, 4, 5, 3, 6, 7, 8, 9, 7, 10, 8, 9, 8, 10, 11, 9});
  CHECK(twice.tet_channel == std::vector<int>{1, 0, -1, 1, 0, -1});
  CHECK(twice.tet_actuation == std::vector<double>{0.5, 0.25, 0, 0.5, 0.25, 0});
  CHECK(twice.params[ParamId::TetDamping].value == std::vector<double>{1, 2, 3, 1, 2, 3});

  // Pasted into a scene without channels, the tets bring theirs with their controls.
  Scene plain;
  plain.settings = scene.settings;
  plain.pinned.assign(1, 0);
  plain.params[ParamId::InitialPosition].value = {5, 5, 5};
  shape_parameters(plain);
  const Scene pasted = ok(edits::merge(plain, scene, Vec3{0, 0, 0}));
  CHECK(pasted.channels == 2);
  CHECK(pasted.tets == std::vector<int>{1, 2, 3, 4, 2, 5, 3, 4, 3, 5, 6, 4});
  CHECK(pasted.tet_channel == std::vector<int>{1, 0, -1});
  CHECK(pasted.params[ParamId::Controls].value == scene.params[ParamId::Controls].value);

  // A channel that drives a tet is not removed.
  CHECK_FALSE(edits::set_channels(scene, 1).ok());
  CHECK(edits::set_channels(fewer, 1).ok());
}
