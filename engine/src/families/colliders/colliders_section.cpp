// The "colliders" section (fixed planes, boxes, spheres and capsules) and the "contact"
// settings that colliders and bodies meet each other with: how each is read from a
// scene file, written back and checked.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "io/scene_section.h"
#include "io/scene_sections.h"

namespace nudge::scene_io {

// ---- Reading ----------------------------------------------------------------------

void SceneReader::read_colliders(const Node& node, Scene& scene) const {
  expect_array(node, "an array of colliders");
  for (std::size_t k = 0; k < node.size(); ++k) scene.colliders.push_back(read_collider(node.element(k)));
}

ColliderShape SceneReader::read_collider(const Node& node) const {
  const std::string names = "plane, box, sphere or capsule";
  if (!node.json.is_object()) fail_found(node, "a collider object with a \"type\" (" + names + ")");
  const Node type_node = required(node, "type", names);
  const std::optional<ColliderType> type = collider_type_from_name(string(type_node, names));
  if (!type) fail_found(type_node, names);
  const std::string context = context_of(node) + " (a " + std::string(collider_type_name(*type)) + " collider)";
  ColliderShape c;
  c.type = *type;
  const auto size = [&](std::string_view key, std::string_view expected) {
    return number(required(node, key, expected), expected, positive);
  };
  switch (*type) {
    case ColliderType::Plane: {
      expect_object(node, {"type", "normal", "offset"}, context);
      const Node normal = required(node, "normal", "the plane's normal [x, y, z]");
      unit_vector(normal, vec3(normal, "the plane's normal [x, y, z]"), c.normal);
      if (auto offset = optional(node, "offset")) c.offset = number(*offset, "a finite offset (m)");
      return c;
    }
    case ColliderType::Box:
      expect_object(node, {"type", "position", "orientation", "half_extents"}, context);
      read_placement(node, c);
      {
        const Node half = required(node, "half_extents", "the box's half extents [x, y, z] (m)");
        const std::array<double, 3> e = vec3(half, "the box's half extents [x, y, z] (m)");
        for (int k = 0; k < 3; ++k) {
          if (!positive(e[k])) fail_found(half.element(k), "a half extent > 0 (m)");
          c.half_extents[k] = e[k];
        }
      }
      return c;
    case ColliderType::Sphere:
      expect_object(node, {"type", "position", "radius"}, context);
      c.position_from(vec3(required(node, "position", "the centre [x, y, z] (m)"), "the centre [x, y, z] (m)"));
      c.radius = size("radius", "a radius > 0 (m)");
      return c;
    case ColliderType::Capsule:
      expect_object(node, {"type", "position", "orientation", "radius", "half_length"}, context);
      read_placement(node, c);
      c.radius = size("radius", "a radius > 0 (m)");
      c.half_length = size("half_length", "half the axis' length > 0 (m)");
      return c;
  }
  return c;
}

// A shape's position and orientation (a unit quaternion [x, y, z, w]; identity if absent).
void SceneReader::read_placement(const Node& node, ColliderShape& c) const {
  c.position_from(vec3(required(node, "position", "the centre [x, y, z] (m)"), "the centre [x, y, z] (m)"));
  auto orientation = optional(node, "orientation");
  if (!orientation) return;
  constexpr std::string_view expected = "a unit quaternion [x, y, z, w]";
  if (!orientation->json.is_array() || orientation->size() != 4) fail_found(*orientation, expected);
  double q[4];
  for (std::size_t k = 0; k < 4; ++k) q[k] = number(orientation->element(k), "a finite number");
  const double length = std::sqrt(q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3]);
  if (std::abs(length - 1) > 1e-6)
    fail_found(*orientation, "a unit quaternion [x, y, z, w] (its length is " + number_text(length) + ")");
  std::copy(q, q + 4, c.orientation);
}

void SceneReader::read_contact(const Node& node, Scene& scene) const {
  expect_object(node,
                section_keys("contact", {"restitution", "damping_mode", "smoothing", "friction_smoothing", "bodies"}));
  ContactSettings& c = scene.contact;
  if (auto bodies = optional(node, "bodies")) c.bodies = boolean(*bodies);
  read_param_columns(node, scene, "contact", 1);
  if (auto mode = optional(node, "damping_mode")) {
    constexpr std::string_view expected = "\"approach\" (damp only motion into a collider) or \"both\"";
    const std::string name = string(*mode, expected);
    if (name != "approach" && name != "both") fail_found(*mode, expected);
    c.damp_approach_only = name == "approach";
  }
  if (auto smoothing = optional(node, "smoothing"))
    c.smoothing = number(*smoothing, "a width >= 0 (m; 0: contact switches on at the surface)", non_negative);
  if (auto smoothing = optional(node, "friction_smoothing"))
    c.friction_smoothing = number(*smoothing, "a speed > 0 (m/s)", positive);
  // A restitution sets each contact's damping, which then acts both ways.
  if (auto restitution = optional(node, "restitution")) {
    scene.params[ParamId::ContactRestitution].value = {
        number(*restitution, "a coefficient of restitution in (0, 1]", [](double e) { return e > 0 && e <= 1; })};
    if (auto mode = optional(node, "damping_mode"); mode && c.damp_approach_only)
      fail_found(*mode, "\"both\" (a restitution's damping acts both ways) or no damping_mode");
    c.restitution = true;
    c.damp_approach_only = false;
  }
}

// ---- Writing ----------------------------------------------------------------------

OrderedJson collider_json(const ColliderShape& c) {
  OrderedJson j;
  j["type"] = collider_type_name(c.type);
  const auto placement = [&] {
    j["position"] = vec3_json(c.position);
    j["orientation"] = OrderedJson::array({c.orientation[0], c.orientation[1], c.orientation[2], c.orientation[3]});
  };
  switch (c.type) {
    case ColliderType::Plane:
      j["normal"] = vec3_json(c.normal);
      j["offset"] = c.offset;
      break;
    case ColliderType::Box:
      placement();
      j["half_extents"] = vec3_json(c.half_extents);
      break;
    case ColliderType::Sphere:
      j["position"] = vec3_json(c.position);
      j["radius"] = c.radius;
      break;
    case ColliderType::Capsule:
      placement();
      j["radius"] = c.radius;
      j["half_length"] = c.half_length;
      break;
  }
  return j;
}

static OrderedJson colliders_json(const Scene& scene) {
  OrderedJson colliders = OrderedJson::array();
  for (const ColliderShape& c : scene.colliders) colliders.push_back(collider_json(c));
  return colliders;
}

static OrderedJson contact_json(const Scene& scene) {
  const ParameterSet& p = scene.params;
  OrderedJson contact;
  write_param_columns(contact, scene, "contact");
  contact["damping_mode"] = scene.contact.damp_approach_only ? "approach" : "both";
  contact["smoothing"] = scene.contact.smoothing;
  contact["friction_smoothing"] = scene.contact.friction_smoothing;
  if (!scene.contact.bodies) contact["bodies"] = false;
  if (scene.contact.restitution) contact["restitution"] = p[ParamId::ContactRestitution].value.at(0);
  return contact;
}

// ---- Checking ---------------------------------------------------------------------

// A shape's numbers: its sizes > 0, directions and rotations of unit length.
Problem check_collider_shape(const ColliderShape& c, const std::string& at) {
  const auto vector_problem = [&](std::string_view key, const double* v, int count) -> Problem {
    for (int k = 0; k < count; ++k)
      if (!finite(v[k])) return found(index_path(at + "." + std::string(key), k), v[k], "a finite number");
    return std::nullopt;
  };
  const auto unit = [](const double* v, int count) {
    double sum = 0;
    for (int k = 0; k < count; ++k) sum += v[k] * v[k];
    return std::abs(std::sqrt(sum) - 1) <= 1e-6;
  };
  if (c.type == ColliderType::Plane) {
    if (Problem p = vector_problem("normal", c.normal, 3)) return p;
    if (!unit(c.normal, 3)) return at + ".normal: not of unit length; expected a unit normal [x, y, z]";
    if (!finite(c.offset)) return found(at + ".offset", c.offset, "a finite offset (m)");
    return std::nullopt;
  }
  if (Problem p = vector_problem("position", c.position, 3)) return p;
  if (Problem p = vector_problem("orientation", c.orientation, 4)) return p;
  if (!unit(c.orientation, 4)) return at + ".orientation: not of unit length; expected a unit quaternion [x, y, z, w]";
  if (c.type == ColliderType::Box)
    for (int k = 0; k < 3; ++k)
      if (!positive(c.half_extents[k]))
        return found(index_path(at + ".half_extents", k), c.half_extents[k], "a half extent > 0 (m)");
  if ((c.type == ColliderType::Sphere || c.type == ColliderType::Capsule) && !positive(c.radius))
    return found(at + ".radius", c.radius, "a radius > 0 (m)");
  if (c.type == ColliderType::Capsule && !positive(c.half_length))
    return found(at + ".half_length", c.half_length, "half the axis' length > 0 (m)");
  return std::nullopt;
}

// Every shape's numbers, and the contact settings.
static Problem check_colliders(const Scene& scene) {
  for (std::size_t i = 0; i < scene.colliders.size(); ++i)
    if (Problem p = check_collider_shape(scene.colliders[i], index_path("colliders", static_cast<long long>(i))))
      return p;
  if (!non_negative(scene.contact.smoothing))
    return found("contact.smoothing", scene.contact.smoothing, "a width >= 0 (m)");
  if (!positive(scene.contact.friction_smoothing))
    return found("contact.friction_smoothing", scene.contact.friction_smoothing, "a speed > 0 (m/s)");
  if (scene.contact.restitution && scene.contact.damp_approach_only)
    return std::string(
        "contact.damping_mode: found \"approach\" with a restitution; expected \"both\" (a "
        "restitution's damping acts both ways)");
  return std::nullopt;
}

// ---- Its rows in the list of sections (scene_section.h) ---------------------------

extern const SceneSection kCollidersSection{
    "colliders",
    ReadStage::Elements,
    [](const SectionInput& in, Scene& scene) -> AfterShaping {
      if (in.node) in.reader.read_colliders(*in.node, scene);
      return {};
    },
    [](const Scene& scene) { return scene.colliders.empty() ? OrderedJson() : colliders_json(scene); },
    CheckStage::Elements,
    check_colliders};

// Whether anything in the scene meets something else through the contact law: colliders,
// two bodies, bodies and particles, or links' shapes and bodies or particles.
static bool contact_matters(const Scene& scene) {
  const auto& links = scene.articulations.links;
  const bool link_shapes = std::any_of(links.begin(), links.end(), [](const auto& l) { return !l.shapes.empty(); });
  const bool others = scene.body_count() > 0 || scene.particle_count() > 0;
  return !scene.colliders.empty() || scene.body_count() > 1 || (scene.body_count() > 0 && scene.particle_count() > 0) ||
         (link_shapes && others);
}

// What colliders, bodies and particles meet each other with.
extern const SceneSection kContactSection{
    "contact", ReadStage::Elements,
    [](const SectionInput& in, Scene& scene) -> AfterShaping {
      if (in.node) in.reader.read_contact(*in.node, scene);
      return {};
    },
    [](const Scene& scene) { return contact_matters(scene) ? contact_json(scene) : OrderedJson(); }};

}  // namespace nudge::scene_io
