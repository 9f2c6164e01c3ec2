// The kinds of thing the studio selects, lists and deletes, one row each: what they are
// called, how many a scene has, the outliner's line for one, and the edit that deletes
// some. The outliner, the inspector's headings, the selection's checks and Delete read
// the rows; a family with elements of its own adds an ElementKind entry and its row
// (element_kinds.cpp), then its inspector page, its highlight and its pick.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "nudge/result.h"
#include "nudge/scene.h"
#include "view/element_kind.h"

namespace nudge::studio {

using nudge::ElementKind;  // view/element_kind.h

// When the outliner lists a kind's elements under a heading of their own.
enum class OutlinerList : unsigned char {
  Never,        // listed otherwise (settings, parameters) or not at all
  Always,       // the heading even when there are none (particles, springs, objectives)
  WhenPresent,  // the heading only when there are some
};

struct ElementKindFacts {
  ElementKind kind;
  std::string_view singular;  // "bending edge"
  std::string_view plural;    // "bending edges"
  std::string_view title;     // the outliner's heading: "Bending edges"
  bool many;                  // may be selected several at a time
  OutlinerList outliner;
  bool open;                                        // the outliner's heading open at first
  int (*count)(const Scene& scene);                 // how many the scene has
  std::string (*label)(const Scene& scene, int i);  // the outliner's line for one
  // The edit that deletes some (nullptr: they cannot be deleted).
  Result<Scene> (*remove)(const Scene& scene, const std::vector<int>& indices);
};

// Every kind but None, in the outliner's order.
std::span<const ElementKindFacts> element_kinds();
const ElementKindFacts& element_kind_facts(ElementKind kind);

}  // namespace nudge::studio
