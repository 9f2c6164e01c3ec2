// The joint coordinates of a scene's articulations (nudge/articulations.h): each joint's
// entries of qd and of q, in link order; a link's shapes at its scale.
#include "nudge/articulations.h"

namespace nudge {

LinkShape scaled_link_shape(const LinkShape& shape, const ArticulationLink& link, double scale) {
  LinkShape scaled = shape;
  if (scale == 1.0) return scaled;  // bit for bit, as the kernels' points (articulation_links.h)
  for (int c = 0; c < 3; ++c) {
    scaled.pos[c] = link.anchor[c] + scale * (shape.pos[c] - link.anchor[c]);
    scaled.size[c] = scale * shape.size[c];
    scaled.mesh_scale[c] = scale * shape.mesh_scale[c];
  }
  return scaled;
}

std::string_view articulation_joint_name(ArticulationJoint joint) {
  switch (joint) {
    case ArticulationJoint::Weld: return "weld";
    case ArticulationJoint::Hinge: return "hinge";
    case ArticulationJoint::Slide: return "slide";
    case ArticulationJoint::Ball: return "ball";
    case ArticulationJoint::Free: return "free";
  }
  return "weld";
}

int joint_velocity_count(ArticulationJoint joint) {
  switch (joint) {
    case ArticulationJoint::Weld: return 0;
    case ArticulationJoint::Hinge:
    case ArticulationJoint::Slide: return 1;
    case ArticulationJoint::Ball: return 3;
    case ArticulationJoint::Free: return 6;
  }
  return 0;
}

int joint_position_count(ArticulationJoint joint) {
  return joint == ArticulationJoint::Ball ? 4 : joint == ArticulationJoint::Free ? 7 : joint_velocity_count(joint);
}

namespace {

std::vector<int> first_entries(const Articulations& a, int (*count)(ArticulationJoint)) {
  std::vector<int> index;
  int next = 0;
  for (const ArticulationLink& l : a.links) {
    index.push_back(count(l.joint) > 0 ? next : -1);
    next += count(l.joint);
  }
  return index;
}

int total(const Articulations& a, int (*count)(ArticulationJoint)) {
  int n = 0;
  for (const ArticulationLink& l : a.links) n += count(l.joint);
  return n;
}

}  // namespace

std::vector<int> articulation_coordinates(const Articulations& a) { return first_entries(a, joint_velocity_count); }
int articulation_coordinate_count(const Articulations& a) { return total(a, joint_velocity_count); }
std::vector<int> articulation_positions(const Articulations& a) { return first_entries(a, joint_position_count); }
int articulation_position_count(const Articulations& a) { return total(a, joint_position_count); }

}  // namespace nudge
