// The kinds of element a person points at in the studio: picked in the viewport
// (view/picking.h), selected, listed and edited (studio/element_kinds.h holds a row of
// facts per kind). One enum for every layer of the app, so a pick is a selection as it is.
#pragma once

namespace nudge {

enum class ElementKind {
  None,
  Settings,
  Particle,
  Spring,
  Body,
  Collider,
  Joint,
  Attachment,
  Objective,
  Parameter,
  Triangle,
  BendingEdge,
  Tet,
  Link  // an articulation's link (and its joint to its parent)
};
// The last kind: tables with a row per kind check themselves against it.
inline constexpr ElementKind kLastElementKind = ElementKind::Link;

}  // namespace nudge
