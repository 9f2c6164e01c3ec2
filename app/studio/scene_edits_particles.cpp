// Edits of particles, the springs between them and the control channels that drive
// springs (scene_edits.h).
#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "studio/scene_edits.h"
#include "studio/scene_edits_support.h"
#include "studio/scene_edits_controller.h"

namespace nudge::studio::edits {

using namespace support;

namespace {

// "found mass 0; expected a mass > 0 (kg)", in the parameter table's words.
std::string found_value(std::string_view what, double value, ParamId id) {
  return "found " + std::string(what) + " " + number_text(value) + "; expected " +
         std::string(param_facts(id).expected);
}

}  // namespace

// ---- Particles ---------------------------------------------------------------------

Result<Scene> add_particle(const Scene& scene, const Vec3& position, double mass) {
  constexpr std::string_view action = "add particle";
  if (auto error = check_input(scene, action)) return *error;
  if (!finite(position))
    return fail(action, "found position " + vec3_text(position) + "; expected finite coordinates (m)");
  if (!(std::isfinite(mass) && mass > 0)) return fail(action, found_value("mass", mass, ParamId::Mass));
  Scene edited = scene;
  append_particles(edited, {position}, mass, shared_particle_radius(scene));
  return finish(std::move(edited), action);
}

Result<Scene> delete_particles(const Scene& scene, const std::vector<int>& particles) {
  constexpr std::string_view action = "delete particles";
  if (auto error = check_input(scene, action)) return *error;
  if (auto error = check_indices(action, "particle", particles, scene.particle_count())) return *error;
  const IndexMap map = index_map(scene.particle_count(), particles);
  if (kept_count(map) == 0 && scene.body_count() == 0)
    return fail(action, "a scene needs a particle or a body; deleting all " + std::to_string(scene.particle_count()) +
                            " particles would leave neither");
  Scene edited = scene;
  if (auto problem = remove_controller_particles(edited, map)) return fail(action, *problem);
  // Springs, triangles, bending edges, tets, attachments, actuators and objectives of
  // deleted particles go with them; the rest are renumbered.
  drop_references(edited, map, {});

  std::vector<unsigned char> pinned;
  for (size_t i = 0; i < map.size(); ++i)
    if (map[i] >= 0) pinned.push_back(scene.pinned[i]);
  edited.pinned = std::move(pinned);
  remove_rows(edited.params, ParamElement::Particle, map);
  return finish(std::move(edited), action);
}

Result<Scene> set_pinned(const Scene& scene, const std::vector<int>& particles, bool pinned) {
  constexpr std::string_view action = "set pinned";
  if (auto error = check_input(scene, action)) return *error;
  if (auto error = check_indices(action, "particle", particles, scene.particle_count())) return *error;
  if (pinned)
    for (const Attachment& a : scene.attachments)
      if (std::find(particles.begin(), particles.end(), a.particle) != particles.end())
        return fail(action, "particle " + std::to_string(a.particle) + " is attached to body " +
                                std::to_string(a.body) +
                                ", and a pinned particle cannot follow a body; delete the attachment first");
  Scene edited = scene;
  for (int i : particles) edited.pinned[size_t(i)] = pinned ? 1 : 0;
  return finish(std::move(edited), action);
}

Result<Scene> move_particles(const Scene& scene, const std::vector<int>& particles, const Vec3& delta) {
  constexpr std::string_view action = "move particles";
  if (auto error = check_input(scene, action)) return *error;
  if (auto error = check_indices(action, "particle", particles, scene.particle_count())) return *error;
  if (!finite(delta)) return fail(action, "found displacement " + vec3_text(delta) + "; expected finite values (m)");
  Scene edited = scene;
  std::vector<double>& x = edited.initial_positions();
  for (int i : std::set<int>(particles.begin(), particles.end()))  // each once, however often listed
    for (size_t k = 0; k < 3; ++k) x[3 * size_t(i) + k] += delta[k];
  return finish(std::move(edited), action);
}

Result<Scene> transform_particles(const Scene& scene, const std::vector<int>& particles, const Transform& transform) {
  constexpr std::string_view action = "transform particles";
  if (auto error = check_input(scene, action)) return *error;
  if (auto error = check_indices(action, "particle", particles, scene.particle_count())) return *error;
  if (auto error = check_transform(action, transform)) return *error;
  Scene edited = scene;
  std::vector<double>& x = edited.initial_positions();
  for (int i : std::set<int>(particles.begin(), particles.end())) transform_point(transform, &x[3 * size_t(i)]);
  return finish(std::move(edited), action);
}

// ---- Springs and controls ----------------------------------------------------------

Result<Scene> add_spring(const Scene& scene, int a, int b, double stiffness, double damping) {
  constexpr std::string_view action = "add spring";
  if (auto error = check_input(scene, action)) return *error;
  if (auto error = check_indices(action, "particle", {a, b}, scene.particle_count())) return *error;
  const std::string pair = "particles " + std::to_string(a) + " and " + std::to_string(b);
  if (a == b) return fail(action, pair + " are the same particle; a spring joins two");
  for (int s = 0; s < scene.spring_count(); ++s)
    if ((scene.spring_a[size_t(s)] == a && scene.spring_b[size_t(s)] == b) ||
        (scene.spring_a[size_t(s)] == b && scene.spring_b[size_t(s)] == a))
      return fail(action, pair + " are already joined by spring " + std::to_string(s));
  if (!(std::isfinite(stiffness) && stiffness >= 0))
    return fail(action, found_value("stiffness", stiffness, ParamId::Stiffness));
  if (!(std::isfinite(damping) && damping >= 0)) return fail(action, found_value("damping", damping, ParamId::Damping));
  const std::vector<double>& x = scene.initial_positions();
  if (x[3 * size_t(a)] == x[3 * size_t(b)] && x[3 * size_t(a) + 1] == x[3 * size_t(b) + 1] &&
      x[3 * size_t(a) + 2] == x[3 * size_t(b) + 2])
    return fail(action, pair + " are at the same place, so the rest length would be 0; move one first");
  Scene edited = scene;
  append_springs(edited, {{a, b}}, stiffness, damping);
  return finish(std::move(edited), action);
}

Result<Scene> delete_springs(const Scene& scene, const std::vector<int>& springs) {
  constexpr std::string_view action = "delete springs";
  if (auto error = check_input(scene, action)) return *error;
  if (auto error = check_indices(action, "spring", springs, scene.spring_count())) return *error;
  Scene edited = scene;
  remove_springs(edited, index_map(scene.spring_count(), springs));
  return finish(std::move(edited), action);
}

Result<Scene> set_spring_actuation(const Scene& scene, const std::vector<int>& springs, int channel, double actuation) {
  constexpr std::string_view action = "set spring actuation";
  if (auto error = check_input(scene, action)) return *error;
  if (auto error = check_indices(action, "spring", springs, scene.spring_count())) return *error;
  if (channel < -1 || channel >= scene.channels)
    return fail(action, "found channel " + std::to_string(channel) + "; expected -1 (passive)" +
                            (scene.channels > 0 ? " or a channel in [0, " + std::to_string(scene.channels) + ")"
                                                : " (the scene has no control channels)"));
  if (!std::isfinite(actuation))
    return fail(action, "found actuation " + number_text(actuation) + "; expected a finite actuation");
  Scene edited = scene;
  for (int s : springs) {
    edited.spring_channel[size_t(s)] = channel;
    edited.actuation[size_t(s)] = actuation;
  }
  return finish(std::move(edited), action);
}

Result<Scene> set_channels(const Scene& scene, int channels) {
  constexpr std::string_view action = "set channels";
  if (auto error = check_input(scene, action)) return *error;
  if (channels < 0 || channels > kMaxChannels)
    return fail(action, "found " + std::to_string(channels) + " channels; expected a count in [0, " +
                            std::to_string(kMaxChannels) + "]");
  if (static_cast<long long>(channels) * scene.settings.steps > kMaxControlValues)
    return fail(action, "found " + std::to_string(channels) + " channels x " + std::to_string(scene.settings.steps) +
                            " steps; expected at most " + std::to_string(kMaxControlValues) + " control values");
  for (int s = 0; s < scene.spring_count(); ++s)
    if (scene.spring_channel[size_t(s)] >= channels)
      return fail(action, "spring " + std::to_string(s) + " is driven by channel " +
                              std::to_string(scene.spring_channel[size_t(s)]) +
                              ", which would be removed; make it passive first");
  for (const int c : scene.controller.channels)
    if (c >= channels)
      return fail(action, "the controller drives channel " + std::to_string(c) +
                              ", which would be removed; remove the controller first");
  for (size_t a = 0; a < scene.actuators.size(); ++a)
    if (scene.actuators[a].channel >= channels)
      return fail(action, "actuator " + std::to_string(a) + " is driven by channel " +
                              std::to_string(scene.actuators[a].channel) + ", which would be removed; delete it first");
  for (int j = 0; j < scene.joint_count(); ++j)
    if (scene.joints[size_t(j)].channel >= channels)
      return fail(action, "joint " + std::to_string(j) + "'s motor is driven by channel " +
                              std::to_string(scene.joints[size_t(j)].channel) +
                              ", which would be removed; take it off the channel first");
  for (int t = 0; t < scene.tet_count(); ++t)
    if (scene.tet_channel[size_t(t)] >= channels)
      return fail(action, "tet " + std::to_string(t) + " is driven by channel " +
                              std::to_string(scene.tet_channel[size_t(t)]) +
                              ", which would be removed; make it passive first");
  Scene edited = scene;
  Parameter& controls = edited.params[ParamId::Controls];
  if (channels >= scene.channels) {
    append_columns(controls, scene.settings.steps, channels - scene.channels);
  } else {
    IndexMap columns(size_t(scene.channels));
    for (int c = 0; c < scene.channels; ++c) columns[size_t(c)] = c < channels ? c : -1;
    remove_columns(controls, scene.settings.steps, columns);
  }
  edited.channels = channels;
  return finish(std::move(edited), action);
}

}  // namespace nudge::studio::edits
