// A scene as the user describes it: topology, settings, parameter values, objectives
// and optimiser settings. Plain data in double precision; the engine builds its
// flat-array Model from it for each rollout.
#pragma once

#include <filesystem>
#include <optional>
#include <string_view>
#include <string>
#include <vector>

#include "nudge/articulations.h"
#include "nudge/bodies.h"
#include "nudge/colliders.h"
#include "nudge/actuators.h"
#include "nudge/controller.h"
#include "nudge/footage.h"
#include "nudge/material_points.h"
#include "nudge/joints.h"
#include "nudge/optimizer.h"
#include "nudge/parameters.h"
#include "nudge/result.h"

namespace nudge {

// How particles meet the ground.
enum class GroundContact {
  Penalty,       // a smooth penalty force with regularised Coulomb friction (the default)
  Projection,    // DiffTaichi's advance_no_toi: a particle below the plane moving down stops (v = 0) that step
  TimeOfImpact,  // DiffTaichi's advance_toi: a particle that would cross the plane moving down stops on it
};

// The names used in scene files: "penalty", "projection", "time_of_impact".
std::string_view ground_contact_name(GroundContact contact);
std::optional<GroundContact> ground_contact_from_name(std::string_view name);

struct Ground {
  bool enabled = false;
  GroundContact contact = GroundContact::Penalty;
  double height = 0.0;               // plane y = height, normal +y
  double damping = 0.0;              // N s/m, normal velocity damping while in contact
  double contact_smoothing = 1e-3;   // m: width over which the penalty switches on (softplus)
  double friction_smoothing = 1e-2;  // m/s: slip speed below which friction is viscous
  // Stiffness and friction coefficient are parameters (ground_stiffness, friction).
};

// How a step advances the particles (docs/engine.md, "Implicit Euler").
enum class Integrator {
  SemiImplicitEuler,  // v' = v + dt F(x, v) / m, x' = x + dt v' (the default)
  ImplicitEuler,      // backward Euler on the interaction forces, solved by Newton
  RungeKutta4,        // classic fourth-order Runge-Kutta, for scenes of articulations only
};

// The names used in scene files: "semi_implicit_euler", "implicit_euler", "rk4".
std::string_view integrator_name(Integrator integrator);
std::optional<Integrator> integrator_from_name(std::string_view name);

// The implicit step's solver (Integrator::ImplicitEuler).
struct ImplicitSettings {
  int newton_iterations = 20;       // at most, per step
  double newton_tolerance = 1e-6;   // m/s: the largest velocity residual |v' - v - dt F(v') / m| accepted
  int linear_iterations = 200;      // at most, per Krylov solve (GMRES)
  double linear_tolerance = 1e-10;  // the adjoint's solve: residual relative to its right-hand side
  bool operator==(const ImplicitSettings&) const = default;
};

struct Settings {
  double dt = 1e-3;          // s
  int steps = 100;           // T, number of steps; states x_0 .. x_T
  int checkpoint_every = 0;  // 0: store every state; K > 0: store every K-th and recompute
  Ground ground;
  Integrator integrator = Integrator::SemiImplicitEuler;
  ImplicitSettings implicit;  // read and written only with Integrator::ImplicitEuler
};

// A reference marker track, read from a CSV file: frame, marker, x, y, z.
struct MarkerSample {
  int frame = 0;
  int marker = 0;
  double position[3] = {0, 0, 0};
};

enum class ObjectiveType {
  Target,       // w * |c_t - target|^2, c the centroid of `particles` and `bodies` at step t
  Positions,    // w / |P| * sum_i |x_t,i - target_i|^2, per-particle targets
  Markers,      // w / #samples * sum |x_{frame*steps_per_frame, particle or body(marker)} - sample|^2
  Velocity,     // w * |centroid velocity at step t - target|^2 (particles and bodies)
  Effort,       // w * (mean squared spring control + mean squared joint control)
  Travel,       // -w * dot(c_t - c_0, direction): maximise distance travelled
  Orientation,  // w / |B| * sum_b |R_b,t axis - direction|^2: bodies' axes pointing a way
  Smoothness,   // w * (mean squared change per step of the spring controls + of the joint controls)
  Tracks,       // w * sum c |project(x_step(frame)) - uv|^2 / sum c: 2D tracks of the footage, c = weight x confidence
  Inside,       // w * (1 - mean of s(x_q)): material points inside a box region, s a smooth indicator
  Shape,        // w * Chamfer distance between material points and a target point set (mean squared, both ways)
  Rest,         // w * mean of |v_q|^2 / 2 over material points at step t: coming to rest
  Weights,      // w * sum_t <W_t, positions_t>: a linear function of the whole trajectory (what
                // Python's autograd hands back as dL/dtrajectory, nudge.torch)
  Joints,       // w / |K| * sum_k (q_k,t - target_k)^2: the articulations' joints at step t (rad or m)
  Reach,        // w * |p_t - target|^2: a point on a link (`point`, in the link's frame) at step t
  LinkOrientation,  // w * |R_t axis - direction|^2: a link's own axis pointing a way at step t
};

// The names used in scene files: "target", "positions", "markers", ...
std::string_view objective_type_name(ObjectiveType type);
std::optional<ObjectiveType> objective_type_from_name(std::string_view name);

struct Objective {
  ObjectiveType type = ObjectiveType::Target;
  double weight = 1.0;
  int step = -1;  // -1: the final step T
  // A running cost over a window of steps: with from_step >= 0 the term is the mean of its
  // loss at from_step, from_step + every, ... up to step (a cartpole held up for a second
  // rather than at one instant); -1: at step alone.
  int from_step = -1;
  int every = 1;
  std::vector<int> particles;   // Target, Positions, Velocity, Travel
  std::vector<int> bodies;      // Target, Velocity: bodies' centres of mass in the centroid; Orientation
  std::vector<int> points;      // Target, Velocity, Travel: material points in the centroid; Inside, Shape
  std::vector<int> links;       // Joints: the links whose joints it reads (hinges and slides); Reach: its link
  double point[3] = {0, 0, 0};  // Reach: the point on the link, in the link's frame (m)
  // 3 values (Target, Velocity), |P| x 3 (Positions), or a region's lower and upper corners
  // and its softness, 7 values (Inside), or Q x 3 points of a target shape (Shape)
  std::vector<double> target;
  double direction[3] = {1, 0, 0};  // Travel, Orientation (world), unit length
  double axis[3] = {0, 1, 0};       // Orientation: the axis in each body's frame, unit length
  // Markers (and Tracks: bind and bind_bodies pair footage track ids with particles and bodies)
  std::filesystem::path marker_file;  // as written in the scene, resolved against its folder
  int steps_per_frame = 1;
  std::vector<std::pair<int, int>> bind;         // (marker id, particle index)
  std::vector<std::pair<int, int>> bind_bodies;  // (marker id, body index): the body's centre of mass
  std::vector<MarkerSample> samples;             // loaded and validated with the scene
};

// Where a viewer looks from when it first shows the scene (the renderer frames the scene
// itself when none is set). Plain numbers: the engine knows nothing about rendering.
struct SceneCamera {
  bool set = false;
  double eye[3] = {0, 0, 0};
  double target[3] = {0, 0, 0};
  double fov_degrees = 45.0;  // vertical field of view, in (0, 180)
};

struct ImportedRobot;

struct Scene {
  std::string name;
  std::string description;
  std::filesystem::path source;  // the file it was loaded from, empty if built in code

  Settings settings;
  SceneCamera camera;

  // Topology: what parameters do not cover. N particles, S springs, C channels.
  std::vector<unsigned char> pinned;  // N: 1 holds the particle's velocity at zero
  std::vector<int> spring_a;          // S: first end
  std::vector<int> spring_b;          // S: second end, != spring_a
  std::vector<int> spring_channel;    // S: actuation channel, -1 for a passive spring
  std::vector<double> actuation;      // S: rest length scales by (1 + actuation * control)
  // m, >= 0: added to every spring's length |x_b - x_a| before its force is computed
  // (DiffTaichi's mass_spring springs take |d| + 1e-4); 0 for a plain spring.
  double spring_length_offset = 0.0;
  int channels = 0;  // C
  // Tri triangles (cloth membranes), 3 particle indices each; their rest shape is their
  // shape in the initial positions, taken when a rollout is built.
  std::vector<int> triangles;  // 3 Tri
  // E bending edges between two triangles, 4 particle indices each (o0, o1, v0, v1: the
  // vertices opposite the shared edge v0-v1; families/bending/dihedral_bending.h). Their rest
  // angle is their angle in the initial positions, taken when a rollout is built.
  std::vector<int> bending;  // 4 E
  // Tet tetrahedra (stable Neo-Hookean solids), 4 particle indices each; their rest shape
  // is their shape in the initial positions, taken when a rollout is built, and must be
  // positively oriented there. A tet on a channel is actuated: its activation at step t
  // is tet_actuation * controls[t][channel] (the springs' controls), added to J - alpha.
  std::vector<int> tets;              // 4 Tet
  std::vector<int> tet_channel;       // Tet: actuation channel, -1 for a passive tet
  std::vector<double> tet_actuation;  // Tet: gain from the channel's control to the activation
  // A closed-loop controller whose outputs add to the controls of its channels each step
  // (its weights are the parameter controller_weights); disabled when it has no layers.
  Controller controller;
  // Per-step forces and torques on particles and bodies, each driven by a channel.
  std::vector<Actuator> actuators;

  // Rigid bodies (their poses, velocities and densities are parameters).
  std::vector<RigidBody> bodies;
  // Static colliders that particles and bodies meet (besides the ground), and how.
  std::vector<ColliderShape> colliders;
  ContactSettings contact;
  // Joints between bodies or to the world (their anchors, damping and motor controls are
  // parameters), and the penalty springs that hold them.
  std::vector<Joint> joints;
  JointSettings joint_settings;
  std::vector<Attachment> attachments;  // particles held to bodies (by the joints' stiffness and damping)
  // Continua sampled by material points, on their own grid (nudge/material_points.h).
  MaterialPoints material_points;
  // Trees of links in joint coordinates (their placements, inertias and initial q, qd are
  // parameters), from a robot's MJCF or URDF or built in code.
  Articulations articulations;

  ParameterSet params;
  // The shot the scene is matched to: its camera and 2D tracks (tracks objectives read them).
  Footage footage;
  std::vector<Objective> objectives;
  OptimizerSettings optimizer;

  int particle_count() const { return static_cast<int>(pinned.size()); }
  int spring_count() const { return static_cast<int>(spring_a.size()); }
  int body_count() const { return static_cast<int>(bodies.size()); }
  int joint_count() const { return static_cast<int>(joints.size()); }
  int triangle_count() const { return static_cast<int>(triangles.size() / 3); }
  int bending_count() const { return static_cast<int>(bending.size() / 4); }
  int tet_count() const { return static_cast<int>(tets.size() / 4); }
  int actuator_count() const { return static_cast<int>(actuators.size()); }

  // The parameters that place the elements, which drawing, picking, the editor and the
  // checks all read, by name (as MuJoCo's body_pos); any parameter is params[id].
  std::vector<double>& initial_positions() { return params[ParamId::InitialPosition].value; }  // N x 3, m
  const std::vector<double>& initial_positions() const { return params[ParamId::InitialPosition].value; }
  std::vector<double>& body_positions() { return params[ParamId::BodyPosition].value; }  // B x 3, m
  const std::vector<double>& body_positions() const { return params[ParamId::BodyPosition].value; }
  std::vector<double>& joint_anchors() { return params[ParamId::JointAnchor].value; }  // J x 3, m
  const std::vector<double>& joint_anchors() const { return params[ParamId::JointAnchor].value; }
  std::vector<double>& particle_radii() { return params[ParamId::ParticleRadius].value; }  // N, m
  const std::vector<double>& particle_radii() const { return params[ParamId::ParticleRadius].value; }
};

// Limits enforced by the loader and check_scene.
inline constexpr int kMaxSteps = 10'000'000;
inline constexpr int kMaxChannels = 4096;
inline constexpr long long kMaxControlValues = 100'000'000;  // steps x channels (800 MB of doubles)

// Gives every parameter its shape for the scene's N, S, T, C and fills defaults
// (zeros; rest lengths from the initial positions).
void shape_parameters(Scene& scene);

// The bending edges (4 indices each, Scene::bending) of a triangle mesh (3 indices
// each): its interior edges in the order Warp's cloth meshes have them.
std::vector<int> bending_edges_of_triangles(const std::vector<int>& triangles);

// Checks the invariants the engine relies on (indices in range, positive masses,
// finite values, ...). The loader calls it; code that builds scenes by hand should too.
Status check_scene(const Scene& scene);

// Loading validates everything before returning; errors name the file, the JSON path,
// what was found and what was expected. Unknown keys are errors.
Result<Scene> load_scene(const std::filesystem::path& path);
Result<Scene> parse_scene(std::string_view json_text, const std::filesystem::path& source);

// The scene as if loaded from `path`: the files it names relative to its folder (marker
// tracks, meshes) rewritten to name the same files from path's folder, and its source path.
Scene moved_scene(const Scene& scene, const std::filesystem::path& path);

// A scene of an imported robot (nudge/robot_import.h): its links, actuators (a channel
// each) and parameters, its file's time step and gravity, turned from the file's z up to
// the studio's y up (its roots' placements and gravity; joint coordinates are as in the
// file). `source` is the robot's file as the scene names it; `steps` the motion's length.
Scene robot_scene(const ImportedRobot& robot, const std::string& source, int steps);

// Writes the scene as moved_scene(scene, path), so the files it names stay found;
// atomically: to a temporary file beside `path`, flushed, then renamed.
Status save_scene(const Scene& scene, const std::filesystem::path& path);

}  // namespace nudge
