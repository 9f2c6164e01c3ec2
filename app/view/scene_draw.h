// What a scene looks like: turns an engine Scene and one frame of its motion into the
// renderer's draw list (particles as spheres, springs as lines, muscles coloured by their
// control, bodies, colliders, joints, attachments, objectives as green targets with error lines, the
// ground grid, cloth and the surface of soft bodies as lit meshes), and chooses a camera that frames it. The window and `nudge render` draw
// the same thing.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "nudge/link_poses.h"
#include "nudge/quat.h"
#include "nudge/render/draw_list.h"
#include "nudge/scene.h"
#include "nudge/simulator.h"
#include "view/tet_surface.h"

namespace nudge::view {

struct Bounds {
  glm::vec3 lo{0, 0, 0}, hi{0, 0, 0};
  glm::vec3 center() const { return 0.5f * (lo + hi); }
  float radius() const;  // half the diagonal, never below a small positive size
};

// How far the largest body reaches from its centre of mass (0 without bodies).
float largest_body_reach(const Scene& scene);

// Every particle and body over the whole trajectory, or the initial positions when traj
// is null, and the joints' anchors at the start.
Bounds scene_bounds(const Scene& scene, const Trajectory* traj);

// A three-quarter view from the front right and above, far enough that the bounds fit
// the vertical field of view and, at this aspect (width / height), the horizontal one.
render::Camera framing_camera(const Bounds& bounds, float aspect, float fov_y_degrees = 45.0f);

// The scene's own camera when it has one, else framing_camera.
render::Camera scene_camera(const Scene& scene, const Bounds& bounds, float aspect);

// What stays the same from frame to frame of one motion; computed once per trajectory.
struct SceneDrawOptions {
  render::Camera camera;
  Bounds bounds;              // of the whole motion: places and sizes the grid
  float particle_radius = 0;  // sphere radius
  bool particles = true;
  bool springs = true;
  bool triangles = true;  // cloth: the triangles as a lit mesh
  bool tets = true;       // soft bodies: the tets' boundary faces as a lit mesh
  // The boundary of the scene's tets (scene_draw_options makes it once); when null or
  // made from other tets (the document was edited since), the draw list makes its own.
  std::shared_ptr<const TetSurface> tet_surface;
  bool objectives = true;
  bool colliders = true;
  bool bodies = true;
  bool joints = true;
  bool attachments = true;        // particles tied to bodies
  bool collision_shapes = false;  // the links' shapes that are felt but not drawn (LinkShape::drawn)
  bool actuators = true;          // arrows of what each pushes with at the step (view/actuator_arrows.h)
  bool grid = true;
};

// Particle i at step `step` of traj (clamped to its steps), or at its initial position
// when traj is null.
glm::vec3 particle_position(const Scene& scene, const Trajectory* traj, int step, int i);

// Sphere radius that suits the scene's spacing.
float default_particle_radius(const Scene& scene, const Bounds& bounds);

// Options for drawing this motion (traj, or the initial positions when null) at this
// aspect (width / height): its bounds, the scene's camera or one that frames it, the
// default particle radius and the surface of the scene's tets.
SceneDrawOptions scene_draw_options(const Scene& scene, const Trajectory* traj, float aspect);

// The scene at step `step` of traj (positions n x 3 from traj->x), or at its initial
// positions when traj is null. Its first meshes are the colliders, in the scene's order,
// then the bodies, then the cloth (all the triangles, one mesh), then the soft bodies
// (the boundary faces of all the tets, one mesh); soft_mesh_places says where.
render::DrawList scene_draw_list(const Scene& scene, const Trajectory* traj, int step, const SceneDrawOptions& options);

// Where scene_draw_list put the cloth's and the tets' meshes in its list (-1: not drawn).
struct SoftMeshPlaces {
  int cloth = -1, tets = -1;
};
SoftMeshPlaces soft_mesh_places(const Scene& scene, const SceneDrawOptions& options);

// Joint j at step `step` of traj, or at the start when traj is null. As in the engine,
// each side carries the anchor (and the parent the axis) fixed in its own frame from its
// initial pose; the world's side keeps them where they were at the start.
struct JointPlace {
  Vec3<double> parent_anchor{0, 0, 0}, child_anchor{0, 0, 0};  // world; apart when the joint gives
  Vec3<double> parent_center{0, 0, 0}, child_center{0, 0, 0};  // the bodies' centres (the world's: its anchor)
  Vec3<double> axis{0, 0, 1};                                  // unit, as the parent carries it
  double gap() const { return length(child_anchor - parent_anchor); }
};
JointPlace joint_place(const Scene& scene, const Trajectory* traj, int step, int j);

// Body b at step `step` of traj (clamped to its steps), or at its initial pose when traj
// is null or has no bodies' motion: as drawn.
struct BodyPose {
  Vec3<double> x;
  Quat<double> q;  // normalised, as the engine uses it
};
BodyPose body_pose(const Scene& scene, const Trajectory* traj, int step, int b);

// The radius of joint j's marker sphere (before any emphasis): out of the thinner body
// where the anchor sits at its surface, but never large beside the scene.
double joint_marker_radius(const Scene& scene, int j, const Bounds& bounds);

// Joint j at step `step` in `color`: a sphere at the child's anchor, a line from each
// body's centre to its side's anchor, and for a hinge or prismatic joint a short line
// along the axis through the parent's anchor (a limited prismatic joint's: over its whole
// range). `emphasis` > 1 draws it larger and bolder, over the usual drawing (the
// selection's highlight).
void add_joint(render::DrawList& list, const Scene& scene, const Trajectory* traj, int step, int j,
               const SceneDrawOptions& options, render::Rgba color, float emphasis = 1);

// The articulations' links at step `step` of traj (the initial q when traj is null or
// has no joint motion of this scene), as drawn.
std::vector<LinkPose> link_poses_at(const Scene& scene, const Trajectory* traj, int step);
// Link k's drawn shapes (LinkShape::drawn) at its pose: each a collider shape placed in the world (a
// capsule's or cylinder's as a capsule, a mesh's as a sphere of its first size).
std::vector<ColliderShape> placed_link_shapes(const Scene& scene, const LinkPose& pose, int k);
// Whether some link has a shape that is felt but not drawn (SceneDrawOptions::collision_shapes).
bool has_collision_shapes(const Scene& scene);
// Where the links' meshes start in a list scene_draw_list made: the articulations are its
// last layer to add meshes, one per shape in link order, so theirs end it. Empty when the
// list has fewer meshes than the links have shapes (the bodies' layer hidden).
std::optional<size_t> first_link_mesh(const Scene& scene, const render::DrawList& list);
// Link k in `color` over the usual drawing (the selection's highlight): its shapes'
// meshes recoloured where scene_draw_list put them (the articulations are its last layer
// to add meshes, so their meshes end `list`), a larger sphere for a link without shapes,
// and its joint's axis bolder.
void add_link_highlight(render::DrawList& list, const Scene& scene, const Trajectory* traj, int step, int k,
                        const SceneDrawOptions& options, render::Rgba color);

// Attachment a at step `step` of traj, or at the start when traj is null. As in the
// engine, the body carries the point where the particle started, fixed in its own frame
// from its initial pose; a stiff spring holds the particle to it.
struct AttachmentPlace {
  Vec3<double> offset{0, 0, 0};    // the point in the body's frame, from its centre (the same at every step)
  Vec3<double> particle{0, 0, 0};  // world
  Vec3<double> point{0, 0, 0};     // world: where the body has carried the point
  double gap() const { return length(point - particle); }  // zero while the spring holds
};
AttachmentPlace attachment_place(const Scene& scene, const Trajectory* traj, int step, int a);

// Attachment a at step `step` in `color` (the scene draws them in colors::kJoint): a sphere at the body's point, a little larger
// than the particle's (it hides the particle while the spring holds), and a line from the
// particle to the point (it shows the stretch). `emphasis` > 1 draws it larger and bolder,
// over the usual drawing (the selection's highlight).
void add_attachment(render::DrawList& list, const Scene& scene, const Trajectory* traj, int step, int a,
                    const SceneDrawOptions& options, render::Rgba color, float emphasis = 1);

// Colours of the dark theme shared by the viewport and renders.
namespace colors {
inline constexpr render::Rgba kParticle{0.86f, 0.88f, 0.92f, 1};
inline constexpr render::Rgba kPinned{0.96f, 0.62f, 0.22f, 1};
inline constexpr render::Rgba kSpring{0.42f, 0.55f, 0.72f, 1};
inline constexpr render::Rgba kTarget{0.35f, 0.9f, 0.45f, 1};
inline constexpr render::Rgba kError{0.35f, 0.9f, 0.45f, 0.7f};
inline constexpr render::Rgba kReferenceTrack{0.35f, 0.9f, 0.45f, 0.45f};  // a marker's whole track
inline constexpr render::Rgba kSimulatedTrack{0.9f, 0.9f, 0.95f, 0.35f};   // its particle's path
inline constexpr render::Rgba kCollider{0.55f, 0.52f, 0.48f, 1};
inline constexpr render::Rgba kBody{0.78f, 0.62f, 0.42f, 1};
inline constexpr render::Rgba kJoint{0.82f, 0.4f, 0.95f, 1};  // violet: no body, target or muscle has it
inline constexpr render::Rgba kCollisionShape{0.9f, 0.32f, 0.28f,
                                              1};  // a link's felt-only shape, as ROS tools colour it
inline constexpr render::Rgba kCloth{0.45f, 0.62f, 0.78f, 1};
inline constexpr render::Rgba kSoft{0.80f, 0.52f, 0.56f, 1};  // soft bodies (tets): flesh, unlike bodies' wood
}  // namespace colors

}  // namespace nudge::view
