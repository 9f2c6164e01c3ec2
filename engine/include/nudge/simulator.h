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

std::optional<Device> device_from_name(std::string_view name);        // "auto", "cpu", "cuda"
std::optional<Precision> precision_from_name(std::string_view name);  // "float32", "float64"
std::string_view precision_name(Precision p);

struct SimulatorOptions {
  Device device = Device::Auto;
  Precision precision = Precision::Float64;
  int threads = 0;            // CPU threads, the caller included; 0: all cores
  int checkpoint_every = -1;  // -1: the scene's setting; 0: store every state; K: every K-th
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
};

class Simulator {
public:
  // Chooses the backend. With Device::Auto and no usable GPU, runs on the CPU and
  // explains why in notice(). Device::Cuda without a GPU is an Error.
  static Result<std::unique_ptr<Simulator>> create(const Scene& scene, const SimulatorOptions& options = {});
  virtual ~Simulator() = default;

  // Forward rollout and loss. A rollout that produces NaN or Inf is an Error that
  // names the step and the particle.
  virtual Result<Evaluation> evaluate(const ParameterSet& params) = 0;
  // Forward and backward: the loss, and dL/dp written into params[p].grad for every p.
  virtual Result<Evaluation> gradient(ParameterSet& params) = 0;
  // Forward, returning every state.
  virtual Result<Trajectory> trajectory(const ParameterSet& params) = 0;

  virtual std::string device_name() const = 0;  // e.g. "cpu, 2 threads, float64"
  const std::string& notice() const { return notice_; }

protected:
  std::string notice_;
};

// Whether a CUDA device can be used; `why` explains when not.
bool cuda_available(std::string* why = nullptr);

}  // namespace nudge
