// What the scene edits share (scene_edits.h): checking index lists, renumbering after a
// deletion, keeping every parameter array's rows in step with the elements they belong
// to, and the last step of every edit (shape, check, say which action failed).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "nudge/parameter_facts.h"
#include "nudge/result.h"
#include "nudge/scene.h"
#include "studio/scene_edits.h"

namespace nudge::studio::edits::support {

// Numbers as a message shows them: the fewest digits that read back the same.
std::string number_text(double x);
std::string vec3_text(const Vec3& v);
bool finite(const Vec3& v);
// A transform's problem for `action` (a non-finite or zero rotation, a scale not > 0), or
// nothing; and the transform of a point and of an orientation (x, y, z, w) by it.
std::optional<Error> check_transform(std::string_view action, const Transform& transform);
void transform_point(const Transform& transform, double* p);
void transform_orientation(const Transform& transform, double* q);
// Makes v (3 values) a unit vector as a scene file reads a direction: kept bit for bit
// when it already is one (so saving and loading cannot change a last digit), else scaled
// (so tiny or huge vectors cannot underflow or overflow). False for a zero or
// non-finite one, which is left as it was.
bool normalise_direction(double* v);

// "delete particles: particle 7 does not exist; expected an index in [0, 5)" for the
// first index out of range, else nothing.
std::optional<Error> check_indices(std::string_view action, std::string_view element, const std::vector<int>& indices,
                                   int count);

// After deleting `removed` (valid indices, repeats allowed) from `count` elements: each
// old index's new index, -1 for a deleted one.
using IndexMap = std::vector<int>;
IndexMap index_map(int count, const std::vector<int>& removed);
int kept_count(const IndexMap& map);

// ---- Parameter rows -----------------------------------------------------------------
// Each parameter of an element kind (ParamElement::Particle, Spring, Body, Joint) has a
// row per element. These keep the values of the elements that remain, so that
// shape_parameters, which only refills arrays of the wrong size, keeps them too.

// Drops the rows of deleted elements and renumbers the optimised rows. A parameter whose
// optimised rows were all deleted is no longer optimised (an empty list means every row).
void remove_rows(ParameterSet& params, ParamElement element, const IndexMap& map);
// Appends `count` rows of defaults (the table's fill; an unturned orientation; sizes 0,
// which add_body sets) to every parameter of the element kind. New rows are optimised
// only where every row is.
void append_rows(ParameterSet& params, ParamElement element, int count);
// Inserts `count` rows of defaults at row `at` of every parameter of the element kind;
// optimised rows at or after it move down by count, and the new rows are optimised only
// where every row is.
void insert_rows(ParameterSet& params, ParamElement element, int at, int count);
// A per-step parameter (steps x columns) without the columns of deleted elements, or
// with `count` more columns of zeros.
void remove_columns(Parameter& param, int steps, const IndexMap& columns);
void append_columns(Parameter& param, int steps, int count);
// A per-step parameter with `steps` rows: the first min(old, new) kept, new ones zero;
// optimised rows past the end dropped (as remove_rows does).
void resize_steps(Parameter& param, int steps);

// ---- Appending particles and springs -----------------------------------------------

// Appends free particles at rest at these positions, each of `mass` and `radius`.
void append_particles(Scene& scene, const std::vector<Vec3>& positions, double mass, double radius);
// Appends passive springs between these particles, their rest lengths the particles'
// current distances.
void append_springs(Scene& scene, const std::vector<std::pair<int, int>>& pairs, double stiffness, double damping);

// ---- References -------------------------------------------------------------------

// Removes the springs whose map entry is -1 and renumbers nothing else (springs are not
// referred to by index elsewhere).
void remove_springs(Scene& scene, const IndexMap& springs);
// Removes the joints whose map entry is -1, with their rows and motor-control columns.
void remove_joints(Scene& scene, const IndexMap& joints);

// Elements on particles (triangles, bending edges, tets with their channels and gains)
// follow their particles: those with a removed corner go (their parameter rows with
// them), the others are renumbered by `particles`.
void keep_elements_of(Scene& scene, const IndexMap& particles);
// Removes the triangles, bending edges or tets whose map entry is -1 (a tet's channel and
// gain with it) and their parameter rows; their particles stay.
void remove_triangles(Scene& scene, const IndexMap& triangles);
void remove_bending_edges(Scene& scene, const IndexMap& edges);
void remove_tets(Scene& scene, const IndexMap& tets);
// Drops the actuators of deleted particles or bodies and renumbers the rest (an empty
// map: that kind is unchanged).
void renumber_actuators(Scene& scene, const IndexMap& particles, const IndexMap& bodies);
// Renumbers the objectives' particles (with a positions objective's targets), bodies and
// marker bindings after a deletion (an empty map: that kind is unchanged), and removes
// the objectives left reading nothing.
void renumber_objectives(Scene& scene, const IndexMap& particles, const IndexMap& bodies);

// What follows when particles or bodies go (the maps: -1 for those that go, the new index
// of the others; an empty map: none of that kind go): every family whose elements refer
// to particles or bodies drops the elements that need one that goes and renumbers the
// rest. One row per such family (scene_edits_support.cpp's kReferences): springs, the
// corner families, joints, attachments, actuators and objectives. The particles' and
// bodies' own arrays and rows are the caller's.
void drop_references(Scene& scene, const IndexMap& particles, const IndexMap& bodies);

// ---- Starting and finishing --------------------------------------------------------

// Edits index into the scene's arrays, so they start from a valid scene (a loaded one,
// or an edit's result); an invalid one is an error, not undefined behaviour.
std::optional<Error> check_input(const Scene& scene, std::string_view action);

// The radius a new particle gets: the one every particle has, else 0.
double shared_particle_radius(const Scene& scene);

// The last step of every edit: shapes the parameters (their values already have the
// right rows) and checks the scene; an invalid scene's message names the action.
Result<Scene> finish(Scene scene, std::string_view action);

inline Error fail(std::string_view action, const std::string& message) {
  return Error{std::string(action) + ": " + message};
}

}  // namespace nudge::studio::edits::support
