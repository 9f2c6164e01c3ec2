// The scene editor's actions as pure functions on the engine's Scene, one per action:
// each takes a scene and returns the edited copy, or an Error that says what was wrong,
// starting with the action ("add spring: particles 3 and 3 are the same particle; a
// spring joins two"). The input is never changed, so the studio's undo history can keep
// every step as it was.
//
// Every result passes check_scene, and saving it and loading it back gives the same
// scene. New elements are appended: a new particle's index is the old particle_count(),
// and so on. Deleting elements renumbers every reference to later ones (springs,
// attachments, joints, objectives, marker bindings, optimised rows) and removes what
// only referred to the deleted ones (the springs of a deleted particle, the joints of a
// deleted body, an objective left reading nothing).
//
// Edits of values leave the optimisation bounds alone: the optimiser projects its start
// into them, and the studio's inspector decides whether to refuse a value out of bounds.
//
// Implemented by element family: scene_edits_particles.cpp (particles, springs,
// controls), scene_edits_generators.cpp (chains, cloth, lattices), scene_edits_soft.cpp
// (membrane cloth, soft boxes and balls of tets, imported tet meshes), scene_edits_bodies.cpp
// (bodies, joints, attachments, colliders), scene_edits_scene.cpp (objectives, marker
// bindings, time, gravity, ground, what is optimised), scene_edits_clipboard.cpp (copy,
// paste, duplicate); scene_edits_support.h holds what they share.
#pragma once

#include <array>
#include <filesystem>
#include <vector>

#include "nudge/bodies.h"
#include "nudge/colliders.h"
#include "nudge/joints.h"
#include "nudge/parameters.h"
#include "nudge/result.h"
#include "nudge/scene.h"
#include "nudge/tet_mesh.h"

namespace nudge::studio::edits {

using Vec3 = std::array<double, 3>;

// ---- Particles -------------------------------------------------------------------
// Lists of indices may name an element more than once (a selection); each must exist.

// A free particle at rest at `position` (m) with `mass` (kg, > 0), no external force,
// and the radius the scene's particles share (0 when they differ or there are none).
Result<Scene> add_particle(const Scene& scene, const Vec3& position, double mass);
// Removes the particles with their springs and attachments. An objective left with no
// particles and no bodies (a markers objective: no bound marker) is removed too.
Result<Scene> delete_particles(const Scene& scene, const std::vector<int>& particles);
// Pins or frees the particles (a pinned particle's velocity is held at zero; an
// attached particle cannot be pinned).
Result<Scene> set_pinned(const Scene& scene, const std::vector<int>& particles, bool pinned);
// Moves the particles' initial positions by `delta` (m); springs keep their rest lengths.
Result<Scene> move_particles(const Scene& scene, const std::vector<int>& particles, const Vec3& delta);

// A turn and a uniform scale about a pivot, as the gizmo's rotate and scale and the
// inspector's typed transform give them: p -> pivot + scale * rotate(rotation, p - pivot).
struct Transform {
  Vec3 pivot{0, 0, 0};
  std::array<double, 4> rotation{0, 0, 0, 1};  // a quaternion x, y, z, w; normalised when applied
  double scale = 1;                            // > 0
};
// Turns and scales the particles' initial positions about the pivot (their velocities stay
// as they are); springs keep their rest lengths.
Result<Scene> transform_particles(const Scene& scene, const std::vector<int>& particles, const Transform& transform);

// ---- Springs and controls --------------------------------------------------------

// A passive spring between particles a and b whose rest length is their current
// distance; stiffness (N/m) and damping (N s/m) >= 0. Two particles are joined once.
Result<Scene> add_spring(const Scene& scene, int a, int b, double stiffness, double damping);
Result<Scene> delete_springs(const Scene& scene, const std::vector<int>& springs);
// Drives the springs by control channel `channel` (-1: passive) with `actuation` (their
// rest length scales by 1 + actuation x control).
Result<Scene> set_spring_actuation(const Scene& scene, const std::vector<int>& springs, int channel, double actuation);
// Sets the number of control channels; existing channels keep their values, new ones
// start at zero. Channels that springs still use cannot be removed.
Result<Scene> set_channels(const Scene& scene, int channels);

// ---- Generators: chains, cloth, soft lattices and walkers ------------------------
// Each appends new particles (free unless it pins some) and springs between them only,
// with rest lengths at the generated distances; the particles get the radius
// add_particle would give.

struct Material {
  double particle_mass = 0.01;  // kg, each particle
  double stiffness = 1000;      // N/m, each spring
  double damping = 0.1;         // N s/m, each spring
};

// links + 1 particles evenly from start to end, each joined to the next (links >= 1);
// the first particle pinned when pin_first.
Result<Scene> add_chain(const Scene& scene, const Vec3& start, const Vec3& end, int links, const Material& material,
                        bool pin_first);
// A flat sheet in the x-y plane (hanging, facing +z): nu x nv particles (each >= 2) over
// [corner.x, corner.x + size_u] x [corner.y, corner.y + size_v] at z = corner.z, in
// rows from the bottom (particle r * nu + c at column c of row r); structural springs
// between neighbours along each row and column, and shear springs across each cell's two
// diagonals. pin_top_row pins the last row (the highest, y = corner.y + size_v).
Result<Scene> add_cloth(const Scene& scene, const Vec3& corner, double size_u, double size_v, int nu, int nv,
                        const Material& material, bool pin_top_row);
// A soft block of nx x ny x nz particles (each >= 2) filling the box from `corner` to
// corner + size (each > 0); particle x + nx (y + ny z) at grid point (x, y, z); a spring
// from each particle to every neighbour one step away along any axis, face diagonal or
// body diagonal (up to 26 neighbours).
Result<Scene> add_lattice(const Scene& scene, const Vec3& corner, const Vec3& size, int nx, int ny, int nz,
                          const Material& material);

// A walker-style soft robot, as DiffTaichi's mass_spring robots and scenes/walker.json: a
// body of body_cols x body_rows square cells (each >= 1) of cell_size (m, > 0) in the x-y
// plane at z = corner.z, its lower-left corner at `corner` + (0, leg_rows * cell_size, 0),
// standing on `legs` legs (>= 1), each one cell wide and leg_rows (>= 1) cells tall, their
// feet at y = corner.y. Leg i stands under body column round(i (body_cols - 1) / (legs - 1))
// (halves up): the first under the leftmost column, the last under the rightmost; a single
// leg under column (body_cols - 1) / 2, the middle one (left of the middle when body_cols
// is even). Legs <= (body_cols + 1) / 2, so that they stand a column apart at least and no
// two share a particle or a spring. The particles, 2 legs leg_rows + (body_cols + 1)
// (body_rows + 1) of them, are the grid points in rows from the bottom, each row left to
// right: the leg_rows leg rows (leg i's left and right point at 2 legs k + 2 i and + 1 in
// row k), then the body's body_rows + 1 rows (a leg's top is the body's bottom row). Every
// cell has its four edges and two diagonals as springs (shared edges once), cell by cell:
// each leg's cells from its foot up, then the body's rows from the bottom, each left to
// right; in a cell its bottom, top, left and right edges (those not already there), then
// its lower-left to upper-right and lower-right to upper-left diagonals. Each leg drives
// its two sides by two new control channels, so that it can bend as well as stretch: leg
// i's left column of leg_rows vertical springs are muscles on channel scene.channels + 2 i,
// its right column on scene.channels + 2 i + 1 (actuation `actuation`, finite: the rest
// length scales by 1 + actuation x control); every other spring is passive. Existing
// channels keep their controls; the new channels' controls start at zero. An error when
// the channels (2 legs new) would be more than kMaxChannels, or steps x channels more than
// kMaxControlValues. The default shape with walker.json's material ({0.1, 300, 0.8}) at
// corner (0, 0, 0), added to a scene with no channels, is exactly walker.json's robot: 16
// particles, 36 springs, 4 channels, its muscles, actuation 0.25, all in walker.json's
// order (positions and rest lengths equal to rounding: 3 x 0.1 is not the double 0.3).
struct WalkerShape {
  int body_cols = 3;
  int body_rows = 1;
  int legs = 2;
  int leg_rows = 2;
  double cell_size = 0.1;
  double actuation = 0.25;
};
Result<Scene> add_walker(const Scene& scene, const Vec3& corner, const WalkerShape& shape, const Material& material);

// At most this many particles from one generator: a typo should not fill the memory.
inline constexpr long long kMaxGeneratedParticles = 100'000;

// ---- Soft bodies: membrane cloth and tet meshes ----------------------------------
// Each appends new free particles (the radius add_particle would give) and elements
// between them only: triangles and bending edges, or passive tets. Rest shapes are the
// generated shapes (the engine takes them from the initial positions).

struct MembraneMaterial {
  double particle_mass = 0.01;      // kg, each particle
  double stiffness = 200;           // N/m, each triangle's shear stiffness (triangle_stiffness)
  double area_stiffness = 200;      // N/m, each triangle's area stiffness (triangle_area_stiffness)
  double damping = 0.5;             // N s/m, each triangle's (triangle_damping)
  double bending_stiffness = 0.05;  // N m/rad per unit edge length, each interior edge's
};
// The sheet add_cloth makes (the same particles, in the same order, and the same pins),
// held by membrane triangles instead of springs: two per cell, split along the diagonal
// from its lower-left to its upper-right corner, counter-clockwise seen from +z (cell
// (r, c): particles r nu + c, r nu + c + 1, (r + 1) nu + c + 1, then r nu + c,
// (r + 1) nu + c + 1, (r + 1) nu + c), and a bending edge on every interior edge
// (bending_edges_of_triangles). No springs.
Result<Scene> add_membrane_cloth(const Scene& scene, const Vec3& corner, double size_u, double size_v, int nu, int nv,
                                 const MembraneMaterial& material, bool pin_top_row);

// A soft material as an engineer gives it; the tets get the stable Neo-Hookean moduli
// that match it (neohookean_from_young_poisson, as a scene file's young and poisson).
struct SoftMaterial {
  double density = 1000;  // kg/m^3, > 0: the particles' masses, lumped from the tets
  double young = 5e4;     // Pa, > 0
  double poisson = 0.3;   // in (-1, 0.5)
  double damping = 0;     // Pa s, >= 0 (tet_damping)
};
// `mesh`'s vertices as new particles and its tets as passive tets on them. Each particle's
// mass is its share of its tets' density x volume (lumped_masses), so the masses add up
// to density x the mesh's volume. The mesh must pass check_tet_mesh (every vertex in a
// tet, no flat or inverted tets); its vertex count is limited as the generators' are.
Result<Scene> add_tet_mesh(const Scene& scene, const TetMesh& mesh, const SoftMaterial& material);
// A box from `corner` to corner + size (m, each > 0) of cells[0] x cells[1] x cells[2]
// cells (each >= 1), five tets a cell (tet_box).
Result<Scene> add_soft_box(const Scene& scene, const Vec3& corner, const Vec3& size, const std::array<int, 3>& cells,
                           const SoftMaterial& material);
// A ball of `radius` (m, > 0) at `centre`, `resolution` (>= 1) cells across (tet_sphere).
Result<Scene> add_soft_ball(const Scene& scene, const Vec3& centre, double radius, int resolution,
                            const SoftMaterial& material);
// The tet mesh in a TetGen .node/.ele pair or a Gmsh .msh 2.2 file (read_tet_mesh), its
// vertices no tet uses dropped, scaled by `scale` (> 0) about the origin and moved by
// `offset` (m). Errors name the file and line where the reader found the problem.
Result<Scene> import_tet_mesh(const Scene& scene, const std::filesystem::path& path, double scale, const Vec3& offset,
                              const SoftMaterial& material);
// Deletes these triangles, bending edges or tets with their parameter rows (a tet's
// channel and gain too); their particles stay.
Result<Scene> delete_triangles(const Scene& scene, const std::vector<int>& triangles);
Result<Scene> delete_bending_edges(const Scene& scene, const std::vector<int>& edges);
Result<Scene> delete_tets(const Scene& scene, const std::vector<int>& tets);

// ---- Material points ---------------------------------------------------------------

// What Edit > Add > Liquid, Sand and Soft Solid fill a box with: a new material (a
// liquid's bulk modulus and viscosity; a solid's or sand's Young's modulus and Poisson
// ratio; sand's friction angle) and its density.
struct MaterialBlock {
  enum class Kind { Liquid, Sand, SoftSolid };
  Kind kind = Kind::Liquid;
  double density = 1000;       // kg/m^3 (per metre of depth in 2D), > 0
  double young = 2e4;          // Pa, > 0 (sand, soft solid)
  double poisson = 0.3;        // in (-1, 0.5) (sand, soft solid)
  double bulk = 5e3;           // Pa, > 0 (liquid)
  double viscosity = 0.1;      // Pa s, >= 0 (liquid)
  double friction_angle = 30;  // degrees in [0, 90) (sand)
};
// Material points filling the box from `corner` to corner + size (m; x and y > 0), two per
// grid cell along each axis, with a new material of the block's kind (a soft solid is
// fixed corotated in 2D, Neo-Hookean in 3D). A scene without material points gets a grid
// around the box, its side twice the box's largest, of 64 cells in 2D (the x-y plane at
// the corner's z, when size z is 0) or 32 in 3D. Otherwise the box must lie inside the scene's grid,
// clear of its walls (in 2D its z is the grid's).
Result<Scene> add_material_block(const Scene& scene, const Vec3& corner, const Vec3& size, const MaterialBlock& block);
// The same filling the solid a closed OBJ mesh bounds (nudge/triangle_mesh.h), its
// vertices scaled by `scale` about the file's origin and moved by `offset` (m): the
// lattice's points inside it. In a scene with a 2D grid, or with `slice`, the mesh's
// cross-section in the x-y plane (the grid's z, else the offset's). Errors name the
// file's line, an open edge, a plane that misses the mesh, or a mesh that holds no point.
Result<Scene> add_material_mesh(const Scene& scene, const std::filesystem::path& path, double scale, const Vec3& offset,
                                bool slice, const MaterialBlock& block);

// ---- Articulations (nudge/articulations.h) ------------------------------------------

// A link joined by `joint` (hinge, slide, ball or weld) to link `parent`, its joint's
// `axis` (a hinge's or slide's, in the link's frame, normalised) through the link's origin.
// Its frame starts turned as its parent's, at the parent's tip: the far end of the
// parent's first shape along the way the parent extends (its length_axis, else its first
// capsule's or cylinder's axis away from its joint, else onward from its own parent,
// else down, -y), or 0.3 m along that
// way from its origin when it has no shape. It carries a capsule onward that way, 0.3 m
// long and 0.03 m in radius, of density 1000 (its mass, centre and inertia), which its
// length_axis follows. Named "link" and the first number no link has; the last link of
// its parent's tree. Refused where it would change what a controller's joints input or a
// weights objective reads.
Result<Scene> add_link(const Scene& scene, int parent, ArticulationJoint joint, const Vec3& axis);
// A new tree: a base link welded to the world at `position`, a box 0.2 x 0.1 x 0.2 m of
// density 1000, named "base" (or "base" and a number); links are added onto it.
Result<Scene> add_link_base(const Scene& scene, const Vec3& position);
// Removes the links and every link below them, the actuators on their joints, and their
// entries in the objectives (an objective left reading no link goes). Refused where it
// would change what a controller's joints input or a weights objective reads.
Result<Scene> delete_links(const Scene& scene, const std::vector<int>& links);
// Moves link `link`'s frame at the start by `offset` (m, world axes), with every link
// below it: its placement (link_position, in its parent's frame and resized by the
// parent's size) changes by what moves its origin so.
Result<Scene> move_link(const Scene& scene, int link, const Vec3& offset);
// An actuator on a link's hinge or slide (scene_edits_link_actuators.cpp), reading a new
// control channel of its own (its controls zero): a motor of strength `gain` (force gain
// u), a position servo of stiffness kp = gain (kp (u - q)) or a velocity servo of damping
// kv = gain (kv (u - qd)), as actuator_gain, actuator_bias_q and actuator_bias_qd hold
// them. Named "motor" or "servo" and the first number no actuator has.
enum class LinkActuatorKind { Motor, PositionServo, VelocityServo };
std::string_view link_actuator_kind_name(LinkActuatorKind kind);
Result<Scene> add_link_actuator(const Scene& scene, int link, LinkActuatorKind kind, double gain);
// Removes the actuators and their rows; their channels stay (others may read them).
Result<Scene> delete_link_actuators(const Scene& scene, const std::vector<int>& actuators);

// ---- Rigid bodies, joints, attachments, colliders --------------------------------

// A body of `body.shape` (a mesh body with its mesh) and `size` (the entries its shape
// uses, in shape_size_entries order, each > 0), its centre of mass at `position`, at
// rest, unturned, of `density` (kg/m^3, > 0).
Result<Scene> add_body(const Scene& scene, const RigidBody& body, const ShapeSize& size, const Vec3& position,
                       double density);
// Removes the bodies with the joints and attachments that touch them; an objective left
// with no bodies and no particles is removed.
Result<Scene> delete_bodies(const Scene& scene, const std::vector<int>& bodies);
// `joint` between existing bodies (parent -1: the world), anchored at `anchor` (a world
// point, m), with no damping and zero motor controls. Its axis is normalised (as a scene
// file's is); a ball joint has none, so it keeps the default.
Result<Scene> add_joint(const Scene& scene, const Joint& joint, const Vec3& anchor);
// Removes the joints with their damping, anchors and motor-control columns.
Result<Scene> delete_joints(const Scene& scene, const std::vector<int>& joints);
// Holds a free, unattached particle to a body.
Result<Scene> add_attachment(const Scene& scene, int particle, int body);
Result<Scene> delete_attachments(const Scene& scene, const std::vector<int>& attachments);
// A static collider; a plane's normal is normalised (as a scene file's is), and the
// values its type does not use are reset to their defaults (a file does not keep them).
Result<Scene> add_collider(const Scene& scene, const ColliderShape& collider);
Result<Scene> delete_colliders(const Scene& scene, const std::vector<int>& colliders);
// Moves the bodies' initial centres of mass by `delta` (m), and with them what must
// follow: the particles attached to a moved body, and the anchors of joints whose two
// sides both move. A joint to the world, or between a moved and an unmoved body, keeps
// its anchor where it was (its penalty springs then pull the sides back to it, as they
// would after moving the body in a file): move the other body too, or re-add the joint.
// Springs keep their rest lengths.
Result<Scene> move_bodies(const Scene& scene, const std::vector<int>& bodies, const Vec3& delta);
// Turns and scales the bodies' initial centres about the pivot and turns their initial
// orientations by the rotation (their shapes keep their sizes; velocities stay); what
// follows them does as move_bodies says (attached particles, anchors of joints between
// two moved bodies).
Result<Scene> transform_bodies(const Scene& scene, const std::vector<int>& bodies, const Transform& transform);
// Moves static colliders by `delta` (m): a box's, sphere's or capsule's position, a
// plane's offset along its normal (only the normal part of delta moves a plane).
Result<Scene> move_colliders(const Scene& scene, const std::vector<int>& colliders, const Vec3& delta);

// ---- Objectives ------------------------------------------------------------------

// A loss term, checked against the scene. As a scene file does, a travel or orientation
// objective's direction and axis are normalised, and fields its type does not read are
// cleared. A markers objective needs its marker_file (saving writes the path) and samples.
Result<Scene> add_objective(const Scene& scene, const Objective& objective);
Result<Scene> delete_objectives(const Scene& scene, const std::vector<int>& objectives);
Result<Scene> set_objective_weight(const Scene& scene, int objective, double weight);
// Where an objective pulls to (m): a target objective's target (row 0, its only one), or
// the target of a positions objective's row-th particle. Other objectives have no
// target position (a velocity objective's target is a velocity): an error.
Result<Scene> set_objective_target(const Scene& scene, int objective, int row, const Vec3& position);

// ---- Markers objectives ----------------------------------------------------------
// A markers objective compares particles with a reference track, a CSV file read with
// the engine's reader (nudge/marker_csv.h); its path is kept as given (a relative one is
// relative to the scene's folder, as in a scene file). A scene keeps the samples of its
// bound markers only, in the file's order, so binding a marker reads the file again.

// A markers objective on `marker_file`, its `marker` bound to `particle`, one frame
// every `steps_per_frame` steps (>= 1). Errors: the file cannot be read or parsed, the
// marker does not occur in it, the particle does not exist, or the marker has a frame
// past the scene's last step.
Result<Scene> add_markers_objective(const Scene& scene, const std::filesystem::path& marker_file, int marker,
                                    int particle, int steps_per_frame);
// Binds `marker` of a markers objective to `particle`; a marker already bound (to a
// particle or a body) is bound to this particle instead.
Result<Scene> bind_marker(const Scene& scene, int objective, int marker, int particle);
// Unbinds a bound marker (from its particle or body) with its samples; the objective's
// only bound marker cannot be unbound: delete the objective instead.
Result<Scene> unbind_marker(const Scene& scene, int objective, int marker);

// ---- Footage (scene_edits_footage.cpp) --------------------------------------------
// The shot a scene is matched to (nudge/footage.h): its video, its camera, the points the
// camera is fitted to, and the 2D tracks that tracks objectives compare with.

// The shot's video (as written: relative to the scene's folder; empty for none), its
// frame rate (> 0) and the frame shown at step 0.
Result<Scene> set_footage(const Scene& scene, const std::filesystem::path& video, double fps, int first_frame);
// The camera that filmed the shot (fitted, or typed in).
Result<Scene> set_footage_camera(const Scene& scene, const PinholeCamera& camera);
// A point known in the world and clicked in the image, for fitting the camera; and its removal.
Result<Scene> add_correspondence(const Scene& scene, const CameraCorrespondence& correspondence);
Result<Scene> delete_correspondence(const Scene& scene, int index);
// A new track (the next free id) with one key, the user's click at (u, v) px on `frame`.
Result<Scene> add_track(const Scene& scene, const std::string& name, int frame, double u, double v);
// Track `id`'s key at `frame` placed at (u, v): added, or moved there (a correction).
Result<Scene> set_track_key(const Scene& scene, int id, int frame, double u, double v);
// Track `id`'s samples replaced (what the tracker found), its name and weight kept.
Result<Scene> set_track_samples(const Scene& scene, int id, std::vector<TrackSample> samples);
// Removes track `id` and its bindings; a tracks objective left binding nothing goes too.
Result<Scene> delete_track(const Scene& scene, int id);
// Compares track `id` with `particle` through the camera: a binding in the scene's first
// tracks objective, added (weight 1) when there is none. Needs the footage's camera and a
// whole number of steps per frame.
Result<Scene> bind_track(const Scene& scene, int id, int particle);

// ---- Simulation settings and what is optimised -----------------------------------

// The time step dt (s, in (0, 1]) and the number of steps (>= 1). The per-step controls
// (steps x channels and steps x joints) keep their first min(old, new) rows and new rows
// start at zero. An objective evaluated after the new end is an error that names it.
Result<Scene> set_time(const Scene& scene, double dt, int steps);
Result<Scene> set_gravity(const Scene& scene, const Vec3& gravity);
// Switches the ground plane y = height (m) on or off; its damping and smoothing stay.
Result<Scene> set_ground(const Scene& scene, bool enabled, double height);
// Whether parameter `id` is optimised and within which bounds (-infinity and +infinity:
// none); the rows it optimises stay as they were.
Result<Scene> set_optimized(const Scene& scene, ParamId id, bool optimize, double lower, double upper);
// Optimises only these rows of parameter `id` (the particles, springs, bodies, joints or
// steps it has; empty: every row), and so marks it optimised.
Result<Scene> set_optimized_rows(const Scene& scene, ParamId id, const std::vector<int>& rows);

// ---- Copy, paste and duplicate ---------------------------------------------------

// The clipboard: a standalone scene of copies of the particles and bodies (each listed
// once or more), in their order in the scene, with every value of theirs (mass,
// position, velocity, external force, radius, pin; shape, mesh, sizes, density, pose,
// velocities); the springs whose two ends are copied, the triangles and tets whose
// corners all are (a tet with its channel and gain), the joints whose two sides are
// copied bodies or a copied body and the world (with their anchors, damping and motor
// controls), and the attachments of copied particles to copied bodies. The settings,
// gravity, ground, contact, drag, time steps, channels and controls are the scene's; it
// has no colliders, no objectives, and nothing is optimised or bounded. Its source is
// the scene's, so its mesh files' paths still name the same files; it shares nothing
// that the scene's closing could take away.
Result<Scene> extract(const Scene& scene, const std::vector<int>& particles, const std::vector<int>& bodies);
// Pastes: every particle, spring, triangle, tet, body, joint and attachment of `fragment` appended to
// `into` (with every per-element value, as extract copies them), moved by `offset` (m:
// particles, bodies and joint anchors; a joint to the world included), the fragment's
// indices renumbered after into's elements. `into` keeps its settings, colliders,
// objectives and what it optimises; optimised row lists still name the same rows, and a
// parameter optimised in every row is optimised in the new rows too (as the add edits
// do). A fragment spring or tet keeps its channel number; when `into` has fewer channels it
// gains them (as set_channels would), and a gained channel takes the fragment's
// controls for the steps both scenes have (zero after), so the muscle moves as it did.
// Pasted joints take the fragment's motor controls the same way. Mesh files are
// rewritten to name the same files from into's folder. `into` may have no particles and
// no bodies (a new scene, valid once it has some): the result is checked as a whole.
Result<Scene> merge(const Scene& into, const Scene& fragment, const Vec3& offset);
// merge(scene, extract(scene, particles, bodies), offset): the copies share the
// originals' control channels.
Result<Scene> duplicate(const Scene& scene, const std::vector<int>& particles, const std::vector<int>& bodies,
                        const Vec3& offset);

}  // namespace nudge::studio::edits
