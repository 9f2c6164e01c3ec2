// Factories for the simulator on each backend, chosen by Simulator::create.
#pragma once

#include <memory>

#include "nudge/simulator.h"

namespace nudge {

std::unique_ptr<Simulator> make_cpu_simulator(const Scene& scene, Precision precision, int threads,
                                              int checkpoint_every);

#if defined(NUDGE_WITH_CUDA)
// Returns null with `why` set when no device can be used.
std::unique_ptr<Simulator> make_cuda_simulator(const Scene& scene, Precision precision, int checkpoint_every,
                                               std::string* why);
bool cuda_device_present(std::string* why);
#endif

}  // namespace nudge
