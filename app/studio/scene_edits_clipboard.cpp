// Copy, paste and duplicate (scene_edits.h): extract makes a standalone scene of a
// selection, the clipboard; merge appends a scene's elements to another; duplicate is
// the one after the other.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "studio/scene_edits.h"
#include "studio/scene_edits_support.h"
#include "studio/scene_edits_controller.h"

namespace nudge::studio::edits {

using namespace support;
namespace fs = std::filesystem;

namespace {

// The map that keeps the listed elements (in their order in the scene) and drops the rest.
IndexMap keeping(int count, const std::vector<int>& listed) {
  const std::set<int> kept(listed.begin(), listed.end());
  std::vector<int> removed;
  for (int i = 0; i < count; ++i)
    if (!kept.contains(i)) removed.push_back(i);
  return index_map(count, removed);
}

Result<Scene> extract_as(std::string_view action, const Scene& scene, const std::vector<int>& particles,
                         const std::vector<int>& bodies) {
  if (auto error = check_input(scene, action)) return *error;
  if (auto error = check_indices(action, "particle", particles, scene.particle_count())) return *error;
  if (auto error = check_indices(action, "body", bodies, scene.body_count())) return *error;
  if (particles.empty() && bodies.empty())
    return fail(action, "nothing is selected; expected at least one particle or body to copy");
  const IndexMap pmap = keeping(scene.particle_count(), particles), bmap = keeping(scene.body_count(), bodies);
  Scene out = scene;
  out.description.clear();
  out.camera = SceneCamera{};  // framed on what it holds
  out.colliders.clear();
  out.objectives.clear();
  out.optimizer = OptimizerSettings{};

  // What joins the copied particles and bodies comes with them (springs, elements, joints,
  // attachments, actuators); the rest stays (the objectives were cleared above).
  drop_references(out, pmap, bmap);

  out.pinned.clear();
  for (size_t i = 0; i < pmap.size(); ++i)
    if (pmap[i] >= 0) out.pinned.push_back(scene.pinned[i]);
  out.bodies.clear();
  for (size_t b = 0; b < bmap.size(); ++b)
    if (bmap[b] >= 0) out.bodies.push_back(scene.bodies[b]);
  remove_rows(out.params, ParamElement::Particle, pmap);
  remove_rows(out.params, ParamElement::Body, bmap);
  out.controller = Controller{};  // a controller belongs to its scene; pasted pieces join the target's as they are
  for (Parameter& p : out.params.items) {  // a clipboard optimises nothing: a paste keeps the target's choices
    p.optimize = false;
    p.optimize_rows.clear();
    p.lower = -std::numeric_limits<double>::infinity();
    p.upper = std::numeric_limits<double>::infinity();
  }
  return finish(std::move(out), action);
}

// The fragment's bodies with their mesh files named from into's folder (the fragment's
// paths are relative to its own). Without a folder of into's, absolute paths.
std::vector<RigidBody> pasted_bodies(const Scene& into, const Scene& fragment) {
  if (fragment.source.empty()) return fragment.bodies;  // written as given, like into's own
  if (!into.source.empty()) return moved_scene(fragment, into.source).bodies;
  std::vector<RigidBody> bodies = fragment.bodies;
  for (RigidBody& body : bodies)
    if (body.mesh && !body.mesh->file.empty() && body.mesh->file.is_relative()) {
      auto mesh = std::make_shared<BodyMesh>(*body.mesh);
      std::error_code error;
      const fs::path absolute = fs::absolute(fragment.source.parent_path() / mesh->file, error);
      if (!error) mesh->file = absolute.lexically_normal();
      body.mesh = std::move(mesh);
    }
  return bodies;
}

// A per-step parameter (steps x columns) in row-major values.
struct StepColumns {
  std::vector<double>* value;
  int steps, cols;
};

// Copies `count` columns from column `from_col` of one per-step parameter to column
// `to_col` of another, for the steps both have.
void copy_step_columns(const std::vector<double>& from, int from_steps, int from_cols, int from_col, StepColumns to,
                       int to_col, int count) {
  for (int t = 0; t < std::min(from_steps, to.steps); ++t)
    for (int c = 0; c < count; ++c)
      (*to.value)[size_t(t) * size_t(to.cols) + size_t(to_col + c)] =
          from[size_t(t) * size_t(from_cols) + size_t(from_col + c)];
}

Result<Scene> merge_as(std::string_view action, const Scene& into, const Scene& fragment, const Vec3& offset) {
  // A scene with no particle and no body is not valid, but a new scene to paste into:
  // it has no indices to go wrong, and the result is checked as a whole.
  const bool empty = into.particle_count() == 0 && into.body_count() == 0;
  if (!empty)
    if (auto error = check_input(into, action)) return *error;
  if (Status valid = check_scene(fragment); !valid)
    return fail(action, "the fragment to paste is invalid: " + valid.error().message);
  if (!finite(offset)) return fail(action, "found offset " + vec3_text(offset) + "; expected finite values (m)");
  const int n0 = into.particle_count(), b0 = into.body_count(), j0 = into.joint_count();
  const int jf = fragment.joint_count(), steps = into.settings.steps;
  int channels = into.channels;
  for (int channel : fragment.spring_channel) channels = std::max(channels, channel + 1);
  for (int channel : fragment.tet_channel) channels = std::max(channels, channel + 1);
  for (const Actuator& a : fragment.actuators) channels = std::max(channels, a.channel + 1);
  for (const Joint& joint : fragment.joints) channels = std::max(channels, joint.channel + 1);
  if (static_cast<long long>(channels) * steps > kMaxControlValues ||
      static_cast<long long>(j0 + jf) * steps > kMaxControlValues)
    return fail(action, "pasting would make " + std::to_string(channels) + " channels and " + std::to_string(j0 + jf) +
                            " joints x " + std::to_string(steps) + " steps; expected at most " +
                            std::to_string(kMaxControlValues) + " control values of each");

  Scene edited = into;
  if (empty) shape_parameters(edited);  // its arrays sized for no elements, as a valid scene's are
  // Every per-element value, row for row after into's (a body's unused size entries are
  // 0 in both, and shape_parameters marks them again).
  for (int i = 0; i < kParamCount; ++i) {
    const auto id = static_cast<ParamId>(i);
    const ParamElement element = param_facts(id).element;
    if (element != ParamElement::Particle && element != ParamElement::Spring && element != ParamElement::Body &&
        element != ParamElement::Joint && element != ParamElement::Triangle && element != ParamElement::BendingEdge &&
        element != ParamElement::Tet)
      continue;
    const std::vector<double>& pasted = fragment.params[id].value;
    edited.params[id].value.insert(edited.params[id].value.end(), pasted.begin(), pasted.end());
  }
  const auto shift = [&](ParamId id, int first) {
    std::vector<double>& value = edited.params[id].value;
    for (size_t k = 3 * size_t(first); k < value.size(); ++k) value[k] += offset[k % 3];
  };
  shift(ParamId::InitialPosition, n0);
  shift(ParamId::BodyPosition, b0);
  shift(ParamId::JointAnchor, j0);  // a joint to the world too: the pasted copy hangs from its own point

  pin_controller_observation(edited);  // the pasted particles are not new inputs
  edited.pinned.insert(edited.pinned.end(), fragment.pinned.begin(), fragment.pinned.end());
  for (int s = 0; s < fragment.spring_count(); ++s) {
    edited.spring_a.push_back(fragment.spring_a[size_t(s)] + n0);
    edited.spring_b.push_back(fragment.spring_b[size_t(s)] + n0);
    edited.spring_channel.push_back(fragment.spring_channel[size_t(s)]);
    edited.actuation.push_back(fragment.actuation[size_t(s)]);
  }
  for (int corner : fragment.triangles) edited.triangles.push_back(corner + n0);
  for (int corner : fragment.bending) edited.bending.push_back(corner + n0);
  for (int corner : fragment.tets) edited.tets.push_back(corner + n0);
  edited.tet_channel.insert(edited.tet_channel.end(), fragment.tet_channel.begin(), fragment.tet_channel.end());
  edited.tet_actuation.insert(edited.tet_actuation.end(), fragment.tet_actuation.begin(), fragment.tet_actuation.end());
  const std::vector<RigidBody> bodies = pasted_bodies(into, fragment);
  edited.bodies.insert(edited.bodies.end(), bodies.begin(), bodies.end());
  for (Joint joint : fragment.joints) {
    if (joint.parent >= 0) joint.parent += b0;
    joint.child += b0;
    edited.joints.push_back(std::move(joint));
  }
  for (const Attachment& a : fragment.attachments) edited.attachments.push_back({a.particle + n0, a.body + b0});
  for (Actuator a : fragment.actuators) {
    if (a.particle >= 0) a.particle += n0;
    if (a.body >= 0) a.body += b0;
    edited.actuators.push_back(a);
  }

  // Channels into lacks: gained, with the fragment's controls so its muscles, actuators
  // and motors move as they did; channels into has keep into's controls, shared by the
  // pasted elements.
  const int fragment_steps = fragment.settings.steps;
  Parameter& controls = edited.params[ParamId::Controls];
  if (channels > into.channels) {  // a fragment element's channel is below fragment.channels
    append_columns(controls, steps, channels - into.channels);
    copy_step_columns(fragment.params[ParamId::Controls].value, fragment_steps, fragment.channels, into.channels,
                      {&controls.value, steps, channels}, into.channels, channels - into.channels);
    edited.channels = channels;
  }
  Parameter& motors = edited.params[ParamId::JointControl];
  append_columns(motors, steps, jf);
  copy_step_columns(fragment.params[ParamId::JointControl].value, fragment_steps, jf, 0,
                    {&motors.value, steps, j0 + jf}, j0, jf);
  return finish(std::move(edited), action);
}

}  // namespace

Result<Scene> extract(const Scene& scene, const std::vector<int>& particles, const std::vector<int>& bodies) {
  return extract_as("extract", scene, particles, bodies);
}

Result<Scene> merge(const Scene& into, const Scene& fragment, const Vec3& offset) {
  return merge_as("merge", into, fragment, offset);
}

Result<Scene> duplicate(const Scene& scene, const std::vector<int>& particles, const std::vector<int>& bodies,
                        const Vec3& offset) {
  constexpr std::string_view action = "duplicate";
  Result<Scene> copy = extract_as(action, scene, particles, bodies);
  if (!copy) return copy.error();
  return merge_as(action, scene, *copy, offset);
}

}  // namespace nudge::studio::edits
