#include "view/actuator_arrows.h"

#include <algorithm>
#include <cmath>

namespace nudge::view {

std::vector<double> channel_values_at(const Scene& scene, const Trajectory* traj, int step) {
  std::vector<double> carried(size_t(std::max(scene.channels, 0)), 0.0);
  const std::vector<double>& controls = scene.params[ParamId::Controls].value;
  const int steps = scene.settings.steps;
  const int at = std::clamp(step, 0, std::max(steps - 1, 0));
  if (controls.size() == size_t(steps) * carried.size())
    for (size_t ch = 0; ch < carried.size(); ++ch) carried[ch] = controls[size_t(at) * carried.size() + ch];
  if (traj && scene.controller.enabled() && traj->particles == scene.particle_count()) {
    const std::vector<double> added = controller_outputs_at(scene, *traj, at);
    for (size_t k = 0; k < added.size(); ++k) carried[size_t(scene.controller.channels[k])] += added[k];
  }
  return carried;
}

void add_actuator_arrows(render::DrawList& list, const Scene& scene, const Trajectory* traj, int step,
                         const std::vector<double>& carried, const SceneDrawOptions& options) {
  if (scene.actuators.empty()) return;
  render::ArrowBatch arrows;
  arrows.width_pixels = 3.5f;
  double largest = 0;
  for (const Actuator& a : scene.actuators) {
    const Vec3<double> direction{a.direction[0], a.direction[1], a.direction[2]};
    const Vec3<double> push = carried[size_t(a.channel)] * direction;
    largest = std::max(largest, length(push));
    Vec3<double> from{0, 0, 0}, along = push;
    if (a.particle >= 0) {
      const glm::vec3 p = particle_position(scene, traj, step, a.particle);
      from = {p.x, p.y, p.z};
    } else {
      const BodyPose pose = body_pose(scene, traj, step, a.body);
      const bool turns = a.frame == ActuatorFrame::Body;
      if (turns) along = rotate(pose.q, push);
      from = pose.x;
      if (a.type == ActuatorType::Force) from += rotate(pose.q, Vec3<double>{a.point[0], a.point[1], a.point[2]});
    }
    arrows.origins.push_back({from.x, from.y, from.z});
    arrows.vectors.push_back({along.x, along.y, along.z});
    arrows.colors.push_back(a.type == ActuatorType::Force ? colors::kActuatorForce : colors::kActuatorTorque);
  }
  // The largest push at this step reaches a quarter of the scene's radius.
  arrows.scale = largest > 0 ? static_cast<float>(0.25 * options.bounds.radius() / largest) : 0.0f;
  list.arrows.push_back(std::move(arrows));
}

}  // namespace nudge::view
