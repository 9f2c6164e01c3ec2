// The Edit menu's commands on the selection (declared in panels.h, shared with the
// studio's keys) and what the menu and they share: the scene edits apply to, and the
// selection of appended elements.
#pragma once

#include "gui/panels/panels.h"

namespace nudge::gui {

// The scene an edit applies to: the optimiser's iterate while it has one (the studio
// applies edits to what is shown), else the document's. Indices are the same in both.
inline const Scene& edited_scene(const StudioState& state) { return state.point_scene(); }

// The new elements [before, after) of one kind, selected: the first is the primary.
inline Selection appended(Selection::Kind kind, int before, int after) {
  Selection sel{kind, before, {}};
  for (int i = before + 1; i < after; ++i) sel.others.push_back(i);
  return after > before ? sel : Selection{Selection::Kind::Settings, 0, {}};
}

}  // namespace nudge::gui
