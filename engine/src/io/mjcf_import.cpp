// Reads MJCF (MuJoCo's XML) into an ImportedRobot: the common subset of bodies, joints,
// inertials, geoms, defaults and actuators that nudge's articulations simulate (hinges,
// slides, balls, free joints and welds), with MuJoCo's meaning for each (its XML
// reference). What the file has beyond that and nudge can do without is listed in
// `ignored`; what would change the dynamics if dropped (a ball's cone limit, a tendon
// actuator) is refused with an Error naming the file, the line and the element.
#include <tinyxml2.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <numbers>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "nudge/articulations.h"
#include "nudge/convex_mesh.h"
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

constexpr double kPi = 3.14159265358979323846;

std::string element_label(const XMLElement* e) {
  std::string label = "<" + std::string(e->Name());
  if (const char* name = e->Attribute("name")) label += " name=\"" + std::string(name) + "\"";
  return label + ">";
}

std::string format_number(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

V3 unit_axis(char c) {
  switch (std::tolower(static_cast<unsigned char>(c))) {
    case 'x': return {1, 0, 0};
    case 'y': return {0, 1, 0};
    default: return {0, 0, 1};
  }
}

// MuJoCo's mjuu_z2quat: the shortest turn that takes +z onto v (half a turn about x when v
// points down).
Q quat_z_to(V3 v) {
  V3 axis = cross(V3{0, 0, 1}, v);
  const double s = length(axis);
  axis = s < 1e-10 ? V3{1, 0, 0} : (1.0 / s) * axis;
  return quat_from_axis_angle(axis, std::atan2(s, v.z));
}

// Mass, centre of mass and inertia about it, in one frame.
// A joint's own terms: damping, armature, dry friction and a hinge's or slide's spring.
struct JointTerms {
  double damping = 0, armature = 0, frictionloss = 0, stiffness = 0, spring_ref = 0;
};

struct MassProperties {
  double mass = 0;
  V3 com{0, 0, 0};
  M3 inertia = zero33<double>();
};

// The parallel-axis sum of parts (each about its own centre, in the common axes), about
// the combined centre.
MassProperties combine(const std::vector<MassProperties>& parts) {
  MassProperties total;
  for (const MassProperties& p : parts) total.mass += p.mass, total.com += p.mass * p.com;
  if (total.mass <= 0) return {};
  total.com = (1.0 / total.mass) * total.com;
  for (const MassProperties& p : parts) {
    const V3 d = p.com - total.com;
    total.inertia += p.inertia + p.mass * (dot(d, d) * identity33<double>() + (-1.0) * outer(d, d));
  }
  return total;
}

// A default value with the line of the <default> element it came from, for errors.
struct DefaultValue {
  std::string text;
  int line = 0;
};
// One default class: attribute values per element kind ("joint", "geom", "actuator", ...).
using DefaultClass = std::map<std::string, std::map<std::string, DefaultValue, std::less<>>, std::less<>>;

// An element with the default class it reads missing attributes from.
struct Element {
  const XMLElement* e = nullptr;
  const std::map<std::string, DefaultValue, std::less<>>* defaults = nullptr;
};

// An attribute's text and where it was written.
struct Attribute {
  std::string_view text;
  int line = 0;
  bool from_default = false;
};

std::optional<Attribute> find_attribute(const Element& el, const char* name) {
  if (const char* v = el.e->Attribute(name)) return Attribute{v, el.e->GetLineNum(), false};
  if (el.defaults != nullptr)
    if (auto it = el.defaults->find(name); it != el.defaults->end())
      return Attribute{it->second.text, it->second.line, true};
  return std::nullopt;
}

// Where a child element sits: a <frame>'s placement between it and its body, and the
// childclass in effect.
struct Placed {
  const XMLElement* e = nullptr;
  V3 pos{0, 0, 0};
  Q quat{0, 0, 0, 1};
  std::string childclass;
};

// What a body (or the worldbody) holds, frames looked through.
struct BodyContents {
  std::vector<const XMLElement*> joints;
  const XMLElement* inertial = nullptr;
  std::vector<Placed> geoms, bodies;
};

// A geom as read: its type, sizes and placement in the body's frame.
struct Geom {
  Element el;
  std::string type;
  double size[3] = {0, 0, 0};
  V3 pos{0, 0, 0};
  Q quat{0, 0, 0, 1};
};

struct Mesh {
  std::filesystem::path file;  // relative to the MJCF's folder, or absolute
  double scale[3] = {1, 1, 1};
  std::shared_ptr<const ConvexMesh> hull;  // of the file's vertices (load_link_mesh)
};

enum class InertiaFromGeom { False, True, Auto };

class MjcfReader {
public:
  explicit MjcfReader(const std::filesystem::path& file) : file_(file), label_(file.string()) {}

  ImportedRobot read() {
    const XMLElement* root = load();
    if (std::string_view(root->Name()) != "mujoco")
      fail(root,
           "expected <mujoco> as the root element of an MJCF file" +
               std::string(std::string_view(root->Name()) == "robot" ? " (this looks like URDF: name it .urdf)" : ""));
    robot_.name = root->Attribute("model") ? root->Attribute("model") : file_.stem().string();
    robot_.articulations.source = label_;
    classes_["main"];
    // The settings first, wherever they stand: bodies and actuators depend on them.
    for (const XMLElement* c = root->FirstChildElement(); c; c = c->NextSiblingElement()) {
      const std::string_view tag = c->Name();
      if (tag == "include") fail(c, "<include> is not supported yet: paste the included file in");
      if (tag == "compiler") read_compiler(c);
    }
    for (const XMLElement* c = root->FirstChildElement(); c; c = c->NextSiblingElement()) {
      const std::string_view tag = c->Name();
      if (tag == "option") read_option(c);
      if (tag == "default") read_default(c, classes_["main"], true);
    }
    for (const XMLElement* c = root->FirstChildElement("asset"); c; c = c->NextSiblingElement("asset")) read_asset(c);
    for (const XMLElement* c = root->FirstChildElement("worldbody"); c; c = c->NextSiblingElement("worldbody"))
      read_worldbody(c);
    for (const XMLElement* c = root->FirstChildElement("actuator"); c; c = c->NextSiblingElement("actuator"))
      read_actuators(c);
    for (const XMLElement* c = root->FirstChildElement(); c; c = c->NextSiblingElement()) {
      const std::string_view tag = c->Name();
      if (tag == "compiler" || tag == "option" || tag == "default" || tag == "asset" || tag == "worldbody" ||
          tag == "actuator")
        continue;
      note("<" + std::string(tag) + "> section");
    }
    note_counts();
    robot_.channels = static_cast<int>(robot_.articulations.actuators.size());
    return std::move(robot_);
  }

private:
  std::filesystem::path file_;
  std::string label_;
  tinyxml2::XMLDocument document_;
  ImportedRobot robot_;
  bool degrees_ = true;
  std::string eulerseq_ = "xyz";
  std::filesystem::path meshdir_;
  InertiaFromGeom inertia_from_geom_ = InertiaFromGeom::Auto;
  std::map<std::string, DefaultClass, std::less<>> classes_;
  std::map<std::string, Mesh, std::less<>> meshes_;
  std::map<std::string, std::vector<double>, std::less<>> materials_;  // their rgba
  std::map<std::string, int, std::less<>> counts_;                     // sites, cameras, ... not imported
  std::vector<std::string> joint_names_;

  [[noreturn]] void fail_at(int line, const std::string& what, const std::string& message) const {
    throw robot_xml::Failure{label_ + ":" + std::to_string(line) + ": " + what + ": " + message};
  }
  [[noreturn]] void fail(const XMLElement* e, const std::string& message) const {
    fail_at(e->GetLineNum(), element_label(e), message);
  }
  // An attribute's element for messages; one from a default class is at the class's line.
  static std::string where(const Element& el, const Attribute& a) {
    return element_label(el.e) + (a.from_default ? " (its default class)" : "");
  }
  void note(const std::string& line) {
    if (std::find(robot_.ignored.begin(), robot_.ignored.end(), line) == robot_.ignored.end())
      robot_.ignored.push_back(line);
  }
  void note_counts() {
    for (const auto& [kind, count] : counts_) note("<" + kind + "> elements (" + std::to_string(count) + ")");
  }

  const XMLElement* load() {
    if (std::optional<std::string> problem = robot_xml::load(file_, label_, document_))
      throw robot_xml::Failure{*problem};
    return document_.RootElement();
  }

  // Attributes.

  std::vector<double> numbers(const Element& el, const char* name, std::size_t min_count, std::size_t max_count,
                              std::vector<double> fallback) const {
    const std::optional<Attribute> a = find_attribute(el, name);
    if (!a) return fallback;
    const std::string what = where(el, *a);
    const std::optional<std::vector<double>> values = parse_numbers(a->text);
    const std::string expected = min_count == max_count ? std::to_string(min_count)
                                 : max_count == min_count + 1
                                     ? std::to_string(min_count) + " or " + std::to_string(max_count)
                                     : std::to_string(min_count) + " to " + std::to_string(max_count);
    const std::string numbers_word = max_count == 1 ? " number" : " numbers";
    if (!values)
      fail_at(a->line, what,
              std::string(name) + " " + in_quotes(a->text) + " is not a list of numbers (expected " + expected +
                  numbers_word + ")");
    if (values->size() < min_count || values->size() > max_count)
      fail_at(a->line, what,
              std::string(name) + " needs " + expected + numbers_word + ", got " + std::to_string(values->size()));
    return *values;
  }
  double number(const Element& el, const char* name, double fallback) const {
    return numbers(el, name, 1, 1, {fallback})[0];
  }
  V3 vec3(const Element& el, const char* name, V3 fallback) const {
    const std::vector<double> v = numbers(el, name, 3, 3, {fallback.x, fallback.y, fallback.z});
    return {v[0], v[1], v[2]};
  }
  std::optional<std::string> text(const Element& el, const char* name) const {
    if (const std::optional<Attribute> a = find_attribute(el, name)) return std::string(a->text);
    return std::nullopt;
  }
  // One of `allowed`, or the fallback when the attribute is not there.
  std::string keyword(const Element& el, const char* name, const std::vector<std::string_view>& allowed,
                      std::string_view fallback) const {
    const std::optional<Attribute> a = find_attribute(el, name);
    if (!a) return std::string(fallback);
    if (std::find(allowed.begin(), allowed.end(), a->text) != allowed.end()) return std::string(a->text);
    std::string list;
    for (std::string_view k : allowed) list += (list.empty() ? "" : ", ") + in_quotes(k);
    fail_at(a->line, where(el, *a), std::string(name) + " " + in_quotes(a->text) + " is not one of " + list);
  }
  double angle(double value) const { return degrees_ ? value * kPi / 180 : value; }

  // A frame's orientation from whichever of quat, axisangle, euler, xyaxes and zaxis it has
  // (MuJoCo's frame orientations; the element's own before its default class's).
  Q orientation(const Element& el) const {
    static constexpr const char* kinds[] = {"quat", "axisangle", "euler", "xyaxes", "zaxis"};
    const char* given = nullptr;
    for (const char* k : kinds) {
      if (el.e->Attribute(k) == nullptr) continue;
      if (given != nullptr) fail(el.e, std::string("has both ") + given + " and " + k + "; give one orientation");
      given = k;
    }
    Element source = el;
    if (given == nullptr) {
      for (const char* k : kinds)
        if (find_attribute(el, k)) given = k;
      if (given == nullptr) return {0, 0, 0, 1};
    } else {
      source.defaults = nullptr;
    }
    const std::string_view kind = given;
    if (kind == "quat") {
      const std::vector<double> q = numbers(source, "quat", 4, 4, {});
      const Q r{q[1], q[2], q[3], q[0]};  // MJCF writes w first
      if (length(r) < 1e-12) fail(el.e, "quat is zero; expected a rotation (w x y z)");
      return normalize(r);
    }
    if (kind == "axisangle") {
      const std::vector<double> a = numbers(source, "axisangle", 4, 4, {});
      const V3 axis{a[0], a[1], a[2]};
      if (length(axis) < 1e-12) fail(el.e, "axisangle's axis is zero");
      return quat_from_axis_angle(normalize(axis), angle(a[3]));
    }
    if (kind == "euler") {
      // Lower case axes turn with the frame (post-multiplied), upper case stay fixed.
      const std::vector<double> a = numbers(source, "euler", 3, 3, {});
      Q q{0, 0, 0, 1};
      for (int i = 0; i < 3; ++i) {
        const Q r = quat_from_axis_angle(unit_axis(eulerseq_[i]), angle(a[i]));
        q = std::islower(static_cast<unsigned char>(eulerseq_[i])) ? q * r : r * q;
      }
      return normalize(q);
    }
    if (kind == "xyaxes") {
      const std::vector<double> a = numbers(source, "xyaxes", 6, 6, {});
      V3 x{a[0], a[1], a[2]}, y{a[3], a[4], a[5]};
      if (length(x) < 1e-12) fail(el.e, "xyaxes's x axis is zero");
      x = normalize(x);
      y = y - dot(x, y) * x;
      if (length(y) < 1e-12) fail(el.e, "xyaxes's y axis is zero or parallel to its x axis");
      y = normalize(y);
      const V3 z = cross(x, y);
      return quat_from_matrix(M3{{x.x, y.x, z.x, x.y, y.y, z.y, x.z, y.z, z.z}});
    }
    const V3 z = vec3(source, "zaxis", {0, 0, 1});
    if (length(z) < 1e-12) fail(el.e, "zaxis is zero");
    return quat_z_to(z);
  }

  // Defaults.

  // The class an element reads its defaults from: its own class, else the childclass in
  // effect, else "main".
  Element with_defaults(const XMLElement* e, std::string_view kind, std::string_view childclass) const {
    std::string name = "main";
    if (const char* c = e->Attribute("class")) {
      name = c;
    } else if (!childclass.empty()) {
      name = childclass;
    }
    const auto cls = classes_.find(name);
    if (cls == classes_.end()) fail(e, "class " + in_quotes(name) + " is not defined in <default>");
    const auto attributes = cls->second.find(kind);
    return {e, attributes == cls->second.end() ? nullptr : &attributes->second};
  }

  // A <default>: its elements' attributes over its parent's, then its nested classes.
  void read_default(const XMLElement* e, DefaultClass inherited, bool top) {
    std::string name = top ? "main" : "";
    if (const char* c = e->Attribute("class")) name = c;
    if (name.empty()) fail(e, "a nested <default> needs a class attribute");
    if (!top && classes_.count(name)) fail(e, "class " + in_quotes(name) + " is defined twice");
    DefaultClass& cls = classes_[name];
    if (!top || cls.empty()) cls = inherited;
    for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
      std::string kind = c->Name();
      if (kind == "default") continue;
      // MuJoCo keeps one actuator default per class, which each shortcut writes.
      if (kind == "motor" || kind == "position" || kind == "velocity" || kind == "general") kind = "actuator";
      for (const tinyxml2::XMLAttribute* a = c->FirstAttribute(); a; a = a->Next())
        cls[kind][a->Name()] = DefaultValue{a->Value(), c->GetLineNum()};
    }
    const DefaultClass own = cls;
    for (const XMLElement* c = e->FirstChildElement("default"); c; c = c->NextSiblingElement("default"))
      read_default(c, own, false);
  }

  // Settings.

  void read_compiler(const XMLElement* e) {
    const Element el{e, nullptr};
    degrees_ = keyword(el, "angle", {"degree", "radian"}, degrees_ ? "degree" : "radian") == "degree";
    if (const char* seq = e->Attribute("eulerseq")) {
      const std::string s = seq;
      if (s.size() != 3 || s.find_first_not_of("xyzXYZ") != std::string::npos)
        fail(e, "eulerseq " + in_quotes(s) + " needs 3 of the letters x, y, z, X, Y, Z (lower case: axes that turn)");
      eulerseq_ = s;
    }
    if (const char* dir = e->Attribute("assetdir")) meshdir_ = dir;
    if (const char* dir = e->Attribute("meshdir")) meshdir_ = dir;
    const std::string from_geom = keyword(el, "inertiafromgeom", {"false", "true", "auto"},
                                          inertia_from_geom_ == InertiaFromGeom::Auto
                                              ? "auto"
                                              : (inertia_from_geom_ == InertiaFromGeom::True ? "true" : "false"));
    inertia_from_geom_ = from_geom == "true"    ? InertiaFromGeom::True
                         : from_geom == "false" ? InertiaFromGeom::False
                                                : InertiaFromGeom::Auto;
    if (keyword(el, "coordinate", {"local", "global"}, "local") == "global")
      fail(e, "coordinate=\"global\" is not supported (MuJoCo 3 dropped it too); expected local coordinates");
    for (const tinyxml2::XMLAttribute* a = e->FirstAttribute(); a; a = a->Next()) {
      const std::string_view n = a->Name();
      if (n != "angle" && n != "eulerseq" && n != "assetdir" && n != "meshdir" && n != "texturedir" &&
          n != "inertiafromgeom" && n != "coordinate" && n != "autolimits")
        note("compiler " + std::string(n));
    }
  }

  void read_option(const XMLElement* e) {
    const Element el{e, nullptr};
    robot_.timestep = number(el, "timestep", robot_.timestep);
    if (!(robot_.timestep > 0)) fail(e, "timestep must be positive");
    const V3 g = vec3(el, "gravity", {robot_.gravity[0], robot_.gravity[1], robot_.gravity[2]});
    robot_.gravity[0] = g.x, robot_.gravity[1] = g.y, robot_.gravity[2] = g.z;
    if (const char* integrator = e->Attribute("integrator")) {
      robot_.runge_kutta = std::string_view(integrator) == "RK4";
      if (!robot_.runge_kutta && std::string_view(integrator) != "Euler")
        note("option integrator=\"" + std::string(integrator) + "\" (nudge steps with MuJoCo's Euler or RK4)");
    }
    for (const tinyxml2::XMLAttribute* a = e->FirstAttribute(); a; a = a->Next()) {
      const std::string_view n = a->Name();
      if (n != "timestep" && n != "gravity" && n != "integrator") note("option " + std::string(n));
    }
    for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement())
      note("<option> <" + std::string(c->Name()) + ">");
  }

  void read_asset(const XMLElement* asset) {
    for (const XMLElement* e = asset->FirstChildElement(); e; e = e->NextSiblingElement()) {
      const std::string_view tag = e->Name();
      if (tag == "mesh") {
        const Element el = with_defaults(e, "mesh", "");
        const std::optional<std::string> file = text(el, "file");
        if (!file) fail(e, "needs a file (meshes made of vertices in the XML are not supported yet)");
        const std::filesystem::path relative = meshdir_ / *file;
        std::string name = e->Attribute("name") ? e->Attribute("name") : std::filesystem::path(*file).stem().string();
        Mesh mesh;
        mesh.file = relative.is_absolute() ? relative : relative.lexically_normal();
        const std::vector<double> scale = numbers(el, "scale", 3, 3, {1, 1, 1});
        std::copy(scale.begin(), scale.end(), mesh.scale);
        Result<std::shared_ptr<const ConvexMesh>> hull =
            load_link_mesh(mesh.file.is_absolute() ? mesh.file : file_.parent_path() / mesh.file);
        if (!hull) fail(e, hull.error().message);
        mesh.hull = *hull;
        meshes_[name] = mesh;
      } else if (tag == "material") {
        const Element el = with_defaults(e, "material", "");
        if (const char* name = e->Attribute("name")) materials_[name] = numbers(el, "rgba", 4, 4, {1, 1, 1, 1});
        if (text(el, "texture")) note("material textures (materials are drawn in their rgba)");
      } else {
        ++counts_[std::string(tag)];
      }
    }
  }

  // The body tree.

  // What a body holds, looking through <frame>s (whose placement and childclass pass to
  // what they hold).
  void collect(const XMLElement* parent, const Placed& frame, BodyContents& out) {
    for (const XMLElement* c = parent->FirstChildElement(); c; c = c->NextSiblingElement()) {
      const std::string_view tag = c->Name();
      if (tag == "joint") {
        if (frame.e != nullptr) fail(c, "a joint inside a <frame> is not supported; put it in the body");
        out.joints.push_back(c);
      } else if (tag == "freejoint") {
        if (frame.e != nullptr) fail(c, "a joint inside a <frame> is not supported; put it in the body");
        out.joints.push_back(c);
      } else if (tag == "inertial") {
        if (out.inertial != nullptr) fail(c, "a body has one <inertial>; this is a second");
        if (frame.e != nullptr) fail(c, "an <inertial> inside a <frame> is not supported; put it in the body");
        out.inertial = c;
      } else if (tag == "geom" || tag == "body") {
        (tag == "geom" ? out.geoms : out.bodies).push_back({c, frame.pos, frame.quat, frame.childclass});
      } else if (tag == "frame") {
        const Element el = with_defaults(c, "frame", frame.childclass);
        Placed inner{c, frame.pos + rotate(frame.quat, vec3(el, "pos", {0, 0, 0})), frame.quat * orientation(el),
                     c->Attribute("childclass") ? c->Attribute("childclass") : frame.childclass};
        if (!classes_.count(inner.childclass) && !inner.childclass.empty())
          fail(c, "childclass " + in_quotes(inner.childclass) + " is not defined in <default>");
        collect(c, inner, out);
      } else if (tag == "site" || tag == "camera" || tag == "light") {
        ++counts_[std::string(tag)];
      } else {
        fail(c, "<" + std::string(tag) + "> in a body is not supported yet");
      }
    }
  }

  void read_worldbody(const XMLElement* world) {
    BodyContents contents;
    collect(world, Placed{}, contents);
    if (!contents.joints.empty()) fail(contents.joints.front(), "the world cannot have joints");
    if (contents.inertial != nullptr) fail(contents.inertial, "the world cannot have an <inertial>");
    for (const Placed& placed : contents.geoms) {
      const Geom g = read_geom(placed);
      if (g.type == "plane" && collides(g.el)) {  // the floor: a plane collider through the geom, along its z
        ColliderShape floor;
        floor.type = ColliderType::Plane;
        const V3 n = rotate(g.quat, V3{0, 0, 1});
        floor.normal[0] = n.x, floor.normal[1] = n.y, floor.normal[2] = n.z;
        floor.offset = n.x * g.pos.x + n.y * g.pos.y + n.z * g.pos.z;
        robot_.colliders.push_back(floor);
        continue;
      }
      const char* name = placed.e->Attribute("name");
      note("worldbody geom " + (name ? std::string(name) : "(unnamed " + g.type + ")"));
    }
    for (const Placed& b : contents.bodies) read_body(b, -1);
  }

  // MuJoCo's contype and conaffinity (1 by default): both 0, the geom takes part in no
  // contact and is only drawn.
  bool collides(const Element& geom) const {
    return number(geom, "contype", 1) != 0 || number(geom, "conaffinity", 1) != 0;
  }

  Geom read_geom(const Placed& placed) const {
    Geom g;
    g.el = with_defaults(placed.e, "geom", placed.childclass);
    g.type = keyword(g.el, "type",
                     {"sphere", "capsule", "box", "cylinder", "ellipsoid", "mesh", "plane", "hfield", "sdf"}, "sphere");
    const std::vector<double> size = numbers(g.el, "size", 1, 3, {});
    std::copy(size.begin(), size.end(), g.size);
    const bool elongated = g.type == "capsule" || g.type == "cylinder" || g.type == "box" || g.type == "ellipsoid";
    if (find_attribute(g.el, "fromto")) {
      // The geom's z runs from the first point to the second; its other sizes are size[0].
      if (!elongated) fail(placed.e, "fromto is for capsule, cylinder, box and ellipsoid geoms, not a " + g.type);
      const std::vector<double> ft = numbers(g.el, "fromto", 6, 6, {});
      const V3 from{ft[0], ft[1], ft[2]}, to{ft[3], ft[4], ft[5]};
      if (length(to - from) < 1e-12) fail(placed.e, "fromto's two points are the same; expected a segment");
      if (size.empty()) fail(placed.e, "size needs a radius with fromto");
      g.pos = 0.5 * (from + to);
      g.quat = quat_z_to(to - from);
      if (g.type == "box" || g.type == "ellipsoid") {
        g.size[1] = g.size[0], g.size[2] = 0.5 * length(to - from);
      } else {
        g.size[1] = 0.5 * length(to - from);
      }
    } else {
      const std::size_t needed = g.type == "sphere"                            ? 1
                                 : g.type == "capsule" || g.type == "cylinder" ? 2
                                 : g.type == "box" || g.type == "ellipsoid"    ? 3
                                                                               : 0;
      if (size.size() < needed)
        fail(placed.e, "size of a " + g.type + " needs " + std::to_string(needed) + " numbers, got " +
                           std::to_string(size.size()));
      g.pos = vec3(g.el, "pos", {0, 0, 0});
      g.quat = orientation(g.el);
    }
    for (int k = 0; k < 3; ++k)
      if (g.size[k] < 0) fail(placed.e, "size must not be negative");
    g.pos = placed.pos + rotate(placed.quat, g.pos);
    g.quat = placed.quat * g.quat;
    return g;
  }

  // A geom's mass and inertia in the body's frame, as MuJoCo computes them from its
  // density (or its mass) and shape; nullopt for a geom without volume.
  std::optional<MassProperties> geom_mass(const Geom& g, const std::string& body) const {
    const double r = g.size[0];
    double volume = 0;
    V3 moments{0, 0, 0};  // per unit mass, about the geom's axes
    if (g.type == "sphere") {
      volume = 4.0 / 3.0 * kPi * r * r * r;
      moments = {0.4 * r * r, 0.4 * r * r, 0.4 * r * r};
    } else if (g.type == "capsule") {
      // A cylinder of height h and two hemispheres (each with its centre 3r/8 from its
      // flat face): MuJoCo's formula.
      const double h = 2 * g.size[1];
      const double cylinder = kPi * r * r * h, spheres = 4.0 / 3.0 * kPi * r * r * r;
      volume = cylinder + spheres;
      const double fc = cylinder / volume, fs = spheres / volume;
      const double side = fc * (3 * r * r + h * h) / 12 + fs * (0.4 * r * r + h * h / 4 + 3 * h * r / 8);
      moments = {side, side, fc * r * r / 2 + fs * 0.4 * r * r};
    } else if (g.type == "cylinder") {
      const double h = 2 * g.size[1];
      volume = kPi * r * r * h;
      moments = {(3 * r * r + h * h) / 12, (3 * r * r + h * h) / 12, r * r / 2};
    } else if (g.type == "box") {
      const double a = g.size[0], b = g.size[1], c = g.size[2];
      volume = 8 * a * b * c;
      moments = {(b * b + c * c) / 3, (a * a + c * c) / 3, (a * a + b * b) / 3};
    } else if (g.type == "ellipsoid") {
      const double a = g.size[0], b = g.size[1], c = g.size[2];
      volume = 4.0 / 3.0 * kPi * a * b * c;
      moments = {(b * b + c * c) / 5, (a * a + c * c) / 5, (a * a + b * b) / 5};
    }
    const bool given_mass = find_attribute(g.el, "mass").has_value();
    const double density = number(g.el, "density", 1000),
                 mass = given_mass ? number(g.el, "mass", 0) : density * volume;
    if (mass < 0 || density < 0) fail(g.el.e, "mass and density must not be negative");
    if (g.type == "mesh") return mesh_mass(g, body, given_mass, mass, density);
    if (mass == 0 || volume <= 0) return std::nullopt;  // planes, height fields: MuJoCo gives them no mass either
    const M3 rot = to_matrix(g.quat);
    return MassProperties{mass, g.pos, rot * diagonal33(mass * moments) * transpose(rot)};
  }

  // A mesh geom's: its hull's (MuJoCo's default, inertia="convex"), scaled, of the given
  // mass or density, its centre at the hull's centroid placed by the geom.
  std::optional<MassProperties> mesh_mass(const Geom& g, const std::string& body, bool given_mass, double mass,
                                          double density) const {
    if (given_mass ? mass == 0 : density == 0) return std::nullopt;  // only for show
    const auto mesh = meshes_.find(text(g.el, "mesh").value_or(""));
    if (mesh == meshes_.end()) return std::nullopt;  // shape_of names the geom's missing mesh
    ConvexMesh scaled = *mesh->second.hull;
    for (std::array<double, 3>& v : scaled.vertices)
      for (size_t k = 0; k < 3; ++k) v[k] *= mesh->second.scale[k];
    const MeshMassProperties unit = mesh_mass_properties(scaled.vertices, scaled.triangles);
    // A mirroring scale turns the hull inside out, negating its integrals.
    const double sign = unit.volume < 0 ? -1 : 1, volume = sign * unit.volume;
    if (!(volume > 0)) fail(g.el.e, "the mesh's hull has no volume: body " + in_quotes(body) + " gets no mass from it");
    const double per_volume = given_mass ? mass / volume : density;
    M3 inertia;
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) inertia(r, c) = per_volume * sign * unit.inertia[3 * r + c];
    const M3 rot = to_matrix(g.quat);
    const V3 centre{unit.centroid[0], unit.centroid[1], unit.centroid[2]};
    return MassProperties{per_volume * volume, g.pos + rotate(g.quat, centre), rot * inertia * transpose(rot)};
  }

  std::optional<LinkShape> shape_of(const Geom& g, const std::string& body) {
    LinkShape s;
    if (g.type == "sphere") {
      s.kind = LinkShape::Kind::Sphere;
    } else if (g.type == "capsule" || g.type == "cylinder") {
      s.kind = g.type == "capsule" ? LinkShape::Kind::Capsule : LinkShape::Kind::Cylinder;
    } else if (g.type == "box") {
      s.kind = LinkShape::Kind::Box;
    } else if (g.type == "mesh") {
      s.kind = LinkShape::Kind::Mesh;
      const std::optional<std::string> name = text(g.el, "mesh");
      if (!name) fail(g.el.e, "a mesh geom needs mesh=\"<the name of an <asset> mesh>\"");
      const auto mesh = meshes_.find(*name);
      if (mesh == meshes_.end()) fail(g.el.e, "mesh " + in_quotes(*name) + " is not defined in <asset>");
      s.mesh = mesh->second.file.generic_string();
      s.hull = mesh->second.hull;
      std::copy(mesh->second.scale, mesh->second.scale + 3, s.mesh_scale);
    } else {
      note(g.type + " geoms (not drawn), e.g. on body " + in_quotes(body));
      return std::nullopt;
    }
    std::copy(g.size, g.size + 3, s.size);
    s.pos[0] = g.pos.x, s.pos[1] = g.pos.y, s.pos[2] = g.pos.z;
    s.quat[0] = g.quat.x, s.quat[1] = g.quat.y, s.quat[2] = g.quat.z, s.quat[3] = g.quat.w;
    std::optional<std::vector<double>> rgba;
    if (find_attribute(g.el, "rgba")) {
      rgba = numbers(g.el, "rgba", 4, 4, {});
    } else if (const std::optional<std::string> material = text(g.el, "material")) {
      const auto m = materials_.find(*material);
      if (m == materials_.end()) fail(g.el.e, "material " + in_quotes(*material) + " is not defined in <asset>");
      rgba = m->second;
    }
    if (rgba) std::copy(rgba->begin(), rgba->end(), s.rgba);
    s.collides = collides(g.el);
    // MuJoCo's viewer shows geom groups 0 to 2 by default; robots keep their collision
    // geoms in group 3 and up. One that is neither seen nor felt stays drawn.
    s.drawn = number(g.el, "group", 0) < 3 || !s.collides;
    return s;
  }

  MassProperties read_inertial(const XMLElement* e) const {
    const Element el{e, nullptr};
    if (!e->Attribute("pos")) fail(e, "needs pos (the centre of mass in the body's frame)");
    if (!e->Attribute("mass")) fail(e, "needs mass");
    MassProperties p;
    p.com = vec3(el, "pos", {0, 0, 0});
    p.mass = number(el, "mass", 0);
    if (p.mass < 0) fail(e, "mass must not be negative");
    const bool diagonal = e->Attribute("diaginertia") != nullptr, full = e->Attribute("fullinertia") != nullptr;
    if (diagonal == full) fail(e, "needs one of diaginertia (ixx iyy izz) and fullinertia (ixx iyy izz ixy ixz iyz)");
    if (full) {
      for (const char* k : {"quat", "axisangle", "euler", "xyaxes", "zaxis"})
        if (e->Attribute(k)) fail(e, std::string("fullinertia is in the body's axes already; it takes no ") + k);
      const std::vector<double> i = numbers(el, "fullinertia", 6, 6, {});
      p.inertia = M3{{i[0], i[3], i[4], i[3], i[1], i[5], i[4], i[5], i[2]}};
    } else {
      const std::vector<double> d = numbers(el, "diaginertia", 3, 3, {});
      if (d[0] < 0 || d[1] < 0 || d[2] < 0) fail(e, "diaginertia must not be negative");
      const M3 rot = to_matrix(orientation(el));
      p.inertia = rot * diagonal33(V3{d[0], d[1], d[2]}) * transpose(rot);
    }
    return p;
  }

  void read_body(const Placed& placed, int parent_link) {
    const XMLElement* e = placed.e;
    const Element el{e, nullptr};
    std::string childclass = placed.childclass;
    if (const char* c = e->Attribute("childclass")) {
      childclass = c;
      if (!classes_.count(childclass)) fail(e, "childclass " + in_quotes(childclass) + " is not defined in <default>");
    }
    const std::string name =
        e->Attribute("name") ? e->Attribute("name") : "link" + std::to_string(robot_.articulations.link_count());
    const V3 pos = placed.pos + rotate(placed.quat, vec3(el, "pos", {0, 0, 0}));
    const Q quat = placed.quat * orientation(el);
    if (const char* mocap = e->Attribute("mocap"); mocap && std::string_view(mocap) == "true")
      note("mocap of body " + in_quotes(name) + " (welded where it starts)");

    BodyContents contents;
    Placed inner;
    inner.childclass = childclass;
    collect(e, inner, contents);

    std::vector<Geom> geoms;
    for (const Placed& g : contents.geoms) geoms.push_back(read_geom(g));
    MassProperties mass;
    const bool from_geoms = inertia_from_geom_ == InertiaFromGeom::True ||
                            (inertia_from_geom_ == InertiaFromGeom::Auto && contents.inertial == nullptr);
    if (from_geoms) {
      std::vector<MassProperties> parts;
      for (const Geom& g : geoms)
        if (std::optional<MassProperties> p = geom_mass(g, name)) parts.push_back(*p);
      mass = combine(parts);
    } else if (contents.inertial != nullptr) {
      mass = read_inertial(contents.inertial);
    }

    // A body with several joints becomes a chain of links, one joint each: MuJoCo applies
    // a body's joints in order, each in the frame the ones before it left, with its anchor
    // and axis in the body's frame. So the first link sits at the body's pos and quat and
    // the others on it (pos 0, quat identity), all massless but the last, which carries
    // the body's mass, geoms and children. A body without joints is one welded link.
    const std::size_t joints = std::max<std::size_t>(contents.joints.size(), 1);
    for (const XMLElement* j : contents.joints)
      if (is_free_joint(j, childclass) && (parent_link >= 0 || contents.joints.size() > 1))
        fail(j, parent_link >= 0
                    ? "a free joint is only for a body of the worldbody (it joins the body to the world)"
                    : "a free joint is a body's only joint; this body has " + std::to_string(contents.joints.size()));
    int link_index = parent_link;
    for (std::size_t j = 0; j < joints; ++j) {
      const bool last = j + 1 == joints;
      ArticulationLink link;
      link.parent = link_index;
      JointTerms terms;
      if (contents.joints.empty()) {
        link.joint = ArticulationJoint::Weld;
      } else {
        read_joint(contents.joints[j], childclass, link, terms);
      }
      link.name = last ? name : name + "_" + (link.joint_name.empty() ? "joint" + std::to_string(j) : link.joint_name);
      if (j == 0) link.quat[0] = quat.x, link.quat[1] = quat.y, link.quat[2] = quat.z, link.quat[3] = quat.w;
      if (last)
        for (const Geom& g : geoms)
          if (std::optional<LinkShape> s = shape_of(g, name)) link.shapes.push_back(*s);
      link_index = add_link(std::move(link), j == 0 ? pos : V3{0, 0, 0}, last ? mass : MassProperties{}, terms);
    }
    for (const Placed& b : contents.bodies) read_body(b, link_index);
  }

  bool is_free_joint(const XMLElement* e, const std::string& childclass) const {
    return std::string_view(e->Name()) == "freejoint" || keyword(with_defaults(e, "joint", childclass), "type",
                                                                 {"hinge", "slide", "ball", "free"}, "hinge") == "free";
  }

  // A <joint> (hinge, slide, ball or free) or a <freejoint>. A free joint turns about the
  // body's origin (MuJoCo ignores its pos) and a ball about its pos; neither has an axis.
  void read_joint(const XMLElement* e, const std::string& childclass, ArticulationLink& link, JointTerms& terms) {
    const bool freejoint = std::string_view(e->Name()) == "freejoint";
    const Element el = with_defaults(e, "joint", freejoint ? "" : childclass);
    const std::string type = freejoint ? "free" : keyword(el, "type", {"hinge", "slide", "ball", "free"}, "hinge");
    link.joint = type == "hinge"   ? ArticulationJoint::Hinge
                 : type == "slide" ? ArticulationJoint::Slide
                 : type == "ball"  ? ArticulationJoint::Ball
                                   : ArticulationJoint::Free;
    link.joint_name = e->Attribute("name") ? e->Attribute("name") : "";
    if (!link.joint_name.empty()) {
      if (std::find(joint_names_.begin(), joint_names_.end(), link.joint_name) != joint_names_.end())
        fail(e, "joint name " + in_quotes(link.joint_name) + " is used twice; actuators find joints by name");
      joint_names_.push_back(link.joint_name);
    }
    const V3 anchor = type == "free" ? V3{0, 0, 0} : vec3(el, "pos", {0, 0, 0}), axis = vec3(el, "axis", {0, 0, 1});
    if (length(axis) < 1e-12) fail(e, "axis is zero; expected a direction");
    const V3 unit = normalize(axis);
    link.anchor[0] = anchor.x, link.anchor[1] = anchor.y, link.anchor[2] = anchor.z;
    link.axis[0] = unit.x, link.axis[1] = unit.y, link.axis[2] = unit.z;
    if (freejoint) return;  // a <freejoint> has a name and no defaults: no damping or armature
    terms.damping = number(el, "damping", 0);
    terms.armature = number(el, "armature", 0);
    terms.frictionloss = number(el, "frictionloss", 0);
    if (terms.damping < 0 || terms.armature < 0 || terms.frictionloss < 0)
      fail(e, "damping, armature and frictionloss must not be negative");
    const std::string label =
        link.joint_name.empty() ? "(unnamed, line " + std::to_string(e->GetLineNum()) + ")" : link.joint_name;
    // MuJoCo 3's autolimits: a range makes a joint limited unless limited="false".
    const std::string limited = keyword(el, "limited", {"true", "false", "auto"}, "auto");
    const bool has_range = find_attribute(el, "range").has_value();
    if (limited == "true" && !has_range) fail(e, "limited=\"true\" needs a range");
    if (type == "free" && has_range && limited != "false") fail(e, "a free joint has no range; expected none");
    if (has_range && limited != "false") {
      const std::vector<double> range = numbers(el, "range", 2, 2, {});
      const bool turns = link.joint == ArticulationJoint::Hinge || link.joint == ArticulationJoint::Ball;
      link.range[0] = turns ? angle(range[0]) : range[0];
      link.range[1] = turns ? angle(range[1]) : range[1];
      if (link.joint == ArticulationJoint::Ball) {  // MuJoCo's cone: range="0 angle"
        if (!(link.range[0] == 0 && link.range[1] > 0 && link.range[1] <= std::numbers::pi * (1 + 1e-12)))
          fail(e, "a ball's range is a cone limit, \"0 angle\" with angle in (0, 180] degrees (0, pi] rad");
        link.range[1] = std::min(link.range[1], std::numbers::pi);  // 180 degrees, rounded
      } else if (!(link.range[0] < link.range[1])) {
        fail(e, "range needs lower < upper");
      }
      link.limited = true;  // its stiffness and damping: robot_scene, from MuJoCo's default time constant
    }
    // A hinge's or slide's spring about springref; a ball's about no turn (MuJoCo's
    // qpos_spring is the model's reference pose, and a ball has no springref).
    const bool axial = type == "hinge" || type == "slide", ball = type == "ball";
    if (axial || ball) {
      terms.stiffness = number(el, "stiffness", 0);
      if (terms.stiffness < 0) fail(e, "stiffness must not be negative");
    }
    if (axial)
      terms.spring_ref =
          link.joint == ArticulationJoint::Hinge ? angle(number(el, "springref", 0)) : number(el, "springref", 0);
    for (const char* k : {"stiffness", "ref", "springref"}) {
      const std::string_view key = k;
      const bool imported = (axial && (key == "stiffness" || key == "springref")) || (ball && key == "stiffness");
      if (!imported && number(el, k, 0) != 0) note("joint " + std::string(k) + " of " + label);
    }
  }

  int add_link(ArticulationLink link, V3 pos, const MassProperties& m, const JointTerms& terms) {
    robot_.articulations.links.push_back(std::move(link));
    for (double v : {pos.x, pos.y, pos.z}) robot_.pos.push_back(v);
    robot_.mass.push_back(m.mass);
    for (double v : {m.com.x, m.com.y, m.com.z}) robot_.com.push_back(v);
    const M3& i = m.inertia;
    for (double v : {i(0, 0), i(1, 1), i(2, 2), i(0, 1), i(0, 2), i(1, 2)}) robot_.inertia.push_back(v);
    robot_.damping.push_back(terms.damping);
    robot_.armature.push_back(terms.armature);
    robot_.frictionloss.push_back(terms.frictionloss);
    robot_.stiffness.push_back(terms.stiffness);
    robot_.spring_ref.push_back(terms.spring_ref);
    robot_.q.push_back(0);
    robot_.qd.push_back(0);
    return robot_.articulations.link_count() - 1;
  }

  // Actuators.

  void read_actuators(const XMLElement* section) {
    for (const XMLElement* e = section->FirstChildElement(); e; e = e->NextSiblingElement()) {
      const std::string tag = e->Name();
      if (tag != "motor" && tag != "position" && tag != "velocity" && tag != "general")
        fail(e, "this actuator is not supported yet (motor, position, velocity and general are)");
      const Element el = with_defaults(e, "actuator", "");
      for (const char* t : {"tendon", "site", "body", "jointinparent", "cranksite", "slidersite"})
        if (find_attribute(el, t))
          fail(e,
               std::string("an actuator on a ") + t + " is not supported yet; expected joint=\"<a hinge or slide>\"");
      const std::optional<std::string> joint = text(el, "joint");
      if (!joint) fail(e, "needs joint=\"<the name of a hinge or slide>\"");
      ArticulationActuator a;
      a.link = -1;
      for (int k = 0; k < robot_.articulations.link_count(); ++k)
        if (robot_.articulations.links[k].joint_name == *joint) a.link = k;
      if (a.link < 0) fail(e, "joint " + in_quotes(*joint) + " is not a joint of the model");
      if (joint_velocity_count(robot_.articulations.links[size_t(a.link)].joint) != 1)
        fail(e, "an actuator on a ball or free joint is not supported yet; expected a hinge or a slide");
      a.name = e->Attribute("name") ? e->Attribute("name") : *joint;
      a.channel = static_cast<int>(robot_.articulations.actuators.size());
      a.gear = numbers(el, "gear", 1, 6, {1})[0];
      double gain = 1, bias_q = 0, bias_qd = 0;  // a motor's
      if (tag == "position") {
        const double kp = number(el, "kp", 1), kv = number(el, "kv", 0);
        if (kv < 0) fail(e, "kv must not be negative");
        if (number(el, "timeconst", 0) != 0) fail(e, "timeconst (activation dynamics) is not supported yet");
        gain = kp, bias_q = -kp, bias_qd = -kv;
      } else if (tag == "velocity") {
        const double kv = number(el, "kv", 1);
        gain = kv, bias_qd = -kv;
      } else if (tag == "general") {
        if (keyword(el, "dyntype", {"none", "integrator", "filter", "filterexact", "muscle", "user"}, "none") != "none")
          fail(e, "activation dynamics (dyntype) are not supported yet; expected dyntype=\"none\"");
        if (keyword(el, "gaintype", {"fixed", "affine", "muscle", "user"}, "fixed") != "fixed")
          fail(e, "only a fixed gain is supported; expected gaintype=\"fixed\"");
        const std::string bias = keyword(el, "biastype", {"none", "affine", "muscle", "user"}, "none");
        if (bias != "none" && bias != "affine")
          fail(e, "only an affine bias is supported; expected biastype=\"none\" or \"affine\"");
        gain = numbers(el, "gainprm", 1, 10, {1})[0];
        if (bias == "affine") {
          std::vector<double> b = numbers(el, "biasprm", 1, 10, {0});
          b.resize(std::max<std::size_t>(b.size(), 3), 0.0);
          if (b[0] != 0)
            fail(e, "a constant bias (biasprm's first value " + format_number(b[0]) + ") is not supported yet");
          bias_q = b[1], bias_qd = b[2];
        }
      }
      robot_.gain.push_back(gain), robot_.bias_q.push_back(bias_q), robot_.bias_qd.push_back(bias_qd);
      // ctrlrange and forcerange, each with its "limited" switch (auto: limited where a range is given).
      const auto range = [&](const std::string& name, bool& limited, double* out) {
        const std::string limited_key = name + "limited", range_key = name + "range";
        const std::string on = keyword(el, limited_key.c_str(), {"true", "false", "auto"}, "auto");
        const bool has_range = find_attribute(el, range_key.c_str()).has_value();
        if (on == "true" && !has_range) fail(e, limited_key + "=\"true\" needs a " + range_key);
        if (!has_range || on == "false") return;
        const std::vector<double> values = numbers(el, range_key.c_str(), 2, 2, {});
        if (!(values[0] < values[1])) fail(e, range_key + " needs lower < upper");
        limited = true;
        out[0] = values[0], out[1] = values[1];
      };
      range("ctrl", a.ctrl_limited, a.ctrl_range);
      range("force", a.force_limited, a.force_range);
      robot_.articulations.actuators.push_back(a);
    }
  }
};

}  // namespace

Result<ImportedRobot> import_mjcf(const std::filesystem::path& file) { return robot_xml::read_robot<MjcfReader>(file); }

}  // namespace nudge
