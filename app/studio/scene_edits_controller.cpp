#include "studio/scene_edits_controller.h"

#include <string>
#include <vector>

namespace nudge::studio::edits::support {

void pin_controller_observation(Scene& scene) {
  Controller& c = scene.controller;
  if (c.enabled() && c.particles.empty()) c.particles = c.observed(scene.particle_count());
}

std::optional<std::string> remove_controller_particles(Scene& scene, const IndexMap& particles) {
  Controller& c = scene.controller;
  if (!c.enabled()) return std::nullopt;
  const int n = scene.particle_count();  // before the deletion: the weights' shape follows it
  const std::vector<int> observed = c.observed(n);
  std::vector<int> kept;
  std::vector<bool> kept_at(observed.size(), false);
  for (size_t p = 0; p < observed.size(); ++p)
    if (particles[size_t(observed[p])] >= 0) {
      kept.push_back(particles[size_t(observed[p])]);
      kept_at[p] = true;
    }
  if (kept.empty() && !observed.empty())
    return "none of the particles the controller observes would be left; a controller needs a particle to observe";

  // Which of the first layer's inputs stay: the state and contact blocks lose the
  // deleted particles'.
  const int na = c.axis_count();
  std::vector<bool> input_kept;
  for (const ControllerInput& in : c.inputs) {
    if (in.type == ControllerInputType::State || in.type == ControllerInputType::Contact) {
      const size_t per_particle = in.type == ControllerInputType::State ? size_t(2 * na) : 1;
      for (size_t p = 0; p < observed.size(); ++p) input_kept.insert(input_kept.end(), per_particle, bool(kept_at[p]));
    } else if (in.type == ControllerInputType::Joints) {  // joints stay as they are
      const ControllerReads reads = controller_reads(scene);
      input_kept.insert(input_kept.end(), reads.joint_q.size() + size_t(reads.joint_qd), true);
    } else {
      const bool clock = in.type == ControllerInputType::Sine || in.type == ControllerInputType::Keyframes;
      input_kept.insert(input_kept.end(), size_t(clock ? in.count : na), true);
    }
  }
  const int inputs = static_cast<int>(input_kept.size()), size = c.layers[0].size;
  std::vector<double>& w = scene.params[ParamId::ControllerWeights].value;
  std::vector<double> out;
  out.reserve(w.size());
  for (int i = 0; i < size; ++i)
    for (int j = 0; j < inputs; ++j)
      if (input_kept[size_t(j)]) out.push_back(w[size_t(i) * size_t(inputs) + size_t(j)]);
  out.insert(out.end(), w.begin() + std::ptrdiff_t(size) * inputs, w.end());  // b0 and the other layers
  w = std::move(out);
  // One that observed every particle still does (the remaining ones, in order).
  if (!c.particles.empty()) c.particles = kept;
  return std::nullopt;
}

}  // namespace nudge::studio::edits::support
