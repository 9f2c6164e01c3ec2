// What is known about each parameter, in one table: its name, what a row of it is, its
// width, unit, default, the values it may take, where it lives in a scene file, its
// label in the studio, and how its gradient is drawn over the scene. The checker, the
// scene reader, the parameter names, the inspector and the overlays read it; a new
// parameter is one row here (engine/src/sim/parameter_facts.cpp) plus its kernel.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "nudge/parameters.h"

namespace nudge {

// What one row of a parameter belongs to; the row count follows from the scene.
enum class ParamElement {
  Particle,          // N rows
  Spring,            // S rows
  Scene,             // 1 row: a global value
  StepChannel,       // T x C: a control per step and actuation channel
  Body,              // B rows
  Joint,             // J rows
  StepJoint,         // T x J: a motor control per step and joint
  Triangle,          // Tri rows
  BendingEdge,       // E rows
  Tet,               // Tet rows
  ControllerWeight,  // P rows: the controller's weights (Controller::weight_count)
  MaterialPoint,     // the material points' count
  Material,          // the material points' materials
  Link,              // L rows: the articulations' links
  LinkActuator,      // A rows: the articulations' actuators
};

// The values a parameter may take.
enum class ParamRange { Finite, Positive, NonNegative, UnitInterval /* (0, 1] */ };

// How the studio draws its gradient: arrows at the element's initial position (3 values
// per row), colours on the element (1 value per row), or not at all.
enum class ParamOverlay { None, Arrows, Colors };

// How a scene file holds it. A column is one key of its section ("particles.mass"): one
// number for all elements or one row per element, read, written and listed among the
// section's keys by the section's one loop over the table (io/scene_columns.h), so a new
// per-element parameter needs no reader or writer of its own. A column written when set
// is left out of a saved file while every value is the default, so that files written
// before it existed save unchanged. A field is one key of each object of an array section
// ("bodies[b].density": one number, or [x, y, z] for a vector), read and written by the
// section's one loop over the table for each object (read_param_fields,
// write_param_fields); absent, it keeps its default, and a required field must be there.
// A field written when set is left out of an object whose row is the default (a link's
// initial rotation, which only balls and free joints have).
// Custom: its section reads and writes it by hand (a default that depends on other
// values, a key only some objects have, a nested place).
enum class ParamFile { Custom, Column, ColumnWhenSet, Field, FieldWhenSet, RequiredField };

constexpr bool is_param_column(ParamFile file) { return file == ParamFile::Column || file == ParamFile::ColumnWhenSet; }
constexpr bool is_param_field(ParamFile file) {
  return file == ParamFile::Field || file == ParamFile::FieldWhenSet || file == ParamFile::RequiredField;
}

struct Scene;

// A default that depends on the scene (a spring's rest length is its initial length): the
// `rows` x `cols` values, row after row.
using SceneDefault = std::vector<double> (*)(const Scene& scene, ParamId id, int rows, int cols);

struct ParamFacts {
  ParamId id;
  std::string_view name;  // in scene files, results and on the command line
  ParamElement element;
  int cols;               // values per row (C or J for per-step controls)
  std::string_view unit;  // "m", "kg", "N/m", ...; empty for a pure number
  double fill;            // the default of every value, unless row_fill or scene_default says otherwise
  ParamRange range;
  std::string_view where;     // where it lives in a scene file: "particles.mass"
  std::string_view expected;  // what a value must be, for messages: "a mass > 0 (kg)"
  std::string_view label;     // the studio's short label: "mass"
  ParamOverlay overlay;
  ParamFile file;
  std::span<const double> row_fill{};    // the default of each row, where its values differ (gravity)
  SceneDefault scene_default = nullptr;  // the default, where the scene gives it
};

// Its default values for `rows` rows of `cols`: scene_default, else row_fill in each row,
// else fill everywhere.
std::vector<double> param_default(const ParamFacts& facts, const Scene& scene, int rows, int cols);
// One row of its defaults where they do not depend on the scene (row_fill, else fill).
std::vector<double> param_default_row(const ParamFacts& facts, int cols);

// The section of a scene file it lives in: "particles" for "particles.mass",
// "simulation.ground" for "simulation.ground.stiffness", "bodies" for "bodies.density".
std::string_view param_section(const ParamFacts& facts);
// Its key within that section: "mass" for "particles.mass".
std::string_view param_key(const ParamFacts& facts);

const ParamFacts& param_facts(ParamId id);

// Whether a parameter has a row per step (controls, joint_control): a timeline that the
// simulation's length resizes, model predictive control cuts and the control terms read.
constexpr bool is_per_step(ParamElement element) {
  return element == ParamElement::StepChannel || element == ParamElement::StepJoint;
}
// Those parameters, in ParamId order.
std::span<const ParamId> per_step_params();

// What one row of such an element is called in messages: "particle", "bending edge".
std::string_view param_element_name(ParamElement element);

// Every parameter's name, in ParamId order, separated by ", ": what a message about a
// name that is none of them lists.
std::string param_names_listed();

// Whether x is in the parameter's range.
bool in_param_range(ParamRange range, double x);

}  // namespace nudge
