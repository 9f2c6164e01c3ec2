// Factories for the simulator on each backend, chosen by Simulator::create.
#pragma once

#include <memory>

#include "nudge/simulator.h"

namespace nudge {

// spring_runs = false: every spring and particle kernel one element at a time, the
// reference the span kernels are tested against (CpuExec::spring_runs).
std::unique_ptr<Simulator> make_cpu_simulator(const Scene& scene, Precision precision, int threads,
                                              int checkpoint_every, bool spring_runs = true);

struct ImplicitStats;
// What an implicit scene's solves did in a CPU simulator's last rollouts; null for any
// other simulator or scene (for tests and benchmarks: sim/implicit_euler.h).
const ImplicitStats* cpu_implicit_stats(const Simulator& sim);

#if defined(NUDGE_WITH_CUDA)
// Returns null with `why` set when no device can be used.
std::unique_ptr<Simulator> make_cuda_simulator(const Scene& scene, Precision precision, int checkpoint_every,
                                               std::string* why);
bool cuda_device_present(std::string* why);
#endif

}  // namespace nudge
