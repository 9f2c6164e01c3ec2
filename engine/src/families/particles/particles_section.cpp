// The "particles" section (positions, velocities, masses, pins, forces, radii), the
// "controls" (channels and their values per step) and the "springs" between particles:
// how each is read from a scene file, written back and checked.
#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "io/scene_section.h"
#include "io/scene_sections.h"

namespace nudge::scene_io {

// ---- Reading ----------------------------------------------------------------------

void SceneReader::read_particles(const Node& node, Scene& scene) {
  expect_object(node, section_keys("particles", {"position", "pinned"}));
  const std::vector<double> position =
      rows_of_3(required(node, "position", "a non-empty array of [x, y, z] positions (m)"), 0,
                "a position [x, y, z] (m)", "a non-empty array of [x, y, z] positions (m)");
  if (position.size() / 3 > static_cast<std::size_t>(kIntMax)) fail(node.path, "too many particles");
  particle_count_ = static_cast<int>(position.size() / 3);
  const auto n = static_cast<std::size_t>(particle_count_);
  scene.params[ParamId::InitialPosition].value = position;
  read_param_columns(node, scene, "particles", n);

  scene.pinned.assign(n, 0);
  if (auto pinned = optional(node, "pinned")) {
    expect_array(*pinned, "an array of particle indices");
    for (std::size_t k = 0; k < pinned->size(); ++k) {
      const Node element = pinned->element(k);
      const int i = particle_index(element);
      if (scene.pinned[i]) fail_found(element, "each particle once (" + std::to_string(i) + " is already pinned)");
      scene.pinned[i] = 1;
    }
  }
}

void SceneReader::read_controls(const std::optional<Node>& node, Scene& scene) const {
  if (!node) return;
  expect_object(*node, {"channels", "values"});
  const Node channels = required(*node, "channels", "a channel count, an integer in " + range_text(0, kMaxChannels));
  scene.channels = int_in(channels, 0, kMaxChannels, "a channel count, an integer");
  const long long total = static_cast<long long>(scene.channels) * scene.settings.steps;
  if (total > kMaxControlValues)
    fail(channels.path, "found " + std::to_string(scene.channels) + " channels x " +
                            std::to_string(scene.settings.steps) + " steps = " + std::to_string(total) +
                            " control values; expected at most " + std::to_string(kMaxControlValues));
  auto values = optional(*node, "values");
  if (!values) return;  // shape_parameters fills zeros
  const auto steps = static_cast<std::size_t>(scene.settings.steps);
  const auto c = static_cast<std::size_t>(scene.channels);
  std::vector<double>& controls = scene.params[ParamId::Controls].value;
  if (values->json.is_number()) {
    controls.assign(steps * c, number(*values, "a finite control value"));
    return;
  }
  const std::string row_expected = "an array of " + std::to_string(c) + " control values (one per channel)";
  if (!values->json.is_array() || values->size() != steps)
    fail_found(*values, "a number for all, or an array of " + std::to_string(steps) +
                            " rows (one per step, simulation.steps) of " + std::to_string(c) + " numbers");
  controls.reserve(steps * c);
  for (std::size_t t = 0; t < steps; ++t) {
    const Node row = values->element(t);
    if (!row.json.is_array() || row.size() != c) fail_found(row, row_expected);
    for (std::size_t k = 0; k < c; ++k) controls.push_back(number(row.element(k), "a finite control value"));
  }
}

// Returns whether rest lengths are left to their default (the initial distance).
bool SceneReader::read_springs(const std::optional<Node>& node, Scene& scene) const {
  if (!node) return false;
  expect_object(*node, section_keys("springs", {"pairs", "rest_length", "channel", "actuation", "length_offset"}));
  const Node pairs = required(*node, "pairs", "an array of [a, b] particle index pairs");
  expect_array(pairs, "an array of [a, b] particle index pairs");
  const std::size_t s = pairs.size();
  for (std::size_t k = 0; k < s; ++k) {
    const Node pair = pairs.element(k);
    if (!pair.json.is_array() || pair.size() != 2) fail_found(pair, "a pair [a, b] of particle indices");
    const int a = particle_index(pair.element(0)), b = particle_index(pair.element(1));
    if (a == b)
      fail(pair.path,
           "found a spring from particle " + std::to_string(a) + " to itself; expected two different particles");
    scene.spring_a.push_back(a);
    scene.spring_b.push_back(b);
  }

  read_param_columns(*node, scene, "springs", s);
  const bool rest = read_param_rows(*node, scene, ParamId::RestLength, s, /*allow_single=*/false);

  scene.spring_channel.assign(s, -1);
  if (auto channel = optional(*node, "channel")) {
    const int c = scene.channels;
    const std::string expected = c == 0 ? "-1 (passive; controls.channels is 0, so no spring can be driven)"
                                        : "-1 (passive) or a channel in [0, " + std::to_string(c) + ")";
    if (!channel->json.is_array() || channel->size() != s)
      fail_found(*channel, "an array of " + std::to_string(s) + " channels (one per spring)");
    for (std::size_t k = 0; k < s; ++k)
      scene.spring_channel[k] = static_cast<int>(integer(channel->element(k), -1, c - 1, expected));
  }
  scene.actuation.assign(s, 0.0);
  if (auto actuation = optional(*node, "actuation"))
    scene.actuation = per_item(*actuation, s, "spring", "a finite actuation", finite);
  if (auto offset = optional(*node, "length_offset"))
    scene.spring_length_offset = number(*offset, "a length offset >= 0 (m)", non_negative);
  return !rest;
}

// A default rest length is the initial distance, which must not be zero.
void SceneReader::check_default_rest_lengths(const Scene& scene, const Node& springs) const {
  const std::vector<double>& rest = scene.params[ParamId::RestLength].value;
  const Node pairs = *optional(springs, "pairs");
  for (std::size_t k = 0; k < rest.size(); ++k)
    if (!positive(rest[k]))
      fail(pairs.element(k).path,
           "found particles " + std::to_string(scene.spring_a[k]) + " and " + std::to_string(scene.spring_b[k]) +
               " at distance " + number_text(rest[k]) +
               " initially, which cannot be the default rest length; expected distinct finite positions "
               "or a \"rest_length\" > 0 for every spring");
}

// ---- Writing ----------------------------------------------------------------------

static OrderedJson particles_json(const Scene& scene) {
  OrderedJson particles;
  particles["position"] = rows(scene.params[ParamId::InitialPosition].value, 3);
  OrderedJson pinned = OrderedJson::array();
  for (int i = 0; i < scene.particle_count(); ++i)
    if (scene.pinned[i]) pinned.push_back(i);
  particles["pinned"] = pinned;
  write_param_columns(particles, scene, "particles");
  return particles;
}

static OrderedJson springs_json(const Scene& scene) {
  const ParameterSet& p = scene.params;
  OrderedJson springs;
  OrderedJson pairs = OrderedJson::array();
  for (int i = 0; i < scene.spring_count(); ++i) pairs.push_back({scene.spring_a[i], scene.spring_b[i]});
  springs["pairs"] = pairs;
  write_param_columns(springs, scene, "springs");
  springs["rest_length"] = p[ParamId::RestLength].value;
  springs["channel"] = scene.spring_channel;
  springs["actuation"] = scene.actuation;
  // Only when set, so that scenes written before it existed save unchanged.
  if (scene.spring_length_offset != 0.0) springs["length_offset"] = scene.spring_length_offset;
  return springs;
}

static OrderedJson controls_json(const Scene& scene) {
  OrderedJson controls;
  controls["channels"] = scene.channels;
  controls["values"] = rows(scene.params[ParamId::Controls].value, scene.channels);
  return controls;
}

// ---- Checking ---------------------------------------------------------------------

static Problem check_topology(const Scene& scene) {
  const int n = scene.particle_count(), s = scene.spring_count(), c = scene.channels;
  for (int i = 0; i < n; ++i)
    if (scene.pinned[i] > 1)
      return found(index_path("particles.pinned", i), int{scene.pinned[i]}, "0 (free) or 1 (pinned)");
  if (!non_negative(scene.spring_length_offset))
    return found("springs.length_offset", scene.spring_length_offset, "a length offset >= 0 (m)");
  if (c < 0 || c > kMaxChannels)
    return found("controls.channels", c, "a channel count in [0, " + std::to_string(kMaxChannels) + "]");
  if (static_cast<long long>(scene.settings.steps) * c > kMaxControlValues)
    return "controls: found " + std::to_string(scene.settings.steps) + " steps x " + std::to_string(c) +
           " channels; expected at most " + std::to_string(kMaxControlValues) + " control values";
  if (static_cast<long long>(scene.settings.steps) * scene.joint_count() > kMaxControlValues)
    return "joint_controls: found " + std::to_string(scene.settings.steps) + " steps x " +
           std::to_string(scene.joint_count()) + " joints; expected at most " + std::to_string(kMaxControlValues) +
           " joint control values";

  const auto size_problem = [&](std::string_view what, std::size_t size) -> Problem {
    if (size == static_cast<std::size_t>(s)) return std::nullopt;
    return std::string(what) + ": found " + std::to_string(size) + " entries; expected " + std::to_string(s) +
           " (one per spring)";
  };
  if (Problem p = size_problem("spring_b", scene.spring_b.size())) return p;
  if (Problem p = size_problem("springs.channel", scene.spring_channel.size())) return p;
  if (Problem p = size_problem("springs.actuation", scene.actuation.size())) return p;

  const std::string particle_range = "a particle index in [0, " + std::to_string(n) + ")";
  for (int i = 0; i < s; ++i) {
    const std::string pair = index_path("springs.pairs", i);
    const int a = scene.spring_a[i], b = scene.spring_b[i];
    if (a < 0 || a >= n) return found(index_path(pair, 0), a, particle_range);
    if (b < 0 || b >= n) return found(index_path(pair, 1), b, particle_range);
    if (a == b) return pair + ": a spring joins particle " + std::to_string(a) + " to itself";
    const int channel = scene.spring_channel[i];
    if (channel < -1 || channel >= c)
      return found(index_path("springs.channel", i), channel,
                   "-1 (passive) or a channel in [0, " + std::to_string(c) + ")");
    if (!finite(scene.actuation[i]))
      return found(index_path("springs.actuation", i), scene.actuation[i], "a finite actuation");
  }
  return std::nullopt;
}

// ---- Its rows in the list of sections (scene_section.h) ---------------------------

extern const SceneSection kParticlesSection{
    "particles",
    ReadStage::Particles,
    [](const SectionInput& in, Scene& scene) -> AfterShaping {
      // None is an empty scene (File > New saves one): valid, with nothing to simulate.
      if (in.node) in.reader.read_particles(*in.node, scene);
      return {};
    },
    [](const Scene& scene) { return scene.particle_count() > 0 ? particles_json(scene) : OrderedJson(); },
    CheckStage::Counts,
    check_topology};

extern const SceneSection kSpringsSection{
    "springs", ReadStage::Elements,
    [](const SectionInput& in, Scene& scene) -> AfterShaping {
      if (!in.reader.read_springs(in.node, scene)) return {};
      // Default rest lengths are the initial distances, known once the positions are shaped.
      return [&reader = in.reader, springs = *in.node](Scene& s) { reader.check_default_rest_lengths(s, springs); };
    },
    [](const Scene& scene) { return scene.spring_count() > 0 ? springs_json(scene) : OrderedJson(); }};

extern const SceneSection kControlsSection{
    "controls", ReadStage::Particles,
    [](const SectionInput& in, Scene& scene) -> AfterShaping {
      in.reader.read_controls(in.node, scene);
      return {};
    },
    [](const Scene& scene) { return scene.channels > 0 ? controls_json(scene) : OrderedJson(); }};

}  // namespace nudge::scene_io
