// Every value a user may optimise is a named parameter: a flat array of doubles with
// its gradient, bounds and an "optimize" flag. Gradients are computed for every
// parameter, optimised or not, so any sensitivity can be shown.
#pragma once

#include <array>
#include <limits>
#include <optional>
#include <string_view>
#include <vector>

namespace nudge {

enum class ParamId : int {
  InitialPosition,      // N x 3, metres
  InitialVelocity,      // N x 3, m/s
  Mass,                 // N x 1, kg
  ExternalForce,        // N x 3, N, constant over the rollout
  Stiffness,            // S x 1, N/m
  Damping,              // S x 1, N s/m
  RestLength,           // S x 1, m
  Gravity,              // 1 x 3, m/s^2
  Drag,                 // 1 x 1, N s/m per particle (force -drag * v)
  GroundStiffness,      // 1 x 1, N/m of penetration
  Friction,             // 1 x 1, Coulomb coefficient
  Controls,             // T x C, one value per step and actuation channel
  ParticleRadius,       // N x 1, m, the distance at which a particle meets a collider
  ContactStiffness,     // 1 x 1, N/m of penetration, particles against colliders
  ContactDamping,       // 1 x 1, N s/m on the normal velocity in contact
  ContactFriction,      // 1 x 1, Coulomb coefficient against colliders
  BodyPosition,         // B x 3, m, each rigid body's initial centre of mass
  BodyOrientation,      // B x 4, initial orientation, a quaternion (x, y, z, w), normalised when used
  BodyVelocity,         // B x 3, m/s, initial linear velocity
  BodyAngularVelocity,  // B x 3, rad/s, initial angular velocity (world frame)
  BodyDensity,          // B x 1, kg/m^3; mass and inertia follow from it and the shape
  JointAnchor,          // J x 3, m, each joint's anchor in the world at the start
  JointDamping,         // J x 1, damping of the free turn (N m s/rad) or slide (N s/m)
  JointControl,         // T x J, the motor's torque (hinge, N m) or force (prismatic, N) per step
  ContactRestitution,   // 1 x 1, in (0, 1]: sets each contact's damping when the scene asks (contact.restitution)
  // A body's sizes, m; each shape uses its own (the others are unused, 0): a sphere's and
  // a capsule's radius, a box's half extents, a capsule's half length. A mesh's are fixed.
  BodyRadius,       // B x 1
  BodyHalfExtents,  // B x 3
  BodyHalfLength,   // B x 1
  // Triangles (cloth membranes, families/triangles/triangle_membrane.h), per unit rest area where
  // noted: Warp's tri_ke, tri_ka, tri_kd, tri_drag, tri_lift.
  TriangleStiffness,      // Tri x 1, ke, the membrane's shear stiffness (mu), N/m
  TriangleAreaStiffness,  // Tri x 1, ka, the area stiffness (lambda), N/m
  TriangleDamping,        // Tri x 1, kd, the membrane's damping, N s/m
  TriangleDrag,           // Tri x 1, quadratic drag of the air, kg/m^3
  TriangleLift,           // Tri x 1, lift of the air, kg/m^3
  Wind,                   // 1 x 3, m/s, the air's velocity, which drag and lift act against
  // Bending edges between two triangles (families/bending/dihedral_bending.h): Warp's edge_ke, edge_kd.
  BendingStiffness,  // E x 1, N m/rad per unit edge length
  BendingDamping,    // E x 1, N m s/rad per unit edge length
  // Tetrahedra (stable Neo-Hookean solids, families/tets/tet_neohookean.h): Warp's k_mu,
  // k_lambda, k_damp, energy densities per unit rest volume.
  TetMu,       // Tet x 1, k_mu, the shear (deviatoric) stiffness, Pa
  TetLambda,   // Tet x 1, k_lambda, the volume stiffness, Pa, > 0
  TetDamping,  // Tet x 1, k_damp, the strain-rate damping, Pa s
  // The controller's network (nudge/controller.h): per layer W (out x in, row-major), then b.
  ControllerWeights,  // P x 1
  QuadraticDrag,      // N x 1, kg/m: force -c |v - wind| (v - wind) (families/quadratic_drag)
  // Material points (nudge/material_points.h): P points, M materials.
  PointPosition,          // P x 3, m, each point's initial position
  PointVelocity,          // P x 3, m/s, initial velocity
  PointMass,              // P x 1, kg
  PointVolume,            // P x 1, m^d: its share of the body's volume (area in 2D)
  MaterialYoungsModulus,  // M x 1, Pa (solids)
  MaterialPoissonRatio,   // M x 1, in (-1, 0.5) (solids)
  MaterialBulkModulus,    // M x 1, Pa (liquids)
  MaterialViscosity,      // M x 1, Pa s (liquids)
  MaterialFrictionAngle,  // M x 1, degrees (sand: its Drucker-Prager cone)
  // Articulations' links (nudge/articulations.h), L links: each one's placement, inertia,
  // its joint's damping and armature, and the joint's initial coordinate and rate.
  LinkPosition,       // L x 3, m, the link's frame in its parent's at q = 0
  LinkMass,           // L x 1, kg, >= 0 (a link that only carries a joint may have none)
  LinkCom,            // L x 3, m, the centre of mass in the link's frame
  LinkInertia,        // L x 6, kg m^2, about the centre of mass in the link's axes: xx, yy, zz, xy, xz, yz
  LinkDamping,        // L x 1, N m s/rad (hinge) or N s/m (slide), implicit in the step
  LinkArmature,       // L x 1, kg m^2 or kg, added to the mass matrix's diagonal
  LinkJointPosition,  // L x 1, rad or m, a hinge's or a slide's q at the start
  LinkJointVelocity,  // L x 1, rad/s or m/s, a hinge's or a slide's qd at the start
  // A ball's or a free joint's q and qd at the start (nudge/articulations.h):
  LinkRotation,         // L x 4, x y z w, its rotation (the unit quaternion it points along)
  LinkTranslation,      // L x 3, m, a free joint's translation, in the world's axes
  LinkAngularVelocity,  // L x 3, rad/s, its angular velocity in the link's frame
  LinkLinearVelocity,   // L x 3, m/s, a free joint's velocity, in the world's axes
  // A link's size (nudge/articulations.h): its shapes, centre of mass and children's
  // placements scaled about its joint's anchor, its mass by scale^3 and inertia by scale^5.
  LinkScale,  // L x 1, > 0, 1: as given
  // A link's stretch along its length_axis about its joint's anchor: its shapes, centre of
  // mass and children's placements stretched, its mass by length, its inertia as the
  // stretched body's (families/articulations/link_resize.h).
  LinkLength,  // L x 1, > 0, 1: as given
  // A hinge's or slide's spring (MuJoCo's joint stiffness and springref): a force
  // -stiffness (q - spring_ref) on its coordinate.
  LinkStiffness,  // L x 1, N m/rad (hinge) or N/m (slide), >= 0
  LinkSpringRef,  // L x 1, rad or m, the q at which the spring is at rest
  // A joint's dry friction (MuJoCo's frictionloss), on each of its coordinates: a force
  // -frictionloss tanh(qd / friction_velocity), linearly implicit in the step.
  LinkFrictionLoss,  // L x 1, N m (hinge, ball) or N (slide), >= 0
  // The articulations' actuators (nudge/articulations.h), A of them: force = gain u +
  // bias_q (gear q) + bias_qd (gear qd), as MuJoCo's gainprm[0] and biasprm[1], [2].
  ActuatorGain,    // A x 1, per unit of control: 1 for a motor, kp for a position servo
  ActuatorBiasQ,   // A x 1, per unit of gear q: -kp for a position servo
  ActuatorBiasQd,  // A x 1, per unit of gear qd: -kv for a position or velocity servo
  Count
};
inline constexpr int kParamCount = static_cast<int>(ParamId::Count);

// The name used in scene files, result files and the command line.
std::string_view param_name(ParamId id);
std::optional<ParamId> param_from_name(std::string_view name);

struct Parameter {
  ParamId id{};
  int rows = 0, cols = 0;  // shape; value.size() == rows * cols
  std::vector<double> value;
  std::vector<double> grad;                                 // dL/dvalue, same shape, written by a gradient evaluation
  double lower = -std::numeric_limits<double>::infinity();  // bounds, applied by projection
  double upper = std::numeric_limits<double>::infinity();
  bool optimize = false;
  // With optimize: the rows optimised (a body's, a particle's, a joint's row), ascending;
  // empty: every row. The other rows keep their values.
  std::vector<int> optimize_rows;
  // Entries that mean nothing for their element (a box's radius): they stay 0, get no
  // gradient and are never optimised. Empty: every entry is used.
  std::vector<bool> unused;

  int size() const { return rows * cols; }
  // Whether value[k] is optimised.
  bool optimized_entry(int k) const;
};

// One Parameter per ParamId, always all present (an array may have zero rows).
struct ParameterSet {
  std::array<Parameter, kParamCount> items;

  Parameter& operator[](ParamId id) { return items[static_cast<int>(id)]; }
  const Parameter& operator[](ParamId id) const { return items[static_cast<int>(id)]; }

  // The optimised entries flattened into one vector, in ParamId order and row-major
  // within a parameter, and back.
  int optimized_size() const;
  std::vector<double> gather_optimized() const;
  std::vector<double> gather_optimized_grad() const;
  void scatter_optimized(const std::vector<double>& flat);
  void optimized_bounds(std::vector<double>& lower, std::vector<double>& upper) const;
  void zero_grad();
};

}  // namespace nudge
