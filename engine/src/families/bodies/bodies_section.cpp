// Rigid bodies and what holds them: the "bodies" section (shapes, densities, starting
// placement and motion), the "joints" between bodies, the "joint_settings" (penalty
// stiffness and damping), the "joint_controls" (motor torques or forces per step) and
// the "attachments" of particles to bodies: how each is read from a scene file, written
// back and checked.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <numbers>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "io/scene_section.h"
#include "io/scene_sections.h"
#include "nudge/parameter_facts.h"

namespace nudge::scene_io {

// ---- Reading ----------------------------------------------------------------------

std::vector<SceneReader::BodyValues> SceneReader::read_bodies(const Node& node, Scene& scene) const {
  expect_array(node, "an array of rigid bodies");
  std::vector<BodyValues> values;
  for (std::size_t k = 0; k < node.size(); ++k) {
    const Node item = node.element(k);
    const std::string shapes = "sphere, box, capsule or mesh";
    if (!item.json.is_object()) fail_found(item, "a body object with a \"shape\" (" + shapes + ")");
    const Node shape_node = required(item, "shape", shapes);
    const std::optional<BodyShape> shape = body_shape_from_name(string(shape_node, shapes));
    if (!shape) fail_found(shape_node, shapes);
    const std::string context = context_of(item) + " (a " + std::string(body_shape_name(*shape)) + " body)";
    RigidBody body;
    body.shape = *shape;
    BodyValues v;
    switch (*shape) {
      case BodyShape::Sphere:
        expect_object(item, section_keys("bodies", {"name", "shape", "radius"}), context);
        v.size[0] = number(required(item, "radius", "a radius > 0 (m)"), "a radius > 0 (m)", positive);
        break;
      case BodyShape::Box: {
        expect_object(item, section_keys("bodies", {"name", "shape", "half_extents"}), context);
        const Node half = required(item, "half_extents", "the box's half extents [x, y, z] (m)");
        const std::array<double, 3> e = vec3(half, "the box's half extents [x, y, z] (m)");
        for (int i = 0; i < 3; ++i) {
          if (!positive(e[i])) fail_found(half.element(i), "a half extent > 0 (m)");
          v.size[i] = e[i];
        }
        break;
      }
      case BodyShape::Capsule:
        expect_object(item, section_keys("bodies", {"name", "shape", "radius", "half_length"}), context);
        v.size[0] = number(required(item, "radius", "a radius > 0 (m)"), "a radius > 0 (m)", positive);
        v.size[1] = number(required(item, "half_length", "half the axis' length > 0 (m)"),
                           "half the axis' length > 0 (m)", positive);
        break;
      case BodyShape::Mesh:
        expect_object(item, section_keys("bodies", {"name", "shape", "mesh", "scale"}), context);
        body.mesh = read_body_mesh(item);
        break;
    }
    if (auto name = optional(item, "name")) body.name = string(*name, "a body name");
    v.fields = read_param_fields(item, "bodies");
    for (const FieldValue& field : v.fields) {
      if (field.id != ParamId::BodyOrientation) continue;
      double length = 0;
      for (double q : field.row) length += q * q;
      if (!(length > 1e-12)) fail_found(*optional(item, "orientation"), "a quaternion [x, y, z, w] of non-zero length");
    }
    scene.bodies.push_back(body);
    values.push_back(v);
  }
  return values;
}

// "mesh": an OBJ file (relative to the scene's folder) whose vertices' convex hull is
// the body; "scale": one factor or one per axis of the file's frame.
std::shared_ptr<const BodyMesh> SceneReader::read_body_mesh(const Node& item) const {
  constexpr std::string_view expected_file = "the path of a Wavefront OBJ file, relative to the scene's folder";
  const Node file = required(item, "mesh", expected_file);
  const std::string written = string(file, expected_file);
  if (written.empty()) fail_found(file, expected_file);
  double scale[3] = {1, 1, 1};
  if (auto node = optional(item, "scale")) {
    const std::vector<double> s = per_item(*node, 3, "axis", "a scale factor > 0", positive);
    for (int k = 0; k < 3; ++k) scale[k] = s[size_t(k)];
  }
  const fs::path path(written);
  const fs::path resolved = path.is_absolute() ? path : folder_ / path;
  Result<std::shared_ptr<const BodyMesh>> mesh = load_body_mesh(path, resolved, scale);
  if (!mesh) fail(file.path, mesh.error().message);
  return *mesh;
}

void SceneReader::store_body_values(const std::vector<SceneReader::BodyValues>& values, Scene& scene) {
  for (std::size_t b = 0; b < values.size(); ++b) {
    store_param_fields(values[b].fields, scene, b);
    set_body_shape_size(scene.params, scene.bodies[b], static_cast<int>(b), values[b].size);
  }
}

std::vector<SceneReader::JointValues> SceneReader::read_joints(const Node& node, Scene& scene) const {
  expect_array(node, "an array of joints");
  const std::string types = "ball, hinge, prismatic or fixed";
  const int b = scene.body_count();
  // Each joint has a motor control per step (ParamId::JointControl), like a control channel.
  const long long total = static_cast<long long>(node.size()) * scene.settings.steps;
  if (total > kMaxControlValues)
    fail(node.path, "found " + std::to_string(node.size()) + " joints x " + std::to_string(scene.settings.steps) +
                        " steps = " + std::to_string(total) + " joint control values; expected at most " +
                        std::to_string(kMaxControlValues));
  std::vector<JointValues> values;
  for (std::size_t k = 0; k < node.size(); ++k) {
    const Node item = node.element(k);
    if (!item.json.is_object()) fail_found(item, "a joint object with a \"type\" (" + types + ")");
    const Node type_node = required(item, "type", types);
    const std::optional<JointType> type = joint_type_from_name(string(type_node, types));
    if (!type) fail_found(type_node, types);
    const bool free_direction = *type == JointType::Hinge || *type == JointType::Prismatic;
    const std::string context = context_of(item) + " (a " + std::string(joint_type_name(*type)) + " joint)";
    if (free_direction || *type == JointType::Fixed)
      expect_object(
          item,
          section_keys("joints", {"name", "type", "parent", "child", "axis", "limits", "collide", "channel", "gain"}),
          context);
    else
      expect_object(item, section_keys("joints", {"name", "type", "parent", "child", "collide"}), context);
    if (b == 0) fail(item.path, "a joint needs bodies; expected a \"bodies\" array before joints can join them");
    Joint joint;
    joint.type = *type;
    if (auto name = optional(item, "name")) joint.name = string(*name, "a joint name");
    const std::string body_range = "a body index in [0, " + std::to_string(b) + ")";
    if (auto parent = optional(item, "parent"))
      joint.parent = static_cast<int>(integer(*parent, -1, b - 1, "-1 (the world) or " + body_range));
    const Node child = required(item, "child", body_range);
    joint.child = static_cast<int>(integer(child, 0, b - 1, body_range));
    if (joint.child == joint.parent) fail_found(child, "a body other than the parent");
    JointValues v = read_param_fields(item, "joints");
    if (auto axis = optional(item, "axis"))
      unit_vector(*axis, vec3(*axis, "the joint's axis [x, y, z]"), joint.axis);
    else if (free_direction)
      required(item, "axis", "the joint's axis [x, y, z] in the world at the start");
    if (auto limits = optional(item, "limits")) {
      const std::string expected = *type == JointType::Hinge ? "[lower, upper] turns about the axis in [-pi, pi] (rad)"
                                                             : "[lower, upper] slides along the axis (m)";
      if (!free_direction) fail(limits->path, "a fixed joint has no free direction to limit");
      if (!limits->json.is_array() || limits->size() != 2) fail_found(*limits, expected);
      joint.lower = number(limits->element(0), expected);
      joint.upper = number(limits->element(1), expected);
      if (joint.lower > joint.upper) fail_found(*limits, expected + " with lower <= upper");
      if (*type == JointType::Hinge && (joint.lower < -std::numbers::pi || joint.upper > std::numbers::pi))
        fail_found(*limits, expected);
      joint.limited = true;
    }
    if (auto collide = optional(item, "collide")) joint.collide = boolean(*collide);
    if (auto channel = optional(item, "channel")) {
      if (!free_direction)
        fail(channel->path, "a fixed joint has no motor to drive; expected a hinge or prismatic joint");
      if (scene.channels == 0)
        fail(channel->path, "found a channel but the scene has no control channels (controls.channels)");
      joint.channel = int_in(*channel, 0, scene.channels - 1, "a control channel");
    }
    if (auto gain = optional(item, "gain")) {
      if (joint.channel < 0) fail(gain->path, "found a gain without a \"channel\"; expected the channel it scales");
      joint.gain = number(*gain, "a finite gain (N m or N per unit of control)");
    }
    scene.joints.push_back(joint);
    values.push_back(v);
  }
  return values;
}

void SceneReader::store_joint_values(const std::vector<SceneReader::JointValues>& values, Scene& scene) {
  for (std::size_t j = 0; j < values.size(); ++j) store_param_fields(values[j], scene, j);
}

void SceneReader::read_joint_settings(const Node& node, JointSettings& s) const {
  expect_object(node, {"stiffness", "damping", "angular_stiffness", "angular_damping", "limit_stiffness"});
  if (auto v = optional(node, "stiffness")) s.stiffness = number(*v, "a stiffness > 0 (N/m)", positive);
  if (auto v = optional(node, "damping")) s.damping = number(*v, "a damping >= 0 (N s/m)", non_negative);
  if (auto v = optional(node, "angular_stiffness"))
    s.angular_stiffness = number(*v, "a stiffness > 0 (N m/rad)", positive);
  if (auto v = optional(node, "angular_damping"))
    s.angular_damping = number(*v, "a damping >= 0 (N m s/rad)", non_negative);
  if (auto v = optional(node, "limit_stiffness")) s.limit_stiffness = number(*v, "a stiffness >= 0", non_negative);
}

// A number for every step and joint, or one row of J values per step.
void SceneReader::read_joint_controls(const Node& node, Scene& scene) const {
  const auto steps = static_cast<std::size_t>(scene.settings.steps);
  const auto joints = static_cast<std::size_t>(scene.joint_count());
  if (joints == 0) fail(node.path, "joint controls need joints; expected a \"joints\" array");
  std::vector<double>& controls = scene.params[ParamId::JointControl].value;
  constexpr std::string_view value = "a finite torque (N m) or force (N)";
  if (node.json.is_number()) {
    controls.assign(steps * joints, number(node, value));
    return;
  }
  if (!node.json.is_array() || node.size() != steps)
    fail_found(node, "a number for all, or an array of " + std::to_string(steps) +
                         " rows (one per step, simulation.steps) of " + std::to_string(joints) + " numbers");
  controls.clear();
  for (std::size_t t = 0; t < steps; ++t) {
    const Node row = node.element(t);
    if (!row.json.is_array() || row.size() != joints)
      fail_found(row, "an array of " + std::to_string(joints) + " values (one per joint)");
    for (std::size_t k = 0; k < joints; ++k) controls.push_back(number(row.element(k), value));
  }
}

// [[particle, body], ...]: each particle held to the body where it starts.
void SceneReader::read_attachments(const Node& node, Scene& scene) const {
  constexpr std::string_view expected = "an array of [particle, body] pairs";
  expect_array(node, expected);
  const int b = scene.body_count();
  if (b == 0 && node.size() > 0) fail(node.path, "attachments need bodies; expected a \"bodies\" array");
  std::vector<int> attached_to(size_t(scene.particle_count()), -1);
  for (std::size_t k = 0; k < node.size(); ++k) {
    const Node pair = node.element(k);
    if (!pair.json.is_array() || pair.size() != 2) fail_found(pair, "a pair [particle, body]");
    const int particle = particle_index(pair.element(0));
    const int body =
        static_cast<int>(integer(pair.element(1), 0, b - 1, "a body index in [0, " + std::to_string(b) + ")"));
    if (attached_to[size_t(particle)] >= 0)
      fail_found(pair.element(0), "each particle attached once (it is already held to body " +
                                      std::to_string(attached_to[size_t(particle)]) + ")");
    if (scene.pinned[size_t(particle)])
      fail_found(pair.element(0), "a particle that is not pinned (a pinned particle cannot follow a body)");
    attached_to[size_t(particle)] = body;
    scene.attachments.push_back({particle, body});
  }
}

// ---- Writing ----------------------------------------------------------------------

namespace {

OrderedJson body_json(const Scene& scene, int b) {
  const RigidBody& body = scene.bodies[size_t(b)];
  const ParameterSet& p = scene.params;
  OrderedJson j;
  if (!body.name.empty()) j["name"] = body.name;
  j["shape"] = body_shape_name(body.shape);
  const ShapeSize size = body_shape_size(body, p, b);
  switch (body.shape) {
    case BodyShape::Sphere: j["radius"] = size[0]; break;
    case BodyShape::Box: j["half_extents"] = vec3_json(size.data()); break;
    case BodyShape::Capsule:
      j["radius"] = size[0];
      j["half_length"] = size[1];
      break;
    case BodyShape::Mesh: {
      j["mesh"] = body.mesh->file.generic_string();
      const double* s = body.mesh->scale;
      if (s[0] != 1 || s[1] != 1 || s[2] != 1) j["scale"] = vec3_json(s);
      break;
    }
  }
  write_param_fields(j, scene, "bodies", b);
  return j;
}

OrderedJson joint_json(const Scene& scene, int k) {
  const Joint& joint = scene.joints[size_t(k)];
  OrderedJson j;
  if (!joint.name.empty()) j["name"] = joint.name;
  j["type"] = joint_type_name(joint.type);
  j["parent"] = joint.parent;
  j["child"] = joint.child;
  write_param_fields(j, scene, "joints", k);
  if (joint.type != JointType::Ball) j["axis"] = vec3_json(joint.axis);
  if (joint.limited) j["limits"] = OrderedJson::array({joint.lower, joint.upper});
  if (joint.collide) j["collide"] = true;
  if (joint.channel >= 0) {
    j["channel"] = joint.channel;
    j["gain"] = joint.gain;
  }
  return j;
}

}  // namespace

static OrderedJson bodies_json(const Scene& scene) {
  OrderedJson bodies = OrderedJson::array();
  for (int b = 0; b < scene.body_count(); ++b) bodies.push_back(body_json(scene, b));
  return bodies;
}

static OrderedJson joints_json(const Scene& scene) {
  OrderedJson joints = OrderedJson::array();
  for (int k = 0; k < scene.joint_count(); ++k) joints.push_back(joint_json(scene, k));
  return joints;
}

static OrderedJson joint_settings_json(const JointSettings& js) {
  return {{"stiffness", js.stiffness},
          {"damping", js.damping},
          {"angular_stiffness", js.angular_stiffness},
          {"angular_damping", js.angular_damping},
          {"limit_stiffness", js.limit_stiffness}};
}

// A row of motor controls per step, or an empty array when every control is 0 (the
// default, then not written).
static OrderedJson joint_controls_json(const Scene& scene) {
  const std::vector<double>& controls = scene.params[ParamId::JointControl].value;
  if (std::any_of(controls.begin(), controls.end(), [](double u) { return u != 0.0; }))
    return rows(controls, scene.joint_count());
  return OrderedJson::array();
}

static OrderedJson attachments_json(const Scene& scene) {
  OrderedJson attachments = OrderedJson::array();
  for (const Attachment& a : scene.attachments) attachments.push_back({a.particle, a.body});
  return attachments;
}

// ---- Checking ---------------------------------------------------------------------

namespace {

// The sizes body b's shape uses are > 0 and the others 0, where a scene file has them.
Problem check_body_sizes(const Scene& scene, int b) {
  const BodyShape shape = scene.bodies[size_t(b)].shape;
  const std::vector<ShapeSizeEntry> used = shape_size_entries(shape);
  for (int i = 0; i < kParamCount; ++i) {
    const auto id = static_cast<ParamId>(i);
    if (!is_body_size(id)) continue;
    const Parameter& p = scene.params[id];
    if (p.value.size() != size_t(scene.body_count()) * size_t(p.cols)) continue;  // check_parameters says so
    const ParamFacts& facts = param_facts(id);
    for (int col = 0; col < p.cols; ++col) {
      const double value = p.value[size_t(b) * size_t(p.cols) + size_t(col)];
      const bool uses =
          std::any_of(used.begin(), used.end(), [&](const ShapeSizeEntry& e) { return e.param == id && e.col == col; });
      std::string where = index_path("bodies", b) + "." + std::string(facts.where.substr(facts.where.find('.') + 1));
      if (p.cols > 1) where = index_path(where, col);
      if (uses && !positive(value)) return found(where, value, facts.expected);
      if (!uses && value != 0)
        return found(where, value,
                     "0: a " + std::string(body_shape_name(shape)) + " body has no " + std::string(facts.label));
    }
  }
  return std::nullopt;
}

}  // namespace

// Each body's shape has positive sizes (and none it does not use), and its orientation
// is a quaternion that can be normalised.
static Problem check_bodies(const Scene& scene) {
  for (int b = 0; b < scene.body_count(); ++b) {
    const RigidBody& body = scene.bodies[size_t(b)];
    const std::string at = index_path("bodies", b);
    if (body.shape == BodyShape::Mesh && (!body.mesh || body.mesh->hull.planes.size() < 4))
      return at + ".mesh: no convex hull; expected a body mesh made by load_body_mesh";
    if (Problem problem = check_body_sizes(scene, b)) return problem;
    const std::vector<double>& q = scene.params[ParamId::BodyOrientation].value;
    if (q.size() == 4 * size_t(scene.body_count())) {
      const double* o = &q[4 * size_t(b)];
      if (!(o[0] * o[0] + o[1] * o[1] + o[2] * o[2] + o[3] * o[3] > 1e-12))
        return at + ".orientation: a zero quaternion; expected a rotation [x, y, z, w] of non-zero length";
    }
  }
  return std::nullopt;
}

// Each joint names bodies that exist (two different ones, or one and the world), a unit
// axis, limits in order, and the penalty settings are usable.
static Problem check_joints(const Scene& scene) {
  const int b = scene.body_count();
  const std::string body_range = "a body index in [0, " + std::to_string(b) + ")";
  for (int j = 0; j < scene.joint_count(); ++j) {
    const Joint& joint = scene.joints[size_t(j)];
    const std::string at = index_path("joints", j);
    if (joint.parent < -1 || joint.parent >= b)
      return found(at + ".parent", joint.parent, "-1 (the world) or " + body_range);
    if (joint.child < 0 || joint.child >= b) return found(at + ".child", joint.child, body_range);
    if (joint.parent == joint.child) return found(at + ".child", joint.child, "a body other than the parent");
    const double length = std::hypot(joint.axis[0], joint.axis[1], joint.axis[2]);
    if (!finite(length) || std::abs(length - 1.0) > 1e-6)
      return found(at + ".axis", length, "a unit vector (length 1)");
    if (joint.channel >= scene.channels || joint.channel < -1)
      return found(at + ".channel", joint.channel, "a control channel in [0, " + std::to_string(scene.channels) + ")");
    if (joint.channel >= 0 && joint.type != JointType::Hinge && joint.type != JointType::Prismatic)
      return at + ".channel: a " + std::string(joint_type_name(joint.type)) + " joint has no motor to drive";
    if (!finite(joint.gain)) return found(at + ".gain", joint.gain, "a finite gain");
    if (joint.limited) {
      if (joint.type != JointType::Hinge && joint.type != JointType::Prismatic)
        return at + ".limits: a " + std::string(joint_type_name(joint.type)) + " joint has no free direction to limit";
      if (!finite(joint.lower) || !finite(joint.upper) || joint.lower > joint.upper)
        return at + ".limits: found [" + number_text(joint.lower) + ", " + number_text(joint.upper) +
               "]; expected [lower, upper] with lower <= upper";
      if (joint.type == JointType::Hinge && (joint.lower < -std::numbers::pi || joint.upper > std::numbers::pi))
        return at + ".limits: found [" + number_text(joint.lower) + ", " + number_text(joint.upper) +
               "]; expected turns within [-pi, pi] (rad)";
    }
  }
  const JointSettings& js = scene.joint_settings;
  if (!positive(js.stiffness)) return found("joint_settings.stiffness", js.stiffness, "a stiffness > 0 (N/m)");
  if (!non_negative(js.damping)) return found("joint_settings.damping", js.damping, "a damping >= 0 (N s/m)");
  if (!positive(js.angular_stiffness))
    return found("joint_settings.angular_stiffness", js.angular_stiffness, "a stiffness > 0 (N m/rad)");
  if (!non_negative(js.angular_damping))
    return found("joint_settings.angular_damping", js.angular_damping, "a damping >= 0 (N m s/rad)");
  if (!non_negative(js.limit_stiffness))
    return found("joint_settings.limit_stiffness", js.limit_stiffness, "a stiffness >= 0");
  return std::nullopt;
}

// Each attachment names a particle (free, attached once) and a body that exist.
static Problem check_attachments(const Scene& scene) {
  const int n = scene.particle_count(), b = scene.body_count();
  std::set<int> attached;
  for (std::size_t k = 0; k < scene.attachments.size(); ++k) {
    const Attachment& a = scene.attachments[k];
    const std::string at = index_path("attachments", static_cast<long long>(k));
    if (a.particle < 0 || a.particle >= n)
      return found(index_path(at, 0), a.particle, "a particle index in [0, " + std::to_string(n) + ")");
    if (a.body < 0 || a.body >= b)
      return found(index_path(at, 1), a.body, "a body index in [0, " + std::to_string(b) + ")");
    if (!attached.insert(a.particle).second) return found(index_path(at, 0), a.particle, "each particle attached once");
    if (scene.pinned[size_t(a.particle)])
      return found(index_path(at, 0), a.particle,
                   "a particle that is not pinned (a pinned particle cannot follow a body)");
  }
  return std::nullopt;
}

// ---- Its rows in the list of sections (scene_section.h) ---------------------------

extern const SceneSection kBodiesSection{
    "bodies",
    ReadStage::Bodies,
    [](const SectionInput& in, Scene& scene) -> AfterShaping {
      if (!in.node) return {};
      return [values = in.reader.read_bodies(*in.node, scene)](Scene& s) { SceneReader::store_body_values(values, s); };
    },
    [](const Scene& scene) { return scene.body_count() > 0 ? bodies_json(scene) : OrderedJson(); },
    CheckStage::Elements,
    check_bodies};

extern const SceneSection kJointsSection{
    "joints",
    ReadStage::Links,
    [](const SectionInput& in, Scene& scene) -> AfterShaping {
      if (!in.node) return {};
      return
          [values = in.reader.read_joints(*in.node, scene)](Scene& s) { SceneReader::store_joint_values(values, s); };
    },
    [](const Scene& scene) { return scene.joint_count() > 0 ? joints_json(scene) : OrderedJson(); },
    CheckStage::Elements,
    check_joints};

// Attachments hold with the joints' positional lock, so its settings go with them too.
extern const SceneSection kJointSettingsSection{"joint_settings", ReadStage::Links,
                                                [](const SectionInput& in, Scene& scene) -> AfterShaping {
                                                  if (in.node)
                                                    in.reader.read_joint_settings(*in.node, scene.joint_settings);
                                                  return {};
                                                },
                                                [](const Scene& scene) {
                                                  return scene.joint_count() > 0 || !scene.attachments.empty()
                                                             ? joint_settings_json(scene.joint_settings)
                                                             : OrderedJson();
                                                }};

extern const SceneSection kJointControlsSection{
    "joint_controls", ReadStage::Values,
    [](const SectionInput& in, Scene& scene) -> AfterShaping {
      if (in.node) in.reader.read_joint_controls(*in.node, scene);
      return {};
    },
    [](const Scene& scene) { return scene.joint_count() > 0 ? joint_controls_json(scene) : OrderedJson(); }};

extern const SceneSection kAttachmentsSection{
    "attachments",
    ReadStage::Values,
    [](const SectionInput& in, Scene& scene) -> AfterShaping {
      if (in.node) in.reader.read_attachments(*in.node, scene);
      return {};
    },
    [](const Scene& scene) { return scene.attachments.empty() ? OrderedJson() : attachments_json(scene); },
    CheckStage::Elements,
    check_attachments};

}  // namespace nudge::scene_io
