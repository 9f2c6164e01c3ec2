// The "articulations" section (nudge/articulations.h): the links of every tree, parents
// first, each with its joint, shapes and parameter fields, and the actuators on their
// joints; read, written back and checked. A link's parent and an actuator's link are
// named, so that a file reads as the robot it describes.
#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <numbers>
#include <optional>
#include <string>
#include <vector>

#include "families/articulations/articulation_dynamics.h"
#include "families/articulations/articulation_links.h"
#include "io/json_text.h"
#include "io/scene_section.h"
#include "io/scene_sections.h"
#include "nudge/parameter_facts.h"

namespace nudge {

namespace scene_io {
namespace {

constexpr const char* kSection = "articulations";
constexpr const char* kLinks = "articulations.links";
constexpr const char* kActuators = "articulations.actuators";
constexpr const char* kJoints = "\"hinge\", \"slide\", \"ball\", \"free\" or \"weld\"";
constexpr const char* kShapeKinds = "\"sphere\", \"capsule\", \"box\", \"cylinder\" or \"mesh\"";

constexpr std::array<std::string_view, 5> kShapeNames{"sphere", "capsule", "box", "cylinder", "mesh"};

std::optional<ArticulationJoint> joint_from_name(std::string_view name) {
  for (ArticulationJoint j : {ArticulationJoint::Weld, ArticulationJoint::Hinge, ArticulationJoint::Slide,
                              ArticulationJoint::Ball, ArticulationJoint::Free})
    if (articulation_joint_name(j) == name) return j;
  return std::nullopt;
}

template <size_t N>
void read_numbers(const SceneReader& r, const Node& node, double (&out)[N], std::string_view expected) {
  if (!node.json.is_array() || node.size() != N) r.fail_found(node, expected);
  for (size_t k = 0; k < N; ++k) out[k] = r.number(node.element(k), expected);
}

LinkShape read_shape(const SceneReader& r, const Node& node) {
  r.expect_object(node, {"kind", "size", "pos", "quat", "rgba", "mesh", "mesh_scale", "collides", "drawn"});
  LinkShape s;
  const std::string kind = r.string(r.required(node, "kind", kShapeKinds), kShapeKinds);
  const auto found = std::find(kShapeNames.begin(), kShapeNames.end(), kind);
  if (found == kShapeNames.end()) r.fail_found(r.required(node, "kind", kShapeKinds), kShapeKinds);
  s.kind = static_cast<LinkShape::Kind>(found - kShapeNames.begin());
  if (auto v = r.optional(node, "size")) read_numbers(r, *v, s.size, "[a, b, c]: the shape's size (m)");
  if (auto v = r.optional(node, "pos")) read_numbers(r, *v, s.pos, "[x, y, z]: its place in the link (m)");
  if (auto v = r.optional(node, "quat")) read_numbers(r, *v, s.quat, "[x, y, z, w]: its orientation in the link");
  if (auto v = r.optional(node, "rgba")) read_numbers(r, *v, s.rgba, "[r, g, b, a] in [0, 1]");
  if (auto v = r.optional(node, "mesh")) s.mesh = r.string(*v, "an OBJ or STL file");
  if (auto v = r.optional(node, "mesh_scale")) read_numbers(r, *v, s.mesh_scale, "[x, y, z]: the mesh's scale");
  if (auto v = r.optional(node, "collides")) s.collides = r.boolean(*v);
  if (auto v = r.optional(node, "drawn")) s.drawn = r.boolean(*v);
  if (s.kind == LinkShape::Kind::Mesh) {  // its hull, from the file relative to the scene's folder
    const char* expected = "the path of an OBJ or STL file, relative to the scene's folder";
    const Node file = r.required(node, "mesh", expected);
    if (s.mesh.empty()) r.fail_found(file, expected);
    const std::filesystem::path path(s.mesh);
    Result<std::shared_ptr<const ConvexMesh>> hull = load_link_mesh(path.is_absolute() ? path : r.folder() / path);
    if (!hull) r.fail(file.path, hull.error().message);
    s.hull = *hull;
  }
  return s;
}

double norm3(const double* v) { return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]); }

AfterShaping read_articulations(const SectionInput& in, Scene& scene) {
  if (!in.node) return {};
  const SceneReader& r = in.reader;
  const Node& node = *in.node;
  r.expect_object(node, {"source", "self_contact", "links", "actuators"});
  Articulations& a = scene.articulations;
  if (auto source = r.optional(node, "source")) a.source = r.string(*source, "the MJCF or URDF file it came from");
  if (auto self = r.optional(node, "self_contact")) a.self_contact = r.boolean(*self);
  const Node links = r.required(node, "links", "an array of links: {\"name\", \"joint\", ...}");
  r.expect_array(links, "an array of links");
  std::map<std::string, int> by_name;
  std::vector<std::vector<SceneReader::FieldValue>> fields, actuator_fields;
  for (size_t k = 0; k < links.size(); ++k) {
    const Node item = links.element(k);
    if (!item.json.is_object()) r.fail_found(item, "a link object with a \"name\" and a \"joint\"");
    r.expect_object(
        item, section_keys(kLinks, {"name", "parent", "joint", "joint_name", "quat", "anchor", "axis", "length_axis",
                                    "range", "limit_stiffness", "limit_damping", "friction_velocity", "shapes"}));
    ArticulationLink l;
    const Node name = r.required(item, "name", "the link's name, unique in the scene");
    l.name = r.string(name, "the link's name");
    if (l.name.empty() || by_name.count(l.name)) r.fail_found(name, "a name no other link has");
    if (auto parent = r.optional(item, "parent")) {
      const std::string p = r.string(*parent, "the name of a link before this one");
      const auto at = by_name.find(p);
      if (at == by_name.end()) r.fail_found(*parent, "the name of a link before this one");
      l.parent = at->second;
    }
    const Node joint = r.required(item, "joint", kJoints);
    const std::optional<ArticulationJoint> kind = joint_from_name(r.string(joint, kJoints));
    if (!kind) r.fail_found(joint, kJoints);
    l.joint = *kind;
    if (auto v = r.optional(item, "joint_name")) l.joint_name = r.string(*v, "the joint's name");
    if (auto v = r.optional(item, "quat")) read_numbers(r, *v, l.quat, "[x, y, z, w]: a non-zero quaternion");
    if (auto v = r.optional(item, "anchor")) read_numbers(r, *v, l.anchor, "[x, y, z]: the joint's point (m)");
    if (auto v = r.optional(item, "axis")) read_numbers(r, *v, l.axis, "[x, y, z]: a non-zero axis");
    if (auto v = r.optional(item, "length_axis")) {
      const char* expected = "[x, y, z]: a non-zero direction that link_length stretches the link along";
      read_numbers(r, *v, l.length_axis, expected);
      const double n = norm3(l.length_axis);
      if (!(n > 0)) r.fail_found(*v, expected);
      for (double& x : l.length_axis) x /= n;
    }
    if (auto v = r.optional(item, "range")) {
      if (l.joint == ArticulationJoint::Ball) {
        const char* cone = "[0, angle]: a ball's cone limit, its largest angle in (0, pi] (rad)";
        read_numbers(r, *v, l.range, cone);
        if (!(l.range[0] == 0 && l.range[1] > 0 && l.range[1] <= std::numbers::pi)) r.fail_found(*v, cone);
      } else {
        if (joint_velocity_count(l.joint) != 1)
          r.fail_found(*v, "a range only on a hinge, a slide or a ball (this joint has no limit)");
        read_numbers(r, *v, l.range, "[lower, upper]: the joint's limits (rad or m)");
        if (!(l.range[0] < l.range[1])) r.fail_found(*v, "[lower, upper] with lower < upper");
      }
      l.limited = true;
    }
    const auto limit_term = [&](const char* key, double& out) {
      if (auto v = r.optional(item, key)) {
        if (!l.limited) r.fail_found(*v, "a limit's term only beside a \"range\"");
        out = r.number(*v, "a number >= 0");
        if (out < 0) r.fail_found(*v, "a number >= 0");
      }
    };
    limit_term("limit_stiffness", l.limit_stiffness);
    limit_term("limit_damping", l.limit_damping);
    if (auto v = r.optional(item, "friction_velocity")) {
      const char* expected = "a rate > 0 (rad/s or m/s) over which the joint's friction grows";
      l.friction_velocity = r.number(*v, expected);
      if (!(l.friction_velocity > 0)) r.fail_found(*v, expected);
    }
    if (auto shapes = r.optional(item, "shapes")) {
      r.expect_array(*shapes, "an array of shapes");
      for (size_t s = 0; s < shapes->size(); ++s) l.shapes.push_back(read_shape(r, shapes->element(s)));
    }
    by_name[l.name] = static_cast<int>(k);
    a.links.push_back(std::move(l));
    fields.push_back(r.read_param_fields(item, kLinks));
  }
  if (auto actuators = r.optional(node, "actuators")) {
    r.expect_array(*actuators, "an array of actuators: {\"link\", \"channel\", ...}");
    const std::string channels = "a channel in [0, " + std::to_string(scene.channels) + ")";
    for (size_t k = 0; k < actuators->size(); ++k) {
      const Node item = actuators->element(k);
      r.expect_object(item, section_keys(kActuators, {"name", "link", "channel", "gear", "ctrl_range", "force_range"}));
      ArticulationActuator act;
      if (auto v = r.optional(item, "name")) act.name = r.string(*v, "the actuator's name");
      const Node link = r.required(item, "link", "the name of the link whose joint it drives");
      const auto at = by_name.find(r.string(link, "a link's name"));
      if (at == by_name.end()) r.fail_found(link, "the name of a link of this section");
      act.link = at->second;
      act.channel = static_cast<int>(
          r.integer(r.required(item, "channel", channels), 0, std::max(scene.channels, 1) - 1, channels));
      if (auto v = r.optional(item, "gear")) act.gear = r.number(*v, "a finite gear");
      const auto range = [&](const char* key, double(&out)[2], bool& limited, const char* expected) {
        if (auto v = r.optional(item, key)) {
          read_numbers(r, *v, out, expected);
          if (!(out[0] < out[1])) r.fail_found(*v, "[lower, upper] with lower < upper");
          limited = true;
        }
      };
      range("ctrl_range", act.ctrl_range, act.ctrl_limited, "[lower, upper]: the range its control is clamped to");
      range("force_range", act.force_range, act.force_limited,
            "[lower, upper]: the range its force (before the gear) is clamped to");
      a.actuators.push_back(act);
      actuator_fields.push_back(r.read_param_fields(item, kActuators));
    }
  }
  return [fields, actuator_fields](Scene& s) {
    for (size_t k = 0; k < fields.size(); ++k) SceneReader::store_param_fields(fields[k], s, k);
    for (size_t k = 0; k < actuator_fields.size(); ++k) SceneReader::store_param_fields(actuator_fields[k], s, k);
  };
}

OrderedJson shape_json(const LinkShape& s) {
  OrderedJson j;
  j["kind"] = std::string(kShapeNames[size_t(s.kind)]);
  j["size"] = {s.size[0], s.size[1], s.size[2]};
  j["pos"] = {s.pos[0], s.pos[1], s.pos[2]};
  j["quat"] = {s.quat[0], s.quat[1], s.quat[2], s.quat[3]};
  j["rgba"] = {s.rgba[0], s.rgba[1], s.rgba[2], s.rgba[3]};
  if (s.kind == LinkShape::Kind::Mesh) {
    j["mesh"] = s.mesh;
    j["mesh_scale"] = {s.mesh_scale[0], s.mesh_scale[1], s.mesh_scale[2]};
  }
  if (!s.collides) j["collides"] = false;
  if (!s.drawn) j["drawn"] = false;
  return j;
}

OrderedJson articulations_json(const Scene& scene) {
  const Articulations& a = scene.articulations;
  if (a.empty()) return OrderedJson();
  OrderedJson j;
  if (!a.source.empty()) j["source"] = a.source;
  if (a.self_contact) j["self_contact"] = true;
  OrderedJson links = OrderedJson::array();
  for (size_t k = 0; k < a.links.size(); ++k) {
    const ArticulationLink& l = a.links[k];
    OrderedJson item;
    item["name"] = l.name;
    if (l.parent >= 0) item["parent"] = a.links[size_t(l.parent)].name;
    item["joint"] = std::string(articulation_joint_name(l.joint));
    if (!l.joint_name.empty()) item["joint_name"] = l.joint_name;
    item["quat"] = {l.quat[0], l.quat[1], l.quat[2], l.quat[3]};
    if (l.joint != ArticulationJoint::Weld) item["anchor"] = {l.anchor[0], l.anchor[1], l.anchor[2]};
    if (joint_velocity_count(l.joint) == 1) item["axis"] = {l.axis[0], l.axis[1], l.axis[2]};
    if (norm3(l.length_axis) > 0) item["length_axis"] = {l.length_axis[0], l.length_axis[1], l.length_axis[2]};
    if (l.limited) {
      item["range"] = {l.range[0], l.range[1]};
      item["limit_stiffness"] = l.limit_stiffness;
      item["limit_damping"] = l.limit_damping;
    }
    if (l.friction_velocity != ArticulationLink{}.friction_velocity) item["friction_velocity"] = l.friction_velocity;
    write_param_fields(item, scene, kLinks, static_cast<int>(k));
    if (!l.shapes.empty()) {
      OrderedJson shapes = OrderedJson::array();
      for (const LinkShape& s : l.shapes) shapes.push_back(shape_json(s));
      item["shapes"] = shapes;
    }
    links.push_back(item);
  }
  j["links"] = links;
  if (!a.actuators.empty()) {
    OrderedJson actuators = OrderedJson::array();
    for (size_t k = 0; k < a.actuators.size(); ++k) {
      const ArticulationActuator& act = a.actuators[k];
      OrderedJson item;
      if (!act.name.empty()) item["name"] = act.name;
      item["link"] = a.links[size_t(act.link)].name;
      item["channel"] = act.channel;
      item["gear"] = act.gear;
      write_param_fields(item, scene, kActuators, static_cast<int>(k));
      if (act.ctrl_limited) item["ctrl_range"] = {act.ctrl_range[0], act.ctrl_range[1]};
      if (act.force_limited) item["force_range"] = {act.force_range[0], act.force_range[1]};
      actuators.push_back(item);
    }
    j["actuators"] = actuators;
  }
  return j;
}

// The first tree whose mass matrix at the initial q is not positive definite: some joint
// moves nothing with mass or inertia.
std::optional<std::string> check_mass_matrices(const Scene& scene) {
  const Articulations& a = scene.articulations;
  const std::vector<TreeModel> trees = tree_models(a);
  std::vector<std::vector<double>> matrices = initial_mass_matrices(a, scene.params);
  for (size_t t = 0; t < trees.size(); ++t) {
    const TreeModel& tree = trees[t];
    if (tree.dofs == 0) continue;
    if (!cholesky_factor(matrices[t].data(), tree.dofs))
      return "articulations: the tree from link \"" + a.links[size_t(tree.first_link)].name +
             "\" has a joint that moves no mass or inertia (its mass matrix is singular at the initial q); "
             "expected mass and inertia on the links each joint carries, or armature on the joint";
  }
  return std::nullopt;
}

std::optional<std::string> check_articulations(const Scene& scene) {
  const Articulations& a = scene.articulations;
  if (a.empty()) return std::nullopt;
  size_t root = 0;
  for (size_t k = 0; k < a.links.size(); ++k) {
    const ArticulationLink& l = a.links[k];
    const std::string at = index_path("articulations.links", static_cast<long long>(k));
    if (l.parent < 0) root = k;
    if (l.parent >= static_cast<int>(k)) return at + ".parent: found a link after it; expected one before it";
    if (l.parent >= 0 && size_t(l.parent) < root)
      return at + ".parent: found a link of an earlier tree; expected each tree's links together, parents first";
    if (!(norm3(l.quat) > 0 || std::fabs(l.quat[3]) > 0)) return at + ".quat: found zero; expected a rotation";
    if (joint_velocity_count(l.joint) == 1 && !(norm3(l.axis) > 0))
      return at + ".axis: found zero; expected the joint's axis";
    if (l.joint == ArticulationJoint::Free && l.parent >= 0)
      return at + ".joint: found a free joint on a link with a parent (\"" + a.links[size_t(l.parent)].name +
             "\"); expected a free joint only on a tree's root, which it joins to the world";
    if (l.joint == ArticulationJoint::Ball || l.joint == ArticulationJoint::Free) {
      const std::vector<double>& rotation = scene.params[ParamId::LinkRotation].value;
      if (rotation.size() == 4 * a.links.size() && !(norm3(&rotation[4 * k]) > 0 || std::fabs(rotation[4 * k + 3]) > 0))
        return at + ".rotation: found zero; expected a rotation [x, y, z, w]";
    }
    for (double x : {l.quat[0], l.quat[1], l.quat[2], l.quat[3], l.anchor[0], l.anchor[1], l.anchor[2], l.axis[0],
                     l.axis[1], l.axis[2], l.length_axis[0], l.length_axis[1], l.length_axis[2]})
      if (!std::isfinite(x)) return at + ": found a value that is not finite in quat, anchor, axis or length_axis";
    const std::vector<double>& length = scene.params[ParamId::LinkLength].value;
    if (length.size() == a.links.size() && length[k] != 1.0 && !(norm3(l.length_axis) > 0))
      return at + ".length: found " + number_text(length[k]) +
             " on a link with no length_axis; expected 1, or a length_axis to stretch the link along";
    for (ParamId spring : {ParamId::LinkStiffness, ParamId::LinkSpringRef}) {
      const std::vector<double>& v = scene.params[spring].value;
      const bool ball_stiffness = spring == ParamId::LinkStiffness && l.joint == ArticulationJoint::Ball;
      if (v.size() == a.links.size() && v[k] != 0 && joint_velocity_count(l.joint) != 1 && !ball_stiffness)
        return at + "." + std::string(param_key(param_facts(spring))) + ": found " + number_text(v[k]) + " on a " +
               std::string(articulation_joint_name(l.joint)) +
               (spring == ParamId::LinkStiffness
                    ? "; expected 0 (a joint spring only on a hinge, a slide or a ball)"
                    : "; expected 0 (a spring_ref only on a hinge or a slide: a ball's spring pulls toward no turn)");
    }
    for (size_t j = 0; j < l.shapes.size(); ++j) {
      const std::string shape_at = index_path(at + ".shapes", static_cast<long long>(j));
      if (l.shapes[j].kind == LinkShape::Kind::Mesh && l.shapes[j].collides && !l.shapes[j].hull)
        return shape_at + ".mesh: found \"" + l.shapes[j].mesh +
               "\" not read; expected its hull read with the scene (load_scene) or the robot (nudge import)";
      if (!l.shapes[j].drawn && !l.shapes[j].collides)
        return shape_at + ": found a shape neither drawn nor colliding; expected \"drawn\" or \"collides\" true";
    }
    const std::vector<double>& friction = scene.params[ParamId::LinkFrictionLoss].value;
    if (friction.size() == a.links.size() && friction[k] != 0 && l.joint == ArticulationJoint::Weld)
      return at + ".frictionloss: found " + number_text(friction[k]) + " on a weld; expected 0 (a weld does not move)";
    if (!(l.friction_velocity > 0 && std::isfinite(l.friction_velocity)))
      return at + ".friction_velocity: found " + number_text(l.friction_velocity) + "; expected a rate > 0";
    if (l.limited && l.joint == ArticulationJoint::Ball) {  // a cone: [0, its angle]
      if (!(l.range[0] == 0 && l.range[1] > 0 && l.range[1] <= std::numbers::pi))
        return at + ".range: found [" + number_text(l.range[0]) + ", " + number_text(l.range[1]) +
               "] on a ball; expected [0, angle] with angle in (0, pi] (a cone limit, as MuJoCo's)";
    } else if (l.limited) {
      if (joint_velocity_count(l.joint) != 1)
        return at + ".range: found a range on a " + std::string(articulation_joint_name(l.joint)) +
               " joint; expected one only on a hinge, a slide or a ball";
      if (!(std::isfinite(l.range[0]) && std::isfinite(l.range[1]) && l.range[0] < l.range[1]))
        return at + ".range: found [" + std::to_string(l.range[0]) + ", " + std::to_string(l.range[1]) +
               "]; expected finite [lower, upper] with lower < upper";
    }
    if (l.limited) {
      if (!(l.limit_stiffness >= 0 && std::isfinite(l.limit_stiffness)))
        return at + ".limit_stiffness: found " + std::to_string(l.limit_stiffness) + "; expected a number >= 0";
      if (!(l.limit_damping >= 0 && std::isfinite(l.limit_damping)))
        return at + ".limit_damping: found " + std::to_string(l.limit_damping) + "; expected a number >= 0";
    }
  }
  for (size_t k = 0; k < a.actuators.size(); ++k) {
    const ArticulationActuator& act = a.actuators[k];
    const std::string at = index_path("articulations.actuators", static_cast<long long>(k));
    if (act.link < 0 || act.link >= a.link_count()) return at + ".link: found no such link";
    if (joint_velocity_count(a.links[size_t(act.link)].joint) != 1)
      return at + ".link: found the link \"" + a.links[size_t(act.link)].name + "\" with a " +
             std::string(articulation_joint_name(a.links[size_t(act.link)].joint)) +
             "; expected a link with a hinge or a slide";
    if (act.channel < 0 || act.channel >= scene.channels)
      return at + ".channel: found " + std::to_string(act.channel) + "; expected a channel in [0, " +
             std::to_string(scene.channels) + ")";
    if (!std::isfinite(act.gear)) return at + ".gear: found " + number_text(act.gear) + "; expected a finite gear";
    const auto check_range = [&](bool limited, const double* range, const char* key) -> std::optional<std::string> {
      if (!limited || (std::isfinite(range[0]) && std::isfinite(range[1]) && range[0] < range[1])) return std::nullopt;
      return at + "." + key + ": found [" + number_text(range[0]) + ", " + number_text(range[1]) +
             "]; expected finite [lower, upper] with lower < upper";
    };
    if (auto problem = check_range(act.ctrl_limited, act.ctrl_range, "ctrl_range")) return problem;
    if (auto problem = check_range(act.force_limited, act.force_range, "force_range")) return problem;
  }
  if (scene.params[ParamId::LinkMass].value.size() != a.links.size()) return std::nullopt;  // the shapes' check says
  return check_mass_matrices(scene);
}

}  // namespace

extern const SceneSection kArticulationsSection{kSection,           ReadStage::Elements,  read_articulations,
                                                articulations_json, CheckStage::Elements, check_articulations};

}  // namespace scene_io
}  // namespace nudge
