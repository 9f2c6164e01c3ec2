// Reads URDF into an ImportedRobot. In URDF a joint's origin places its child link's frame
// in the parent link's, and the joint turns or slides that frame about or along its axis
// through the frame's origin: so a link's pos and quat are its joint's origin, its anchor
// is 0 and its axis is the joint's. The root link is welded to the world, unless a
// floating joint hangs the robot from it: then the root is the world's frame, and the
// floating joint's child is the tree's root on a free joint. A planar joint becomes two
// massless links with a slide each across its axis, then its child turning about it.
// Links come out parents first (a depth-first walk from the root, children in the
// file's order).
#include <tinyxml2.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "nudge/articulations.h"
#include "nudge/mat33.h"
#include "nudge/quat.h"
#include "nudge/vec3.h"
#include "io/robot_xml.h"
#include "nudge/robot_import.h"

namespace nudge {

namespace {

using robot_xml::in_quotes;
using robot_xml::parse_numbers;
using tinyxml2::XMLElement;
using V3 = Vec3<double>;
using Q = Quat<double>;
using M3 = Mat33<double>;

// An element for messages: with its name, or inside its nearest named ancestor
// (`<joint name="elbow"> <origin>`).
std::string urdf_label(const XMLElement* e) {
  const auto own = [](const XMLElement* x) {
    std::string label = "<" + std::string(x->Name());
    if (const char* name = x->Attribute("name")) label += " name=\"" + std::string(name) + "\"";
    return label + ">";
  };
  if (e->Attribute("name")) return own(e);
  for (const tinyxml2::XMLNode* p = e->Parent(); p != nullptr; p = p->Parent())
    if (const XMLElement* pe = p->ToElement(); pe != nullptr && pe->Attribute("name")) return own(pe) + " " + own(e);
  return own(e);
}

// URDF's rpy: turns about the fixed x, y and z axes in that order, R = Rz(yaw) Ry(pitch) Rx(roll).
Q quat_from_rpy(V3 rpy) {
  return quat_from_axis_angle(V3{0, 0, 1}, rpy.z) * quat_from_axis_angle(V3{0, 1, 0}, rpy.y) *
         quat_from_axis_angle(V3{1, 0, 0}, rpy.x);
}

struct Joint {
  const XMLElement* e = nullptr;
  std::string name, parent, child;
  ArticulationJoint type = ArticulationJoint::Weld;
  bool planar = false;  // a hinge about the axis after two slides across it
};

// A joint's <dynamics>: its damping and its dry friction (link_damping, link_frictionloss).
struct JointDynamics {
  double damping = 0, friction = 0;
};

class UrdfReader {
public:
  explicit UrdfReader(const std::filesystem::path& file) : file_(file), label_(file.string()) {
    folder_ = file.parent_path();
  }

  ImportedRobot read() {
    const XMLElement* root = load();
    if (std::string_view(root->Name()) != "robot")
      fail(root,
           "expected <robot> as the root element of a URDF file" +
               std::string(std::string_view(root->Name()) == "mujoco" ? " (this looks like MJCF: name it .xml)" : ""));
    robot_.name = root->Attribute("name") ? root->Attribute("name") : file_.stem().string();
    robot_.articulations.source = label_;
    for (const XMLElement* c = root->FirstChildElement("material"); c; c = c->NextSiblingElement("material"))
      if (const char* name = c->Attribute("name"))
        if (const XMLElement* color = c->FirstChildElement("color")) materials_[name] = rgba(color);

    std::vector<std::string> link_order;
    for (const XMLElement* c = root->FirstChildElement(); c; c = c->NextSiblingElement()) {
      const std::string_view tag = c->Name();
      if (tag == "link") {
        const char* name = c->Attribute("name");
        if (!name || !*name) fail(c, "needs a name");
        if (links_.count(name)) fail(c, "link " + in_quotes(name) + " is defined twice");
        links_[name] = c;
        link_order.push_back(name);
      } else if (tag == "joint") {
        joints_.push_back(read_joint(c));
      } else if (tag != "material") {
        note("<" + std::string(tag) + "> elements");
      }
    }
    if (links_.empty()) fail(root, "has no <link>");

    std::map<std::string, const Joint*, std::less<>> parent_joint;
    for (const Joint& j : joints_) {
      for (const std::string* l : {&j.parent, &j.child})
        if (!links_.count(*l)) fail(j.e, "link " + in_quotes(*l) + " is not defined");
      if (parent_joint.count(j.child))
        fail(j.e, "link " + in_quotes(j.child) + " already has a parent joint (" +
                      in_quotes(parent_joint[j.child]->name) + "); a URDF robot is a tree");
      parent_joint[j.child] = &j;
    }
    std::vector<std::string> roots;
    for (const std::string& l : link_order)
      if (!parent_joint.count(l)) roots.push_back(l);
    if (roots.size() != 1) {
      std::string list;
      for (const std::string& r : roots) list += (list.empty() ? "" : ", ") + in_quotes(r);
      fail(root, roots.empty() ? "has no root link: its joints make a loop"
                               : "has " + std::to_string(roots.size()) + " root links (" + list +
                                     "); expected one tree, every other link the child of a joint");
    }
    const Joint* floating = floating_joint(roots.front());
    if (floating) {
      note("link " + in_quotes(roots.front()) + ": the world's frame, which floating joint " +
           in_quotes(floating->name) + " hangs the robot from");
      emit(floating->child, floating, -1);
    } else {
      emit(roots.front(), nullptr, -1);
    }
    // A planar joint adds two links of its own (its slides).
    const auto planar = std::count_if(joints_.begin(), joints_.end(), [](const Joint& j) { return j.planar; });
    if (robot_.articulations.link_count() != static_cast<int>(links_.size() + 2 * planar) - (floating ? 1 : 0))
      fail(root, "some links are in a loop of joints, unreachable from the root link " + in_quotes(roots.front()));
    return std::move(robot_);
  }

private:
  std::filesystem::path file_, folder_;
  std::string label_;
  tinyxml2::XMLDocument document_;
  ImportedRobot robot_;
  std::map<std::string, const XMLElement*, std::less<>> links_;
  std::vector<Joint> joints_;
  std::map<std::string, std::vector<double>, std::less<>> materials_;

  [[noreturn]] void fail(const XMLElement* e, const std::string& message) const {
    throw robot_xml::Failure{label_ + ":" + std::to_string(e->GetLineNum()) + ": " + urdf_label(e) + ": " + message};
  }
  void note(const std::string& line) {
    if (std::find(robot_.ignored.begin(), robot_.ignored.end(), line) == robot_.ignored.end())
      robot_.ignored.push_back(line);
  }

  // The file's floating joint, if it has one: it must join the root link, a bare frame
  // (the world), to the robot's base, the only joint from the root. Nudge's free joint
  // moves a tree's root, so a floating joint anywhere else cannot be built.
  const Joint* floating_joint(const std::string& root) const {
    const Joint* floating = nullptr;
    int from_root = 0;
    for (const Joint& j : joints_) {
      from_root += j.parent == root ? 1 : 0;
      if (j.type != ArticulationJoint::Free) continue;
      if (j.parent != root)
        fail(j.e, "hangs link " + in_quotes(j.child) + " from " + in_quotes(j.parent) +
                      ", which is not the root link; a floating joint must join the root (the world's frame) to "
                      "the robot's base, whose free joint then moves the whole tree");
      if (floating) fail(j.e, "is a second floating joint; a robot has one base");
      floating = &j;
    }
    if (!floating) return nullptr;
    const XMLElement* world = links_.at(root);
    for (const char* tag : {"inertial", "visual", "collision"})
      if (const XMLElement* c = world->FirstChildElement(tag))
        fail(c, "is on the root link " + in_quotes(root) + ", which floating joint " + in_quotes(floating->name) +
                    " makes the world's frame; move it to the robot's base " + in_quotes(floating->child));
    if (from_root > 1)
      fail(floating->e, "is one of " + std::to_string(from_root) + " joints from the root link " + in_quotes(root) +
                            "; the world's frame may hold only the floating base");
    return floating;
  }

  const XMLElement* load() {
    if (std::optional<std::string> problem = robot_xml::load(file_, label_, document_))
      throw robot_xml::Failure{*problem};
    return document_.RootElement();
  }

  std::vector<double> numbers(const XMLElement* e, const char* name, std::size_t count,
                              std::vector<double> fallback) const {
    const char* text = e->Attribute(name);
    if (text == nullptr) {
      if (fallback.empty()) fail(e, "needs " + std::string(name));
      return fallback;
    }
    const std::optional<std::vector<double>> values = parse_numbers(text);
    const std::string expected = std::to_string(count) + (count == 1 ? " number" : " numbers");
    if (!values)
      fail(e, std::string(name) + " " + in_quotes(text) + " is not a list of numbers (expected " + expected + ")");
    if (values->size() != count)
      fail(e, std::string(name) + " needs " + expected + ", got " + std::to_string(values->size()));
    return *values;
  }
  double number(const XMLElement* e, const char* name, std::optional<double> fallback) const {
    return numbers(e, name, 1, fallback ? std::vector<double>{*fallback} : std::vector<double>{})[0];
  }
  V3 vec3(const XMLElement* e, const char* name, V3 fallback) const {
    const std::vector<double> v = numbers(e, name, 3, {fallback.x, fallback.y, fallback.z});
    return {v[0], v[1], v[2]};
  }
  std::vector<double> rgba(const XMLElement* color) const { return numbers(color, "rgba", 4, {}); }

  // An <origin>'s placement (identity when there is none).
  void origin(const XMLElement* parent, V3& pos, Q& quat) const {
    pos = {0, 0, 0}, quat = {0, 0, 0, 1};
    if (const XMLElement* o = parent->FirstChildElement("origin")) {
      pos = vec3(o, "xyz", {0, 0, 0});
      quat = quat_from_rpy(vec3(o, "rpy", {0, 0, 0}));
    }
  }

  Joint read_joint(const XMLElement* e) {
    Joint j;
    j.e = e;
    j.name = e->Attribute("name") ? e->Attribute("name") : "";
    if (j.name.empty()) fail(e, "needs a name");
    const std::string type = e->Attribute("type") ? e->Attribute("type") : "";
    if (type == "revolute" || type == "continuous") {
      j.type = ArticulationJoint::Hinge;
    } else if (type == "prismatic") {
      j.type = ArticulationJoint::Slide;
    } else if (type == "fixed") {
      j.type = ArticulationJoint::Weld;
    } else if (type == "floating") {
      j.type = ArticulationJoint::Free;
    } else if (type == "planar") {
      j.type = ArticulationJoint::Hinge;
      j.planar = true;
    } else {
      fail(e, "type " + in_quotes(type) +
                  " is not a URDF joint type; expected revolute, continuous, prismatic, fixed, floating or planar");
    }
    const auto link_of = [&](const char* tag) {
      const XMLElement* c = e->FirstChildElement(tag);
      if (c == nullptr || c->Attribute("link") == nullptr) fail(e, "needs <" + std::string(tag) + " link=\"...\"/>");
      return std::string(c->Attribute("link"));
    };
    j.parent = link_of("parent"), j.child = link_of("child");
    if (j.parent == j.child) fail(e, "joins link " + in_quotes(j.parent) + " to itself");
    return j;
  }

  // A link and, depth first, the links below it.
  void emit(const std::string& name, const Joint* joint, int parent) {
    const XMLElement* e = links_.at(name);
    ArticulationLink link;
    link.name = name;
    link.parent = parent;
    V3 pos{0, 0, 0};
    Q quat{0, 0, 0, 1};
    JointDynamics dynamics;
    if (joint == nullptr) {
      link.joint = ArticulationJoint::Weld;  // the root, welded to the world
    } else {
      link.joint = joint->type;
      link.joint_name = joint->name;
      origin(joint->e, pos, quat);
      V3 unit{1, 0, 0};
      if (joint->type == ArticulationJoint::Hinge || joint->type == ArticulationJoint::Slide) {
        const XMLElement* axis_element = joint->e->FirstChildElement("axis");
        const V3 axis = axis_element ? vec3(axis_element, "xyz", {1, 0, 0}) : V3{1, 0, 0};  // URDF's default axis
        if (length(axis) < 1e-12) fail(axis_element, "xyz is zero; expected a direction");
        unit = normalize(axis);
        link.axis[0] = unit.x, link.axis[1] = unit.y, link.axis[2] = unit.z;
      }
      if (joint->type != ArticulationJoint::Free) read_joint_extras(*joint, link, dynamics);
      if (joint->planar) {
        // In the plane normal to the axis: a slide along each of two directions across it
        // (massless links, as MJCF's several joints in one body), then the turn about it.
        const V3 across = normalize(std::fabs(unit.x) < 0.9 ? cross(unit, V3{1, 0, 0}) : cross(unit, V3{0, 1, 0}));
        const V3 second = cross(unit, across);
        parent = emit_slide(name + "_" + joint->name + "_1", joint->name + "_1", parent, across, pos, quat, dynamics);
        parent = emit_slide(name + "_" + joint->name + "_2", joint->name + "_2", parent, second, V3{0, 0, 0},
                            Q{0, 0, 0, 1}, dynamics);
        link.parent = parent;
        pos = {0, 0, 0}, quat = {0, 0, 0, 1};
      }
    }
    link.quat[0] = quat.x, link.quat[1] = quat.y, link.quat[2] = quat.z, link.quat[3] = quat.w;
    read_shapes(e, link);

    double mass = 0;
    V3 com{0, 0, 0};
    M3 inertia = zero33<double>();
    if (const XMLElement* inertial = e->FirstChildElement("inertial")) {
      Q frame{0, 0, 0, 1};
      origin(inertial, com, frame);
      const XMLElement* m = inertial->FirstChildElement("mass");
      if (m == nullptr) fail(inertial, "needs <mass value=\"...\"/>");
      mass = number(m, "value", std::nullopt);
      if (mass < 0) fail(m, "value must not be negative");
      if (const XMLElement* i = inertial->FirstChildElement("inertia")) {
        const auto at = [&](const char* k) { return number(i, k, 0.0); };
        const M3 own{
            {at("ixx"), at("ixy"), at("ixz"), at("ixy"), at("iyy"), at("iyz"), at("ixz"), at("iyz"), at("izz")}};
        const M3 rot = to_matrix(frame);
        inertia = rot * own * transpose(rot);
      } else {
        fail(inertial, "needs <inertia ixx ixy ixz iyy iyz izz/>");
      }
    }

    const int index = add_link(std::move(link), pos, mass, com, inertia, dynamics);
    for (const Joint& j : joints_)
      if (j.parent == name) emit(j.child, &j, index);
  }

  // Appends a link and its parameters' rows (no armature, starting at q = qd = 0); returns
  // its index.
  int add_link(ArticulationLink link, V3 pos, double mass, V3 com, const M3& inertia, const JointDynamics& dynamics) {
    robot_.articulations.links.push_back(std::move(link));
    for (double v : {pos.x, pos.y, pos.z}) robot_.pos.push_back(v);
    robot_.mass.push_back(mass);
    for (double v : {com.x, com.y, com.z}) robot_.com.push_back(v);
    for (double v : {inertia(0, 0), inertia(1, 1), inertia(2, 2), inertia(0, 1), inertia(0, 2), inertia(1, 2)})
      robot_.inertia.push_back(v);
    robot_.damping.push_back(dynamics.damping);
    robot_.frictionloss.push_back(dynamics.friction);
    robot_.armature.push_back(0);
    robot_.q.push_back(0);
    robot_.qd.push_back(0);
    return robot_.articulations.link_count() - 1;
  }

  // A massless link that only carries a slide along axis (part of a planar joint); returns
  // its index.
  int emit_slide(const std::string& name, const std::string& joint_name, int parent, V3 axis, V3 pos, Q quat,
                 const JointDynamics& dynamics) {
    ArticulationLink link;
    link.name = name;
    link.parent = parent;
    link.joint = ArticulationJoint::Slide;
    link.joint_name = joint_name;
    link.axis[0] = axis.x, link.axis[1] = axis.y, link.axis[2] = axis.z;
    link.quat[0] = quat.x, link.quat[1] = quat.y, link.quat[2] = quat.z, link.quat[3] = quat.w;
    return add_link(std::move(link), pos, 0, V3{0, 0, 0}, zero33<double>(), dynamics);
  }

  void read_joint_extras(const Joint& j, ArticulationLink& link, JointDynamics& dynamics) {
    if (const XMLElement* d = j.e->FirstChildElement("dynamics")) {
      dynamics.damping = number(d, "damping", 0.0);
      dynamics.friction = number(d, "friction", 0.0);
      if (dynamics.damping < 0 || dynamics.friction < 0) fail(d, "damping and friction must not be negative");
    }
    const std::string_view type = j.e->Attribute("type");
    if (const XMLElement* limit = j.e->FirstChildElement("limit");
        limit && (type == "revolute" || type == "prismatic")) {
      const double lower = number(limit, "lower", 0.0), upper = number(limit, "upper", 0.0);
      if (lower < upper) {  // its stiffness and damping: robot_scene, from MuJoCo's default time constant
        link.limited = true;
        link.range[0] = lower, link.range[1] = upper;
      } else {
        note("joint limits of " + j.name + " (lower >= upper: not limited)");
      }
    }
    for (const char* extra : {"mimic", "calibration", "safety_controller"})
      if (j.e->FirstChildElement(extra)) note("joint " + std::string(extra) + " of " + j.name);
  }

  // The link's shapes: its visuals drawn and its collision geoms felt. A link with only
  // one of the two is drawn and felt by it.
  void read_shapes(const XMLElement* e, ArticulationLink& link) {
    const bool visuals = e->FirstChildElement("visual") != nullptr;
    const bool collisions = e->FirstChildElement("collision") != nullptr;
    for (const char* tag : {"visual", "collision"}) {
      const bool visual = std::string_view(tag) == "visual";
      for (const XMLElement* v = e->FirstChildElement(tag); v; v = v->NextSiblingElement(tag)) {
        LinkShape s = read_shape(v);
        s.drawn = visual || !visuals;
        s.collides = !visual || !collisions;
        link.shapes.push_back(s);
      }
    }
  }

  // One <visual> or <collision>: its geometry, placement and colour.
  LinkShape read_shape(const XMLElement* v) {
    const XMLElement* geometry = v->FirstChildElement("geometry");
    if (geometry == nullptr) fail(v, "needs a <geometry>");
    const XMLElement* g = geometry->FirstChildElement();
    if (g == nullptr) fail(geometry, "needs a box, cylinder, sphere or mesh");
    LinkShape s;
    const std::string_view kind = g->Name();
    if (kind == "box") {
      s.kind = LinkShape::Kind::Box;
      const std::vector<double> size = numbers(g, "size", 3, {});
      for (int k = 0; k < 3; ++k) s.size[k] = size[k] / 2;  // URDF's sizes are whole, nudge's half
    } else if (kind == "cylinder" || kind == "capsule") {
      s.kind = kind == "cylinder" ? LinkShape::Kind::Cylinder : LinkShape::Kind::Capsule;
      s.size[0] = number(g, "radius", std::nullopt);
      s.size[1] = number(g, "length", std::nullopt) / 2;
    } else if (kind == "sphere") {
      s.kind = LinkShape::Kind::Sphere;
      s.size[0] = number(g, "radius", std::nullopt);
    } else if (kind == "mesh") {
      s.kind = LinkShape::Kind::Mesh;
      const char* filename = g->Attribute("filename");
      if (filename == nullptr) fail(g, "needs a filename");
      s.mesh = mesh_path(filename);
      const std::filesystem::path path(s.mesh);
      Result<std::shared_ptr<const ConvexMesh>> hull = load_link_mesh(path.is_absolute() ? path : folder_ / path);
      if (!hull) fail(g, hull.error().message);
      s.hull = *hull;
      const std::vector<double> scale = numbers(g, "scale", 3, {1, 1, 1});
      std::copy(scale.begin(), scale.end(), s.mesh_scale);
    } else {
      fail(g, "is not a URDF geometry; expected box, cylinder, sphere or mesh");
    }
    for (int k = 0; k < 3; ++k)
      if (s.size[k] < 0) fail(g, "sizes must not be negative");
    V3 pos;
    Q quat;
    origin(v, pos, quat);
    s.pos[0] = pos.x, s.pos[1] = pos.y, s.pos[2] = pos.z;
    s.quat[0] = quat.x, s.quat[1] = quat.y, s.quat[2] = quat.z, s.quat[3] = quat.w;
    if (const XMLElement* material = v->FirstChildElement("material")) {
      std::optional<std::vector<double>> color;
      if (const XMLElement* c = material->FirstChildElement("color")) {
        color = rgba(c);
      } else if (const char* name = material->Attribute("name")) {
        const auto m = materials_.find(name);
        if (m != materials_.end()) color = m->second;
      }
      if (color) std::copy(color->begin(), color->end(), s.rgba);
      if (material->FirstChildElement("texture")) note("material textures (drawn in their color)");
    }
    return s;
  }

  // A mesh's file relative to the URDF's folder. package://<package>/<path> names a ROS
  // package, which nudge cannot look up: the first of <folder>/<package>/<path>,
  // <folder>/<path>, <folder>/../<path> and <folder>/../../<package>/<path> that exists,
  // else the first (best effort: a robot's description package usually holds its URDF in
  // urdf/ beside meshes/).
  std::string mesh_path(std::string_view filename) const {
    if (filename.starts_with("file://")) return std::string(filename.substr(7));
    if (!filename.starts_with("package://")) return std::filesystem::path(filename).lexically_normal().generic_string();
    const std::string_view rest = filename.substr(10);
    const std::size_t slash = rest.find('/');
    const std::filesystem::path package(rest.substr(0, slash)),
        path(slash == std::string_view::npos ? "" : rest.substr(slash + 1));
    const std::filesystem::path candidates[] = {package / path, path, std::filesystem::path("..") / path,
                                                std::filesystem::path("../..") / package / path};
    for (const std::filesystem::path& c : candidates) {
      std::error_code ec;
      if (std::filesystem::exists(folder_ / c, ec)) return c.lexically_normal().generic_string();
    }
    return candidates[0].lexically_normal().generic_string();
  }
};

}  // namespace

Result<ImportedRobot> import_urdf(const std::filesystem::path& file) { return robot_xml::read_robot<UrdfReader>(file); }

}  // namespace nudge
