// The scene editor's translate gizmo, with no window: three arrows along the world's
// axes (x red, y green, z blue) from a world point and a square at that point for moving
// in the view plane, of a constant size on screen. Which handle is under the cursor,
// how far a drag moves the point (so the point grabbed stays under the cursor), snapping
// to a grid, and its drawing into the renderer's draw list.
#pragma once

#include <array>
#include <optional>

#include <glm/glm.hpp>
#include <glm/gtc/quaternion.hpp>

#include "nudge/render/draw_list.h"
#include "view/picking.h"
#include "view/scene_draw.h"

namespace nudge::view {

enum class GizmoHandle { None, X, Y, Z, ViewPlane };

// Its size on screen, in pixels.
struct GizmoStyle {
  double arrow_pixels = 90;       // from the origin to each arrow's tip
  double square_half_pixels = 8;  // the centre square's half side
  double grab_pixels = 6;         // how near the cursor must come to an arrow or the square
};

// The unit world axis of an arrow handle (zero for None and ViewPlane).
glm::dvec3 gizmo_axis(GizmoHandle handle);

// The gizmo at `origin` as it lands in the window (pixels): the origin, each arrow's tip
// (x, y, z), and the corners of the centre square. Empty when the origin is not in front
// of the eye. For an overlay drawn over the scene (the draw list's lines are hidden by
// what is in front of them).
struct GizmoScreen {
  glm::dvec2 origin{0, 0};
  std::array<std::optional<glm::dvec2>, 3> tips;  // empty when a tip is not in front of the eye
  double square_half = 0;                         // pixels
};
std::optional<GizmoScreen> gizmo_screen(const ViewportProjector& projector, glm::dvec3 origin,
                                        const GizmoStyle& style = {});

// The world length of the arrows at `origin`: style.arrow_pixels pixels there.
double gizmo_world_length(const ViewportProjector& projector, glm::dvec3 origin, const GizmoStyle& style = {});

// The handle under the window pixel `mouse`: the centre square (within grab_pixels of
// it) first, else the arrow whose drawn segment comes nearest, within grab_pixels.
GizmoHandle gizmo_handle_at(const ViewportProjector& projector, glm::dvec3 origin, glm::dvec2 mouse,
                            const GizmoStyle& style = {});

// How far dragging `handle` from window pixel `mouse_at_press` to `mouse_now` moves the
// point `origin` (where the gizmo was at the press), in world units:
//  - an axis: along that axis only, by the change in the point of the axis nearest the
//    cursor's ray, so the point of the axis under the cursor at the press stays under
//    it. When the axis points almost at the eye (within about 3 degrees) it does not move;
//    near that, and where the cursor passes the axis's vanishing point, the movement is
//    held to 100 gizmo lengths;
//  - the view plane: within the plane through `origin` facing the camera (normal: the view
//    direction), by the change where the cursor's ray meets it.
// Zero for None, and when the origin is not in front of the eye.
glm::dvec3 drag_offset(const ViewportProjector& projector, glm::dvec3 origin, GizmoHandle handle,
                       glm::dvec2 mouse_at_press, glm::dvec2 mouse_now, const GizmoStyle& style = {});

// Each component rounded to the nearest multiple of step; unchanged when step <= 0.
glm::dvec3 snap(glm::dvec3 offset, double step);

// A grid step that suits a scene of these bounds: a power of ten near a tenth of its
// radius (10^round(log10 radius) / 10: 0.1 m for radii 0.32 m to 3.2 m).
double default_snap_step(const Bounds& bounds);

// Draws the gizmo at `origin` into `list`: the arrows (ArrowBatch) and the centre square
// (a LineBatch strip in the plane facing the camera), each of a constant size on screen;
// `highlighted` (the hovered or dragged handle) brighter and wider.
void add_gizmo(render::DrawList& list, const ViewportProjector& projector, glm::dvec3 origin,
               GizmoHandle highlighted = GizmoHandle::None, const GizmoStyle& style = {});

// The colour of a handle as add_gizmo draws it (the square: white-ish).
render::Rgba gizmo_color(GizmoHandle handle, bool highlighted);

// What a turn-and-scale gizmo's matrix does (ImGuizmo's, column-major, started as the
// identity at the pivot: translate(pivot) R S translate(-pivot) about it, or R S at the
// origin): the rotation as a unit quaternion (x, y, z, w) and the uniform scale (the
// mean length of the linear part's columns). Empty when the scale is not positive and
// finite.
struct TurnScale {
  glm::dquat rotation{1, 0, 0, 0};
  double scale = 1;
  double degrees() const;  // the rotation's angle, in [0, 180]
};
std::optional<TurnScale> turn_scale_of(const glm::mat4& matrix);

}  // namespace nudge::view
