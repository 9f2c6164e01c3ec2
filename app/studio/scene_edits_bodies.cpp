// Edits of rigid bodies, the joints between them, the attachments of particles to them,
// and the static colliders (scene_edits.h).
#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "studio/scene_edits.h"
#include "studio/scene_edits_support.h"

namespace nudge::studio::edits {

using namespace support;

// ---- Bodies -------------------------------------------------------------------------

Result<Scene> add_body(const Scene& scene, const RigidBody& body, const ShapeSize& size, const Vec3& position,
                       double density) {
  constexpr std::string_view action = "add body";
  if (auto error = check_input(scene, action)) return *error;
  if (body.shape == BodyShape::Mesh && (!body.mesh || body.mesh->hull.planes.size() < 4))
    return fail(action, "a mesh body needs its mesh; expected one made by load_body_mesh");
  const std::vector<ShapeSizeEntry> entries = shape_size_entries(body.shape);
  for (size_t k = 0; k < entries.size(); ++k)
    if (!(std::isfinite(size[k]) && size[k] > 0)) {
      const ParamFacts& facts = param_facts(entries[k].param);
      return fail(action, "found " + std::string(facts.label) + " " + number_text(size[k]) + " for a " +
                              std::string(body_shape_name(body.shape)) + "; expected " + std::string(facts.expected));
    }
  if (!finite(position))
    return fail(action, "found position " + vec3_text(position) + "; expected finite coordinates (m)");
  if (!(std::isfinite(density) && density > 0))
    return fail(action, "found density " + number_text(density) + "; expected " +
                            std::string(param_facts(ParamId::BodyDensity).expected));
  Scene edited = scene;
  const int b = scene.body_count();
  edited.bodies.push_back(body);
  append_rows(edited.params, ParamElement::Body, 1);
  ShapeSize used{0, 0, 0};  // a file keeps only the entries the shape uses
  std::copy_n(size.begin(), entries.size(), used.begin());
  set_body_shape_size(edited.params, body, b, used);
  std::copy(position.begin(), position.end(), edited.body_positions().begin() + 3 * b);
  edited.params[ParamId::BodyDensity].value[size_t(b)] = density;
  return finish(std::move(edited), action);
}

Result<Scene> delete_bodies(const Scene& scene, const std::vector<int>& bodies) {
  constexpr std::string_view action = "delete bodies";
  if (auto error = check_input(scene, action)) return *error;
  if (auto error = check_indices(action, "body", bodies, scene.body_count())) return *error;
  const IndexMap map = index_map(scene.body_count(), bodies);
  if (kept_count(map) == 0 && scene.particle_count() == 0)
    return fail(action, "a scene needs a particle or a body; deleting all " + std::to_string(scene.body_count()) +
                            " bodies would leave neither");
  Scene edited = scene;
  // Joints, attachments, actuators and objectives of deleted bodies go with them; the
  // rest are renumbered.
  drop_references(edited, {}, map);

  std::vector<RigidBody> kept;
  for (size_t b = 0; b < map.size(); ++b)
    if (map[b] >= 0) kept.push_back(scene.bodies[b]);
  edited.bodies = std::move(kept);
  remove_rows(edited.params, ParamElement::Body, map);
  return finish(std::move(edited), action);
}

namespace {

// What follows moved bodies, by `place` (the parameter and row of a point to move): an
// attached particle starts where it is held, so it goes with its body (once: a particle is
// attached to one body); an anchor is a world point both sides hold, so it goes only when
// both do (the world never does).
template <class Place>
void move_followers(const Scene& scene, const std::set<int>& moved, Place&& place) {
  for (const Attachment& a : scene.attachments)
    if (moved.contains(a.body)) place(ParamId::InitialPosition, a.particle);
  for (int j = 0; j < scene.joint_count(); ++j)
    if (moved.contains(scene.joints[size_t(j)].parent) && moved.contains(scene.joints[size_t(j)].child))
      place(ParamId::JointAnchor, j);
}

}  // namespace

Result<Scene> move_bodies(const Scene& scene, const std::vector<int>& bodies, const Vec3& delta) {
  constexpr std::string_view action = "move bodies";
  if (auto error = check_input(scene, action)) return *error;
  if (auto error = check_indices(action, "body", bodies, scene.body_count())) return *error;
  if (!finite(delta)) return fail(action, "found displacement " + vec3_text(delta) + "; expected finite values (m)");
  const std::set<int> moved(bodies.begin(), bodies.end());  // each once, however often listed
  Scene edited = scene;
  const auto shift = [&](ParamId id, int row) {
    for (size_t k = 0; k < 3; ++k) edited.params[id].value[3 * size_t(row) + k] += delta[k];
  };
  for (int b : moved) shift(ParamId::BodyPosition, b);
  move_followers(scene, moved, shift);
  return finish(std::move(edited), action);
}

Result<Scene> transform_bodies(const Scene& scene, const std::vector<int>& bodies, const Transform& transform) {
  constexpr std::string_view action = "transform bodies";
  if (auto error = check_input(scene, action)) return *error;
  if (auto error = check_indices(action, "body", bodies, scene.body_count())) return *error;
  if (auto error = check_transform(action, transform)) return *error;
  const std::set<int> moved(bodies.begin(), bodies.end());  // each once, however often listed
  Scene edited = scene;
  const auto point = [&](ParamId id, int row) {
    transform_point(transform, &edited.params[id].value[3 * size_t(row)]);
  };
  for (int b : moved) {
    point(ParamId::BodyPosition, b);
    transform_orientation(transform, &edited.params[ParamId::BodyOrientation].value[4 * size_t(b)]);
  }
  move_followers(scene, moved, point);
  return finish(std::move(edited), action);
}

// ---- Joints -------------------------------------------------------------------------

Result<Scene> add_joint(const Scene& scene, const Joint& joint, const Vec3& anchor) {
  constexpr std::string_view action = "add joint";
  if (auto error = check_input(scene, action)) return *error;
  const int b = scene.body_count();
  if (b == 0) return fail(action, "the scene has no bodies; a joint holds a body to another or to the world");
  const std::string range = "a body index in [0, " + std::to_string(b) + ")";
  if (joint.parent < -1 || joint.parent >= b)
    return fail(action, "found parent " + std::to_string(joint.parent) + "; expected -1 (the world) or " + range);
  if (joint.child < 0 || joint.child >= b)
    return fail(action, "found child " + std::to_string(joint.child) + "; expected " + range);
  if (joint.child == joint.parent)
    return fail(action, "found body " + std::to_string(joint.child) + " as both parent and child; expected two bodies");
  if (!finite(anchor)) return fail(action, "found anchor " + vec3_text(anchor) + "; expected a finite point (m)");
  if (static_cast<long long>(scene.joint_count() + 1) * scene.settings.steps > kMaxControlValues)
    return fail(action, "found " + std::to_string(scene.joint_count() + 1) + " joints x " +
                            std::to_string(scene.settings.steps) + " steps; expected at most " +
                            std::to_string(kMaxControlValues) + " joint control values");
  Joint added = joint;
  if (joint.type == JointType::Ball) {
    added.axis[0] = 0, added.axis[1] = 0, added.axis[2] = 1;  // a ball joint's axis is not written: a file's default
  } else if (!normalise_direction(added.axis)) {
    return fail(action, "found axis " + vec3_text({joint.axis[0], joint.axis[1], joint.axis[2]}) +
                            "; expected a non-zero finite direction");
  }
  if (!joint.limited) added.lower = added.upper = 0;  // not written without limits
  Scene edited = scene;
  const int j = scene.joint_count();
  edited.joints.push_back(added);
  append_rows(edited.params, ParamElement::Joint, 1);
  append_columns(edited.params[ParamId::JointControl], scene.settings.steps, 1);
  std::copy(anchor.begin(), anchor.end(), edited.joint_anchors().begin() + 3 * j);
  return finish(std::move(edited), action);
}

Result<Scene> delete_joints(const Scene& scene, const std::vector<int>& joints) {
  constexpr std::string_view action = "delete joints";
  if (auto error = check_input(scene, action)) return *error;
  if (auto error = check_indices(action, "joint", joints, scene.joint_count())) return *error;
  Scene edited = scene;
  remove_joints(edited, index_map(scene.joint_count(), joints));
  return finish(std::move(edited), action);
}

// ---- Attachments --------------------------------------------------------------------

Result<Scene> add_attachment(const Scene& scene, int particle, int body) {
  constexpr std::string_view action = "add attachment";
  if (auto error = check_input(scene, action)) return *error;
  if (auto error = check_indices(action, "particle", {particle}, scene.particle_count())) return *error;
  if (auto error = check_indices(action, "body", {body}, scene.body_count())) return *error;
  if (scene.pinned[size_t(particle)])
    return fail(action, "particle " + std::to_string(particle) +
                            " is pinned, and a pinned particle cannot follow a body; free it first");
  for (const Attachment& a : scene.attachments)
    if (a.particle == particle)
      return fail(action,
                  "particle " + std::to_string(particle) + " is already attached to body " + std::to_string(a.body));
  Scene edited = scene;
  edited.attachments.push_back({particle, body});
  return finish(std::move(edited), action);
}

Result<Scene> delete_attachments(const Scene& scene, const std::vector<int>& attachments) {
  constexpr std::string_view action = "delete attachments";
  if (auto error = check_input(scene, action)) return *error;
  if (auto error = check_indices(action, "attachment", attachments, static_cast<int>(scene.attachments.size())))
    return *error;
  const IndexMap map = index_map(static_cast<int>(scene.attachments.size()), attachments);
  Scene edited = scene;
  edited.attachments.clear();
  for (size_t k = 0; k < map.size(); ++k)
    if (map[k] >= 0) edited.attachments.push_back(scene.attachments[k]);
  return finish(std::move(edited), action);
}

// ---- Colliders ----------------------------------------------------------------------

Result<Scene> add_collider(const Scene& scene, const ColliderShape& collider) {
  constexpr std::string_view action = "add collider";
  if (auto error = check_input(scene, action)) return *error;
  // Only the values a file writes for the type; the rest as a loaded one has them.
  ColliderShape added;
  added.type = collider.type;
  switch (collider.type) {
    case ColliderType::Plane:
      std::copy_n(collider.normal, 3, added.normal);
      if (!normalise_direction(added.normal))
        return fail(action, "found normal " + vec3_text({collider.normal[0], collider.normal[1], collider.normal[2]}) +
                                "; expected a non-zero finite direction");
      added.offset = collider.offset;
      break;
    case ColliderType::Box:
      std::copy_n(collider.position, 3, added.position);
      std::copy_n(collider.orientation, 4, added.orientation);
      std::copy_n(collider.half_extents, 3, added.half_extents);
      break;
    case ColliderType::Sphere:
      std::copy_n(collider.position, 3, added.position);
      added.radius = collider.radius;
      break;
    case ColliderType::Capsule:
      std::copy_n(collider.position, 3, added.position);
      std::copy_n(collider.orientation, 4, added.orientation);
      added.radius = collider.radius;
      added.half_length = collider.half_length;
      break;
  }
  Scene edited = scene;
  edited.colliders.push_back(added);
  return finish(std::move(edited), action);
}

Result<Scene> delete_colliders(const Scene& scene, const std::vector<int>& colliders) {
  constexpr std::string_view action = "delete colliders";
  if (auto error = check_input(scene, action)) return *error;
  if (auto error = check_indices(action, "collider", colliders, static_cast<int>(scene.colliders.size())))
    return *error;
  const IndexMap map = index_map(static_cast<int>(scene.colliders.size()), colliders);
  Scene edited = scene;
  edited.colliders.clear();
  for (size_t k = 0; k < map.size(); ++k)
    if (map[k] >= 0) edited.colliders.push_back(scene.colliders[k]);
  return finish(std::move(edited), action);
}

Result<Scene> move_colliders(const Scene& scene, const std::vector<int>& colliders, const Vec3& delta) {
  constexpr std::string_view action = "move colliders";
  if (auto error = check_input(scene, action)) return *error;
  if (auto error = check_indices(action, "collider", colliders, static_cast<int>(scene.colliders.size())))
    return *error;
  if (!finite(delta)) return fail(action, "found displacement " + vec3_text(delta) + "; expected finite values (m)");
  Scene edited = scene;
  for (int c : std::set<int>(colliders.begin(), colliders.end())) {
    ColliderShape& collider = edited.colliders[size_t(c)];
    if (collider.type == ColliderType::Plane) {  // sliding within the plane changes nothing
      collider.offset += collider.normal[0] * delta[0] + collider.normal[1] * delta[1] + collider.normal[2] * delta[2];
    } else {
      for (size_t k = 0; k < 3; ++k) collider.position[k] += delta[k];
    }
  }
  return finish(std::move(edited), action);
}

}  // namespace nudge::studio::edits
