#include "nudge/parameter_facts.h"

#include <cmath>
#include <vector>

namespace nudge {

// The defaults that depend on the scene, each in its family's folder.
std::vector<double> default_rest_lengths(const Scene& scene, ParamId id, int rows, int cols);     // springs/
std::vector<double> default_body_sizes(const Scene& scene, ParamId id, int rows, int cols);       // bodies/
std::vector<double> default_network_weights(const Scene& scene, ParamId id, int rows, int cols);  // controller/

namespace {

using E = ParamElement;
using R = ParamRange;
using O = ParamOverlay;
using F = ParamFile;

constexpr double kGravityRow[] = {0.0, -9.81, 0.0};
constexpr double kLinkInertiaRow[] = {0.01, 0.01, 0.01, 0.0, 0.0, 0.0};
constexpr double kIdentityQuaternion[] = {0.0, 0.0, 0.0, 1.0};  // x, y, z, w: no rotation

// In ParamId order (checked at compile time below). Per-step controls have as many
// columns as channels or joints: their cols is 0 here and comes from the scene.
constexpr ParamFacts kFacts[kParamCount] = {
    {ParamId::InitialPosition, "initial_position", E::Particle, 3, "m", 0.0, R::Finite, "particles.position",
     "a finite position (m)", "initial position", O::Arrows, F::Custom},
    {ParamId::InitialVelocity, "initial_velocity", E::Particle, 3, "m/s", 0.0, R::Finite, "particles.velocity",
     "a finite velocity (m/s)", "initial velocity", O::Arrows, F::Column},
    {ParamId::Mass, "mass", E::Particle, 1, "kg", 1.0, R::Positive, "particles.mass", "a mass > 0 (kg)", "mass",
     O::None, F::Column},
    {ParamId::ExternalForce, "external_force", E::Particle, 3, "N", 0.0, R::Finite, "particles.force",
     "a finite force (N)", "external force", O::None, F::Column},
    {ParamId::Stiffness, "stiffness", E::Spring, 1, "N/m", 100.0, R::NonNegative, "springs.stiffness",
     "a stiffness >= 0 (N/m)", "stiffness", O::Colors, F::Column},
    {ParamId::Damping, "damping", E::Spring, 1, "N s/m", 0.0, R::NonNegative, "springs.damping",
     "a damping >= 0 (N s/m)", "damping", O::Colors, F::Column},
    {ParamId::RestLength,
     "rest_length",
     E::Spring,
     1,
     "m",
     0.0,
     R::Positive,
     "springs.rest_length",
     "a rest length > 0 (m)",
     "rest length",
     O::Colors,
     F::Custom,
     {},
     default_rest_lengths},
    {ParamId::Gravity, "gravity", E::Scene, 3, "m/s^2", 0.0, R::Finite, "simulation.gravity",
     "a finite acceleration (m/s^2)", "gravity", O::None, F::Column, kGravityRow},
    {ParamId::Drag, "drag", E::Scene, 1, "N s/m", 0.0, R::NonNegative, "simulation.drag",
     "a drag coefficient >= 0 (N s/m)", "drag", O::None, F::Column},
    {ParamId::GroundStiffness, "ground_stiffness", E::Scene, 1, "N/m", 1e4, R::NonNegative,
     "simulation.ground.stiffness", "a stiffness >= 0 (N/m)", "ground stiffness", O::None, F::Column},
    {ParamId::Friction, "friction", E::Scene, 1, "", 0.5, R::NonNegative, "simulation.ground.friction",
     "a friction coefficient >= 0", "ground friction", O::None, F::Column},
    {ParamId::Controls, "controls", E::StepChannel, 0, "", 0.0, R::Finite, "controls.values", "a finite control value",
     "control", O::None, F::Custom},
    {ParamId::ParticleRadius, "particle_radius", E::Particle, 1, "m", 0.0, R::NonNegative, "particles.radius",
     "a radius >= 0 (m)", "radius", O::None, F::ColumnWhenSet},
    {ParamId::ContactStiffness, "contact_stiffness", E::Scene, 1, "N/m", 1e4, R::NonNegative, "contact.stiffness",
     "a stiffness >= 0 (N/m)", "contact stiffness", O::None, F::Column},
    {ParamId::ContactDamping, "contact_damping", E::Scene, 1, "N s/m", 0.0, R::NonNegative, "contact.damping",
     "a damping >= 0 (N s/m)", "contact damping", O::None, F::Column},
    {ParamId::ContactFriction, "contact_friction", E::Scene, 1, "", 0.5, R::NonNegative, "contact.friction",
     "a friction coefficient >= 0", "contact friction", O::None, F::Column},
    {ParamId::BodyPosition, "body_position", E::Body, 3, "m", 0.0, R::Finite, "bodies.position",
     "a finite position of the centre of mass (m)", "initial position", O::Arrows, F::RequiredField},
    {ParamId::BodyOrientation, "body_orientation", E::Body, 4, "", 0.0, R::Finite, "bodies.orientation",
     "a finite quaternion entry", "orientation", O::None, F::Field, kIdentityQuaternion},
    {ParamId::BodyVelocity, "body_velocity", E::Body, 3, "m/s", 0.0, R::Finite, "bodies.velocity",
     "a finite velocity (m/s)", "initial velocity", O::Arrows, F::Field},
    {ParamId::BodyAngularVelocity, "body_angular_velocity", E::Body, 3, "rad/s", 0.0, R::Finite,
     "bodies.angular_velocity", "a finite angular velocity (rad/s)", "initial spin", O::Arrows, F::Field},
    {ParamId::BodyDensity, "body_density", E::Body, 1, "kg/m^3", 1000.0, R::Positive, "bodies.density",
     "a density > 0 (kg/m^3)", "density", O::Colors, F::Field},
    {ParamId::JointAnchor, "joint_anchor", E::Joint, 3, "m", 0.0, R::Finite, "joints.anchor",
     "a finite position in the world at the start (m)", "initial anchor", O::Arrows, F::RequiredField},
    {ParamId::JointDamping, "joint_damping", E::Joint, 1, "", 0.0, R::NonNegative, "joints.damping", "a damping >= 0",
     "damping", O::None, F::Field},
    {ParamId::JointControl, "joint_control", E::StepJoint, 0, "", 0.0, R::Finite, "joint_controls",
     "a finite torque (N m) or force (N)", "motor", O::None, F::Custom},
    {ParamId::ContactRestitution, "contact_restitution", E::Scene, 1, "", 1.0, R::UnitInterval, "contact.restitution",
     "a coefficient of restitution in (0, 1]", "contact restitution", O::None, F::Custom},
    {ParamId::BodyRadius,
     "body_radius",
     E::Body,
     1,
     "m",
     0.5,
     R::Positive,
     "bodies.radius",
     "a radius > 0 (m)",
     "radius",
     O::Colors,
     F::Custom,
     {},
     default_body_sizes},
    {ParamId::BodyHalfExtents,
     "body_half_extents",
     E::Body,
     3,
     "m",
     0.5,
     R::Positive,
     "bodies.half_extents",
     "a half extent > 0 (m)",
     "half extents",
     O::None,
     F::Custom,
     {},
     default_body_sizes},
    {ParamId::BodyHalfLength,
     "body_half_length",
     E::Body,
     1,
     "m",
     0.5,
     R::Positive,
     "bodies.half_length",
     "half the axis' length > 0 (m)",
     "half length",
     O::Colors,
     F::Custom,
     {},
     default_body_sizes},
    {ParamId::TriangleStiffness, "triangle_stiffness", E::Triangle, 1, "N/m", 1e3, R::NonNegative,
     "triangles.stiffness", "a stiffness >= 0 (N/m)", "stiffness", O::None, F::Column},
    {ParamId::TriangleAreaStiffness, "triangle_area_stiffness", E::Triangle, 1, "N/m", 1e3, R::NonNegative,
     "triangles.area_stiffness", "an area stiffness >= 0 (N/m)", "area stiffness", O::None, F::Column},
    {ParamId::TriangleDamping, "triangle_damping", E::Triangle, 1, "N s/m", 0.0, R::NonNegative, "triangles.damping",
     "a damping >= 0 (N s/m)", "damping", O::None, F::Column},
    {ParamId::TriangleDrag, "triangle_drag", E::Triangle, 1, "kg/m^3", 0.0, R::NonNegative, "triangles.drag",
     "a drag coefficient >= 0 (kg/m^3)", "drag", O::None, F::Column},
    {ParamId::TriangleLift, "triangle_lift", E::Triangle, 1, "kg/m^3", 0.0, R::NonNegative, "triangles.lift",
     "a lift coefficient >= 0 (kg/m^3)", "lift", O::None, F::Column},
    {ParamId::Wind, "wind", E::Scene, 3, "m/s", 0.0, R::Finite, "simulation.wind", "a finite velocity (m/s)", "wind",
     O::None, F::ColumnWhenSet},
    {ParamId::BendingStiffness, "bending_stiffness", E::BendingEdge, 1, "N m/rad", 1.0, R::NonNegative,
     "bending.stiffness", "a bending stiffness >= 0 (N m/rad)", "bending stiffness", O::None, F::Column},
    {ParamId::BendingDamping, "bending_damping", E::BendingEdge, 1, "N m s/rad", 0.0, R::NonNegative, "bending.damping",
     "a bending damping >= 0 (N m s/rad)", "bending damping", O::None, F::Column},
    {ParamId::TetMu, "tet_mu", E::Tet, 1, "Pa", 1e4, R::NonNegative, "tets.k_mu", "a k_mu >= 0 (Pa)", "k_mu", O::None,
     F::Custom},
    {ParamId::TetLambda, "tet_lambda", E::Tet, 1, "Pa", 1e4, R::Positive, "tets.k_lambda", "a k_lambda > 0 (Pa)",
     "k_lambda", O::None, F::Custom},
    {ParamId::TetDamping, "tet_damping", E::Tet, 1, "Pa s", 0.0, R::NonNegative, "tets.k_damp", "a k_damp >= 0 (Pa s)",
     "k_damp", O::None, F::Column},
    {ParamId::ControllerWeights,
     "controller_weights",
     E::ControllerWeight,
     1,
     "",
     0.0,
     R::Finite,
     "controller.weights",
     "a finite weight",
     "weight",
     O::None,
     F::Custom,
     {},
     default_network_weights},
    {ParamId::QuadraticDrag, "quadratic_drag", E::Particle, 1, "kg/m", 0.0, R::NonNegative, "particles.quadratic_drag",
     "a quadratic drag coefficient >= 0 (kg/m)", "quadratic drag", O::None, F::ColumnWhenSet},
    {ParamId::PointPosition, "point_position", E::MaterialPoint, 3, "m", 0.0, R::Finite, "material_points.position",
     "a finite position (m)", "initial position", O::None, F::Custom},
    {ParamId::PointVelocity, "point_velocity", E::MaterialPoint, 3, "m/s", 0.0, R::Finite, "material_points.velocity",
     "a finite velocity (m/s)", "initial velocity", O::None, F::Column},
    {ParamId::PointMass, "point_mass", E::MaterialPoint, 1, "kg", 1.0, R::Positive, "material_points.mass",
     "a mass > 0 (kg)", "mass", O::None, F::Column},
    {ParamId::PointVolume, "point_volume", E::MaterialPoint, 1, "m^d", 1.0, R::Positive, "material_points.volume",
     "a volume > 0 (m^3, or m^2 in 2D)", "volume", O::None, F::Column},
    {ParamId::MaterialYoungsModulus, "material_youngs_modulus", E::Material, 1, "Pa", 0.0, R::NonNegative,
     "material_points.materials.youngs_modulus", "a Young's modulus >= 0 (Pa)", "Young's modulus", O::None, F::Field},
    {ParamId::MaterialPoissonRatio, "material_poisson_ratio", E::Material, 1, "", 0.0, R::Finite,
     "material_points.materials.poisson_ratio", "a Poisson ratio in (-1, 0.5)", "Poisson ratio", O::None, F::Field},
    {ParamId::MaterialBulkModulus, "material_bulk_modulus", E::Material, 1, "Pa", 0.0, R::NonNegative,
     "material_points.materials.bulk_modulus", "a bulk modulus >= 0 (Pa)", "bulk modulus", O::None, F::Field},
    {ParamId::MaterialViscosity, "material_viscosity", E::Material, 1, "Pa s", 0.0, R::NonNegative,
     "material_points.materials.viscosity", "a viscosity >= 0 (Pa s)", "viscosity", O::None, F::Field},
    {ParamId::MaterialFrictionAngle, "material_friction_angle", E::Material, 1, "deg", 30.0, R::Finite,
     "material_points.materials.friction_angle", "a friction angle in [0, 90) degrees", "friction angle", O::None,
     F::Field},
    {ParamId::LinkPosition, "link_position", E::Link, 3, "m", 0.0, R::Finite, "articulations.links.pos",
     "a finite position in the parent's frame (m)", "placement", O::Arrows, F::Field},
    {ParamId::LinkMass, "link_mass", E::Link, 1, "kg", 1.0, R::NonNegative, "articulations.links.mass",
     "a mass >= 0 (kg)", "mass", O::Colors, F::Field},
    {ParamId::LinkCom, "link_com", E::Link, 3, "m", 0.0, R::Finite, "articulations.links.com",
     "a finite centre of mass in the link's frame (m)", "centre of mass", O::Arrows, F::Field},
    {ParamId::LinkInertia, "link_inertia", E::Link, 6, "kg m^2", 0.01, R::Finite, "articulations.links.inertia",
     "finite inertia entries xx, yy, zz, xy, xz, yz (kg m^2)", "inertia", O::None, F::Field, kLinkInertiaRow},
    {ParamId::LinkDamping, "link_damping", E::Link, 1, "", 0.0, R::NonNegative, "articulations.links.damping",
     "a damping >= 0", "joint damping", O::Colors, F::Field},
    {ParamId::LinkArmature, "link_armature", E::Link, 1, "", 0.0, R::NonNegative, "articulations.links.armature",
     "an armature >= 0", "joint armature", O::Colors, F::Field},
    {ParamId::LinkJointPosition, "link_q", E::Link, 1, "", 0.0, R::Finite, "articulations.links.q",
     "a finite joint coordinate (rad or m)", "initial q", O::Colors, F::Field},
    {ParamId::LinkJointVelocity, "link_qd", E::Link, 1, "", 0.0, R::Finite, "articulations.links.qd",
     "a finite joint rate (rad/s or m/s)", "initial qd", O::Colors, F::Field},
    {ParamId::LinkRotation, "link_rotation", E::Link, 4, "", 0.0, R::Finite, "articulations.links.rotation",
     "[x, y, z, w]: a finite, non-zero quaternion", "initial rotation", O::None, F::FieldWhenSet, kIdentityQuaternion},
    {ParamId::LinkTranslation, "link_translation", E::Link, 3, "m", 0.0, R::Finite, "articulations.links.translation",
     "a finite translation in the world's axes (m)", "initial translation", O::Arrows, F::FieldWhenSet},
    {ParamId::LinkAngularVelocity, "link_angular_velocity", E::Link, 3, "rad/s", 0.0, R::Finite,
     "articulations.links.angular_velocity", "a finite angular velocity in the link's frame (rad/s)",
     "initial angular velocity", O::Arrows, F::FieldWhenSet},
    {ParamId::LinkLinearVelocity, "link_linear_velocity", E::Link, 3, "m/s", 0.0, R::Finite,
     "articulations.links.linear_velocity", "a finite velocity in the world's axes (m/s)", "initial velocity",
     O::Arrows, F::FieldWhenSet},
    {ParamId::LinkScale, "link_scale", E::Link, 1, "", 1.0, R::Positive, "articulations.links.scale",
     "a scale > 0 (1: the link as given)", "size", O::Colors, F::FieldWhenSet},
    {ParamId::LinkLength, "link_length", E::Link, 1, "", 1.0, R::Positive, "articulations.links.length",
     "a stretch > 0 along the link's length_axis (1: the link as given)", "length", O::Colors, F::FieldWhenSet},
    {ParamId::LinkStiffness, "link_stiffness", E::Link, 1, "", 0.0, R::NonNegative, "articulations.links.stiffness",
     "a joint stiffness >= 0 (N m/rad or N/m)", "joint stiffness", O::Colors, F::FieldWhenSet},
    {ParamId::LinkSpringRef, "link_spring_ref", E::Link, 1, "", 0.0, R::Finite, "articulations.links.spring_ref",
     "a finite joint coordinate at which its spring rests (rad or m)", "spring rest q", O::Colors, F::FieldWhenSet},
    {ParamId::LinkFrictionLoss, "link_frictionloss", E::Link, 1, "", 0.0, R::NonNegative,
     "articulations.links.frictionloss", "a joint friction >= 0 (N m or N)", "joint friction", O::Colors,
     F::FieldWhenSet},
    {ParamId::ActuatorGain, "actuator_gain", E::LinkActuator, 1, "", 1.0, R::Finite, "articulations.actuators.gain",
     "a finite gain (1: a motor; kp: a position servo)", "gain", O::None, F::Field},
    {ParamId::ActuatorBiasQ, "actuator_bias_q", E::LinkActuator, 1, "", 0.0, R::Finite,
     "articulations.actuators.bias_q", "a finite bias on the joint's position (-kp: a position servo)", "bias on q",
     O::None, F::Field},
    {ParamId::ActuatorBiasQd, "actuator_bias_qd", E::LinkActuator, 1, "", 0.0, R::Finite,
     "articulations.actuators.bias_qd", "a finite bias on the joint's velocity (-kv: a servo)", "bias on qd", O::None,
     F::Field},
};

constexpr bool in_id_order() {
  for (int i = 0; i < kParamCount; ++i)
    if (static_cast<int>(kFacts[i].id) != i) return false;
  return true;
}
static_assert(in_id_order(), "kFacts must list every parameter in ParamId order");

}  // namespace

const ParamFacts& param_facts(ParamId id) { return kFacts[static_cast<int>(id)]; }

std::span<const ParamId> per_step_params() {
  static const std::vector<ParamId> ids = [] {
    std::vector<ParamId> found;
    for (const ParamFacts& facts : kFacts)
      if (is_per_step(facts.element)) found.push_back(facts.id);
    return found;
  }();
  return ids;
}

std::vector<double> param_default_row(const ParamFacts& facts, int cols) {
  if (facts.row_fill.size() == static_cast<std::size_t>(cols)) return {facts.row_fill.begin(), facts.row_fill.end()};
  return std::vector<double>(static_cast<std::size_t>(cols), facts.fill);
}

std::vector<double> param_default(const ParamFacts& facts, const Scene& scene, int rows, int cols) {
  if (facts.scene_default) return facts.scene_default(scene, facts.id, rows, cols);
  const std::vector<double> row = param_default_row(facts, cols);
  std::vector<double> values;
  values.reserve(static_cast<std::size_t>(rows) * row.size());
  for (int r = 0; r < rows; ++r) values.insert(values.end(), row.begin(), row.end());
  return values;
}

std::string param_names_listed() {
  std::string names;
  for (int k = 0; k < kParamCount; ++k) names += (k > 0 ? ", " : "") + std::string(param_name(ParamId(k)));
  return names;
}

std::string_view param_element_name(ParamElement element) {
  switch (element) {
    case ParamElement::Particle: return "particle";
    case ParamElement::Spring: return "spring";
    case ParamElement::Scene: return "scene";
    case ParamElement::StepChannel: return "step and channel";
    case ParamElement::Body: return "body";
    case ParamElement::Joint: return "joint";
    case ParamElement::StepJoint: return "step and joint";
    case ParamElement::Triangle: return "triangle";
    case ParamElement::BendingEdge: return "bending edge";
    case ParamElement::Tet: return "tet";
    case ParamElement::ControllerWeight: return "weight";
    case ParamElement::MaterialPoint: return "material point";
    case ParamElement::Material: return "material";
    case ParamElement::Link: return "link";
    case ParamElement::LinkActuator: return "actuator";
  }
  return "element";
}

std::string_view param_section(const ParamFacts& facts) {
  const std::size_t dot = facts.where.rfind('.');
  return dot == std::string_view::npos ? std::string_view{} : facts.where.substr(0, dot);
}

std::string_view param_key(const ParamFacts& facts) {
  const std::size_t dot = facts.where.rfind('.');
  return dot == std::string_view::npos ? facts.where : facts.where.substr(dot + 1);
}

bool in_param_range(ParamRange range, double x) {
  switch (range) {
    case ParamRange::Finite: return std::isfinite(x);
    case ParamRange::Positive: return std::isfinite(x) && x > 0;
    case ParamRange::NonNegative: return std::isfinite(x) && x >= 0;
    case ParamRange::UnitInterval: return std::isfinite(x) && x > 0 && x <= 1;
  }
  return false;
}

}  // namespace nudge
