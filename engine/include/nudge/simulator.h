// Runs a scene forward and backward: the loss of its objectives and the gradient of
// that loss with respect to every parameter, on the CPU or a CUDA GPU, in float or
// double.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <optional>
#include <vector>

#include "nudge/parameters.h"
#include "nudge/result.h"
#include "nudge/scene.h"

namespace nudge {

enum class Device { Auto, Cpu, Cuda };
enum class Precision { Float32, Float64 };

std::optional<Device> device_from_name(std::string_view name);  // "auto", "cpu", "cuda"
// Why Device::Auto runs this scene on the CPU although a GPU is there (empty: it does
// not). Articulations and material points do: one tree's recursion, and one small grid's
// steps, are too little work per step to fill a GPU, and the launches dominate (on an
// H200, cartpole_swingup's gradient took 0.61 s against 0.013 s on one CPU thread, and
// B4's 4.1 s against 1.5 s on two threads here). Device::Cuda still runs them there.
std::string cpu_faster_reason(const Scene& scene);
std::optional<Precision> precision_from_name(std::string_view name);  // "float32", "float64"
std::string_view precision_name(Precision p);

struct SimulatorOptions {
  Device device = Device::Auto;
  Precision precision = Precision::Float64;
  int threads = 0;            // CPU threads, the caller included; 0: all cores
  int checkpoint_every = -1;  // -1: the scene's setting; 0: store every state; K: every K-th
  // When storing every state would keep more than this many bytes, the rollout stores
  // every ceil(sqrt(T))-th state instead and recomputes the rest (the same gradients to
  // the last bit, about 2 sqrt(T) states kept rather than T + 1), and says so in notice().
  double stored_state_budget = double(1ull << 30);
};

// Loss of one rollout, in total and per objective term (in the scene's order).
struct Evaluation {
  double loss = 0.0;
  std::vector<double> term_loss;
};

// Every state of a rollout, (steps + 1) x N x 3 each, in double.
struct Trajectory {
  int steps = 0;
  int particles = 0;
  double dt = 0.0;
  std::vector<double> x;
  std::vector<double> v;
  // Rigid bodies: (steps + 1) x B x 3 centres of mass, (steps + 1) x B x 4 orientations
  // (x, y, z, w), and (steps + 1) x B x 3 linear and angular velocities (world frame).
  int bodies = 0;
  std::vector<double> body_x, body_q;
  std::vector<double> body_v, body_w;
  // Material points: (steps + 1) x P x 3 positions (their velocities and deformations stay
  // in the rollout).
  int points = 0;
  std::vector<double> point_x;
  // Their vessels: (steps + 1) x V angles about each one's hinge (rad).
  int vessels = 0;
  std::vector<double> vessel_angle;
  // Articulations: (steps + 1) x positions joint positions q and (steps + 1) x coordinates
  // rates qd, in link order (nudge/articulations.h: articulation_positions and
  // articulation_coordinates; a hinge or slide has one of each, a ball 4 and 3, a free
  // joint 7 and 6).
  int positions = 0, coordinates = 0;
  std::vector<double> joint_q, joint_qd;
};

// Per-call options of Simulator::gradient.
struct GradientOptions {
  // > 0: backpropagate through the last `horizon` steps only (truncated backpropagation
  // through time); 0, or at least the step count: through all of them. With a horizon W
  // below the step count the adjoint runs back to step steps - W and is dropped there, as
  // if the state at that step were a constant: initial-state gradients are 0, per-step
  // parameters (controls) before the window get no gradient through the dynamics, other
  // parameters' gradients sum over the window's steps only, and objectives observed before
  // the window contribute nothing. Terms on parameters alone (control effort) count in full.
  int horizon = 0;
  bool record_state_adjoints = false;  // fill the StateAdjoints passed to gradient()
  // Fill only its norm, one value per step: what the gradient-growth check reads
  // (nudge/gradient_growth.h), at the cost of a norm per step rather than a copy.
  bool record_adjoint_norms = false;
};

// What the backward pass carries: dL/dx_t and dL/dv_t for t = 0..steps, (steps + 1) x N x 3
// each, in double, xyz triples like Trajectory. dL/dx_t is the total derivative of the loss
// with respect to the state at step t (through every later step and every objective term
// at t or later); at t = 0 it equals the InitialPosition gradient. dL/dv_0 equals the
// InitialVelocity gradient before the pinned mask: for a pinned particle it is the
// derivative with respect to the velocity in the state (still seen by springs' damping and
// by objectives), while its InitialVelocity gradient is 0 because a pin holds it at rest.
// Steps before a truncated horizon hold zeros.
//
// norm[t] is the 2-norm of the whole adjoint of the state at step t (every particle's x
// and v, every body's x, q, v and w), for t = 0..steps; it is filled whenever adjoints are
// recorded, and alone with norms_only (GradientOptions::record_adjoint_norms).
struct StateAdjoints {
  int steps = 0;
  int particles = 0;
  std::vector<double> x, v;
  std::vector<double> norm;
  bool norms_only = false;  // set by Simulator::gradient
};

class Simulator {
public:
  // Chooses the backend. With Device::Auto and no usable GPU, or a scene that runs faster
  // on the CPU (cpu_faster_reason), runs on the CPU and says why in cpu_fallback().
  // Device::Cuda without a GPU is an Error.
  static Result<std::unique_ptr<Simulator>> create(const Scene& scene, const SimulatorOptions& options = {});
  virtual ~Simulator() = default;

  // Forward rollout and loss. A rollout that produces NaN or Inf is an Error that
  // names the step and the particle.
  virtual Result<Evaluation> evaluate(const ParameterSet& params) = 0;
  // Forward and backward: the loss, and dL/dp written into params[p].grad for every p.
  Result<Evaluation> gradient(ParameterSet& params) { return run_gradient(params, GradientOptions{}, nullptr); }
  // The same with options: a truncated horizon, and the state adjoints written into
  // *adjoints when options.record_state_adjoints is set (only when the call succeeds).
  // A negative horizon, or recording without `adjoints`, is an Error. Recording costs a
  // download of the adjoint per step on a GPU; without it the call costs what
  // gradient(params) does.
  Result<Evaluation> gradient(ParameterSet& params, const GradientOptions& options, StateAdjoints* adjoints = nullptr);
  // Forward, returning every state.
  virtual Result<Trajectory> trajectory(const ParameterSet& params) = 0;

  virtual std::string device_name() const = 0;  // e.g. "cpu, 2 threads, float64"
  // What the rollout does differently from what was asked (checkpointing to fit memory).
  const std::string& notice() const { return notice_; }
  // Why Device::Auto runs on the CPU ("no usable CUDA GPU (...)", or cpu_faster_reason's
  // words); empty on a GPU, or when the CPU was asked for.
  const std::string& cpu_fallback() const { return cpu_fallback_; }
  // The checkpoint interval the rollout uses: 0 when it stores every state.
  int checkpoint_every() const { return checkpoint_every_; }

protected:
  // The backend's forward and backward pass, behind both gradient() overloads (which are
  // not virtual, so that a backend overriding this hides neither). options are valid, and
  // adjoints is null unless they are to be recorded.
  virtual Result<Evaluation> run_gradient(ParameterSet& params, const GradientOptions& options,
                                          StateAdjoints* adjoints) = 0;

  std::string notice_;
  std::string cpu_fallback_;
  int checkpoint_every_ = 0;
};

// Whether a CUDA device can be used; `why` explains when not.
bool cuda_available(std::string* why = nullptr);

}  // namespace nudge
