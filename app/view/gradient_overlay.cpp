#include "view/gradient_overlay.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

#include <glm/gtc/quaternion.hpp>

#include "nudge/link_poses.h"
#include "nudge/parameter_facts.h"

namespace nudge::view {

namespace {

// Row i of an n x 3 gradient or value.
glm::vec3 gradient_of(const Parameter& param, int i) {
  const double* g = param.grad.data() + 3 * std::size_t(i);
  return {float(g[0]), float(g[1]), float(g[2])};
}

glm::vec3 value_of(const Parameter& param, int i) {
  const double* v = param.value.data() + 3 * std::size_t(i);
  return {float(v[0]), float(v[1]), float(v[2])};
}

// The diverging map's half range for a gradient: its largest |entry| (1 when all are 0),
// or nothing when an entry is not finite.
std::optional<float> symmetric_range(const std::vector<double>& grad) {
  double largest = 0;
  for (double g : grad) largest = std::max(largest, std::fabs(g));
  if (!std::isfinite(largest)) return std::nullopt;
  return largest > 0 ? float(largest) : 1.0f;
}

// Rotates v by the unit quaternion q (x, y, z, w).
glm::vec3 rotated(const double* q, glm::vec3 v) {
  return glm::quat(float(q[3]), float(q[0]), float(q[1]), float(q[2])) * v;
}

}  // namespace

bool link_uses(const Articulations& a, ParamId which, int k) {
  const ArticulationLink& link = a.links[size_t(k)];
  switch (which) {
    case ParamId::LinkDamping:
    case ParamId::LinkArmature:
    case ParamId::LinkFrictionLoss: return link.joint != ArticulationJoint::Weld;
    case ParamId::LinkStiffness:  // a ball's spring pulls toward no turn
      return joint_velocity_count(link.joint) == 1 || link.joint == ArticulationJoint::Ball;
    case ParamId::LinkJointPosition:
    case ParamId::LinkJointVelocity:
    case ParamId::LinkSpringRef: return joint_velocity_count(link.joint) == 1;
    case ParamId::LinkRotation:
    case ParamId::LinkAngularVelocity:
      return link.joint == ArticulationJoint::Ball || link.joint == ArticulationJoint::Free;
    case ParamId::LinkTranslation:
    case ParamId::LinkLinearVelocity: return link.joint == ArticulationJoint::Free;
    case ParamId::LinkLength: return link.length_axis[0] != 0 || link.length_axis[1] != 0 || link.length_axis[2] != 0;
    default: return true;
  }
}

const std::vector<GradientOverlay>& gradient_overlays() {
  static const std::vector<GradientOverlay> overlays = [] {
    std::vector<GradientOverlay> list{GradientOverlay::None};
    for (int i = 0; i < kParamCount; ++i)
      if (param_facts(ParamId(i)).overlay != ParamOverlay::None) list.push_back({ParamId(i)});
    return list;
  }();
  return overlays;
}

std::string gradient_overlay_label(GradientOverlay overlay) {
  if (overlay == GradientOverlay::None) return "none";
  std::string words(param_facts(overlay.param).name);
  std::replace(words.begin(), words.end(), '_', ' ');
  return "dL/d " + words;
}

ParamId gradient_overlay_parameter(GradientOverlay overlay) { return overlay.param; }

bool is_spring_overlay(GradientOverlay overlay) {
  if (overlay == GradientOverlay::None) return false;
  const ParamFacts& facts = param_facts(overlay.param);
  return facts.element == ParamElement::Spring && facts.overlay == ParamOverlay::Colors;
}

bool gradient_overlay_applies(GradientOverlay overlay, const Scene& scene) {
  if (overlay == GradientOverlay::None) return true;
  switch (param_facts(overlay.param).element) {
    case ParamElement::Particle: return scene.particle_count() > 0;
    case ParamElement::Spring: return scene.spring_count() > 0;
    case ParamElement::Body: {  // and some body has the value (a capsule's half length)
      const Parameter& p = scene.params[overlay.param];
      return scene.body_count() > 0 &&
             (p.unused.empty() || std::find(p.unused.begin(), p.unused.end(), false) != p.unused.end());
    }
    case ParamElement::Joint: return scene.joint_count() > 0;
    case ParamElement::Link:  // some link's joint has the value (a hinge's q, a free joint's translation)
      for (int k = 0; k < scene.articulations.link_count(); ++k)
        if (link_uses(scene.articulations, overlay.param, k)) return true;
      return false;
    case ParamElement::Scene:
    case ParamElement::StepChannel:
    case ParamElement::StepJoint:
    case ParamElement::Triangle:
    case ParamElement::BendingEdge:
    case ParamElement::Tet:
    case ParamElement::ControllerWeight:
    case ParamElement::MaterialPoint:
    case ParamElement::Material:
    case ParamElement::LinkActuator: break;  // nothing to draw on (yet)
  }
  return false;
}

std::optional<GradientOverlay> gradient_overlay_for_parameter(std::string_view name) {
  for (GradientOverlay overlay : gradient_overlays())
    if (overlay != GradientOverlay::None && param_name(overlay.param) == name) return overlay;
  return std::nullopt;
}

std::string arrow_legend(std::string_view what, std::string_view unit, float metres_per_unit, bool fixed) {
  char scale[96];
  // One metre of arrow stands for this much of the vector.
  std::snprintf(scale, sizeof scale, "1 m = %.3g", metres_per_unit > 0 ? 1.0 / double(metres_per_unit) : 0.0);
  std::string text = std::string(what) + ": steepest ascent; " + scale;
  if (!unit.empty()) text += " (loss per " + std::string(unit) + ")";
  return text + (fixed ? "; fixed scale" : "; longest normalised");
}

float add_magnitude_arrows(render::DrawList& list, const std::vector<glm::vec3>& origins,
                           const std::vector<glm::vec3>& vectors, float length, std::string_view what,
                           std::string_view unit, ArrowScale scale) {
  float largest = 0;
  for (const glm::vec3& v : vectors) largest = std::max(largest, glm::length(v));
  if (!(largest > 0) || !std::isfinite(largest)) return 0;
  const bool fixed = scale.is_fixed();
  render::ArrowBatch arrows;
  arrows.scale = fixed ? scale.metres_per_unit : length / largest;
  arrows.max_length = fixed ? ArrowScale::kFixedScaleReach * length : length;
  arrows.width_pixels = 3;
  for (std::size_t i = 0; i < vectors.size(); ++i) {
    const float magnitude = glm::length(vectors[i]);
    if (magnitude == 0) continue;
    arrows.origins.push_back(origins[i]);
    arrows.vectors.push_back(vectors[i]);
    arrows.colors.push_back(render::map_value(render::ColorMap::Sequential, magnitude, 0, largest));
  }
  const float used = arrows.scale;
  list.arrows.push_back(std::move(arrows));
  list.legends.push_back({render::ColorMap::Sequential, 0, largest, arrow_legend(what, unit, used, fixed)});
  return used;
}

namespace {

// "|dL/d initial velocity|" and the parameter's unit, for the legend.
std::string gradient_what(ParamId which) { return "dL/d " + std::string(param_name(which)); }

}  // namespace

float add_particle_gradient_arrows(render::DrawList& list, const Scene& scene, ParamId which, float length,
                                   ArrowScale scale) {
  const Parameter& param = scene.params[which];
  const int n = scene.particle_count();
  if (param.grad.size() != std::size_t(3 * n)) return 0;
  std::vector<glm::vec3> origins, vectors;
  for (int i = 0; i < n; ++i) {
    origins.push_back(particle_position(scene, nullptr, 0, i));
    vectors.push_back(gradient_of(param, i));
  }
  return add_magnitude_arrows(list, origins, vectors, length, gradient_what(which), param_facts(which).unit, scale);
}

float add_body_gradient_arrows(render::DrawList& list, const Scene& scene, ParamId which, float length,
                               ArrowScale scale) {
  const Parameter& param = scene.params[which];
  const int bodies = scene.body_count();
  if (param.grad.size() != std::size_t(3 * bodies)) return 0;
  std::vector<glm::vec3> origins, vectors;
  for (int b = 0; b < bodies; ++b) {
    origins.push_back(value_of(scene.params[ParamId::BodyPosition], b));
    vectors.push_back(gradient_of(param, b));
  }
  return add_magnitude_arrows(list, origins, vectors, length, gradient_what(which), param_facts(which).unit, scale);
}

float add_joint_gradient_arrows(render::DrawList& list, const Scene& scene, ParamId which, float length,
                                ArrowScale scale) {
  const Parameter& param = scene.params[which];
  const Parameter& anchors = scene.params[ParamId::JointAnchor];
  const int joints = scene.joint_count();
  if (param.grad.size() != std::size_t(3 * joints) || anchors.value.size() != std::size_t(3 * joints)) return 0;
  std::vector<glm::vec3> origins, vectors;
  for (int j = 0; j < joints; ++j) {
    origins.push_back(value_of(anchors, j));
    vectors.push_back(gradient_of(param, j));
  }
  return add_magnitude_arrows(list, origins, vectors, length, gradient_what(which), param_facts(which).unit, scale);
}

float add_link_gradient_arrows(render::DrawList& list, const Scene& scene, ParamId which, float length,
                               ArrowScale scale) {
  const Parameter& param = scene.params[which];
  const Articulations& a = scene.articulations;
  const int links = a.link_count();
  if (param.grad.size() != std::size_t(3 * links) || links == 0) return 0;
  const std::vector<LinkPose> poses = link_poses(scene);
  const double identity[4] = {0, 0, 0, 1};
  std::vector<glm::vec3> origins, vectors;
  for (int k = 0; k < links; ++k) {
    if (!link_uses(a, which, k)) continue;
    const LinkPose& pose = poses[size_t(k)];
    // The gradient in the world's axes: link_position's is in the parent's frame,
    // link_com's and link_angular_velocity's in the link's, a free joint's translation
    // and velocity in the world's already.
    const int parent = a.links[size_t(k)].parent;
    const double* frame = which == ParamId::LinkPosition ? (parent >= 0 ? poses[size_t(parent)].quat : identity)
                          : which == ParamId::LinkCom || which == ParamId::LinkAngularVelocity ? pose.quat
                                                                                               : identity;
    glm::vec3 origin(float(pose.pos[0]), float(pose.pos[1]), float(pose.pos[2]));
    if (which == ParamId::LinkCom) origin += rotated(pose.quat, value_of(param, k));
    origins.push_back(origin);
    vectors.push_back(rotated(frame, gradient_of(param, k)));
  }
  return add_magnitude_arrows(list, origins, vectors, length, gradient_what(which), param_facts(which).unit, scale);
}

void add_link_gradient_colors(render::DrawList& list, const Scene& scene, ParamId which) {
  const Parameter& param = scene.params[which];
  const Articulations& a = scene.articulations;
  const int links = a.link_count();
  if (param.grad.size() != size_t(links) || links == 0) return;
  std::vector<double> used;  // the range from the links that have the value
  for (int k = 0; k < links; ++k)
    if (link_uses(a, which, k)) used.push_back(param.grad[size_t(k)]);
  const std::optional<float> half_range = symmetric_range(used);
  if (!half_range || used.empty()) return;
  const float range = *half_range;
  std::optional<size_t> first = first_link_mesh(scene, list);
  for (int k = 0; k < links && first; ++k) {
    const size_t shapes = size_t(drawn_shape_count(a.links[size_t(k)]));
    if (link_uses(a, which, k))
      for (size_t s = 0; s < shapes; ++s)
        list.meshes[*first + s].colors = {
            render::map_value(render::ColorMap::Diverging, float(param.grad[size_t(k)]), -range, range)};
    *first += shapes;
  }
  list.legends.push_back({render::ColorMap::Diverging, -range, range, std::string(param_name(which)) + " gradient"});
}

void add_spring_gradient_colors(render::DrawList& list, const Scene& scene, const Trajectory* traj, int step,
                                ParamId which) {
  const Parameter& param = scene.params[which];
  const int springs = scene.spring_count();
  if (param.grad.size() != std::size_t(springs) || springs == 0) return;
  const std::optional<float> half_range = symmetric_range(param.grad);
  if (!half_range) return;
  const float range = *half_range;
  render::LineBatch lines;
  lines.width_pixels = 3;
  lines.points.reserve(2 * std::size_t(springs));
  lines.colors.reserve(2 * std::size_t(springs));
  for (int s = 0; s < springs; ++s) {
    const render::Rgba c =
        render::map_value(render::ColorMap::Diverging, float(param.grad[std::size_t(s)]), -range, range);
    lines.points.push_back(particle_position(scene, traj, step, scene.spring_a[std::size_t(s)]));
    lines.points.push_back(particle_position(scene, traj, step, scene.spring_b[std::size_t(s)]));
    lines.colors.insert(lines.colors.end(), {c, c});
  }
  list.lines.push_back(std::move(lines));
  list.legends.push_back({render::ColorMap::Diverging, -range, range, std::string(param_name(which)) + " gradient"});
}

// Each body tinted by its entry of a one-value-per-body parameter's gradient; the body
// meshes follow the colliders' in the list (scene_draw_list).
void add_body_gradient_colors(render::DrawList& list, const Scene& scene, ParamId which) {
  const Parameter& param = scene.params[which];
  const int bodies = scene.body_count();
  const size_t first = scene.colliders.size();
  if (param.grad.size() != size_t(bodies) || bodies == 0 || list.meshes.size() < first + size_t(bodies)) return;
  const std::optional<float> half_range = symmetric_range(param.grad);
  if (!half_range) return;
  const float range = *half_range;
  for (int b = 0; b < bodies; ++b) {
    if (param.unused.size() == size_t(bodies) && param.unused[size_t(b)]) continue;  // a box has no radius
    list.meshes[first + size_t(b)].colors = {
        render::map_value(render::ColorMap::Diverging, float(param.grad[size_t(b)]), -range, range)};
  }
  list.legends.push_back({render::ColorMap::Diverging, -range, range, std::string(param_name(which)) + " gradient"});
}

float add_gradient_overlay(render::DrawList& list, GradientOverlay overlay, const Scene& scene, const Trajectory* traj,
                           int step, const SceneDrawOptions& options, ArrowScale scale) {
  if (overlay == GradientOverlay::None) return 0;
  const ParamId which = overlay.param;
  const ParamFacts& facts = param_facts(which);
  const float arrow_length = options.bounds.radius() / 3;
  // Bodies and joints: long enough to be seen beside the bodies.
  const float body_arrow_length = std::max(arrow_length, 3 * largest_body_reach(scene));
  switch (facts.overlay) {
    case ParamOverlay::None: return 0;
    case ParamOverlay::Colors:
      if (facts.element == ParamElement::Spring) add_spring_gradient_colors(list, scene, traj, step, which);
      if (facts.element == ParamElement::Body && facts.cols == 1 && options.bodies)
        add_body_gradient_colors(list, scene, which);
      if (facts.element == ParamElement::Link && facts.cols == 1 && options.bodies)
        add_link_gradient_colors(list, scene, which);
      return 0;
    case ParamOverlay::Arrows:
      if (facts.cols != 3) return 0;
      switch (facts.element) {
        case ParamElement::Particle: return add_particle_gradient_arrows(list, scene, which, arrow_length, scale);
        case ParamElement::Body: return add_body_gradient_arrows(list, scene, which, body_arrow_length, scale);
        case ParamElement::Joint: return add_joint_gradient_arrows(list, scene, which, body_arrow_length, scale);
        case ParamElement::Link: return add_link_gradient_arrows(list, scene, which, body_arrow_length, scale);
        case ParamElement::Spring:
        case ParamElement::Scene:
        case ParamElement::StepChannel:
        case ParamElement::StepJoint:
        case ParamElement::Triangle:
        case ParamElement::BendingEdge:
        case ParamElement::Tet:
        case ParamElement::ControllerWeight:
        case ParamElement::MaterialPoint:
        case ParamElement::Material:
        case ParamElement::LinkActuator: return 0;  // no position to draw at
      }
      return 0;
  }
  return 0;
}

}  // namespace nudge::view
