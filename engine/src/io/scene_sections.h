// What the sections of a scene file (docs/scene-format.md) share: the reader that walks
// the DOM (each section's reading is a SceneReader method or a free function over it),
// the helpers for the parameter columns of the facts table, and the pieces of messages
// that checks build. Each section's reading, writing and checking sit in one file with
// its row (scene_section.h): the families' <name>_section.cpp, and io/scene_section_*.cpp
// for "simulation" and "camera", "parameters" and "optimizer", "footage" and
// "objectives". scene_section_list.cpp lists them.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "io/json_text.h"
#include "io/scene_reader.h"
#include "nudge/scene.h"

namespace nudge::scene_io {

// ---- Reading ----------------------------------------------------------------------

// Walks the DOM into a Scene, checking every value as it goes.
class SceneReader : public NodeReader {
public:
  SceneReader(std::string file, fs::path folder) : NodeReader(std::move(file)), folder_(std::move(folder)) {}

  // The whole file, its sections in the order scene_section.h's stages say (scene_json.cpp).
  Scene read(const Json& root, const fs::path& source);

  // The sections' readers, called by their rows (scene_section.h).
  // scene_section_simulation.cpp
  void read_simulation(const Node& node, Scene& scene) const;
  void read_ground(const Node& node, Scene& scene) const;
  void read_implicit(const Node& node, ImplicitSettings& implicit) const;
  void read_camera(const Node& node, SceneCamera& camera) const;

  // scene_section_particles.cpp
  void read_particles(const Node& node, Scene& scene);  // sets the particle count that indices are checked against
  void read_controls(const std::optional<Node>& node, Scene& scene) const;
  bool read_springs(const std::optional<Node>& node, Scene& scene) const;
  void check_default_rest_lengths(const Scene& scene, const Node& springs) const;

  // scene_section_triangles.cpp
  void read_triangles(const std::optional<Node>& node, Scene& scene) const;
  // scene_section_bending.cpp (after the triangles, which "edges": "triangles" reads)
  void read_bending(const std::optional<Node>& node, Scene& scene) const;

  // scene_section_tets.cpp
  // Reads the section; returns the density when it gives one, whose masses
  // store_tet_masses writes once the parameters have their shapes.
  std::optional<double> read_tets(const std::optional<Node>& node, Scene& scene) const;
  static void store_tet_masses(double density, Scene& scene);

  // scene_section_bodies.cpp
  // A body's parameter values as written (absent ones keep their defaults).
  struct BodyValues {
    std::vector<FieldValue> fields;  // position, orientation, density, ...
    ShapeSize size{0, 0, 0};         // in the shape's order (shape_size_entries)
  };
  std::vector<BodyValues> read_bodies(const Node& node, Scene& scene) const;
  std::shared_ptr<const BodyMesh> read_body_mesh(const Node& item) const;
  static void store_body_values(const std::vector<BodyValues>& values, Scene& scene);
  // Each joint's parameter values as written (anchor, damping, ...).
  using JointValues = std::vector<FieldValue>;
  std::vector<JointValues> read_joints(const Node& node, Scene& scene) const;
  static void store_joint_values(const std::vector<JointValues>& values, Scene& scene);
  void read_joint_settings(const Node& node, JointSettings& s) const;
  void read_joint_controls(const Node& node, Scene& scene) const;
  void read_attachments(const Node& node, Scene& scene) const;

  // scene_section_colliders.cpp
  void read_colliders(const Node& node, Scene& scene) const;
  ColliderShape read_collider(const Node& node) const;
  void read_placement(const Node& node, ColliderShape& c) const;
  void read_contact(const Node& node, Scene& scene) const;

  // scene_section_objectives.cpp
  void read_objectives(const Node& node, Scene& scene) const;
  int step(const Node& objective, int steps) const;
  Objective read_objective(const Node& node, const Scene& scene) const;
  void read_position_targets(const Node& node, const Scene& scene, Objective& o) const;
  void read_direction(const Node& node, Objective& o) const;
  void read_markers(const Node& node, const Scene& scene, Objective& o) const;
  std::map<int, std::string> read_bindings(const Node& node, const Scene& scene, std::string_view what,
                                           Objective& o) const;
  void read_tracks_objective(const Node& node, const Scene& scene, Objective& o) const;

  // scene_section_parameters.cpp
  void read_parameters(const Node& node, Scene& scene) const;
  void read_optimizer(const Node& node, OptimizerSettings& o) const;

  // scene_section_controller.cpp (after the particles and controls). Returns the
  // weights when the file gives them, stored once the parameters have their shapes.
  std::optional<std::vector<double>> read_controller(const Node& node, Scene& scene) const;

  // scene_section_actuators.cpp (after the particles, bodies and controls)
  void read_actuators(const Node& node, Scene& scene) const;

  // scene_section_footage.cpp (before the objectives, whose tracks objectives read it)
  void read_footage(const Node& node, Scene& scene) const;
  PinholeCamera read_pinhole_camera(const Node& node) const;
  Track read_track(const Node& node, std::set<int>& ids) const;

  const fs::path& folder() const { return folder_; }  // marker and mesh files are relative to it

private:
  fs::path folder_;
};

// ---- Writing ----------------------------------------------------------------------

// scene_param_columns.cpp: a section's column and field parameters (nudge/parameter_facts.h).
// Its keys, or those of each of its objects: `own` (those it reads by hand), then its
// columns' and fields' in the table's order.
std::vector<std::string_view> section_keys(std::string_view section, std::initializer_list<std::string_view> own);
// Adds its columns to `json`, in the table's order (a column written when set only
// when some value is not the default).
void write_param_columns(OrderedJson& json, const Scene& scene, std::string_view section);
// Adds object `index`'s fields to its `json` ("bodies[b].density"), in the table's order.
void write_param_fields(OrderedJson& json, const Scene& scene, std::string_view section, int index);

// colliders_section.cpp: one collider shape as the file writes it (colliders, vessels' parts).
OrderedJson collider_json(const ColliderShape& c);

// ---- Checking ---------------------------------------------------------------------
// The invariants the engine relies on for any scene, loaded or built in code, are each
// section's check (its row); check_scene (scene_check.cpp) runs them. Messages name the
// place as a scene file would ("springs.pairs[3]", "particles.mass[2]").

using Problem = std::optional<std::string>;  // the first violated invariant, if any

inline std::string number_text(int x) { return std::to_string(x); }  // number_text(double): json_text.h

inline std::string index_path(const std::string& path, long long i) { return path + "[" + std::to_string(i) + "]"; }

template <class Number>
std::string found(const std::string& where, Number value, std::string_view expected) {
  return where + ": found " + number_text(value) + "; expected " + std::string(expected);
}

// ---- Parameter shapes (scene_check.cpp), which check_parameters compares with ------

struct Shape {
  int rows = 0, cols = 0;
};

// The counts a parameter's shape follows from.
struct Counts {
  int particles, springs, steps, channels, bodies, joints, triangles, bending_edges, tets, controller_weights;
  int points, materials;  // material points
  int links, actuators;   // articulations
};

Counts counts_of(const Scene& scene);

// colliders_section.cpp: one collider shape's invariants, its place named `at`.
Problem check_collider_shape(const ColliderShape& c, const std::string& at);
Shape shape_of(ParamId id, const Counts& n);

}  // namespace nudge::scene_io
