// The viewport's mouse geometry, with no window: where world points land in the window,
// the ray under a pixel, what the cursor is on (pick) and what a dragged rectangle holds
// (box_select). The picks follow what scene_draw_list draws at the same step.
#pragma once

#include <optional>
#include <vector>

#include <glm/glm.hpp>

#include "nudge/render/camera.h"
#include "nudge/scene.h"
#include "nudge/simulator.h"
#include "view/element_kind.h"
#include "view/scene_draw.h"

namespace nudge::view {

// A rectangle of the window in pixels (x right, y down): the viewport's image.
struct PixelRect {
  double x = 0, y = 0, width = 1, height = 1;
};

// A half line from `origin` along `direction` (unit).
struct Ray {
  glm::dvec3 origin{0, 0, 0};
  glm::dvec3 direction{0, 0, -1};
  glm::dvec3 at(double t) const { return origin + t * direction; }
};

// A camera looking into a viewport rectangle of the window: the same perspective as
// render::projection_matrix at aspect width / height, in double precision, with window
// pixel coordinates (continuous: the centre of the viewport's top-left pixel is
// (x + 0.5, y + 0.5)), so to_pixel(p) - (x, y) is render::project_to_pixel(p, width, height).
class ViewportProjector {
public:
  ViewportProjector(const render::Camera& camera, PixelRect viewport);

  const render::Camera& camera() const { return camera_; }
  const PixelRect& viewport() const { return viewport_; }
  double aspect() const { return viewport_.width / viewport_.height; }
  glm::dvec3 eye() const { return eye_; }
  glm::dvec3 forward() const { return forward_; }  // unit, the view direction
  glm::dvec3 right() const { return right_; }      // unit, rightwards on screen
  glm::dvec3 up() const { return up_; }            // unit, upwards on screen

  // Distance in front of the eye along the view direction (negative behind it).
  double depth(glm::dvec3 world) const;
  // Where a world point lands, in window pixels; empty when it is not in front of the
  // eye (depth below a tiny fraction of the near plane). Not clipped to the viewport or
  // to the near and far planes.
  std::optional<glm::dvec2> to_pixel(glm::dvec3 world) const;
  // The ray from the eye through a window pixel (any, inside the viewport or not).
  Ray ray(glm::dvec2 pixel) const;
  // The world length that one pixel spans at this depth (in the plane facing the camera).
  double pixel_size(double depth) const;
  bool contains(glm::dvec2 pixel) const;

private:
  render::Camera camera_;
  PixelRect viewport_;
  glm::dvec3 eye_, forward_, right_, up_;
  double tan_half_y_ = 0;
};

// What the cursor is on.
struct Pick {
  using Kind = ElementKind;  // picked: particles, bodies, colliders, objectives, joints, triangles, tets, links
  Kind kind = Kind::Particle;
  int index = -1;  // into the scene's particles, bodies, colliders, objectives, joints, triangles, tets or links
  // Objective: the row of a Positions objective's target (its k-th particle), the sample
  // (index into samples) of a Markers objective; -1 otherwise.
  int row = -1;
  double distance = 0;        // along the ray from the eye to where it meets the element
  glm::dvec3 point{0, 0, 0};  // that point, in the world
  // The same element (distance and point aside).
  bool operator==(const Pick& o) const { return kind == o.kind && index == o.index && row == o.row; }
};

// How forgiving picking is.
struct PickTolerance {
  // A particle, a target or a joint's marker within this many pixels of the cursor is
  // under it (small ones are hard to hit). Bodies and colliders are hit exactly.
  double pixels = 4;
};

// The element under the window pixel `mouse`, as scene_draw_list(scene, traj, step,
// options) draws it (the layers options hides are not picked):
//  - particles: spheres at their radius (the contact radius when the scene gives one,
//    else options.particle_radius), at step `step` of traj (the initial positions when
//    traj is null);
//  - bodies: their shapes (sphere, box, capsule, the convex hull of a mesh) at the pose
//    of that step;
//  - colliders: their shapes; planes only as the square patch drawn, and only when the
//    cursor is on nothing else;
//  - objectives: the target spheres of Target, Positions (row: the particle's row) and
//    Markers (row: the sample) objectives at that step;
//  - joints: the marker sphere at the child's anchor;
//  - triangles (cloth): each triangle between its particles at that step, both sides;
//  - tets (soft bodies): the boundary faces drawn (options.tet_surface, or the scene's),
//    each picking the tet it bounds;
//  - links (articulations): their shapes at the pose of that step (placed_link_shapes),
//    a link without shapes by the sphere drawn at its origin.
// Among the elements the ray meets exactly, the nearest the eye. A small element
// (particle, target, joint marker) the cursor misses by at most tolerance.pixels counts
// when it is in front of that one, unless that one is itself a small element the cursor
// is on; among several such near misses, the one the cursor comes closest to.
// Empty when the cursor is on nothing or outside the viewport.
std::optional<Pick> pick(const Scene& scene, const Trajectory* traj, int step, const SceneDrawOptions& options,
                         const ViewportProjector& projector, glm::dvec2 mouse, PickTolerance tolerance = {});

// What a rectangle dragged on the viewport holds.
struct BoxSelection {
  std::vector<int> particles;  // ascending
  std::vector<int> bodies;     // ascending
  bool empty() const { return particles.empty() && bodies.empty(); }
};

// The particles and bodies (their centres of mass) at step `step` of traj (the start when
// null) that land inside the rectangle with corners `corner_a` and `corner_b` (window
// pixels, either order; edges included), in front of the eye.
BoxSelection box_select(const Scene& scene, const Trajectory* traj, int step, const ViewportProjector& projector,
                        glm::dvec2 corner_a, glm::dvec2 corner_b);

// Body b's centre of mass and orientation (x, y, z, w; normalised) at step `step` of
// traj, or its initial pose when traj is null or has no bodies' motion (as drawn).
struct BodyPlacement {
  glm::dvec3 position{0, 0, 0};
  glm::dvec4 orientation{0, 0, 0, 1};
};
BodyPlacement body_placement(const Scene& scene, const Trajectory* traj, int step, int b);

}  // namespace nudge::view
