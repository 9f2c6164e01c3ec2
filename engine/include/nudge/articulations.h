// Articulated bodies in joint coordinates: trees of links, each joined to its parent (or
// to the world) by one joint, simulated in the joints' own coordinates q and qd, so that
// a hinge is exact (families/articulations/). A robot brought from MJCF or URDF
// (nudge import) is one tree.
//
// A link's frame sits in its parent's at `pos` (a parameter) and `quat` when its joint is
// at rest, and the joint moves it there: a hinge turns it by q about `axis` through
// `anchor` (both in the link's frame), a slide moves it by q along `axis`, a ball turns it
// about `anchor` by a rotation (q: a quaternion x, y, z, w; qd: the angular velocity in the
// link's frame), a free joint moves it by a translation in the world's axes and turns it
// as a ball (q: 3 + 4, qd: 3 + 3, as MuJoCo's free joint; only a tree's root has one), a
// weld holds it. A link's size is a parameter too (link_scale, 1 by default): scaled by s
// about its joint's anchor, its shapes, contact points, centre of mass and its children's
// placements move by s, and its mass and inertia grow by s^3 and s^5 (one density); and
// its length (link_length, l): stretched by l along its length_axis, its mass grows by l.
// The size of a leg for a design to change. Its mass, centre of mass and inertia are parameters, as are its joint's
// damping and armature and the initial q and qd (nudge/parameters.h: link_q, link_qd for
// hinges and slides; link_rotation, link_translation, link_angular_velocity and
// link_linear_velocity for balls and free joints).
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "nudge/result.h"

namespace nudge {

struct ConvexMesh;  // nudge/convex_mesh.h

enum class ArticulationJoint { Weld, Hinge, Slide, Ball, Free };

// Its name in scene files: "weld", "hinge", "slide", "ball", "free".
std::string_view articulation_joint_name(ArticulationJoint joint);
// Its entries in qd (0, 1, 1, 3, 6) and in q (0, 1, 1, 4, 7).
int joint_velocity_count(ArticulationJoint joint);
int joint_position_count(ArticulationJoint joint);

// A shape on a link, for drawing (in the link's frame). MJCF's and URDF's geoms.
struct LinkShape {
  enum class Kind { Sphere, Capsule, Box, Cylinder, Mesh };
  Kind kind = Kind::Sphere;
  // Sphere: radius; capsule and cylinder: radius, half length (along the shape's z); box:
  // half extents.
  double size[3] = {0.05, 0.0, 0.0};
  double pos[3] = {0, 0, 0};
  double quat[4] = {0, 0, 0, 1};  // x, y, z, w
  double rgba[4] = {0.7, 0.7, 0.7, 1.0};
  std::string mesh;  // Mesh: an OBJ or STL file, relative to the scene file
  double mesh_scale[3] = {1, 1, 1};
  // Mesh: the convex hull of the file's vertices, in its units and axes (mesh_scale
  // applies where it is used), read with the scene or the robot (load_link_mesh). It is
  // drawn, and its vertices are the shape's contact points.
  std::shared_ptr<const ConvexMesh> hull;
  // Whether the link meets the colliders here (MJCF's contype and conaffinity both 0:
  // drawn only).
  bool collides = true;
  // Whether the studio draws it. A URDF link with both <visual> and <collision> geoms is
  // drawn by its visuals (collides false) and felt through its collision geoms (drawn
  // false), as ROS tools show and simulate it.
  bool drawn = true;
};

// Reads an OBJ or STL file (by its extension, in any case) and makes a mesh shape's hull:
// the convex hull of its vertices. Errors start with the file's path.
Result<std::shared_ptr<const ConvexMesh>> load_link_mesh(const std::filesystem::path& file);

struct ArticulationLink {
  std::string name;
  std::string joint_name;  // the joint's own name in its source (MJCF's joint name), or empty
  int parent = -1;         // a link before this one, or -1: the world
  ArticulationJoint joint = ArticulationJoint::Hinge;
  double quat[4] = {0, 0, 0, 1};  // the link's frame in its parent's at q = 0
  double anchor[3] = {0, 0, 0};   // the joint's point, in the link's frame
  double axis[3] = {0, 0, 1};     // the joint's axis, in the link's frame (normalised when read)
  // The direction link_length stretches the link along, in its frame (normalised when
  // read; zero: none, and link_length must stay 1). nudge import sets it from the joint's
  // anchor to the one child's placement, or along the link's first capsule or cylinder.
  double length_axis[3] = {0, 0, 0};
  // A hinge's or slide's limits: past [range[0], range[1]] a spring and damper push q back
  // (-limit_stiffness (q - bound) - limit_damping qd, never pulling), a penalty in place of
  // MuJoCo's soft constraint. robot_scene sets them from MuJoCo's default time constant.
  bool limited = false;
  double range[2] = {0, 0};
  double limit_stiffness = 0, limit_damping = 0;
  // The rate (rad/s or m/s) over which its dry friction (link_frictionloss) grows from 0 to
  // near full: the force is -frictionloss tanh(qd / friction_velocity), in place of
  // MuJoCo's friction constraint. Smaller holds a joint stiller and changes its gradient
  // faster; the step takes the force's slope implicitly, so any value > 0 stays stable.
  double friction_velocity = 0.01;
  std::vector<LinkShape> shapes;
};

// How many of the link's shapes the studio draws (LinkShape::drawn).
int drawn_shape_count(const ArticulationLink& link);

// A force on one link's joint from a control channel, as MuJoCo's actuators with a fixed
// gain and an affine bias: force = gain u + bias_q (gear q) + bias_qd (gear qd), applied
// as gear force. A motor: gain 1; a position servo: gain kp, bias_q -kp, bias_qd -kv.
// The gain and the biases are parameters (actuator_gain, actuator_bias_q,
// actuator_bias_qd), for a design to tune; the rest is the actuator's structure.
struct ArticulationActuator {
  std::string name;
  int link = 0;     // whose joint it drives (a hinge or a slide)
  int channel = 0;  // the control channel it reads
  double gear = 1.0;
  // MuJoCo's ctrlrange: the control is clamped to it before the actuator reads it.
  bool ctrl_limited = false;
  double ctrl_range[2] = {-1, 1};
  // MuJoCo's forcerange: the force (before the gear) is clamped to it.
  bool force_limited = false;
  double force_range[2] = {-1, 1};
};

struct Articulations {
  std::vector<ArticulationLink> links;  // every tree's, parents first
  std::vector<ArticulationActuator> actuators;
  std::string source;  // the MJCF or URDF file they were imported from, as written; or empty
  // Whether links meet each other: each link's contact points against the other links'
  // solids, except its parent's and its children's (MuJoCo's parent filter). Off by
  // default: the contact is explicit, so stiff contact between light links needs a
  // small dt.
  bool self_contact = false;

  int link_count() const { return static_cast<int>(links.size()); }
  bool empty() const { return links.empty(); }
};

// A link's size as its parameters give it: link_scale and link_length (nudge/parameters.h).
struct LinkSize {
  double scale = 1, length = 1;
};

// A shape as its link's size places it: its position moved about the joint's anchor by
// the scale and by the stretch along the link's length_axis, its sizes grown by the scale,
// a capsule's or cylinder's length as its ends move, a box's or mesh's extents as its axes
// stretch (a box tilted to the length axis is drawn as the box its stretched axes span).
LinkShape resized_link_shape(const LinkShape& shape, const ArticulationLink& link, LinkSize size);

// Each link's first entry in qd, -1 for a weld; and how many entries qd has.
std::vector<int> articulation_coordinates(const Articulations& a);
int articulation_coordinate_count(const Articulations& a);
// Each link's first entry in q, -1 for a weld; and how many entries q has. For hinges and
// slides alone q and qd line up; a ball's and a free joint's rotations take one more in q.
std::vector<int> articulation_positions(const Articulations& a);
int articulation_position_count(const Articulations& a);

}  // namespace nudge
