#include "view/gradient_overlay.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace nudge::view {

namespace {

// Particle i's entry of an N x 3 gradient.
glm::vec3 gradient_of(const Parameter& param, int i) {
  const double* g = param.grad.data() + 3 * std::size_t(i);
  return {float(g[0]), float(g[1]), float(g[2])};
}

glm::vec3 value_of(const Parameter& param, int i) {
  const double* v = param.value.data() + 3 * std::size_t(i);
  return {float(v[0]), float(v[1]), float(v[2])};
}

}  // namespace

std::string_view gradient_overlay_label(GradientOverlay overlay) {
  switch (overlay) {
    case GradientOverlay::None: return "none";
    case GradientOverlay::InitialPosition: return "dL/d initial position";
    case GradientOverlay::InitialVelocity: return "dL/d initial velocity";
    case GradientOverlay::Stiffness: return "dL/d stiffness";
    case GradientOverlay::RestLength: return "dL/d rest length";
    case GradientOverlay::Damping: return "dL/d damping";
    case GradientOverlay::BodyPosition: return "dL/d body position";
    case GradientOverlay::BodyVelocity: return "dL/d body velocity";
    case GradientOverlay::BodyAngularVelocity: return "dL/d body angular velocity";
  }
  return "?";
}

ParamId gradient_overlay_parameter(GradientOverlay overlay) {
  switch (overlay) {
    case GradientOverlay::InitialPosition: return ParamId::InitialPosition;
    case GradientOverlay::InitialVelocity: return ParamId::InitialVelocity;
    case GradientOverlay::Stiffness: return ParamId::Stiffness;
    case GradientOverlay::RestLength: return ParamId::RestLength;
    case GradientOverlay::Damping: return ParamId::Damping;
    case GradientOverlay::BodyPosition: return ParamId::BodyPosition;
    case GradientOverlay::BodyVelocity: return ParamId::BodyVelocity;
    case GradientOverlay::BodyAngularVelocity: return ParamId::BodyAngularVelocity;
    case GradientOverlay::None: break;
  }
  return ParamId::Count;
}

bool is_spring_overlay(GradientOverlay overlay) {
  return overlay == GradientOverlay::Stiffness || overlay == GradientOverlay::RestLength ||
         overlay == GradientOverlay::Damping;
}

std::optional<GradientOverlay> gradient_overlay_for_parameter(std::string_view name) {
  for (GradientOverlay overlay : kGradientOverlays)
    if (overlay != GradientOverlay::None && param_name(gradient_overlay_parameter(overlay)) == name) return overlay;
  return std::nullopt;
}

void add_magnitude_arrows(render::DrawList& list, const std::vector<glm::vec3>& origins,
                          const std::vector<glm::vec3>& vectors, float length, std::string legend) {
  float largest = 0;
  for (const glm::vec3& v : vectors) largest = std::max(largest, glm::length(v));
  if (!(largest > 0) || !std::isfinite(largest)) return;
  render::ArrowBatch arrows;
  arrows.scale = length / largest;
  arrows.max_length = length;
  arrows.width_pixels = 3;
  for (std::size_t i = 0; i < vectors.size(); ++i) {
    const float magnitude = glm::length(vectors[i]);
    if (magnitude == 0) continue;
    arrows.origins.push_back(origins[i]);
    arrows.vectors.push_back(vectors[i]);
    arrows.colors.push_back(render::map_value(render::ColorMap::Sequential, magnitude, 0, largest));
  }
  list.arrows.push_back(std::move(arrows));
  list.legends.push_back({render::ColorMap::Sequential, 0, largest, std::move(legend)});
}

void add_particle_gradient_arrows(render::DrawList& list, const Scene& scene, ParamId which, float length) {
  const Parameter& param = scene.params[which];
  const int n = scene.particle_count();
  if (param.grad.size() != std::size_t(3 * n)) return;
  std::vector<glm::vec3> origins, vectors;
  for (int i = 0; i < n; ++i) {
    origins.push_back(particle_position(scene, nullptr, 0, i));
    vectors.push_back(gradient_of(param, i));
  }
  add_magnitude_arrows(list, origins, vectors, length, "|" + std::string(param_name(which)) + " gradient|");
}

bool is_body_overlay(GradientOverlay overlay) {
  return overlay == GradientOverlay::BodyPosition || overlay == GradientOverlay::BodyVelocity ||
         overlay == GradientOverlay::BodyAngularVelocity;
}

void add_body_gradient_arrows(render::DrawList& list, const Scene& scene, ParamId which, float length) {
  const Parameter& param = scene.params[which];
  const int bodies = scene.body_count();
  if (param.grad.size() != std::size_t(3 * bodies)) return;
  std::vector<glm::vec3> origins, vectors;
  for (int b = 0; b < bodies; ++b) {
    origins.push_back(value_of(scene.params[ParamId::BodyPosition], b));
    vectors.push_back(gradient_of(param, b));
  }
  add_magnitude_arrows(list, origins, vectors, length, "|" + std::string(param_name(which)) + " gradient|");
}

void add_spring_gradient_colors(render::DrawList& list, const Scene& scene, const Trajectory* traj, int step,
                                ParamId which) {
  const Parameter& param = scene.params[which];
  const int springs = scene.spring_count();
  if (param.grad.size() != std::size_t(springs) || springs == 0) return;
  double largest = 0;
  for (double g : param.grad) largest = std::max(largest, std::fabs(g));
  if (!std::isfinite(largest)) return;
  const float range = largest > 0 ? float(largest) : 1.0f;
  render::LineBatch lines;
  lines.width_pixels = 3;
  lines.points.reserve(2 * std::size_t(springs));
  lines.colors.reserve(2 * std::size_t(springs));
  for (int s = 0; s < springs; ++s) {
    const render::Rgba c = render::map_value(render::ColorMap::Diverging, float(param.grad[std::size_t(s)]), -range, range);
    lines.points.push_back(particle_position(scene, traj, step, scene.spring_a[std::size_t(s)]));
    lines.points.push_back(particle_position(scene, traj, step, scene.spring_b[std::size_t(s)]));
    lines.colors.insert(lines.colors.end(), {c, c});
  }
  list.lines.push_back(std::move(lines));
  list.legends.push_back({render::ColorMap::Diverging, -range, range, std::string(param_name(which)) + " gradient"});
}

void add_gradient_overlay(render::DrawList& list, GradientOverlay overlay, const Scene& scene, const Trajectory* traj,
                          int step, const SceneDrawOptions& options) {
  if (overlay == GradientOverlay::None) return;
  const ParamId which = gradient_overlay_parameter(overlay);
  if (is_spring_overlay(overlay))
    add_spring_gradient_colors(list, scene, traj, step, which);
  else if (is_body_overlay(overlay))
    add_body_gradient_arrows(list, scene, which, std::max(options.bounds.radius() / 3, 3 * largest_body_reach(scene)));
  else
    add_particle_gradient_arrows(list, scene, which, options.bounds.radius() / 3);
}

}  // namespace nudge::view
