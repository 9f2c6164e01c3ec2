// What the inspector's sections share: rows of a two-column table (a label, a value or
// fields typed in) and the objective's section (objective_inspector.cpp).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "gui/panels/panels.h"
#include "nudge/parameter_facts.h"

namespace nudge::gui::inspector {

// What a page of the inspector reads (the state, as const) and what it may change: the
// commands it queues, and the marker an objective's "bind by picking" waits on.
struct Page {
  const StudioState& state;
  CommandQueue& commands;
  std::optional<EditorState::MarkerBinding>& binding_marker;
  const Scene& scene;  // the scene shown
  int index;           // the element shown: the selection's index
};

// A label and a value (wrapped).
void row(const char* label, const std::string& value);
std::string number(double v);       // "%.6g"
std::string vec3(const double* v);  // three numbers, "%.4g" each
// A row of `count` numbers typed in (at most 3); true, with the new values, when Enter
// applies them.
bool number_row(const char* label, double* values, int count, const char* unit, const std::string& tooltip);
// A row of a parameter (its `row`-th element's values), typed in, labelled with the
// facts table's label and unit (nudge/parameter_facts.h); `unit` overrides the table's
// where it depends on the element (a hinge's damping against a slider's). Enter queues
// the edit (checked and applied by the studio after the panels are drawn).
void edit_param_row(const Page& page, ParamId id, int row, const char* unit = nullptr);
// Every global parameter of one section of the scene file ("simulation",
// "simulation.ground", "contact"), in the facts table's order.
inline void edit_section_rows(const Page& page, std::string_view section) {
  for (int i = 0; i < kParamCount; ++i) {
    const ParamFacts& facts = param_facts(static_cast<ParamId>(i));
    if (facts.element == ParamElement::Scene && is_param_column(facts.file) && param_section(facts) == section)
      edit_param_row(page, facts.id, 0);
  }
}
// Every parameter of one element (a particle's, a spring's), in the facts table's order,
// but those `hidden` says to leave out: a new per-element parameter shows up here by
// itself.
template <class Hidden>
void edit_element_rows(const Page& page, ParamElement element, int row, Hidden hidden) {
  for (int i = 0; i < kParamCount; ++i) {
    const ParamId id = static_cast<ParamId>(i);
    if (param_facts(id).element == element && !hidden(id)) edit_param_row(page, id, row);
  }
}
// "body 2 (lever)", or "world" for -1.
std::string body_label(const Scene& scene, int b);
// A label and, on its right, a small button; true when it is pressed.
bool button_row(const char* label, const std::string& value, const char* button, const char* tooltip);

// Objective k's rows: type, weight, step, what it reads, its target (typed in; dragged in
// the viewport), a markers objective's file and bindings, its loss, Remove.
void objective(const Page& page);

}  // namespace nudge::gui::inspector
