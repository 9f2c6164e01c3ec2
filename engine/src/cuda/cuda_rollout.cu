// The simulator on a CUDA GPU: Rollout instantiated with CudaExec, in float and double.
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <utility>

#include "cuda/cuda_exec.cuh"
#include "sim/rollout.h"
#include "sim/simulator_backends.h"

namespace nudge {

namespace {

// "NVIDIA H100 80GB HBM3" for the current device.
std::string current_device_name() {
  int device = 0;
  NUDGE_CUDA_CHECK(cudaGetDevice(&device));
  cudaDeviceProp properties{};
  NUDGE_CUDA_CHECK(cudaGetDeviceProperties(&properties, device));
  return properties.name;
}

template <class T>
class CudaSimulator final : public Simulator {
public:
  // Throws CudaError when the device cannot hold the rollout.
  CudaSimulator(const Scene& scene, int checkpoint_every, std::string gpu)
      : gpu_(std::move(gpu)), rollout_(scene, CudaExec{}, checkpoint_every) {}

  Result<Evaluation> evaluate(const ParameterSet& params) override {
    return abort_on_cuda_failure([&] { return rollout_.forward(params); });
  }

  Result<Trajectory> trajectory(const ParameterSet& params) override {
    return abort_on_cuda_failure([&]() -> Result<Trajectory> {
      Result<Evaluation> eval = rollout_.forward(params);
      if (!eval) return eval.error();
      return rollout_.trajectory();
    });
  }

  std::string device_name() const override { return "cuda, " + gpu_ + (sizeof(T) == 4 ? ", float32" : ", float64"); }

protected:
  Result<Evaluation> run_gradient(ParameterSet& params, const GradientOptions& options,
                                  StateAdjoints* adjoints) override {
    return abort_on_cuda_failure([&] {
      Result<Evaluation> eval = rollout_.forward(params);
      if (eval) rollout_.backward(params, options.horizon, adjoints);
      return eval;
    });
  }

private:
  // Once the rollout exists, a failed CUDA call is a driver or programmer error (a lost
  // device, a fault in a kernel): nothing a user can fix, and the device state is unknown.
  template <class F>
  auto abort_on_cuda_failure(const F& run) const {
    try {
      return run();
    } catch (const CudaError& e) {
      std::fprintf(stderr, "nudge: fatal CUDA error during a rollout on %s: %s\n", gpu_.c_str(), e.what());
      std::abort();
    }
  }

  std::string gpu_;
  Rollout<T, CudaExec> rollout_;
};

}  // namespace

bool cuda_device_present(std::string* why) {
  const auto explain = [why](std::string text) {
    if (why) *why = std::move(text);
    return false;
  };
  int count = 0;
  if (const cudaError_t status = cudaGetDeviceCount(&count); status != cudaSuccess) {
    cudaGetLastError();  // clear it: it is an answer, not a fault
    return explain(std::string("no CUDA driver or device (cudaGetDeviceCount: ") + cudaGetErrorString(status) + ")");
  }
  if (count == 0) return explain("no CUDA device (cudaGetDeviceCount found none)");
  // The device must be able to run this build's kernels: its own machine code, or PTX
  // the driver can compile for it.
  cudaFuncAttributes attributes{};
  if (const cudaError_t status = cudaFuncGetAttributes(&attributes, first_non_finite_kernel<float>);
      status != cudaSuccess) {
    cudaGetLastError();
    int device = 0;
    cudaDeviceProp properties{};
    const bool named =
        cudaGetDevice(&device) == cudaSuccess && cudaGetDeviceProperties(&properties, device) == cudaSuccess;
    cudaGetLastError();
    const std::string gpu = named ? std::string(properties.name) + " (compute capability " +
                                        std::to_string(properties.major) + "." + std::to_string(properties.minor) + ")"
                                  : std::string("the CUDA device");
    return explain(gpu + " cannot run this build's kernels (" + cudaGetErrorString(status) +
                   "); rebuild with CMAKE_CUDA_ARCHITECTURES set for it");
  }
  return true;
}

std::unique_ptr<Simulator> make_cuda_simulator(const Scene& scene, Precision precision, int checkpoint_every,
                                               std::string* why) {
  if (!cuda_device_present(why)) return nullptr;
  try {
    std::string gpu = current_device_name();
    if (precision == Precision::Float32)
      return std::make_unique<CudaSimulator<float>>(scene, checkpoint_every, std::move(gpu));
    return std::make_unique<CudaSimulator<double>>(scene, checkpoint_every, std::move(gpu));
  } catch (const CudaError& e) {
    if (why) *why = std::string("could not set up the rollout on the GPU: ") + e.what();
    return nullptr;
  }
}

}  // namespace nudge
