#include "nudge/scene.h"

namespace nudge {

namespace {
constexpr std::string_view kIntegratorNames[] = {"semi_implicit_euler", "implicit_euler", "rk4"};
}

std::string_view integrator_name(Integrator integrator) { return kIntegratorNames[static_cast<int>(integrator)]; }

std::optional<Integrator> integrator_from_name(std::string_view name) {
  for (int i = 0; i < static_cast<int>(std::size(kIntegratorNames)); ++i)
    if (kIntegratorNames[i] == name) return static_cast<Integrator>(i);
  return std::nullopt;
}

}  // namespace nudge
