// The "controller" section (a neural-network policy: what it observes, its layers, the
// channels it drives and its weights, nudge/controller.h): how it is read from a scene
// file, written back and checked.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "io/scene_section.h"
#include "io/scene_sections.h"

namespace nudge::scene_io {

namespace {

constexpr int kMaxControllerLayers = 16;
constexpr int kMaxLayerSize = 4096;
constexpr int kMaxSinePhases = 1024;
constexpr int kMaxKeyframes = 1024;
constexpr long long kMaxControllerWeights = 10'000'000;

std::string axes_text(const bool axes[3]) {
  std::string text;
  for (int k = 0; k < 3; ++k)
    if (axes[k]) text += "xyz"[k];
  return text;
}

}  // namespace

// ---- Reading ----------------------------------------------------------------------

std::optional<std::vector<double>> SceneReader::read_controller(const Node& node, Scene& scene) const {
  expect_object(node, {"particles", "axes", "inputs", "layers", "channels", "weights", "seed"});
  Controller c;
  if (auto particles = optional(node, "particles")) c.particles = particle_list(*particles);
  if (auto axes = optional(node, "axes")) {
    constexpr std::string_view expected = "a string of distinct axes among x, y, z in that order (\"xy\", \"xyz\")";
    const std::string text = string(*axes, expected);
    if (text.empty() || text.size() > 3) fail_found(*axes, expected);
    for (bool& a : c.axes) a = false;
    int last = -1;
    for (char ch : text) {
      const int k = ch == 'x' ? 0 : ch == 'y' ? 1 : ch == 'z' ? 2 : -1;
      if (k <= last) fail_found(*axes, expected);
      c.axes[k] = true;
      last = k;
    }
  }

  const Node inputs = required(node, "inputs", "an array of inputs (sine, state, target, contact, keyframes, joints)");
  if (!inputs.json.is_array() || inputs.json.empty())
    fail_found(inputs, "a non-empty array of inputs (sine, state, target, contact, keyframes, joints)");
  for (std::size_t k = 0; k < inputs.size(); ++k) {
    const Node item = inputs.element(k);
    if (!item.json.is_object())
      fail_found(item, "an input object with a \"type\" (sine, state, target, contact, keyframes, joints)");
    const Node type_node =
        required(item, "type", "the input's type: sine, state, target, contact, keyframes or joints");
    const std::optional<ControllerInputType> type =
        controller_input_from_name(string(type_node, "sine, state, target, contact, keyframes or joints"));
    if (!type) fail_found(type_node, "one of: sine, state, target, contact, keyframes, joints");
    ControllerInput in;
    in.type = *type;
    switch (*type) {
      case ControllerInputType::Sine:
        expect_object(item, {"type", "count", "omega"});
        if (auto count = optional(item, "count")) in.count = int_in(*count, 1, kMaxSinePhases, "a number of phases");
        if (auto omega = optional(item, "omega")) in.omega = number(*omega, "an angular frequency (rad/s)");
        break;
      case ControllerInputType::Keyframes:
        expect_object(item, {"type", "count", "duration"});
        in.count = int_in(required(item, "count", "a number of keys >= 2"), 2, kMaxKeyframes, "a number of keys");
        if (auto duration = optional(item, "duration"))
          in.duration = number(*duration, "the time from the first key to the last > 0 (s)", positive);
        break;
      case ControllerInputType::State:
        expect_object(item, {"type", "position_scale", "velocity_scale"});
        if (auto s = optional(item, "position_scale")) in.position_scale = number(*s, "a finite scale (1/m)");
        if (auto s = optional(item, "velocity_scale")) in.velocity_scale = number(*s, "a finite scale (s/m)");
        break;
      case ControllerInputType::Joints:
        expect_object(item, {"type", "position_scale", "velocity_scale"});
        if (auto s = optional(item, "position_scale")) in.position_scale = number(*s, "a finite scale of q");
        if (auto s = optional(item, "velocity_scale")) in.velocity_scale = number(*s, "a finite scale of qd");
        break;
      case ControllerInputType::Contact:
        expect_object(item, {"type", "height", "width"});
        if (auto h = optional(item, "height")) in.height = number(*h, "the contact plane's height (m)");
        if (auto w = optional(item, "width")) in.width = number(*w, "a width > 0 (m)", positive);
        break;
      case ControllerInputType::Target: {
        expect_object(item, {"type", "point"});
        const std::array<double, 3> p =
            vec3(required(item, "point", "the target point [x, y, z] (m)"), "the target point [x, y, z] (m)");
        std::copy(p.begin(), p.end(), in.point);
        break;
      }
    }
    c.inputs.push_back(in);
  }

  const Node channels = required(node, "channels", "an array of the control channels the outputs drive");
  if (!channels.json.is_array() || channels.json.empty())
    fail_found(channels,
               "a non-empty array of control channels (controls.channels has " + std::to_string(scene.channels) + ")");
  for (std::size_t k = 0; k < channels.size(); ++k) {
    const Node element = channels.element(k);
    if (scene.channels == 0)
      fail(element.path, "found a channel but the scene has no control channels (controls.channels)");
    const int ch = int_in(element, 0, scene.channels - 1, "a control channel");
    if (std::find(c.channels.begin(), c.channels.end(), ch) != c.channels.end())
      fail_found(element, "each channel once");
    c.channels.push_back(ch);
  }

  const Node layers = required(node, "layers", "an array of layers, each {\"size\", \"activation\"}");
  if (!layers.json.is_array() || layers.json.empty() || layers.size() > std::size_t(kMaxControllerLayers))
    fail_found(layers, "an array of 1 to " + std::to_string(kMaxControllerLayers) + " layers");
  for (std::size_t k = 0; k < layers.size(); ++k) {
    const Node item = layers.element(k);
    expect_object(item, {"size", "activation"});
    const bool last = k + 1 == layers.size();
    ControllerLayer layer;
    if (auto size = optional(item, "size")) {
      layer.size = int_in(*size, 1, kMaxLayerSize, "a number of units");
      if (last && layer.size != int(c.channels.size()))
        fail_found(*size, std::to_string(c.channels.size()) + " (the last layer has one unit per channel it drives)");
    } else if (last) {
      layer.size = int(c.channels.size());
    } else {
      required(item, "size", "the number of units");
    }
    if (auto activation = optional(item, "activation")) {
      const std::optional<Activation> a = activation_from_name(string(*activation, "tanh, relu, sigmoid or linear"));
      if (!a) fail_found(*activation, "one of: tanh, relu, sigmoid, linear");
      layer.activation = *a;
    }
    c.layers.push_back(layer);
  }
  if (auto seed = optional(node, "seed")) c.seed = unsigned_integer(*seed, "an integer in [0, 2^64 - 1]");

  // Sizes before anything is allocated from them.
  long long weights = 0;
  for (std::size_t l = 0; l < c.layers.size(); ++l) {
    const long long in = l == 0 ? c.input_count(controller_reads(scene)) : c.layers[l - 1].size;
    weights += (in + 1) * c.layers[l].size;
  }
  if (weights > kMaxControllerWeights)
    fail(node.path,
         "found " + std::to_string(weights) + " weights; expected at most " + std::to_string(kMaxControllerWeights));
  scene.controller = c;

  const auto values = optional(node, "weights");
  if (!values) return std::nullopt;
  const std::size_t count = std::size_t(weights);
  if (!values->json.is_array() || values->size() != count)
    fail_found(*values, "an array of " + std::to_string(count) + " weights (per layer W, out x in, then b)");
  std::vector<double> w(count);
  for (std::size_t k = 0; k < count; ++k) w[k] = number(values->element(k), "a finite weight");
  return w;
}

// ---- Writing ----------------------------------------------------------------------

static OrderedJson controller_json(const Scene& scene) {
  const Controller& c = scene.controller;
  OrderedJson j;
  if (!c.particles.empty()) j["particles"] = c.particles;
  j["axes"] = axes_text(c.axes);
  OrderedJson inputs = OrderedJson::array();
  for (const ControllerInput& in : c.inputs) {
    OrderedJson item;
    item["type"] = std::string(controller_input_name(in.type));
    switch (in.type) {
      case ControllerInputType::Sine:
        item["count"] = in.count;
        item["omega"] = in.omega;
        break;
      case ControllerInputType::State:
      case ControllerInputType::Joints:
        item["position_scale"] = in.position_scale;
        item["velocity_scale"] = in.velocity_scale;
        break;
      case ControllerInputType::Target: item["point"] = vec3_json(in.point); break;
      case ControllerInputType::Keyframes:
        item["count"] = in.count;
        item["duration"] = in.duration;
        break;
      case ControllerInputType::Contact:
        item["height"] = in.height;
        item["width"] = in.width;
        break;
    }
    inputs.push_back(item);
  }
  j["inputs"] = inputs;
  OrderedJson layers = OrderedJson::array();
  for (const ControllerLayer& layer : c.layers)
    layers.push_back({{"size", layer.size}, {"activation", std::string(activation_name(layer.activation))}});
  j["layers"] = layers;
  j["channels"] = c.channels;
  j["seed"] = c.seed;
  j["weights"] = scene.params[ParamId::ControllerWeights].value;
  return j;
}

// ---- Checking ---------------------------------------------------------------------

static Problem check_controller(const Scene& scene) {
  const Controller& c = scene.controller;
  if (!c.enabled()) {
    if (!c.inputs.empty() || !c.channels.empty() || !c.particles.empty())
      return std::string("controller: found inputs, channels or particles but no layers; expected at least one layer");
    return std::nullopt;
  }
  const int n = scene.particle_count();
  for (std::size_t k = 0; k < c.particles.size(); ++k) {
    const int i = c.particles[k];
    if (i < 0 || i >= n)
      return found(index_path("controller.particles", long(k)), i,
                   "a particle index in [0, " + std::to_string(n) + ")");
    if (std::find(c.particles.begin(), c.particles.begin() + long(k), i) != c.particles.begin() + long(k))
      return found(index_path("controller.particles", long(k)), i, "each particle once");
  }
  if (c.axis_count() == 0) return std::string("controller.axes: found none; expected at least one of x, y, z");
  if (c.inputs.empty()) return std::string("controller.inputs: found none; expected at least one input");
  for (std::size_t k = 0; k < c.inputs.size(); ++k) {
    const ControllerInput& in = c.inputs[k];
    const std::string where = index_path("controller.inputs", long(k));
    if (in.type == ControllerInputType::Sine && (in.count < 1 || in.count > kMaxSinePhases))
      return found(where + ".count", in.count, "a number of phases in [1, " + std::to_string(kMaxSinePhases) + "]");
    if (in.type == ControllerInputType::Keyframes && (in.count < 2 || in.count > kMaxKeyframes))
      return found(where + ".count", in.count, "a number of keys in [2, " + std::to_string(kMaxKeyframes) + "]");
    if (!(in.duration > 0) || !std::isfinite(in.duration))
      return found(where + ".duration", in.duration, "a duration > 0 (s)");
    if (!std::isfinite(in.omega)) return found(where + ".omega", in.omega, "an angular frequency (rad/s)");
    if (!std::isfinite(in.position_scale)) return found(where + ".position_scale", in.position_scale, "a finite scale");
    if (!std::isfinite(in.velocity_scale)) return found(where + ".velocity_scale", in.velocity_scale, "a finite scale");
    for (int a = 0; a < 3; ++a)
      if (!std::isfinite(in.point[a])) return found(index_path(where + ".point", a), in.point[a], "a finite number");
    if (!std::isfinite(in.height)) return found(where + ".height", in.height, "a finite height (m)");
    if (!(in.width > 0) || !std::isfinite(in.width)) return found(where + ".width", in.width, "a width > 0 (m)");
    if ((in.type == ControllerInputType::State || in.type == ControllerInputType::Contact) && n == 0)
      return where + ": found a " + std::string(controller_input_name(in.type)) +
             " input in a scene with no particles; expected particles to observe";
    if (in.type == ControllerInputType::Joints && articulation_coordinate_count(scene.articulations) == 0)
      return where +
             ": found a joints input in a scene with no articulated joints; expected articulations whose "
             "joints it reads";
  }
  if (int(c.layers.size()) > kMaxControllerLayers)
    return found("controller.layers", int(c.layers.size()),
                 "at most " + std::to_string(kMaxControllerLayers) + " layers");
  for (std::size_t l = 0; l < c.layers.size(); ++l)
    if (c.layers[l].size < 1 || c.layers[l].size > kMaxLayerSize)
      return found(index_path("controller.layers", long(l)) + ".size", c.layers[l].size,
                   "a number of units in [1, " + std::to_string(kMaxLayerSize) + "]");
  if (c.channels.empty()) return std::string("controller.channels: found none; expected the channels it drives");
  for (std::size_t k = 0; k < c.channels.size(); ++k) {
    const int ch = c.channels[k];
    if (ch < 0 || ch >= scene.channels)
      return found(index_path("controller.channels", long(k)), ch,
                   "a control channel in [0, " + std::to_string(scene.channels) + ")");
    if (std::find(c.channels.begin(), c.channels.begin() + long(k), ch) != c.channels.begin() + long(k))
      return found(index_path("controller.channels", long(k)), ch, "each channel once");
  }
  if (c.layers.back().size != int(c.channels.size()))
    return found(index_path("controller.layers", long(c.layers.size()) - 1) + ".size", c.layers.back().size,
                 std::to_string(c.channels.size()) + " (one unit per channel it drives)");
  return std::nullopt;
}

// ---- Its rows in the list of sections (scene_section.h) ---------------------------

extern const SceneSection kControllerSection{
    "controller",
    ReadStage::Links,
    [](const SectionInput& in, Scene& scene) -> AfterShaping {
      if (!in.node) return {};
      std::optional<std::vector<double>> weights = in.reader.read_controller(*in.node, scene);
      if (!weights) return {};
      return [w = std::move(*weights)](Scene& s) { s.params[ParamId::ControllerWeights].value = w; };
    },
    [](const Scene& scene) { return scene.controller.enabled() ? controller_json(scene) : OrderedJson(); },
    CheckStage::Counts,
    check_controller};

}  // namespace nudge::scene_io
