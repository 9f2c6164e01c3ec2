#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "temp_dir.h"
#include "io/marker_csv.h"
#include "nudge/scene.h"
#include "nudge/simulator.h"

namespace fs = std::filesystem;
using namespace nudge;

namespace {

fs::path source_dir() {
  if (const char* dir = std::getenv("NUDGE_SOURCE_DIR"); dir != nullptr && *dir != '\0') return dir;
  return fs::path(__FILE__).parent_path().parent_path().parent_path();
}

fs::path data_dir() { return source_dir() / "tests" / "data"; }

struct TempDir : test::TempDir {
  TempDir() : test::TempDir("scene-test") {}
};

// A valid scene: 4 particles, 10 steps of 0.01 s, plus `extra` top-level members.
std::string scene_with(std::string_view extra = "") {
  std::string text = R"({"format": "nudge-scene", "version": 1,
 "simulation": {"dt": 0.01, "steps": 10},
 "particles": {"position": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]})";
  if (!extra.empty()) text += ",\n " + std::string(extra);
  return text + "}";
}

// The same with the simulation and particles sections given.
std::string scene_from(std::string_view simulation, std::string_view particles, std::string_view extra = "") {
  std::string text = R"({"format": "nudge-scene", "version": 1, "simulation": )" + std::string(simulation) +
                     R"(, "particles": )" + std::string(particles);
  if (!extra.empty()) text += ", " + std::string(extra);
  return text + "}";
}

constexpr std::string_view kSimulation = R"({"dt": 0.01, "steps": 10})";
constexpr std::string_view kParticles = R"({"position": [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]]})";

// Two rigid bodies, a sphere (0) and a box (1), for scenes with joints.
constexpr std::string_view kTwoBodies = R"("bodies": [{"shape": "sphere", "radius": 0.1, "position": [0, 1, 0]},
  {"shape": "box", "half_extents": [0.1, 0.2, 0.1], "position": [0, 0.5, 0]}])";

// Two valid joints on those bodies: a hinge to the world and a ball between them.
constexpr std::string_view kTwoJoints = R"({"type": "hinge", "child": 0, "anchor": [0, 1.2, 0], "axis": [0, 0, 1]},
  {"type": "ball", "parent": 0, "child": 1, "anchor": [0, 0.8, 0]})";

// scene_with the two bodies, a "joints" array of `joints`, and `extra` top-level members.
std::string joints_scene(std::string_view joints, std::string_view extra = "") {
  std::string members = std::string(kTwoBodies) + ",\n \"joints\": [" + std::string(joints) + "]";
  if (!extra.empty()) members += ",\n " + std::string(extra);
  return scene_with(members);
}

// "[row, row, ...]" with `count` copies of `row`: per-step arrays for scenes of 10 steps.
std::string rows_of(int count, std::string_view row) {
  std::string text = "[";
  for (int i = 0; i < count; ++i) text += (i ? ", " : "") + std::string(row);
  return text + "]";
}

std::string error_of(const Result<Scene>& result) {
  REQUIRE_FALSE(result.ok());
  return result.error().message;
}

void check_same(const Scene& a, const Scene& b) {
  CHECK(a.name == b.name);
  CHECK(a.description == b.description);
  CHECK(a.settings.dt == b.settings.dt);
  CHECK(a.settings.steps == b.settings.steps);
  CHECK(a.settings.checkpoint_every == b.settings.checkpoint_every);
  CHECK(a.settings.ground.enabled == b.settings.ground.enabled);
  CHECK(a.settings.ground.height == b.settings.ground.height);
  CHECK(a.settings.ground.damping == b.settings.ground.damping);
  CHECK(a.settings.ground.contact_smoothing == b.settings.ground.contact_smoothing);
  CHECK(a.settings.ground.friction_smoothing == b.settings.ground.friction_smoothing);
  CHECK(a.pinned == b.pinned);
  CHECK(a.spring_a == b.spring_a);
  CHECK(a.spring_b == b.spring_b);
  CHECK(a.spring_channel == b.spring_channel);
  CHECK(a.actuation == b.actuation);
  CHECK(a.channels == b.channels);
  for (int i = 0; i < kParamCount; ++i) {
    const Parameter& p = a.params.items[i];
    const Parameter& q = b.params.items[i];
    CAPTURE(param_name(p.id));
    CHECK(p.id == q.id);
    CHECK(p.rows == q.rows);
    CHECK(p.cols == q.cols);
    CHECK(p.value == q.value);  // exact: numbers round-trip
    CHECK(p.lower == q.lower);
    CHECK(p.upper == q.upper);
    CHECK(p.optimize == q.optimize);
    CHECK(p.optimize_rows == q.optimize_rows);
  }
  REQUIRE(a.objectives.size() == b.objectives.size());
  for (std::size_t k = 0; k < a.objectives.size(); ++k) {
    const Objective& o = a.objectives[k];
    const Objective& r = b.objectives[k];
    CAPTURE(k);
    CHECK(o.type == r.type);
    CHECK(o.weight == r.weight);
    CHECK(o.step == r.step);
    CHECK(o.particles == r.particles);
    CHECK(o.target == r.target);
    for (int axis = 0; axis < 3; ++axis) CHECK(o.direction[axis] == r.direction[axis]);
    CHECK(o.marker_file == r.marker_file);
    CHECK(o.steps_per_frame == r.steps_per_frame);
    CHECK(o.bind == r.bind);
    CHECK(o.bind_bodies == r.bind_bodies);
    CHECK(o.bodies == r.bodies);
    for (int axis = 0; axis < 3; ++axis) CHECK(o.axis[axis] == r.axis[axis]);
    REQUIRE(o.samples.size() == r.samples.size());
    for (std::size_t s = 0; s < o.samples.size(); ++s) {
      CHECK(o.samples[s].frame == r.samples[s].frame);
      CHECK(o.samples[s].marker == r.samples[s].marker);
      for (int axis = 0; axis < 3; ++axis) CHECK(o.samples[s].position[axis] == r.samples[s].position[axis]);
    }
  }
  REQUIRE(a.bodies.size() == b.bodies.size());
  for (std::size_t k = 0; k < a.bodies.size(); ++k) {
    CAPTURE(k);
    CHECK(a.bodies[k].name == b.bodies[k].name);
    CHECK(a.bodies[k].shape == b.bodies[k].shape);
    CHECK((a.bodies[k].mesh == nullptr) == (b.bodies[k].mesh == nullptr));
  }
  REQUIRE(a.joints.size() == b.joints.size());
  for (std::size_t k = 0; k < a.joints.size(); ++k) {
    const Joint& j = a.joints[k];
    const Joint& l = b.joints[k];
    CAPTURE(k);
    CHECK(j.name == l.name);
    CHECK(j.type == l.type);
    CHECK(j.parent == l.parent);
    CHECK(j.child == l.child);
    for (int axis = 0; axis < 3; ++axis) CHECK(j.axis[axis] == l.axis[axis]);
    CHECK(j.limited == l.limited);
    CHECK(j.lower == l.lower);
    CHECK(j.upper == l.upper);
    CHECK(j.collide == l.collide);
  }
  CHECK(a.joint_settings.stiffness == b.joint_settings.stiffness);
  CHECK(a.joint_settings.damping == b.joint_settings.damping);
  CHECK(a.joint_settings.angular_stiffness == b.joint_settings.angular_stiffness);
  CHECK(a.joint_settings.angular_damping == b.joint_settings.angular_damping);
  CHECK(a.joint_settings.limit_stiffness == b.joint_settings.limit_stiffness);
  CHECK(a.contact.bodies == b.contact.bodies);
  CHECK(a.contact.damp_approach_only == b.contact.damp_approach_only);
  CHECK(a.contact.smoothing == b.contact.smoothing);
  CHECK(a.contact.friction_smoothing == b.contact.friction_smoothing);
  CHECK(a.camera.set == b.camera.set);
  for (int k = 0; k < 3; ++k) {
    CHECK(a.camera.eye[k] == b.camera.eye[k]);
    CHECK(a.camera.target[k] == b.camera.target[k]);
  }
  CHECK(a.camera.fov_degrees == b.camera.fov_degrees);
  const OptimizerSettings& x = a.optimizer;
  const OptimizerSettings& y = b.optimizer;
  CHECK(x.method == y.method);
  CHECK(x.iterations == y.iterations);
  CHECK(x.learning_rate == y.learning_rate);
  CHECK(x.momentum == y.momentum);
  CHECK(x.beta1 == y.beta1);
  CHECK(x.beta2 == y.beta2);
  CHECK(x.epsilon == y.epsilon);
  CHECK(x.history == y.history);
  CHECK(x.clip == y.clip);
  CHECK(x.tolerance == y.tolerance);
  CHECK(x.loss_tolerance == y.loss_tolerance);
  CHECK(x.population == y.population);
  CHECK(x.sigma == y.sigma);
  CHECK(x.seed == y.seed);
}

// A copy of the complete test scene and its marker track in a temporary folder,
// laid out as in tests/data so the relative marker path resolves.
fs::path copy_complete_scene(const TempDir& dir) {
  fs::create_directories(dir.path / "scenes");
  fs::create_directories(dir.path / "markers");
  fs::copy_file(data_dir() / "scenes" / "complete.json", dir.path / "scenes" / "complete.json");
  fs::copy_file(data_dir() / "markers" / "walk.csv", dir.path / "markers" / "walk.csv");
  return dir.path / "scenes" / "complete.json";
}

struct BadInput {
  const char* name;
  std::string text;
  std::vector<std::string> expected;  // substrings the message must contain
};

std::vector<BadInput> bad_inputs() {
  const std::string springs4 = R"("springs": {"pairs": [[0, 1], [1, 2]]})";
  // One bad input per entry: its name, text and expected words together.
  // clang-format off
  return {
      // Not JSON at all
      {"empty file", "", {"the file is empty"}},
      {"only whitespace", " \n\t\r\n", {"the file is empty"}},
      {"binary bytes", std::string("\x00\x01\x02\xff\xfe", 5), {"line 1, column 1: JSON syntax error"}},
      {"truncated", R"({"format": "nudge-scene", "version": 1, "simulation": {"dt": 0.01)",
       {"JSON syntax error", "unexpected end of input"}},
      {"number where a key belongs", "{\"format\": \"nudge-scene\",\n  5\n}",
       {"line 2, column 3: JSON syntax error: unexpected number literal; expected string literal"}},
      {"trailing garbage", scene_with() + " x", {"JSON syntax error", "end of input"}},
      {"invalid UTF-8 in a string", R"({"format": "nudge-)" + std::string("\xff") + R"("})",
       {"JSON syntax error", "UTF-8"}},
      {"deep nesting", std::string(100000, '['), {"line 1, column 65", "more than 64 nested", "expected at most 64"}},
      {"NaN", scene_from(R"({"dt": 0.01, "steps": 10,
  "drag": NaN})", kParticles),
       {"line 2, column 11: found NaN, which is not JSON; expected a finite number"}},
      {"-Infinity", scene_from(kSimulation, R"({"position": [[0, -Infinity, 0]]})"), {"found -Infinity, which is not JSON"}},
      {"1e999", scene_from(R"({"dt": 1e999, "steps": 10})", kParticles),
       {"found 1e999, a number too large for a double; expected a finite number"}},
      {"comment", "{\n  // a comment\n}", {"line 2, column 3", "comment", "no comments"}},
      {"duplicate key", scene_from(R"({"dt": 0.01, "steps": 10, "dt": 0.02})", kParticles),
       {"$.simulation.dt: found this key a second time"}},
      {"duplicate key in an array element", scene_with(R"("objectives": [{"type": "effort"}, {"type": "effort", "weight": 1, "weight": 2}])"),
       {"$.objectives[1].weight: found this key a second time"}},

      // Format and version
      {"top level array", "[]", {"$: found an empty array; expected a JSON object (a Nudge scene)"}},
      {"missing format", R"({"version": 1})", {"$: missing key 'format'; expected \"nudge-scene\""}},
      {"wrong format", R"({"format": "nudge-scen", "version": 1})",
       {"$.format: found \"nudge-scen\"; expected \"nudge-scene\""}},
      {"newer version", R"({"format": "nudge-scene", "version": 2, "shiny": true})",
       {"$.version: found 2; expected 1 (this file was written by a newer version of Nudge)"}},
      {"version as text", R"({"format": "nudge-scene", "version": "1"})", {"$.version: found \"1\"; expected 1"}},
      {"unknown top-level key", scene_with(R"("objective": [])"),
       {"$.objective: unknown key 'objective' in the scene (did you mean 'objectives'?); expected one of: format,"}},
      {"name not a string", scene_with(R"("name": 5)"), {"$.name: found 5; expected a string"}},

      // Simulation
      {"missing simulation", R"({"format": "nudge-scene", "version": 1, "particles": {}})",
       {"$: missing key 'simulation'"}},
      {"simulation not an object", scene_from("[]", kParticles), {"$.simulation: found an empty array; expected an object"}},
      {"zero dt", scene_from(R"({"dt": 0, "steps": 10})", kParticles),
       {"$.simulation.dt: found 0; expected a time step in (0, 1] (s)"}},
      {"dt as text", scene_from(R"({"dt": "0.01", "steps": 10})", kParticles), {"$.simulation.dt: found \"0.01\""}},
      {"missing steps", scene_from(R"({"dt": 0.01})", kParticles), {"$.simulation: missing key 'steps'"}},
      {"zero steps", scene_from(R"({"dt": 0.01, "steps": 0})", kParticles),
       {"$.simulation.steps: found 0; expected a step count, an integer in [1, 10000000]"}},
      {"fractional steps", scene_from(R"({"dt": 0.01, "steps": 1.5})", kParticles),
       {"$.simulation.steps: found 1.5; expected a step count, an integer"}},
      {"too many steps", scene_from(R"({"dt": 0.01, "steps": 99999999999999999999999})", kParticles),
       {"$.simulation.steps: found 9.999999999999999e+22; expected a step count"}},
      {"negative checkpoint", scene_from(R"({"dt": 0.01, "steps": 10, "checkpoint_every": -1})", kParticles),
       {"$.simulation.checkpoint_every: found -1; expected an integer (0: store every state) in [0, "}},
      {"short gravity", scene_from(R"({"dt": 0.01, "steps": 10, "gravity": [0, -9.81]})", kParticles),
       {"$.simulation.gravity: found an array of 2 values; expected [x, y, z]: a finite acceleration (m/s^2)"}},
      {"negative drag", scene_from(R"({"dt": 0.01, "steps": 10, "drag": -0.5})", kParticles),
       {"$.simulation.drag: found -0.5; expected a drag coefficient >= 0"}},
      {"ground key typo", scene_from(R"({"dt": 0.01, "steps": 10, "ground": {"frction": 1}})", kParticles),
       {"$.simulation.ground.frction: unknown key 'frction' in simulation.ground (did you mean 'friction'?)"}},
      {"zero contact smoothing", scene_from(R"({"dt": 0.01, "steps": 10, "ground": {"contact_smoothing": 0}})", kParticles),
       {"$.simulation.ground.contact_smoothing: found 0; expected a width > 0 (m)"}},

      // Particles
      {"no particles", scene_from(kSimulation, R"({"position": []})"),
       {"$.particles.position: found an empty array; expected a non-empty array of [x, y, z] positions (m)"}},
      {"short position row", scene_from(kSimulation, R"({"position": [[0, 0, 0], [1, 0]]})"),
       {"$.particles.position[1]: found an array of 2 values; expected a position [x, y, z] (m)"}},
      {"coordinate as text", scene_from(kSimulation, R"({"position": [[0, 0, "0"]]})"),
       {"$.particles.position[0][2]: found \"0\"; expected a finite number"}},
      {"negative mass", scene_from(kSimulation, R"({"position": [[0,0,0],[1,0,0],[2,0,0],[3,0,0]], "mass": [1, 1, -1, 1]})"),
       {"$.particles.mass[2]: found -1; expected a mass > 0 (kg)"}},
      {"mass count", scene_from(kSimulation, R"({"position": [[0,0,0],[1,0,0],[2,0,0],[3,0,0]], "mass": [1, 1]})"),
       {"$.particles.mass: found an array of 2 values; expected a number or an array of 4 numbers (one per particle)"}},
      {"zero scalar mass", scene_from(kSimulation, R"({"position": [[0,0,0]], "mass": 0})"),
       {"$.particles.mass: found 0; expected a mass > 0 (kg)"}},
      {"velocity rows", scene_from(kSimulation, R"({"position": [[0,0,0],[1,0,0]], "velocity": [[0,0,0]]})"),
       {"$.particles.velocity: found an array of 1 value; expected one [x, y, z] for all or an array of 2 rows (one "
        "per particle)"}},
      {"pinned twice", scene_from(kSimulation, R"({"position": [[0,0,0],[1,0,0]], "pinned": [0, 0]})"),
       {"$.particles.pinned[1]: found 0; expected each particle once"}},
      {"pinned out of range", scene_from(kSimulation, R"({"position": [[0,0,0],[1,0,0]], "pinned": [-1]})"),
       {"$.particles.pinned[0]: found -1; expected a particle index in [0, 2)"}},
      {"particles key typo", scene_from(kSimulation, R"({"position": [[0,0,0]], "masses": 1})"),
       {"$.particles.masses: unknown key 'masses' in particles (did you mean 'mass'?)"}},

      // Springs and controls
      {"spring end out of range", scene_with(R"("springs": {"pairs": [[0, 1], [1, 7]]})"),
       {"$.springs.pairs[1][1]: found 7; expected a particle index in [0, 4)"}},
      {"spring to itself", scene_with(R"("springs": {"pairs": [[0, 1], [2, 2]]})"),
       {"$.springs.pairs[1]: found a spring from particle 2 to itself; expected two different particles"}},
      {"fractional spring end", scene_with(R"("springs": {"pairs": [[0, 1.5]]})"),
       {"$.springs.pairs[0][1]: found 1.5; expected a particle index in [0, 4)"}},
      {"spring as a triple", scene_with(R"("springs": {"pairs": [[0, 1, 2]]})"),
       {"$.springs.pairs[0]: found an array of 3 values; expected a pair [a, b] of particle indices"}},
      {"springs without pairs", scene_with(R"("springs": {"stiffness": 1})"), {"$.springs: missing key 'pairs'"}},
      {"springs key typo", scene_with(R"("springs": {"pairs": [[0, 1]], "stifness": 5})"),
       {"$.springs.stifness: unknown key 'stifness' in springs (did you mean 'stiffness'?); expected one of: pairs, "
        "rest_length, channel, actuation, length_offset, stiffness, damping"}},
      {"negative stiffness", scene_with(R"("springs": {"pairs": [[0, 1], [1, 2]], "stiffness": [5, -5]})"),
       {"$.springs.stiffness[1]: found -5; expected a stiffness >= 0 (N/m)"}},
      {"rest length zero", scene_with(R"("springs": {"pairs": [[0, 1]], "rest_length": [0]})"),
       {"$.springs.rest_length[0]: found 0; expected a rest length > 0 (m)"}},
      {"rest length as a number", scene_with(R"("springs": {"pairs": [[0, 1]], "rest_length": 1})"),
       {"$.springs.rest_length: found 1; expected an array of 1 numbers (one per spring)"}},
      {"coincident spring ends", scene_from(kSimulation, R"({"position": [[0,0,0],[1,0,0],[1,0,0]]})",
                                            R"("springs": {"pairs": [[0, 1], [1, 2]]})"),
       {"$.springs.pairs[1]: found particles 1 and 2 at distance 0", "rest_length"}},
      {"channel without controls", scene_with(springs4.substr(0, springs4.size() - 1) + R"(, "channel": [0, -1]})"),
       {"$.springs.channel[0]: found 0; expected -1 (passive; controls.channels is 0"}},
      {"channel out of range", scene_with(R"("controls": {"channels": 2}, "springs": {"pairs": [[0, 1]], "channel": [2]})"),
       {"$.springs.channel[0]: found 2; expected -1 (passive) or a channel in [0, 2)"}},
      {"too many channels", scene_with(R"("controls": {"channels": 5000})"),
       {"$.controls.channels: found 5000; expected a channel count, an integer in [0, 4096]"}},
      {"too many control values", scene_from(R"({"dt": 0.01, "steps": 10000000})", kParticles, R"("controls": {"channels": 11})"),
       {"$.controls.channels: found 11 channels x 10000000 steps = 110000000 control values; expected at most 100000000"}},
      {"control rows", scene_with(R"("controls": {"channels": 2, "values": [[0, 0], [0, 0], [0, 0]]})"),
       {"$.controls.values: found an array of 3 values; expected a number for all, or an array of 10 rows"}},
      {"control row width", scene_with(R"("controls": {"channels": 1, "values": [[0, 0], [0], [0], [0], [0], [0], [0], [0], [0], [0]]})"),
       {"$.controls.values[0]: found an array of 2 values; expected an array of 1 control values (one per channel)"}},

      // Joints, joint settings and joint controls
      {"joints not an array", scene_with(std::string(kTwoBodies) + R"(, "joints": {})"),
       {"$.joints: found an empty object; expected an array of joints"}},
      {"joint not an object", joints_scene("[0, 1]"),
       {"$.joints[0]: found an array of 2 values; expected a joint object with a \"type\" (ball, hinge, prismatic or fixed)"}},
      {"joint without type", joints_scene(R"({"child": 0, "anchor": [0, 1, 0]})"),
       {"$.joints[0]: missing key 'type'; expected ball, hinge, prismatic or fixed"}},
      {"unknown joint type", joints_scene(R"({"type": "slider", "child": 0, "anchor": [0, 1, 0]})"),
       {"$.joints[0].type: found \"slider\"; expected ball, hinge, prismatic or fixed"}},
      {"joints without bodies", scene_with(R"("joints": [{"type": "ball", "child": 0, "anchor": [0, 1, 0]}])"),
       {"$.joints[0]: a joint needs bodies; expected a \"bodies\" array before joints can join them"}},
      {"joint child out of range", joints_scene(std::string(kTwoJoints) + R"(, {"type": "fixed", "child": 2, "anchor": [0, 0, 0]})"),
       {"$.joints[2].child: found 2; expected a body index in [0, 2)"}},
      {"joint child negative", joints_scene(R"({"type": "ball", "child": -1, "anchor": [0, 1, 0]})"),
       {"$.joints[0].child: found -1; expected a body index in [0, 2)"}},
      {"joint child fractional", joints_scene(R"({"type": "ball", "child": 0.5, "anchor": [0, 1, 0]})"),
       {"$.joints[0].child: found 0.5; expected a body index in [0, 2)"}},
      {"joint parent out of range", joints_scene(R"({"type": "ball", "parent": -2, "child": 0, "anchor": [0, 1, 0]})"),
       {"$.joints[0].parent: found -2; expected -1 (the world) or a body index in [0, 2)"}},
      {"joint child is its parent", joints_scene(R"({"type": "ball", "parent": 1, "child": 1, "anchor": [0, 1, 0]})"),
       {"$.joints[0].child: found 1; expected a body other than the parent"}},
      {"joint child is its parent, as in the docs",
       joints_scene(R"({"type": "ball", "child": 0, "anchor": [0, 1, 0]}, {"type": "fixed", "parent": 0, "child": 0, "anchor": [0, 1, 0]})"),
       {"scenes/bad.json: $.joints[1].child: found 0; expected a body other than the parent"}},
      {"joint without child", joints_scene(R"({"type": "ball", "parent": 0, "anchor": [0, 1, 0]})"),
       {"$.joints[0]: missing key 'child'; expected a body index in [0, 2)"}},
      {"joint without anchor", joints_scene(std::string(kTwoJoints) + R"(, {"type": "fixed", "parent": 0, "child": 1})"),
       {"$.joints[2]: missing key 'anchor'; expected [x, y, z]: a finite position in the world at the start (m)"}},
      {"joint anchor of two values", joints_scene(R"({"type": "ball", "child": 0, "anchor": [0, 1]})"),
       {"$.joints[0].anchor: found an array of 2 values; expected [x, y, z]: a finite position in the world at the start (m)"}},
      {"hinge without axis", joints_scene(R"({"type": "hinge", "child": 0, "anchor": [0, 1, 0]})"),
       {"$.joints[0]: missing key 'axis'; expected the joint's axis [x, y, z] in the world at the start"}},
      {"prismatic without axis", joints_scene(R"({"type": "prismatic", "child": 0, "anchor": [0, 1, 0]})"),
       {"$.joints[0]: missing key 'axis'; expected the joint's axis [x, y, z]"}},
      {"zero joint axis", joints_scene(R"({"type": "prismatic", "child": 0, "anchor": [0, 1, 0], "axis": [0, 0, 0]})"),
       {"$.joints[0].axis: found an array of 3 values; expected a non-zero direction"}},
      {"joint axis as text", joints_scene(R"({"type": "hinge", "child": 0, "anchor": [0, 1, 0], "axis": [0, "1", 0]})"),
       {"$.joints[0].axis[1]: found \"1\"; expected a finite number"}},
      {"ball joint with an axis", joints_scene(R"({"type": "ball", "child": 0, "anchor": [0, 1, 0], "axis": [0, 0, 1]})"),
       {"$.joints[0].axis: unknown key 'axis' in joints[0] (a ball joint); expected one of: name, type, parent, child, "
        "collide, anchor, damping"}},
      {"ball joint with limits", joints_scene(R"({"type": "ball", "child": 0, "anchor": [0, 1, 0], "limits": [-1, 1]})"),
       {"$.joints[0].limits: unknown key 'limits' in joints[0] (a ball joint); expected one of:"}},
      {"joint key typo", joints_scene(R"({"type": "hinge", "child": 0, "anchr": [0, 1, 0], "axis": [0, 0, 1]})"),
       {"$.joints[0].anchr: unknown key 'anchr' in joints[0] (a hinge joint) (did you mean 'anchor'?); expected one of: "
        "name, type, parent, child, axis, limits, collide, channel, gain, anchor, damping"}},
      {"hinge limits reversed", joints_scene(R"({"type": "hinge", "child": 0, "anchor": [0, 1, 0], "axis": [0, 0, 1], "limits": [1, -1]})"),
       {"$.joints[0].limits: found an array of 2 values; expected [lower, upper] turns about the axis in [-pi, pi] (rad) "
        "with lower <= upper"}},
      {"hinge limits beyond pi", joints_scene(R"({"type": "hinge", "child": 0, "anchor": [0, 1, 0], "axis": [0, 0, 1], "limits": [-1, 3.2]})"),
       {"$.joints[0].limits: found an array of 2 values; expected [lower, upper] turns about the axis in [-pi, pi] (rad)"}},
      {"hinge limits below -pi", joints_scene(R"({"type": "hinge", "child": 0, "anchor": [0, 1, 0], "axis": [0, 0, 1], "limits": [-3.1416, 0]})"),
       {"$.joints[0].limits: found an array of 2 values; expected [lower, upper] turns about the axis in [-pi, pi] (rad)"}},
      {"prismatic limits reversed", joints_scene(R"({"type": "prismatic", "child": 0, "anchor": [0, 1, 0], "axis": [1, 0, 0], "limits": [0.5, 0.25]})"),
       {"$.joints[0].limits: found an array of 2 values; expected [lower, upper] slides along the axis (m) with lower <= upper"}},
      {"prismatic limits of one value", joints_scene(R"({"type": "prismatic", "child": 0, "anchor": [0, 1, 0], "axis": [1, 0, 0], "limits": [0.5]})"),
       {"$.joints[0].limits: found an array of 1 value; expected [lower, upper] slides along the axis (m)"}},
      {"joint limit as text", joints_scene(R"({"type": "hinge", "child": 0, "anchor": [0, 1, 0], "axis": [0, 0, 1], "limits": [-1, "1"]})"),
       {"$.joints[0].limits[1]: found \"1\"; expected [lower, upper] turns about the axis in [-pi, pi] (rad)"}},
      {"fixed joint with limits", joints_scene(R"({"type": "fixed", "child": 0, "anchor": [0, 1, 0], "limits": [-1, 1]})"),
       {"$.joints[0].limits: a fixed joint has no free direction to limit"}},
      {"negative joint damping", joints_scene(R"({"type": "hinge", "child": 0, "anchor": [0, 1, 0], "axis": [0, 0, 1], "damping": -0.5})"),
       {"$.joints[0].damping: found -0.5; expected a damping >= 0"}},
      {"joint collide not a bool", joints_scene(R"({"type": "ball", "parent": 0, "child": 1, "anchor": [0, 1, 0], "collide": 1})"),
       {"$.joints[0].collide: found 1; expected true or false"}},
      {"joint name not a string", joints_scene(R"({"name": 7, "type": "ball", "child": 0, "anchor": [0, 1, 0]})"),
       {"$.joints[0].name: found 7; expected a string (a joint name)"}},
      {"too many joint control values",
       scene_from(R"({"dt": 0.01, "steps": 10000000})", kParticles,
                  std::string(kTwoBodies) + R"(, "joints": )" +
                      rows_of(11, R"({"type": "ball", "child": 0, "anchor": [0, 1, 0]})")),
       {"$.joints: found 11 joints x 10000000 steps = 110000000 joint control values; expected at most 100000000"}},
      {"joint settings not an object", joints_scene(kTwoJoints, R"("joint_settings": [])"),
       {"$.joint_settings: found an empty array; expected an object with the keys: stiffness, damping, angular_stiffness, "
        "angular_damping, limit_stiffness"}},
      {"zero joint stiffness", joints_scene(kTwoJoints, R"("joint_settings": {"stiffness": 0})"),
       {"$.joint_settings.stiffness: found 0; expected a stiffness > 0 (N/m)"}},
      {"negative joint settings damping", joints_scene(kTwoJoints, R"("joint_settings": {"damping": -1})"),
       {"$.joint_settings.damping: found -1; expected a damping >= 0 (N s/m)"}},
      {"zero angular stiffness", joints_scene(kTwoJoints, R"("joint_settings": {"angular_stiffness": 0})"),
       {"$.joint_settings.angular_stiffness: found 0; expected a stiffness > 0 (N m/rad)"}},
      {"negative angular damping", joints_scene(kTwoJoints, R"("joint_settings": {"angular_damping": -0.1})"),
       {"$.joint_settings.angular_damping: found -0.1; expected a damping >= 0 (N m s/rad)"}},
      {"negative limit stiffness", joints_scene(kTwoJoints, R"("joint_settings": {"limit_stiffness": -5})"),
       {"$.joint_settings.limit_stiffness: found -5; expected a stiffness >= 0"}},
      {"joint settings key typo", joints_scene(kTwoJoints, R"("joint_settings": {"stifness": 5})"),
       {"$.joint_settings.stifness: unknown key 'stifness' in joint_settings (did you mean 'stiffness'?)"}},
      {"joint control rows", joints_scene(kTwoJoints, R"("joint_controls": [[0, 0], [0, 0], [0, 0]])"),
       {"$.joint_controls: found an array of 3 values; expected a number for all, or an array of 10 rows (one per step, "
        "simulation.steps) of 2 numbers"}},
      {"joint control row width", joints_scene(kTwoJoints, R"("joint_controls": [[0, 0], [1], [0, 0], [0, 0], [0, 0], [0, 0], [0, 0], [0, 0], [0, 0], [0, 0]])"),
       {"$.joint_controls[1]: found an array of 1 value; expected an array of 2 values (one per joint)"}},
      {"joint control as text", joints_scene(kTwoJoints, "\"joint_controls\": " + rows_of(10, R"([0, "1"])")),
       {"$.joint_controls[0][1]: found \"1\"; expected a finite torque (N m) or force (N)"}},
      {"joint controls as an object", joints_scene(kTwoJoints, R"("joint_controls": {})"),
       {"$.joint_controls: found an empty object; expected a number for all, or an array of 10 rows"}},
      {"joint controls without joints", scene_with(R"("joint_controls": 1)"),
       {"$.joint_controls: joint controls need joints; expected a \"joints\" array"}},
      {"joint controls with no joints", scene_with(std::string(kTwoBodies) + R"(, "joints": [], "joint_controls": 0)"),
       {"$.joint_controls: joint controls need joints; expected a \"joints\" array"}},
      {"contact bodies not a bool", joints_scene(kTwoJoints, R"("contact": {"bodies": "no"})"),
       {"$.contact.bodies: found \"no\"; expected true or false"}},
      {"contact key typo", scene_with(std::string(kTwoBodies) + R"(, "contact": {"bodys": false})"),
       {"$.contact.bodys: unknown key 'bodys' in contact (did you mean 'bodies'?); expected one of: restitution, "
        "damping_mode, smoothing, friction_smoothing, bodies, stiffness, damping, friction"}},
      {"restitution above 1", scene_with(std::string(kTwoBodies) + R"(, "contact": {"restitution": 1.5})"),
       {"$.contact.restitution: found 1.5; expected a coefficient of restitution in (0, 1]"}},
      {"restitution with approach-only damping",
       scene_with(std::string(kTwoBodies) + R"(, "contact": {"damping_mode": "approach", "restitution": 0.5})"),
       {"$.contact.damping_mode: found \"approach\"; expected \"both\" (a restitution's damping acts both ways)"}},

      // Parameters
      {"unknown parameter", scene_with(R"("parameters": {"stifness": {"optimize": true}})"),
       {"$.parameters.stifness: unknown parameter 'stifness' (did you mean 'stiffness'?); expected one of: initial_position, initial_velocity"}},
      {"bounds crossed", scene_with(R"("parameters": {"mass": {"lower": 2, "upper": 1}})"),
       {"$.parameters.mass: found lower 2 > upper 1; expected lower <= upper"}},
      {"optimize as text", scene_with(R"("parameters": {"mass": {"optimize": "yes"}})"),
       {"$.parameters.mass.optimize: found \"yes\"; expected true or false"}},
      {"parameter key typo", scene_with(R"("parameters": {"mass": {"lowr": 0}})"),
       {"$.parameters.mass.lowr: unknown key 'lowr' in parameters.mass (did you mean 'lower'?)"}},
      {"parameter rows out of range", joints_scene(kTwoJoints, R"("parameters": {"body_position": {"optimize": true, "rows": [0, 2]}})"),
       {"$.parameters.body_position.rows[1]: found 2; expected an array of distinct row indices in [0, 2) (the bodies, "
        "particles or joints to optimise)"}},
      {"parameter row repeated", joints_scene(kTwoJoints, R"("parameters": {"joint_anchor": {"optimize": true, "rows": [1, 0, 1]}})"),
       {"$.parameters.joint_anchor.rows[2]: found 1; expected an array of distinct row indices in [0, 2)"}},
      {"parameter row negative", scene_with(R"("parameters": {"mass": {"optimize": true, "rows": [-1]}})"),
       {"$.parameters.mass.rows[0]: found -1; expected an array of distinct row indices in [0, 4)"}},
      {"parameter row fractional", scene_with(R"("parameters": {"mass": {"optimize": true, "rows": [0.5]}})"),
       {"$.parameters.mass.rows[0]: found 0.5; expected an array of distinct row indices in [0, 4)"}},
      {"parameter row past the last step", joints_scene(kTwoJoints, R"("parameters": {"joint_control": {"optimize": true, "rows": [10]}})"),
       {"$.parameters.joint_control.rows[0]: found 10; expected an array of distinct row indices in [0, 10)"}},
      {"parameter rows empty", scene_with(R"("parameters": {"mass": {"optimize": true, "rows": []}})"),
       {"$.parameters.mass.rows: found an empty array; expected an array of distinct row indices in [0, 4)"}},
      {"parameter rows as a number", scene_with(R"("parameters": {"mass": {"optimize": true, "rows": 1}})"),
       {"$.parameters.mass.rows: found 1; expected an array of distinct row indices in [0, 4)"}},
      {"parameter rows of a parameter with none", scene_with(R"("parameters": {"joint_damping": {"optimize": true, "rows": [0]}})"),
       {"$.parameters.joint_damping.rows[0]: found 0; expected an array of distinct row indices in [0, 0)"}},

      // Objectives
      {"objectives not an array", scene_with(R"("objectives": {})"),
       {"$.objectives: found an empty object; expected an array of objectives"}},
      {"objective without type", scene_with(R"("objectives": [{"weight": 1}])"), {"$.objectives[0]: missing key 'type'"}},
      {"unknown objective type", scene_with(R"("objectives": [{"type": "targte"}])"),
       {"$.objectives[0].type: found \"targte\"; expected one of: target, positions, markers, velocity, effort, travel"}},
      {"objective key of another type", scene_with(R"("objectives": [{"type": "target", "particles": [0], "targets": [[0,0,0]]}])"),
       {"$.objectives[0].targets: unknown key 'targets' in objectives[0] (a target objective) (did you mean 'target'?)"}},
      {"target missing", scene_with(R"("objectives": [{"type": "target", "particles": [0]}])"),
       {"$.objectives[0]: missing key 'target'"}},
      {"step past the end", scene_with(R"("objectives": [{"type": "target", "particles": [0], "target": [0,0,0], "step": 11}])"),
       {"$.objectives[0].step: found 11; expected -1 (the final step) or a step in [0, 10]"}},
      {"duplicate objective particle", scene_with(R"("objectives": [{"type": "velocity", "particles": [0, 0], "target": [0,0,0]}])"),
       {"$.objectives[0].particles[1]: found 0; expected each particle once"}},
      {"empty objective particles", scene_with(R"("objectives": [{"type": "travel", "particles": []}])"),
       {"$.objectives[0].particles: found an empty array; expected a non-empty array of particle indices"}},
      {"negative weight", scene_with(R"("objectives": [{"type": "effort", "weight": -1}])"),
       {"$.objectives[0].weight: found -1; expected a weight >= 0"}},
      {"both targets and offset", scene_with(R"("objectives": [{"type": "positions", "targets": [[0,0,0]], "offset": [0,0,0]}])"),
       {"$.objectives[0]: found both \"targets\" and \"offset\"; expected exactly one of them"}},
      {"neither targets nor offset", scene_with(R"("objectives": [{"type": "positions"}])"),
       {"$.objectives[0]: found neither \"targets\" and \"offset\""}},
      {"targets count", scene_with(R"("objectives": [{"type": "positions", "particles": [0, 1], "targets": [[0,0,0]]}])"),
       {"$.objectives[0].targets: found an array of 1 value; expected an array of 2 [x, y, z] targets"}},
      {"zero direction", scene_with(R"("objectives": [{"type": "travel", "particles": [0], "direction": [0, 0, 0]}])"),
       {"$.objectives[0].direction: found an array of 3 values; expected a non-zero direction"}},
      {"missing marker file", scene_with(R"("objectives": [{"type": "markers", "file": "no-such-track.csv", "bind": [[0, 0]]}])"),
       {"$.objectives[0].file: scenes/no-such-track.csv: no such file"}},
      {"markers without bind", scene_with(R"("objectives": [{"type": "markers", "file": "t.csv", "bind": []}])"),
       {"$.objectives[0].bind: found an empty array; expected a non-empty array of [marker, particle] pairs"}},
      {"unknown objective type lists them all", scene_with(R"("objectives": [{"type": "orientaton"}])"),
       {"$.objectives[0].type: found \"orientaton\"; expected one of: target, positions, markers, velocity, effort, "
        "travel, orientation"}},
      {"orientation without bodies", joints_scene(kTwoJoints, R"("objectives": [{"type": "orientation", "axis": [0, 1, 0]}])"),
       {"$.objectives[0]: missing key 'bodies'; expected a non-empty array of body indices"}},
      {"orientation with no bodies listed", joints_scene(kTwoJoints, R"("objectives": [{"type": "orientation", "bodies": []}])"),
       {"$.objectives[0].bodies: found an empty array; expected a non-empty array of body indices"}},
      {"orientation body out of range", joints_scene(kTwoJoints, R"("objectives": [{"type": "orientation", "bodies": [1, 2]}])"),
       {"$.objectives[0].bodies[1]: found 2; expected a body index in [0, 2)"}},
      {"orientation body twice", joints_scene(kTwoJoints, R"("objectives": [{"type": "orientation", "bodies": [1, 1]}])"),
       {"$.objectives[0].bodies[1]: found 1; expected each body once"}},
      {"orientation in a scene without bodies", scene_with(R"("objectives": [{"type": "orientation", "bodies": [0]}])"),
       {"$.objectives[0].bodies[0]: found 0; expected a body index in [0, 0)"}},
      {"orientation zero axis", joints_scene(kTwoJoints, R"("objectives": [{"type": "orientation", "bodies": [0], "axis": [0, 0, 0]}])"),
       {"$.objectives[0].axis: found an array of 3 values; expected a non-zero direction"}},
      {"orientation axis of two values", joints_scene(kTwoJoints, R"("objectives": [{"type": "orientation", "bodies": [0], "axis": [0, 1]}])"),
       {"$.objectives[0].axis: found an array of 2 values; expected an axis [x, y, z] in the body's frame"}},
      {"orientation zero direction", joints_scene(kTwoJoints, R"("objectives": [{"type": "orientation", "bodies": [0], "direction": [0, 0, 0]}])"),
       {"$.objectives[0].direction: found an array of 3 values; expected a non-zero direction"}},
      {"orientation with particles", joints_scene(kTwoJoints, R"("objectives": [{"type": "orientation", "bodies": [0], "particles": [0]}])"),
       {"$.objectives[0].particles: unknown key 'particles' in objectives[0] (an orientation objective); expected one of: "
        "type, bodies, axis, direction, step, from_step, every, weight"}},
      {"orientation step past the end", joints_scene(kTwoJoints, R"("objectives": [{"type": "orientation", "bodies": [0], "step": 11}])"),
       {"$.objectives[0].step: found 11; expected -1 (the final step) or a step in [0, 10]"}},
      {"markers bound to a body out of range", joints_scene(kTwoJoints, R"("objectives": [{"type": "markers", "file": "t.csv",
                                                "bind_bodies": [[0, 1], [1, 5]]}])"),
       {"$.objectives[0].bind_bodies[1][1]: found 5; expected a body index in [0, 2)"}},
      {"markers bound to a body in a scene without bodies", scene_with(R"("objectives": [{"type": "markers", "file": "t.csv",
                                                             "bind_bodies": [[0, 0]]}])"),
       {"$.objectives[0].bind_bodies[0][1]: found 0; expected a body index (the scene has no bodies)"}},
      {"marker bound to a particle and a body", joints_scene(kTwoJoints, R"("objectives": [{"type": "markers", "file": "t.csv",
                                                 "bind": [[2, 0], [3, 1]], "bind_bodies": [[4, 0], [3, 1]]}])"),
       {"$.objectives[0].bind_bodies[1][0]: found 3; expected each marker bound once (marker 3 is already at "
        "$.objectives[0].bind[1])"}},
      {"marker bound to two bodies", joints_scene(kTwoJoints, R"("objectives": [{"type": "markers", "file": "t.csv",
                                      "bind_bodies": [[4, 0], [4, 1]]}])"),
       {"$.objectives[0].bind_bodies[1][0]: found 4; expected each marker bound once (marker 4 is already at "
        "$.objectives[0].bind_bodies[0])"}},
      {"markers bound to nothing", joints_scene(kTwoJoints, R"("objectives": [{"type": "markers", "file": "t.csv"}])"),
       {"$.objectives[0]: missing key 'bind'; expected a non-empty array of [marker, particle] pairs"}},
      {"markers with empty bind_bodies", joints_scene(kTwoJoints, R"("objectives": [{"type": "markers", "file": "t.csv", "bind_bodies": []}])"),
       {"$.objectives[0].bind_bodies: found an empty array; expected a non-empty array of [marker, body] pairs"}},
      {"bind_bodies entry not a pair", joints_scene(kTwoJoints, R"("objectives": [{"type": "markers", "file": "t.csv", "bind_bodies": [[0, 1, 2]]}])"),
       {"$.objectives[0].bind_bodies[0]: found an array of 3 values; expected a pair [marker, body]"}},

      // Optimizer
      {"camera looking at itself", scene_with(R"("camera": {"eye": [1, 2, 3], "target": [1, 2, 3]})"),
       {"$.camera.target: found an array of 3 values; expected a point other than the camera position"}},
      {"camera fov of 180", scene_with(R"("camera": {"eye": [1, 2, 3], "target": [0, 0, 0], "fov_degrees": 180})"),
       {"$.camera.fov_degrees: found 180; expected a vertical field of view in degrees, in (0, 180)"}},
      {"camera without target", scene_with(R"("camera": {"eye": [1, 2, 3]})"),
       {"$.camera: missing key 'target'"}},
      {"unknown method", scene_with(R"("optimizer": {"method": "sgd"})"),
       {"$.optimizer.method: found \"sgd\"; expected one of: gd, adam, lbfgs, cmaes"}},
      {"beta2 of 1", scene_with(R"("optimizer": {"beta2": 1})"), {"$.optimizer.beta2: found 1; expected a number in [0, 1)"}},
      {"optimizer key typo", scene_with(R"("optimizer": {"iteration": 5})"),
       {"$.optimizer.iteration: unknown key 'iteration' in optimizer (did you mean 'iterations'?)"}},
      {"negative iterations", scene_with(R"("optimizer": {"iterations": -3})"),
       {"$.optimizer.iterations: found -3; expected an integer in [0, 2147483647]"}},
      {"negative population", scene_with(R"("optimizer": {"method": "cmaes", "population": -4})"),
       {"$.optimizer.population: found -4; expected 0 (the default) or an integer >= 2"}},
      {"population of one", scene_with(R"("optimizer": {"method": "cmaes", "population": 1})"),
       {"$.optimizer.population: found 1; expected 0 (the default) or an integer >= 2"}},
      {"zero sigma", scene_with(R"("optimizer": {"method": "cmaes", "sigma": 0})"),
       {"$.optimizer.sigma: found 0; expected a number > 0"}},
      {"negative sigma", scene_with(R"("optimizer": {"sigma": -0.5})"),
       {"$.optimizer.sigma: found -0.5; expected a number > 0"}},
      {"negative seed", scene_with(R"("optimizer": {"seed": -1})"),
       {"$.optimizer.seed: found -1; expected an integer in [0, 2^64 - 1]"}},
      {"fractional seed", scene_with(R"("optimizer": {"seed": 2.5})"),
       {"$.optimizer.seed: found 2.5; expected an integer in [0, 2^64 - 1]"}},
  };
  // clang-format on
}

}  // namespace

// The text of the first ```<language> block after `heading` in a Markdown file.
std::string code_block_after(const std::string& markdown, std::string_view heading, std::string_view language) {
  const std::size_t section = markdown.find(heading);
  REQUIRE(section != std::string::npos);
  const std::string fence = "```" + std::string(language) + "\n";
  const std::size_t start = markdown.find(fence, section);
  REQUIRE(start != std::string::npos);
  const std::size_t end = markdown.find("```", start + fence.size());
  REQUIRE(end != std::string::npos);
  return markdown.substr(start + fence.size(), end - start - fence.size());
}

TEST_CASE("scene: malformed input gives an error naming the file, the JSON path and what was expected") {
  const std::vector<BadInput> inputs = bad_inputs();
  CHECK(inputs.size() >= 25);
  for (const BadInput& input : inputs) {
    const std::string name = input.name;
    CAPTURE(name);
    Result<Scene> result = parse_scene(input.text, "scenes/bad.json");
    REQUIRE_FALSE(result.ok());
    const std::string& message = result.error().message;
    CAPTURE(message);
    CHECK(message.starts_with("scenes/bad.json: "));
    for (const std::string& expected : input.expected) CHECK(message.find(expected) != std::string::npos);
  }
}

TEST_CASE("scene: a section's column parameters read from the facts table, as one value for all or one row each") {
  // A vector column: one [x, y, z] for every particle, or a row per particle.
  Result<Scene> all =
      parse_scene(scene_from(kSimulation, R"({"position": [[0,0,0],[1,0,0]], "velocity": [1, 2, 3]})"), "");
  REQUIRE(all.ok());
  CHECK(all.value().params[ParamId::InitialVelocity].value == std::vector<double>{1, 2, 3, 1, 2, 3});
  Result<Scene> each =
      parse_scene(scene_from(kSimulation, R"({"position": [[0,0,0],[1,0,0]], "force": [[1, 2, 3], [4, 5, 6]]})"), "");
  REQUIRE(each.ok());
  CHECK(each.value().params[ParamId::ExternalForce].value == std::vector<double>{1, 2, 3, 4, 5, 6});
  // The range comes from the table too, and the message names the entry.
  const std::string message =
      error_of(parse_scene(scene_from(kSimulation, R"({"position": [[0,0,0],[1,0,0]], "mass": [1, 0]})"), ""));
  CHECK(message.find("$.particles.mass[1]: found 0; expected a mass > 0 (kg)") != std::string::npos);
  // A column written only when set (the radius) is left out while every value is its default.
  TempDir dir;
  const fs::path path = dir.path / "saved.json";
  Scene scene = all.value();
  const auto saved_text = [&] {
    REQUIRE(save_scene(scene, path).ok());
    std::ifstream in(path);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  CHECK(saved_text().find("\"radius\"") == std::string::npos);
  scene.params[ParamId::ParticleRadius].value = {0.0, 0.25};
  CHECK(saved_text().find("\"radius\"") != std::string::npos);
}

TEST_CASE("scene: a UTF-8 byte order mark is accepted") { CHECK(parse_scene("\xEF\xBB\xBF" + scene_with(), "").ok()); }

TEST_CASE("scene: text without a source path is called <scene> in errors") {
  const std::string message = error_of(parse_scene("{", ""));
  CHECK(message.starts_with("<scene>: line 1, column 1: JSON syntax error: unexpected end of input"));
}

TEST_CASE("scene: a complete scene parses with every field as given") {
  Result<Scene> loaded = load_scene(data_dir() / "scenes" / "complete.json");
  REQUIRE_MESSAGE(loaded.ok(), (loaded.ok() ? "" : loaded.error().message));
  const Scene& s = *loaded;
  const ParameterSet& p = s.params;

  CHECK(s.name == "walker");
  CHECK(s.description.starts_with("Four particles"));
  CHECK(s.source == data_dir() / "scenes" / "complete.json");
  CHECK(s.settings.dt == 0.002);
  CHECK(s.settings.steps == 20);
  CHECK(s.settings.checkpoint_every == 5);
  CHECK(p[ParamId::Gravity].value == std::vector<double>{0, -9.5, 0.25});
  CHECK(p[ParamId::Drag].value == std::vector<double>{0.1});
  CHECK(s.settings.ground.enabled);
  CHECK(s.settings.ground.height == -0.5);
  CHECK(p[ParamId::GroundStiffness].value == std::vector<double>{20000});
  CHECK(s.settings.ground.damping == 3);
  CHECK(p[ParamId::Friction].value == std::vector<double>{0.8});
  CHECK(s.settings.ground.contact_smoothing == 0.002);
  CHECK(s.settings.ground.friction_smoothing == 0.05);

  CHECK(s.particle_count() == 4);
  CHECK(p[ParamId::InitialPosition].value == std::vector<double>{0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0});
  CHECK(p[ParamId::InitialVelocity].value == std::vector<double>{0.5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -0.5});
  CHECK(p[ParamId::Mass].value == std::vector<double>{1, 2, 3, 4});
  CHECK(s.pinned == std::vector<unsigned char>{0, 0, 0, 1});
  CHECK(p[ParamId::ExternalForce].value == std::vector<double>{0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0});

  CHECK(s.spring_a == std::vector<int>{0, 1, 3, 2, 0});
  CHECK(s.spring_b == std::vector<int>{1, 3, 2, 0, 3});
  CHECK(p[ParamId::Stiffness].value == std::vector<double>{100, 200, 300, 400, 500});
  CHECK(p[ParamId::Damping].value == std::vector<double>(5, 0.5));
  CHECK(p[ParamId::RestLength].value == std::vector<double>{1, 1, 1, 1, 1.5});
  CHECK(s.spring_channel == std::vector<int>{0, -1, 1, -1, 0});
  CHECK(s.actuation == std::vector<double>{0.1, 0, 0.2, 0, 0.3});
  CHECK(s.channels == 2);
  CHECK(p[ParamId::Controls].rows == 20);
  CHECK(p[ParamId::Controls].cols == 2);
  CHECK(p[ParamId::Controls].value == std::vector<double>(40, 0.25));

  CHECK(p[ParamId::Controls].optimize);
  CHECK(p[ParamId::Controls].lower == -1);
  CHECK(p[ParamId::Controls].upper == 1);
  CHECK_FALSE(p[ParamId::Mass].optimize);
  CHECK(p[ParamId::Mass].lower == 0.1);
  CHECK(std::isinf(p[ParamId::Mass].upper));
  CHECK(p[ParamId::InitialVelocity].optimize);
  CHECK_FALSE(p[ParamId::Stiffness].optimize);
  for (const Parameter& param : p.items) {
    CHECK(param.grad.size() == param.value.size());
    CHECK(param.size() == static_cast<int>(param.value.size()));
  }

  REQUIRE(s.objectives.size() == 6);
  const Objective& target = s.objectives[0];
  CHECK(target.type == ObjectiveType::Target);
  CHECK(target.particles == std::vector<int>{0, 1});
  CHECK(target.target == std::vector<double>{2, 0, 0});
  CHECK(target.step == 10);
  CHECK(target.weight == 2);

  const Objective& positions = s.objectives[1];
  CHECK(positions.type == ObjectiveType::Positions);
  CHECK(positions.particles == std::vector<int>{2});
  CHECK(positions.target == std::vector<double>{0, 1.5, 0});  // initial (0, 1, 0) + offset
  CHECK(positions.step == -1);
  CHECK(positions.weight == 0.5);

  const Objective& markers = s.objectives[2];
  CHECK(markers.type == ObjectiveType::Markers);
  CHECK(markers.marker_file == fs::path("../markers/walk.csv"));
  CHECK(markers.steps_per_frame == 5);
  CHECK(markers.bind == std::vector<std::pair<int, int>>{{7, 0}, {8, 1}});
  CHECK(markers.weight == 3);
  REQUIRE(markers.samples.size() == 4);  // marker 9 is not bound, so ignored
  CHECK(markers.samples[3].frame == 4);
  CHECK(markers.samples[3].marker == 8);
  CHECK(markers.samples[3].position[0] == 1.5);
  CHECK(markers.samples[3].position[1] == 0.25);
  CHECK(markers.samples[3].position[2] == -1e-3);

  const Objective& velocity = s.objectives[3];
  CHECK(velocity.type == ObjectiveType::Velocity);
  CHECK(velocity.target == std::vector<double>{1, 0, 0});
  CHECK(velocity.step == -1);
  CHECK(velocity.weight == 1);

  CHECK(s.objectives[4].type == ObjectiveType::Effort);
  CHECK(s.objectives[4].weight == 0.001);

  const Objective& travel = s.objectives[5];
  CHECK(travel.type == ObjectiveType::Travel);
  CHECK(travel.particles == std::vector<int>{0, 1, 2});
  CHECK(travel.direction[0] == doctest::Approx(0.6));
  CHECK(travel.direction[1] == 0);
  CHECK(travel.direction[2] == doctest::Approx(0.8));
  CHECK(travel.step == 20);

  const OptimizerSettings& o = s.optimizer;
  CHECK(o.method == OptimizerMethod::LBFGS);
  CHECK(o.iterations == 50);
  CHECK(o.learning_rate == 0.05);
  CHECK(o.momentum == 0.5);
  CHECK(o.beta1 == 0.8);
  CHECK(o.beta2 == 0.99);
  CHECK(o.epsilon == 1e-6);
  CHECK(o.history == 7);
  CHECK(o.clip == 10);
  CHECK(o.tolerance == 1e-9);
  CHECK(o.loss_tolerance == 1e-12);
}

TEST_CASE("scene: defaults apply to everything left out") {
  Result<Scene> parsed = parse_scene(scene_with(), "somewhere/projectile.json");
  REQUIRE_MESSAGE(parsed.ok(), (parsed.ok() ? "" : parsed.error().message));
  const Scene& s = *parsed;
  const ParameterSet& p = s.params;
  CHECK(s.name == "projectile");
  CHECK(s.description.empty());
  CHECK(s.settings.checkpoint_every == 0);
  CHECK_FALSE(s.settings.ground.enabled);
  CHECK(p[ParamId::Gravity].value == std::vector<double>{0, -9.81, 0});
  CHECK(p[ParamId::Drag].value == std::vector<double>{0});
  CHECK(p[ParamId::GroundStiffness].value == std::vector<double>{1e4});
  CHECK(p[ParamId::Friction].value == std::vector<double>{0.5});
  CHECK(p[ParamId::InitialVelocity].value == std::vector<double>(12, 0.0));
  CHECK(p[ParamId::Mass].value == std::vector<double>(4, 1.0));
  CHECK(p[ParamId::ExternalForce].value == std::vector<double>(12, 0.0));
  CHECK(s.pinned == std::vector<unsigned char>(4, 0));
  CHECK(s.spring_count() == 0);
  CHECK(s.channels == 0);
  CHECK(p[ParamId::Controls].rows == 10);
  CHECK(p[ParamId::Controls].cols == 0);
  CHECK(s.objectives.empty());
  for (const Parameter& param : p.items) {
    CHECK_FALSE(param.optimize);
    CHECK(std::isinf(param.lower));
    CHECK(std::isinf(param.upper));
  }
  CHECK(s.optimizer.method == OptimizerMethod::Adam);
  CHECK(s.optimizer.iterations == 100);

  Result<Scene> ground = parse_scene(scene_from(R"({"dt": 0.01, "steps": 10, "ground": {}})", kParticles,
                                                R"("springs": {"pairs": [[0, 1]]}, "controls": {"channels": 3})"),
                                     "");
  REQUIRE(ground.ok());
  CHECK(ground->name == "untitled");
  CHECK(ground->settings.ground.enabled);
  CHECK(ground->settings.ground.height == 0);
  CHECK(ground->settings.ground.damping == 0);
  CHECK(ground->settings.ground.contact_smoothing == 1e-3);
  CHECK(ground->settings.ground.friction_smoothing == 1e-2);
  CHECK(ground->params[ParamId::Stiffness].value == std::vector<double>{100});
  CHECK(ground->params[ParamId::Damping].value == std::vector<double>{0});
  CHECK(ground->spring_channel == std::vector<int>{-1});
  CHECK(ground->actuation == std::vector<double>{0});
  CHECK(ground->params[ParamId::Controls].value == std::vector<double>(30, 0.0));
}

TEST_CASE("scene: CMA-ES settings parse, and default when left out") {
  const std::string text =
      scene_with(R"("optimizer": {"method": "cmaes", "population": 16, "sigma": 0.05, "seed": 18446744073709551615})");
  Result<Scene> parsed = parse_scene(text, "cmaes.json");
  REQUIRE_MESSAGE(parsed.ok(), (parsed.ok() ? "" : parsed.error().message));
  CHECK(parsed->optimizer.method == OptimizerMethod::CMAES);
  CHECK(parsed->optimizer.population == 16);
  CHECK(parsed->optimizer.sigma == 0.05);
  CHECK(parsed->optimizer.seed == 18446744073709551615ull);

  Result<Scene> defaults = parse_scene(scene_with(R"("optimizer": {"method": "cmaes"})"), "cmaes.json");
  REQUIRE(defaults.ok());
  CHECK(defaults->optimizer.population == 0);
  CHECK(defaults->optimizer.sigma == 0.3);
  CHECK(defaults->optimizer.seed == 1);
}

TEST_CASE("scene: rest lengths default to the initial distances") {
  Result<Scene> parsed = parse_scene(scene_from(kSimulation, R"({"position": [[0, 0, 0], [3, 4, 0], [3, 4, 12]]})",
                                                R"("springs": {"pairs": [[0, 1], [1, 2], [2, 0]], "stiffness": 50})"),
                                     "");
  REQUIRE_MESSAGE(parsed.ok(), (parsed.ok() ? "" : parsed.error().message));
  CHECK(parsed->params[ParamId::RestLength].value == std::vector<double>{5, 12, 13});
  CHECK(parsed->params[ParamId::Stiffness].value == std::vector<double>{50, 50, 50});
}

TEST_CASE("scene: a positions offset expands to one target per particle, all particles by default") {
  Result<Scene> parsed = parse_scene(scene_with(R"("objectives": [{"type": "positions", "offset": [1, 2, 3]},
                                   {"type": "positions", "particles": [3, 1], "targets": [[7, 8, 9], [4, 5, 6]]}])"),
                                     "");
  REQUIRE_MESSAGE(parsed.ok(), (parsed.ok() ? "" : parsed.error().message));
  const Objective& all = parsed->objectives[0];
  CHECK(all.particles == std::vector<int>{0, 1, 2, 3});
  CHECK(all.target == std::vector<double>{1, 2, 3, 2, 2, 3, 1, 3, 3, 1, 2, 4});
  const Objective& listed = parsed->objectives[1];
  CHECK(listed.particles == std::vector<int>{3, 1});
  CHECK(listed.target == std::vector<double>{7, 8, 9, 4, 5, 6});
}

TEST_CASE("scene: marker tracks load relative to the scene file, with errors naming file and line") {
  TempDir dir;
  const auto scene_using = [&](std::string_view csv, std::string_view objective_extra = "") {
    dir.write("tracks/track.csv", csv);
    return dir.write("scene.json", scene_with(R"("objectives": [{"type": "markers", "file": "tracks/track.csv",
                                   "bind": [[0, 2], [1, 3]], "steps_per_frame": 2)" +
                                              std::string(objective_extra) + "}]"));
  };

  SUBCASE("valid, with CRLF line ends, spaces and blank lines at the end") {
    Result<Scene> loaded = load_scene(
        scene_using("frame,marker,x,y,z \r\n0,0,1,2,3\r\n0, 1, 4, 5, 6\r\n5,1,+7,-8e-1,9\r\n2,5,0,0,0\r\n\r\n\n"));
    REQUIRE_MESSAGE(loaded.ok(), (loaded.ok() ? "" : loaded.error().message));
    const Objective& o = loaded->objectives.at(0);
    CHECK(o.marker_file == fs::path("tracks/track.csv"));
    CHECK(o.steps_per_frame == 2);
    REQUIRE(o.samples.size() == 3);  // marker 5 is not bound
    CHECK(o.samples[2].frame == 5);
    CHECK(o.samples[2].marker == 1);
    CHECK(o.samples[2].position[0] == 7);
    CHECK(o.samples[2].position[1] == -0.8);
    CHECK(o.samples[2].position[2] == 9);
  }
  SUBCASE("a row with four values") {
    const std::string message = error_of(load_scene(scene_using("frame,marker,x,y,z\n0,0,1,2,3\n0,1,4,5\n")));
    CHECK(message.find("scene.json: $.objectives[0].file: ") != std::string::npos);
    CHECK(message.find("track.csv:3: expected 5 comma-separated values, found 4") != std::string::npos);
  }
  SUBCASE("a bad header") {
    const std::string message = error_of(load_scene(scene_using("frame;marker;x;y;z\n")));
    CHECK(message.find("track.csv:1: found the header 'frame;marker;x;y;z'; expected exactly 'frame,marker,x,y,z'") !=
          std::string::npos);
  }
  SUBCASE("an empty marker file") {
    const std::string message = error_of(load_scene(scene_using("")));
    CHECK(message.find("track.csv:1: found an empty file; expected the header") != std::string::npos);
  }
  SUBCASE("NaN in a coordinate") {
    const std::string message = error_of(load_scene(scene_using("frame,marker,x,y,z\n0,0,1,nan,3\n")));
    CHECK(message.find("track.csv:2: column 'y': found 'nan'; expected a finite number") != std::string::npos);
  }
  SUBCASE("a fractional frame") {
    const std::string message = error_of(load_scene(scene_using("frame,marker,x,y,z\n1.5,0,1,2,3\n")));
    CHECK(message.find("track.csv:2: column 'frame': found '1.5'; expected an integer") != std::string::npos);
  }
  SUBCASE("the same frame and marker twice") {
    const std::string message =
        error_of(load_scene(scene_using("frame,marker,x,y,z\n0,0,1,2,3\n0,1,1,2,3\n0,0,1,2,3\n")));
    CHECK(message.find("track.csv:4: found frame 0 marker 0 again (first on line 2)") != std::string::npos);
  }
  SUBCASE("a blank line before more rows") {
    const std::string message = error_of(load_scene(scene_using("frame,marker,x,y,z\n0,0,1,2,3\n\n0,1,1,2,3\n")));
    CHECK(message.find("track.csv:3: found a blank line followed by more rows") != std::string::npos);
  }
  SUBCASE("a frame past the last step") {
    const std::string message = error_of(load_scene(scene_using("frame,marker,x,y,z\n0,0,1,2,3\n6,1,1,2,3\n")));
    CHECK(message.find("track.csv:3: found frame 6 (step 12 at 2 steps per frame); expected a frame in [0, 5]") !=
          std::string::npos);
  }
  SUBCASE("a bound marker missing from the file") {
    const std::string message = error_of(load_scene(scene_using("frame,marker,x,y,z\n0,0,1,2,3\n")));
    CHECK(message.find("$.objectives[0].bind[1][0]: found 1; expected a marker id that occurs in") !=
          std::string::npos);
  }
  SUBCASE("the marker path is a directory") {
    fs::create_directories(dir.path / "tracks" / "track.csv");
    const fs::path scene = dir.write("scene.json", scene_with(R"("objectives": [{"type": "markers",
                                     "file": "tracks/track.csv", "bind": [[0, 2]]}])"));
    const std::string message = error_of(load_scene(scene));
    CHECK(message.find("track.csv: is a directory; expected a marker CSV file") != std::string::npos);
  }
}

TEST_CASE("scene: marker CSV rows parse on their own") {
  const Result<MarkerTrack> track = parse_marker_csv(
      "\xEF\xBB\xBF"
      "frame,marker,x,y,z\n3,-1,0.5,1e2,-2\n",
      "m.csv");
  REQUIRE(track.ok());
  REQUIRE(track->samples.size() == 1);
  CHECK(track->samples[0].frame == 3);
  CHECK(track->samples[0].marker == -1);
  CHECK(track->samples[0].position[1] == 100);
  CHECK(track->lines == std::vector<int>{2});

  const Result<MarkerTrack> huge = parse_marker_csv("frame,marker,x,y,z\n0,0,1e999,0,0\n", "m.csv");
  REQUIRE_FALSE(huge.ok());
  CHECK(huge.error().message == "m.csv:2: column 'x': found '1e999'; expected a finite number");

  const Result<MarkerTrack> binary = parse_marker_csv("frame,marker,x,y,z\n\x01,\xff,0,0,0\n", "m.csv");
  REQUIRE_FALSE(binary.ok());
  CHECK(binary.error().message == "m.csv:2: column 'frame': found '\\x01'; expected an integer");
}

// File > New's scene: nothing in it. It loads, simulates (nothing moves, no loss), saves
// without a particles section and loads again.
TEST_CASE("scene: an empty scene is valid: it loads, simulates, saves and loads again") {
  Result<Scene> empty =
      parse_scene(R"({"format": "nudge-scene", "version": 1, "simulation": {"dt": 0.01, "steps": 10}})", "empty.json");
  REQUIRE_MESSAGE(empty.ok(), (empty.ok() ? "" : empty.error().message));
  CHECK(empty->particle_count() == 0);
  CHECK(empty->bodies.empty());
  Result<std::unique_ptr<Simulator>> simulator = Simulator::create(*empty, {.device = Device::Cpu});
  REQUIRE_MESSAGE(simulator.ok(), (simulator.ok() ? "" : simulator.error().message));
  ParameterSet params = empty->params;
  const Result<Evaluation> evaluated = (*simulator)->gradient(params);
  REQUIRE_MESSAGE(evaluated.ok(), (evaluated.ok() ? "" : evaluated.error().message));
  CHECK(evaluated->loss == 0);
  const Result<Trajectory> trajectory = (*simulator)->trajectory(params);
  REQUIRE_MESSAGE(trajectory.ok(), (trajectory.ok() ? "" : trajectory.error().message));
  TempDir dir;
  const fs::path saved = dir.path / "empty.json";
  REQUIRE(save_scene(*empty, saved).ok());
  Result<Scene> again = load_scene(saved);
  REQUIRE_MESSAGE(again.ok(), (again.ok() ? "" : again.error().message));
  check_same(*empty, *again);
}

TEST_CASE("scene: load, save and load again gives the same scene") {
  TempDir dir;
  const fs::path original = copy_complete_scene(dir);
  Result<Scene> first = load_scene(original);
  REQUIRE_MESSAGE(first.ok(), (first.ok() ? "" : first.error().message));

  const fs::path saved = dir.path / "scenes" / "saved.json";
  const Status status = save_scene(*first, saved);
  REQUIRE_MESSAGE(status.ok(), (status.ok() ? "" : status.error().message));
  Result<Scene> second = load_scene(saved);
  REQUIRE_MESSAGE(second.ok(), (second.ok() ? "" : second.error().message));
  check_same(*first, *second);
  CHECK(second->source == saved);

  // Saving again over the saved file gives the same bytes: the output is stable.
  std::ifstream in(saved, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(text.find("\"targets\": [\n") != std::string::npos);  // positions written out, not as an offset
  CHECK(text.find("[0.0, 1.5, 0.0]") != std::string::npos);   // one row per line
  REQUIRE(save_scene(*second, saved).ok());
  std::ifstream again(saved, std::ios::binary);
  CHECK(std::string((std::istreambuf_iterator<char>(again)), std::istreambuf_iterator<char>()) == text);

  // Numbers that need all 17 digits survive.
  Scene tricky = *first;
  tricky.params[ParamId::Drag].value[0] = 0.1 + 0.2;
  tricky.params[ParamId::InitialPosition].value[4] = 1.0 / 3.0;
  tricky.params[ParamId::Mass].value[1] = 5e-324 * 1e300;
  tricky.settings.dt = std::nextafter(0.001, 1.0);
  tricky.optimizer.method = OptimizerMethod::CMAES;
  tricky.optimizer.population = 12;
  tricky.optimizer.sigma = 0.1 + 0.2;
  tricky.optimizer.seed = std::numeric_limits<std::uint64_t>::max();
  REQUIRE(save_scene(tricky, saved).ok());
  Result<Scene> third = load_scene(saved);
  REQUIRE(third.ok());
  check_same(tricky, *third);

  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir.path / "scenes"))
    names.push_back(entry.path().filename().string());
  CHECK(names.size() == 2);  // complete.json and saved.json, no temporary files
}

TEST_CASE("scene: joints, joint settings and joint controls parse as given, with defaults for the rest") {
  Result<Scene> parsed =
      parse_scene(joints_scene(R"({"name": "hip", "type": "hinge", "parent": -1, "child": 0, "anchor": [0, 1.2, 0],
                       "axis": [0, 0, 2], "limits": [-1.5, 1], "damping": 0.25, "collide": true},
                      {"type": "ball", "child": 1, "anchor": [0, 0.8, 0]},
                      {"type": "prismatic", "parent": 0, "child": 1, "anchor": [0, 0.7, 0], "axis": [3, 4, 0],
                       "limits": [-0.1, 0.2]},
                      {"type": "fixed", "parent": 1, "child": 0, "anchor": [0, 0.75, 0]},
                      {"type": "hinge", "child": 1, "anchor": [0, 0.5, 0], "axis": [1, 0, 0],
                       "limits": [-3.141592653589793, 3.141592653589793]})",
                               R"("joint_settings": {"stiffness": 2e4, "angular_damping": 0.5}, "joint_controls": 1.5,
                      "objectives": [{"type": "orientation", "bodies": [1, 0], "axis": [2, 0, 0], "weight": 3},
                                     {"type": "orientation", "bodies": [0]}],
                      "parameters": {"joint_anchor": {"optimize": true, "rows": [4, 1]}})"),
                  "");
  REQUIRE_MESSAGE(parsed.ok(), (parsed.ok() ? "" : parsed.error().message));
  const Scene& s = *parsed;
  const ParameterSet& p = s.params;
  REQUIRE(s.joint_count() == 5);

  const Joint& hip = s.joints[0];
  CHECK(hip.name == "hip");
  CHECK(hip.type == JointType::Hinge);
  CHECK(hip.parent == -1);
  CHECK(hip.child == 0);
  CHECK(hip.axis[0] == 0);
  CHECK(hip.axis[1] == 0);
  CHECK(hip.axis[2] == 1);  // normalised
  CHECK(hip.limited);
  CHECK(hip.lower == -1.5);
  CHECK(hip.upper == 1);
  CHECK(hip.collide);

  const Joint& ball = s.joints[1];
  CHECK(ball.name.empty());
  CHECK(ball.type == JointType::Ball);
  CHECK(ball.parent == -1);  // the world by default
  CHECK_FALSE(ball.limited);
  CHECK_FALSE(ball.collide);

  const Joint& slide = s.joints[2];
  CHECK(slide.type == JointType::Prismatic);
  CHECK(slide.parent == 0);
  CHECK(slide.axis[0] == doctest::Approx(0.6));
  CHECK(slide.axis[1] == doctest::Approx(0.8));
  CHECK(slide.axis[2] == 0);
  CHECK(slide.lower == -0.1);
  CHECK(slide.upper == 0.2);

  CHECK(s.joints[3].type == JointType::Fixed);
  CHECK_FALSE(s.joints[3].limited);
  CHECK(s.joints[4].lower == -3.141592653589793);  // the whole turn [-pi, pi] is a valid range
  CHECK(s.joints[4].upper == 3.141592653589793);

  CHECK(p[ParamId::JointAnchor].rows == 5);
  CHECK(p[ParamId::JointAnchor].cols == 3);
  CHECK(p[ParamId::JointAnchor].value == std::vector<double>{0, 1.2, 0, 0, 0.8, 0, 0, 0.7, 0, 0, 0.75, 0, 0, 0.5, 0});
  CHECK(p[ParamId::JointDamping].value == std::vector<double>{0.25, 0, 0, 0, 0});
  CHECK(p[ParamId::JointControl].rows == 10);
  CHECK(p[ParamId::JointControl].cols == 5);
  CHECK(p[ParamId::JointControl].value == std::vector<double>(50, 1.5));
  CHECK(p[ParamId::JointAnchor].optimize_rows == std::vector<int>{1, 4});  // sorted

  CHECK(s.joint_settings.stiffness == 2e4);
  CHECK(s.joint_settings.damping == 10);
  CHECK(s.joint_settings.angular_stiffness == 500);
  CHECK(s.joint_settings.angular_damping == 0.5);
  CHECK(s.joint_settings.limit_stiffness == 500);
  CHECK(s.contact.bodies);  // bodies collide with each other by default

  REQUIRE(s.objectives.size() == 2);
  const Objective& upright = s.objectives[0];
  CHECK(upright.type == ObjectiveType::Orientation);
  CHECK(upright.bodies == std::vector<int>{1, 0});
  CHECK(upright.axis[0] == 1);  // normalised
  CHECK(upright.axis[1] == 0);
  CHECK(upright.direction[0] == 0);  // [0, 1, 0] by default
  CHECK(upright.direction[1] == 1);
  CHECK(upright.direction[2] == 0);
  CHECK(upright.step == -1);
  CHECK(upright.weight == 3);
  CHECK(s.objectives[1].axis[1] == 1);  // [0, 1, 0] by default
  CHECK(s.objectives[1].weight == 1);

  // Controls per step and joint, row t for step t.
  std::string controls = "[";
  for (int t = 0; t < 10; ++t) controls += (t ? ", [" : "[") + std::to_string(t) + ", " + std::to_string(-t) + "]";
  Result<Scene> rows = parse_scene(joints_scene(kTwoJoints, "\"joint_controls\": " + controls + "]"), "");
  REQUIRE_MESSAGE(rows.ok(), (rows.ok() ? "" : rows.error().message));
  const std::vector<double>& u = rows->params[ParamId::JointControl].value;
  REQUIRE(u.size() == 20);
  CHECK(u[2 * 7] == 7);
  CHECK(u[2 * 7 + 1] == -7);
  CHECK(rows->params[ParamId::JointDamping].value == std::vector<double>{0, 0});
}

TEST_CASE("scene: joints, joint controls, body contact, orientation, bind_bodies and rows survive a save") {
  TempDir dir;
  fs::copy_file(data_dir() / "markers" / "walk.csv", dir.path / "walk.csv");
  std::string controls = "[";
  for (int t = 0; t < 10; ++t)
    controls += std::string(t ? ", " : "") + "[" + std::to_string(t) + ".25, -0.5, 0, " + std::to_string(t % 3) + "]";
  controls += "]";
  const fs::path original = dir.write(
      "scene.json",
      joints_scene(
          R"({"name": "shoulder", "type": "hinge", "child": 0, "anchor": [0, 1.2, 0], "axis": [0, 0, 3],
              "limits": [-2.5, 0.1], "damping": 0.05},
             {"type": "prismatic", "parent": 0, "child": 1, "anchor": [0, 0.8, 0], "axis": [1, 1, 0],
              "limits": [-0.2, 0.3], "damping": 2, "collide": true},
             {"type": "fixed", "parent": 1, "child": 0, "anchor": [0, 0.7, 0], "axis": [0, 1, 0]},
             {"type": "ball", "parent": 0, "child": 1, "anchor": [0.1, 0.75, 0.2], "damping": 0.3333333333333333})",
          R"("joint_settings": {"stiffness": 30000, "damping": 7, "angular_stiffness": 40, "angular_damping": 0.02,
                                "limit_stiffness": 0},
             "joint_controls": )" +
              controls + R"(,
             "contact": {"bodies": false, "stiffness": 5000, "friction": 0.25},
             "parameters": {"body_position": {"optimize": true, "rows": [1]},
                            "joint_anchor": {"optimize": true, "rows": [3, 0], "lower": -2, "upper": 3},
                            "joint_control": {"optimize": true, "rows": [9, 2], "lower": -40, "upper": 40},
                            "joint_damping": {"optimize": true, "lower": 0}},
             "objectives": [{"type": "orientation", "bodies": [1], "axis": [0, 0, 3], "direction": [1, 1, 0],
                             "step": 8, "weight": 0.5},
                            {"type": "markers", "file": "walk.csv", "bind": [[7, 2]], "bind_bodies": [[9, 1], [8, 0]],
                             "steps_per_frame": 2},
                            {"type": "effort", "weight": 0.001}])"));
  Result<Scene> first = load_scene(original);
  REQUIRE_MESSAGE(first.ok(), (first.ok() ? "" : first.error().message));
  CHECK(first->params[ParamId::JointControl].value[4 * 9 + 3] == 0);
  CHECK(first->params[ParamId::JointControl].value[4 * 8 + 3] == 2);
  CHECK_FALSE(first->contact.bodies);
  CHECK(first->objectives[1].bind_bodies == std::vector<std::pair<int, int>>{{9, 1}, {8, 0}});
  CHECK(first->objectives[1].samples.size() == 5);  // markers 7, 8 and 9 are all bound

  const fs::path saved = dir.path / "saved.json";
  const Status status = save_scene(*first, saved);
  REQUIRE_MESSAGE(status.ok(), (status.ok() ? "" : status.error().message));
  Result<Scene> second = load_scene(saved);
  REQUIRE_MESSAGE(second.ok(), (second.ok() ? "" : second.error().message));
  check_same(*first, *second);

  const fs::path again = dir.path / "again.json";
  REQUIRE(save_scene(*second, again).ok());
  const auto text_of = [](const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  };
  const std::string text = text_of(saved);
  CHECK(text_of(again) == text);  // byte for byte
  for (const char* written :
       {"\"joints\": [", "\"joint_settings\": {", "\"joint_controls\": [", "\"bodies\": false",
        "\"type\": \"orientation\"", "\"bind_bodies\": [", "\"rows\": [0, 3]", "\"rows\": [2, 9]"}) {
    CAPTURE(written);
    CHECK(text.find(written) != std::string::npos);
  }
}

TEST_CASE("scene: check_scene names the broken invariant of joints built in code") {
  Scene scene;
  scene.settings.steps = 5;
  scene.bodies.resize(2);
  Joint hinge;
  hinge.type = JointType::Hinge;
  hinge.parent = 0;
  hinge.child = 1;
  scene.joints = {hinge};
  shape_parameters(scene);
  REQUIRE(check_scene(scene).ok());

  const auto message_after = [&](auto&& change) {
    Scene copy = scene;
    change(copy);
    shape_parameters(copy);
    const Status status = check_scene(copy);
    REQUIRE_FALSE(status.ok());
    return status.error().message;
  };
  CHECK(message_after([](Scene& s) { s.joints[0].child = 0; }) ==
        "joints[0].child: found 0; expected a body other than the parent");
  CHECK(message_after([](Scene& s) { s.joints[0].child = 2; }) ==
        "joints[0].child: found 2; expected a body index in [0, 2)");
  CHECK(message_after([](Scene& s) { s.joints[0].parent = -2; }) ==
        "joints[0].parent: found -2; expected -1 (the world) or a body index in [0, 2)");
  CHECK(message_after([](Scene& s) { s.joints[0].axis[2] = 2; }) ==
        "joints[0].axis: found 2; expected a unit vector (length 1)");
  CHECK(message_after([](Scene& s) {
          s.joints[0].type = JointType::Ball;
          s.joints[0].limited = true;
        }) == "joints[0].limits: a ball joint has no free direction to limit");
  CHECK(message_after([](Scene& s) {
          s.joints[0].limited = true;
          s.joints[0].lower = 1, s.joints[0].upper = -1;
        }) == "joints[0].limits: found [1, -1]; expected [lower, upper] with lower <= upper");
  CHECK(message_after([](Scene& s) {
          s.joints[0].limited = true;
          s.joints[0].lower = -4, s.joints[0].upper = 0;
        }) == "joints[0].limits: found [-4, 0]; expected turns within [-pi, pi] (rad)");
  CHECK(message_after([](Scene& s) { s.params[ParamId::JointDamping].value = {-1}; }) ==
        "joints[0].damping: found -1; expected a damping >= 0");
  CHECK(message_after([](Scene& s) { s.params[ParamId::JointAnchor].value[1] = INFINITY; }) ==
        "joints[0].anchor[1]: found inf; expected a finite position in the world at the start (m)");
  CHECK(message_after([](Scene& s) { s.params[ParamId::JointControl].value[3] = NAN; }) ==
        "joint_controls[3]: found nan; expected a finite torque (N m) or force (N)");
  CHECK(message_after([](Scene& s) { s.joint_settings.stiffness = 0; }) ==
        "joint_settings.stiffness: found 0; expected a stiffness > 0 (N/m)");
  CHECK(message_after([](Scene& s) { s.joint_settings.limit_stiffness = -1; }) ==
        "joint_settings.limit_stiffness: found -1; expected a stiffness >= 0");
  CHECK(message_after([](Scene& s) {
          s.settings.steps = 10'000'000;
          s.joints.resize(11, s.joints[0]);
        }) == "joint_controls: found 10000000 steps x 11 joints; expected at most 100000000 joint control values");
  CHECK(message_after([](Scene& s) {
          Parameter& anchor = s.params[ParamId::BodyPosition];
          anchor.optimize = true;
          anchor.optimize_rows = {1, 0};
        }) == "parameters.body_position.rows[1]: found 0; expected ascending distinct row indices in [0, 2)");
  CHECK(message_after([](Scene& s) {
          Objective o;
          o.type = ObjectiveType::Orientation;
          s.objectives.push_back(o);
        }) == "objectives[0].bodies: found none; expected the bodies whose axis to turn");
  CHECK(message_after([](Scene& s) {
          Objective o;
          o.type = ObjectiveType::Orientation;
          o.bodies = {0};
          o.axis[1] = 0;
          s.objectives.push_back(o);
        }) == "objectives[0].axis: found 0; expected a unit vector (length 1)");
  CHECK(message_after([](Scene& s) {
          Objective o;
          o.type = ObjectiveType::Markers;
          o.bind_bodies = {{0, 2}};
          o.samples = {{0, 0, {0, 0, 0}}};
          s.objectives.push_back(o);
        }) == "objectives[0].bind_bodies[0][1]: found 2; expected a body index in [0, 2)");
  CHECK(message_after([](Scene& s) {
          Objective o;
          o.type = ObjectiveType::Markers;
          o.bind_bodies = {{0, 1}, {0, 0}};
          o.samples = {{0, 0, {0, 0, 0}}};
          s.objectives.push_back(o);
        }) == "objectives[0].bind_bodies[1][0]: found 0; expected each marker bound once");
}

TEST_CASE("scene: saving fails cleanly and leaves no temporary file") {
  TempDir dir;
  Result<Scene> scene = parse_scene(scene_with(), "");
  REQUIRE(scene.ok());

  SUBCASE("into a missing folder") {
    const fs::path target = dir.path / "missing" / "folder" / "scene.json";
    const Status status = save_scene(*scene, target);
    REQUIRE_FALSE(status.ok());
    CHECK(status.error().message.starts_with(target.string() + ": cannot write"));
    CHECK_FALSE(fs::exists(dir.path / "missing"));
    CHECK(dir.entries().empty());
  }
  SUBCASE("over a directory") {
    fs::create_directories(dir.path / "taken.json" / "inside");
    const Status status = save_scene(*scene, dir.path / "taken.json");
    REQUIRE_FALSE(status.ok());
    CHECK(status.error().message.starts_with((dir.path / "taken.json").string() + ": cannot write"));
    CHECK(dir.entries() == std::vector<std::string>{"taken.json"});
  }
  SUBCASE("a markers objective needs a file to refer to") {
    Scene with_markers = *scene;
    Objective o;
    o.type = ObjectiveType::Markers;
    o.bind = {{0, 1}};
    o.samples = {{0, 0, {0, 0, 0}}};
    with_markers.objectives.push_back(o);
    REQUIRE(check_scene(with_markers).ok());
    const Status status = save_scene(with_markers, dir.path / "scene.json");
    REQUIRE_FALSE(status.ok());
    CHECK(status.error().message.find("objectives[0] is a markers objective without a marker_file") !=
          std::string::npos);
    CHECK(dir.entries().empty());
  }
  SUBCASE("an invalid scene is refused and an existing file is kept") {
    const fs::path target = dir.write("scene.json", "keep me");
    Scene broken = *scene;
    broken.params[ParamId::Mass].value[0] = std::nan("");
    const Status status = save_scene(broken, target);
    REQUIRE_FALSE(status.ok());
    CHECK(status.error().message.find("particles.mass[0]: found nan; expected a mass > 0 (kg)") != std::string::npos);
    std::ifstream in(target);
    std::string text;
    std::getline(in, text);
    CHECK(text == "keep me");
    CHECK(dir.entries() == std::vector<std::string>{"scene.json"});
  }
}

TEST_CASE("scene: unreadable paths and hostile files fail cleanly") {
  TempDir dir;
  SUBCASE("a directory") {
    const std::string message = error_of(load_scene(dir.path));
    CHECK(message == dir.path.string() + ": is a directory; expected a scene file (.json)");
  }
  SUBCASE("a missing path") {
    const std::string message = error_of(load_scene(dir.path / "nope.json"));
    CHECK(message == (dir.path / "nope.json").string() + ": no such file");
  }
  SUBCASE("an empty file") {
    const fs::path file = dir.write("empty.json", "");
    CHECK(error_of(load_scene(file)).find("empty.json: the file is empty") != std::string::npos);
  }
  SUBCASE("binary bytes") {
    std::string bytes;
    for (int i = 0; i < 4096; ++i) bytes += static_cast<char>((i * 7919) & 0xFF);
    const fs::path file = dir.write("binary.json", bytes);
    CHECK(error_of(load_scene(file)).find("binary.json: line 1, column 1: JSON syntax error") != std::string::npos);
  }
  SUBCASE("100000 nested arrays") {
    const fs::path file = dir.write("deep.json", std::string(100000, '[') + std::string(100000, ']'));
    CHECK(error_of(load_scene(file)).find("deep.json: line 1, column 65: found more than 64 nested") !=
          std::string::npos);
  }
  SUBCASE("100000 nested objects inside a string-laden scene") {
    std::string text = R"({"format": "nudge-scene", "description": "[[[[{{{{ not nesting", "x": )";
    for (int i = 0; i < 100000; ++i) text += R"({"a": )";
    const fs::path file = dir.write("deep.json", text);
    CHECK(error_of(load_scene(file)).find("more than 64 nested") != std::string::npos);
  }
  SUBCASE("a file over 256 MiB is refused before reading") {
    const fs::path file = dir.write("huge.json", "");
    fs::resize_file(file, (std::uintmax_t{256} << 20) + 1);  // sparse: costs no disk
    CHECK(error_of(load_scene(file)) == file.string() + ": the file is 256 MiB; expected at most 256 MiB");
  }
}

TEST_CASE("scene: shape_parameters gives every parameter its shape and default") {
  Scene scene;
  scene.settings.steps = 4;
  scene.channels = 2;
  scene.pinned = {0, 1, 0};
  scene.spring_a = {0, 1};
  scene.spring_b = {1, 2};
  scene.params[ParamId::InitialPosition].value = {0, 0, 0, 0, 2, 0, 0, 2, 1};
  scene.params[ParamId::Mass].value = {1, 2};  // wrong size: replaced by the default
  shape_parameters(scene);

  const ParameterSet& p = scene.params;
  for (int i = 0; i < kParamCount; ++i) CHECK(p.items[i].id == static_cast<ParamId>(i));
  CHECK(p[ParamId::InitialPosition].rows == 3);
  CHECK(p[ParamId::InitialPosition].cols == 3);
  CHECK(p[ParamId::InitialPosition].value == std::vector<double>{0, 0, 0, 0, 2, 0, 0, 2, 1});
  CHECK(p[ParamId::Mass].value == std::vector<double>{1, 1, 1});
  CHECK(p[ParamId::RestLength].value == std::vector<double>{2, 1});
  CHECK(p[ParamId::Stiffness].value == std::vector<double>{100, 100});
  CHECK(p[ParamId::Gravity].value == std::vector<double>{0, -9.81, 0});
  CHECK(p[ParamId::Controls].rows == 4);
  CHECK(p[ParamId::Controls].cols == 2);
  CHECK(p[ParamId::Controls].grad == std::vector<double>(8, 0.0));
  CHECK(scene.spring_channel == std::vector<int>{-1, -1});
  CHECK(scene.actuation == std::vector<double>{0, 0});
  CHECK(check_scene(scene).ok());
}

TEST_CASE("scene: check_scene names the broken invariant of a scene built in code") {
  Scene scene;
  scene.settings.steps = 5;
  scene.pinned = {0, 0, 0, 0, 0, 0};
  scene.params[ParamId::InitialPosition].value = {0, 0, 0, 1, 0, 0, 2, 0, 0, 3, 0, 0, 4, 0, 0, 5, 0, 0};
  scene.spring_a = {0, 1, 2, 3};
  scene.spring_b = {1, 2, 3, 4};
  shape_parameters(scene);
  REQUIRE(check_scene(scene).ok());

  const auto message_after = [&](auto&& change) {
    Scene copy = scene;
    change(copy);
    const Status status = check_scene(copy);
    REQUIRE_FALSE(status.ok());
    return status.error().message;
  };
  CHECK(message_after([](Scene& s) { s.spring_b[3] = 3; }) == "springs.pairs[3]: a spring joins particle 3 to itself");
  CHECK(message_after([](Scene& s) { s.spring_a[1] = 6; }) ==
        "springs.pairs[1][0]: found 6; expected a particle index in [0, 6)");
  CHECK(message_after([](Scene& s) { s.params[ParamId::Mass].value[2] = -1; }) ==
        "particles.mass[2]: found -1; expected a mass > 0 (kg)");
  CHECK(message_after([](Scene& s) { s.params[ParamId::InitialVelocity].value[4] = INFINITY; }) ==
        "particles.velocity[1][1]: found inf; expected a finite velocity (m/s)");
  CHECK(message_after([](Scene& s) { s.params[ParamId::RestLength].value[0] = 0; }) ==
        "springs.rest_length[0]: found 0; expected a rest length > 0 (m)");
  CHECK(message_after([](Scene& s) { s.params[ParamId::Friction].value[0] = -0.1; }) ==
        "simulation.ground.friction: found -0.1; expected a friction coefficient >= 0");
  CHECK(message_after([](Scene& s) { s.settings.steps = 0; }).starts_with("simulation.steps: found 0"));
  CHECK(message_after([](Scene& s) { s.settings.dt = 0; }).starts_with("simulation.dt: found 0"));
  CHECK(message_after([](Scene& s) {
          s.params[ParamId::Stiffness].value.pop_back();
        }).starts_with("springs.stiffness: found 4 x 1 with 3 values"));
  CHECK(message_after([](Scene& s) { s.spring_channel[0] = 0; }) ==
        "springs.channel[0]: found 0; expected -1 (passive) or a channel in [0, 0)");
  CHECK(message_after([](Scene& s) { s.params[ParamId::Mass].lower = 2, s.params[ParamId::Mass].upper = 1; }) ==
        "parameters.mass: found lower 2 and upper 1; expected lower <= upper");
  CHECK(message_after([](Scene& s) {
          Objective o;
          o.type = ObjectiveType::Target;
          o.particles = {0, 9};
          o.target = {0, 0, 0};
          s.objectives.push_back(o);
        }) == "objectives[0].particles[1]: found 9; expected a particle index in [0, 6)");
  CHECK(message_after([](Scene& s) {
          Objective o;
          o.type = ObjectiveType::Travel;
          o.particles = {0};
          o.direction[0] = 2;
          s.objectives.push_back(o);
        }) == "objectives[0].direction: found 2; expected a unit vector (length 1)");
  CHECK(message_after([](Scene& s) { s.optimizer.learning_rate = 0; }) ==
        "optimizer.learning_rate: found 0; expected a number > 0");
  CHECK(message_after([](Scene& s) { s.optimizer.population = -2; }) ==
        "optimizer.population: found -2; expected 0 (the default) or an integer >= 2");
  CHECK(message_after([](Scene& s) { s.optimizer.sigma = 0; }) == "optimizer.sigma: found 0; expected a number > 0");
}

TEST_CASE("scene: the complete example in docs/scene-format.md loads") {
  std::ifstream in(source_dir() / "docs" / "scene-format.md", std::ios::binary);
  REQUIRE(in);
  const std::string markdown((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  TempDir dir;
  dir.write("hopper-track.csv", code_block_after(markdown, "## Complete example", "csv"));
  const fs::path scene_path = dir.write("hopper.json", code_block_after(markdown, "## Complete example", "json"));
  Result<Scene> scene = load_scene(scene_path);
  REQUIRE_MESSAGE(scene.ok(), (scene.ok() ? "" : scene.error().message));
  CHECK(scene->name == "hopper");
  CHECK(scene->particle_count() == 4);
  CHECK(scene->spring_count() == 6);
  CHECK(scene->channels == 2);
  REQUIRE(scene->objectives.size() == 6);
  CHECK(scene->objectives[4].samples.size() == 6);

  const Result<MarkerTrack> track =
      parse_marker_csv(code_block_after(markdown, "## Marker CSV files", "csv"), "scene-format.md");
  REQUIRE(track.ok());
  CHECK(track->samples.size() == 3);
}

TEST_CASE("scene: the joints example in docs/scene-format.md loads") {
  std::ifstream in(source_dir() / "docs" / "scene-format.md", std::ios::binary);
  REQUIRE(in);
  const std::string markdown((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  Result<Scene> scene = parse_scene(code_block_after(markdown, "\n## joints\n", "json"), "swing.json");
  REQUIRE_MESSAGE(scene.ok(), (scene.ok() ? "" : scene.error().message));
  CHECK(scene->name == "swing");
  CHECK(scene->body_count() == 2);
  REQUIRE(scene->joint_count() == 2);
  CHECK(scene->joints[1].name == "elbow");
  CHECK(scene->joints[1].parent == 0);
  CHECK(scene->joints[1].limited);
  CHECK(scene->joint_settings.stiffness == 20000);
  CHECK(scene->params[ParamId::JointControl].rows == 2000);
  CHECK(scene->params[ParamId::JointControl].optimize);
  REQUIRE(scene->objectives.size() == 3);
  CHECK(scene->objectives[1].type == ObjectiveType::Orientation);
}

// Sections are read by stage (io/scene_section.h), not in the order a file lists them:
// every example with its top-level keys reversed reads to the scene that saves as the
// example itself does.
TEST_CASE("scene: a file's sections read alike in any order (every example, keys reversed)") {
  TempDir dir;
  int examples = 0;
  for (const auto& entry : fs::directory_iterator(source_dir() / "scenes")) {
    if (entry.path().extension() != ".json") continue;
    CAPTURE(entry.path().string());
    std::ifstream in(entry.path(), std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const nlohmann::ordered_json file = nlohmann::ordered_json::parse(text);
    nlohmann::ordered_json reversed = nlohmann::ordered_json::object();
    std::vector<std::string> keys;
    for (const auto& [key, value] : file.items()) keys.push_back(key);
    REQUIRE(keys.size() > 3);
    for (auto key = keys.rbegin(); key != keys.rend(); ++key) reversed[*key] = file[*key];
    REQUIRE(reversed.begin().key() != file.begin().key());

    const Result<Scene> as_written = parse_scene(text, entry.path());
    const Result<Scene> out_of_order = parse_scene(reversed.dump(1), entry.path());
    REQUIRE_MESSAGE(as_written.ok(), as_written.error().message);
    REQUIRE_MESSAGE(out_of_order.ok(), out_of_order.error().message);
    const auto saved_text = [&](const Scene& scene, const char* name) {
      const fs::path path = dir.path / "scenes" / (entry.path().stem().string() + name);
      fs::create_directories(path.parent_path());
      REQUIRE(save_scene(scene, path).ok());
      std::ifstream saved(path, std::ios::binary);
      return std::string((std::istreambuf_iterator<char>(saved)), std::istreambuf_iterator<char>());
    };
    CHECK(saved_text(*out_of_order, ".reversed.json") == saved_text(*as_written, ".json"));
    ++examples;
  }
  CHECK(examples >= 20);
}
