// The kinds of objective, one row each: its name in scene files and how its term is made
// from a scene's Objective. A new kind is an ObjectiveType entry (nudge/scene.h), a file
// in this folder with its term, and a row here (objective_registry.cpp).
#pragma once

#include <memory>
#include <span>
#include <string_view>

#include "nudge/objective_facts.h"
#include "nudge/scene.h"
#include "objectives/objective_term.h"

namespace nudge {

// What a term is made from: the objective, its scene (which must pass check_scene) and
// the step it names, resolved (-1 became the final step).
struct ObjectiveSource {
  const Objective& objective;
  const Scene& scene;
  int step;
  StateSizes sizes;
};

struct ObjectiveKind {
  ObjectiveType type;
  std::string_view name;   // in scene files: "target"
  ObjectiveLayout layout;  // its keys in scene files, and what they hold (nudge/objective_facts.h)
  std::unique_ptr<ObjectiveTerm> (*make)(const ObjectiveSource& source);
};

// Every kind, in ObjectiveType order.
std::span<const ObjectiveKind> objective_kinds();
const ObjectiveKind& objective_kind(ObjectiveType type);

// The makers, one per file of this folder.
std::unique_ptr<ObjectiveTerm> make_target_term(const ObjectiveSource& source);            // centroid_terms.cpp
std::unique_ptr<ObjectiveTerm> make_velocity_term(const ObjectiveSource& source);          // centroid_terms.cpp
std::unique_ptr<ObjectiveTerm> make_positions_term(const ObjectiveSource& source);         // point_terms.cpp
std::unique_ptr<ObjectiveTerm> make_markers_term(const ObjectiveSource& source);           // point_terms.cpp
std::unique_ptr<ObjectiveTerm> make_effort_term(const ObjectiveSource& source);            // control_terms.cpp
std::unique_ptr<ObjectiveTerm> make_smoothness_term(const ObjectiveSource& source);        // control_terms.cpp
std::unique_ptr<ObjectiveTerm> make_travel_term(const ObjectiveSource& source);            // travel_term.cpp
std::unique_ptr<ObjectiveTerm> make_orientation_term(const ObjectiveSource& source);       // orientation_term.cpp
std::unique_ptr<ObjectiveTerm> make_tracks_term(const ObjectiveSource& source);            // tracks_term.cpp
std::unique_ptr<ObjectiveTerm> make_inside_term(const ObjectiveSource& source);            // inside_term.cpp
std::unique_ptr<ObjectiveTerm> make_shape_term(const ObjectiveSource& source);             // shape_term.cpp
std::unique_ptr<ObjectiveTerm> make_rest_term(const ObjectiveSource& source);              // rest_term.cpp
std::unique_ptr<ObjectiveTerm> make_weights_term(const ObjectiveSource& source);           // weights_term.cpp
std::unique_ptr<ObjectiveTerm> make_joints_term(const ObjectiveSource& source);            // joints_term.cpp
std::unique_ptr<ObjectiveTerm> make_reach_term(const ObjectiveSource& source);             // reach_term.cpp
std::unique_ptr<ObjectiveTerm> make_link_orientation_term(const ObjectiveSource& source);  // link_orientation_term.cpp

}  // namespace nudge
