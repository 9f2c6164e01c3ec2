// The simulator on the CPU: Rollout instantiated with CpuExec, in float and double.
#include <string>

#include "cpu/cpu_exec.h"
#include "sim/rollout.h"
#include "sim/simulator_backends.h"

namespace nudge {

namespace {

template <class T>
class CpuSimulator final : public Simulator {
public:
  CpuSimulator(const Scene& scene, CpuExec exec, int checkpoint_every)
      : threads_(exec.pool->size()), rollout_(scene, std::move(exec), checkpoint_every) {}

  Result<Evaluation> evaluate(const ParameterSet& params) override { return rollout_.forward(params); }

  Result<Trajectory> trajectory(const ParameterSet& params) override {
    Result<Evaluation> eval = rollout_.forward(params);
    if (!eval) return eval.error();
    return rollout_.trajectory();
  }

  const ImplicitStats* implicit_stats() const { return rollout_.implicit_stats(); }

  std::string device_name() const override {
    return "cpu, " + std::to_string(threads_) + (threads_ == 1 ? " thread, " : " threads, ") +
           (sizeof(T) == 4 ? "float32" : "float64");
  }

protected:
  Result<Evaluation> run_gradient(ParameterSet& params, const GradientOptions& options,
                                  StateAdjoints* adjoints) override {
    Result<Evaluation> eval = rollout_.forward(params);
    if (eval) rollout_.backward(params, options.horizon, adjoints);
    return eval;
  }

private:
  int threads_;
  Rollout<T, CpuExec> rollout_;
};

}  // namespace

std::unique_ptr<Simulator> make_cpu_simulator(const Scene& scene, Precision precision, int threads,
                                              int checkpoint_every, bool spring_runs) {
  const CpuExec exec{std::make_shared<ThreadPool>(threads), spring_runs};
  if (precision == Precision::Float32) return std::make_unique<CpuSimulator<float>>(scene, exec, checkpoint_every);
  return std::make_unique<CpuSimulator<double>>(scene, exec, checkpoint_every);
}

const ImplicitStats* cpu_implicit_stats(const Simulator& sim) {
  if (const auto* cpu = dynamic_cast<const CpuSimulator<double>*>(&sim)) return cpu->implicit_stats();
  if (const auto* cpu = dynamic_cast<const CpuSimulator<float>*>(&sim)) return cpu->implicit_stats();
  return nullptr;
}

}  // namespace nudge
