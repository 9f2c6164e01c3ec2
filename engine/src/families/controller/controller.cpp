#include "nudge/controller.h"

#include <cmath>
#include <cstdint>
#include <numbers>

#include "nudge/scene.h"

namespace nudge {

namespace {

constexpr std::string_view kActivationNames[] = {"tanh", "relu", "sigmoid", "linear"};
constexpr std::string_view kInputNames[] = {"sine", "state", "target", "contact", "keyframes", "joints"};

// SplitMix64: a tiny generator whose stream is fixed by its definition, not by a
// standard library's choice of algorithm, so default weights are the same everywhere.
struct SplitMix64 {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform_open() {  // in (0, 1)
    return (double(next() >> 11) + 0.5) * 0x1.0p-53;
  }
  double normal() {  // Box-Muller, one value per call
    const double u = uniform_open(), v = uniform_open();
    return std::sqrt(-2.0 * std::log(u)) * std::cos(2.0 * std::numbers::pi * v);
  }
};

}  // namespace

std::string_view activation_name(Activation a) { return kActivationNames[static_cast<int>(a)]; }

std::optional<Activation> activation_from_name(std::string_view name) {
  for (int i = 0; i < 4; ++i)
    if (kActivationNames[i] == name) return static_cast<Activation>(i);
  return std::nullopt;
}

std::string_view controller_input_name(ControllerInputType type) { return kInputNames[static_cast<int>(type)]; }

std::optional<ControllerInputType> controller_input_from_name(std::string_view name) {
  for (int i = 0; i < int(std::size(kInputNames)); ++i)
    if (kInputNames[i] == name) return static_cast<ControllerInputType>(i);
  return std::nullopt;
}

std::vector<int> Controller::observed(int particle_count) const {
  if (!particles.empty()) return particles;
  std::vector<int> all(particle_count > 0 ? particle_count : 0);
  for (int i = 0; i < int(all.size()); ++i) all[i] = i;
  return all;
}

ControllerReads controller_reads(const Scene& scene) {
  ControllerReads reads;
  reads.particles = scene.particle_count();
  const Articulations& a = scene.articulations;
  const std::vector<int> position = articulation_positions(a);
  for (size_t k = 0; k < a.links.size(); ++k) {
    const int at = position[k];
    switch (a.links[k].joint) {
      case ArticulationJoint::Weld: break;
      case ArticulationJoint::Hinge:
      case ArticulationJoint::Slide: reads.joint_q.push_back(at); break;
      case ArticulationJoint::Free:  // its height, not where it stands, then its quaternion
        reads.joint_q.push_back(at + 1);
        for (int c = 3; c < 7; ++c) reads.joint_q.push_back(at + c);
        break;
      case ArticulationJoint::Ball:
        for (int c = 0; c < 4; ++c) reads.joint_q.push_back(at + c);
        break;
    }
  }
  reads.joint_qd = articulation_coordinate_count(a);
  return reads;
}

int Controller::input_count(const ControllerReads& reads) const {
  const int observed_count = particles.empty() ? reads.particles : int(particles.size());
  int n = 0;
  for (const ControllerInput& in : inputs) {
    switch (in.type) {
      case ControllerInputType::Sine:
      case ControllerInputType::Keyframes: n += in.count; break;
      case ControllerInputType::State: n += 2 * axis_count() * observed_count; break;
      case ControllerInputType::Target: n += axis_count(); break;
      case ControllerInputType::Contact: n += observed_count; break;
      case ControllerInputType::Joints: n += int(reads.joint_q.size()) + reads.joint_qd; break;
    }
  }
  return n;
}

int Controller::layer_inputs(int layer, const ControllerReads& reads) const {
  return layer == 0 ? input_count(reads) : layers[size_t(layer) - 1].size;
}

int Controller::layer_offset(int layer, const ControllerReads& reads) const {
  int offset = 0;
  for (int l = 0; l < layer; ++l) offset += (layer_inputs(l, reads) + 1) * layers[size_t(l)].size;
  return offset;
}

int Controller::weight_count(const ControllerReads& reads) const {
  return layer_offset(static_cast<int>(layers.size()), reads);
}

std::vector<double> default_controller_weights(const Controller& controller, const ControllerReads& reads) {
  std::vector<double> w(size_t(controller.weight_count(reads)), 0.0);
  SplitMix64 random{controller.seed};
  for (int l = 0; l < int(controller.layers.size()); ++l) {
    const int in = controller.layer_inputs(l, reads), out = controller.layers[size_t(l)].size;
    const double sigma = std::sqrt(2.0 / double(in + out));
    const size_t first = size_t(controller.layer_offset(l, reads));
    for (size_t k = 0; k < size_t(in) * size_t(out); ++k) w[first + k] = sigma * random.normal();
  }
  return w;
}

}  // namespace nudge
