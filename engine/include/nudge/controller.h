// A closed-loop controller: a small multilayer perceptron that reads features of the
// state at each step and drives control channels (the springs' and tets' actuation).
// Its output k is added to controls[t][channels[k]], so the open-loop controls stay a
// parameter of their own (a feed-forward term, often all zero) and the channels'
// gradient dL/dcontrols[t][c] is exactly what the network's output receives.
//
// Inputs, in the order they are listed, each a block of the input vector:
//   sine:   count values sin(omega t dt + 2 pi j / count), j < count (DiffTaichi's clock)
//   state:  per observed particle i, in order, (x_i - c) * position_scale on each axis,
//           then v_i * velocity_scale on each axis; c the observed particles' centroid
//   target: (point - c) on each axis
//   contact: per observed particle, a smooth contact flag sigmoid((height - y_i) / width):
//           about 1 below the plane y = height, 0 above, switching over a few widths
//   keyframes: count hat functions of time, max(0, 1 - |t dt - j D| / D), D = duration /
//           (count - 1), time held at `duration` after it: through a linear layer, its
//           weights are keyframes of a piecewise linear curve (a pour's turning rate)
//   joints: the articulations' joint coordinates (nudge/articulations.h), q * position_scale
//           then qd * velocity_scale: of q, each hinge's and slide's entry, each ball's
//           quaternion, and each free joint's height (its world y) and quaternion, not
//           where it stands on the ground; every entry of qd. A robot's closed loop.
// The axes are a subset of x, y, z (a planar robot reads x and y only).
//
// The weights are one parameter ("controller_weights", P x 1): per layer in order,
// its matrix W (out x in, row-major), then its bias b (out).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace nudge {

enum class Activation { Tanh, Relu, Sigmoid, Linear };

// The names used in scene files: "tanh", "relu", "sigmoid", "linear".
std::string_view activation_name(Activation a);
std::optional<Activation> activation_from_name(std::string_view name);

enum class ControllerInputType { Sine, State, Target, Contact, Keyframes, Joints };

// "sine", "state", "target", "contact", "keyframes", "joints"
std::string_view controller_input_name(ControllerInputType type);
std::optional<ControllerInputType> controller_input_from_name(std::string_view name);

struct ControllerInput {
  ControllerInputType type = ControllerInputType::Sine;
  int count = 1;                // sine: how many phases; keyframes: how many keys (>= 2)
  double duration = 1.0;        // keyframes: s, from the first key to the last
  double omega = 1.0;           // sine: rad/s
  double position_scale = 1.0;  // state, joints
  double velocity_scale = 1.0;  // state, joints
  double point[3] = {0, 0, 0};  // target, m
  double height = 0.0;          // contact: the plane's height (m), the ground's usually
  double width = 5e-3;          // contact: m, > 0: how sharply the flag switches
};

struct ControllerLayer {
  int size = 0;  // units; the last layer has one per driven channel
  Activation activation = Activation::Tanh;
};

// What a controller's inputs read of its scene besides the clock: how many particles, and
// which joint coordinates (controller_reads(scene) gives them).
struct ControllerReads {
  int particles = 0;
  std::vector<int> joint_q;  // the entries of q a joints input reads, in order
  int joint_qd = 0;          // the entries of qd (a joints input reads them all)

  static ControllerReads of_particles(int count) {  // a scene without articulations
    ControllerReads reads;
    reads.particles = count;
    return reads;
  }
};

struct Scene;
ControllerReads controller_reads(const Scene& scene);

struct Controller {
  std::vector<int> particles;         // observed particles, distinct; empty: every particle
  bool axes[3] = {true, true, true};  // which components of positions and velocities are read
  std::vector<ControllerInput> inputs;
  std::vector<ControllerLayer> layers;  // empty: no controller
  std::vector<int> channels;            // the last layer's outputs drive these channels, distinct
  std::uint64_t seed = 0;               // the default weights' random stream

  bool enabled() const { return !layers.empty(); }
  int axis_count() const { return int(axes[0]) + int(axes[1]) + int(axes[2]); }
  // The observed particles of a scene with n particles, in order.
  std::vector<int> observed(int particle_count) const;
  // The length of the input vector.
  int input_count(const ControllerReads& reads) const;
  // The size of the flat weight vector (every layer's W and b).
  int weight_count(const ControllerReads& reads) const;
  // Where layer l's W starts in the flat weights; its b follows W.
  int layer_offset(int layer, const ControllerReads& reads) const;
  int layer_inputs(int layer, const ControllerReads& reads) const;
};

struct Trajectory;

// The network's outputs at every step of a trajectory (steps x outputs, row t from the
// state at step t), in double: what it added to its channels. For the studio's timeline;
// the rollout computes the same in its own kernels. The scene's controller, time step and
// weights (controller_weights).
std::vector<double> controller_outputs(const Scene& scene, const Trajectory& trajectory);
// The same at one step (0 <= step < trajectory.steps): one value per output; empty when
// the weights, the trajectory or the step do not fit.
std::vector<double> controller_outputs_at(const Scene& scene, const Trajectory& trajectory, int step);

// The 2-norm of each layer's slice (W and b) of a flat weight vector, or of its gradient.
std::vector<double> controller_layer_norms(const Controller& controller, const ControllerReads& reads,
                                           const std::vector<double>& flat);

// Default weights: W normal with standard deviation sqrt(2 / (in + out)) (Glorot), from a
// fixed generator seeded with `seed`, so the same scene gives the same weights on every
// machine; biases 0.
std::vector<double> default_controller_weights(const Controller& controller, const ControllerReads& reads);

}  // namespace nudge
