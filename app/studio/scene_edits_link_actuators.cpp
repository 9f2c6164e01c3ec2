// Edits of the articulations' actuators: one added on a link's hinge or slide, reading a
// new control channel of its own, and actuators deleted with their parameter rows.
#include <cmath>
#include <set>
#include <string>

#include "studio/scene_edits.h"
#include "studio/scene_edits_support.h"

namespace nudge::studio::edits {

using namespace support;

namespace {

// A name no actuator has: `stem` and the first free number from 1.
std::string free_actuator_name(const Articulations& a, const std::string& stem) {
  std::set<std::string> taken;
  for (const ArticulationActuator& act : a.actuators) taken.insert(act.name);
  for (int n = 1;; ++n)
    if (!taken.contains(stem + std::to_string(n))) return stem + std::to_string(n);
}

}  // namespace

std::string_view link_actuator_kind_name(LinkActuatorKind kind) {
  switch (kind) {
    case LinkActuatorKind::Motor: return "motor";
    case LinkActuatorKind::PositionServo: return "position servo";
    case LinkActuatorKind::VelocityServo: return "velocity servo";
  }
  return "actuator";
}

Result<Scene> add_link_actuator(const Scene& scene, int link, LinkActuatorKind kind, double gain) {
  const std::string action = "add " + std::string(link_actuator_kind_name(kind));
  if (auto error = check_input(scene, action)) return *error;
  const Articulations& a = scene.articulations;
  if (auto error = check_indices(action, "link", {link}, a.link_count())) return *error;
  const ArticulationJoint joint = a.links[size_t(link)].joint;
  if (joint != ArticulationJoint::Hinge && joint != ArticulationJoint::Slide)
    return fail(action, "link " + std::to_string(link) + " (" + a.links[size_t(link)].name + ") has a " +
                            std::string(articulation_joint_name(joint)) +
                            " joint; expected a hinge or a slide (an actuator drives one coordinate)");
  if (!(std::isfinite(gain) && gain > 0))
    return fail(action, "found a gain of " + number_text(gain) + "; expected a finite gain > 0");
  // Its own channel, the next: set_channels grows the controls table by a column of zeros.
  Result<Scene> widened = set_channels(scene, scene.channels + 1);
  if (!widened.ok()) return fail(action, widened.error().message);
  Scene edited = std::move(widened).value();
  ArticulationActuator act;
  act.name = free_actuator_name(a, kind == LinkActuatorKind::Motor ? "motor" : "servo");
  act.link = link;
  act.channel = scene.channels;
  const int at = static_cast<int>(a.actuators.size());
  edited.articulations.actuators.push_back(act);
  insert_rows(edited.params, ParamElement::LinkActuator, at, 1);
  // MuJoCo's affine force: gain u + bias_q q + bias_qd qd. A position servo's u is its
  // target angle (kp (u - q)), a velocity servo's its target rate (kv (u - qd)).
  edited.params[ParamId::ActuatorGain].value[size_t(at)] = gain;
  edited.params[ParamId::ActuatorBiasQ].value[size_t(at)] = kind == LinkActuatorKind::PositionServo ? -gain : 0.0;
  edited.params[ParamId::ActuatorBiasQd].value[size_t(at)] = kind == LinkActuatorKind::VelocityServo ? -gain : 0.0;
  return finish(std::move(edited), action);
}

Result<Scene> delete_link_actuators(const Scene& scene, const std::vector<int>& actuators) {
  constexpr std::string_view action = "delete actuators";
  if (auto error = check_input(scene, action)) return *error;
  const Articulations& a = scene.articulations;
  if (auto error = check_indices(action, "actuator", actuators, int(a.actuators.size()))) return *error;
  const IndexMap map = index_map(int(a.actuators.size()), actuators);
  Scene edited = scene;
  std::vector<ArticulationActuator>& kept = edited.articulations.actuators;
  kept.clear();
  for (size_t n = 0; n < a.actuators.size(); ++n)
    if (map[n] >= 0) kept.push_back(a.actuators[n]);
  remove_rows(edited.params, ParamElement::LinkActuator, map);
  return finish(std::move(edited), action);
}

}  // namespace nudge::studio::edits
