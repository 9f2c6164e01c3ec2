// Backend choice for Simulator::create, and the names used on the command line.
#include <cmath>
#include <cstdint>
#include <string>

#include "sim/simulator_backends.h"

namespace nudge {

std::optional<Device> device_from_name(std::string_view name) {
  if (name == "auto") return Device::Auto;
  if (name == "cpu") return Device::Cpu;
  if (name == "cuda") return Device::Cuda;
  return std::nullopt;
}

std::optional<Precision> precision_from_name(std::string_view name) {
  if (name == "float32") return Precision::Float32;
  if (name == "float64") return Precision::Float64;
  return std::nullopt;
}

std::string_view precision_name(Precision p) { return p == Precision::Float32 ? "float32" : "float64"; }

std::string cpu_faster_reason(const Scene& scene) {
  const bool links = scene.articulations.link_count() > 0, points = scene.material_points.count() > 0;
  if (!links && !points) return {};
  return std::string(links && points ? "articulations and material points run"
                     : links         ? "articulations run"
                                     : "material points run") +
         " faster on the CPU than on a GPU; running on the CPU (--device cuda runs them on the GPU)";
}

bool cuda_available(std::string* why) {
#if defined(NUDGE_WITH_CUDA)
  return cuda_device_present(why);
#else
  if (why) *why = "this build has no CUDA backend (nvcc was not found when it was configured)";
  return false;
#endif
}

Result<Evaluation> Simulator::gradient(ParameterSet& params, const GradientOptions& options, StateAdjoints* adjoints) {
  if (options.horizon < 0)
    return Error{"the gradient's horizon must be 0 (every step) or a number of steps, not " +
                 std::to_string(options.horizon)};
  const bool recording = options.record_state_adjoints || options.record_adjoint_norms;
  if (recording && !adjoints)
    return Error{
        "record_state_adjoints or record_adjoint_norms is set but no StateAdjoints was given to write them into"};
  if (recording) adjoints->norms_only = !options.record_state_adjoints;
  return run_gradient(params, options, recording ? adjoints : nullptr);
}

Result<std::unique_ptr<Simulator>> Simulator::create(const Scene& scene, const SimulatorOptions& options) {
  if (Status valid = check_scene(scene); !valid) return valid.error();
  int checkpoint_every = options.checkpoint_every >= 0 ? options.checkpoint_every : scene.settings.checkpoint_every;

  // A state: 6 values per particle, 13 per body (position, orientation, velocities).
  const int steps = scene.settings.steps;
  const double state_bytes = (double(scene.particle_count()) * 6 + double(scene.body_count()) * 13) *
                             (options.precision == Precision::Float32 ? 4 : 8);
  const auto stored_states = [&](int every) {
    return every <= 0 || every >= steps ? double(steps) + 1 : double((steps - 1) / every + 2 + every);
  };
  // Long rollouts of large meshes: O(sqrt T) states rather than O(T), same gradients.
  std::string checkpoint_notice;
  if (stored_states(checkpoint_every) * state_bytes > options.stored_state_budget && checkpoint_every <= 0) {
    checkpoint_every = std::max(1, int(std::ceil(std::sqrt(double(steps)))));
    checkpoint_notice =
        "storing every state would take " + std::to_string(int(stored_states(0) * state_bytes / (1 << 20))) +
        " MiB; storing one state in every " + std::to_string(checkpoint_every) + " and recomputing the rest (" +
        std::to_string(int(stored_states(checkpoint_every) * state_bytes / (1 << 20))) +
        " MiB, the same gradients; set simulation.checkpoint_every to choose)";
  }

  // Refuse rollouts whose stored states would not fit, and say how to fix it.
  const double stored = stored_states(checkpoint_every);
  constexpr double kMaxStateBytes = 8.0 * (1ull << 30);
  if (stored * state_bytes > kMaxStateBytes)
    return Error{"the rollout would keep " + std::to_string(stored * state_bytes / (1 << 30)) +
                 " GiB of states (more than 8 GiB); set simulation.checkpoint_every (e.g. " +
                 std::to_string(std::max(1, int(std::sqrt(double(steps))))) + ") to store fewer"};

  std::string why;
  const std::string cpu_faster = options.device == Device::Auto ? cpu_faster_reason(scene) : std::string();
  if (options.device == Device::Cuda || (options.device == Device::Auto && cpu_faster.empty())) {
#if defined(NUDGE_WITH_CUDA)
    if (auto sim = make_cuda_simulator(scene, options.precision, checkpoint_every, &why)) {
      sim->notice_ = checkpoint_notice;
      sim->checkpoint_every_ = checkpoint_every;
      return Result<std::unique_ptr<Simulator>>(std::move(sim));
    }
#else
    cuda_available(&why);
#endif
    if (options.device == Device::Cuda) return Error{"--device cuda: " + why};
  }
  auto sim = make_cpu_simulator(scene, options.precision, options.threads, checkpoint_every);
  sim->checkpoint_every_ = checkpoint_every;
  if (options.device == Device::Auto)
    sim->cpu_fallback_ = cpu_faster.empty() ? "no usable CUDA GPU (" + why + "); running on the CPU" : cpu_faster;
  sim->notice_ = checkpoint_notice;
  return Result<std::unique_ptr<Simulator>>(std::move(sim));
}

}  // namespace nudge
