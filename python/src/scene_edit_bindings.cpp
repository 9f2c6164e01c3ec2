// Scenes built and changed in code with the studio's own edits (app/studio/scene_edits.h):
// each method runs the edit the studio's menus run and keeps its result, or raises
// nudge.Error with the edit's message and leaves the scene as it was. What adds elements
// returns their indices. Objectives and colliders are given as the scene file writes them
// (a dict), read by the scene file's own reader, so every kind the file format has is
// there with the file's checks and messages.
#include <pybind11/stl.h>

#include <algorithm>
#include <array>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "bindings.h"
#include "nudge/bodies.h"
#include "nudge/joints.h"
#include "nudge/scene_text.h"
#include "studio/scene_edits.h"

namespace nudge::python {

namespace {

namespace edits = studio::edits;
using Vec3 = edits::Vec3;

// Replaces the scene by the edit's result, or raises and leaves it.
void apply(Scene& scene, Result<Scene> edited) { scene = value_or_raise(std::move(edited)); }

std::vector<int> range(int from, int to) {
  std::vector<int> indices;
  for (int k = from; k < to; ++k) indices.push_back(k);
  return indices;
}

edits::Material material(double mass, double stiffness, double damping) { return {mass, stiffness, damping}; }

// A list of the scene file's section (objectives, colliders) with one more, read back by
// the scene file's reader: the error names the new entry's place in that list.
void append_in_file(Scene& scene, const char* section, const py::object& entry) {
  const std::string text = py::cast<std::string>(py::module_::import("json").attr("dumps")(entry));
  nlohmann::ordered_json root = nlohmann::ordered_json::parse(scene_json_text(scene));
  nlohmann::ordered_json item;
  try {
    item = nlohmann::ordered_json::parse(text);
  } catch (const std::exception& e) {
    throw EngineError(std::string(section) + ": not JSON: " + e.what());
  }
  if (!item.is_object()) throw EngineError(std::string(section) + ": expected a dict, as the scene file has one");
  root[section].push_back(std::move(item));
  Result<Scene> read = parse_scene(root.dump(), scene.source);
  if (!read) throw EngineError("the new entry of " + std::string(section) + ": " + read.error().message);
  read->source = scene.source;
  scene = std::move(*read);
}

// A copy of a topology array as an int or float NumPy array of rows x width.
template <class T, class U = T>
py::array_t<U> rows_of(const std::vector<T>& values, int width) {
  py::array_t<U> out({py::ssize_t(values.size() / std::size_t(width)), py::ssize_t(width)});
  std::copy(values.begin(), values.end(), out.mutable_data());
  return out;
}

// The scene's topology, what its parameters do not cover, as arrays by name (copies):
// which particles are pinned, what each spring, triangle, bending edge and tet joins, the
// channels that drive springs and tets, and the attachments of particles to bodies.
py::dict topology_of(const Scene& s) {
  std::vector<int> springs, attachments;
  for (int k = 0; k < s.spring_count(); ++k)
    springs.insert(springs.end(), {s.spring_a[size_t(k)], s.spring_b[size_t(k)]});
  for (const Attachment& a : s.attachments) attachments.insert(attachments.end(), {a.particle, a.body});
  py::dict t;
  t["pinned"] = rows_of<unsigned char, bool>(s.pinned, 1);
  t["springs"] = rows_of(springs, 2);
  t["spring_channel"] = rows_of(s.spring_channel, 1);
  t["spring_actuation"] = rows_of(s.actuation, 1);
  t["triangles"] = rows_of(s.triangles, 3);
  t["bending_edges"] = rows_of(s.bending, 4);
  t["tets"] = rows_of(s.tets, 4);
  t["tet_channel"] = rows_of(s.tet_channel, 1);
  t["tet_actuation"] = rows_of(s.tet_actuation, 1);
  t["attachments"] = rows_of(attachments, 2);
  return t;
}

}  // namespace

void bind_scene_edits(py::class_<Scene>& scene) {
  scene.def(py::init([] {
              Scene s;
              s.name = "untitled";
              shape_parameters(s);
              return s;
            }),
            "an empty scene (no elements, the engine's default settings), to build in code");

  scene.def_property_readonly("topology", &topology_of,
                              "{name: array}: pinned, springs (pairs), spring_channel, spring_actuation, triangles, "
                              "bending_edges, tets, tet_channel, tet_actuation, attachments (particle, body); copies");

  // Particles and springs.
  scene
      .def(
          "add_particle",
          [](Scene& s, const Vec3& position, double mass) {
            apply(s, edits::add_particle(s, position, mass));
            return s.particle_count() - 1;
          },
          py::arg("position"), py::arg("mass") = 1.0, "a free particle at rest; returns its index")
      .def(
          "set_pinned",
          [](Scene& s, const std::vector<int>& particles, bool pinned) {
            apply(s, edits::set_pinned(s, particles, pinned));
          },
          py::arg("particles"), py::arg("pinned") = true, "pin (hold still) or free the particles")
      .def(
          "add_spring",
          [](Scene& s, int a, int b, double stiffness, double damping) {
            apply(s, edits::add_spring(s, a, b, stiffness, damping));
            return s.spring_count() - 1;
          },
          py::arg("a"), py::arg("b"), py::arg("stiffness") = 1000.0, py::arg("damping") = 0.1,
          "a spring between two particles at their distance; returns its index")
      .def(
          "delete_particles",
          [](Scene& s, const std::vector<int>& particles) { apply(s, edits::delete_particles(s, particles)); },
          py::arg("particles"), "removes them, their springs, and renumbers what refers to later ones")
      .def(
          "delete_springs",
          [](Scene& s, const std::vector<int>& springs) { apply(s, edits::delete_springs(s, springs)); },
          py::arg("springs"));

  // Generators: what Edit > Add makes.
  scene
      .def(
          "add_chain",
          [](Scene& s, const Vec3& start, const Vec3& end, int links, double mass, double stiffness, double damping,
             bool pin_first) {
            const int first = s.particle_count();
            apply(s, edits::add_chain(s, start, end, links, material(mass, stiffness, damping), pin_first));
            return range(first, s.particle_count());
          },
          py::arg("start"), py::arg("end"), py::arg("links"), py::arg("mass") = 0.01, py::arg("stiffness") = 1000.0,
          py::arg("damping") = 0.1, py::arg("pin_first") = true,
          "links + 1 particles from start to end joined by springs; returns the particles' indices")
      .def(
          "add_cloth",
          [](Scene& s, const Vec3& corner, double size_u, double size_v, int nu, int nv, double mass, double stiffness,
             double damping, bool pin_top_row) {
            const int first = s.particle_count();
            apply(s,
                  edits::add_cloth(s, corner, size_u, size_v, nu, nv, material(mass, stiffness, damping), pin_top_row));
            return range(first, s.particle_count());
          },
          py::arg("corner"), py::arg("size_u"), py::arg("size_v"), py::arg("nu"), py::arg("nv"), py::arg("mass") = 0.01,
          py::arg("stiffness") = 1000.0, py::arg("damping") = 0.1, py::arg("pin_top_row") = true,
          "a hanging sheet of nu x nv particles with structural and shear springs; returns the particles")
      .def(
          "add_lattice",
          [](Scene& s, const Vec3& corner, const Vec3& size, const std::array<int, 3>& counts, double mass,
             double stiffness, double damping) {
            const int first = s.particle_count();
            apply(s, edits::add_lattice(s, corner, size, counts[0], counts[1], counts[2],
                                        material(mass, stiffness, damping)));
            return range(first, s.particle_count());
          },
          py::arg("corner"), py::arg("size"), py::arg("counts"), py::arg("mass") = 0.01, py::arg("stiffness") = 1000.0,
          py::arg("damping") = 0.1, "a soft block of particles and springs; returns the particles")
      .def(
          "add_walker",
          [](Scene& s, const Vec3& corner, int body_cols, int body_rows, int legs, int leg_rows, double cell_size,
             double actuation, double mass, double stiffness, double damping) {
            const int first = s.particle_count();
            edits::WalkerShape shape{body_cols, body_rows, legs, leg_rows, cell_size, actuation};
            apply(s, edits::add_walker(s, corner, shape, material(mass, stiffness, damping)));
            return range(first, s.particle_count());
          },
          py::arg("corner") = Vec3{0, 0, 0}, py::arg("body_cols") = 3, py::arg("body_rows") = 1, py::arg("legs") = 2,
          py::arg("leg_rows") = 2, py::arg("cell_size") = 0.1, py::arg("actuation") = 0.25, py::arg("mass") = 0.1,
          py::arg("stiffness") = 300.0, py::arg("damping") = 0.8,
          "a mass-spring robot whose legs are muscles on two new control channels each (the defaults make "
          "scenes/walker.json's robot); returns the particles");

  // Actuators: control channels and the springs (muscles) they drive.
  scene.def_property_readonly("channels", [](const Scene& s) { return s.channels; })
      .def(
          "set_channels", [](Scene& s, int channels) { apply(s, edits::set_channels(s, channels)); },
          py::arg("channels"), "the number of control channels (a steps x channels `controls` parameter)")
      .def(
          "set_spring_actuation",
          [](Scene& s, const std::vector<int>& springs, int channel, double actuation) {
            apply(s, edits::set_spring_actuation(s, springs, channel, actuation));
          },
          py::arg("springs"), py::arg("channel"), py::arg("actuation") = 0.25,
          "drive the springs by a channel (-1: passive): their rest length scales by 1 + actuation x control");

  // Rigid bodies, joints, attachments.
  scene
      .def(
          "add_body",
          [](Scene& s, const std::string& shape, const std::vector<double>& size, const Vec3& position, double density,
             const std::string& name) {
            const std::optional<BodyShape> kind = body_shape_from_name(shape);
            if (!kind || *kind == BodyShape::Mesh)
              throw EngineError("add body: shape '" + shape +
                                "': expected sphere, box or capsule (a mesh body comes from a scene file)");
            RigidBody body;
            body.shape = *kind;
            body.name = name;
            const std::size_t entries = shape_size_entries(*kind).size();
            if (size.size() != entries)
              throw EngineError("add body: a " + shape + "'s size is " + std::to_string(entries) +
                                (*kind == BodyShape::Sphere    ? " number (its radius)"
                                 : *kind == BodyShape::Capsule ? " numbers (its radius and half length)"
                                                               : " numbers (its half extents)") +
                                ", got " + std::to_string(size.size()));
            ShapeSize sizes{0, 0, 0};
            for (std::size_t k = 0; k < entries; ++k) sizes[k] = size[k];
            apply(s, edits::add_body(s, body, sizes, position, density));
            return s.body_count() - 1;
          },
          py::arg("shape"), py::arg("size"), py::arg("position"), py::arg("density") = 1000.0, py::arg("name") = "",
          "a body at rest (sphere: [radius]; box: [half extents]; capsule: [radius, half length]); returns its index")
      .def(
          "add_joint",
          [](Scene& s, const std::string& type, int parent, int child, const Vec3& anchor, const Vec3& axis,
             int channel, double gain, const std::string& name) {
            const std::optional<JointType> kind = joint_type_from_name(type);
            if (!kind)
              throw EngineError("add joint: type '" + type + "' is not a joint's (hinge, ball, prismatic, ...)");
            Joint joint;
            joint.type = *kind, joint.parent = parent, joint.child = child, joint.name = name;
            joint.axis[0] = axis[0], joint.axis[1] = axis[1], joint.axis[2] = axis[2];
            joint.channel = channel, joint.gain = gain;
            apply(s, edits::add_joint(s, joint, anchor));
            return s.joint_count() - 1;
          },
          py::arg("type"), py::arg("parent"), py::arg("child"), py::arg("anchor"), py::arg("axis") = Vec3{0, 0, 1},
          py::arg("channel") = -1, py::arg("gain") = 1.0, py::arg("name") = "",
          "a joint from parent (-1: the world) to child at a world anchor; a motor on `channel` when >= 0; returns "
          "its index")
      .def(
          "add_attachment",
          [](Scene& s, int particle, int body) {
            apply(s, edits::add_attachment(s, particle, body));
            return int(s.attachments.size()) - 1;
          },
          py::arg("particle"), py::arg("body"), "hold a free particle to a body; returns the attachment's index")
      .def(
          "delete_bodies", [](Scene& s, const std::vector<int>& bodies) { apply(s, edits::delete_bodies(s, bodies)); },
          py::arg("bodies"), "removes them with their joints and attachments")
      .def(
          "delete_joints", [](Scene& s, const std::vector<int>& joints) { apply(s, edits::delete_joints(s, joints)); },
          py::arg("joints"));

  // Objectives and colliders, as the scene file writes them.
  scene
      .def(
          "add_objective",
          [](Scene& s, const py::object& objective) {
            append_in_file(s, "objectives", objective);
            return int(s.objectives.size()) - 1;
          },
          py::arg("objective"),
          "an objective term as the scene file writes one, e.g. {\"type\": \"target\", \"particles\": [1], "
          "\"target\": [1, 0, 0], \"step\": -1}; returns its index")
      .def(
          "delete_objectives",
          [](Scene& s, const std::vector<int>& objectives) { apply(s, edits::delete_objectives(s, objectives)); },
          py::arg("objectives"))
      .def(
          "add_collider",
          [](Scene& s, const py::object& collider) {
            append_in_file(s, "colliders", collider);
            return int(s.colliders.size()) - 1;
          },
          py::arg("collider"),
          "a static collider as the scene file writes one, e.g. {\"type\": \"sphere\", \"position\": [0, 0, 0], "
          "\"radius\": 0.5}; returns its index");

  // The simulation's settings.
  scene
      .def(
          "set_time", [](Scene& s, double dt, int steps) { apply(s, edits::set_time(s, dt, steps)); }, py::arg("dt"),
          py::arg("steps"), "the time step (s) and the number of steps")
      .def(
          "set_gravity", [](Scene& s, const Vec3& gravity) { apply(s, edits::set_gravity(s, gravity)); },
          py::arg("gravity"))
      .def(
          "set_ground", [](Scene& s, bool enabled, double height) { apply(s, edits::set_ground(s, enabled, height)); },
          py::arg("enabled") = true, py::arg("height") = 0.0, "the ground plane y = height, on or off")
      .def_property_readonly("spring_count", &Scene::spring_count)
      .def_property_readonly("joint_count", &Scene::joint_count)
      .def_property_readonly("objective_count", [](const Scene& s) { return int(s.objectives.size()); });
}

}  // namespace nudge::python
